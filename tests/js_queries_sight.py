"""Random questions of line of sight and of results tables for the differential test of the
JavaScript target (issue 37; tests/js_queries.py asks them with the others): random lines of
places (one feature per one-per-place layer, now and then two, a misspelt feature, a dice
outcome or a whole-map condition among them), lengths crossed, viewers' unit types and
conditions; rolls on results tables by column name, by the table's input or by two strengths,
with naturals, shifts, faces rolled and totals a modifier reaches; and invalid arguments of
each kind.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from rulesdsl.codegen.plan import data as plan_data
from tests.js_queries import _ODD, Query, _faces, mangled, name_or_not, number


def _place(rng: random.Random, plan: ModulePlan) -> Any:
    """A place as a caller lists its features: mostly a valid one."""
    data = plan.data
    pick = rng.random()
    if pick < 0.03:
        return rng.choice(["clear", None, 3, {"a": 1}])  # not a list of names
    by_layer: dict[str, list[str]] = {}
    for f in data.features:
        by_layer.setdefault(f.layer, []).append(f.id)
    features: list[Any] = []
    for layer, ids in by_layer.items():
        if rng.random() < (0.7 if layer in data.one_per_place else 0.15):
            features.append(rng.choice(ids))
    extras = [*plan.sight.fed_outcomes, *data.whole_map]
    if extras and rng.random() < 0.2:
        features.append(rng.choice(extras))
    if features and pick < 0.08:
        features.append(rng.choice(features))  # listed twice, or two of one layer
    if features and pick > 0.95:
        features[0] = mangled(rng, features[0])
    rng.shuffle(features)
    return features


def _lengths(rng: random.Random, count: int) -> Any:
    pick = rng.random()
    if pick < 0.05:
        return rng.choice([*_ODD, "3", 2])
    lengths = [number(rng, 0, 8) if rng.random() < 0.1 else rng.randint(0, 6) for _ in range(count)]
    if pick < 0.1:
        return lengths[:-1] or [1, 2]
    return lengths


def sight_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    modes = [m.id for m in plan.header.modes]
    conditions = [*plan.data.whole_map, *plan.sight.fed_outcomes]
    for rule in plan.sight.rules:
        for _ in range(250):
            places = [_place(rng, plan) for _ in range(rng.randint(1, 6))]
            kwargs: dict[str, Any] = {}
            if (rule.crossed is not None and rng.random() < 0.85) or rng.random() < 0.05:
                kwargs["crossed"] = _lengths(rng, len(places))
            if modes and rng.random() < 0.3:
                kwargs["mode"] = name_or_not(rng, modes, 0.1)
            if rng.random() < 0.25:
                pool = [*conditions, *(f.id for f in plan.data.features[:3])]
                kwargs["conditions"] = [
                    name_or_not(rng, pool, 0.1) for _ in range(rng.randint(0, 2))
                ]
                if rng.random() < 0.05:
                    kwargs["conditions"] = rng.choice([*_ODD, "fog", [[1]]])
            name = name_or_not(rng, [rule.id], 0.05)
            yield {"function": "line_of_sight", "args": [name, *places], "kwargs": kwargs}


def _column(rng: random.Random, t: plan_data.ResultsTable) -> Any:
    pick = rng.random()
    values = [c.value for c in t.columns]
    if pick < 0.4:
        return name_or_not(rng, [c.id for c in t.columns], 0.1)
    if pick < 0.65:
        low, high = min(values), max(values)
        value = round(rng.uniform(low - 1, high + 1), rng.choice([0, 1, 2]))
        return int(value) if value.is_integer() else value  # as JSON has it: 1, not 1.0
    if pick < 0.95:
        return [rng.randint(0, 12), rng.randint(0, 6)]  # two strengths, now and then 0
    return rng.choice([*_ODD, [1, 2, 3], [1, "a"], ["a", 1], [1, -2]])


def results_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    tables = plan.data.results_tables
    others = [t.id for t in plan.data.dice_tables]
    for t in tables:
        totals = sorted(t.index)
        for _ in range(400):
            total: Any = rng.randint(totals[0] - 2, totals[-1] + 2)
            if rng.random() < 0.06:
                total = rng.choice([*_ODD, 2.5, "3"])
            kwargs: dict[str, Any] = {}
            if rng.random() < 0.95:
                kwargs["column"] = _column(rng, t)
            if rng.random() < 0.3:
                naturals = [*t.naturals, *range(1, 7)]
                kwargs["natural"] = rng.choice(naturals)
                if rng.random() < 0.08:
                    kwargs["natural"] = rng.choice([*_ODD, 2.5])
            if rng.random() < 0.25:
                kwargs["shift"] = rng.choice([-2, -1, 1, 2, 5, 0, 0.5, True, *_ODD])
            if rng.random() < 0.2:
                kwargs["dice"] = _faces(rng, t)
            table = name_or_not(rng, [t.id], 0.05)
            if others and rng.random() < 0.03:
                table = rng.choice(others)  # a plain dice table asked for a column
            yield {"function": "roll", "args": [table, total], "kwargs": kwargs}


def sight_and_results_queries(rng: random.Random, plan: ModulePlan) -> list[Query]:
    """One round of line-of-sight and results-table questions for ``plan``'s module."""
    return [*sight_queries(rng, plan), *results_queries(rng, plan)]
