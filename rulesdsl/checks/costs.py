"""Checks of movement costs that are not per distance, and of the cost unit (issue 11).

A share must be a part of the allowance (``share 1/2`` .. ``share all``); a step used as a
cost must answer in the cost unit and take an input that ``move_cost`` can be given by
keyword; every cost written with a unit must use the ruleset's cost unit (``units cost in``
makes costs distances: ``flat 2 in``, ``share all but 1 in``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import assert_never

from rulesdsl import ir, spelling
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.positions import Positions

MOVE_COST_ARGUMENTS = frozenset({"mode", "features", "distance", "allowance"})
"""The arguments of the generated ``move_cost`` that a step input may not be named."""


def _written(rs: ir.Ruleset) -> Iterator[tuple[ir.Feature, ir.Cell, ir.Value]]:
    """Every cost value as written in a layer row (``as`` references left to their source)."""
    for feature in rs.features:
        cell = feature.cells.get("cost")
        if cell is None:
            continue
        for value in (cell.default, *cell.exceptions.values()):
            if value is not None:
                yield feature, cell, value


def _units(value: ir.Value) -> list[ir.Number]:
    """The numbers of a cost value that are in the cost unit."""
    match value:
        case ir.Number():
            return [value]
        case ir.Rate(amount=a) | ir.ParamRate(amount=a) | ir.Flat(amount=a):
            return [a]
        case ir.Share(but=but):
            return [but] if but is not None else []
        case (
            ir.Trade()
            | ir.Span()
            | ir.Marker()
            | ir.Symbol()
            | ir.Flag()
            | ir.DiceValue()
            | ir.D66Value()
            | ir.Given()
            | ir.Text()
            | ir.Same()
            | ir.StepCost()
        ):
            return []
        case unknown:
            assert_never(unknown)


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    cost_unit = rs.units.get("cost")
    steps = {s.id: s for s in rs.steps}
    inputs: dict[str, tuple[str, ir.Step]] = {}
    for feature, cell, value in _written(rs):
        pos = where.of(value, cell, feature)
        if isinstance(value, ir.Share) and not 0 < value.numerator <= value.denominator:
            out.append(
                error(
                    "E220",
                    f"'{feature.id}' costs a share of {value.numerator}/{value.denominator}"
                    " of the allowance",
                    pos,
                    "a share is a part of the allowance: `share 1/2`, `share 2/3`, `share all`",
                )
            )
        if isinstance(value, ir.StepCost) and value.step in steps:
            step = steps[value.step]
            if cost_unit and step.result_unit and step.result_unit != cost_unit:
                out.append(
                    error(
                        "E221",
                        f"the step '{step.id}' answers in '{step.result_unit}', "
                        f"but costs are in '{cost_unit}'",
                        pos,
                        f"declare the step `-> {cost_unit}`",
                    )
                )
            if step.param in MOVE_COST_ARGUMENTS:
                out.append(
                    error(
                        "E222",
                        f"the step '{step.id}' takes '{step.param}', which move_cost already "
                        "takes for itself",
                        where.of_field(step, "param", step),
                        "rename the step's input (`height`, `rise`, ...)",
                    )
                )
            seen = inputs.setdefault(step.param, (step.param_unit, step))
            if seen[0] != step.param_unit:
                out.append(
                    error(
                        "E224",
                        f"the steps '{seen[1].id}' and '{step.id}' both take '{step.param}', "
                        f"in '{seen[0]}' and in '{step.param_unit}'",
                        pos,
                        "move_cost takes one value per input: use one unit, or rename one",
                    )
                )
        if cost_unit is None:
            continue
        for number in _units(value):
            if number.unit is not None and number.unit != cost_unit:
                out.append(
                    error(
                        "E223",
                        f"'{feature.id}' costs {spelling.value(value)}, but costs are in "
                        f"'{cost_unit}'",
                        pos,
                        f"write the cost in {cost_unit} (see `units cost {cost_unit}`)",
                    )
                )
    return out
