"""Random free moves off the grid for the differential test of the JavaScript target (issue 40,
item 3): ``free_move`` of each facing rule off the grid with legs straight, in reverse, turning
and pivoting, of lengths and angles in and out of range, after the move ended, beyond the
allowance, and now and then an unknown unit type, a leg that is no leg or a bad allowance. A
query carries ``"freefacing": true``: both sides answer (used, left, ends, reason) or an
error."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries as q

_ODD_LEGS: tuple[Any, ...] = (3, "turn", ["fly", 2], ["turn"], ["straight", "2"], ["turn", True])


def _leg(rng: random.Random) -> Any:
    pick = rng.random()
    if pick < 0.03:
        return rng.choice(_ODD_LEGS)
    if pick < 0.05:
        return rng.choice([["straight", {"$float": "nan"}], ["turn", {"$float": "inf"}]])
    kind = rng.choice(["straight", "straight", "straight", "reverse", "turn", "turn", "pivot"])
    if kind in ("turn", "pivot"):
        amount = rng.choice([15, 30, 44.5, 45, 60, 90, 91, 120, 180, 181, 0]) * rng.choice([1, -1])
    else:
        amount = rng.choice([0.5, 1, 1.5, 2, 2.25, 3, 4, 0, -1])
    return [kind, amount]


def free_move_queries(rng: random.Random, plan: ModulePlan) -> Iterator[q.Query]:
    """Each facing rule off the grid's free moves."""
    rules = plan.movement.free_facings
    for _ in range(80 if rules else 0):
        mode: Any = rng.choice(rules).mode
        if rng.random() < 0.03:
            mode = rng.choice([mode + "x", "", 3])
        legs: Any = [_leg(rng) for _ in range(rng.randint(0, 6))]
        if rng.random() < 0.02:
            legs = rng.choice(["straight", 3, None])
        allowance = q.number(rng, 0, 14) if rng.random() < 0.1 else rng.choice([3, 4, 6, 8, 12])
        yield {
            "function": "free_move",
            "args": [mode, legs, allowance],
            "kwargs": {},
            "freefacing": True,
        }
