"""Quick-reference cards: a deck per ruleset, one topic per card, imposed for home printing.

:func:`build_deck` cuts a :class:`~rulesdsl.printed.sheet_model.Sheet` into cards of one
:data:`CARD_SIZES` size: each block of the sheet (a layer's table, a modifier, a procedure, a
dice table, a scale) becomes a card; a table too wide for the card is split between its
column groups (the modes under one cost heading, one modifier's columns) and one too long is
split between rows, into cards titled "(continued 2/3)", never cut. A footnote goes on the
card of the first row that uses it. Where the content would overflow is estimated from font
metrics (:mod:`rulesdsl.printed.fit`), so the HTML is known without rendering; the tests
check the rendered layout.

:func:`render_deck_html` lays the deck out either one card per page (the page is the card:
for card stock or a print shop) or imposed N-up on A4 or Letter with crop marks, each sheet
of fronts followed by its sheet of backs, mirrored so that the back of every card lands
behind its front when printed on both sides (flip on the long edge; on the short edge for
a sheet turned landscape because it holds more cards so). Each card carries the
ruleset id, version and digest in small print, and its number in the deck.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from typing import assert_never

import jinja2
from markupsafe import Markup

from rulesdsl import ir
from rulesdsl.i18n import catalog
from rulesdsl.outputs import Deferred, Output
from rulesdsl.printed import fit
from rulesdsl.printed.pdf import render_pdf, rendered_from, require_weasyprint
from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.printed.sheet_view import (
    CHANGED_SIGN,
    MARKERS,
    SUPERSCRIPTS,
    Block,
    Sheet,
    TableView,
    marker_sign,
)
from rulesdsl.printed.table_slices import fit_text, measure, slice_table, wide_chunks

__all__ = [
    "CARD_SIZES",
    "IMPOSE_PAPERS",
    "Card",
    "CardSize",
    "Deck",
    "build_deck",
    "card_outputs",
    "imposition",
    "render_deck",
    "render_deck_html",
]

MM = 72 / 25.4
"""Points per millimetre."""


@dataclass(frozen=True)
class CardSize:
    name: str
    width: float
    """Millimetres across."""
    height: float
    """Millimetres down."""
    font: float
    """Base type size in points."""


CARD_SIZES: dict[str, CardSize] = {
    "poker": CardSize("poker", 63, 88, 6.0),
    "tarot": CardSize("tarot", 70, 120, 6.4),
    "index": CardSize("index", 127, 76.2, 6.6),
    "a6": CardSize("a6", 105, 148, 7.2),
}
"""Poker (63 x 88 mm), tarot (70 x 120 mm), index (5 x 3 in, landscape) and A6."""

IMPOSE_PAPERS: dict[str, tuple[float, float]] = {"a4": (210, 297), "letter": (215.9, 279.4)}
"""Sheets the cards can be imposed on, in millimetres (portrait)."""

DEFAULT_SIZE = "poker"
DEFAULT_PAPER = "a4"
PRINT_MARGIN = 5.0
"""Millimetres kept free at each edge of an imposed sheet (printers cannot print there)."""
CROP = 4.0
"""Length of a crop mark, in millimetres."""

PAD = 2.4
"""Card padding in millimetres, all round."""
LINE = 1.2
"""Line height as a factor of the type size (the stylesheet's ``line-height``)."""
FILL = 0.93
"""Share of the estimated room a card may fill (the estimate is not exact)."""


# ---- the deck -------------------------------------------------------------------------------


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


@dataclass
class Deck:
    sheet: Sheet
    size: CardSize
    cards: list[Card]
    mode: str = ""
    """The unit type the deck is for (its label), or "" for all."""
    words: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Room:
    """The room on one card, in points, and the type sizes used in it."""

    width: float
    height: float
    box: fit.Box
    font: float

    @property
    def line(self) -> float:
        return self.font * LINE


def _room(size: CardSize) -> _Room:
    font = size.font
    width = (size.width - 2 * PAD) * MM
    # the card's head (section and title lines are counted per card) and its foot
    foot = 2 * 0.75 * font * LINE + 2
    height = ((size.height - 2 * PAD) * MM - foot) * FILL
    box = fit.Box(font=font * 0.95, line=LINE, pad_x=3.6, pad_y=1.6, head_scale=0.88)
    return _Room(width, height, box, font)


def build_deck(
    ruleset: ir.Ruleset, lang: str | None = None, size: str = DEFAULT_SIZE, mode: str | None = None
) -> Deck:
    """The deck of ``ruleset`` in ``lang`` on cards of ``size``; ``mode`` keeps only what
    concerns that unit type (see :func:`~rulesdsl.printed.sheet_model.build_sheet`)."""
    if size not in CARD_SIZES:
        raise ValueError(f"unknown card size {size!r}; choose one of {', '.join(CARD_SIZES)}")
    sheet = build_sheet(ruleset, lang, mode)
    card_size = CARD_SIZES[size]
    room = _room(card_size)
    cards: list[Card] = []
    for section in sheet.sections:
        for block in section.blocks:
            cards += _block_cards(section.title, block, room)
    for i, card in enumerate(cards, start=1):
        card.number = i
    c = catalog(sheet.lang)
    words = {
        "for": c.text("deck_for", mode=sheet.mode) if sheet.mode else c.text("deck_all"),
        "count": c.plural("cards", len(cards)),
        "legend": c.text("legend"),
    }
    return Deck(sheet, card_size, cards, sheet.mode, words)


def _title_height(section: str, title: str, room: _Room) -> float:
    h = room.font * 0.8 * LINE + 1.5
    if title:
        h += fit.lines(title, room.width, room.font * 1.05, True) * room.font * 1.05 * LINE
    return h + 2


def _para_height(text: str, room: _Room, scale: float = 1.0) -> float:
    size = room.font * scale
    return fit.lines(text, room.width, size) * size * LINE + 1


def _note_height(mark: str, text: str, room: _Room) -> float:
    return _para_height(f"{mark.translate(SUPERSCRIPTS)} {text}", room, 0.85)


def _svg_height(svg: str, room: _Room) -> float:
    width = _attr(svg, "width")
    height = _attr(svg, "height")
    if not width or not height:
        return room.height
    return height * min(1.0, room.width / width) + 2


def _attr(svg: str, name: str) -> float:
    marker = f' {name}="'
    start = svg.find(marker)
    if start < 0:
        return 0.0
    start += len(marker)
    end = svg.find('"', start)
    return float(svg[start:end].removesuffix("pt"))


def _block_cards(section: str, block: Block, room: _Room) -> list[Card]:
    """The cards of one block: the table split across and down as needed."""
    title = block.title or section
    base = Card(section, title, block.kind, source=block.source, changed=block.changed)
    head_h = _title_height(section, title, room)
    cap = room.height - head_h
    items: list[_Item] = []
    """What the card shows, in order."""
    for line in block.lines:
        items.append(_Line(line, _para_height(line, room)))
    if block.svg:
        items.append(_Svg(block.svg, _svg_height(block.svg, room)))
    table = block.table if block.table is not None and not block.svg else None
    after: list[_Item] = [_After(text, _para_height(text, room, 0.9)) for text in block.after]
    notes = dict(block.notes)
    if table is None:
        items += [_Note((m, t), _note_height(m, t, room)) for m, t in block.notes]
        return _pack(base, items + after, cap, room, None)
    if table.fold:
        table = replace(table, fold=False)
    table = _signs_only(table)
    chunks = wide_chunks(table, room.width, room.box)
    cards: list[Card] = []
    for cols in chunks:
        piece = slice_table(table, cols, range(len(table.rows)))
        layout = measure(piece, room.width, room.box)
        stream = list(items) if not cards else []
        shown: set[str] = set()
        head_marks = [m for row in piece.head for h in row for m in h.notes]
        for i, row in enumerate(piece.rows):
            marks = [m for m in head_marks if m not in shown] if i == 0 else []
            marks += [m for c in row for m in c.notes if m not in shown and m not in marks]
            shown.update(marks)
            row_notes = [(m, notes[m]) for m in marks if m in notes]
            stream.append(
                _Row(
                    i,
                    row_notes,
                    layout.row_heights[i] + sum(_note_height(m, t, room) for m, t in row_notes),
                )
            )
        if cols is chunks[-1]:
            stream += after
        cards += _pack(base, stream, cap, room, (piece, layout.head_height))
    return _number_parts(cards)


def _signs_only(t: TableView) -> TableView:
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


@dataclass(frozen=True)
class _Line:
    text: str
    height: float


@dataclass(frozen=True)
class _Svg:
    svg: str
    height: float


@dataclass(frozen=True)
class _After:
    text: str
    height: float


@dataclass(frozen=True)
class _Note:
    note: tuple[str, str]
    height: float


@dataclass(frozen=True)
class _Row:
    index: int
    notes: list[tuple[str, str]]
    height: float


_Item = _Line | _Svg | _After | _Note | _Row
"""One thing a card shows, with its height: a line, a picture, a line after the table, a
note, or a row of the table (with the notes it brings)."""


def _pack(
    base: Card,
    items: Sequence[_Item],
    cap: float,
    room: _Room,
    table: tuple[TableView, float] | None,
) -> list[Card]:
    """Fill cards with ``items`` in order, a new card when the next one does not fit."""
    cards: list[Card] = []
    current: Card | None = None
    used = 0.0
    rows: list[int] = []

    def close() -> None:
        nonlocal current, rows
        if current is not None and table is not None and rows:
            current.table = slice_table(table[0], range(len(table[0].rows[0]) - 1), rows)
        if current is not None:
            cards.append(current)
        current, rows = None, []

    for item in items:
        is_row = isinstance(item, _Row)
        need = item.height
        if is_row and not rows and table is not None:
            need += table[1]
        if current is not None and used + need > cap:
            close()
        if current is None:
            current = replace(base, lines=[], notes=[], after=[], svg="", table=None)
            used = 0.0
            if is_row and table is not None:
                need = item.height + table[1]
        used += need
        match item:
            case _Line(text=text):
                current.lines.append(text)
            case _Svg(svg=svg):
                current.svg = svg
            case _After(text=text):
                current.after.append(text)
            case _Note(note=note):
                current.notes.append(note)
            case _Row(index=index, notes=row_notes):
                rows.append(index)
                current.notes += row_notes
            case _:
                assert_never(item)
    close()
    return cards or [replace(base)]


def _number_parts(cards: list[Card]) -> list[Card]:
    if len(cards) > 1:
        for i, card in enumerate(cards, start=1):
            card.title = f"{card.title} ({i}/{len(cards)})"
    return cards


# ---- imposition -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """Where one card goes on an imposed sheet, in millimetres from the top left corner."""

    left: float
    top: float


@dataclass(frozen=True)
class Imposition:
    page_width: float
    page_height: float
    columns: int
    rows: int
    card_width: float
    card_height: float

    @property
    def flip(self) -> str:
        """The edge to flip on when printing both sides: ``long`` (portrait) or ``short``."""
        return "long" if self.page_height >= self.page_width else "short"

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    @property
    def origin(self) -> tuple[float, float]:
        return (
            (self.page_width - self.columns * self.card_width) / 2,
            (self.page_height - self.rows * self.card_height) / 2,
        )

    def slot(self, index: int, back: bool = False) -> Slot:
        """The place of the ``index``-th card of a sheet; on the back the columns are
        mirrored, so a card's back lands behind its front (long-edge duplex)."""
        row, col = divmod(index, self.columns)
        if back:
            col = self.columns - 1 - col
        x0, y0 = self.origin
        return Slot(x0 + col * self.card_width, y0 + row * self.card_height)

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """Crop marks as lines (x1, y1, x2, y2) in the margins, at every card edge."""
        x0, y0 = self.origin
        x1 = x0 + self.columns * self.card_width
        y1 = y0 + self.rows * self.card_height
        marks = []
        for c in range(self.columns + 1):
            x = x0 + c * self.card_width
            marks += [(x, y0 - 1 - CROP, x, y0 - 1), (x, y1 + 1, x, y1 + 1 + CROP)]
        for r in range(self.rows + 1):
            y = y0 + r * self.card_height
            marks += [(x0 - 1 - CROP, y, x0 - 1, y), (x1 + 1, y, x1 + 1 + CROP, y)]
        return marks


def imposition(size: CardSize, paper: str | None) -> Imposition:
    """How cards of ``size`` sit on ``paper`` (None: one card per page, the page the card).

    The sheet is turned landscape when that holds more cards (A6 and index cards on A4);
    such a sheet is printed double-sided flipping on the short edge, a portrait one on the
    long edge: either way the back is the front mirrored left to right.
    """
    if paper is None:
        return Imposition(size.width, size.height, 1, 1, size.width, size.height)
    if paper not in IMPOSE_PAPERS:
        raise ValueError(f"unknown paper {paper!r}; choose one of {', '.join(IMPOSE_PAPERS)}")
    room = 2 * (PRINT_MARGIN + CROP + 1)
    best: Imposition | None = None
    for width, height in (IMPOSE_PAPERS[paper], IMPOSE_PAPERS[paper][::-1]):
        columns = max(1, math.floor((width - room) / size.width))
        rows = max(1, math.floor((height - room) / size.height))
        layout = Imposition(width, height, columns, rows, size.width, size.height)
        if best is None or layout.per_sheet > best.per_sheet:
            best = layout
    assert best is not None
    return best


# ---- rendering ------------------------------------------------------------------------------


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("rulesdsl", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["mm"] = lambda v: f"{v:.2f}mm"
    return env


def render_deck_html(deck: Deck, paper: str | None = DEFAULT_PAPER) -> str:
    """The deck as one HTML document: cards imposed on ``paper``, or one per page (None)."""
    layout = imposition(deck.size, paper)
    env = _environment()
    assert env.loader is not None
    css, _, _ = env.loader.get_source(env, "cards.css")
    n = layout.per_sheet
    sheets = [deck.cards[i : i + n] for i in range(0, len(deck.cards), n)]
    return env.get_template("cards.html.j2").render(
        deck=deck,
        sheets=sheets,
        layout=layout,
        css=Markup(css),
        imposed=paper is not None,
        changed_sign=CHANGED_SIGN,
        total=len(deck.cards),
    )


def render_deck(
    ruleset: ir.Ruleset,
    lang: str | None = None,
    size: str = DEFAULT_SIZE,
    mode: str | None = None,
    paper: str | None = DEFAULT_PAPER,
) -> bytes:
    """The deck as PDF bytes (see :func:`build_deck` and :func:`render_deck_html`)."""
    return render_pdf(render_deck_html(build_deck(ruleset, lang, size, mode), paper))


def card_outputs(ruleset: ir.Ruleset) -> dict[str, Output]:
    """The build backend: ``cards/<id>.<lang>.pdf``, a poker deck imposed on A4 per language.

    The PDF is deferred like the sheets' (rendered only when its HTML changed)."""
    require_weasyprint()
    outputs: dict[str, Output] = {}
    for lang in ruleset.languages:
        html = render_deck_html(build_deck(ruleset, lang, DEFAULT_SIZE), DEFAULT_PAPER)
        outputs[f"cards/{ruleset.id}.{lang}.pdf"] = Deferred(
            partial(render_pdf, html), partial(rendered_from, html=html), len(html.encode())
        )
    return outputs


__all__ += ["Imposition", "Slot", "fit_text"]
