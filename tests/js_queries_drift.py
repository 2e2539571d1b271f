"""Random questions on drift at the end of a move (issue 40, item 4) for the differential test
of the JavaScript target: ``route_cost`` and ``cheapest_route`` given ``wind`` (now and then
none, or a wrong one) on grid boards, hex or square, with diagonals or not, whose places often
stop a drift (impassable, ``may not end``, ``must stop``) and whose edge the wind often reaches;
with a starting ``state`` where the rules have some (a band decides who drifts); for a unit
type with facing, the same of (place, heading) pairs. None for a ruleset without a ``drift``
line (so the other kinds' questions, drawn from generators of their own, do not change)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries, js_queries_facing, js_queries_state


def _wind(rng: random.Random, headings: int) -> Any:
    """The heading the wind blows from; now and then none, or a wrong one."""
    if rng.random() < 0.1:
        return rng.choice([None, headings, -1, 1.5, "2", True])
    return rng.randrange(headings)


def _options(rng: random.Random, plan: ModulePlan, headings: int) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"wind": _wind(rng, headings)}
    if plan.movement.states and rng.random() < 0.8:
        kwargs["state"] = js_queries_state._state(rng, plan)
    if rng.random() < 0.3:
        kwargs["allowance"] = rng.randint(0, 9)
    return kwargs


def drift_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    """Plain routes and cheapest routes given the wind, on small boards (the wind reaches the
    edge often)."""
    if plan.movement.drifts is None:
        return
    facing = {f.mode for f in plan.movement.facings}
    modes = [m.id for m in plan.header.modes if m.id not in facing]
    diagonal = [g.id for g in plan.movement.grids if g.diagonal is not None]
    for _ in range(40 if modes else 0):
        spec, cells, near = js_queries_state._board(rng, plan)
        headings = 6 if spec["grid"] == "hex" else 4
        if diagonal and spec["grid"] == "square" and rng.random() < 0.5:
            spec["grid"], headings = rng.choice(diagonal), 8
        for _ in range(4):
            mode = rng.choice(modes)
            kwargs = _options(rng, plan, headings)
            route = [rng.choice(cells)]
            for _ in range(rng.randint(0, 4)):
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


def facing_drift_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    """Moves with facing, and the cheapest ones, given the wind."""
    if plan.movement.drifts is None:
        return
    for _ in range(30 if plan.movement.facings else 0):
        rule = rng.choice(plan.movement.facings)
        spec, cells, _ = js_queries_state._board(rng, plan)
        spec["grid"] = rule.grid
        for _ in range(3):
            kwargs = _options(rng, plan, rule.headings)
            walk = js_queries_facing._walk(rng, cells, rule.headings)
            ask = js_queries_facing._query
            yield ask("route_cost", spec, [rule.mode, walk], kwargs)
            goal = list(rng.choice(cells)) if rng.random() < 0.6 else walk[-1]
            yield ask("cheapest_route", spec, [rule.mode, walk[0], goal], kwargs)
