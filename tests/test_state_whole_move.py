"""A state beside whole-move limits and bonuses (issue 40): the route searches that carry a
state (over place and state) also count the steps of each `at most` limit and keep each
`whole move` bonus while every step qualifies, so a ruleset may have both (it was E403). The
module, its JavaScript twin and the reference semantics answer alike."""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import routes as semantic_routes
from tests import js_queries, js_queries_state_whole
from tests.conftest import MYPY_CACHE, compile_snippet, import_rendered
from tests.test_js_target import node, write_package
from tests.test_module_layout import ruff_would_reformat
from tests.test_sight_and_results import located
from tests.test_state_with_outcomes import FUELLED

__all__ = ["node"]  # the fixture

MARCH = """ruleset march "Road march with fuel"
version 1.0.0
units distance hex, cost MP
mode foot "Foot"
grid hexes "Hex" : 1 hex = 1 km, hex
layer terrain "Terrain" one per place {
  clear "Clear"  | 1
  mud "Mud"      | 1
  rough "Rough"  | 3
}
layer hexsides "Hexsides" edges {
  road "Road"    | along 1/2
  river "River"  | +1
}
whole move one_river "One river a move" : at most 1 river
whole move road_march "Road march" : on road, allowance +2 MP
state fuel "Fuel" : 0 to 3, mud -1
"""


