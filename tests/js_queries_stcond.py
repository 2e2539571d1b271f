"""Random questions on conditions that read a unit's state (issue 40) for the differential test
of the JavaScript target: ``modifier(name, *items, state=...)`` of a modifier with values in a
band of a state (``when altitude above 6 | +1``), and ``line_of_sight(name, *places,
state=...)`` of a sight rule with a band (``when altitude below 5``), with states across the
bands' bounds, now and then a wrong state or none. None for a ruleset with neither (so the other
kinds' questions, drawn from generators of their own, do not change)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries, js_queries_sight
from tests.js_queries_state import _state


def band_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    banded = [m for m in plan.data.modifiers if m.bands]
    for m in banded:
        items = [item for item, _ in m.entries]
        for _ in range(150):
            chosen = rng.sample(items, rng.randint(0, min(2, len(items))))
            kwargs: dict[str, Any] = {}
            if rng.random() < 0.93:
                kwargs["state"] = _state(rng, plan)
            yield {"function": "modifier", "args": [m.id, *chosen], "kwargs": kwargs}

    banded_sights = set(plan.sight.state_bands)
    for query in js_queries_sight.sight_queries(rng, plan) if banded_sights else ():
        name = query["args"][0]  # now and then not a name at all (a dict, a number)
        if isinstance(name, str) and name in banded_sights and rng.random() < 0.93:
            query["kwargs"]["state"] = _state(rng, plan)
        yield query
