"""Random questions of ``rolls_due(mode, *features, state=...)`` in a module with a roll due in
a band of a state (issue 40: ``on entering when altitude below 3``, a stall ``on any step when
speed below 2``) for the differential test of the JavaScript target: the place questions of
``js_queries_moves`` given the unit's state as it enters (often by a band's bound, now and then a
wrong one), now and then none, and at times asked ``on`` any step. None for a ruleset without
such a roll (so the other kinds' questions, drawn from generators of their own, do not change)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries, js_queries_moves
from tests.js_queries_state import _state


def _near_a_bound(rng: random.Random, plan: ModulePlan) -> Any:
    """A state (as ``_state`` draws it) whose value in a roll's band is by its bound, where a
    place's change takes it into the band or out of it."""
    state = _state(rng, plan)
    if isinstance(state, dict) and rng.random() < 0.6:
        _, index, _, bound = rng.choice(plan.movement.roll_states)
        var = plan.movement.states[index]
        state[var.id] = min(max(bound + rng.randint(-1, 2), var.low), var.high)
    return state


def roll_band_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    if not plan.movement.roll_states:
        return
    for _ in range(2):
        for query in js_queries_moves.rolls_queries(rng, plan):
            kwargs = dict(query["kwargs"])
            if rng.random() < 0.9:
                kwargs["state"] = _near_a_bound(rng, plan)
            if "any_step" in plan.movement.roll_order and rng.random() < 0.3:
                kwargs["on"] = "any_step"
            yield {**query, "kwargs": kwargs}
