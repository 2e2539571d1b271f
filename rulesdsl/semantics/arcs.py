"""What named arcs mean (issue 40): which arc of a unit a bearing falls in.

A bearing is relative to the unit's facing, counted clockwise from dead ahead in degrees (90 is
the right side). An arc's span ``A to B`` goes clockwise from A to B: in degrees as written
(``-60 to 60``, ``300 to 60``), or in hexsides, each 60 degrees wide around the line through its
middle (hexside 0 is the faced one, ``5 to 1`` the three front ones). A bearing is in the first
arc listed whose span holds it, ends included (a shooter on the line between two arcs is in
the first one listed); a bearing within :data:`EPSILON` of an end is on it.

Absolute directions are compass-like: clockwise from the top of the map (-y), places as on a
grid, x to the right and y down the map. On a grid a heading is the facing code's ``h``: the
grid's ``h``-th neighbour, counter-clockwise from +x (:mod:`rulesdsl.semantics.facing`).
The generated module's ``arc`` and ``arc_between`` answer the same; tests hold them to it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import assert_never

from rulesdsl import ir

EPSILON = 1e-9
"""How near (in degrees) a bearing may be to a span's end and be on it: a shooter on a hex
spine is on the line although the arithmetic of the hex's slant leaves a last-digit error."""

Span = tuple[float, float]
"""A span in degrees: ``(start, end)``, 0 <= start < 360, start < end <= start + 360."""


def span_degrees(unit: ir.ArcUnit, start: float, end: float) -> Span | None:
    """A span as written, in degrees; None when it has no width or goes round more than once
    (or names a hexside that is not a whole number from 0 to 5)."""
    match unit:
        case "deg":
            width = end - start if end > start else (end - start) % 360
            if width <= 0 or width > 360:
                return None
            return start % 360, start % 360 + width
        case "hexsides":
            if not all(float(h).is_integer() and 0 <= h <= 5 for h in (start, end)):
                return None
            sides = (int(end) - int(start)) % 6 + 1
            low = (60 * start - 30) % 360
            return low, low + 60 * sides
        case _:
            assert_never(unit)


def degrees(arcs: ir.Arcs) -> tuple[tuple[str, tuple[Span, ...]], ...]:
    """Each arc's id and its spans in degrees, in the order written (spans that are not valid,
    which the build refuses, are left out)."""
    out = []
    for a in arcs.arcs:
        spans = (span_degrees(arcs.unit, lo, hi) for lo, hi in a.spans)
        out.append((a.id, tuple(s for s in spans if s is not None)))
    return tuple(out)


def uncovered(spans: Sequence[Span]) -> Span | None:
    """The first stretch of bearings (clockwise from 0) that no span holds, or None."""
    pieces = sorted(
        piece
        for lo, hi in spans
        for piece in (((lo, 360.0), (0.0, hi - 360)) if hi > 360 else ((lo, hi),))
    )
    reached = 0.0
    for lo, hi in pieces:
        if lo > reached + EPSILON:
            return reached, lo
        reached = max(reached, hi)
    return (reached, 360.0) if reached < 360 - EPSILON else None


def relative(bearing: float, heading: float = 0.0) -> float:
    """``bearing`` seen from ``heading`` (both clockwise, in degrees), from 0 up to 360."""
    turned = math.fmod(bearing - heading, 360.0)
    return turned + 360.0 if turned < 0 else turned


def arc(arcs: ir.Arcs, bearing: float, heading: float = 0.0) -> str:
    """The arc of a unit facing ``heading`` that holds the direction ``bearing`` (both clockwise
    in degrees; with heading 0, ``bearing`` is relative to the facing)."""
    turned = relative(bearing, heading)
    for arc_id, spans in degrees(arcs):
        for lo, hi in spans:
            if lo - EPSILON <= turned <= hi + EPSILON or turned + 360 <= hi + EPSILON:
                return arc_id
    raise ValueError(f"no arc of '{arcs.id}' holds bearing {turned}")  # the build refuses gaps


def compass(dx: float, dy: float) -> float:
    """The direction of ``(dx, dy)`` (y down the map), clockwise from the top, in degrees."""
    return math.degrees(math.atan2(dx, -dy))


def grid_offset(shape: ir.GridShape, dq: float, dr: float) -> tuple[float, float]:
    """A grid step's offset as drawn: axial hex (q, r) with pointy tops, or square (x, y)."""
    match shape:
        case "hex":
            return math.sqrt(3) * (dq + dr / 2), 1.5 * dr
        case "square":
            return dq, dr
        case _:
            assert_never(shape)


def arc_between(
    arcs: ir.Arcs,
    target: tuple[float, float],
    heading: float,
    other: tuple[float, float],
    grid: tuple[ir.GridShape, int] | None = None,
) -> str:
    """The arc of the unit at ``target`` facing ``heading`` where ``other`` stands (a shooter).
    ``grid`` ``(shape, headings)``: places and a heading as the facing code gives them; None:
    coordinates and a compass heading in degrees."""
    dq, dr = other[0] - target[0], other[1] - target[1]
    if grid is None:
        return arc(arcs, compass(dq, dr), heading)
    shape, headings = grid
    return arc(arcs, compass(*grid_offset(shape, dq, dr)), 90 - 360 * heading / headings)
