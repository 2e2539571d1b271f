"""Random questions of decisions that give a number (issue 40, item 7) for the differential
test of the JavaScript target (tests/js_queries.py asks them with the others): small whole
numbers and halves, where rows change over and where `rounded up|down` and `max(..., 0)`
bite, huge numbers (2**53, 1e300), inputs with a default left out,
and invalid arguments of each kind. (An input without a default left out is a TypeError in
Python and an ArgumentTypeError in JavaScript, for every decision: not asked here.)"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests.js_queries import _ODD, Query, _argument


def _small(rng: random.Random) -> Any:
    """A number near the rows' bounds: whole, a half, negative now and then, or odd."""
    pick = rng.random()
    if pick < 0.04:
        return rng.choice([*_ODD, "3", 2**53, -(2**53), 1e300])
    if pick < 0.3:
        return rng.randint(-4, 24) + 0.5
    return rng.randint(-2, 12)


def number_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    for d in plan.code.decisions:
        if not d.gives_number:
            continue
        for _ in range(300):
            kwargs = {
                p.name: _small(rng) if hasattr(p, "minimum") else _argument(rng, p, plan)
                for p in d.params
                if p.default is None or rng.random() < 0.7
            }
            yield {"function": d.name, "args": [], "kwargs": kwargs}
