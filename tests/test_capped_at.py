"""A change of a state capped at a bound (issue 40): ``dive +1 capped at 5`` ("a dive gains 1,
up to the class's maximum dive speed of 5", in a range to 8) stops the state at the bound, or at
the end of the unit's range if that is nearer; a state already past the bound stays where it
was (the reading taken: a capped gain never pulls it back, nor takes it further). A unit type
writes its own bound as its own change (``bomber dive +1 capped at 4``). The module, the
reference semantics and the JavaScript module answer alike; rules without a bound keep their
module text."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.js import routes as js_routes
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.frontends.syntax import StateDecl
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics import routes as semantic_routes
from rulesdsl.versions import diff as semantic
from tests.conftest import compile_snippet, import_rendered
from tests.guide_answers import guide_answers, js_differential
from tests.test_capped import CAPPED, _board, _reference
from tests.test_js_target import node
from tests.test_sight_and_results import located
from tests.test_state import BODY, HEADER, LINE, RULES

__all__ = ["node"]  # the fixture

BOUNDED = (
    RULES.replace('state speed "Speed" : 0 to 8,', 'state speed "Speed" : 0 to 8, bomber 0 to 6,')
    .replace("dive +1\n", "dive +2 capped at 5, bomber dive +1 capped at 4\n")
    .replace("storm -1\n", "storm -1 capped at 2\n")
)
"""test_state's rules with bombers' own top speed 6, a dive's gain capped at 5 (the bomber's at
4) and a storm's loss of altitude capped at 2; a climb's cost and the debris are not capped."""
ROW = [(0, 0), (1, 0), (2, 0), (3, 0)]


def _ruleset(body: str = BOUNDED) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def bounded(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset()
    return rs, import_rendered(rs, tmp_path_factory.mktemp("capped_at"), "capped_at_module")


def _states(rs: ir.Ruleset, module: Any, mode: str, speeds: range, board: Any) -> list[Any]:
    """The speed after a dive along ROW from each of ``speeds`` (altitude 3), checked against
    the reference semantics."""
    out = []
    for speed in speeds:
        start = {"speed": speed, "altitude": 3}
        answer = module.route_cost(board, mode, ROW, state=start, move="dive")
        reference = _reference(rs, mode, ROW, board, state=start, move="dive")
        assert (reference.legal, reference.state) == (answer.legal, answer.state)
        out.append(answer.state["speed"])
    return out


def test_a_gain_capped_at_a_bound_stops_there(bounded: tuple[ir.Ruleset, Any]) -> None:
    rs, module = bounded
    # +2 from 0 to 3; from 4 it stops at 5; from 5 it stays at 5
    assert _states(rs, module, "fighter", range(6), _board(module)) == [2, 3, 4, 5, 5, 5]


def test_a_state_past_the_bound_stays_where_it_was(bounded: tuple[ir.Ruleset, Any]) -> None:
    rs, module = bounded
    # past 5 a capped gain neither pulls the speed back to 5 nor raises it
    assert _states(rs, module, "fighter", range(6, 9), _board(module)) == [6, 7, 8]


def test_a_unit_types_own_change_has_its_own_bound(bounded: tuple[ir.Ruleset, Any]) -> None:
    rs, module = bounded
    assert _states(rs, module, "bomber", range(7), _board(module)) == [1, 2, 3, 4, 4, 5, 6]


def test_the_end_of_the_unit_types_range_stops_it_when_nearer(tmp_path: Path) -> None:
    rs = _ruleset(BOUNDED.replace("bomber dive +1 capped at 4", "bomber dive +2 capped at 7"))
    module = import_rendered(rs, tmp_path, "capped_at_range_end")
    assert _states(rs, module, "bomber", range(3, 7), _board(module)) == [5, 6, 6, 6]


def test_a_loss_capped_at_a_bound_stops_there_on_each_step(
    bounded: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = bounded
    board = _board(module, ((1, 0), (2, 0), (3, 0)))
    for altitude, after in ((4, 2), (3, 2), (2, 2), (1, 1), (0, 0)):
        start = {"speed": 5, "altitude": altitude}
        answer = module.route_cost(board, "fighter", ROW, state=start)
        assert (answer.legal, answer.state) == (True, {"speed": 5, "altitude": after})
        reference = _reference(rs, "fighter", ROW, board, state=start)
        assert (reference.legal, reference.state) == (True, answer.state)


def test_searches_carry_the_state_a_bound_stops(bounded: tuple[ir.Ruleset, Any]) -> None:
    rs, module = bounded
    board = _board(module, ((1, 0), (2, 0)))
    start = {"speed": 3, "altitude": 3}
    route = module.cheapest_route(board, "fighter", (0, 0), (2, 0), move="dive", state=start)
    assert (route.legal, route.state) == (True, {"speed": 5, "altitude": 2})
    places = {p: board.places[p] for p in board.places}
    neighbours = {p: [q for q, _ in board.neighbours(p)] for p in places}
    for mode in ("fighter", "bomber"):
        reach = module.reachable(board, mode, (0, 0), 4, state=start)
        reference = semantic_routes.reachable(
            rs, mode, (0, 0), 4, places, neighbours, {}, state=start
        )
        assert reference == dict(reach)


def test_the_module_lists_the_bounds(bounded: tuple[ir.Ruleset, Any]) -> None:
    _, module = bounded
    assert {k: dict(v) for k, v in module._CAPPED_BOUNDS.items()} == {
        "dive": {"": (5, None), "bomber": (4, None)},
        "storm": {"": (None, 2)},
    }


def test_js_module_answers_capped_at_questions_as_python(node: str, tmp_path: Path) -> None:
    # plain routes (the fighter has no facing) and facing routes (the bomber's) in one module:
    # the family asks both
    facing = "facing bomber on hexes : turn 1 MP per hexside\n"
    expected = js_differential(_ruleset(BOUNDED + facing), "capped_at", 11, tmp_path)
    assert any("'speed': 5" in str(e) for e in expected)


def test_rules_without_a_bound_keep_their_module_text(tmp_path: Path) -> None:
    rs = _ruleset(CAPPED)  # capped at the ends of the ranges only
    import_rendered(rs, tmp_path, "capped_no_bound")
    text = (tmp_path / "capped_no_bound.py").read_text("utf-8")
    assert "_CAPPED_BOUNDS" not in text and "before = values" not in text
    runtime = "\n".join(js_routes.routes_js(module_plan.build(rs).movement))
    assert "[capped at" not in runtime and "_CAPPED_BOUNDS" not in runtime
    assert "before = values" not in runtime and "\n\n\n" not in runtime
    assert all(c.bounds == () for c in module_plan.build(rs).movement.state_changes)


@pytest.mark.parametrize(
    ("line", "code", "column"),
    [
        ('state speed "Speed" : 0 to 8, dive +1 capped at 4.5\n', "E513", 46),
        ('state speed "Speed" : 0 to 8, dive +1 capped at 9\n', "E514", 46),
        ('state speed "Speed" : 0 to 8, bomber dive +1 capped at -1\n', "E514", 53),
    ],
)
def test_a_bound_that_is_not_whole_or_outside_the_range_gets_its_code_at_its_place(
    line: str, code: str, column: int
) -> None:
    assert located(Compiler(), HEADER + BODY + line) == [(code, LINE, column)]


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    title, end = "### A change capped at a bound", "### A state beside whole-move rules"
    assert guide_answers(title, end, tmp_path, "capped_at_guide") == 5


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Dive +2 (stops at 5, or at the end of the unit's range if nearer)"),
        ("fr", "Dive +2 (s\u2019arrête à 5, ou au bout de la plage de l\u2019unité s\u2019il"),
        ("de", "Dive +2 (hält bei 5 an, oder am Rand des Bereichs der Einheit, wenn er näher"),
        ("ru", "Dive +2 (не дальше 5, или границы диапазона отряда, если она ближе)"),
    ],
)
def test_the_sheet_says_a_change_is_capped_at_its_bound_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "air.terrain"
    languages = "version 1.0.0\nlanguages en fr de ru\n"
    ruleset.write_text(HEADER.replace("version 1.0.0\n", languages) + BOUNDED, "utf-8")
    target = tmp_path / f"air.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    text = target.read_text("utf-8")
    assert words in text
    assert words.replace("Dive +2", "Bomber +1").replace("5", "4") in text  # its own bound


def test_bounds_survive_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + BOUNDED, "air.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "dive +2 capped at 5" in yaml_text and "bomber dive +1 capped at 4" in yaml_text
    yaml_path = tmp_path / "air.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "air.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p) for p in (yaml_path, back)]
    plain = [dataclasses.replace(c.ruleset, digest="") for c in found if c.ruleset is not None]
    assert len(plain) == 2 and plain[0] == plain[1], [str(d) for c in found for d in c.diagnostics]
    assert plain[0].states == _ruleset().states


def test_a_bound_outside_the_range_in_yaml_is_reported_at_its_place(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + BOUNDED, "air.terrain")
    assert source is not None
    path = tmp_path / "air.yaml"
    path.write_text(to_yaml(source).replace("capped at 5", "capped at 12"), "utf-8")
    found = [
        (d.code, d.pos is not None) for d in Compiler().compile_file(path).diagnostics if d.is_error
    ]
    assert found == [("E514", True)]


def test_diff_grades_a_bound_added_or_moved_as_breaking() -> None:
    capped = RULES.replace("dive +1\n", "dive +1 capped\n")
    old, new = _ruleset(capped), _ruleset(capped.replace("capped\n", "capped at 5\n"))
    said = [(c.level, c.path, c.message.split(" -> ")[1]) for c in semantic.diff(old, new).changes]
    assert said == [
        (
            "breaking",
            "speed",
            "0 to 8, debris -2, front -1, climb -2, bomber climb -3, dive +1 capped at 5",
        )
    ]
    moved = _ruleset(capped.replace("capped\n", "capped at 6\n"))
    assert [(c.level, c.path) for c in semantic.diff(new, moved).changes] == [("breaking", "speed")]


def test_rules_without_a_bound_keep_their_digest() -> None:
    plain, _ = Parser().parse(HEADER + CAPPED, "air.terrain")
    assert plain is not None
    decl = next(st for st in plain.statements if isinstance(st, StateDecl))
    assert isinstance(decl, StateDecl) and decl.ends is not None and decl.caps is None


def test_a_house_rule_sets_a_bound_with_its_own_state_line(tmp_path: Path) -> None:
    (tmp_path / "air.terrain").write_text(HEADER + RULES, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends air@^1.0\nremove speed\n'
        'state speed "Speed" : 0 to 8, dive +1 capped at 5\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    speed = next(v for v in compiled.ruleset.states if v.id == "speed")
    assert speed.changes == (ir.StateChange("dive", 1, "", capped=True, bound=5),)
