"""Random free moves off the grid in rulesets with whole-move rules, for the differential test
of the JavaScript target (issue 40): the legs of ``js_queries_freefacing`` with, now and then,
the features a leg crosses or enters (the whole-move rules' own, others, none, an unknown name,
some on a turn), so that the answers meet a limit, a ``crosses`` rule and a bonus. A query
carries ``"freefacing": true``: both sides answer (used, left, ends, reason, marks) or an
error."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries as q
from tests.js_queries_freefacing import _leg


def _named(rng: random.Random, leg: Any, features: list[str]) -> Any:
    """``leg`` with a third part now and then: a few of ``features``, or something odd."""
    pick = rng.random()
    if not isinstance(leg, list) or len(leg) != 2 or pick < 0.2:
        return leg
    if pick < 0.23:
        return [*leg, rng.choice([["nowhere"], "river", [3], None])]
    if leg[0] in ("turn", "pivot") and pick < 0.9:
        return [*leg, []] if pick < 0.3 else leg
    return [*leg, rng.sample(features, rng.randint(0, 2))]


def free_whole_queries(rng: random.Random, plan: ModulePlan) -> Iterator[q.Query]:
    """Each facing rule off the grid's free moves, legs naming features; nothing for rules
    without both facing off the grid and whole-move rules."""
    rules = plan.movement.free_facings
    whole = plan.movement.whole_moves
    features = sorted({f for w in whole for f in w.features} | {"clear"})
    for _ in range(120 if rules and whole else 0):
        legs = [_named(rng, _leg(rng), features) for _ in range(rng.randint(0, 6))]
        yield {
            "function": "free_move",
            "args": [rng.choice(rules).mode, legs, rng.choice([4, 6, 8, 12])],
            "kwargs": {},
            "freefacing": True,
        }
