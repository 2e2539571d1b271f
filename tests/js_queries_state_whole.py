"""Random questions on a state beside whole-move limits and bonuses (issue 40) for the
differential test of the JavaScript target: ``route_cost``, ``cheapest_route`` and
``reachable`` given a starting ``state`` (now and then a kind of move) on grid boards whose
places and edges often carry the features the state, the limits and the bonuses count, with
small budgets, so that searches go round a limit, keep or lose a bonus, and go round a step
that takes the state out of its range. None for rules without both a state and a whole-move
limit or bonus."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries
from tests.js_queries_state import _board, _state


def state_whole_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    movement = plan.movement
    if not movement.states or not any(
        w.most is not None or w.bonus is not None for w in movement.whole_moves
    ):
        return
    modes = [m.id for m in plan.header.modes]
    moves = [k.id for k in movement.moves]
    for _ in range(40):
        spec, cells, near = _board(rng, plan)
        for _ in range(4):
            mode = rng.choice(modes)
            kwargs: dict[str, Any] = {"state": _state(rng, plan)}
            if moves and rng.random() < 0.3:
                kwargs["move"] = rng.choice(moves)
            if rng.random() < 0.6:
                kwargs["allowance"] = rng.choice([0, 0.5, 1, 2, 3, 5])
            route = [rng.choice(cells)]
            for _ in range(rng.randint(1, 6)):
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
            budget = rng.choice([0, 0.5, 1, 2, 3, 4, 6])
            yield {
                "function": "reachable",
                "board": spec,
                "args": [mode, start, budget],
                "kwargs": reach,
            }
