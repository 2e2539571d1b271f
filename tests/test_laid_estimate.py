"""Issue 44: a deck laid out once. A table whose column widths the cards' estimate knows to
be wrong (a nearly empty column whose one cell the renderer hyphenates) is measured again as
it is laid out (:func:`rulesdsl.printed.table_slices.measure`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rulesdsl.printed import fit
from rulesdsl.printed.card_room import CARD_SIZES, _room
from rulesdsl.printed.cards import build_deck
from rulesdsl.printed.sheet_view import CellView, HeadCell, TableView
from rulesdsl.printed.table_slices import measure
from tests import pdf_layout


def test_a_word_longer_than_its_line_breaks_where_the_dictionary_allows() -> None:
    """ "blessures 1" in the 19.5 pt the injury table's "effets" column gets on a French
    poker card: WeasyPrint sets "bles-", "sures", "1" (three lines), where breaking the
    word anywhere puts "1" after its rest (two)."""
    assert fit.lines("blessures 1", 19.5, 7.0) == 2
    assert fit.hyphenated_lines("blessures 1", 19.5, 7.0, False, "fr") == 3
    # a word that fits is not broken; one that does not fit the rest of its line is, there
    assert fit.hyphenated_lines("Blessée", 40.0, 7.0, False, "fr") == 1
    assert fit.hyphenated_lines("agit en dernier", 40.0, 7.5, False, "fr") == 2


def _injury(effects: list[str]) -> TableView:
    head = [HeadCell(text) for text in ("jet", "résultat", "effets", "chance")]
    rows = [
        [CellView(roll, ("label",)), CellView("Blessée"), CellView(effect), CellView("2/6")]
        for roll, effect in zip(("1-", "2-3", "4-5"), effects, strict=True)
    ]
    return TableView([head], rows, [], 1)


def test_a_nearly_empty_column_hyphenated_as_laid_out_is_measured_so() -> None:
    """skirmish_keywords fr's injury table on a poker card set across: its column of
    effects, blank but "blessures 1", estimated as wide as "blessures" whole, is laid out
    narrower ("bles-sures") and its neighbours wider; estimated so, the table was a line
    short (132 pt; 139 pt laid out). It is measured as laid out where that is taller, its
    columns cut as before. Without the language (a sheet, which hyphenates in its
    estimate), or with the column full, the estimate is as before."""
    sheet = build_deck(pdf_layout.ruleset("skirmish_keywords"), "fr").sheet
    [table] = [b.table for s in sheet.sections for b in s.blocks if b.id == "injury"]
    assert table is not None
    size = CARD_SIZES["poker"]
    across = replace(size, width=size.height, height=size.width)
    box = _room(across, 7.0).box
    laid = replace(box, laid_lang="fr")
    before, after = (measure(table, _room(across, 7.0).width, b) for b in (box, laid))
    assert sum(before.row_heights) + before.head_height < 139
    assert sum(after.row_heights) + after.head_height >= 139
    assert after.widths == before.widths  # the cut into column groups is the estimate's
    full = _injury(["blessures 1", "blessures 2", "blessures 3"])
    assert measure(full, 150, laid) == measure(full, 150, box)


@pytest.mark.parametrize(
    ("name", "lang"),
    [
        pytest.param(
            "skirmish_keywords",
            "fr",
            marks=pdf_layout.written_deck_group("skirmish_keywords", "fr"),
        )
    ],
)
def test_the_injury_tables_deck_is_laid_out_once(name: str, lang: str) -> None:
    """skirmish_keywords fr's poker deck lost its footer on the injury table's first card in
    its first layout (the estimate a line short) and was laid out again, one card more. (The
    deck ``render_deck`` writes, rendered once for the tests that read it.)"""
    written = pdf_layout.written_deck(name, lang)
    assert written.pdf.losses == ()
    assert written.layout.layouts == 1
