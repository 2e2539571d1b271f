"""How the generated module moves units over a map (the plan's movement section): kinds of
move, the rolls a place makes due, facing rules, costs paid once per move, grids, place states
and edges."""

from __future__ import annotations

from typing import Any

from rulesdsl import editions, ir, semantics
from rulesdsl.codegen.plan.movement import MovementPlan
from rulesdsl.codegen.python import facing as python_facing
from rulesdsl.codegen.python import moves as python_moves
from rulesdsl.codegen.python import once_costs
from rulesdsl.codegen.python.values import tidy


def movement_context(plan: MovementPlan) -> dict[str, Any]:
    """The template's variables for MOVES, ROLLS, FACINGS, PER_MOVE_COSTS, the grids and the
    map's place states and edges."""
    rs = plan.ruleset
    lang = rs.languages[0]

    def label(info: ir.Info, fallback: str) -> str:
        return info.labels.get(lang) or next(iter(info.labels.values()), fallback)

    grid = rs.grids[0] if rs.grids else None
    once = once_costs.context(rs)
    return {
        **map_context(rs),
        **python_moves.context(rs, label),
        "grid_sizes": {n.unit: tidy(n.value) for n in grid.size if n.unit} if grid else {},
        "grid_diagonals": grid.diagonals if grid else (),
        "once_costs": once["once_costs"],
        "once_inputs": once["once_inputs"],
        "facings": python_facing.facings(rs),
        "refused_costed": editions.refused_manoeuvre_costed(rs.edition),
    }


def map_context(rs: ir.Ruleset) -> dict[str, Any]:
    """Place states and ``along`` costs by feature, the edge features, the grids' shapes and
    how many cells a diagonal step counts on each square grid with diagonals."""
    edge_layers = {layer.id for layer in rs.layers if semantics.on_edges(layer)}
    return {
        "place_states": [(f.id, dict(f.states)) for f in rs.features if f.states],
        "along": [(f.id, {m: tidy(v) for m, v in f.along.items()}) for f in rs.features if f.along],
        "edge_features": tuple(f.id for f in rs.features if f.layer in edge_layers),
        "grid_shapes": {g.id: g.shape for g in rs.grids},
        "grid_diagonal": {
            g.id: tidy(sum(g.diagonals) / len(g.diagonals))
            for g in rs.grids
            if semantics.has_diagonals(g)
        },
    }
