"""A worked example that asks ``arc_between(arcs, target, heading, other, grid=)`` (issue 40):
the arc of a unit at ``target`` facing ``heading`` where ``other`` stands, the places given as
pairs, ``(0, 0)``, on a grid (``grid=hex``, ``square`` or a declared grid: a heading is the
grid's ``heading``-th neighbour) or off it (coordinates, a heading in degrees), read through
:func:`rulesdsl.semantics.arcs.arc_between` as the generated module answers it. Misuse is
E272 at the argument.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rulesdsl import ir, semantics, spelling, words
from rulesdsl.examples.statements import Answered, Unanswerable
from rulesdsl.semantics import arcs as semantics_arcs

Found = tuple[int, ir.ExampleArg]
"""An argument and its index among the question's arguments."""

Name = Callable[[Found, Sequence[str], str], str]
"""How the examples read a name from a pool (:func:`rulesdsl.examples._name`)."""


def answer(rs: ir.Ruleset, found: list[Found], grid_arg: Found | None, name: Name) -> Answered:
    """``arc_between(armour, (0, 0), 0, (1, 1), grid=hex) = front``: the arcs, the target's
    place and heading, the other's place, in the module's order."""
    if len(found) != 4:
        at = found[4][0] if len(found) > 4 else None
        raise Unanswerable("arc_between() takes the arcs, a place, a heading and a place", at)
    blocks = {a.id: a for a in rs.arcs}
    arcs = blocks[name(found[0], list(blocks), "block of arcs")]
    grid = _grid(rs, grid_arg, name)
    target, other = _place(found[1], grid is not None), _place(found[3], grid is not None)
    heading = _heading(found[2], grid)
    if target == other:
        raise Unanswerable("the other place is where the target stands", found[3][0])
    arc = semantics_arcs.arc_between(arcs, target, heading, other, grid)
    shown = next(a for a in arcs.arcs if a.id == arc)
    spans = ", ".join(f"{spelling.number(lo)} to {spelling.number(hi)}" for lo, hi in shown.spans)
    return Answered(({"word": arc},), None, (f"{arcs.id}.{arc}: {spans}",))


def _grid(rs: ir.Ruleset, found: Found | None, name: Name) -> tuple[ir.GridShape, int] | None:
    """``grid=hex``: the grid's shape and its number of headings; None: off the grid."""
    if found is None:
        return None
    grids = {g.id: g for g in rs.grids}
    shapes: dict[str, ir.GridShape] = {s: s for s in words.GRID_SHAPES}
    chosen = name(found, [*shapes, *grids], "grid (hex, square or a declared grid)")
    grid = grids.get(chosen)
    shape = grid.shape if grid is not None else shapes[chosen]
    diagonal = grid is not None and semantics.has_diagonals(grid)
    return shape, _HEADINGS[shape][diagonal]


_HEADINGS = words.total(ir.GridShape, {"hex": (6, 6), "square": (4, 8)})
"""Per grid shape, its headings without diagonals and with them (the module's facing codes)."""


def _place(found: Found, whole: bool) -> tuple[float, float]:
    """A place as a pair, ``(2, 3)``: whole numbers on a grid."""
    i, a = found
    numbers = [v.value for v in a.values if isinstance(v, ir.Number) and v.unit is None]
    if not a.grouped or len(a.values) != 2 or len(numbers) != 2:
        raise Unanswerable("a place is a pair of numbers in parentheses, (2, 3)", i)
    if whole and not all(float(n).is_integer() for n in numbers):
        raise Unanswerable("a place of a grid is a pair of whole numbers, (2, 3)", i)
    return numbers[0], numbers[1]


def _heading(found: Found, grid: tuple[ir.GridShape, int] | None) -> float:
    """The target's heading: a grid's heading code, or degrees off the grid."""
    i, a = found
    value = a.values[0] if len(a.values) == 1 and not a.grouped else None
    if isinstance(value, ir.Number) and grid is None and value.unit in (None, "deg"):
        return value.value
    whole = isinstance(value, ir.Number) and float(value.value).is_integer()
    if isinstance(value, ir.Number) and grid is not None and whole and value.unit is None:
        return value.value if 0 <= value.value < grid[1] else _refused(i, grid)
    return _refused(i, grid)


def _refused(i: int, grid: tuple[ir.GridShape, int] | None) -> float:
    what = f"a heading of the grid, 0 to {grid[1] - 1}" if grid else "a heading in degrees"
    raise Unanswerable(f"the target's heading is {what}", i)
