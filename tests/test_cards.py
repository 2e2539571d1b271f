# ruff: noqa: RUF001  (Cyrillic labels are what the Russian tests check)
"""Quick-reference cards (issue 13): decks that work at the table.

A deck is cut from the same sheet model as the sheets; these tests check that cutting loses
nothing (every cell lands on exactly one card), that per-mode decks keep only that unit
type, that imposition puts each back behind its front, and, from WeasyPrint's layout of
every bundled deck in every language and card size, that no text leaves its card.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesdsl.builder.build import default_backends
from rulesdsl.commands.cli import main
from rulesdsl.i18n import PSEUDO
from rulesdsl.printed.cards import (
    CARD_SIZES,
    Card,
    build_deck,
    card_outputs,
    imposition,
    render_deck_html,
)
from rulesdsl.printed.sheet_view import TableView
from rulesdsl.printed.table_slices import transposed
from tests import pdf_layout
from tests.print_economy import HALF, LEAST_PT, MEDIAN_PT
from tests.test_sheets import pseudo_leaks

SIZES = tuple(CARD_SIZES)


def cells_by_row(t: TableView) -> dict[str, list[str]]:
    return {r[0].text: [c.text for c in r[1:]] for r in t.rows}


# ---- cutting a sheet into cards -----------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_every_cell_of_a_wide_table_lands_on_exactly_one_card(size: str) -> None:
    whole = pdf_layout.sheet("battletech_tacops", "ru").sections[0].blocks[0]
    assert whole.table is not None
    deck = pdf_layout.deck("battletech_tacops", "ru", size)  # as the layouts below cut it
    cards = [c for c in deck.cards if c.title.startswith(whole.title)]
    assert len(cards) > 1  # eleven unit types do not fit one card
    assert cards[0].title == f"{whole.title} 1/{len(cards)}"
    seen: dict[str, list[str]] = {}
    for card in cards:
        if card.table is None:  # the block's rules before the table, or notes sent on after it
            assert (card.lines and card is cards[0]) or (card.notes and card.part)
            continue
        table = transposed(card.table) if card.sideways else card.table  # as the sheet sets it
        for label, values in cells_by_row(table).items():
            labels = [r[0].text for r in whole.table.rows if label.startswith(r[0].text)]
            seen.setdefault(max(labels, key=len, default=label), []).extend(values)
    expected = {
        label: [("⊘" if v.startswith("⊘") else v) for v in values]
        for label, values in cells_by_row(whole.table).items()
    }
    assert seen == expected


def test_a_long_table_continues_on_the_next_card_with_its_header() -> None:
    deck = pdf_layout.deck("battletech_tacops", "en")
    weather = [c for c in deck.cards if c.title.startswith("Weather")]
    assert len(weather) > 1
    for card in weather:  # each part repeats its header; a last part may hold notes only
        assert (card.table is not None and card.table.head) or (card.notes and card.part)
    rows = [r[0].text for c in weather if c.table is not None for r in c.table.rows]
    assert len(rows) == len(set(rows)) or len(weather) > 2  # rows split, not repeated


def test_a_footnote_goes_on_the_card_of_its_first_row() -> None:
    """... or, where that row and its notes are taller than a card, on the next card of the
    same block (the notes follow the row rather than run off the card)."""
    deck = pdf_layout.deck("battletech_tacops", "en")
    before: set[str] = set()
    for card in deck.cards:
        if card.table is None:
            continue
        marks = {m for r in card.table.rows for c in r for m in c.notes}
        marks |= {m for row in card.table.head for h in row for m in h.notes}
        assert {m for m, _ in card.notes} <= marks | before, card.title
        before = marks


def test_cards_are_numbered_and_carry_the_ruleset_identity() -> None:
    rs = pdf_layout.ruleset("heavy_gear")
    deck = pdf_layout.deck("heavy_gear", "fr")
    assert [c.number for c in deck.cards] == list(range(1, len(deck.cards) + 1))
    html = render_deck_html(deck, "a4")
    total = len(deck.cards)
    for card in deck.cards:
        assert html.count(f'<span class="num">{card.number}/{total}</span>') == 2  # both sides
    # the front's footer names the ruleset and its version on one line, the back's the digest
    assert html.count(f"</span> {rs.id} version {rs.version}</div>") == total
    assert html.count(f"</span> {deck.sheet.ident}</div>") == total
    assert rs.digest in deck.sheet.ident
    assert f"{total} cartes" in html


def test_the_mech_deck_keeps_only_what_concerns_mechs() -> None:
    rs = pdf_layout.ruleset("battletech_tacops")
    deck = pdf_layout.deck("battletech_tacops", "ru", "poker", "mech")
    # the heavy industrial zone is a layer of its own on a clear or paved hex (issue 28)
    base = [
        c
        for c in deck.cards
        if c.title.startswith(("Базовая местность", "Плотные промышленные зоны"))
    ]
    heads = {h.text for c in base if c.table is not None for row in c.table.head for h in row}
    assert "ОД на гекс: Мех" in heads
    assert not any("Гусеничная" in h or "Ховер" in h for h in heads)
    piloting = "Модификатор пилотирования/вождения"
    assert piloting in heads
    assert "Большая техника (наземная)" not in heads
    # by mode, only the mech's own column is left; "others" is the to-hit modifier's column
    # for the other weapon classes (by weapon, not by mode)
    for card in base:
        if card.table is None:  # a last part holding the notes the parts before sent on
            assert card.notes and card.part
            continue
        row_heads = [[h.text for h in row] for row in card.table.head]
        if piloting in row_heads[0] and len(row_heads) == 1:
            # one cell a column: no other mode's piloting column hides beside the mech's
            assert len(card.table.rows[0]) == len(row_heads[0])
        if "прочие" in {h for row in row_heads for h in row}:
            assert "Физические атаки" in row_heads[-1]
    woods = next(
        r for c in base if c.table is not None for r in c.table.rows if r[0].text == "Густой лес"
    )
    assert [c.text for c in woods[1:]][:1] == ["2"]  # mechs pay 2 MP in heavy woods
    assert "Мех" in render_deck_html(deck, "a4")
    with pytest.raises(ValueError, match="unknown mode 'tank'"):
        build_deck(rs, "ru", "poker", mode="tank")


# ---- imposition ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "size,paper,expected,landscape",
    [
        ("poker", "a4", (3, 3), False),
        ("poker", "letter", (4, 2), True),
        ("tarot", "a4", (2, 2), False),
        ("index", "a4", (2, 2), True),
        ("a6", "a4", (2, 1), True),
    ],
)
def test_cards_are_laid_out_n_up(
    size: str, paper: str, expected: tuple[int, int], landscape: bool
) -> None:
    layout = imposition(CARD_SIZES[size], paper)
    assert (layout.columns, layout.rows) == expected
    # the sheet turns landscape when that holds more cards; it is flipped on its short edge
    assert (layout.page_width > layout.page_height) == landscape
    assert layout.flip == ("short" if landscape else "long")
    x0, y0 = layout.origin
    assert x0 >= 5 and y0 >= 5  # printers leave the edges blank


def test_the_back_of_a_card_lands_behind_its_front() -> None:
    layout = imposition(CARD_SIZES["poker"], "a4")
    for index in range(layout.per_sheet):
        front, back = layout.slot(index), layout.slot(index, back=True)
        # long-edge duplex mirrors left and right: the back's left edge is the front's right
        assert back.left == pytest.approx(layout.page_width - front.left - layout.card_width)
        assert back.top == front.top


def test_crop_marks_stay_in_the_margin() -> None:
    layout = imposition(CARD_SIZES["poker"], "a4")
    x0, y0 = layout.origin
    x1, y1 = x0 + 3 * 63, y0 + 3 * 88
    marks = layout.crop_marks()
    assert len(marks) == 2 * 4 + 2 * 4
    for ax, ay, bx, by in marks:
        for x, y in ((ax, ay), (bx, by)):
            assert 0 <= x <= layout.page_width and 0 <= y <= layout.page_height
            assert not (x0 < x < x1 and y0 < y < y1)  # never over a card


# ---- what a player sees -------------------------------------------------------------------------


DECKS = pdf_layout.matrix(
    SIZES, half=0, group=pdf_layout.written_deck_group, elsewhere=pdf_layout.on_letter
)
"""Every bundled deck in every language and card size, imposed on A4 (a sample without
``--layout-matrix``): the layouts the tests below read. A ruleset's size read back on Letter
only (:func:`~tests.pdf_layout.on_letter`) is held to these tests' checks on Letter with
``--layout-matrix`` (tests/test_print_matrix.py), on A4 with ``--layout-matrix-full``."""


@pytest.mark.parametrize("name,lang,size", DECKS)
def test_no_text_leaves_its_card(name: str, lang: str, size: str) -> None:
    layout = pdf_layout.deck_layout(name, lang, size)
    assert layout.lost == ()
    assert layout.heading_only == ()


@pytest.mark.parametrize("name,lang,size", DECKS)
def test_every_card_front_in_every_size_keeps_to_the_type_floor(
    name: str, lang: str, size: str
) -> None:
    """Issue 41 goal 3, read from the layout in every card size: the deck's median type
    7 pt or more, no character under 6 pt, each front's body (its rules, table cells and
    titles) at 7 pt or more, and each front's median, its small print (band, table headers,
    footnotes, source line, footer: :data:`tests.pdf_layout.SMALL_PRINT`) included, 7 pt
    or more (docs/sheets.md, Type)."""
    layout = pdf_layout.deck_layout(name, lang, size)
    assert layout.type[0] >= MEDIAN_PT and layout.type[1] >= LEAST_PT
    assert [(f.number, f.body) for f in layout.faces if f.body < MEDIAN_PT] == []
    assert [(f.number, f.type) for f in layout.faces if f.type[0] < MEDIAN_PT] == []


@pytest.mark.parametrize("name,lang,size", DECKS)
def test_every_card_in_every_size_is_half_used_but_the_last_of_its_table(
    name: str, lang: str, size: str
) -> None:
    """Issue 41 goal 1, read from the layout in every card size (the written poker decks:
    tests/test_print_economy.py); the last card of a column group counts as the last of its
    table (docs/sheets.md, Fill)."""
    faces = pdf_layout.deck_layout(name, lang, size).faces
    assert [f.number for f in faces] == list(range(1, len(faces) + 1))
    ends = pdf_layout.group_ends(faces)
    under = [f for f in faces if f.fill < HALF and not f.last and f.number not in ends]
    assert [f.number for f in under] == []


@pytest.mark.parametrize("name,lang,size", DECKS)
def test_every_card_in_every_size_lies_on_the_cuts_its_trim_box_states(
    name: str, lang: str, size: str
) -> None:
    """Issue 41 goal 4, read from the layout in every card size: each front laid out
    exactly between two cuts each way, inside the TrimBox the PDF states (``trim()``)."""
    layout = imposition(CARD_SIZES[size], "a4")
    (xs, ys), (left, top, right, bottom) = layout.cuts(), layout.trim()
    for face in pdf_layout.deck_layout(name, lang, size).faces:
        x0, y0, x1, y1 = face.cut
        assert left <= x0 < x1 <= right and top <= y0 < y1 <= bottom, face.number
        for at, cuts in ((x0, xs), (x1, xs), (y0, ys), (y1, ys)):
            assert min(abs(at - cut) for cut in cuts) < 0.01, (face.number, at, cuts)


def _per_mode_cases() -> list[object]:
    """(ruleset, language, mode) for every per-mode deck; but for the matrix, one a ruleset
    that extends none (a variant's per-mode decks are much like its base's); with
    ``--layout-matrix``, :func:`pdf_layout.mode_cover` and the decks whose PDF a test reads
    (laid out anyway); with ``--layout-matrix-full``, all."""
    params = []
    cover = pdf_layout.mode_cover()
    for name, lang in pdf_layout.cases():
        rs = pdf_layout.ruleset(name)
        for n, mode in enumerate(rs.modes):
            keep = n == 0 and lang == rs.languages[-1] and not rs.extends
            group = pdf_layout.written_deck_group(name, lang, "poker", mode.id)
            covered = group is not None or (name, lang, mode.id) in cover
            marks = pdf_layout.matrix_marks(keep, covered)
            marks += (group,) if group is not None else ()
            params.append(pytest.param(name, lang, mode.id, marks=marks))
    return params


@pytest.mark.parametrize("name,lang,mode", _per_mode_cases())
def test_no_text_leaves_a_per_mode_card(name: str, lang: str, mode: str) -> None:
    layout = pdf_layout.deck_layout(name, lang, "poker", mode)
    assert layout.lost == ()
    assert layout.heading_only == ()


@pytest.mark.parametrize("name", pdf_layout.RULESETS)
def test_every_word_on_a_card_comes_from_the_catalog_or_a_label(name: str) -> None:
    rs = pdf_layout.ruleset(name)
    html = render_deck_html(build_deck(rs, PSEUDO, "poker"), "a4")
    assert pseudo_leaks(rs, html) == []


def test_a_deck_pdf_shows_its_cards() -> None:
    from rulesdsl.printed.cards import render_deck

    rs = pdf_layout.ruleset("heavy_gear")
    # one card per page, fronts and backs
    pdf = render_deck(rs, "fr", "tarot", paper=None, index=True)
    pages = _pdf_pages(bytes(pdf))
    deck = build_deck(rs, "fr", "tarot", index=True)
    assert len(pages) == 2 * len(deck.cards)
    width, height = pages[0][0]
    assert (round(width / 72 * 25.4), round(height / 72 * 25.4)) == (70, 120)
    index = pages[0][1]
    # the index lists every card by number and title on its one card
    assert "Cartes du paquet" in index and re.search(r"\b\d+ Terrain · un par case", index)
    # the index's cards and their backs, then the first topic: the terrain (in parts)
    terrain = " ".join(
        text
        for _, text in pages[2:]
        if not text.startswith("Cartes du paquet") and "Terrain · un par case" in text
    )
    assert "1 par 2 po" in terrain


def _pdf_pages(pdf: bytes) -> list[tuple[tuple[float, float], str]]:
    """Each page's media box's upper right corner, in points, and its text, whitespace
    collapsed, read with PDFium (pypdf's text of each page, the same after the collapse on
    this deck, took 40 times its CPU)."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = [document[i] for i in range(len(document))]
        return [
            (page.get_mediabox()[2:], " ".join(page.get_textpage().get_text_range().split()))
            for page in pages
        ]
    finally:
        document.close()


