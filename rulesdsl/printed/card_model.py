"""The cards of a deck and the few facts read off one card: the :class:`Card` and
:class:`Deck` records :mod:`rulesdsl.printed.cards` fills, whether a card's headers can be set
at the body's size, whether they are most of its text, its marker cells by their sign alone
and the numbers of a block's parts."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rulesdsl.printed.card_room import HEADS, CardSize, _room, _title_height
from rulesdsl.printed.card_tables import source_height
from rulesdsl.printed.sheet_view import MARKERS, Sheet, TableView, marker_sign
from rulesdsl.printed.table_columns import table_columns
from rulesdsl.printed.table_slices import measure, wide_chunks


@dataclass
class Card:
    section: str
    title: str
    kind: str = "table"
    lines: list[str] = field(default_factory=list)
    table: TableView | None = None
    notes: list[tuple[str, str]] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    svg: str = ""
    source: str = ""
    changed: bool = False
    number: int = 0
    block: str = ""
    """The sheet block the card shows (``section/block``): what a refit shrinks."""
    topic: str = ""
    """The section id (the topic band's pattern)."""
    font: float = 0.0
    """The body type size the fitter chose, in points."""
    part: str = ""
    """``2/3`` on the parts of a block split between cards."""
    band: int = 0
    """Which topic band the card wears (``band-N`` in cards.css)."""
    over: bool = False
    """The estimate says the card's content is taller than the card (one item too big)."""
    turned: bool = False
    """The front is set across the card (landscape): a wide table fits better so."""
    height: float = 0.0
    """The estimated height of the card's body (the rows, lines and notes), in points."""
    of_rows: int = 0
    """How many rows the table the card shows a part of has, as the deck sets it (set on its
    side, a table has a row per column)."""
    sideways: bool = False
    """The card's table is set on its side: a column per row of the sheet's table."""
    full_heads: bool = False
    """The table's headers are set at the body's size (:func:`heads_fit`), not smaller."""
    more: list[Card] = field(default_factory=list)
    """Blocks of the same topic printed on this card after its own (small blocks share a
    card: :func:`~rulesdsl.printed.cards.build_deck`)."""
    columns: list[float] = field(default_factory=list)
    """The table's columns' widths in per cent (:func:`set_columns`): none, laid out
    automatically."""


@dataclass
class Deck:
    sheet: Sheet
    size: CardSize
    cards: list[Card]
    mode: str = ""
    """The unit type the deck is for (its label), or "" for all."""
    words: dict[str, str] = field(default_factory=dict)


def heads_fit(card: Card, size: CardSize, share: tuple[float, float]) -> bool:
    """Whether the card's table keeps its columns on the card, and the card its room, with
    its headers at the body's size: a front of few rows under long headers set smaller is
    mostly small print (issue 41, goal 3; BattleTech en's *Gravel piles 3/3*)."""
    if card.table is None or card.more:
        return False
    if card.turned:
        size = replace(size, width=size.height, height=size.width)
    room = _room(size, card.font, share)
    full = replace(room.box, head_scale=1.0)
    if len(wide_chunks(card.table, room.width, full)) > 1:
        return False
    # the columns' widths change with the headers': the rows' heights too
    now, then = measure(card.table, room.width, room.box), measure(card.table, room.width, full)
    grown = then.head_height + sum(then.row_heights) - now.head_height - sum(now.row_heights)
    # and a line of margin: headers estimated at the body's size ran 5 pt past a card set
    # across (generic_wargame_skirmish en, Linear obstacles 2/2)
    cap = room.height - _title_height(card.title, room) - source_height(card, room) - room.line
    return card.height + grown <= cap


def set_columns(card: Card, size: CardSize, lang: str) -> None:
    """Give the card's tables (its own and those of the blocks it carries) the columns' widths
    the packer estimated (:func:`~rulesdsl.printed.table_columns.table_columns`), at the
    card's type in the deck's ``lang``, across it when it is turned, with its headers at their
    size."""
    if card.turned:
        size = replace(size, width=size.height, height=size.width)
    for shown in (card, *card.more):
        if shown.table is not None:
            room = _room(size, card.font, heads=1.0 if shown.full_heads else HEADS)
            shown.columns = table_columns(shown.table, room.width, room.box, lang)


def mostly_heads(card: Card) -> bool:
    """Whether the table's headers are half the characters of the card or more: set smaller
    than the body, they would make its median type smaller (issue 41, goal 3)."""
    if card.table is None:
        return False
    rows = card.table.rows
    marks = sum(len(",".join(c.notes)) for row in rows for c in row)
    heads = sum(len(h.text) for row in card.table.head for h in row) + marks
    cells = sum(len(c.text) for row in rows for c in row)
    said = [card.title, *card.lines, *card.after, *(t for _, t in card.notes), card.source]
    return heads >= cells + sum(map(len, said)) + FOOT_TEXT


FOOT_TEXT = 40
"""About how many characters the fronts' footer and topic band print (:func:`mostly_heads`)."""


def signs_only(t: TableView) -> TableView:
    """Marker cells shown by their sign alone (the legend on the back names them), so that
    "✕ impassable" does not widen every column of a card."""
    rows = []
    for row in t.rows:
        cells = [row[0]]
        for cell in row[1:]:
            marker = next((m for m in MARKERS if m in cell.classes), None)
            if marker is not None and cell.text.startswith(marker_sign(marker)):
                cell = replace(cell, text=marker_sign(marker))
            cells.append(cell)
        rows.append(cells)
    return replace(t, rows=rows)


def number_parts(cards: list[Card]) -> list[Card]:
    """ "Terrain 2/3" on the parts of a block split between cards (the title, then the part)."""
    if len(cards) > 1:
        for i, card in enumerate(cards, start=1):
            card.part = f"{i}/{len(cards)}"
            card.title = f"{card.title} {card.part}"
    return cards
