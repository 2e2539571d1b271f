"""Small inline SVG diagrams for quick-reference sheets, drawn from numbers alone.

Every piece of text goes through :func:`xml.sax.saxutils.escape` (and attribute quoting), so
labels from a ruleset cannot add markup. The output is deterministic: fixed sizes, numbers
written with a fixed precision, no ids that depend on anything but the arguments.
"""

from __future__ import annotations

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


def step_scale(
    points: Sequence[ScalePoint], x_label: str, result_label: str, title: str, uid: str
) -> str:
    """A row of result boxes above a ruler of inputs (e.g. thickness 0..12 in -> points).

    ``uid`` (an identifier) keeps the hatch pattern's id unique within a page.
    """
    hatch = f"hatch-{uid}"
    cell, height = 19.0, 14.0
    # the labels are right-aligned before the boxes: room for the longer one, never clipped
    left = max(54.0, 6 + max(fit.width(x_label, 7), fit.width(result_label, 7, bold=True)))
    width = left + cell * len(points) + 2
    ruler = height + 10.5  # the baseline of the input values under the ticks
    total_height = ruler + 2.5
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="scale" role="img" '
        f'viewBox="0 0 {_n(width)} {_n(total_height)}" width="{_n(width)}pt" '
        f'height="{_n(total_height)}pt" aria-label={quoteattr(title)}>',
        f'<defs><pattern id="{hatch}" width="4" height="4" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="4" height="4" fill="#fff"/>'
        '<line x1="0" y1="0" x2="0" y2="4" stroke="#000" stroke-width="1.4"/></pattern></defs>',
        _text(left - 3, height - 3, result_label, anchor="end", weight="bold"),
        _text(left - 3, ruler, x_label, anchor="end"),
    ]
    for i, point in enumerate(points):
        x = left + i * cell
        if point.impassable:
            fill = f"url(#{hatch})"
        else:
            grey = round(255 - 150 * max(0.0, min(1.0, point.level)))
            fill = f"#{grey:02x}{grey:02x}{grey:02x}"
        parts.append(
            f'<rect x="{_n(x)}" y="1" width="{_n(cell)}" height="{_n(height - 1)}" '
            f'fill="{fill}" stroke="#000" stroke-width="0.6"/>'
        )
        if point.impassable or point.level > 0.4:
            # the number on white: shading stays at the box's edge, so the digits survive a
            # photocopier however dark the box
            parts.append(
                f'<rect x="{_n(x + 3)}" y="3" width="{_n(cell - 6)}" '
                f'height="{_n(height - 5)}" fill="#fff"/>'
            )
        parts.append(_text(x + cell / 2, height - 3.5, point.result, size=8.5, weight="bold"))
        parts.append(
            f'<line x1="{_n(x)}" y1="{_n(height + 1)}" x2="{_n(x)}" '
            f'y2="{_n(height + 4)}" stroke="#000" stroke-width="0.6"/>'
        )
        parts.append(_text(x + cell / 2, ruler, point.x, size=7.5))
    end = left + cell * len(points)
    parts.append(
        f'<line x1="{_n(left)}" y1="{_n(height + 1)}" x2="{_n(end)}" '
        f'y2="{_n(height + 1)}" stroke="#000" stroke-width="0.8"/>'
    )
    parts.append("</svg>")
    return "".join(parts)


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
