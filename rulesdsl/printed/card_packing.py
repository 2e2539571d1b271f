"""Packing a block onto cards: its lines, picture, table rows and notes, in order, a new card
when the next does not fit; the rows of a split table shared evenly between the parts, each
part at least :data:`LEAST_ROWS` rows where the card can hold them. Heights are estimated by
:mod:`rulesdsl.printed.card_room` (from font metrics); this module only places them."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, assert_never

from rulesdsl.printed.card_room import TYPE_FLOOR
from rulesdsl.printed.sheet_view import TableView
from rulesdsl.printed.svg import LEAST_PT
from rulesdsl.printed.table_slices import row_cutter

LEAST_ROWS = 3
"""The fewest rows of a split table on one card (a table of fewer rows is never split
between rows)."""

Card = Any
"""A :class:`rulesdsl.printed.cards.Card` (named loosely: that module imports this one)."""

__all__ = ["LEAST_ROWS", "Item", "Line", "Note", "Row", "Svg", "pack", "pack_even"]


@dataclass(frozen=True)
class Line:
    """A paragraph of the block's text and its height: one of the lines the block opens
    with, or (``after``) one after its table (a block's opening lines move there when that
    takes fewer cards)."""

    text: str
    height: float
    after: bool = False


@dataclass(frozen=True)
class Svg:
    svg: str
    height: float


@dataclass(frozen=True)
class Note:
    note: tuple[str, str]
    height: float


@dataclass(frozen=True)
class Row:
    index: int
    notes: list[tuple[str, str]]
    height: float
    """The row's height with its notes'."""
    note_heights: tuple[float, ...] = ()
    """Each note's height (a part that must take the row may send its notes on)."""


Item = Line | Svg | Note | Row
"""One thing a card shows, with its height: a line (before the table or after it), a
picture, a note, or a row of the table (with the notes it brings)."""


def pack_even(
    base: Card,
    items: Sequence[Item],
    cap: float,
    source_height: float,
    table: tuple[TableView, float],
    least_rows: int = LEAST_ROWS,
) -> list[Card]:
    """:func:`pack` with the rows shared evenly: as many cards as filling them in order
    takes, each filled to the least height that still needs no more cards (so the last
    card of "Terrain 3/3" does not hold one row).

    Filled in order, a part may be left short (4 rows and 2, where the notes of the last
    rows take a card of their own after 3 and 3): a lower fill that leaves no part under
    ``least_rows`` rows is taken then, even at a card more.

    Only the last pack cuts the table; the packs before it are trials (the cards they
    make are read for their number, those over and the short parts, which a trial gives
    the same), each made once for all the fills that pack alike (:class:`_Trials`)."""
    trials = _Trials(base, items, cap, source_height, table, least_rows)
    cards = trials(cap)
    if len(cards) < 2:
        return pack(base, items, cap, source_height, table, least_rows=least_rows)
    short = _short(cards, table, least_rows)
    over = sum(card.over for card in cards)
    if short:
        for step in range(1, SCAN + 1):
            fill = cap * (1 - step / SCAN / 2)
            trial = trials(fill)
            fewer = _short(trial, table, least_rows)
            if fewer < short and sum(card.over for card in trial) <= over:
                cards, short = trial, fewer
                if not short:
                    break
    low, high = 0.0, cap
    for _ in range(14):
        middle = (low + high) / 2
        trial = trials(middle)
        if (
            len(trial) <= len(cards)
            and sum(card.over for card in trial) <= over
            and _short(trial, table, least_rows) <= short
        ):
            high = middle
        else:
            low = middle
    high = _evener(trials, high, (len(cards), over, short))
    return _notes_back(pack(base, items, high, source_height, table, cap, least_rows), cap)


