"""Random questions on changes of a state capped at a bound (issue 40: ``dive +1 capped at 5``,
a change that stops the state at the bound, or leaves a state already past it where it was)
for the differential test of the JavaScript target: the route questions of ``js_queries_state``
(routes, cheapest routes and reaches, plain and with facing), their states drawn at, around and
past the bounds and at the ends of the ranges. None for a ruleset without such a change."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries, js_queries_state


def capped_at_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    states = plan.movement.states
    near: dict[str, list[int]] = {v.id: [v.low, v.high] for v in states}
    for change in plan.movement.state_changes:
        for _, bounds in change.bounds:
            for v, bound in zip(states, bounds, strict=True):
                if bound is not None:
                    near[v.id] += [b for b in (bound - 1, bound, bound + 1) if v.low <= b <= v.high]
    if not any(len(n) > 2 for n in near.values()):
        return
    asked = [
        *js_queries_state.state_queries(rng, plan),
        *js_queries_state.facing_state_queries(rng, plan),
    ]
    for query in asked:
        state = query["kwargs"].get("state")
        if isinstance(state, dict) and rng.random() < 0.7:
            drawn = {k: rng.choice(near[k]) if k in near else v for k, v in state.items()}
            query = {**query, "kwargs": {**query["kwargs"], "state": drawn}}
        yield query