# ---- build and command line -----------------------------------------------------------------


def test_build_makes_a_deck_per_ruleset_and_language() -> None:
    assert any(getattr(b, "__name__", "") == "card_outputs" for b in default_backends())
    rs = pdf_layout.ruleset("heavy_gear")
    outputs = card_outputs(rs)
    assert sorted(outputs) == [
        "cards/heavy_gear.de.pdf",
        "cards/heavy_gear.en.pdf",
        "cards/heavy_gear.fr.pdf",
    ]


def test_cards_command_writes_a_mech_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "deck.html"
    code = main(
        [
            "cards",
            "battletech_tacops",
            "--size",
            "poker",
            "--per-mode",
            "mech",
            "--lang",
            "ru",
            "--format",
            "html",
            "-o",
            str(out),
        ]
    )
    assert code == 0
    html = out.read_text("utf-8")
    assert "Карточки для: Мех" in html
    assert re.search(r"wrote .*deck\.html \(\d+ cards, poker, ru, a4\)", capsys.readouterr().err)


def test_cards_command_rejects_an_unknown_mode(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["cards", "heavy_gear", "--per-mode", "mech", "--format", "html"])
    assert code == 2
    err = capsys.readouterr().err
    assert "heavy_gear has no mode 'mech'; choose one of walker, ground, hover" in err


