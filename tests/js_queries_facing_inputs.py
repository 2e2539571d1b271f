"""Random routes of unit types with facing given a step's inputs and dice outcomes in places
(issue 40) for the differential test of the JavaScript target: ``route_cost``,
``cheapest_route`` and ``reachable`` of a facing unit type asked with the step inputs of the
costs paid once (valid, missing, misspelled, of a wrong type) and ``outcomes`` (valid, off the
board, unknown, not a mapping), on boards of the rule's grid with edges now and then, with
``wind=`` and ``state=`` where the rules have them. None for
a ruleset without facing rules, or with neither step inputs nor outcomes that feed the cost.
Queries carry ``"facing": true`` (answered in full by tests/js_queries_facing.py's ``ask``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from rulesdsl.codegen.plan import movement as plan_movement
from tests import js_queries as q
from tests import js_queries_facing as facing
from tests import js_queries_routes_inputs as inputs


def _board(rng: random.Random, plan: ModulePlan, rule: plan_movement.FacingRule) -> Any:
    """A board of the rule's grid, each place's neighbour along a heading behind an edge
    feature now and then."""
    spec, cells = facing._board(rng, plan, rule)
    edged = [f for layer in plan.header.layers if layer.scope == "edges" for f in layer.features]
    edges: list[Any] = []
    for x, y in cells if edged else []:
        for dx, dy in facing.HEADINGS[rule.headings]:
            if (x + dx, y + dy) in cells and rng.random() < 0.2:
                edges.append([[[x, y], [x + dx, y + dy]], [rng.choice(edged)]])
    return {**spec, "edges": edges or None}, cells


def facing_input_queries(rng: random.Random, plan: ModulePlan) -> Iterator[q.Query]:
    """Each facing rule's routes asked with step inputs and dice outcomes."""
    rules = plan.movement.facings
    if not (rules and (plan.movement.cost_inputs or plan.sight.fed_outcomes)):
        return
    for _ in range(40):
        rule = rng.choice(rules)
        spec, cells = _board(rng, plan, rule)
        for _ in range(3):
            kwargs = inputs._options(rng, plan, cells)
            if (rule.tack is not None or rule.wear is not None) and rng.random() < 0.95:
                kwargs["wind"] = rng.randrange(rule.headings)  # a unit that tacks needs it
            if plan.movement.states and rng.random() < 0.7:
                kwargs["state"] = {v.id: rng.randint(v.low, v.high) for v in plan.movement.states}
            walk = facing._walk(rng, cells, rule.headings)
            yield facing._query("route_cost", spec, [rule.mode, walk], kwargs)
            goal = walk[-1] if rng.random() < 0.6 else facing._state(rng, cells, rule.headings)
            if rng.random() < 0.5 and isinstance(goal, list) and isinstance(goal[0], list):
                goal = goal[0]  # a place, any heading
            yield facing._query("cheapest_route", spec, [rule.mode, walk[0], goal], kwargs)
            budget = q.number(rng, 0, 8)
            yield facing._query("reachable", spec, [rule.mode, walk[0], budget], kwargs)
