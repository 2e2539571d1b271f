"""What the generated module needs for line of sight and results tables (issue 11, items 9
and 10): precomputed data for ``module_sight.py.j2``, which ``module.py.j2`` includes.

The meaning is :mod:`rulesdsl.semantics` (``line_of_sight``, ``result``); tests ask both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulesdsl import ir, semantics
from rulesdsl.codegen.plan.sight import SightPlan
from rulesdsl.codegen.python import once_costs
from rulesdsl.codegen.python.values import Code, runtime
from rulesdsl.semantics import effects as semantics_effects

Runtime = Callable[[ir.Value | None], Any]
"""How an IR value looks in the module (:func:`rulesdsl.codegen.python.runtime`)."""


SIGHT_EXPORTS = ("SIGHTS", "Sight", "SightRule", "line_of_sight")
RESULTS_EXPORTS = ("RESULTS_TABLES", "ResultsTable", "ResultColumn", "Result")


def _tidy(number: float) -> float:
    return int(number) if isinstance(number, float) and number.is_integer() else number


def sights(rs: ir.Ruleset, runtime: Runtime, code: Callable[[str], Any]) -> list[dict[str, Any]]:
    """Each sight rule with every feature's value in its column (features with none left out);
    a step is the module's ``StepCost`` record (``code`` marks source to emit as is)."""
    out = []

    def shown(value: ir.Value) -> Any:
        step = once_costs.record(rs, value)
        return code(step) if step is not None else runtime(value)

    for rule in rs.sights:
        values: dict[str, Any] = {}
        by_mode: dict[str, dict[str, Any]] = {}
        for f in rs.features:
            cell = f.cells.get(rule.id)
            if cell is None:
                continue
            if cell.default is not None:
                values[f.id] = shown(cell.default)
            if not cell.exceptions:
                continue
            for mode in rs.modes:
                value = semantics.sight_value(rs, cell, mode.id)
                if value is not None and value != cell.default:
                    by_mode.setdefault(mode.id, {})[f.id] = shown(value)
        for outcome, number in semantics_effects.outcome_values(rs, rule.id).items():
            values[outcome] = _tidy(number)  # a dice outcome given for a place (issue 24)
        out.append(
            {
                "id": rule.id,
                "labels": rule.info.labels,
                "blocks_at": _tidy(rule.blocks_at) if rule.blocks_at is not None else None,
                "counts": rule.counts,
                "crossed": rule.crossed,
                "by_feature": values,
                "target_inside": rule.target_inside,
                "blocks_above": rule.blocks_when == "above",
                "by_mode": by_mode,
            }
        )
    return out


def effects(rs: ir.Ruleset) -> dict[str, Any]:
    """The dice outcomes that ``move_cost`` and ``line_of_sight`` take beside features (issue
    24): ``fed_outcomes``, and ``outcome_costs``, what each adds to the cost per distance."""
    costs = semantics_effects.outcome_values(rs, semantics_effects.COST)
    return {
        "fed_outcomes": semantics_effects.fed_outcomes(rs),
        "outcome_costs": {k: _tidy(v) for k, v in costs.items()},
    }


def sight_context(plan: SightPlan) -> dict[str, Any]:
    """The template's variables for SIGHTS and the dice outcomes fed to costs and sight."""
    return {"sights": sights(plan.ruleset, runtime, Code), **effects(plan.ruleset)}
