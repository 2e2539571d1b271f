"""Numbers pass: every number finite and of a sane size (E212), no divisor that is zero,
negative or small enough to overflow a quotient (E202), no negative movement cost (E213), no
range written backwards (E207).

Numbers become literals in the generated module and divisors become divisions in its code, so
a bound here is what keeps `1e400`, `nan` or `per 0.0000001 in` from reaching a build.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import assert_never

from rulesdsl import ir, semantics, spelling
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.positions import Positions
from rulesdsl.semantics import arith as semantics_arith

MAX_MAGNITUDE = walk.MAX_MAGNITUDE
"""The largest number a ruleset may write (in absolute value; the walk marks the nodes that
hold a larger one)."""
MIN_DIVISOR = 1e-6
"""The smallest divisor: a rate `per`, a step's `per`, a grid cell size, a scale after `/`."""


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    rates: list[tuple[ir.Rate, tuple[object, ...]]] = []
    listed = walk.nodes(rs) if nodes is None else nodes
    marks = listed.marked  # the nodes that may hold a number over the bound (walk.nodes)
    spans = listed.positions(lambda kind: issubclass(kind, ir.Rate | ir.Span))
    for i in range(len(listed)) if marks is None else sorted({*spans, *marks}):
        node, owners = listed[i]
        if isinstance(node, ir.Rate):
            rates.append((node, owners))
        if isinstance(node, ir.Span) and node.high < node.low:
            out.append(
                error(
                    "E207",
                    f"the range {node.low:g}-{node.high:g} runs backwards",
                    where.of(*owners),
                )
            )
        if marks is not None and i not in marks:
            continue
        for name, value in walk.numbers(node):
            if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
                out.append(
                    error(
                        "E212",
                        f"{value!r} is not a usable number",
                        where.of_field(node, name, *owners[1:]),
                        f"numbers are finite and at most {MAX_MAGNITUDE:,.0f} in size",
                    )
                )
    for divisor, what, owners in _divisors(rs, rates):
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
            if type(cost) is ir.Number and cost.value >= 0:
                continue  # most costs (issue 44: 50,000 calls for 5,000 features)
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
        case ir.Rate(amount=a) | ir.ParamRate(amount=a) | ir.Flat(amount=a):
            return a.value < 0
        case ir.Same(resolved=resolved):
            return _negative(resolved)
        case ir.Marker() | ir.OnceCost() | ir.NonCost():
            return False
        case unknown:
            assert_never(unknown)


def _divisors(
    rs: ir.Ruleset, rates: list[tuple[ir.Rate, tuple[object, ...]]]
) -> Iterator[tuple[float, str, tuple[object, ...]]]:
    """Each divisor the rules use, how to name it, and the nodes that hold it."""
    for rate, owners in rates:
        yield rate.per.value, f"a rate per {spelling.number(rate.per.value)}", owners
    for step in rs.steps:
        for term in step.terms:
            if isinstance(term, ir.RateTerm):
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
                        yield from _operand_divisors(op, row, decision)


def _operand_divisors(
    op: ir.Operand, row: ir.DecisionRow, decision: ir.Decision
) -> Iterator[tuple[float, str, tuple[object, ...]]]:
    """The divisors one side of a decision's comparison uses."""
    match op:
        case ir.InputOperand():
            if semantics.divides(op.scale_op):
                yield op.scale, f"'{op.input} / ...'", (op, row, decision)
        case ir.ArithOperand():
            for n in semantics_arith.divisors(op.expr):
                yield n.value, "a divisor in a decision", (n, op, row, decision)
        case ir.LiteralOperand() | ir.CellOperand():
            pass
        case _:
            assert_never(op)
