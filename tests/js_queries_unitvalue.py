"""Random questions of an outcome's effect keyed by unit type (issue 40, item 7: "a hit does 2
damage, 3 to infantry") for the differential test of the JavaScript target (tests/js_queries.py
asks them with the others): ``effect(table, outcome, name, mode)`` with the names drawn among
those the module knows, now and then an unknown or odd one (a known name inside a list
among them). It yields only for modules whose
rules key an effect by unit type: the bundled rulesets' questions are unchanged."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rulesdsl.codegen.plan import ModulePlan
from tests.js_queries import _ODD, Query, name_or_not


def unit_effect_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    tables = plan.data.unit_effects
    if not tables:
        return
    modes = [m.id for m in plan.header.modes]
    for _ in range(300):
        table = name_or_not(rng, list(tables), 0.05)
        outcomes = tables.get(table, {}) if isinstance(table, str) else {}
        outcome = name_or_not(rng, list(outcomes) or ["x"], 0.05)
        effects = outcomes.get(outcome, {}) if isinstance(outcome, str) else {}
        name = name_or_not(rng, list(effects) or ["x"], 0.05)
        mode = name_or_not(rng, modes, 0.05)
        args = [table, outcome, name, mode]
        if rng.random() < 0.03:
            args[rng.randrange(4)] = rng.choice(_ODD)
        if rng.random() < 0.08:  # a known name in a list: JavaScript would read it as the name
            at = rng.randrange(4)
            args[at] = [args[at]]
        yield {"function": "effect", "args": args, "kwargs": {}}