def _evener(trials: _Trials, low: float, most: tuple[int, int, int]) -> float:
    """The fill between ``low`` (the least found) and the card's room whose tallest card is
    the least, at no more cards, cards over and short parts than ``most``: a part that must
    take the last rows (:data:`LEAST_ROWS`) runs past the least fill, which can leave the
    parts most uneven (BattleTech ru's weather in parts of 5 and 7 rows, the second too tall
    for its card: the deck was laid out twice, issue 44)."""
    cap, table, least_rows = trials.cap, trials.table, trials.least_rows
    best = low
    tallest = _tallest(trials(low))
    for step in range(1, SCAN + 1):
        if tallest <= low:
            break
        fill = low + (cap - low) * step / SCAN
        trial = trials(fill)
        kept = (len(trial), sum(card.over for card in trial), _short(trial, table, least_rows))
        if all(k <= m for k, m in zip(kept, most, strict=True)) and _tallest(trial) < tallest:
            best, tallest = fill, _tallest(trial)
    return best


def _tallest(cards: Sequence[Card]) -> float:
    """The height of the tallest card not over its room."""
    return max((card.height for card in cards if not card.over), default=0.0)


def _notes_back(cards: list[Card], cap: float) -> list[Card]:
    """The cards with a last card of notes alone (the even fill sent them on) folded back
    onto the card before, where they fit its real room ``cap``: a card of one footnote is
    mostly empty card."""
    while len(cards) > 1:
        last, before = cards[-1], cards[-2]
        alone = last.table is None and not (last.lines or last.after or last.svg)
        if not alone or before.height + last.height > cap:
            break
        before.notes += last.notes
        before.height += last.height
        cards.pop()
    return cards


SCAN = 16
"""How many lower fills :func:`pack_even` tries (down to half the card) for one that leaves
no part short."""


def _short(cards: Sequence[Card], table: tuple[TableView, float] | None, least: int) -> int:
    """How many parts hold fewer than ``least`` rows of a table that has ``least`` or more."""
    if table is None or len(table[0].rows) < least:
        return 0
    return sum(1 for card in cards if 0 < _rows_held(card) < least)


def _rows_held(card: Card) -> int:
    """How many rows of the table ``card`` holds (a trial pack's stand-in counts them)."""
    if isinstance(card, _Trial):
        return card.held
    return len(card.table.rows) if card.table is not None else 0


def pack(
    base: Card,
    items: Sequence[Item],
    cap: float,
    source_height: float,
    table: tuple[TableView, float] | None,
    limit: float = 0.0,
    least_rows: int = LEAST_ROWS,
    *,
    trial: bool = False,
) -> list[Card]:
    """Fill cards with ``items`` in order, a new card when the next one does not fit in
    ``cap``; a card is ``over`` when it holds more than ``limit`` (default: ``cap``), the
    card's real room.

    A part of a split table takes at least :data:`LEAST_ROWS` rows and leaves no fewer
    behind, up to ``limit``: to make room for them its notes move on to the next card.
    ``least_rows``: that least number. ``trial``: the cards are stand-ins that hold no part
    of the table, only how many of its rows they would (for :func:`pack_even`'s trial packs,
    which read how many cards there are, which are over and which parts are short: cutting
    the table for each card was most of a deck's time)."""
    packing = _packed(base, items, cap, source_height, table, limit, least_rows, trial)
    return packing.cards or [replace(base)]


def _packed(
    base: Card,
    items: Sequence[Item],
    cap: float,
    source_height: float,
    table: tuple[TableView, float] | None,
    limit: float,
    least_rows: int,
    trial: bool,
) -> _Packing:
    """:func:`pack` done, with the fills that pack alike (:attr:`_Packing.alike`)."""
    limit = limit or cap
    # rows a part must take fill the card up to its real room less the source line under
    # the card's body (which the estimate of the room leaves to its slack)
    left = sum(isinstance(item, Row) for item in items)
    packing = _Packing(base, cap, limit, limit - source_height, table, least_rows, trial, left)
    for item in items:
        packing.add(item)
    while packing.carry:  # notes sent on after the last row
        packing.close()
        packing.current = packing.start()
    packing.close()
    return packing


