"""Random questions on route searches given a step's inputs and dice outcomes in places (issue
40, item 7) for the differential test of the JavaScript target: ``route_cost``,
``cheapest_route`` and ``reachable`` asked with the step inputs of the costs paid once
(``height=3``: valid, missing, misspelled, of a wrong type) and with ``outcomes``, a mapping of
places to the dice outcomes that feed the cost (valid, off the board, unknown, not a mapping).
None for a ruleset with neither (so the other kinds' questions do not change).

``outcomes`` is written ``{"pairs": [[place, names], ...]}``: a Python dict (places as tuples),
a JavaScript Map; any other value is given as is."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries
from tests.js_queries_whole_move import _board


def _inputs(rng: random.Random, plan: ModulePlan) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    for name in plan.movement.cost_inputs:
        pick = rng.random()
        if pick < 0.75:
            kwargs[name] = rng.choice([0, 1, 2, 3, 4, 5, 2.5, 7])
        elif pick < 0.85:
            kwargs[name] = js_queries.number(rng, -2, 6)
    if plan.movement.cost_inputs and rng.random() < 0.05:
        kwargs[plan.movement.cost_inputs[0][:-1] + "x"] = 1  # a misspelled input
    return kwargs


def _outcomes(rng: random.Random, plan: ModulePlan, cells: list[Any]) -> Any:
    fed = list(plan.sight.fed_outcomes)
    pick = rng.random()
    if pick < 0.05:
        return rng.choice([[1], "smoke", 3])
    pairs: list[Any] = []
    for cell in rng.sample(cells, min(len(cells), rng.randint(1, 4))):
        names: Any = rng.sample(fed, rng.randint(1, len(fed)))
        if rng.random() < 0.05:
            names = rng.choice([names[0], [js_queries.mangled(rng, names[0])], 3])
        pairs.append([list(cell), names])
    if rng.random() < 0.05:
        pairs.append([[99, 99], fed[:1]])
    return {"pairs": pairs}


def _options(rng: random.Random, plan: ModulePlan, cells: list[Any]) -> dict[str, Any]:
    kwargs = _inputs(rng, plan)
    if plan.sight.fed_outcomes and rng.random() < 0.8:
        kwargs["outcomes"] = _outcomes(rng, plan, cells)
    if rng.random() < 0.2:
        kwargs["allowance"] = rng.randint(0, 12)
    if plan.movement.moves and rng.random() < 0.2:
        kwargs["move"] = rng.choice([k.id for k in plan.movement.moves])
    return kwargs


def route_input_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    if not (plan.movement.cost_inputs or plan.sight.fed_outcomes):
        return
    facing = {f.mode for f in plan.movement.facings}
    modes = [m.id for m in plan.header.modes if m.id not in facing] or ["none"]
    for mode in sorted(facing):  # the board read first (js_queries_facing_inputs asks the rest)
        options = _options(rng, plan, [(0, 0)])
        yield {
            "function": "reachable",
            "board": {"raw": None},
            "args": [mode, [0, 0], 3],
            "kwargs": options,
        }
    for _ in range(25):
        spec, cells, near = _board(rng, plan)
        for _ in range(4):
            mode = rng.choice(modes)
            route = [rng.choice(cells)]
            for _ in range(rng.randint(1, 6)):
                route.append(rng.choice(near(route[-1]) or [route[-1]]))
            route = [p for i, p in enumerate(route) if i == 0 or p != route[i - 1]]
            board: dict[str, Any] = {"board": spec}
            yield {
                **board,
                "function": "route_cost",
                "args": [mode, [list(p) for p in route]],
                "kwargs": _options(rng, plan, cells),
            }
            ends = [list(rng.choice(cells)), list(rng.choice(cells))]
            yield {
                **board,
                "function": "cheapest_route",
                "args": [mode, *ends],
                "kwargs": _options(rng, plan, cells),
            }
            yield {
                **board,
                "function": "reachable",
                "args": [mode, list(rng.choice(cells)), rng.randint(0, 10)],
                "kwargs": {k: v for k, v in _options(rng, plan, cells).items()},
            }


def allowance_step_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    """``move_cost``, ``can_enter`` and ``free_move`` asked mostly without an allowance, so that
    a unit type's own is read (or its absence refused for a share); none for a ruleset whose
    unit types have no allowance of their own."""
    if all(m.allowance is None for m in plan.header.modes):
        return
    modes = [m.id for m in plan.header.modes]
    features = [f.id for f in plan.data.features]
    free = [f.mode for f in plan.movement.free_facings]
    for _ in range(150):
        kwargs: dict[str, Any] = {}
        if rng.random() < 0.2:
            kwargs["allowance"] = rng.randint(0, 9)
        if plan.movement.moves and rng.random() < 0.3:
            kwargs["move"] = rng.choice([k.id for k in plan.movement.moves])
        place = [rng.choice(modes), *rng.sample(features, 1)]
        yield {"function": "move_cost", "args": place, "kwargs": kwargs}
        yield {
            "function": "can_enter",
            "args": place,
            "kwargs": {**kwargs, "available": rng.randint(0, 6)},
        }
        if free:
            legs = [["straight", rng.randint(1, 4)], ["turn", rng.choice([30, 45, 90])]]
            legs.append(["straight", rng.randint(0, 5)])
            given = [rng.randint(3, 9)] if rng.random() < 0.3 else []
            args = [rng.choice(free), legs, *given]
            yield {"function": "free_move", "args": args, "kwargs": {}, "freefacing": True}
