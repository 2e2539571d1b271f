"""The geometry of a card: its sizes, the safe zone, and the room a card's body has at a
type size, with the estimated heights of what a card holds (titles, lines, notes, pictures).

:mod:`rulesdsl.printed.cards` cuts a sheet into cards by these estimates; the tests and the
loss check measure the rendered layout."""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl.printed import fit
from rulesdsl.printed.sheet_view import SUPERSCRIPTS

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
    """The least body type size in points: the fitter grows a card's type from here."""
    most: float = 0.0
    """The largest body type size the fitter gives a card (0: ``font``)."""
    foot_lines: int = 1
    """How many lines the fronts' footer takes (:func:`front_foot_lines`): the room under
    the body a card leaves it."""

    def fonts(self) -> list[float]:
        """The body sizes the fitter tries, largest first, in half points."""
        top = max(self.most, self.font)
        steps = round((top - self.font) * 2)
        return [self.font + i / 2 for i in range(steps, -1, -1)]


CARD_SIZES: dict[str, CardSize] = {
    "poker": CardSize("poker", 63, 88, 7.0, 9.0),
    "tarot": CardSize("tarot", 70, 120, 7.5, 10.0),
    "index": CardSize("index", 127, 76.2, 7.5, 10.0),
    "a6": CardSize("a6", 105, 148, 8.0, 11.0),
}
"""Poker (63 x 88 mm), tarot (70 x 120 mm), index (5 x 3 in, landscape) and A6, with the
least and largest body type of each: a card's body (its rules, table and lines) is set as
large as it fits, never smaller than the least."""


DEFAULT_SIZE = "poker"
DEFAULT_PAPER = "a4"

SAFE_ZONE = 3.175
"""Millimetres inside the cut that text keeps clear of, all round (the card's padding; the
loss check measures it): 1/8 in, what print shops ask. A cut may wander by a millimetre or two."""
EDGE = 1.5
"""Millimetres of the backs' dark frame inside the cut (it runs on into the bleed); without a
bleed the frame stands this far clear of the cut, as wide again, inside the safe zone."""
PAD = SAFE_ZONE
"""Card padding in millimetres, all round: the safe zone."""
LINE = 1.15
"""Line height as a factor of the type size (the stylesheet's ``line-height``)."""
FILL = 0.93
"""Share of the estimated room a card may fill (the estimate is not exact)."""


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


SMALL = 1.0
"""The type of a card's topic band, footnotes, source line and lines after a table as a
share of its body type (cards.css): the body's size, so that every front's median type is 7 pt
or more (issue 41, goal 3; at 0.86 they were most of the text of half BattleTech's fronts)."""

NOTE_LINE = 1.1
"""The footnotes' line height as a factor of their type (cards.css ``ol.notes``): closer
than the body's, as footnotes at the body's size were what made BattleTech's decks too long."""

MORE_RULE = 4.5
"""Points above a block's title after another block on the same card (cards.css
``h3.more``: 3 pt of margin and 1.5 pt of padding over its rule), where a card's first block
has its topic band."""


TYPE_FLOOR = 6.0
"""The least type a player reads (issue 41): nothing on a card is set under it, a picture's
labels included when the picture is drawn smaller (:data:`card_packing.LEAST_DRAWN`)."""


def foot_size(size: CardSize) -> float:
    """The type of the footer on cards of ``size``, in points: the size's least body type
    (7 pt on poker cards), as every front's text counts in its median (issue 41, goal 3)."""
    return size.font


def front_foot_lines(text: str, size: CardSize) -> int:
    """How many lines the fronts' footer ``text`` takes on cards of ``size``."""
    return fit.lines(text, (size.width - 2 * PAD) * MM, foot_size(size))


HEADS = 0.88
"""The type of a card table's headers as a share of its body type (cards.css ``thead th``),
where the table needs that to keep its columns and cards; else 1 (``full-heads``)."""


def _room(
    size: CardSize,
    font: float,
    share: tuple[float, float] = (1.0, 1.0),
    narrow: bool = False,
    heads: float = HEADS,
) -> _Room:
    """The room on a card of ``size`` whose body is set at ``font`` points; ``share`` (of the
    width, of the height) is what a refit leaves a block that lost text; ``narrow``: table
    cells, too, may break long words with a hyphen (as the card's stylesheet lets them), so
    a column may be narrower than its longest word."""
    width = (size.width - 2 * PAD) * MM * share[0]
    # the card's head (band and title lines are counted per card) and its foot
    foot = size.foot_lines * foot_size(size) * LINE + 2
    height = ((size.height - 2 * PAD) * MM - foot) * FILL * share[1]
    box = fit.Box(
        font=font,
        line=LINE,
        pad_x=3.6,
        pad_y=1.6,
        head_scale=heads,
        head_hyphens=True,
        body_hyphens=narrow,
    )
    return _Room(width, height, box, font)


def _title_height(title: str, room: _Room, band: bool = True) -> float:
    """The height of a card's head (its topic band and title), or with ``band`` False of a
    block's title after another block on the same card (``h3.more``: a rule above it)."""
    h = room.font * SMALL * LINE + 3.0 if band else MORE_RULE
    if title:
        h += fit.lines(title, room.width, room.font * 1.05, True) * room.font * 1.05 * LINE
    return h + 2


def _para_height(text: str, room: _Room, scale: float = 1.0, line: float = LINE) -> float:
    size = room.font * scale
    return fit.lines(text, room.width, size) * size * line + 1


def _note_height(mark: str, text: str, room: _Room) -> float:
    return _para_height(f"{mark.translate(SUPERSCRIPTS)} {text}", room, SMALL, NOTE_LINE)


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
