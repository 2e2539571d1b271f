"""What the moves part of the generated module (``module_moves.py.j2``) needs: kinds of move
and the rolls the map makes due (issue 24), from the plan's movement section. The meaning is
:mod:`rulesdsl.semantics.moves`; a test asks both the same questions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesdsl.codegen.plan import movement as plan_movement
from rulesdsl.codegen.python import layout as python_layout
from rulesdsl.codegen.python.values import per_distance_py, tidy

MOVE_EXPORTS = ("MOVES", "ROLLS", "MoveKind", "RollRule", "RollDue", "rolls_due")
"""The names the moves part of the module adds to ``__all__``."""


def _tidy(by_feature: Mapping[str, Mapping[str, float]]) -> dict[str, dict[str, float]]:
    return {f: {m: tidy(v) for m, v in by_mode.items()} for f, by_mode in by_feature.items()}


def move_kind_py(k: plan_movement.MoveKind) -> python_layout.Call:
    """A kind of move as the module's ``MoveKind`` record."""
    barred = python_layout.call("frozenset", k.barred)
    only = [] if k.modes is None else [python_layout.call("frozenset", k.modes)]  # issue 40
    return python_layout.call(
        "MoveKind", k.id, k.label, tidy(k.factor), tidy(k.amount), barred, *only
    )


def roll_rule_py(r: plan_movement.RollRule) -> python_layout.Call:
    """A roll rule as the module's ``RollRule`` record."""
    return python_layout.call("RollRule", r.id, r.label, r.when, r.dice, r.table, r.combine)


def context(plan: plan_movement.MovementPlan) -> dict[str, Any]:
    """Kinds of move and roll rules as the template writes them, and the roll order."""
    return {
        "moves": {k.id: move_kind_py(k) for k in plan.moves},
        "kind_costs": {
            (k.id, feature): {mode: per_distance_py(c) for mode, c in by_mode.items()}
            for k in plan.moves
            for feature, by_mode in k.costs.items()
        },
        "rolls": {r.id: roll_rule_py(r) for r in plan.rolls},
        "roll_values": {r.id: _tidy(r.values) for r in plan.rolls},
        "roll_moves": {
            (r.id, kind): _tidy(by_feature)
            for r in plan.rolls
            for kind, by_feature in r.by_move.items()
        },
        "roll_order": plan.roll_order,
        "step_rolls": "any_step" in plan.roll_order,
        "first_steps": "first_step" in plan.roll_order,
    }
