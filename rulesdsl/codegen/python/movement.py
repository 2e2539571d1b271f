"""How the generated module moves units over a map (the plan's movement section): kinds of
move, the rolls a place makes due, facing rules, costs paid once per move, grids, place states
and edges. Reads only the plan."""

from __future__ import annotations

from typing import Any

from rulesdsl.codegen.plan import movement as plan_movement
from rulesdsl.codegen.plan import values as plan_values
from rulesdsl.codegen.python import facing as python_facing
from rulesdsl.codegen.python import free_facing as python_free_facing
from rulesdsl.codegen.python import moves as python_moves
from rulesdsl.codegen.python import once_costs
from rulesdsl.codegen.python.values import Code, tidy


def movement_context(plan: plan_movement.MovementPlan) -> dict[str, Any]:
    """The template's variables for MOVES, ROLLS, FACINGS, PER_MOVE_COSTS, the grids and the
    map's place states and edges, and the constants the runtime parts share (the roll order,
    the facing moves and their once-per-move bits)."""
    grid = plan.grids[0] if plan.grids else None
    return {
        **map_context(plan),
        **python_moves.context(plan),
        "grid_sizes": {unit: tidy(size) for unit, size in grid.sizes.items()} if grid else {},
        "grid_diagonals": grid.diagonals if grid else (),
        "once_costs": [
            ((c.mode, c.feature), Code(once_costs.once_py(c.cost))) for c in plan.per_move_costs
        ],
        "once_inputs": plan.cost_inputs,
        "shares": any(isinstance(c.cost, plan_values.Share) for c in plan.per_move_costs),
        "facings": [python_facing.facing_rule_py(f, plan.facing_moves) for f in plan.facings],
        "facing_moves": plan.facing_moves,
        "once_bits": dict(plan.once_bits),
        "refused_costed": plan.refused_costed,
        "turn_limits": any(f.turn_limit is not None for f in plan.facings),
        "turn_speeds": any(f.turn_costs for f in plan.facings),
        "wind_rules": any(plan_movement.reads_wind(f) for f in plan.facings),
        "sail_rules": any(f.sail or plan_movement.reads_strength(f) for f in plan.facings),
        "strength_rules": any(plan_movement.reads_strength(f) for f in plan.facings),
        "strengths": plan_movement.strengths(plan.facings),
        "speed_rules": any(f.speeds or f.strength_speeds for f in plan.facings),
        "drift": plan.drifts is not None,
        "drifts": {m: (d, state, op, bound) for m, d, state, op, bound in plan.drifts or ()},
        "arcs": {a.id: python_facing.arcs_py(a) for a in plan.arcs},
        "free_facings": [python_free_facing.rule_py(f) for f in plan.free_facings],
    }


def map_context(plan: plan_movement.MovementPlan) -> dict[str, Any]:
    """Place states and ``along`` costs by feature, the edge features, the grids' shapes and
    how many cells a diagonal step counts on each square grid with diagonals."""
    return {
        "place_states": [(f, dict(by_mode)) for f, by_mode in plan.place_states.items()],
        "along": [
            (f, {m: tidy(v) for m, v in by_mode.items()}) for f, by_mode in plan.along.items()
        ],
        "edge_features": plan.edge_features,
        "whole_moves": tuple(w for w in plan.whole_moves if w.bonus is None),
        "whole_bonuses": tuple(w for w in plan.whole_moves if w.bonus is not None),
        "states": plan.states,
        "state_ranges": {v.id: (v.low, v.high) for v in plan.states},
        "state_labels": tuple(v.label for v in plan.states),
        "own_ranges": plan_movement.own_ranges(plan.states),
        "state_changes": {c.source: dict(c.deltas) for c in plan.state_changes},
        "capped_changes": plan_movement.capped_changes(plan),
        "capped_bounds": plan_movement.capped_bounds(plan),
        "roll_states": {roll: (i, op, bound) for roll, i, op, bound in plan.roll_states},
        "whole_limits": any(w.most is not None for w in plan.whole_moves),
        "search": (
            "_limited_search"
            if any(w.most is not None or w.bonus is not None for w in plan.whole_moves)
            else "_search"
        ),
        "grid_shapes": {g.id: g.shape for g in plan.grids},
        "grid_diagonal": {g.id: tidy(g.diagonal) for g in plan.grids if g.diagonal is not None},
    }
