"""Random questions on changes of a state written ``capped`` (issue 40: ``dive +1 capped``, a
change that stops the state at the end of the unit's range instead of breaking the route) for
the differential test of the JavaScript target: the route questions of ``js_queries_state``
(routes, cheapest routes and reaches, plain and with facing, given a starting state and often a
kind of move), their states drawn near the ends of the ranges so that capped changes reach them.
None for a ruleset without a capped change (so the other kinds' questions, drawn from
generators of their own, do not change)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries, js_queries_state


def capped_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    if not any(c.capped for c in plan.movement.state_changes):
        return
    ends = {v.id: (v.low, v.high) for v in plan.movement.states}
    asked = [
        *js_queries_state.state_queries(rng, plan),
        *js_queries_state.facing_state_queries(rng, plan),
    ]
    for query in asked:
        state = query["kwargs"].get("state")
        if isinstance(state, dict) and rng.random() < 0.5:
            near = {k: rng.choice(ends[k]) if k in ends else v for k, v in state.items()}
            query = {**query, "kwargs": {**query["kwargs"], "state": near}}
        yield query
