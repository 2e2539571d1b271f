"""Small inline SVG diagrams for quick-reference sheets, drawn from numbers alone.

Every piece of text goes through :func:`xml.sax.saxutils.escape` (and attribute quoting), so
labels from a ruleset cannot add markup. The output is deterministic: fixed sizes, numbers
written with a fixed precision, no ids that depend on anything but the arguments.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from rulesdsl.printed import fit

__all__ = ["ScalePoint", "grid_diagonals", "step_scale"]

_FONT = 'font-family="rulesdsl Sans, DejaVu Sans Condensed, DejaVu Sans, sans-serif"'


@dataclass(frozen=True)
class ScalePoint:
    """One tick of a step scale: the input shown under it and the result above it."""

    x: str
    result: str
    level: float
    """0..1: how dark the result box is drawn (1 for impassable, drawn hatched)."""
    impassable: bool = False


def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text or "0"


def _text(
    x: float,
    y: float,
    text: str,
    size: float = 7,
    anchor: str = "middle",
    weight: str = "normal",
    fill: str = "#000",
) -> str:
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{fill}" {_FONT}>{escape(text)}</text>'
    )


CHART_WIDTH = 156.0
"""Points a step scale is drawn across: a poker card's room (63 mm less two 3.175 mm safe
zones, 160.6 pt) less a little, so the chart prints at its own size on every card and sheet and
its labels keep their type (issue 41: no text under 6 pt); a wider room leaves it as drawn."""
LABEL_PT = 7.0
"""The type of a chart's axis labels (smaller only where a label is wider than the chart)."""
LEAST_PT = 6.5
"""The least type of a chart's numbers and labels: over the 6 pt floor with room to spare."""
_GAP = 2.0
"""Points between two numbers side by side (and between a result and its box's sides)."""


def _fitting(texts: Sequence[str], room: float, largest: float, bold: bool) -> float:
    """The largest type, from ``largest`` down to :data:`LEAST_PT`, that sets each text within
    ``room`` points (:data:`LEAST_PT` if none does)."""
    widest = _widest(texts, 1.0, bold)
    return max(LEAST_PT, min(largest, room / widest)) if widest else largest


def _widest(texts: Sequence[str], size: float, bold: bool) -> float:
    return max((fit.width(t, size, bold=bold) for t in texts), default=0.0)


