"""What the generated module needs for line of sight and results tables (issue 11, items 9
and 10): precomputed data for ``module_sight.py.j2``, which ``module.py.j2`` includes.

The meaning is :mod:`rulesdsl.semantics` (``line_of_sight``, ``result``); tests ask both.
"""

from __future__ import annotations

from typing import Any

from rulesdsl.codegen.plan.sight import SightPlan, SightRule
from rulesdsl.codegen.python.values import cell_py, tidy

SIGHT_EXPORTS = ("SIGHTS", "Sight", "SightRule", "line_of_sight")
RESULTS_EXPORTS = ("RESULTS_TABLES", "ResultsTable", "ResultColumn", "Result")


def sight_rule_py(rule: SightRule) -> dict[str, Any]:
    """A sight rule as the template writes its ``SightRule``."""
    return {
        "id": rule.id,
        "labels": rule.labels,
        "blocks_at": tidy(rule.blocks_at) if rule.blocks_at is not None else None,
        "counts": rule.counts,
        "crossed": rule.crossed,
        "by_feature": {f: cell_py(v) for f, v in rule.by_feature.items()},
        "target_inside": rule.target_inside,
        "blocks_above": rule.blocks_above,
        "by_mode": {
            mode: {f: cell_py(v) for f, v in values.items()}
            for mode, values in rule.by_mode.items()
        },
    }


def sight_context(plan: SightPlan) -> dict[str, Any]:
    """The template's variables for SIGHTS and the dice outcomes fed to costs and sight
    (``fed_outcomes``; ``outcome_costs``, what each adds to the cost per distance)."""
    return {
        "sights": [sight_rule_py(r) for r in plan.rules],
        "fed_outcomes": plan.fed_outcomes,
        "outcome_costs": {k: tidy(v) for k, v in plan.outcome_costs.items()},
        "sight_states": dict(plan.state_bands),
    }
