"""The JavaScript module's movement costs, place states, path lengths, kinds of move and rolls
due, and routes of unit types with facing (issue 37; rulesdsl/codegen/js/moves.py,
runtime_moves.js, facing.py and runtime_facing.js): the differential test of
tests/test_js_target.py sees an emitter or a runtime of these broken on purpose."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulesdsl.codegen import js as js_target
from rulesdsl.codegen.js import data as js_data
from rulesdsl.codegen.js import facing as js_facing
from rulesdsl.codegen.js import moves as js_moves
from rulesdsl.codegen.plan import movement as plan_movement
from rulesdsl.codegen.plan import values as plan_values
from tests import js_queries, typescript
from tests.conftest import load_generated
from tests.test_js_target import (
    TESTS_JS,
    mismatched_functions,
    node,
    plan_of,
    write_package,
)

__all__ = ["node"]  # the fixture, imported for the tests below


def caught(rid: str, tmp_path: Path) -> set[str]:
    """The functions the differential test finds wrong in ``rid``'s package, written with the
    emitters as they are (broken by the test)."""
    plan = plan_of(rid)
    return mismatched_functions(plan, rid, write_package(plan, tmp_path))


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
    assert "move_cost" in caught("battletech_tacops", tmp_path)


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
    assert "move_cost" in caught("skirmish_keywords", tmp_path)


BREAKS = {
    "an unfilled cost": ("if (unfilled !== undefined) throw", "if (false) throw", "move_cost"),
    "can_enter's errors": ('throw _raisedBy(error, "can_enter")', "throw error", "can_enter"),
    "a kind's allowance": ("allowance * kind.factor + kind.amount;", "allowance;", "move_cost"),
    "whole-map conditions": ("(_WHOLE_MAP.has(feature) ? extra", "(false ? extra", "rolls_due"),
    "diagonals in turn": ("[diagonals % GRID_DIAGONALS.length]", "[0]", "path_cost"),
}
"""A runtime line broken on purpose: (its text, its broken text, a function that shows it)."""

RULESETS_OF = {
    "an unfilled cost": "generic_wargame",
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
    assert function in caught(RULESETS_OF[name], tmp_path)


FACING_BREAKS = {
    "turn modes by kind of move": (
        "if (kind === move) return places;",
        "if (false) return places;",
    ),
    "a pivot once per move": ("0, used | pivotBit]]", "0, used]]"),
    "a turn of two headings": (
        "let cost = turns * _turnCost(rule, speed);",
        "let cost = _turnCost(rule, speed);",
    ),
}
"""A line of runtime_facing.js broken on purpose: (its text, its broken text)."""


@pytest.mark.parametrize("name", sorted(FACING_BREAKS))
def test_differential_test_sees_a_broken_facing_runtime(
    name: str, node: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    line, broken_line = FACING_BREAKS[name]
    text = js_facing.runtime_facing()
    assert line in text
    monkeypatch.setattr(js_facing, "runtime_facing", lambda *_: text.replace(line, broken_line))
    assert caught("void_patrol", tmp_path) & {"route_cost", "cheapest_route", "reachable"}


def test_differential_test_sees_a_manoeuvre_emitted_without_its_once_per_move(
    node: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A facing emitter that drops a manoeuvre's ``once per move`` is caught."""
    real = js_facing.manoeuvre_js

    def broken(move: plan_movement.Manoeuvre | None) -> str:
        return real(move if move is None else dataclasses.replace(move, once=False))

    monkeypatch.setattr(js_facing, "manoeuvre_js", broken)
    assert caught("void_patrol", tmp_path) & {"route_cost", "cheapest_route", "reachable"}


def test_a_facing_speed_or_budget_true_counts_as_one_as_python_does(
    node: str, tmp_path: Path
) -> None:
    """void_patrol's cruiser (exact speed) with ``budget`` or ``allowance`` true: Python's
    ``cost == True`` holds for a cost of 1 and ``f"{True:g}"`` is ``1``, so the place one step
    ahead is reached, the route of one step spends its speed, and the cheapest route is found;
    JavaScript's ``1 === true`` did not hold (found by the differential test)."""
    board = {
        "places": [[[1, 3], ["open_space"]], [[0, 3], ["open_space"]], [[0, 2], ["debris"]]],
        "edges": None,
        "grid": "sector",
        "neighbours": None,
    }
    start, ahead = [[1, 3], 3], [[0, 3], 3]
    asked: list[tuple[str, list[Any], dict[str, Any]]] = [
        ("reachable", ["cruiser", start, True], {"allowance": 2.0}),
        ("route_cost", ["cruiser", [start, ahead]], {"allowance": True}),
        ("route_cost", ["cruiser", [start]], {"allowance": True}),  # "... a speed of 1, ..."
        ("cheapest_route", ["cruiser", start, ahead], {"allowance": True}),
    ]
    queries: list[js_queries.Query] = [
        {"function": f, "board": board, "args": a, "kwargs": k, "facing": True} for f, a, k in asked
    ]
    python = load_generated("void_patrol")
    expected = js_queries.ask_python_all(python, queries)
    assert [a["answer"][0].keys() for a in expected] == [{"reach"}, *[{"facing"}] * 3]
    assert js_queries.ask_node(write_package(plan_of("void_patrol"), tmp_path), queries) == expected


@typescript.TSC
def test_declarations_type_check_a_consumer_of_facing_routes(
    node: str, tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    """void_patrol.d.ts declares FACINGS and the route functions' overloads for a unit type
    with facing (a FacingRoute of [place, heading] pairs): tests/js/consumer_facing.ts
    type-checks."""
    write_package(plan_of("void_patrol"), tmp_path)
    shutil.copy(TESTS_JS / "consumer_facing.ts", tmp_path / "consumer_facing.ts")
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "consumer_facing.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
