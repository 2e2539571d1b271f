"""A cost that is a share of the allowance (``share 1/2``) for a unit type with facing: the
route searches (cheapest_route, reachable) cost each step with the allowance as route_cost
does, so the cheapest route's total is what route_cost says of it and reachable's costs are
those of the cheapest routes, in the Python module and the JavaScript one."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.compiler import Compiler
from tests.conftest import compile_snippet, import_rendered
from tests.test_js_target import node, write_package

__all__ = ["node"]  # the fixture

BOG = """ruleset bog "Bog"
version 1.0.0
units distance hex, cost MP
mode walker "Walker"
move march "March" : allowance times 2
grid field "Field" : 1 hex, hex
layer terrain "Terrain" one per place {
  clear "Clear" | 1
  bog "Bog" | share 1/2
}
facing walker on field : turn 1 MP per hexside
"""
"""A walker with facing; a bog costs half its allowance (of the kind of move's allowance)."""

START = ((0, 0), 0)
CALLS: list[dict[str, Any]] = [{"allowance": 6}, {"allowance": 4, "move": "march"}]


def _ruleset() -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), BOG)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def bog(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return import_rendered(_ruleset(), tmp_path_factory.mktemp("bog"), "facing_shares_module")


def _board(module: Any) -> Any:
    """A 4 x 2 hex field, a bog at (1, 0) straight ahead of the start."""
    places = {(q, r): ("clear",) for q in range(4) for r in range(2)}
    places[(1, 0)] = ("bog",)
    return module.Board(places, grid="field")


@pytest.mark.parametrize("call", CALLS, ids=["allowance", "a kind of move"])
def test_a_facing_search_costs_a_share_of_the_allowance_as_route_cost_does(
    bog: Any, call: dict[str, Any]
) -> None:
    board = _board(bog)
    reach = bog.reachable(board, "walker", START, **call)
    assert reach[((1, 0), 0)] == bog.move_cost("walker", "bog", **call)
    for end, cost in reach.items():
        route = bog.cheapest_route(board, "walker", START, end, **call)
        assert route is not None and route.total == cost, end
        path = [START] + [(s.end, s.heading) for s in route.steps]
        assert bog.route_cost(board, "walker", path, **call).total == route.total, end


def test_a_facing_route_without_the_allowance_a_share_needs_says_the_function_called(
    bog: Any,
) -> None:
    board = _board(bog)
    for function, call in (
        ("route_cost", lambda: bog.route_cost(board, "walker", [START, ((1, 0), 0)])),
        ("cheapest_route", lambda: bog.cheapest_route(board, "walker", START, (2, 0))),
        ("reachable", lambda: bog.reachable(board, "walker", START, 4)),
    ):
        with pytest.raises(bog.InvalidArgument, match=rf"^{function}\(\) argument 'allowance'"):
            call()


ASK = """import * as m from "./bog.js";
const places = new Map();
for (let q = 0; q < 4; q++) {
  for (let r = 0; r < 2; r++) places.set([q, r], q === 1 && r === 0 ? ["bog"] : ["clear"]);
}
const board = new m.Board(places, { grid: "field" });
const start = [[0, 0], 0];
const out = [];
for (const options of CALLS) {
  const rows = [];
  for (const [end, cost] of m.reachable(board, "walker", start, null, options)) {
    const route = m.cheapestRoute(board, "walker", start, end, options);
    const path = [start, ...route.steps.map((s) => [s.end, s.heading])];
    rows.push([end, cost, route.total, m.routeCost(board, "walker", path, options).total]);
  }
  out.push(rows);
}
const said = [];
for (const ask of [
  () => m.routeCost(board, "walker", [start, [[1, 0], 0]]),
  () => m.cheapestRoute(board, "walker", start, [2, 0]),
  () => m.reachable(board, "walker", start, 4),
]) {
  try {
    ask();
  } catch (error) {
    said.push(error.message);
  }
}
console.log(JSON.stringify([out, said]));
"""


def test_the_js_facing_search_costs_a_share_of_the_allowance_as_python_does(
    node: str, bog: Any, tmp_path: Path
) -> None:
    write_package(module_plan.build(_ruleset()), tmp_path)
    (tmp_path / "ask.mjs").write_text(ASK.replace("CALLS", json.dumps(CALLS)), "utf-8")
    done = subprocess.run([node, "ask.mjs"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    board = _board(bog)
    answers, said = json.loads(done.stdout)
    for rows, call in zip(answers, CALLS, strict=True):
        reach = bog.reachable(board, "walker", START, **call)
        ends = {((q, r), h): cost for [[q, r], h], cost, _, _ in rows}
        assert ends == dict(reach.items())
        assert all(cost == total == again for _, cost, total, again in rows)
    functions = ("route_cost", "cheapest_route", "reachable")
    assert [m.split("(")[0] for m in said] == list(functions)  # not move_cost's
