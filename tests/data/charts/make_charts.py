"""Writes the spreadsheet charts of this folder byte for byte as Excel and openpyxl save them
(run it from the repository's root: python tests/data/charts/make_charts.py).

terrain_fr.csv         French Excel, "CSV UTF-8 (délimité par des virgules)": a UTF-8
                       byte-order mark, `;` between cells, CRLF between rows, decimal commas,
                       a cell quoted only when it holds `;`, `"` or a line break (a line
                       break inside a cell is a bare LF, a quote is doubled).
terrain_fr_cp1252.csv  French Excel, "CSV (séparateur: point-virgule)": the same in cp1252,
                       no byte-order mark.
terrain_unicode.txt    Excel's "Texte Unicode": UTF-16 LE after its byte-order mark, tabs.
marsh.xlsx             a workbook made by openpyxl, sheet "marsh" (and a second sheet).
terrain_fr_note_for.csv, terrain_unicode_note_for.txt
                       the first and the third, with a `note for` column after the notes'
                       language columns (whom each note is for, issue 23), as the player
                       filled it in: one unit type, two in one cell, none.

The charts are heavy_gear's `terrain` layer as `rulesdsl export` writes it, edited as a
player would: soft costs walkers 3,5 instead of 3, and a new row, bog, has a note of two lines
with quotes in it.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

ROWS = [
    ["feature", "label", "label fr", "all", "walker", "ground", "hover", "note", "note fr"],
    ["clear", "Clear, open", "Dégagé", "1", "", "", "", "", ""],
    ["soft", "Soft (sand, snow, mud)", "Mou (sable, neige, boue)", "2", "3,5", "", "", "", ""],
    ["rough", "Rough, dense", "Accidenté, dense", "3", "", "", "", "", ""],
    [
        "very_rough",
        "Very rough, very dense",
        "Très accidenté, très dense",
        "4",
        "3",
        "impassable",
        "impassable",
        "",
        "",
    ],
    [
        "cliffs",
        "Impassable (cliffs, crevasses)",
        "Infranchissable (falaises, crevasses)",
        "impassable",
        "",
        "",
        "",
        "",
        "",
    ],
    [
        "structure",
        "Structure",
        "Structures",
        "impassable",
        "",
        "",
        "",
        "Some models, usually infantry, may treat it as clear.",
        "Certaines figurines, souvent l'infanterie, la traitent comme du dégagé.",
    ],
    [
        "road",
        "Road",
        "Route",
        "1",
        "",
        "1 per 2 in",
        "",
        'Reading: in proportion, 1/2 MP an inch (the seed: "1 MP for 2 inches"), not per 2 '
        "inches begun.",
        "Lecture : au prorata, 1/2 PM par pouce (« 1 MP pour 2 pouces »), et non par tranche "
        "entamée.",
    ],
    [
        "shallow_water",
        "Shallow water (under 1 in deep)",
        "Eau peu profonde (moins de 1 pouce)",
        "2",
        "",
        "",
        "as clear",
        "",
        "",
    ],
    [
        "deep_water",
        "Deep water",
        "Eau profonde",
        "impassable",
        "",
        "",
        "as clear",
        "A model without the right perk that enters is destroyed; with it, treat as clear.",
        "Sans l'avantage adéquat, la figurine qui y entre est détruite ; avec, c'est du dégagé.",
    ],
    [
        "bog",
        "Bog",
        "Tourbière",
        "3",
        "",
        "impassable",
        "as clear",
        'A "deep" bog:\nhovers cross it as clear.',
        "Une tourbière « profonde » :\nles aéroglisseurs la franchissent comme du dégagé.",
    ],
]


def excel_csv(rows: list[list[str]], delimiter: str) -> str:
    """Rows as Excel writes CSV: quotes only where needed, CRLF after every row."""

    def cell(text: str) -> str:
        if any(c in text for c in (delimiter, '"', "\n", "\r")):
            return '"' + text.replace('"', '""') + '"'
        return text

    return "".join(delimiter.join(cell(c) for c in row) + "\r\n" for row in rows)


NOTE_FOR = {"structure": "walker", "road": "ground, hover", "bog": "hover"}
"""Whom each row's note is for in the `note for` charts (the rest: everyone)."""


def with_note_for(rows: list[list[str]]) -> list[list[str]]:
    """``rows`` with a `note for` column after ``note fr``."""
    header = [*rows[0], "note for"]
    return [header] + [[*row, NOTE_FOR.get(row[0], "")] for row in rows[1:]]


def main() -> None:
    text = excel_csv(ROWS, ";")
    (HERE / "terrain_fr.csv").write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    (HERE / "terrain_fr_cp1252.csv").write_bytes(text.encode("cp1252"))
    tabbed = excel_csv([[c.replace("3,5", "3.5") for c in row] for row in ROWS], "\t")
    (HERE / "terrain_unicode.txt").write_bytes(tabbed.encode("utf-16"))  # LE, with its BOM
    scoped = excel_csv(with_note_for(ROWS), ";")
    (HERE / "terrain_fr_note_for.csv").write_bytes(b"\xef\xbb\xbf" + scoped.encode("utf-8"))
    scoped_tabbed = excel_csv(
        [[c.replace("3,5", "3.5") for c in row] for row in with_note_for(ROWS)], "\t"
    )
    (HERE / "terrain_unicode_note_for.txt").write_bytes(scoped_tabbed.encode("utf-16"))
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "notes"
    sheet["A1"] = "Charts for the marsh layer"
    marsh = book.create_sheet("marsh")
    for row in [
        ["feature", "label", "label fr", "all", "walker", "ground", "hover", "source"],
        ["bog", "Bog", "Tourbière", 3, None, "impassable", 1.5, "hg p.12"],
        ["fen", "Fen", "Fagne", 2, 2.5, None, "as bog", None],
    ]:
        marsh.append(row)
    book.save(HERE / "marsh.xlsx")


if __name__ == "__main__":
    main()