def step_scale(
    points: Sequence[ScalePoint], x_label: str, result_label: str, title: str, uid: str
) -> str:
    """A row of result boxes above a ruler of inputs (e.g. thickness 0..12 in -> points),
    drawn :data:`CHART_WIDTH` across: the result's name above the boxes, the input's under the
    ruler, every result printed, and every input the ruler has room for (every second or third
    tick on a long scale with wide numbers; the first tick always).

    ``uid`` (an identifier) keeps the hatch pattern's id unique within a page.
    """
    hatch = f"hatch-{uid}"
    results = [p.result for p in points]
    inputs = [p.x for p in points]
    cell = (CHART_WIDTH - 2) / max(1, len(points))
    result_pt = _fitting(results, cell - _GAP, 8.5, bold=True)
    # a result too wide for its box even at the floor widens the boxes, not the floor
    cell = max(cell, _widest(results, result_pt, bold=True) + _GAP)
    input_pt = _fitting(inputs, cell - _GAP, 7.5, bold=False)
    # inputs wider than a cell even at the floor: a number every second (third...) tick
    every = max(1, math.ceil((_widest(inputs, input_pt, bold=False) + _GAP) / cell - 0.001))
    labels = _fitting([x_label, result_label], CHART_WIDTH - 2, LABEL_PT, bold=True)
    # neither a row of boxes nor a label too long for the room is clipped: the chart widens
    width = max(
        CHART_WIDTH, cell * len(points) + 2, _widest([x_label, result_label], labels, True) + 2
    )
    top = labels + 2  # the boxes start under the result's name
    height = 13.0
    ruler = top + height + 2 + input_pt  # the baseline of the input values under the ticks
    total_height = ruler + 2 + labels + 1.5
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="scale" role="img" '
        f'viewBox="0 0 {_n(width)} {_n(total_height)}" width="{_n(width)}pt" '
        f'height="{_n(total_height)}pt" aria-label={quoteattr(title)}>',
        f'<defs><pattern id="{hatch}" width="4" height="4" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="4" height="4" fill="#fff"/>'
        '<line x1="0" y1="0" x2="0" y2="4" stroke="#000" stroke-width="1.4"/></pattern></defs>',
        _text(1, labels, result_label, size=labels, anchor="start", weight="bold"),
        _text(1, total_height - 1.5, x_label, size=labels, anchor="start"),
    ]
    for i, point in enumerate(points):
        x = 1 + i * cell
        parts.append(_box(x, top, cell, height, point, hatch))
        parts.append(
            _text(x + cell / 2, top + height - 3.5, point.result, result_pt, weight="bold")
        )
        parts.append(
            f'<line x1="{_n(x)}" y1="{_n(top + height)}" x2="{_n(x)}" '
            f'y2="{_n(top + height + 2.5)}" stroke="#000" stroke-width="0.6"/>'
        )
        if i % every == 0:
            parts.append(_text(x + cell / 2, ruler, point.x, size=input_pt))
    end = 1 + cell * len(points)
    parts.append(
        f'<line x1="1" y1="{_n(top + height)}" x2="{_n(end)}" '
        f'y2="{_n(top + height)}" stroke="#000" stroke-width="0.8"/>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _box(x: float, top: float, cell: float, height: float, point: ScalePoint, hatch: str) -> str:
    """One result box, shaded by its level (hatched if impassable)."""
    if point.impassable:
        fill = f"url(#{hatch})"
    else:
        grey = round(255 - 150 * max(0.0, min(1.0, point.level)))
        fill = f"#{grey:02x}{grey:02x}{grey:02x}"
    box = (
        f'<rect x="{_n(x)}" y="{_n(top)}" width="{_n(cell)}" height="{_n(height)}" '
        f'fill="{fill}" stroke="#000" stroke-width="0.6"/>'
    )
    if point.impassable or point.level > 0.4:
        # the number on white: shading stays at the box's edge, so the digits survive a
        # photocopier however dark the box
        box += (
            f'<rect x="{_n(x + 1)}" y="{_n(top + 2)}" width="{_n(cell - 2)}" '
            f'height="{_n(height - 4)}" fill="#fff"/>'
        )
    return box


def grid_diagonals(step_labels: Sequence[str], total: str, title: str) -> str:
    """A small square grid with a diagonal path; each square entered shows what it counts."""
    steps = len(step_labels)
    side = steps + 2
    cell = 17.0
    size = side * cell
    height = size + 14
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="grid" role="img" '
        f'viewBox="0 0 {_n(size + 2)} {_n(height)}" width="{_n(size + 2)}pt" '
        f'height="{_n(height)}pt" aria-label={quoteattr(title)}>',
    ]
    for row in range(side):
        for col in range(side):
            on_path = col == row and col <= steps and col > 0
            fill = "#d9d9d9" if on_path else "#fff"
            if col == 0 and row == 0:
                fill = "#7f7f7f"
            y = 1 + (side - 1 - row) * cell
            parts.append(
                f'<rect x="{_n(1 + col * cell)}" y="{_n(y)}" width="{_n(cell)}" '
                f'height="{_n(cell)}" fill="{fill}" stroke="#000" '
                f'stroke-width="0.5"/>'
            )
    centre = [(1 + (i + 0.5) * cell, 1 + (side - 1 - i + 0.5) * cell) for i in range(steps + 1)]
    path = " ".join(f"{_n(x)},{_n(y)}" for x, y in centre)
    parts.append(
        f'<polyline points="{path}" fill="none" stroke="#000" stroke-width="1.2" '
        f'stroke-dasharray="3 1.5"/>'
    )
    for i, label in enumerate(step_labels, start=1):
        x, y = centre[i]
        # a white plate under the label: the dashed path runs under it, never across it
        plate = fit.width(label, 6.5, bold=True) + 2
        parts.append(
            f'<rect x="{_n(x - plate / 2)}" y="{_n(y - 3.6)}" width="{_n(plate)}" '
            f'height="7.4" fill="#fff"/>'
        )
        parts.append(_text(x, y + 2.5, label, size=6.5, weight="bold"))
    parts.append(_text(1 + size / 2, size + 11, total, size=7.5, weight="bold"))
    parts.append("</svg>")
    return "".join(parts)
