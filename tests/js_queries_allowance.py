"""Random questions on unit types' own allowances (issue 40, item 5) for the differential test
of the JavaScript target: ``route_cost``, ``cheapest_route`` and ``reachable`` asked mostly
without an allowance or a budget (so the unit type's own is used, or its absence refused),
at times with one (the caller's wins), and with kinds of move that scale it. None for a
ruleset whose unit types have no allowance of their own (so the other kinds' questions,
drawn from generators of their own, do not change)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries
from tests.js_queries_whole_move import _board


def _options(rng: random.Random, plan: ModulePlan) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    if rng.random() < 0.25:
        kwargs["allowance"] = rng.randint(0, 9)
    if plan.movement.moves and rng.random() < 0.3:
        kwargs["move"] = rng.choice([k.id for k in plan.movement.moves])
    return kwargs


def allowance_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    if all(m.allowance is None for m in plan.header.modes):
        return
    modes = [m.id for m in plan.header.modes]
    for _ in range(20):
        spec, cells, near = _board(rng, plan)
        for _ in range(4):
            mode = rng.choice(modes)
            route = [rng.choice(cells)]
            for _ in range(rng.randint(0, 8)):
                route.append(rng.choice(near(route[-1]) or [route[-1]]))
            route = [p for i, p in enumerate(route) if i == 0 or p != route[i - 1]]
            board: dict[str, Any] = {"board": spec}
            yield {
                **board,
                "function": "route_cost",
                "args": [mode, [list(p) for p in route]],
                "kwargs": _options(rng, plan),
            }
            ends = [list(rng.choice(cells)), list(rng.choice(cells))]
            yield {
                **board,
                "function": "cheapest_route",
                "args": [mode, *ends],
                "kwargs": _options(rng, plan),
            }
            budget = [rng.randint(0, 12)] if rng.random() < 0.25 else []
            yield {
                **board,
                "function": "reachable",
                "args": [mode, list(rng.choice(cells)), *budget],
                "kwargs": _options(rng, plan),
            }
