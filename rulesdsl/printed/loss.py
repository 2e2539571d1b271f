"""The loss check: every render measures its own output, and says where text is lost.

A sheet or a deck declares in its markup the frames its text must stay in, in millimetres:
each card's element carries ``data-frame="left top width height"`` (where the template put
it: the cut line) and ``data-safe`` (the safe zone inside the cut); a sheet's ``<body>``
carries ``data-page`` (the page's printable area as margins ``top right bottom left``) and
``data-safe`` (how far the running footer must stay from the page edge). Any element may
carry ``data-item``, the ruleset item it prints, and ``data-name``, how a player finds it
(``card 3/13``). :func:`check_layout` walks the laid-out document and compares every piece of
text with the frame it belongs to. The frames are the product's own numbers, not WeasyPrint's
boxes, and the walk reads the layout by what a box *has* (``text`` and a position, an
``element`` and its attributes, ``children``), never by the name of its class, so a WeasyPrint
release that renames or wraps its boxes (WeasyPrint 70 lays a positioned card out as an
``AbsolutePlaceholder``) cannot make the check pass silently: text it cannot place in a frame
is itself reported (:data:`UNPLACED`), and a document whose text it cannot find at all is
reported as unread (:data:`UNREAD`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "CUT",
    "OVERLAP",
    "REFITTABLE",
    "SAFE",
    "TOLERANCE_MM",
    "UNPLACED",
    "UNREAD",
    "Kind",
    "Loss",
    "check_layout",
]

PX_PER_MM = 96 / 25.4
"""WeasyPrint lays out in CSS pixels."""

TOLERANCE_MM = 0.2
"""How far a glyph's box may stick out before it counts (rounding, anti-aliasing)."""

Kind = Literal["cut", "safe", "overlap", "unplaced", "unread"]
CUT: Kind = "cut"
"""Text past a card's cut line or the page's printable area: it is lost."""
SAFE: Kind = "safe"
"""Text inside the safe zone: a cut a little off trims it."""
OVERLAP: Kind = "overlap"
"""Text printed over other text of its card or page (a body run into the card's footer)."""
UNPLACED: Kind = "unplaced"
"""Text outside every card of a deck: the check cannot tell where it belongs."""
UNREAD: Kind = "unread"
"""A document in which the check found no text at all: it cannot read this layout."""

REFITTABLE = frozenset({CUT, SAFE, OVERLAP})
"""What a fitter can mend by giving a block more cards."""


@dataclass(frozen=True)
class Loss:
    kind: Kind
    where: str
    """The card (``card 3/13``) or the page (``page 2``)."""
    item: str
    """The ruleset item the text prints (a topic and a block title), or ""."""
    text: str
    by: float
    """Millimetres past the line (the cut, the printable area or the safe zone)."""
    side: str = ""
    """Which edge: left, top, right or bottom."""
    key: str = ""
    """The frame's ``data-key`` (a card's block), for a fitter to find what to refit."""

    def describe(self) -> str:
        item = f" ({self.item})" if self.item else ""
        text = self.text if len(self.text) <= 40 else self.text[:39] + "…"
        match self.kind:
            case "cut":
                return (
                    f"{self.where}{item}: {text!r} prints {self.by:.1f} mm past the {self.side} cut"
                )
            case "safe":
                return (
                    f"{self.where}{item}: {text!r} is {self.by:.1f} mm inside the safe zone "
                    f"at the {self.side} edge"
                )
            case "overlap":
                return f"{self.where}{item}: {text!r} prints over other text by {self.by:.1f} mm"
            case "unplaced":
                return f"{self.where}: {text!r} lies on no card"
            case "unread":
                return f"{self.where}: the loss check found no text in the layout"


