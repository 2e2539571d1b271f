"""Random moves of unit types whose steps cost by the wind's strength (``sail when``, issue 40)
for the differential test of the JavaScript target: ``route_cost``, ``cheapest_route`` and
``reachable`` with a random wind given as ``[heading, strength]`` (now and then a strength no
rule names, a bare heading, or none), so that each step costs what the strength adds or is
impassable. None for a ruleset without a ``sail when`` clause. Queries carry ``"facing": true``
(answered by tests/js_queries_facing.py, which gives Python the pair as a tuple)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries as q
from tests import js_queries_facing as facing


def strength_queries(rng: random.Random, plan: ModulePlan) -> Iterator[q.Query]:
    """Each such rule's moves (and other unit types', which ignore the strength), in every
    heading and strength of the wind."""
    rules = [f for f in plan.movement.facings if f.strengths]
    if not rules:
        return
    named = sorted({n for f in rules for n, _ in f.strengths})
    for _ in range(40):
        rule = rng.choice(rules if rng.random() < 0.8 else plan.movement.facings)
        spec, cells = facing._board(rng, plan, rule)
        for _ in range(3):
            kwargs: dict[str, Any] = {}
            pick = rng.random()
            heading = rng.randrange(rule.headings)
            if pick < 0.85:
                kwargs["wind"] = [heading, rng.choice(named)]
            elif pick < 0.9:
                kwargs["wind"] = [heading, "squall"]
            elif pick < 0.95:
                kwargs["wind"] = heading
            if rng.random() < 0.2:
                kwargs["allowance"] = rng.choice([0, 2, 4, 9])
            walk = facing._walk(rng, cells, rule.headings)
            yield from facing.route_questions(rng, spec, rule, cells, walk, kwargs)
