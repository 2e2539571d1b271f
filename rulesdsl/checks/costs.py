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
from rulesdsl.diagnostics import Diagnostic, Pos, error, warning
from rulesdsl.positions import Positions
from rulesdsl.semantics.tables import covers_map

MOVE_COST_ARGUMENTS = frozenset({"mode", "features", "distance", "allowance"})
"""The arguments of the generated ``move_cost`` that a step input may not be named."""

ROUTE_ARGUMENTS = frozenset(
    {"board", "route", "start", "goal", "budget", "move", "entered", "outcomes"}
)
"""The arguments of the route functions (``route_cost``, ``cheapest_route``, ``reachable``),
which also take the step inputs by keyword (issue 40), that a step input may not be named."""


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
        case ir.Marker() | ir.Same() | ir.OnceCost() | ir.NonCost():
            return []
        case unknown:
            assert_never(unknown)


def _ignored(rs: ir.Ruleset, where: Positions) -> list[Diagnostic]:
    """W263: a feature that ignores the others silences them for every column: costs and
    modifiers, and also the rolls they make due and their sight values. Where the feature
    has no value of its own in a roll or sight column that another layer's features fill, it
    silences them there without saying so (a dive that ignored flak and clouds, issue 39)."""
    kinds = {r.id: "roll" for r in rs.rolls} | {r.id: "sight rule" for r in rs.sights}
    whole = {layer.id for layer in rs.layers if covers_map(layer)}
    out = []
    for feature in (f for f in rs.features if f.ignores_others):
        filled = {
            column
            for other in rs.features
            if other.layer not in (feature.layer, *whole)
            for column, cell in other.cells.items()
            if column in kinds and (cell.default is not None or cell.exceptions)
        }
        silent = [c for c in kinds if c in filled and c not in feature.cells]
        if silent:
            named = ", ".join(f"the {kinds[c]} '{c}'" for c in silent)
            out.append(
                warning(
                    "W263",
                    f"'{feature.id}' ignores the other features of its place, so their "
                    f"values for {named} do not count either, and it has none of its own",
                    where.of(feature),
                    f"give '{feature.id}' its own value in those columns (`no`, or `0`, for a "
                    "roll it ends), or drop `ignores others`",
                )
            )
    return out


def _step_cost(
    step: ir.Step,
    cost_unit: str | None,
    inputs: dict[str, tuple[str, ir.Step]],
    pos: Pos,
    where: Positions,
) -> list[Diagnostic]:
    """E221, E222, E224, E420 of a cost that is a step's answer."""
    out: list[Diagnostic] = []
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
    if step.param in ROUTE_ARGUMENTS:
        out.append(
            error(
                "E420",
                f"the step '{step.id}' takes '{step.param}', which the route functions "
                "(route_cost, cheapest_route, reachable) already take for themselves",
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
    return out


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = _ignored(rs, where)
    cost_unit = rs.units.get("cost")
    steps = {s.id: s for s in rs.steps}
    inputs: dict[str, tuple[str, ir.Step]] = {}
    for feature, cell, value in _written(rs):  # a value's place looked up when reported
        match value:
            case ir.Share(numerator=numerator, denominator=denominator) if not (
                0 < numerator <= denominator
            ):
                out.append(
                    error(
                        "E220",
                        f"'{feature.id}' costs a share of {value.numerator}/{value.denominator}"
                        " of the allowance",
                        where.of(value, cell, feature),
                        "a share is a part of the allowance: `share 1/2`, `share 2/3`, `share all`",
                    )
                )
            case ir.StepCost(step=name) if name in steps:
                pos = where.of(value, cell, feature)
                out += _step_cost(steps[name], cost_unit, inputs, pos, where)
            case ir.Number() | ir.Marker() | ir.Same() | ir.PerDistance():
                pass  # no check of its own
            case ir.NonCost() | ir.OnceCost():
                pass
            case _:
                assert_never(value)
        if cost_unit is None:
            continue
        for number in _units(value):
            if number.unit is not None and number.unit != cost_unit:
                out.append(
                    error(
                        "E223",
                        f"'{feature.id}' costs {spelling.value(value)}, but costs are in "
                        f"'{cost_unit}'",
                        where.of(value, cell, feature),
                        f"write the cost in {cost_unit} (see `units cost {cost_unit}`)",
                    )
                )
    return out
