"""Numbers pass: every number finite and of a sane size (E212), no divisor that is zero,
negative or small enough to overflow a quotient (E202), no negative movement cost (E213).

Numbers become literals in the generated module and divisors become divisions in its code, so
a bound here is what keeps `1e400`, `nan` or `per 0.0000001 in` from reaching a build.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator

from rulesdsl import ir, spelling
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.positions import Positions

MAX_MAGNITUDE = 1e9
"""The largest number a ruleset may write (in absolute value)."""
MIN_DIVISOR = 1e-6
"""The smallest divisor: a rate `per`, a step's `per`, a grid cell size, a scale after `/`."""


def check(rs: ir.Ruleset, where: Positions) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for value, owners, name in _numbers(rs, (), ""):
        if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
            out.append(
                error(
                    "E212",
                    f"{value!r} is not a usable number",
                    where.of_field(owners[0], name, *owners[1:]) if owners else where.of(),
                    f"numbers are finite and at most {MAX_MAGNITUDE:,.0f} in size",
                )
            )
    for divisor, what, owners in _divisors(rs):
        if math.isfinite(divisor) and divisor < MIN_DIVISOR:
            zero = "by zero or less" if divisor <= 0 else "by almost nothing"
            out.append(
                error(
                    "E202",
                    f"{what} divides {zero}",
                    where.of(*owners),
                    f"the divisor must be at least {MIN_DIVISOR:g}",
                )
            )
    if rs.entry_cost < 0:
        out.append(
            error(
                "E213",
                "the entry cost is negative",
                where.of_field(rs, "entry_cost"),
                "movement costs are zero or more; a bonus belongs in a modifier",
            )
        )
    for feature in rs.features:
        for mode, cost in feature.costs.items():
            if _negative(cost):
                cell = feature.cells.get("cost")
                owners = (cell.exceptions.get(mode), cell.default, cell) if cell else ()
                out.append(
                    error(
                        "E213",
                        f"'{feature.id}' costs {mode} a negative amount",
                        where.of(*[o for o in owners if o is not None], feature),
                        "movement costs are zero or more; a bonus belongs in a modifier",
                    )
                )
    return out


def _negative(cost: ir.Value) -> bool:
    match cost:
        case ir.Number(value=v):
            return v < 0
        case ir.Rate(amount=a) | ir.ParamRate(amount=a):
            return a.value < 0
        case ir.Same(resolved=resolved):
            return _negative(resolved)
        case _:
            return False


def _numbers(
    node: object, owners: tuple[object, ...], name: str
) -> Iterator[tuple[float, tuple[object, ...], str]]:
    """Every number in the IR, with the nodes that hold it, innermost first, and the name of
    the innermost node's field that holds it."""
    if isinstance(node, bool) or node is None or isinstance(node, str):
        return
    if isinstance(node, int | float):
        yield float(node), owners, name
    elif isinstance(node, tuple | list):
        for item in node:
            yield from _numbers(item, owners, name)
    elif isinstance(node, dict):
        for item in node.values():
            yield from _numbers(item, owners, name)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            yield from _numbers(getattr(node, f.name), (node, *owners), f.name)


def _divisors(rs: ir.Ruleset) -> Iterator[tuple[float, str, tuple[object, ...]]]:
    """Each divisor the rules use, how to name it, and the nodes that hold it."""
    for value, owners in _values(rs, ()):
        if isinstance(value, ir.Rate):
            yield value.per.value, f"a rate per {spelling.number(value.per.value)}", owners
    for step in rs.steps:
        for term in step.terms:
            if term.term == "rate":
                yield (
                    term.every,
                    f"a step per {spelling.number(term.every)} {step.param_unit}",
                    (term, step),
                )
    for grid in rs.grids:
        for size in grid.size:
            yield size.value, "a grid cell size", (size, grid)
    for decision in rs.decisions:
        for row in decision.rows:
            for c in row.conditions:
                if isinstance(c, ir.Comparison):
                    for op in (c.left, c.right):
                        if isinstance(op, ir.InputOperand) and op.scale_op == "/":
                            yield op.scale, f"'{op.input} / ...'", (op, row, decision)


def _values(
    node: object, owners: tuple[object, ...]
) -> Iterator[tuple[object, tuple[object, ...]]]:
    """Every dataclass node of the IR with its enclosing nodes (itself first)."""
    if isinstance(node, tuple | list):
        for item in node:
            yield from _values(item, owners)
    elif isinstance(node, dict):
        for item in node.values():
            yield from _values(item, owners)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        inner = (node, *owners)
        yield node, inner
        for f in dataclasses.fields(node):
            yield from _values(getattr(node, f.name), inner)
