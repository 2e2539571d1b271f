"""Random routes of unit types with facing for the differential test of the JavaScript target
(issue 37): ``route_cost`` of (place, heading) pairs walked forward, backward, sideways and
turning, ``cheapest_route`` to a place or a pair, and ``reachable``, on boards of each grid a
facing rule may move on (and of the wrong grid now and then), with valid and invalid speeds,
headings, pairs and kinds of move. A query carries its board as tests/js_queries_routes.py
writes one, and ``"facing": true``: both sides answer it in full (every field of a
FacingRoute, FacingStep, RollDue and Reach)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from rulesdsl.codegen.plan import movement as plan_movement
from tests import js_queries as q
from tests import js_queries_routes as routes

HEADINGS = {
    6: ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)),
    4: ((1, 0), (0, -1), (-1, 0), (0, 1)),
    8: ((1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1)),
}


def _board(rng: random.Random, plan: ModulePlan, rule: plan_movement.FacingRule) -> Any:
    """A board of the rule's grid (or, now and then, of another): its spec and places."""
    grids = [g.id for g in plan.movement.grids] + ["hex", "square"]
    grid = rule.grid if rng.random() < 0.85 else rng.choice(grids)
    width, height = rng.randint(2, 5), rng.randint(2, 4)
    cells = [(x, y) for x in range(width) for y in range(height) if rng.random() > 0.1]
    places = {cell: routes._features(rng, plan) for cell in cells}
    spec = {
        "places": [[list(p), f] for p, f in places.items()],
        "edges": None,
        "grid": grid,
        "neighbours": None,
    }
    return spec, cells


def _state(rng: random.Random, cells: list[Any], count: int) -> Any:
    pick = rng.random()
    if pick < 0.04 or not cells:
        return rng.choice([[0, 0], [[0, 0], count], [[0, 0], True], [[0, 0], 2.5], "a", None])
    if pick < 0.06:
        return [[9, 9], 0]
    return [list(rng.choice(cells)), rng.randrange(count)]


