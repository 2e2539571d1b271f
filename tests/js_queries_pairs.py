"""Random questions of roll cells keyed by a kind of move and a unit at once (issue 40, item 7,
``low & bomber +2``) for the differential test of the JavaScript target (tests/js_queries.py
asks them with the others): ``rolls_due`` for every unit type making every kind of move (and
none) in places with the paired features, alone, with another feature or with an unknown
name. A pair is seen in the plan as a kind of move whose values give two unit types two
different values, both unlike their values at other times (a kind's own entry gives every unit
that differs one value): the family yields only for such rolls, so the bundled rulesets'
questions are unchanged."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rulesdsl.codegen.plan import ModulePlan
from rulesdsl.codegen.plan import movement as plan_movement
from tests.js_queries import Query


def paired_features(rule: plan_movement.RollRule) -> list[str]:
    """The features whose cell gives a kind of move values that only pairs can give."""
    found = []
    for by_feature in rule.by_move.values():
        for feature, moved in by_feature.items():
            plain = rule.values.get(feature, {})
            changed = {moved.get(m) for m in {*moved, *plain} if moved.get(m) != plain.get(m)}
            if len(changed) > 1 and feature not in found:
                found.append(feature)
    return found


def pair_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    movement = plan.movement
    features = [f.id for f in plan.data.features]
    modes = [m.id for m in plan.header.modes]
    kinds: list[str | None] = [None, *(k.id for k in movement.moves)]
    for rule in movement.rolls:
        paired = paired_features(rule)
        if not paired:
            continue
        for _ in range(300):
            names = [rng.choice(paired)]
            if rng.random() < 0.5:
                names.append(rng.choice([*features, "nowhere"]))
            rng.shuffle(names)
            mode = rng.choice([*modes, "nobody"]) if rng.random() < 0.97 else 3
            kwargs = {"on": rule.when}
            if (kind := rng.choice(kinds)) is not None:
                kwargs["move"] = kind
            yield {"function": "rolls_due", "args": [mode, *names], "kwargs": kwargs, "full": True}
