"""Random questions on whole-move rules (issue 40, item 6) for the differential test of the
JavaScript target: ``route_cost``, ``cheapest_route`` and ``reachable`` on grid boards whose
edges and places often carry the features the rules count, so that routes break limits, searches
must go round them and routes carry marks. None for a ruleset without whole-move rules (so the
other kinds' questions, drawn from generators of their own, do not change)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries

_STEPS = {
    "hex": ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)),
    "square": ((1, 0), (0, -1), (-1, 0), (0, 1)),
}


def _board(
    rng: random.Random,
    plan: ModulePlan,
    counted: list[str] | None = None,
    share: float = 0.5,
    edged: float = 0.4,
    rows: int = 5,
) -> tuple[dict[str, Any], list[Any], Any]:
    """A grid board's spec, its places and their neighbours (for drawing routes): about
    ``share`` of the features drawn among ``counted`` (the rules' features by default), an
    edge between ``edged`` of the neighbours, 2 to ``rows`` rows."""
    layers = plan.header.layers
    places_of = [f for layer in layers if layer.scope == "one" for f in layer.features]
    edges_of = [f for layer in layers if layer.scope == "edges" for f in layer.features]
    if counted is None:
        counted = [f for w in plan.movement.whole_moves for f in w.features]
    grid = rng.choice(["hex", "square"])
    cells = [(x, y) for x in range(rng.randint(2, 6)) for y in range(rng.randint(2, rows))]

    def feature(pool: list[str]) -> str:
        return (
            rng.choice([f for f in counted if f in pool] or pool)
            if rng.random() < share
            else (rng.choice(pool))
        )

    places = {cell: [feature(places_of)] for cell in cells}

    def near(p: Any) -> list[Any]:
        x, y = p
        return [(x + dx, y + dy) for dx, dy in _STEPS[grid] if (x + dx, y + dy) in places]

    edges: dict[Any, Any] = {}
    for p in cells:
        for q in near(p):
            if edges_of and (q, p) not in edges and rng.random() < edged:
                edges[p, q] = edges[q, p] = [feature(edges_of)]
    spec = {
        "places": [[list(p), f] for p, f in places.items()],
        "edges": [[[list(a), list(b)], f] for (a, b), f in edges.items()] or None,
        "grid": grid,
        "neighbours": None,
    }
    return spec, cells, near


def whole_move_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    if not plan.movement.whole_moves:
        return
    modes = [m.id for m in plan.header.modes]
    for _ in range(20):
        spec, cells, near = _board(rng, plan)
        for _ in range(4):
            mode = rng.choice(modes)
            kwargs = {"allowance": rng.randint(0, 9)} if rng.random() < 0.3 else {}
            route = [rng.choice(cells)]
            for _ in range(rng.randint(0, 6)):
                route.append(rng.choice(near(route[-1]) or [route[-1]]))
            route = [p for i, p in enumerate(route) if i == 0 or p != route[i - 1]]
            path = [list(p) for p in route]
            yield {"function": "route_cost", "board": spec, "args": [mode, path], "kwargs": kwargs}
            ends = [list(rng.choice(cells)), list(rng.choice(cells))]
            yield {
                "function": "cheapest_route",
                "board": spec,
                "args": [mode, *ends],
                "kwargs": kwargs,
            }
            budget = rng.randint(0, 12)
            start = list(rng.choice(cells))
            yield {
                "function": "reachable",
                "board": spec,
                "args": [mode, start, budget],
                "kwargs": {},
            }