@dataclass(frozen=True)
class _Rect:
    left: float
    top: float
    right: float
    bottom: float

    def inset(self, by: float) -> _Rect:
        return _Rect(self.left + by, self.top + by, self.right - by, self.bottom - by)

    def past(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, str]:
        """How far (mm) the box ``x0 y0 x1 y1`` sticks out of this rectangle, and where."""
        out = [
            (self.left - x0, "left"),
            (self.top - y0, "top"),
            (x1 - self.right, "right"),
            (y1 - self.bottom, "bottom"),
        ]
        return max(out)


@dataclass(frozen=True)
class _Frame:
    cut: _Rect
    safe: float
    name: str
    card: bool
    key: str = ""


@dataclass(frozen=True)
class _Text:
    text: str
    box: tuple[float, float, float, float]
    """left, top, right, bottom in millimetres."""
    frame: _Frame | None
    item: str
    margin: bool
    key: str = ""
    """The nearest ``data-key`` (a sheet's block; a card's is its frame's)."""


def _attrs(box: Any) -> Any:
    element = getattr(box, "element", None)
    return element if element is not None and hasattr(element, "get") else None


def _numbers(text: str | None) -> list[float] | None:
    if not text:
        return None
    try:
        return [float(v) for v in text.split()]
    except ValueError:
        return None


def _texts(page_box: Any, page_frame: _Frame | None) -> Iterator[_Text]:
    """Every piece of text on a page, with the frame and item it belongs to."""
    stack: list[tuple[Any, _Frame | None, str, str, bool, Any]] = [
        (page_box, page_frame, "", "", False, None)
    ]
    while stack:
        box, frame, item, key, margin, parent_el = stack.pop()
        element = _attrs(box)
        if element is not None and element is not parent_el:
            rect = _numbers(element.get("data-frame"))
            if rect is not None and len(rect) == 4:
                left, top, width, height = rect
                safe = (_numbers(element.get("data-safe")) or [0.0])[0]
                name = element.get("data-name") or ""
                frame_key = element.get("data-key") or ""
                cut = _Rect(left, top, left + width, top + height)
                frame = _Frame(cut, safe, name, True, frame_key)
            item = element.get("data-item") or item
            key = element.get("data-key") or key
        if getattr(box, "at_keyword", None):  # a page-margin box: running footer, page number
            margin = True
        text = getattr(box, "text", None)
        if isinstance(text, str) and hasattr(box, "position_x"):
            if text.strip():
                x, y = box.position_x / PX_PER_MM, box.position_y / PX_PER_MM
                w, h = box.width / PX_PER_MM, box.height / PX_PER_MM
                yield _Text(text.strip(), (x, y, x + w, y + h), frame, item, margin, key)
            continue
        children = getattr(box, "children", None) or ()
        for child in reversed(list(children)):
            stack.append((child, frame, item, key, margin, element))


def check_layout(document: Any) -> list[Loss]:
    """What text the laid-out ``document`` (a WeasyPrint ``Document``) loses or puts at risk.

    Declared frames are read from the markup (see the module docstring). A page's body text
    must lie in its printable area (``data-page`` on the body); a card's text inside its cut
    (``data-frame``), and ``data-safe`` millimetres away from it; the running footer inside
    the page, ``data-safe`` away from its edge. In a deck (a document with cards), text on no
    card is reported: a layout the check cannot read never passes as clean."""
    losses: list[Loss] = []
    found = 0
    deck = False
    for number, page in enumerate(document.pages, start=1):
        page_box = getattr(page, "_page_box", None)
        width, height = page.width / PX_PER_MM, page.height / PX_PER_MM
        root, (top, right, bottom, left) = _declared(page_box)
        page_safe = (_numbers(root.get("data-safe") if root is not None else None) or [0.0])[0]
        deck = deck or (root is not None and root.get("data-deck") is not None)
        area = _Frame(
            _Rect(left, top, width - right, height - bottom), 0.0, f"page {number}", False
        )
        paper = _Rect(0.0, 0.0, width, height)
        placed = list(_texts(page_box, None))
        losses += _overlaps(placed, f"page {number}")
        for t in placed:
            found += 1
            if t.margin:
                _measure(losses, t, _Frame(paper, page_safe, f"page {number}", False))
            elif t.frame is not None:
                _measure(losses, t, t.frame)
            elif deck:
                losses.append(Loss(UNPLACED, f"page {number}", t.item, t.text, 0.0))
            else:
                _measure(losses, t, area)
    if document.pages and not found:
        losses.append(Loss(UNREAD, "document", "", "", 0.0))
    return losses


