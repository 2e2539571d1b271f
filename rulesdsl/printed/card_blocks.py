"""One block of a sheet on cards at one room: its lines, picture, table and notes packed
(:mod:`card_packing`, :mod:`card_tables`). :mod:`rulesdsl.printed.cards` fits each block by
trying it at several rooms (type sizes, the card turned, the table's shapes); where a trial
can only win by taking no more than some number of cards, :func:`cards_within` first
bounds the cards its content takes (:func:`~rulesdsl.printed.card_tables.least_cards`) and
packs it only where that bound leaves it a chance (issue 44: the packer was most of a
deck's build outside the layout)."""

from __future__ import annotations

from dataclasses import replace

from rulesdsl.printed.card_model import Card, number_parts, signs_only
from rulesdsl.printed.card_packing import LEAST_ROWS, Item, Line, Note, Svg, pack
from rulesdsl.printed.card_room import (
    _note_height,
    _para_height,
    _Room,
    _svg_height,
    _title_height,
)
from rulesdsl.printed.card_tables import (
    TableShape,
    least_cards,
    measured_as,
    source_height,
    table_cards,
    waste,
)
from rulesdsl.printed.sheet_view import Block
from rulesdsl.printed.table_slices import measure, wide_chunks

__all__ = ["block_cards", "cards_within"]


def block_cards(
    section: str,
    block: Block,
    room: _Room,
    whole_rows: bool = False,
    least_rows: int = LEAST_ROWS,
) -> list[Card]:
    """The cards of one block: the table split across and down as needed; with
    ``whole_rows`` never across (a results table is read along its rows)."""
    cards = cards_within(section, block, room, None, whole_rows, least_rows)
    assert cards is not None  # no bound asked
    return cards


def cards_within(
    section: str,
    block: Block,
    room: _Room,
    most: int | None,
    whole_rows: bool = False,
    least_rows: int = LEAST_ROWS,
) -> list[Card] | None:
    """:func:`block_cards`, or None where its table's content is taller than ``most`` cards
    hold (:func:`~rulesdsl.printed.card_tables.least_cards`): then its cards would be more
    than ``most`` or some over its room, whatever way it is packed. ``most`` None: no bound."""
    title = block.title or section
    base = Card(section, title, block.kind, source=block.source, changed=block.changed)
    head_h = _title_height(title, room)
    cap = room.height - head_h
    items: list[Item] = []
    """What the card shows, in order."""
    for line in block.lines:
        items.append(Line(line, _para_height(line, room)))
    if block.svg:
        items.append(Svg(block.svg, _svg_height(block.svg, room)))
    table = block.table if block.table is not None and not block.svg else None
    after: list[Item] = [Line(text, _para_height(text, room), after=True) for text in block.after]
    notes = dict(block.notes)
    if table is None:
        items += [Note((m, t), _note_height(m, t, room)) for m, t in block.notes]
        return number_parts(pack(base, items + after, cap, source_height(base, room), None))
    if table.fold:
        table = replace(table, fold=False)
    table = signs_only(table)
    ncols = len(table.rows[0]) - 1 if table.rows else 0
    shape = TableShape(base, items, after, notes, room, cap, least_rows)
    if whole_rows:
        chunks = [list(range(ncols))]
    else:
        layout = measure(table, room.width, room.box)
        chunks = wide_chunks(table, room.width, room.box, layout)
        if len(chunks) == 1:  # the table whole across: its one group measured already
            measured_as(shape, table, chunks[0], layout)
    if most is not None and least_cards(shape, table, chunks) > most:
        return None
    cards = table_cards(shape, table, chunks, False)
    # the notes after the last row: the same cards where the table has none
    notes_last = (False, True) if notes else (False,)
    if len(cards) > 1 and notes:
        last = table_cards(shape, table, chunks, True)
        if waste(last) < waste(cards):
            cards = last
    if len(cards) > 1 and cards[0].table is None and block.lines:
        # the lines before the table alone on a card: after its last row where that takes
        # fewer cards (BattleTech ru's base terrain opened with a card a third full)
        lines = [Line(line, _para_height(line, room), after=True) for line in block.lines]
        moved = replace(shape, items=[], after=lines + after)
        for last_notes in notes_last:
            trial = table_cards(moved, table, chunks, last_notes)
            if len(trial) < len(cards):
                cards = trial
    for card in cards:
        card.of_rows = len(table.rows)
    return number_parts(cards)
