"""The card packer's bounds cut only trials that cannot win (issue 44, the build's CPU): a
block's table is packed at a type size only where the cards its content needs
(:func:`rulesdsl.printed.card_tables.least_cards`) leave it a chance, and the deck is the
deck made with every trial packed."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from rulesdsl.printed import card_blocks, cards
from rulesdsl.printed.card_room import CARD_SIZES, _room
from rulesdsl.printed.card_tables import row_sources_out
from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.printed.sheet_view import Block, CellView, HeadCell, Sheet, TableView
from tests.conftest import bundled

CASES = [("battletech_tacops", "ru"), ("skirmish_keywords", "fr"), ("heavy_gear", "en")]


@cache
def _sheet(name: str, lang: str) -> tuple[Any, Sheet]:
    ruleset = bundled(name).ruleset
    assert ruleset is not None
    return ruleset, build_sheet(ruleset, lang, None)


@pytest.mark.parametrize(("name", "lang"), CASES)
def test_a_block_bound_to_the_cards_it_takes_is_packed_as_unbound(name: str, lang: str) -> None:
    """Bounded to as many cards as it takes, every table block packs as it does unbound (the
    bound never says fewer cards than a pack with none over takes); bounded to one card
    fewer, some are not packed at all (the bound prunes)."""
    _, sheet = _sheet(name, lang)
    size = CARD_SIZES["poker"]
    pruned = 0
    for card_size in (size, replace(size, width=size.height, height=size.width)):
        for font in (size.fonts()[0], size.fonts()[-1]):
            room = _room(card_size, font)
            for section in sheet.sections:
                for block in section.blocks:
                    if block.table is None or block.svg:
                        continue
                    block = row_sources_out(block)
                    whole = section.id in cards.WHOLE_ROWS
                    made = card_blocks.block_cards(section.title, block, room, whole)
                    if any(card.over for card in made):
                        continue
                    bound = card_blocks.cards_within
                    assert bound(section.title, block, room, len(made), whole) == made
                    pruned += bound(section.title, block, room, len(made) - 1, whole) is None
    assert pruned


@pytest.mark.parametrize(("name", "lang"), CASES)
def test_a_deck_made_with_bounds_is_the_deck_made_with_every_trial_packed(
    name: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset, sheet = _sheet(name, lang)

    def deck_html() -> str:
        deck = cards.build_deck(ruleset, lang, "poker", sheet=sheet, index=True, examples=True)
        return cards.render_deck_html(deck, "a4")

    bounded = deck_html()
    within = cards.cards_within
    asked: list[int] = []

    def unbounded(section: str, block: Any, room: Any, most: int | None, *rest: Any) -> Any:
        asked.append(1)
        return within(section, block, room, None, *rest)

    monkeypatch.setattr(cards, "cards_within", unbounded)
    assert deck_html() == bounded
    assert asked  # the bound was in play


WORDS = [[2, 4, 4, 3, 3, 3, 2], [2, 1, 5, 5, 2, 3, 4], [5, 5, 5, 1, 3, 5, 4]]
"""A table of seven columns, too wide for a poker card (two column groups), its cells of so
many words."""


def test_a_table_whose_lines_move_after_it_is_bound_so() -> None:
    """The lines before a table alone on its first card move after its last row where that
    takes fewer cards: then they share the last column group's cards, not the first's, and
    the bound counts them there (counted on the first group, it says three cards for two)."""
    ncols = len(WORDS[0])
    head = [[HeadCell("Terrain"), *(HeadCell(f"Column heading {c}") for c in range(ncols))]]
    rows = [
        [CellView(f"Row {r}"), *(CellView(" ".join(["costs"] * n)) for n in counts)]
        for r, counts in enumerate(WORDS)
    ]
    flat = ["Terrain", *(f"Column heading {c}" for c in range(ncols))]
    table = TableView(head, rows, flat, 1, False, list(range(ncols)))
    block = Block("b", "Title", table=table, lines=[" ".join(["terrain"] * 36)])
    room = _room(CARD_SIZES["poker"], CARD_SIZES["poker"].font)
    made = card_blocks.block_cards("Movement", block, room)
    assert len(made) == 2 and not any(card.over for card in made)
    assert made[-1].after  # the lines moved after the table
    assert card_blocks.cards_within("Movement", block, room, 2) == made
