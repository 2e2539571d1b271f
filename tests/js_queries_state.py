"""Random questions on state carried between moves (issue 40, item 1) for the differential test
of the JavaScript target: ``route_cost``, ``cheapest_route`` and ``reachable`` given a starting
``state`` (and often a kind of move that changes it) on grid boards whose places and edges often
carry the features that change it, so that routes take a state out of its range and searches go
round; and bad ``state`` arguments; for a unit type with facing, the same of (place, heading)
pairs (``facing_state_queries``). None for a ruleset without ``state`` lines (so the other
kinds' questions, drawn from generators of their own, do not change)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries, js_queries_facing

_STEPS = {
    "hex": ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)),
    "square": ((1, 0), (0, -1), (-1, 0), (0, 1)),
}


def _board(rng: random.Random, plan: ModulePlan) -> tuple[dict[str, Any], list[Any], Any]:
    """A grid board's spec, its places and their neighbours (for drawing routes)."""
    layers = plan.header.layers
    places_of = [f for layer in layers if layer.scope == "one" for f in layer.features]
    many_of = [f for layer in layers if layer.scope == "many" for f in layer.features]
    edges_of = [f for layer in layers if layer.scope == "edges" for f in layer.features]
    grid = rng.choice(["hex", "square"])
    cells = [(x, y) for x in range(rng.randint(2, 6)) for y in range(rng.randint(2, 5))]
    places = {
        cell: [rng.choice(places_of)]
        + ([rng.choice(many_of)] if many_of and rng.random() < 0.3 else [])
        for cell in cells
    }

    def near(p: Any) -> list[Any]:
        x, y = p
        return [(x + dx, y + dy) for dx, dy in _STEPS[grid] if (x + dx, y + dy) in places]

    edges: dict[Any, Any] = {}
    for p in cells:
        for q in near(p):
            if edges_of and (q, p) not in edges and rng.random() < 0.3:
                edges[p, q] = edges[q, p] = [rng.choice(edges_of)]
    spec = {
        "places": [[list(p), f] for p, f in places.items()],
        "edges": [[[list(a), list(b)], f] for (a, b), f in edges.items()] or None,
        "grid": grid,
        "neighbours": None,
    }
    return spec, cells, near


def _state(rng: random.Random, plan: ModulePlan) -> Any:
    """A starting state, now and then a wrong one (a value out of range, a state left out or
    one too many, not a mapping)."""
    state: dict[str, Any] = {v.id: rng.randint(v.low, v.high) for v in plan.movement.states}
    if rng.random() < 0.08:
        state = rng.choice(
            [
                {**state, plan.movement.states[0].id: plan.movement.states[0].high + 1},
                {k: v for k, v in list(state.items())[1:]},
                {**state, "fuel": 1},
                [1, 2],
                3,
                {**state, plan.movement.states[-1].id: 1.5},
            ]
        )
    return state


def state_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    if not plan.movement.states:
        return
    modes = [m.id for m in plan.header.modes]
    moves = [k.id for k in plan.movement.moves]
    for _ in range(25):
        spec, cells, near = _board(rng, plan)
        for _ in range(4):
            mode = rng.choice(modes)
            kwargs: dict[str, Any] = {"state": _state(rng, plan)}
            if moves and rng.random() < 0.5:
                kwargs["move"] = rng.choice(moves)
            if rng.random() < 0.3:
                kwargs["allowance"] = rng.randint(0, 9)
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
            reach = {k: v for k, v in kwargs.items() if k != "allowance"}
            start = list(rng.choice(cells))
            yield {
                "function": "reachable",
                "board": spec,
                "args": [mode, start, rng.randint(0, 12)],
                "kwargs": reach,
            }


def facing_state_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    """Routes, cheapest routes and reaches of unit types with facing given a starting state
    (often with a kind of move), on grid boards whose places and edges carry the features that
    change it."""
    if not plan.movement.states:
        return
    moves = [k.id for k in plan.movement.moves]
    for _ in range(40 if plan.movement.facings else 0):
        rule = rng.choice(plan.movement.facings)
        spec, cells, _ = _board(rng, plan)
        spec["grid"] = rule.grid
        for _ in range(3):
            kwargs: dict[str, Any] = {"state": _state(rng, plan)}
            if moves and rng.random() < 0.5:
                kwargs["move"] = rng.choice(moves)
            if rng.random() < 0.3:
                kwargs["allowance"] = rng.randint(0, 9)
            walk = js_queries_facing._walk(rng, cells, rule.headings)
            ask = js_queries_facing._query
            yield ask("route_cost", spec, [rule.mode, walk], kwargs)
            goal = list(rng.choice(cells)) if rng.random() < 0.6 else walk[-1]
            yield ask("cheapest_route", spec, [rule.mode, walk[0], goal], kwargs)
            reach = {k: v for k, v in kwargs.items() if k != "allowance"}
            yield ask("reachable", spec, [rule.mode, walk[0], rng.randint(0, 10)], reach)