class _Trials:
    """The trial packs of one :func:`pack_even`, by fill. A pack reads its fill only where
    it asks whether the next item fits (``used + need > fill``), and ``used`` and ``need``
    do not depend on the fill: so every fill from the greatest height that fitted up to
    (not including) the least that did not packs alike, and a trial pack is made once for
    all of them. The search and the scans of :func:`pack_even` ask about 40 fills, most of
    them close together (BattleTech ru's deck: 22,604 packs before, issue 44)."""

    __slots__ = ("base", "cap", "items", "least_rows", "made", "source_height", "table")

    def __init__(
        self,
        base: Card,
        items: Sequence[Item],
        cap: float,
        source_height: float,
        table: tuple[TableView, float],
        least_rows: int,
    ) -> None:
        self.base, self.items, self.cap = base, items, cap
        self.source_height, self.table, self.least_rows = source_height, table, least_rows
        self.made: list[tuple[float, float, list[Card]]] = []
        """The packs made: the fills from the first (included) to the second (not) pack
        alike, and the cards."""

    def __call__(self, fill: float) -> list[Card]:
        """The trial pack's cards at ``fill``."""
        for low, high, cards in self.made:
            if low <= fill < high:
                return cards
        packing = _packed(
            self.base,
            self.items,
            fill,
            self.source_height,
            self.table,
            self.cap,
            self.least_rows,
            True,
        )
        cards = packing.cards or [replace(self.base)]
        self.made.append((*packing.alike, cards))
        return cards


class _Packing:
    """One :func:`pack` under way: the cards filled, the card being filled and what is on it."""

    __slots__ = (
        "alike",
        "base",
        "cap",
        "cards",
        "carry",
        "current",
        "cut",
        "least_rows",
        "left",
        "limit",
        "placed",
        "room_for_rows",
        "rows",
        "table",
        "trial",
        "used",
    )

    def __init__(
        self,
        base: Card,
        cap: float,
        limit: float,
        room_for_rows: float,
        table: tuple[TableView, float] | None,
        least_rows: int,
        trial: bool,
        left: int,
    ) -> None:
        self.base = base
        self.cap = cap
        self.limit = limit
        self.room_for_rows = room_for_rows
        self.table = table
        self.least_rows = least_rows
        self.trial = trial
        self.cut: Callable[[Sequence[int]], TableView] | None = None
        """Cuts the table's part a card holds (:func:`row_cutter`), made at the first part."""
        self.cards: list[Card] = []
        self.current: Card | None = None
        self.used = 0.0
        self.rows: list[int] = []
        self.placed: list[Note] = []
        """The notes on the current card, with their heights."""
        self.carry: list[Note] = []
        """Notes sent on to the next card."""
        self.left = left
        """Rows not yet placed."""
        self.alike = (-math.inf, math.inf)
        """The fills that pack alike so far: every height that fitted is at most the first,
        every height that did not is over the second (see :class:`_Trials`)."""

    def add(self, item: Item) -> None:
        """Put ``item`` on the current card, or on a new one when it does not fit."""
        table = self.table
        need = item.height
        if isinstance(item, Row) and not self.rows and table is not None:
            need += table[1]
        if self.current is not None:
            low, high = self.alike
            if self.used + need > self.cap:
                self.alike = (low, min(high, self.used + need))
                if self._kept_in_part(item) or self._drawn_under_lines(item):
                    return
                self.close()
            else:
                self.alike = (max(low, self.used + need), high)
        if self.current is None:
            self.current = self.start()
            if isinstance(item, Row) and table is not None:
                need = item.height + table[1]
        match item:
            case Line(text=text, after=after):
                (self.current.after if after else self.current.lines).append(text)
            case Svg(svg=svg):
                self.current.svg = svg
            case Note():
                self.placed.append(item)
            case Row():
                if not self.rows and table is not None:
                    self.used += table[1]
                self.place_row(item)
                return
            case _:
                assert_never(item)
        self.used += need

    def _kept_in_part(self, item: Item) -> bool:
        """Whether ``item``, which does not fit, was kept with the part of the table on the
        current card (a note sent on, or a row placed in room its notes leave): a part holds
        at least ``least_rows`` rows, and leaves no fewer behind, for a continued table of
        one or two rows under its repeated header is no use at the table."""
        rows, left = len(self.rows), self.left
        if self.table is None or rows == 0 or left <= 0 or min(rows, left) >= self.least_rows:
            return False
        if isinstance(item, Note):
            self.carry.append(item)  # after the rows the part must take
            return True
        if not isinstance(item, Row):
            return False
        own = item.height - sum(item.note_heights)
        while self.placed and self.used + own > self.room_for_rows:  # its notes make room
            moved = self.placed.pop()
            self.carry.insert(0, moved)
            self.used -= moved.height
        if self.used + own > self.room_for_rows:
            return False
        self.place_row(item)
        return True

    def _drawn_under_lines(self, item: Item) -> bool:
        """Whether ``item``, a picture that does not fit under the lines alone on the current
        card (the block's opening lines), was drawn smaller to fit there, down to
        :data:`LEAST_DRAWN` of its size: the lines alone left a card less than half used
        (d20's square grid on index cards, issue 41)."""
        current = self.current
        if not isinstance(item, Svg) or current is None or current.svg or current.after:
            return False
        if not current.lines or self.placed or self.rows:
            return False
        height = self.cap - self.used - SVG_MARGIN
        svg = _drawn(item.svg, height)
        if svg is None or height < (item.height - SVG_MARGIN) * LEAST_DRAWN:
            return False
        current.svg = svg
        self.used = self.cap
        self.alike = (self.cap, self.cap)  # drawn to this fill alone: no other packs alike
        return True

    def close(self) -> None:
        """The current card done: its part of the table cut, its notes and height written."""
        current, rows, table = self.current, self.rows, self.table
        if isinstance(current, _Trial):
            current.held = len(rows)
        elif current is not None and table is not None and rows:
            if self.cut is None:
                self.cut = row_cutter(table[0])
            current.table = self.cut(rows)
        if current is not None:
            current.notes = [note.note for note in self.placed]
            current.over = self.used > self.limit
            current.height = self.used
            self.cards.append(current)
        self.current, self.rows = None, []

    def start(self) -> Card:
        """A new card, opening with the notes sent on, as many as it holds (at least one)."""
        placed, carry = self.placed, self.carry
        placed.clear()
        self.used = 0.0
        while carry and (not placed or self.used + carry[0].height <= self.room_for_rows):
            note = carry.pop(0)
            placed.append(note)
            self.used += note.height
        if self.trial:
            return _Trial()
        return replace(self.base, lines=[], notes=[], after=[], svg="", table=None)

    def place_row(self, row: Row) -> None:
        """``row`` on the current card; each of its notes too where it fits, else sent on."""
        self.rows.append(row.index)
        self.left -= 1
        self.used += row.height - sum(row.note_heights)
        for note, height in zip(row.notes, row.note_heights, strict=True):
            if self.carry or self.used + height > self.room_for_rows:
                self.carry.append(Note(note, height))
            else:
                self.placed.append(Note(note, height))
                self.used += height


