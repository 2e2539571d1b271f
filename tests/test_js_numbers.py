"""Numbers the JavaScript module prints or keys by as Python does, at the one place floats
differ: an exact tie in rounding (issue 37, "no answer that differs by floating-point noise").
Python rounds a tie to even (``format(100000.5, "g")`` is ``100000``, ``round(2 ** -10, 9)``
is ``0.000976562``); JavaScript's ``toExponential`` and ``toFixed`` round it up."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests import js_queries, js_queries_facing
from tests.conftest import load_generated
from tests.test_js_target import node, plan_of, write_package

__all__ = ["node"]  # the fixture, imported for the test below

TIES = (100000.5, 1000002.5, 123456.5, 2**-10, 3 * 2**-11, 0.5 + 2**-10)
"""Speeds at a rounding tie: six significant digits (a message's ``{speed:g}``) and nine
decimals (the exact-speed search's ``round(total, 9)`` keys)."""


def test_facing_routes_print_and_key_speeds_at_a_tie_as_python_does(
    node: str, tmp_path: Path
) -> None:
    """void_patrol's facing routes asked with speeds at a tie: the same reasons (which print
    the speed) and the same routes (found by the exact-speed search) from both modules."""
    plan = plan_of("void_patrol")
    module = write_package(plan, tmp_path)
    rng = random.Random(41)
    asked: list[Any] = []
    for query in js_queries_facing.facing_queries(rng, plan):
        if "allowance" in query["kwargs"]:
            asked += [{**query, "kwargs": {**query["kwargs"], "allowance": t}} for t in TIES]
    assert len(asked) >= 300
    python = load_generated("void_patrol")
    expected = js_queries.ask_python_all(python, asked)
    got = js_queries.ask_node(module, asked)
    wrong = [(q, e, g) for q, e, g in zip(asked, expected, got, strict=True) if e != g]
    assert wrong[:3] == []
