"""A block's table on cards: its rows and notes in a stream, packed (:mod:`card_packing`) one
column group after another, each note once; and the rows' own sources moved to the block's
source line. :mod:`rulesdsl.printed.cards` fits blocks with these."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from rulesdsl.printed.card_packing import Item, Note, Row, pack_even
from rulesdsl.printed.card_room import SMALL
from rulesdsl.printed.card_room import _note_height as note_height
from rulesdsl.printed.card_room import _para_height as para_height
from rulesdsl.printed.card_room import _Room as Room
from rulesdsl.printed.fit import TableFit
from rulesdsl.printed.sheet_view import Block, TableView
from rulesdsl.printed.table_slices import measure, slice_table

Card = Any
"""A :class:`rulesdsl.printed.cards.Card` (named loosely: that module imports this one)."""

__all__ = [
    "TableShape",
    "least_cards",
    "measured_as",
    "row_sources_out",
    "source_height",
    "table_cards",
    "waste",
]


def row_sources_out(block: Block) -> Block:
    """The block with its rows' own sources (a label's small print, ``MegaMek``, ``TW p. 52``)
    moved into its source line, each once: printed under every row label they took a second
    line of most rows of BattleTech's tables, doubling their decks (issue 41). The sheet
    keeps them by their rows."""
    table = block.table
    if table is None:
        return block
    smalls = [row[0].small for row in table.rows if row[0].small]
    if not smalls:
        return block
    rows = [[replace(row[0], small=""), *row[1:]] for row in table.rows]
    named = list(dict.fromkeys(s for s in (block.source, *smalls) if s))
    # a book alone ("TO") is said by its page ("TO p. 32") where that is named too
    source = " · ".join(s for s in named if not any(o.startswith(f"{s} ") for o in named))
    compact = block.compact
    if compact is not None:
        compact = replace(row_sources_out(compact), source=source)
    return replace(block, table=replace(table, rows=rows), source=source, compact=compact)


def source_height(card: Card, room: Room) -> float:
    """The height of the source line under a card's body (none without a source)."""
    return para_height(card.source, room, SMALL) if card.source else 0.0


def waste(cards: list[Card]) -> tuple[int, int]:
    """How many cards a table takes, then how many of them but the last hold none of its rows
    (notes alone, or the lines before it: a mostly empty card in the middle of the table)."""
    alone = sum(1 for card in cards[:-1] if card.table is None)
    return len(cards), alone


@dataclass(frozen=True)
class TableShape:
    """What a block's table cards are packed from besides the table."""

    base: Card
    items: list[Item]
    after: list[Item]
    notes: dict[str, str]
    room: Room
    cap: float
    least_rows: int
    measured: dict[tuple[int, ...], tuple[TableView, TableFit]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Layouts measured already (:func:`_measured`), shared by the copies
    :func:`dataclasses.replace` makes: a block's table is packed several ways (its notes
    last, its lines after it), the same pieces and parts measured each time."""
    groups: dict[tuple[int, ...], tuple[TableView, TableView]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """The column groups cut already (:func:`_group`), shared as :attr:`measured` is."""


def _measured(
    shape: TableShape, table: TableView, key: tuple[int, ...], piece: TableView
) -> TableFit:
    """The layout of ``piece``, cut from ``table`` as ``key`` says (its columns, then its
    first row and how many), in the shape's room: measured once for the table."""
    found = shape.measured.get((id(table), *key))
    if found is None or found[0] is not table:
        found = (table, measure(piece, shape.room.width, shape.room.box))
        shape.measured[(id(table), *key)] = found
    return found[1]


def measured_as(shape: TableShape, table: TableView, cols: list[int], layout: TableFit) -> None:
    """``layout`` kept as that of the column group ``cols`` of ``table`` (every column: the
    table measured whole, its texts the same in the same room)."""
    shape.measured[(id(table), len(cols), *cols)] = (table, layout)


def _group(shape: TableShape, table: TableView, cols: list[int]) -> tuple[TableView, TableFit]:
    """The column group ``cols`` cut from ``table`` with every row, and its layout in the
    shape's room: cut and measured once for the table (:func:`least_cards` and each of
    :func:`table_cards`' packings read it)."""
    key = (id(table), *cols)
    found = shape.groups.get(key)
    if found is None or found[0] is not table:
        found = (table, slice_table(table, cols, range(len(table.rows))))
        shape.groups[key] = found
    return found[1], _measured(shape, table, (len(cols), *cols), found[1])


def least_cards(shape: TableShape, table: TableView, chunks: list[list[int]]) -> int:
    """The fewest cards ``table`` split into column ``chunks`` can take in the shape's room
    with none over it, however :func:`~rulesdsl.printed.card_blocks.cards_within` packs it
    (:func:`table_cards` with the notes under their rows or last, the lines before the
    table or moved after it): each column group's cards hold its rows and its header at
    least once, the notes its rows are the first to use or none (all after the last
    group's rows), the first group the lines before the table or the last group them after
    it, the last group the lines after the table; a card not over holds at most
    ``shape.cap``."""
    groups = []
    shown: set[str] = set()
    for cols in chunks:
        piece, layout = _group(shape, table, cols)
        marks = [m for row in piece.head for h in row for m in h.notes] if piece.rows else []
        marks += [m for row in piece.rows for c in row for m in c.notes]
        marks = [m for m in dict.fromkeys(marks) if m not in shown and m in shape.notes]
        shown.update(marks)
        notes = sum(note_height(m, shape.notes[m], shape.room) for m in marks)
        groups.append((sum(layout.row_heights), layout.head_height if piece.rows else 0.0, notes))
    before = sum(item.height for item in shape.items)
    after = sum(item.height for item in shape.after)
    every_note = sum(notes for _, _, notes in groups)
    last = len(groups) - 1
    return min(
        sum(
            _least_cards(
                rows,
                head,
                (not notes_last) * notes
                + (n == 0) * first
                + (n == last) * (after + moved + notes_last * every_note),
                shape.cap,
            )
            for n, (rows, head, notes) in enumerate(groups)
        )
        for first, moved in ((before, 0.0), (0.0, before))
        for notes_last in (False, True)
    )