@pytest.fixture(scope="module")
def march(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    compiled = compile_snippet(Compiler(), MARCH)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    rs = compiled.ruleset
    return rs, import_rendered(rs, tmp_path_factory.mktemp("march"), "state_whole_module")


def _board(module: Any, edges: dict[Any, tuple[str, ...]], mud: tuple[Any, ...] = ()) -> Any:
    """Two rows of five hexes, the first clear (or mud), the second rough; ``edges`` both ways."""
    places: dict[Any, tuple[str, ...]] = {(q, 0): ("clear",) for q in range(5)}
    places.update({(q, 1): ("rough",) for q in range(5)})
    places.update({place: ("mud",) for place in mud})
    both = {**edges, **{(b, a): f for (a, b), f in edges.items()}}
    return module.Board(places, both, grid="hexes")


def _reference(rs: ir.Ruleset, board: Any, start: Any, budget: float, fuel: int) -> Any:
    neighbours = {p: [q for q, _ in board.neighbours(p)] for p in board.places}
    return semantic_routes.reachable(
        rs, "foot", start, budget, board.places, neighbours, board.edges, state={"fuel": fuel}
    )


def test_a_state_beside_whole_move_limits_and_bonuses_compiles_clean() -> None:
    assert located(Compiler(), MARCH) == []


def test_cheapest_route_with_a_state_goes_round_a_whole_move_limit(march: Any) -> None:
    _, module = march
    rivers = {((0, 0), (1, 0)): ("river",), ((1, 0), (2, 0)): ("river",)}
    board = _board(module, rivers)
    route = module.cheapest_route(board, "foot", (0, 0), (2, 0), state={"fuel": 3})
    assert route is not None and route.legal, route  # two rivers (4 MP) are beyond the limit
    assert route.total == 6 and [s.edge for s in route.steps].count(("river",)) == 1
    assert route.state == {"fuel": 3}


def test_reachable_with_a_state_counts_a_place_only_within_the_limits(march: Any) -> None:
    rs, module = march
    rivers = {((0, 0), (1, 0)): ("river",), ((1, 0), (2, 0)): ("river",)}
    board = _board(module, rivers)
    reach = module.reachable(board, "foot", (0, 0), 5, state={"fuel": 3})
    assert (2, 0) not in reach  # 4 MP over two rivers; round by the rough row costs 6
    assert dict(reach) == _reference(rs, board, (0, 0), 5, 3)


def test_reachable_with_a_state_goes_further_on_road_by_the_bonus(march: Any) -> None:
    rs, module = march
    road = {((q, 0), (q + 1, 0)): ("road",) for q in range(3)}
    board = _board(module, road)
    reach = module.reachable(board, "foot", (0, 0), 0.5, state={"fuel": 3})
    assert reach[(3, 0)] == 1.5  # three steps of road: within 0.5 + 2
    assert dict(reach) == _reference(rs, board, (0, 0), 0.5, 3)
    route = module.cheapest_route(board, "foot", (0, 0), (3, 0), allowance=0.5, state={"fuel": 3})
    assert route is not None and route.legal


def test_a_road_the_state_cannot_follow_loses_the_bonus(march: Any) -> None:
    rs, module = march
    road = {((q, 0), (q + 1, 0)): ("road",) for q in range(3)}
    board = _board(module, road, mud=((1, 0), (2, 0)))  # each mud hex burns 1 fuel
    assert module.reachable(board, "foot", (0, 0), 0.5, state={"fuel": 2})[(3, 0)] == 1.5
    reach = module.reachable(board, "foot", (0, 0), 0.5, state={"fuel": 1})
    assert (2, 0) not in reach and (3, 0) not in reach  # off the road there is no bonus
    assert dict(reach) == _reference(rs, board, (0, 0), 0.5, 1)


def test_the_module_reaches_with_a_state_as_the_semantics_on_random_boards(march: Any) -> None:
    rs, module = march
    rng = random.Random(40)
    asked = differing = 0
    for _ in range(60):
        edges = {
            ((q, r), (q + dq, r + dr)): (rng.choice(["road", "road", "river"]),)
            for q in range(5)
            for r in range(2)
            for dq, dr in ((1, 0), (0, 1), (1, -1))
            if 0 <= q + dq < 5 and 0 <= r + dr < 2 and rng.random() < 0.6
        }
        mud = tuple(p for p in ((q, 0) for q in range(5)) if rng.random() < 0.3)
        board = _board(module, edges, mud)
        start, budget, fuel = (rng.randrange(5), rng.randrange(2)), rng.randint(0, 5), 1
        fuel = rng.randint(0, 3)
        reach = dict(module.reachable(board, "foot", start, budget, state={"fuel": fuel}))
        assert reach == _reference(rs, board, start, budget, fuel), (edges, mud, start, budget)
        asked += 1
        differing += reach != dict(module.reachable(board, "foot", start, budget))
    assert asked == 60 and differing > 5  # the state changes the answer on many boards


def test_js_module_answers_state_and_whole_move_questions_as_python(
    node: str, tmp_path: Path, march: Any
) -> None:
    rs, python = march
    plan = module_plan.build(rs)
    module = write_package(plan, tmp_path / "js")
    queries = list(js_queries_state_whole.state_whole_queries(random.Random(40), plan))
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
    answers = [str(e) for e in expected]  # the questions reach both rules and the state
    assert any("takes 'Fuel'" in a for a in answers)
    assert any("goes beyond 'One river a move'" in a for a in answers)


@pytest.mark.parametrize("whole", [False, True], ids=["state alone", "state and whole move"])
def test_the_js_search_counts_whole_move_rules_only_in_a_module_that_has_them(
    tmp_path: Path, whole: bool
) -> None:
    rules = MARCH if whole else "\n".join(line for line in MARCH.split("\n") if "whole" not in line)
    compiled = compile_snippet(Compiler(), rules)
    assert compiled.ruleset is not None
    text = write_package(module_plan.build(compiled.ruleset), tmp_path).read_text("utf-8")
    assert ("function _wholeLimits()" in text) is whole
    assert ("The whole-move limits as _limitedSearch counts them" in text) is whole
    assert "// [whole]" not in text and "// [no whole]" not in text


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    begin = doc.index("### A state beside whole-move rules")
    section = doc[begin : doc.index("\n### ", begin + 1)]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    start = section.index("```python\n") + len("```python\n")
    python = section[start : section.index("```", start)].splitlines()
    compiled = compile_snippet(Compiler(), terrain)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    module = import_rendered(compiled.ruleset, tmp_path, "state_whole_guide")
    names = {n: getattr(module, n) for n in ("Board", "cheapest_route", "reachable")}
    asked = 0
    for i, line in enumerate(python):
        if line.startswith("#"):
            continue
        if i + 1 < len(python) and python[i + 1].startswith("# "):
            assert eval(line, names) == ast.literal_eval(python[i + 1][2:]), line
            asked += 1
        else:
            exec(line, names)
    assert asked == 3


WHOLE_FUELLED = (
    FUELLED
    + 'whole move one_wall "One wall a move" : at most 1 wall\n'
    + 'whole move clear_run "Clear run" : on clear, allowance +1 in\n'
)
"""Fuel, dice outcomes and step inputs (tests/test_state_with_outcomes.py) with a limit and a
bonus."""


def test_state_outcomes_inputs_and_whole_move_rules_together_in_python_and_js(
    node: str, tmp_path: Path
) -> None:
    compiled = compile_snippet(Compiler(), WHOLE_FUELLED)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    plan = module_plan.build(compiled.ruleset)
    python = import_rendered(compiled.ruleset, tmp_path, "state_whole_outcomes")
    assert ruff_would_reformat(tmp_path) == []
    typed = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(MYPY_CACHE),
            str(python.__file__),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert typed.returncode == 0, typed.stdout
    module = write_package(plan, tmp_path / "js")
    families = js_queries.families()
    rng = random.Random(41)
    queries = [*families["state"](rng, plan), *families["routes_inputs"](rng, plan)]
    queries += [  # the route questions with dice outcomes, asked again with a state
        {**q, "kwargs": {**q["kwargs"], "state": {"fuel": rng.randint(0, 6)}}}
        for q in queries
        if "outcomes" in q.get("kwargs", {})
    ]
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
    assert any("goes beyond 'One wall a move'" in str(e) for e in expected)
