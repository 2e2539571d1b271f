"""Random moves of unit types whose speed is by the point of sail (``speed by``, issue 40) for
the differential test of the JavaScript target: ``route_cost``, ``cheapest_route`` and
``reachable`` with a random wind (now and then none, or a wrong one) and, mostly, no allowance,
so that the speed comes from the point of sail of the heading the move starts with; now and
then a kind of move, which scales it. None for a ruleset without a ``speed by`` clause.
Queries carry ``"facing": true`` (answered by tests/js_queries_facing.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries as q
from tests import js_queries_facing as facing
from tests import js_queries_facing_whole as facing_whole


def speed_queries(rng: random.Random, plan: ModulePlan) -> Iterator[q.Query]:
    """Each such rule's moves, in every wind, mostly with the allowance left to the wind."""
    rules = [f for f in plan.movement.facings if f.speeds]
    if not rules:
        return
    kinds = [k.id for k in plan.movement.moves]
    for _ in range(40):
        rule = rng.choice(rules)
        spec, cells = facing._board(rng, plan, rule)
        for _ in range(3):
            kwargs: dict[str, Any] = {}
            if rng.random() < 0.2:
                kwargs["allowance"] = rng.choice([0, 2, 4, 9])
            if rng.random() < 0.9:
                kwargs["wind"] = rng.randrange(rule.headings) if rng.random() < 0.95 else 9
            if kinds and rng.random() < 0.3:
                kwargs["move"] = rng.choice(kinds)
            walk = (
                facing_whole._walk(rng, cells, rule.headings)
                if cells
                else facing._walk(rng, cells, rule.headings)
            )
            yield from facing.route_questions(rng, spec, rule, cells, walk, kwargs)