def _walk(rng: random.Random, cells: list[Any], count: int, turns: int = 0) -> list[Any]:
    """A move: from a pair, ``turns`` turns in place first (pivots, where the turn mode asks
    for places straight), then each action a step (forward mostly) or a turn of one heading."""
    state = _state(rng, cells, count)
    route = [state]
    if not (isinstance(state, list) and isinstance(state[0], list) and state[1] in range(count)):
        return route
    (x, y), heading = state
    for _ in range(turns):
        heading = (heading + rng.choice([1, -1])) % count
        route.append([[x, y], heading])
    straight = 0
    for _ in range(rng.randint(0, 7)):
        pick = rng.random()
        if pick < (0.4 if straight >= 2 else 0.08):
            heading = (heading + rng.choice([1, -1, 1, 2])) % count
            straight = 0
        else:
            side = 0 if pick < 0.85 else rng.choice([count // 2, 1, count - 1])
            dx, dy = HEADINGS[count][(heading + side) % count]
            if (x + dx, y + dy) not in cells and rng.random() < 0.97:
                continue
            straight += 1
            x, y = x + dx, y + dy
            if rng.random() < 0.03:
                heading = (heading + 1) % count  # turning while it moves
        route.append([[x, y], heading])
    if rng.random() < 0.03:
        route.append(route[-1])  # the pair again
    return route


def _options(rng: random.Random, plan: ModulePlan) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    if rng.random() < 0.6:
        kwargs["allowance"] = q.number(rng, 0, 9)
    moves = [k.id for k in plan.movement.moves]
    if moves and rng.random() < 0.3:
        kwargs["move"] = q.name_or_not(rng, moves, 0.1)
    return kwargs


def facing_queries(rng: random.Random, plan: ModulePlan) -> Iterator[q.Query]:
    """Each facing rule's routes."""
    rules = plan.movement.facings
    for _ in range(60 if rules else 0):
        rule = rng.choice(rules)
        count = rule.headings
        spec, cells = _board(rng, plan, rule)
        if rng.random() < 0.02:
            spec = {"raw": rng.choice([None, 3, "board"])}
        for _ in range(3):
            kwargs = _options(rng, plan)
            if rng.random() < 0.2:
                kwargs["entered"] = [list(rng.choice(cells))] if cells else [3]
            pivot = rule.manoeuvres.get("pivot")
            turns = 0
            if pivot is not None and rng.random() < 0.3:  # pivots at a speed that allows them
                turns = rng.choice([1, 2, 2])
                kwargs["allowance"] = rng.choice([1, 2, pivot.up_to_speed or 3])
            walk = _walk(rng, cells, count, turns)
            mode = rule.mode
            yield _query("route_cost", spec, [mode, walk], kwargs)
            goal = walk[-1] if rng.random() < 0.6 else _state(rng, cells, count)
            if rng.random() < 0.5 and isinstance(goal, list) and isinstance(goal[0], list):
                goal = goal[0]  # a place, any heading
            start = walk[0]
            yield _query("cheapest_route", spec, [mode, start, goal], kwargs)
            kwargs.pop("entered", None)
            yield _query("reachable", spec, [mode, start, q.number(rng, 0, 8)], kwargs)


def route_questions(
    rng: random.Random,
    spec: Any,
    rule: plan_movement.FacingRule,
    cells: list[Any],
    walk: list[Any],
    kwargs: dict[str, Any],
) -> Iterator[q.Query]:
    """The three route questions of one draw of a rule's inputs: ``route_cost`` of ``walk``,
    ``cheapest_route`` from its start to a random state, ``reachable`` from it within a random
    budget (without the allowance, which ``reachable`` does not take)."""
    yield _query("route_cost", spec, [rule.mode, walk], kwargs)
    goal = _state(rng, cells, rule.headings)
    yield _query("cheapest_route", spec, [rule.mode, walk[0], goal], kwargs)
    reach = {k: v for k, v in kwargs.items() if k != "allowance"}
    budget = rng.choice([1, 3, 6, 12])
    yield _query("reachable", spec, [rule.mode, walk[0], budget], reach)


def _query(function: str, spec: Any, args: list[Any], kwargs: dict[str, Any]) -> q.Query:
    query = {"function": function, "board": spec, "args": args, "kwargs": dict(kwargs)}
    return {**query, "facing": True}


# ---- asking the Python module ------------------------------------------------------------------


def ask(module: ModuleType, query: q.Query) -> list[dict[str, Any]]:
    """The Python module's answer to a facing route question, in full."""
    made = routes.board(module, query["board"])
    fn, args, kwargs = query["function"], query["args"], dict(query["kwargs"])
    if "entered" in kwargs:
        kwargs["entered"] = routes._places_in(kwargs["entered"])  # not a list: as it is
    if isinstance(kwargs.get("outcomes"), dict) and "pairs" in kwargs["outcomes"]:
        kwargs["outcomes"] = {routes.tupled(p): n for p, n in kwargs["outcomes"]["pairs"]}
    if fn == "route_cost":
        route = args[1]
        route = [routes.tupled(s) for s in route] if isinstance(route, list) else route
        answer = module.route_cost(made, args[0], route, **kwargs)
    elif fn == "cheapest_route":
        start, goal = routes.tupled(args[1]), routes.tupled(args[2])
        answer = module.cheapest_route(made, args[0], start, goal, **kwargs)
    else:
        answer = module.reachable(made, args[0], routes.tupled(args[1]), args[2], **kwargs)
    if answer is None:
        return [{"none": None}]
    if isinstance(answer, module.Reach):
        state = [answer.move, answer.budget, _finite(answer.speed), answer.turn_mode]
        return [{"reach": [list(answer.items()), state]}]
    cost = routes._cost
    steps = [[*s[:6], cost(module, s.cost), s.straight] for s in answer.steps]
    rolls = [list(r) for r in answer.rolls]
    fields = [answer.legal, answer.reason, answer.heading, _finite(answer.speed), answer.turn_mode]
    state = [answer.state] if hasattr(answer, "state") else []  # state lines only
    drift = [_drift(answer)] if hasattr(answer, "drift") else []  # a drift line only
    drift += [list(answer.marks)] if hasattr(answer, "marks") else []  # whole-move rules only
    return [
        {"facing": [cost(module, answer.total), steps, *fields, answer.move, rolls, *state, *drift]}
    ]


def _drift(answer: Any) -> Any:
    """A route's drift as JSON gives it back: a list, or None."""
    return None if answer.drift is None else list(answer.drift)


def _finite(value: Any) -> Any:
    """A number as JSON holds it both sides: infinity as "inf"."""
    return "inf" if value == math.inf else value
