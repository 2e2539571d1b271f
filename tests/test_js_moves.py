"""The JavaScript module's movement costs, place states, path lengths, kinds of move and rolls
due (issue 37; rulesdsl/codegen/js/moves.py and runtime_moves.js): the differential test of
tests/test_js_target.py sees an emitter or a runtime of these broken on purpose."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.codegen import js as js_target
from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.js import data as js_data
from rulesdsl.codegen.js import moves as js_moves
from rulesdsl.codegen.plan import values as plan_values
from rulesdsl.compiler import Compiler
from tests.conftest import RULESETS
from tests.test_js_target import mismatches, node, write_package

__all__ = ["node"]  # the fixture, imported for the tests below


def _plan(rid: str) -> module_plan.ModulePlan:
    compiled = Compiler().compile_file(RULESETS / f"{rid}.terrain")
    assert compiled.ruleset is not None
    return module_plan.build(compiled.ruleset)


def _functions(found: list[tuple[dict[str, object], object, object]]) -> set[object]:
    return {query["function"] for query, _, _ in found}


def test_differential_test_sees_prohibited_costs_written_as_impassable(
    node: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An emitter that writes a feature's ``prohibited`` cost as IMPASSABLE (both refuse the
    unit; only one is the rules' answer) is caught by move_cost's and can_enter's queries."""
    real = js_data.per_distance_js

    def broken(cost: plan_values.PerDistance) -> str:
        if cost == plan_values.Mark("prohibited"):
            return "IMPASSABLE"
        return real(cost)

    monkeypatch.setattr(js_data, "per_distance_js", broken)
    plan = _plan("battletech_tacops")
    found = mismatches(plan, "battletech_tacops", write_package(plan, tmp_path), seed=37)
    assert "move_cost" in _functions(found)


def test_differential_test_sees_a_flat_cost_emitted_as_a_share(
    node: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A flat cost paid once per move written as the whole allowance instead is caught."""
    real = js_moves.once_js

    def broken(cost: plan_values.OnceCost) -> str:
        if isinstance(cost, plan_values.Flat):
            return real(plan_values.Share(1, 1, 0))
        return real(cost)

    monkeypatch.setattr(js_moves, "once_js", broken)
    plan = _plan("skirmish_keywords")
    found = mismatches(plan, "skirmish_keywords", write_package(plan, tmp_path), seed=37)
    assert "move_cost" in _functions(found)


BREAKS = {
    "one per place": ("if (onePerPlace && seen.has(layer))", "if (false)", "move_cost"),
    "can_enter's errors": ('throw _raisedBy(error, "can_enter")', "throw error", "can_enter"),
    "a kind's allowance": ("allowance * kind.factor + kind.amount;", "allowance;", "move_cost"),
    "whole-map conditions": ("(_WHOLE_MAP.has(feature) ? extra", "(false ? extra", "rolls_due"),
    "diagonals in turn": ("[diagonals % GRID_DIAGONALS.length]", "[0]", "path_cost"),
}
"""A runtime line broken on purpose: (its text, its broken text, a function that shows it)."""

RULESETS_OF = {
    "one per place": "void_patrol",
    "can_enter's errors": "skirmish_keywords",
    "a kind's allowance": "skirmish_keywords",
    "whole-map conditions": "hex_operational",
    "diagonals in turn": "d20_movement",
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_differential_test_sees_a_broken_moves_runtime(
    name: str, node: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    line, broken_line, function = BREAKS[name]
    real = js_target.runtime

    def broken(part: str = "runtime.js") -> str:
        text = real(part)
        if part == "runtime_moves.js":
            assert line in text
            text = text.replace(line, broken_line)
        return text

    monkeypatch.setattr(js_target, "runtime", broken)
    rid = RULESETS_OF[name]
    plan = _plan(rid)
    found = mismatches(plan, rid, write_package(plan, tmp_path), seed=37)
    assert function in _functions(found)
