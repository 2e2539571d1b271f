"""Random moves of unit types with facing in rules with whole-move rules (issue 40) for the
differential test of the JavaScript target: ``route_cost``, ``cheapest_route`` and
``reachable`` of a facing unit type on boards of its grid whose places and edges often carry
the features the limits, the marks and the bonuses count, with small budgets, so that the
searches go round a limit and keep or lose a bonus; with ``wind=`` and ``state=`` where the
rules have them. None for a ruleset without both facing rules and whole-move rules. Queries
carry ``"facing": true`` (answered in full by tests/js_queries_facing.py's ``ask``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from rulesdsl.codegen.plan import movement as plan_movement
from tests import js_queries as q
from tests import js_queries_facing as facing


def _board(rng: random.Random, plan: ModulePlan, rule: plan_movement.FacingRule) -> Any:
    """A board of the rule's grid, half of the edges between places carrying an edge feature
    (half of those a limit's: a walk meets one twice now and then)."""
    spec, cells = facing._board(rng, plan, rule)
    edged = [f for layer in plan.header.layers if layer.scope == "edges" for f in layer.features]
    limited = [f for w in plan.movement.whole_moves if w.most is not None for f in w.features]
    edged += [f for f in limited if f in edged] * len(edged)  # half the edges count for a limit
    edges: list[Any] = []
    for x, y in cells if edged else []:
        for dx, dy in facing.HEADINGS[rule.headings][:3]:  # one way: the board adds the other
            if (x + dx, y + dy) in cells and rng.random() < 0.5:
                edge = rng.choice(edged)
                edges += [
                    [[[x, y], [x + dx, y + dy]], [edge]],
                    [[[x + dx, y + dy], [x, y]], [edge]],
                ]
    return {**spec, "edges": edges or None}, cells


def _walk(rng: random.Random, cells: list[Any], count: int) -> list[Any]:
    """A move that stays on the board: from a pair, each action a step forward where the place
    ahead is on the board (mostly), else a turn of one heading."""
    (x, y), heading = rng.choice(cells), rng.randrange(count)
    route = [[[x, y], heading]]
    for _ in range(rng.randint(1, 8)):
        dx, dy = facing.HEADINGS[count][heading]
        if (x + dx, y + dy) in cells and rng.random() < 0.8:
            x, y = x + dx, y + dy
        else:
            heading = (heading + rng.choice([1, -1])) % count
        route.append([[x, y], heading])
    return route


def facing_whole_queries(rng: random.Random, plan: ModulePlan) -> Iterator[q.Query]:
    """Each facing rule's moves where whole-move rules count its steps."""
    rules = plan.movement.facings
    if not (rules and plan.movement.whole_moves):
        return
    moves = [k.id for k in plan.movement.moves]
    for _ in range(40):
        rule = rng.choice(rules)
        spec, cells = _board(rng, plan, rule)
        for _ in range(3):
            kwargs: dict[str, Any] = {}
            if rng.random() < 0.7 or rule.exact_speed:
                kwargs["allowance"] = rng.choice([0, 1, 2, 3, 4, 6])
            if moves and rng.random() < 0.2:
                kwargs["move"] = rng.choice(moves)
            if rule.tack is not None or rule.wear is not None:
                kwargs["wind"] = rng.randrange(rule.headings)  # a unit that tacks needs it
            if plan.movement.states and rng.random() < 0.7:
                kwargs["state"] = {v.id: rng.randint(v.low, v.high) for v in plan.movement.states}
            walk = (
                facing._walk(rng, cells, rule.headings)
                if not cells
                else _walk(rng, cells, rule.headings)
            )
            yield facing._query("route_cost", spec, [rule.mode, walk], kwargs)
            goal = walk[-1] if rng.random() < 0.5 else facing._state(rng, cells, rule.headings)
            if rng.random() < 0.5 and isinstance(goal, list) and isinstance(goal[0], list):
                goal = goal[0]  # a place, any heading
            yield facing._query("cheapest_route", spec, [rule.mode, walk[0], goal], kwargs)
            reach = {k: v for k, v in kwargs.items() if k != "allowance"}
            budget = rng.choice([0, 1, 2, 3, 4, 6])
            yield facing._query("reachable", spec, [rule.mode, walk[0], budget], reach)
