"""Split tables on cards (issue 23): no part under 3 rows where three rows under the header
are taller than the card (the table is set on its side, with hyphenated cells, or in its
compact form), decks not one row per card, and the packing's defaults."""

from __future__ import annotations

import inspect

import pytest

from rulesdsl.printed import card_packing
from rulesdsl.printed.cards import build_deck
from rulesdsl.printed.table_slices import transposed
from tests import pdf_layout
from tests.print_economy import deck, deck_cases


def _short(deck_cards: list) -> list:  # type: ignore[type-arg]
    return [
        (c.title, len(c.table.rows), c.of_rows)
        for c in deck_cards
        if c.part and c.table is not None and c.of_rows >= 3 and len(c.table.rows) < 3
    ]


def test_pack_takes_least_rows_as_its_default_not_0_for_it() -> None:
    for function in (card_packing.pack, card_packing.pack_even):
        default = inspect.signature(function).parameters["least_rows"].default
        assert default == card_packing.LEAST_ROWS == 3


@pytest.mark.parametrize(("name", "lang"), deck_cases())
def test_per_mode_decks_hold_no_part_under_3_rows(name: str, lang: str) -> None:
    """The first and last unit type's deck of every bundled ruleset, in each language (all
    109 per-mode poker decks hold none when measured: see the report of print23b)."""
    rs = pdf_layout.ruleset(name)
    modes = {m.id for m in (rs.modes[:1] + rs.modes[-1:])}
    for mode in sorted(modes):
        assert _short(deck(name, lang, "poker", mode).cards) == [], mode


def test_a_results_table_too_wordy_for_a_card_prints_its_outcomes_as_codes_with_a_key() -> None:
    """The hex game's French combat results: whole words left parts of two rows (2+2+2 on
    turned cards); by the outcomes' ids (AE, AR, EX, DR, DE) every roll is on one card,
    with a key to the codes under it."""
    deck = build_deck(pdf_layout.ruleset("hex_operational"), "fr", "poker")
    crt = [c for c in deck.cards if c.block == "results/crt" and c.table is not None]
    assert len(crt) == 1 and len(crt[0].table.rows) == 6  # type: ignore[union-attr]
    cells = {cell.text for row in crt[0].table.rows for cell in row[1:]}  # type: ignore[union-attr]
    assert cells == {"AE", "AR", "EX", "DR", "DE"}
    key = [line for c in deck.cards if c.block == "results/crt" for line in c.after]
    assert any("AE\u202f: Attaquant éliminé" in line or "AE : Attaquant" in line for line in key)


def test_the_sheet_keeps_the_results_tables_words() -> None:
    """The codes are the cards' compact form only: the A4 sheet prints the outcomes whole."""
    from rulesdsl.printed.sheet_model import build_sheet
    from rulesdsl.printed.sheets import render_markdown

    md = render_markdown(build_sheet(pdf_layout.ruleset("hex_operational"), "fr"))
    assert "| Attaquant éliminé |" in md
    assert "| AE |" not in md


def test_a_table_on_its_side_has_a_row_per_column_and_keeps_marks_and_sources() -> None:
    rs = pdf_layout.ruleset("battletech_tacops")
    deck = build_deck(rs, "en", "poker")
    gravel = next(b for s in deck.sheet.sections for b in s.blocks if b.id == "gravel" and b.table)
    assert gravel.table is not None
    side = transposed(gravel.table)
    assert len(side.rows) == len(gravel.table.rows[0]) - 1
    assert len(side.rows[0]) == len(gravel.table.rows) + 1
    assert [h.notes for h in side.head[0][1:]] == [r[0].notes for r in gravel.table.rows]
    assert side.rows[0][0].text == gravel.table.flat_head[1]
    for r, row in enumerate(gravel.table.rows):
        if row[0].small:
            assert row[0].small in side.head[0][r + 1].text


def test_a_refitted_block_keeps_3_rows_a_part_where_it_can_and_never_goes_row_by_row() -> None:
    """The desert deck's Russian weather went one row a card (30 cards) after the loss
    check's refits on main: a refit gives the block less room, but its parts still hold three
    rows where some way of setting it allows, and the topic stays far from a card a row."""
    rs = pdf_layout.ruleset("battletech_tacops_desert")
    first = build_deck(rs, "ru", "poker")
    weather = [c for c in first.cards if c.block == "movement/weather"]
    refit = build_deck(rs, "ru", "poker", tight={"movement/weather": (1.0, 0.85)})
    again = [c for c in refit.cards if c.block == "movement/weather"]
    assert _short(again) == []
    assert len(again) <= len(weather) + 4
    rows = sum(len(c.table.rows) for c in again if c.table is not None)
    assert rows / len(again) >= 2.5


GRID = '<svg viewBox="0 0 104 116" width="104pt" height="116pt"><text>5 ft</text></svg>'
"""A picture 116 points high (an estimate of 118: its margin)."""


def test_a_picture_is_drawn_smaller_under_the_lines_alone_on_its_card() -> None:
    """d20's square grid on index cards (issue 41): its two lines alone on a card (41 %
    used), the picture on the next, 0.3 pt too tall to go under them; drawn at 95 % it does,
    its width in proportion."""
    from rulesdsl.printed.cards import Card

    items = [card_packing.Line("1 square = 5 ft.", 13.0), card_packing.Line("Diagonals", 25.0)]
    items.append(card_packing.Svg(GRID, 118.0))
    (card,) = card_packing.pack(Card("Grid", "Square"), items, 150.0, 0.0, None)
    assert card.lines == ["1 square = 5 ft.", "Diagonals"] and card.height == 150.0
    assert ' width="98.62pt" height="110.00pt"' in card.svg and "5 ft" in card.svg


def test_a_picture_is_not_drawn_under_its_least_size_nor_after_more_than_lines() -> None:
    """Under :data:`card_packing.LEAST_DRAWN` (its 6.5-pt labels under 6 pt) the picture takes
    the next card, as it does after a picture or text after the table: only the lines a
    block opens with keep their card so."""
    from rulesdsl.printed.cards import Card

    line = card_packing.Line("Diagonals", 40.0)
    svg = card_packing.Svg(GRID, 118.0)
    base = Card("Grid", "Square")
    floor = 40.0 + 2 + 116 * card_packing.LEAST_DRAWN
    assert len(card_packing.pack(base, [line, svg], floor + 0.01, 0.0, None)) == 1
    assert len(card_packing.pack(base, [line, svg], floor - 0.01, 0.0, None)) == 2
    after = [card_packing.Line("Example", 40.0, after=True), svg]
    assert len(card_packing.pack(base, after, 150.0, 0.0, None)) == 2
