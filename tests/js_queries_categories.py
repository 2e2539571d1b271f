"""Random questions of results tables whose columns are categories (issue 40, item 7: a gun
class, not a numeric bound) for the differential test of the JavaScript target
(tests/js_queries.py asks them with the others): every category by name, names that are not
one (mangled, another case, empty), values of the table's input and two strengths (refused:
the caller names a category), caller's shifts (refused), natural rolls, and odd arguments.
It yields only for tables with category columns: the bundled rulesets' questions are
unchanged."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from rulesdsl.codegen.plan import data as plan_data
from tests.js_queries import _ODD, Query, name_or_not


def _category(rng: random.Random, t: plan_data.ResultsTable) -> Any:
    names = [c.id for c in t.columns]
    pick = rng.random()
    if pick < 0.7:
        return name_or_not(rng, names, 0.15)
    if pick < 0.8:
        return rng.choice(names).upper()
    if pick < 0.9:
        return rng.choice([0, 1, 2.5, -1, [3, 1], [1, 0]])  # a value: not a category
    return rng.choice(_ODD)


def category_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    for t in plan.data.results_tables:
        if not any(c.bound == "category" for c in t.columns):
            continue
        totals = sorted(t.index)
        for _ in range(400):
            total: Any = rng.randint(totals[0] - 2, totals[-1] + 2)
            if rng.random() < 0.04:
                total = rng.choice([*_ODD, 2.5])
            kwargs: dict[str, Any] = {"column": _category(rng, t)}
            if rng.random() < 0.3:
                kwargs["natural"] = rng.choice([*t.naturals, *range(0, 8)])
            if rng.random() < 0.1:
                kwargs["shift"] = rng.choice([-1, 1, 2, 0, 0.5])
            if rng.random() < 0.02:
                del kwargs["column"]  # a results table asked without its column
            yield {"function": "roll", "args": [t.id, total], "kwargs": kwargs}