def _columns(card: Card) -> list[str]:
    """The columns of the sheet's table a card shows: its header, or on its side its rows."""
    assert card.table is not None
    if card.sideways:
        return [row[0].text for row in card.table.rows]
    return [h.text for row in card.table.head for h in row]


@pytest.mark.parametrize("mode", ["mech", "hover"])
def test_a_per_mode_deck_shows_only_its_unit_types_columns(mode: str) -> None:
    """Each layer is one table with the unit type's MP, to-hit and piloting: no column of
    another unit type (a piloting column for hovercraft in the Mech deck). (Not yet for
    every unit type: a weather table of large vehicles or infantry set across a poker card
    holds two rows a part, so it stays split between its columns upright.)"""
    rs = pdf_layout.ruleset("battletech_tacops")
    others = {m.info.labels["en"] for m in rs.modes if m.id != mode}
    deck = pdf_layout.deck("battletech_tacops", "en", "poker", mode)
    for card in deck.cards:
        if card.table is None or not card.block.startswith("movement/"):
            continue
        heads = _columns(card)
        assert not [h for h in heads if any(o in h for o in others)], (card.title, heads)
        assert sum(h.startswith("Piloting") for h in heads) <= 1, (card.title, heads)
    # one table: a block's parts split its rows, never its columns
    parts: dict[str, set[tuple[str, ...]]] = {}
    for card in deck.cards:
        if card.table is not None and card.block.startswith("movement/"):
            parts.setdefault(card.block, set()).add(tuple(_columns(card)))
    # (the weather table set whole across a poker card holds two rows a part under its tall
    # header; no card may hold fewer than three rows of a split table, so it splits between
    # its column groups, each part holding three rows or more; so do the Mech's terrain
    # conditions since the gravity rows have a piloting column (issue 43), with the 6 pt
    # footer floor of issue 41)
    split = [b for b, shapes in parts.items() if len(shapes) > 1]
    assert set(split) <= {"movement/condition", "movement/weather"}, split
    swamp = next(
        r for c in deck.cards if c.table is not None for r in c.table.rows if r[0].text == "Swamp"
    )
    assert swamp  # the swamp row is there for every unit type
