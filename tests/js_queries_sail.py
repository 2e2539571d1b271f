"""Random moves of unit types that sail by arcs (``sail by``, issue 40) for the differential
test of the JavaScript target: ``route_cost``, ``cheapest_route`` and ``reachable`` of such a
unit type with a random wind (now and then none, which the module refuses), so that steps fall
on every point of sail, the dear ones and the impassable one. None for a ruleset without a
``sail by`` clause. Queries carry ``"facing": true`` (answered by tests/js_queries_facing.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries as q
from tests import js_queries_facing as facing
from tests import js_queries_facing_whole as facing_whole


def sail_queries(rng: random.Random, plan: ModulePlan) -> Iterator[q.Query]:
    """Each sailing rule's moves, in every wind."""
    rules = [f for f in plan.movement.facings if f.sail]
    if not rules:
        return
    states = plan.movement.states
    for _ in range(40):
        rule = rng.choice(rules)
        spec, cells = facing._board(rng, plan, rule)
        for _ in range(3):
            kwargs: dict[str, Any] = {}
            if rng.random() < 0.7 or rule.exact_speed:
                kwargs["allowance"] = rng.choice([0, 1, 2, 3, 4, 6, 9])
            if rng.random() < 0.95:
                kwargs["wind"] = rng.randrange(rule.headings)
            if states and rng.random() < 0.7:
                kwargs["state"] = {v.id: rng.randint(v.low, v.high) for v in states}
            walk = (
                facing_whole._walk(rng, cells, rule.headings)
                if cells
                else facing._walk(rng, cells, rule.headings)
            )
            yield facing._query("route_cost", spec, [rule.mode, walk], kwargs)
            goal = walk[-1] if rng.random() < 0.5 else facing._state(rng, cells, rule.headings)
            if rng.random() < 0.5 and isinstance(goal, list) and isinstance(goal[0], list):
                goal = goal[0]  # a place, any heading
            yield facing._query("cheapest_route", spec, [rule.mode, walk[0], goal], kwargs)
            reach = {k: v for k, v in kwargs.items() if k != "allowance"}
            budget = rng.choice([0, 1, 2, 3, 4, 6])
            yield facing._query("reachable", spec, [rule.mode, walk[0], budget], reach)
