"""A modifier with both a value in a band of a state (``when altitude above 6 | +1``) and a
factor read along a line of sight (``sight line : haze``), issue 40: the two were built on
separate branches, and both change ``modifier()``'s arguments (``state=`` and the line by the
factor's name) in the Python template, runtime.js (lines marked for each, nested) and the
reference semantics. Asked together, the module, the semantics and the JavaScript module
answer alike: the band's value and the line's hindrance both count, and a blocked line or a
band's marker replaces the total."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir, semantics
from rulesdsl.codegen import plan as module_plan
from rulesdsl.compiler import Compiler
from tests import js_queries
from tests.conftest import compile_snippet, import_rendered
from tests.test_js_target import node, write_package
from tests.test_module_layout import ruff_would_reformat
from tests.test_state import HEADER, RULES

__all__ = ["node"]  # the fixture

BOTH = """sight haze "Haze" : blocks at 3, counts between
layer air "Air" {
  columns cost, haze
  cloudlet "Cloudlet" | +0 | 1
  smoke "Smoke" | +0 | 2
}
modifier to_hit "To hit" {
  aimed "Aimed" | -1
  when altitude above 6 | +1
  when speed below 1 | blocked
  sight line "In the line" : haze
}
"""
PLACES = (("clear",), ("cloudlet",), ("smoke",), ("clear", "cloudlet"))


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    compiled = compile_snippet(Compiler(), HEADER + RULES + BOTH)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    path = tmp_path_factory.mktemp("band_line")
    return compiled.ruleset, import_rendered(compiled.ruleset, path, "band_line")


def _questions(rng: random.Random) -> list[tuple[list[str], dict[str, int], list[tuple[str, ...]]]]:
    out = []
    for _ in range(200):
        items = rng.sample(["aimed"], rng.randint(0, 1))
        state = {"speed": rng.randint(0, 8), "altitude": rng.randint(0, 9)}
        line = [("clear",), *rng.choices(PLACES, k=rng.randint(0, 3)), ("clear",)]
        out.append((items, state, line))
    return out


def test_a_band_and_a_line_count_together(both: tuple[ir.Ruleset, Any]) -> None:
    _, m = both
    high, low = {"speed": 4, "altitude": 8}, {"speed": 4, "altitude": 3}
    smoky = [("clear",), ("smoke",), ("clear",)]
    assert m.modifier("to_hit", "aimed", state=high, line=smoky) == 2  # -1 + 1 + 2
    assert m.modifier("to_hit", "aimed", state=low, line=smoky) == 1  # -1 + 2
    assert m.modifier("to_hit", state=high, line=[*smoky[:2], ("cloudlet",), ("clear",)]) is (
        m.BLOCKED
    )
    assert m.modifier("to_hit", state={"speed": 0, "altitude": 3}, line=smoky) is m.BLOCKED


def test_the_module_answers_band_and_line_as_the_semantics(both: tuple[ir.Ruleset, Any]) -> None:
    rs, m = both
    for items, state, line in _questions(random.Random(40)):
        expected = semantics.modifier(rs, "to_hit", items, lines={"line": line}, state=state)
        got = m.modifier("to_hit", *items, state=state, line=line)
        assert (got is m.BLOCKED) if isinstance(expected, ir.Marker) else got == expected


def test_the_module_with_band_and_line_comes_out_formatted(
    both: tuple[ir.Ruleset, Any], tmp_path: Path
) -> None:
    import_rendered(both[0], tmp_path, "band_line_layout")
    assert ruff_would_reformat(tmp_path) == []


def test_js_answers_band_and_line_as_python(
    both: tuple[ir.Ruleset, Any], node: str, tmp_path: Path
) -> None:
    rs, python = both
    module = write_package(module_plan.build(rs), tmp_path / "js")
    queries: list[js_queries.Query] = [
        {
            "function": "modifier",
            "args": ["to_hit", *items],
            "kwargs": {"state": state, "line": [list(p) for p in line]},
        }
        for items, state, line in _questions(random.Random(41))
    ]
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
    answers = {str(e) for e in expected}
    assert any("blocked" in a for a in answers) and len(answers) > 3
