"""Imposition: where cards sit on a sheet of A4 or Letter, with crop marks, and where their
backs land (mirrored, for double-sided printing); or one card per page, the page the card
and its bleed. Used by :mod:`rulesdsl.printed.cards`, which lays the deck out in its
template from these numbers."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

__all__ = ["CROP", "IMPOSE_PAPERS", "MAX_BLEED", "PRINT_MARGIN", "Imposition", "Slot", "imposition"]

IMPOSE_PAPERS: dict[str, tuple[float, float]] = {"a4": (210, 297), "letter": (215.9, 279.4)}
"""Sheets the cards can be imposed on, in millimetres (portrait)."""

PRINT_MARGIN = 5.0
"""Millimetres kept free at each edge of an imposed sheet (printers cannot print there)."""
CROP = 4.0
"""Length of a crop mark, in millimetres."""


class Sized(Protocol):
    """A card size: millimetres across and down."""

    @property
    def width(self) -> float: ...

    @property
    def height(self) -> float: ...


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
    bleed: float = 0.0
    """Millimetres each card's design runs on past its cut (``--bleed``), for a print shop:
    cards stand this far apart twice over, with crop marks at both cuts of each gap."""

    @property
    def flip(self) -> str:
        """The edge to flip on when printing both sides: ``long`` (portrait) or ``short``."""
        return "long" if self.page_height >= self.page_width else "short"

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    @property
    def pitch(self) -> tuple[float, float]:
        """From one card to the next, across and down (the card and its bleed)."""
        return self.card_width + 2 * self.bleed, self.card_height + 2 * self.bleed

    @property
    def origin(self) -> tuple[float, float]:
        """The top left corner of the first card's bleed."""
        across, down = self.pitch
        return (
            (self.page_width - self.columns * across) / 2,
            (self.page_height - self.rows * down) / 2,
        )

    def slot(self, index: int, back: bool = False) -> Slot:
        """The place of the ``index``-th card of a sheet (its cut, top left); on the back the
        columns are mirrored, so a card's back lands behind its front (long-edge duplex)."""
        row, col = divmod(index, self.columns)
        if back:
            col = self.columns - 1 - col
        x0, y0 = self.origin
        across, down = self.pitch
        return Slot(x0 + col * across + self.bleed, y0 + row * down + self.bleed)

    def cuts(self) -> tuple[list[float], list[float]]:
        """Where the cuts run: the x of each vertical cut, the y of each horizontal one."""
        x0, y0 = self.origin
        across, down = self.pitch
        b = self.bleed
        xs = sorted(
            {x0 + c * across + b + e for c in range(self.columns) for e in (0, self.card_width)}
        )
        ys = sorted(
            {y0 + r * down + b + e for r in range(self.rows) for e in (0, self.card_height)}
        )
        return xs, ys

    def trim(self) -> tuple[float, float, float, float]:
        """The box the cuts enclose (left, top, right, bottom): the card, or the imposed
        sheet's grid of cards. The PDF's TrimBox; grown by the bleed, its BleedBox."""
        xs, ys = self.cuts()
        return xs[0], ys[0], xs[-1], ys[-1]

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """Crop marks as lines (x1, y1, x2, y2) in the margins, at every cut, clear of the
        bleed."""
        x0, y0 = self.origin
        across, down = self.pitch
        x1 = x0 + self.columns * across
        y1 = y0 + self.rows * down
        xs, ys = self.cuts()
        marks = []
        for x in xs:
            marks += [(x, y0 - 1 - CROP, x, y0 - 1), (x, y1 + 1, x, y1 + 1 + CROP)]
        for y in ys:
            marks += [(x0 - 1 - CROP, y, x0 - 1, y), (x1 + 1, y, x1 + 1 + CROP, y)]
        return marks


MAX_BLEED = 10.0
"""The largest ``--bleed`` in millimetres (print shops ask for 2 to 5)."""


def imposition(size: Sized, paper: str | None, bleed: float = 0.0) -> Imposition:
    """How cards of ``size`` sit on ``paper`` (None: one card per page, the page the card
    and its bleed), ``bleed`` millimetres of design past each cut.

    The sheet is turned landscape when that holds more cards (A6 and index cards on A4);
    such a sheet is printed double-sided flipping on the short edge, a portrait one on the
    long edge: either way the back is the front mirrored left to right.
    """
    if not 0 <= bleed <= MAX_BLEED:
        raise ValueError(f"bleed {bleed} mm: give 0 to {MAX_BLEED:g} mm")
    if paper is None:
        w, h = size.width + 2 * bleed, size.height + 2 * bleed
        return Imposition(w, h, 1, 1, size.width, size.height, bleed)
    if paper not in IMPOSE_PAPERS:
        raise ValueError(f"unknown paper {paper!r}; choose one of {', '.join(IMPOSE_PAPERS)}")
    room = 2 * (PRINT_MARGIN + CROP + 1)
    best: Imposition | None = None
    for width, height in (IMPOSE_PAPERS[paper], IMPOSE_PAPERS[paper][::-1]):
        columns = max(1, math.floor((width - room) / (size.width + 2 * bleed)))
        rows = max(1, math.floor((height - room) / (size.height + 2 * bleed)))
        layout = Imposition(width, height, columns, rows, size.width, size.height, bleed)
        if best is None or layout.per_sheet > best.per_sheet:
            best = layout
    assert best is not None
    return best