def _least_cards(rows: float, head: float, other: float, cap: float) -> int:
    """The fewest cards of ``cap`` that hold ``rows`` (their header on each card that holds
    some) and ``other`` content with none over ``cap`` (a huge number: none can)."""
    held = 0
    if rows:
        if head >= cap:
            return 1 << 30
        held = _ceil(rows / (cap - head))
    return max(1, held, _ceil((rows + held * head + other) / cap))


def _ceil(share: float) -> int:
    """``share`` rounded up, less a hair: the packer sums the same heights in another order."""
    return math.ceil(share - 1e-6)


def table_cards(
    shape: TableShape, table: TableView, chunks: list[list[int]], notes_last: bool
) -> list[Card]:
    """The cards of a table split into column ``chunks``, its rows packed in order with the
    lines before it and the paragraphs after it. A note goes with the first row that uses it
    (each note once), or with ``notes_last`` after the table's last row: where that saves
    cards (rows with notes under them take cards of three rows and a card of notes alone)."""
    room, cap, notes = shape.room, shape.cap, shape.notes
    cards: list[Card] = []
    shown: set[str] = set()
    """Notes printed already: a table split between its columns gives each note once, on
    the card of the first row that uses it."""
    held: list[Item] = []
    """The notes kept for after the last row (``notes_last``)."""
    for cols in chunks:
        piece, layout = _group(shape, table, cols)
        stream = list(shape.items) if not cards else []
        head_marks = [m for row in piece.head for h in row for m in h.notes]
        for i, row in enumerate(piece.rows):
            marks = [m for m in head_marks if m not in shown] if i == 0 else []
            marks += [m for c in row for m in c.notes if m not in shown]
            marks = list(dict.fromkeys(marks))  # a note once, however many cells mark it
            shown.update(marks)
            row_notes = [(m, notes[m]) for m in marks if m in notes]
            note_heights = [note_height(m, t, room) for m, t in row_notes]
            row_height = layout.row_heights[i]
            if notes_last:
                stream.append(Row(i, [], row_height))
                held += [Note(n, h) for n, h in zip(row_notes, note_heights, strict=True)]
            elif row_height + sum(note_heights) + layout.head_height > cap:
                # a row and its notes taller than a card: the notes follow it, onto the
                # next card where they must
                stream.append(Row(i, [], row_height))
                stream += [Note(n, h) for n, h in zip(row_notes, note_heights, strict=True)]
            else:
                total = row_height + sum(note_heights)
                stream.append(Row(i, row_notes, total, tuple(note_heights)))
        if cols is chunks[-1]:
            stream += held + shape.after
        cards += _packed_by_parts(shape, stream, (table, cols, piece), layout)
    return cards


RECHECKS = 3
"""How many times a column group is packed again with the rows of a part too tall in its
own column widths raised to them."""


def _packed_by_parts(
    shape: TableShape,
    stream: list[Item],
    cut: tuple[TableView, list[int], TableView],
    layout: TableFit,
) -> list[Card]:
    """The cards of one column group, packed with its rows measured in the group's column
    widths; then, while some part measured in its own widths (as CSS sets them, from its own
    rows) would be taller than the card, packed again with that part's rows at their own
    heights. A part's label column can be narrower than the group's (BattleTech ru's
    wheeled deck: weather 1/6, labels on one line in the group, two on the card, 5 pt over
    its card and the deck laid out twice, issue 44). ``cut``: the table, the group's
    columns and the group cut from the table."""
    room, cap = shape.room, shape.cap
    table, cols, piece = cut
    heights = list(layout.row_heights)
    for attempt in range(RECHECKS + 1):
        # only the rows a recheck raised are made again (a deck's packs ask thousands)
        items = [
            replace(item, height=item.height + heights[item.index] - layout.row_heights[item.index])
            if isinstance(item, Row) and heights[item.index] != layout.row_heights[item.index]
            else item
            for item in stream
        ]
        cards = pack_even(
            shape.base,
            items,
            cap,
            source_height(shape.base, room),
            (piece, layout.head_height),
            shape.least_rows,
        )
        if attempt == RECHECKS:
            break
        raised = False
        first = 0
        for card in cards:
            held = len(card.table.rows) if card.table is not None else 0
            rows = range(first, first + held)
            first += held
            if not held:
                continue
            if all(n in rows for n in layout.widest_rows):
                # the rows that set the group's widths are in the part: the same widths,
                # its rows as high as in the group (over a quarter of the parts, issue 44)
                own = layout.row_heights[rows.start : rows.stop]
            else:
                key = (len(cols), *cols, rows.start, held)
                own = _measured(shape, table, key, card.table).row_heights
            grown = sum(max(0.0, h - heights[i]) for i, h in zip(rows, own, strict=True))
            if grown > 0 and card.height + grown > cap:
                # (a card over its room whose rows do not grow would be packed again alike:
                # a tenth of the deck's packs were such repeats, issue 44)
                for i, h in zip(rows, own, strict=True):
                    heights[i] = max(heights[i], h)
                raised = True
        if not raised:
            break
    return cards
