"""Random questions on turn limits, turn costs by speed and tacking and wearing (issue 40, item
4: ``turn at most 1 hexside per hex``, ``turn 2 MP per hexside at speed 4 or less``, ``tack +2
MP``, with a ``wind`` argument) for the differential test of
the JavaScript target: ``route_cost`` of walks that turn several headings in one place (one at
a time or in one action) before and between steps, ``cheapest_route`` to a heading that the
limit makes the search go round for, and ``reachable``, at the speeds the rows turn on. Asked
and answered as the facing family's questions (``"facing": true``). None for a ruleset without
a turn limit, costs by speed or turns by the wind (so the other kinds' questions, drawn from
generators of their own, do not change)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries as q
from tests import js_queries_facing as facing


def _turning_walk(rng: random.Random, cells: list[Any], count: int) -> list[Any]:
    """From a pair: runs of turns in place (1 to 3 headings, now and then in one action)
    between steps forward."""
    x, y = rng.choice(cells)
    heading = rng.randrange(count)
    route: list[Any] = [[[x, y], heading]]
    for _ in range(rng.randint(1, 4)):
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            heading = (heading + rng.choice([1, -1, 2, 1])) % count
            if route[-1] != [[x, y], heading]:
                route.append([[x, y], heading])
        dx, dy = facing.HEADINGS[count][heading]
        if (x + dx, y + dy) in cells:
            x, y = x + dx, y + dy
            route.append([[x, y], heading])
    return route


def turning_queries(rng: random.Random, plan: ModulePlan) -> Iterator[q.Query]:
    """Routes, cheapest routes and reaches of the unit types with a turn limit or turn costs
    by speed."""
    rules = [
        r
        for r in plan.movement.facings
        if r.turn_limit is not None or r.turn_costs or r.tack is not None or r.wear is not None
    ]
    windy = any(r.tack is not None or r.wear is not None for r in plan.movement.facings)
    for _ in range(40 if rules else 0):
        rule = rng.choice(rules)
        spec, cells = facing._board(rng, plan, rule)
        if not cells:
            continue
        kwargs: dict[str, Any] = {}
        if rng.random() < 0.8:
            speeds = [up for up, _ in rule.turn_costs] + [1, 2, 3]
            kwargs["allowance"] = rng.choice([*speeds, q.number(rng, 0, 12)])
        if windy:  # the heading the wind blows from, now and then missing or wrong
            kwargs["wind"] = (
                rng.randrange(rule.headings)
                if rng.random() < 0.9
                else rng.choice([None, rule.headings, -1, True, 2.5, "n"])
            )
        walk = _turning_walk(rng, cells, rule.headings)
        yield facing._query("route_cost", spec, [rule.mode, walk], kwargs)
        start = walk[0]
        goal = [start[0], (start[1] + rng.randint(2, rule.headings - 2)) % rule.headings]
        yield facing._query("cheapest_route", spec, [rule.mode, start, goal], kwargs)
        yield facing._query("reachable", spec, [rule.mode, start, rng.randint(0, 6)], kwargs)
