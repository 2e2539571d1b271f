"""Random questions on whole-move bonuses (issue 40, item 6: "+4 in if the whole move is on
road") for the differential test of the JavaScript target: ``route_cost``, ``cheapest_route``
and ``reachable`` on grid boards where most edges carry a bonus's features and allowances are
small, so that routes wholly on them are legal only by the bonus and searches go further on
them. None for a ruleset without bonuses (so the other kinds' questions do not change)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries
from tests.js_queries_whole_move import _board


def bonus_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    if not any(w.bonus is not None for w in plan.movement.whole_moves):
        return
    modes = [m.id for m in plan.header.modes]
    counted = [f for w in plan.movement.whole_moves if w.bonus is not None for f in w.features]
    for _ in range(20):
        spec, cells, near = _board(rng, plan, counted, share=0.8, edged=0.7, rows=4)
        for _ in range(4):
            mode = rng.choice(modes)
            allowance = rng.choice([0, 0.5, 1, 1.5, 2, 3])
            route = [rng.choice(cells)]
            for _ in range(rng.randint(1, 6)):
                route.append(rng.choice(near(route[-1]) or [route[-1]]))
            path = [list(p) for i, p in enumerate(route) if i == 0 or p != route[i - 1]]
            kwargs = {"allowance": allowance}
            yield {"function": "route_cost", "board": spec, "args": [mode, path], "kwargs": kwargs}
            ends = [list(rng.choice(cells)), list(rng.choice(cells))]
            yield {
                "function": "cheapest_route",
                "board": spec,
                "args": [mode, *ends],
                "kwargs": kwargs,
            }
            start = list(rng.choice(cells))
            yield {
                "function": "reachable",
                "board": spec,
                "args": [mode, start, allowance],
                "kwargs": {},
            }
