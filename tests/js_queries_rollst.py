"""Random questions of ``rolls_due(mode, *features, state=...)`` in a module with a roll due in
a band of a state (issue 40: ``on entering when altitude below 3``, a stall ``on any step when
speed below 2``) for the differential test of the JavaScript target: the place questions of
``js_queries_moves`` given the unit's state as it enters (across the bands' bounds, now and then
a wrong one), now and then none, and at times asked ``on`` any step. None for a ruleset without
such a roll (so the other kinds' questions, drawn from generators of their own, do not change)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries, js_queries_moves
from tests.js_queries_state import _state


def roll_band_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    if not plan.movement.roll_states:
        return
    for query in js_queries_moves.rolls_queries(rng, plan):
        kwargs = dict(query["kwargs"])
        if rng.random() < 0.9:
            kwargs["state"] = _state(rng, plan)
        if "any_step" in plan.movement.roll_order and rng.random() < 0.3:
            kwargs["on"] = "any_step"
        yield {**query, "kwargs": kwargs}