SVG_MARGIN = 2.0
"""Points a picture's estimated height has over its drawing (:func:`card_room._svg_height`)."""

LEAST_DRAWN = TYPE_FLOOR / LEAST_PT
"""The least share of its size a picture is drawn at to stay under the lines before it: its
labels, never under :data:`svg.LEAST_PT`, stay at the least type a player reads
(:data:`card_room.TYPE_FLOOR`, 6 pt)."""


def _drawn(svg: str, height: float) -> str | None:
    """``svg`` drawn ``height`` points high, as wide as its proportions make it (its width
    and height attributes set; its view box scales what it draws); None where it states no
    size in points."""
    size = _SIZE.search(svg)
    if size is None:
        return None
    width = float(size[1]) * height / float(size[2])
    return _SIZE.sub(f' width="{width:.2f}pt" height="{height:.2f}pt"', svg, count=1)


_SIZE = re.compile(r' width="([0-9.]+)pt" height="([0-9.]+)pt"')


class _Trial:
    """A card of a trial pack: only what :func:`pack` writes on a card."""

    __slots__ = ("after", "height", "held", "lines", "notes", "over", "svg", "table")

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.notes: list[tuple[str, str]] = []
        self.after: list[str] = []
        self.svg = ""
        self.table: TableView | None = None
        self.over = False
        self.height = 0.0
        self.held = 0
        """How many rows of the table the card would hold."""