def _declared(page_box: Any) -> tuple[Any, tuple[float, float, float, float]]:
    """The page's root element and the margins it declares (``data-page``: top, right,
    bottom, left in millimetres; a single number for all four; none: 0)."""
    root = _root_element(page_box)
    margins = _numbers(root.get("data-page") if root is not None else None) or [0.0]
    top, right, bottom, left = (margins * 4)[:4]
    return root, (top, right, bottom, left)


def _root_element(page_box: Any) -> Any:
    """The ``<body>`` element (it declares the page's frame), found under the page box."""
    stack = [page_box]
    while stack:
        box = stack.pop()
        element = _attrs(box)
        if element is not None and element.get("data-page") is not None:
            return element
        if element is not None and element.get("data-deck") is not None:
            return element
        stack.extend(getattr(box, "children", None) or ())
    return None


def _measure(losses: list[Loss], t: _Text, frame: _Frame) -> None:
    by, side = frame.cut.past(*t.box)
    if by > TOLERANCE_MM:
        losses.append(Loss(CUT, frame.name, t.item, t.text, by, side, t.key or frame.key))
        return
    if frame.safe > 0:
        by, side = frame.cut.inset(frame.safe).past(*t.box)
        if by > TOLERANCE_MM:
            losses.append(Loss(SAFE, frame.name, t.item, t.text, by, side, t.key or frame.key))


OVERLAP_MM = 0.4
"""How far two pieces of text may overlap both ways before it counts (a superscript mark
reaches into the line above)."""


def _overlaps(placed: list[_Text], page: str) -> list[Loss]:
    """Pieces of text of one frame (a card) that print over each other: each pair once, the
    later one named. Frames are compared apart: a card set across (turned) is laid out
    before its turn, over its neighbours' places."""
    found: list[Loss] = []
    frames: dict[int, list[_Text]] = {}
    for t in placed:
        frames.setdefault(id(t.frame), []).append(t)
    for group in frames.values():
        found += _overlaps_in(group, page)
    return found


def _overlaps_in(placed: list[_Text], page: str) -> list[Loss]:
    found: list[Loss] = []
    boxes = sorted(placed, key=lambda t: t.box[1])
    for i, a in enumerate(boxes):
        ax0, ay0, ax1, ay1 = a.box
        for b in boxes[i + 1 :]:
            bx0, by0, bx1, by1 = b.box
            if by0 >= ay1 - OVERLAP_MM:
                break
            across = min(ax1, bx1) - max(ax0, bx0)
            down = min(ay1, by1) - max(ay0, by0)
            if across > OVERLAP_MM and down > OVERLAP_MM:
                where = b.frame.name if b.frame is not None else page
                key = b.key or (b.frame.key if b.frame is not None else "")
                found.append(Loss(OVERLAP, where, b.item, b.text, min(across, down), "", key))
    return found


def page_fills(document: Any) -> list[float]:
    """How far down its printable area each page's body text reaches, from 0 to 1."""
    return [_fill(page) for page in document.pages]


def _fill(page: Any) -> float:
    page_box = getattr(page, "_page_box", None)
    _, (top, _, bottom, _) = _declared(page_box)
    height = page.height / PX_PER_MM - top - bottom
    lowest = max((t.box[3] for t in _texts(page_box, None) if not t.margin), default=top)
    return max(0.0, min(1.0, (lowest - top) / height)) if height > 0 else 1.0
