"""Random questions of a modifier's factor read along a line of sight (issue 40, item 7: "+1
to hit for each hex of light woods in between, +2 for smoke; no line of sight at 3") for the
differential test of the JavaScript target (tests/js_queries.py asks them with the others):
``modifier`` asked with the factor's line by its name, the places drawn among the features
the sight rule values (and others, a dice outcome fed to the rule among them), the factor
named among the items or not, and odd lines (a string, a number, unknown names, a line left
out while its factor is named). It yields only for modifiers that have such a factor: the
bundled rulesets' questions are unchanged."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests.js_queries import _ODD, Query, name_or_not


def _line(rng: random.Random, names: list[str]) -> Any:
    """A line of 1 to 6 places, each of 0 to 2 feature names; now and then an odd one."""
    if rng.random() < 0.05:
        return rng.choice([*_ODD, "clear", 3, [["clear"], "clear"], [[1]]])
    places = [
        [name_or_not(rng, names, 0.02) for _ in range(rng.choice([0, 1, 1, 1, 2]))]
        for _ in range(rng.randint(1, 6))
    ]
    return places


def sight_factor_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    sights = {r.id: r for r in plan.sight.rules}
    features = [f.id for f in plan.data.features]
    for m in plan.data.modifiers:
        if not m.sights:
            continue
        items = [item for item, _ in m.entries]
        for _ in range(300):
            chosen = [name_or_not(rng, items, 0.05) for _ in range(rng.choice([0, 1, 1, 2]))]
            kwargs: dict[str, Any] = {}
            for factor, rule in m.sights.items():
                valued = list(sights[rule].by_feature)
                names = valued + features[:3]
                if rng.random() < 0.9:
                    kwargs[factor] = _line(rng, names)
                if rng.random() < 0.3:
                    chosen.append(factor)  # named among the items too, its line given or not
            rng.shuffle(chosen)
            yield {"function": "modifier", "args": [m.id, *chosen], "kwargs": kwargs}
