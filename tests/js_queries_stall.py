"""Random questions on rolls due on any step in a band of a state (issue 40, a stall roll
``on any step when speed below 2``) for the differential test of the JavaScript target: the
route questions of ``js_queries_state`` (routes, cheapest routes and reaches, plain and with
facing, given a starting state and often a kind of move), now and then without a state (the
roll is then due at every step). None for a ruleset without such a roll (so the other kinds'
questions, drawn from generators of their own, do not change)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries, js_queries_state


def stall_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    if "any_step" not in plan.movement.roll_order:
        return
    yield from _asked(rng, plan)


def first_step_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    """The same questions for a roll due ``on first step`` (once a move); None without one."""
    if "first_step" not in plan.movement.roll_order:
        return
    yield from _asked(rng, plan)


def _asked(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    asked = [
        *js_queries_state.state_queries(rng, plan),
        *js_queries_state.facing_state_queries(rng, plan),
    ]
    for query in asked:
        if rng.random() < 0.15:
            kwargs = {k: v for k, v in query["kwargs"].items() if k != "state"}
            query = {**query, "kwargs": kwargs}
        yield query
