"""Floats are added one at a time, left to right, by the generated Python module on every
interpreter, as the JavaScript module adds them: Python 3.12's builtin ``sum`` of floats is
compensated (Neumaier) and 3.11's is not, so a module calling it would answer 0.6 on one and
0.6000000000000001 on the other for 0.1 + 0.2 + 0.3."""

from __future__ import annotations

import builtins
import math
from collections.abc import Iterable
from pathlib import Path

import pytest

from rulesdsl.codegen import plan as module_plan
from rulesdsl.compiler import Compiler
from tests import js_queries
from tests.conftest import compile_snippet, import_rendered
from tests.test_js_target import node, write_package

__all__ = ["node"]  # the fixture, imported for the test below

RULESET = """ruleset tenths "Tenths"
version 1.0.0
units distance in, cost MP
mode walker "Walker"
modifier aim "Aim" combine sum clamp -5 to +5 {
  steady "Steady" | +0.1
  braced "Braced" | +0.2
  scoped "Scoped" | +0.3
}
layer ground "Ground" {
  clear "Clear" | 1
}
"""

LEFT_TO_RIGHT = (0.1 + 0.2) + 0.3  # 0.6000000000000001


def compensated(values: Iterable[float], start: float = 0) -> float:
    """Python 3.12's ``sum`` of floats, as far as these tests tell (an exact sum)."""
    return math.fsum([start, *values])


def test_a_modifier_adds_its_values_left_to_right_whatever_sum_the_interpreter_has(
    compiler: Compiler, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, node: str
) -> None:
    compiled = compile_snippet(compiler, RULESET)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    monkeypatch.setattr(builtins, "sum", compensated)  # the module imported as on 3.12
    python = import_rendered(compiled.ruleset, tmp_path, "tenths_sum")
    monkeypatch.undo()
    assert python.modifier("aim", "steady", "braced", "scoped") == LEFT_TO_RIGHT != 0.6
    module = write_package(module_plan.build(compiled.ruleset), tmp_path / "js")
    query: js_queries.Query = {
        "function": "modifier",
        "args": ["aim", "steady", "braced", "scoped"],
        "kwargs": {},
    }
    assert js_queries.ask_node(module, [query]) == [{"answer": [{"number": LEFT_TO_RIGHT}]}]
