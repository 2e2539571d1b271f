"""Random questions of rules that feed rules (issue 40, item 7) for the differential test of
the JavaScript target (tests/js_queries.py asks them with the others): a results table whose
column a decision's outcome names (`by gun_class`), asked with the decision's answer for the
column (``"column_of": [decision, inputs]``: both modules call the decision, then ``roll``),
the decision's inputs drawn as decision questions draw them (odd ones included), with
natural rolls and odd totals. It yields only for tables a decision picks: the bundled
rulesets' questions are unchanged. And a decision that reads a modifier's total (``(mods
to_hit, ...)``): its items drawn among the modifier's (repeats, unknown names and values that
are no list included), for decisions that have such an input only."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from rulesdsl.codegen.plan import code as plan_code
from tests.js_queries import _ODD, Query, _argument, number


def _input(rng: random.Random, p: plan_code.Param, plan: ModulePlan) -> Any:
    """A decision input as decision questions draw it, numbers up to 200 (a calibre in mm)."""
    if isinstance(p, plan_code.NumberParam) and rng.random() < 0.9:
        return number(rng, -5, 200)
    return _argument(rng, p, plan)


def column_pick_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    decisions = {d.name: d for d in plan.code.decisions}
    for t in plan.data.results_tables:
        if t.picked_by is None:
            continue
        decision = decisions[t.picked_by]
        totals = sorted(t.index)
        for _ in range(300):
            total: Any = rng.randint(totals[0] - 2, totals[-1] + 2)
            if rng.random() < 0.04:
                total = rng.choice([*_ODD, 2.5])
            inputs = {p.name: _input(rng, p, plan) for p in decision.params}
            kwargs: dict[str, Any] = {}
            if rng.random() < 0.3:
                kwargs["natural"] = rng.choice([*t.naturals, *range(0, 8)])
            picked = [decision.name, inputs]
            yield {"function": "roll", "args": [t.id, total], "kwargs": kwargs, "column_of": picked}


def modifier_total_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    for d in plan.code.decisions:
        if not any(isinstance(p, plan_code.ModifierParam) for p in d.params):
            continue
        for _ in range(300):
            kwargs = {p.name: _input(rng, p, plan) for p in d.params}
            yield {"function": d.name, "args": [], "kwargs": kwargs}
