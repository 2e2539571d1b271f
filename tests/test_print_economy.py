"""Print economy (issue 41): decks no larger than they need be and sheets within their page
budget, read from the PDFs the build writes (generated/, which ``rulesdsl build --check``
keeps current) and, for Letter, from the sheets' layouts (tests/pdf_layout.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.printed import cards
from rulesdsl.printed.card_blocks import block_cards
from rulesdsl.printed.card_tables import row_sources_out
from rulesdsl.printed.cards import CARD_SIZES, build_deck
from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.printed.sheet_view import Block, CellView, HeadCell, TableView
from rulesdsl.printed.sheets import fit_to_paper, render_html
from tests import pdf_layout
from tests.print_economy import (
    HALF,
    LEAST_PT,
    MEDIAN_PT,
    column_group_ends,
    deck,
    deck_cards,
    deck_cases,
    deck_group,
    examples_title,
    printed,
    rules_pages,
    small_runs,
    texts,
    written_deck,
)

GENERATED = Path(__file__).resolve().parent.parent / "generated"

DECK_MOST = {
    ("battletech_tacops", "en"): 36,
    ("battletech_tacops", "ru"): 48,
    ("heavy_gear", "en"): 16,
}
"""The most cards a bundled poker deck may hold: last release's deck of the same content
(issue 41 goal 1)."""

SHEET_PAGES = {"heavy_gear": 1, "battletech_tacops": 2}
"""The most pages a sheet's rules take, the worked examples on pages of their own after them
(docs/sheets.md, Page layout): Heavy Gear's one and BattleTech's two, as the issue asks."""


@pytest.mark.parametrize(("name", "lang"), sorted(DECK_MOST))
def test_a_written_deck_holds_no_more_cards_than_last_release(name: str, lang: str) -> None:
    pdf = (GENERATED / "cards" / f"{name}.{lang}.pdf").read_bytes()
    assert deck_cards(pdf, name) <= DECK_MOST[name, lang]


def test_the_lines_before_a_table_alone_on_a_card_join_the_small_blocks_before_them() -> None:
    """Issue 41: skirmish_keywords en printed the two lines before its hit modifiers alone on
    card 11, 35 % used, after a card 42 % used."""
    [card] = [
        card for card in deck("skirmish_keywords", "en").cards if card.block == "modifiers/cover"
    ]
    assert [more.block for more in card.more] == ["modifiers/hit"]
    assert card.more[0].lines and card.more[0].table is None


def test_the_lines_before_a_table_go_after_its_last_row_where_that_saves_a_card() -> None:
    """Issue 41: BattleTech ru opened with the three lines before its base terrain alone on
    a card, 37 % used (the first card of the deck: no block before it to join). With the
    small print at the body's size and the footer on one line (goal 3), the lines share
    the first card with three rows: never alone on a card, either way."""
    dealt = deck("battletech_tacops", "ru").cards
    base = [card for card in dealt if card.block == "movement/base"]
    assert base[0].table is not None
    assert all(card.table is not None for card in base if card.lines)  # never alone
    assert len(dealt) <= DECK_MOST["battletech_tacops", "ru"]


@pytest.mark.parametrize(("name", "lang"), deck_cases())
def test_every_card_of_a_written_deck_is_half_used_but_the_last_of_its_table(
    name: str, lang: str
) -> None:
    """The last card of a column group counts as the last of its table (docs/sheets.md,
    Fill): BattleTech en's Terrain Effects 2/4, on its side, holds the last three rows of the
    rolls 2-9, 47.6 % used; the rolls 10-12 on the next card are other columns."""
    pdf = (GENERATED / "cards" / f"{name}.{lang}.pdf").read_bytes()
    fills = printed("cards", name, lang).fills
    assert [f.number for f in fills] == list(range(1, deck_cards(pdf, name) + 1))
    model = deck(name, lang)
    if len(model.cards) != len(fills):  # the build refitted it: the cards it wrote
        model = written_deck(name, lang)
    assert len(model.cards) == len(fills)
    ends = column_group_ends(model)
    under = [(f.number, f.fill) for f in fills if f.fill < HALF and not f.last]
    assert [(number, fill) for number, fill in under if number not in ends] == []


@pytest.mark.parametrize(("name", "lang"), deck_cases())
def test_every_front_of_a_written_deck_sets_half_its_text_at_7_pt_or_more(
    name: str, lang: str
) -> None:
    """Issue 41 goal 3, face by face, footers and note marks included: BattleTech en's
    fronts were half under 7 pt (footnotes at 6.02 pt, table headers at 6.16 pt, footers
    at 6 pt), 36 cards; all their small print at the body's size took 39 (docs/sheets.md,
    Type)."""
    fronts = printed("cards", name, lang).fills
    assert [(f.number, f.type) for f in fronts if f.type[0] < MEDIAN_PT] == []
    assert min(f.type[1] for f in fronts) >= LEAST_PT


@pytest.mark.parametrize(
    ("name", "lang"),
    [
        case
        for case in deck_cases()
        if case.values[0] in ("battletech_tacops", "heavy_gear", "generic_wargame")
    ],
)
def test_a_table_that_fits_one_upright_card_at_the_type_floor_is_not_split(
    name: str, lang: str
) -> None:
    """Issue 41: the Russian base terrain turned on its side into 16 cards of 2-3 rows, a
    card held one row of "Water state"."""
    size = CARD_SIZES["poker"]
    model = deck(name, lang)
    for section in model.sheet.sections:
        for block in section.blocks:
            if block.table is None or section.id == "examples":
                continue
            room = cards._room(size, size.font)
            if len(block_cards(section.title, row_sources_out(block), room)) > 1:
                continue
            key = f"{section.id}/{block.id}"
            held = [c for c in model.cards for c in (c, *c.more) if c.block == key]
            assert len(held) == 1, (key, len(held))


def test_sheet_blocks_that_fit_a_column_flow_in_two_columns_wider_ones_take_the_page() -> None:
    """The room that keeps Heavy Gear's rules on one page: a block beside nothing (the weather
    table half-width, the bog-down table folded) takes a column, in order with the topics
    after it; BattleTech's terrain tables keep the page's width; A5 keeps one column."""
    rs = pdf_layout.ruleset("battletech_tacops")
    sheet = fit_to_paper(build_sheet(rs, "en"), "a4")
    wide = {b.id: s.wide for s in sheet.sections for b in s.blocks if s.id != "examples"}
    assert wide["base"] and wide["terrain_effects"]
    assert not wide["weather"] and not wide["bog_down"] and not wide["los"]
    movement = [s for s in sheet.sections if s.id == "movement"]
    assert [(s.part, s.wide) for s in movement] == [(0, True), (1, False), (2, False)]
    bog = next(b for s in sheet.sections for b in s.blocks if b.id == "bog_down")
    assert bog.table is not None and not bog.table.fold  # its halves would wrap in a column
    page = render_html(build_sheet(rs, "en"), "a4")
    assert page.count('<div class="columns') == 2 and page.count("<h2>Movement</h2>") == 1
    a5 = fit_to_paper(build_sheet(pdf_layout.ruleset("heavy_gear"), "en"), "a5")
    assert all(s.wide for s in a5.sections)


def test_a_table_that_fits_a_column_only_hyphenated_takes_one_where_that_saves_room() -> None:
    """Russian BattleTech's weather table, 374 pt at its narrowest unhyphenated against a
    260 pt column, took the page's width and put the rules on a third A4 page; hyphenated as
    the sheet's dictionary allows it fits a column at 1.4 times its height across. Its
    terrain effects (2.8 times) and industrial zones (2.3 times) keep the page's width, and a
    block tightened by a refit is not hyphenated into a column again."""
    rs = pdf_layout.ruleset("battletech_tacops")
    for paper in ("a4", "letter"):
        sheet = fit_to_paper(build_sheet(rs, "ru"), paper)
        wide = {b.id: s.wide for s in sheet.sections for b in s.blocks if s.id != "examples"}
        assert not wide["weather"], paper
        assert wide["terrain_effects"] and wide["industrial"] and wide["base"], paper
    tight = fit_to_paper(build_sheet(rs, "ru"), "a4", tight={"movement/weather": 0.99})
    assert [s.wide for s in tight.sections for b in s.blocks if b.id == "weather"] == [True]


def test_conditions_that_exclude_each_other_are_said_once() -> None:
    """BattleTech's eight precipitations exclude each other, written as seven `exclude`
    lines (light rain with the seven others, moderate rain with the six after it...): the
    sheet printed all seven, 17 lines of the Russian sheet's column; it says "at most one"
    once, with the first line's note and source (generic_wargame's protection levels: the
    lines after the first name no source); conditions that do not all exclude each other keep
    their lines."""
    sheet = build_sheet(pdf_layout.ruleset("battletech_tacops"), "en")
    [block] = [b for s in sheet.sections if s.id == "exclusions" for b in s.blocks]
    rain = [line for line in block.lines if "Moderate rain" in line]
    assert rain[0].startswith(
        "At most one at a time: Light rain, Moderate rain, Heavy rain, Torrential downpour, "
        "Light snowfall, Moderate snowfall, Heavy snowfall, Blizzard. One precipitation"
    )
    assert not any(line.startswith(("Moderate rain", "Heavy snowfall")) for line in block.lines)
    assert any(line.startswith("Light fog: excludes Heavy fog") for line in block.lines)
    assert any(line.startswith("Vacuum: excludes Thin atmosphere, Light rain") for line in rain)
    assert len(block.lines) == 8
    sheet = build_sheet(pdf_layout.ruleset("generic_wargame"), "en")
    [block] = [b for s in sheet.sections if s.id == "exclusions" for b in s.blocks]
    assert block.lines[-1] == (
        "At most one at a time: Protection 1 (weakest), Protection 2, Protection 3, "
        "Protection 4, Protection 5, Protection 6, Protection 7, Protection 8 (strongest). "
        "One protection level per terrain. [Rules]"
    )
    assert not any(line.startswith("Protection") for line in block.lines)


def test_the_source_most_rows_of_a_sheets_table_name_is_said_once_in_its_heading() -> None:
    """BattleTech: ``MegaMek`` under 11 of the 13 base terrain labels took most of the Russian
    ones to two lines; the rows that name another source keep it."""
    sheet = fit_to_paper(build_sheet(pdf_layout.ruleset("battletech_tacops"), "en"), "a4")
    blocks = {b.id: b for s in sheet.sections for b in s.blocks}
    base = blocks["base"]
    assert base.source == "TO p. 30 · MegaMek" and base.table is not None
    assert {row[0].small for row in base.table.rows} == {"", "TW p. 52"}
    assert blocks["bog_down"].source == "TO p. 62 “Bog-down rules”"  # no row names one


@pytest.mark.parametrize(
    ("name", "lang"), [case for case in pdf_layout.cases() if case[0] in SHEET_PAGES]
)
def test_a_written_sheets_rules_keep_to_its_page_budget_on_a4(name: str, lang: str) -> None:
    pages = texts((GENERATED / "sheets" / f"{name}.{lang}.pdf").read_bytes())
    examples = examples_title(name, lang)
    assert examples in "".join(pages)  # the worked examples are still printed
    assert rules_pages(pages, examples) <= SHEET_PAGES[name]


@pytest.mark.parametrize(
    ("name", "lang"), [case for case in pdf_layout.cases() if case[0] in SHEET_PAGES]
)
def test_a_sheets_rules_keep_to_its_page_budget_on_letter(name: str, lang: str) -> None:
    layout = pdf_layout.sheet_layout(name, lang, "letter")  # as render_sheet lays it out
    assert rules_pages(layout.openings, examples_title(name, lang)) <= SHEET_PAGES[name]


@pytest.mark.parametrize(("name", "lang"), deck_cases())
def test_a_deck_prints_each_footnote_once_a_card_and_no_index_unasked(name: str, lang: str) -> None:
    dealt = deck(name, lang).cards
    assert not [card.number for card in dealt if card.kind == "index"]
    assert not [card.number for card in dealt if card.block.startswith("examples/")]
    for card in dealt:
        for shown in (card, *card.more):
            marks = [mark for mark, _ in shown.notes]
            assert len(marks) == len(set(marks)), (card.number, shown.title, marks)


def test_a_note_marked_by_a_header_and_two_cells_of_a_row_prints_once() -> None:
    """Issue 41: card 15/91 of the Russian BattleTech deck printed note 6 twice (its column's
    header and a cell of the first row both marked it)."""
    head = [[HeadCell("Terrain"), HeadCell("Mud", notes=("1",)), HeadCell("Snow")]]
    rows = [[CellView("Deep"), CellView("2", notes=("1",)), CellView("3", notes=("1", "2"))]]
    table = TableView(head, rows, ["Terrain", "Mud", "Snow"])
    block = Block("bog", "Bog", table=table, notes=[("1", "Bogs down."), ("2", "Slides.")])
    size = CARD_SIZES["poker"]
    [card] = block_cards("Movement", block, cards._room(size, size.font))
    assert [mark for mark, _ in card.notes] == ["1", "2"]


@pytest.mark.parametrize("name", ["battletech_tacops", "heavy_gear"])
def test_the_index_asked_for_is_one_card(name: str) -> None:
    for lang in pdf_layout.ruleset(name).languages:
        deck = build_deck(pdf_layout.ruleset(name), lang, index=True, examples=True)
        assert [card.kind for card in deck.cards].count("index") == 1, lang


def _written() -> list[object]:
    return [
        pytest.param(kind, *case, marks=deck_group(*case))
        for kind in ("cards", "sheets")
        for case in pdf_layout.cases()
    ]


@pytest.mark.parametrize(("kind", "name", "lang"), _written())
def test_a_written_deck_or_sheet_sets_no_text_under_6_pt(kind: str, name: str, lang: str) -> None:
    """Charts included: a step scale is drawn for a poker card's room, not shrunk into it."""
    assert small_runs(printed(kind, name, lang).pages, LEAST_PT) == []


@pytest.mark.parametrize(("kind", "name", "lang"), _written())
def test_half_the_text_of_a_written_deck_or_sheet_is_7_pt_or_more(
    kind: str, name: str, lang: str
) -> None:
    sizes = sorted(size for _, page in printed(kind, name, lang).pages for size in page)
    assert sizes[len(sizes) // 2] >= MEDIAN_PT
