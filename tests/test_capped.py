"""A change of a state written ``capped`` (issue 40): ``dive +1 capped`` ("a dive gains 1 speed,
up to the class's maximum") stops the state at the end of the unit's range (its own, else the
range for all) instead of breaking the route; a change not written so still breaks it. The
module, the reference semantics and the JavaScript module answer alike; rules without a capped
change keep their module text."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from itertools import pairwise
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
from tests.conftest import MYPY_CACHE, compile_snippet, import_rendered
from tests.guide_answers import guide_answers, js_differential
from tests.test_js_target import node
from tests.test_module_layout import ruff_would_reformat
from tests.test_sight_and_results import located
from tests.test_state import BODY, HEADER, LINE, RULES

__all__ = ["node"]  # the fixture

CAPPED = (
    RULES.replace('state speed "Speed" : 0 to 8,', 'state speed "Speed" : 0 to 8, bomber 0 to 6,')
    .replace("dive +1\n", "dive +1 capped\n")
    .replace("storm -1\n", "storm -1 capped\n")
)
"""test_state's rules with bombers' own top speed 6, a dive capped at the top of the speed and
a storm's loss of altitude capped at 0; a climb's cost in speed and the debris are not capped."""
ONE_RANGE = RULES.replace("dive +1\n", "dive +1 capped\n").replace(
    "storm -1\n", "storm -1 capped\n"
)
ROW = [(0, 0), (1, 0), (2, 0), (3, 0)]


def _ruleset(body: str = CAPPED) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset()
    return rs, import_rendered(rs, tmp_path_factory.mktemp("capped"), "capped_module")


def _board(module: Any, storms: tuple[Any, ...] = ()) -> Any:
    places = {(q, r): ("clear",) for q in range(5) for r in range(2)}
    places |= {place: ("storm",) for place in storms}
    return module.Board(places, grid="hexes")


def _reference(rs: ir.Ruleset, mode: str, route: Any, board: Any, **kw: Any) -> Any:
    steps = [(board.places[b], board.edges.get((a, b), ())) for a, b in pairwise(route)]
    return semantic_routes.route(rs, mode, steps, **kw)


def test_a_capped_change_stops_at_the_unit_types_own_top(capped: tuple[ir.Ruleset, Any]) -> None:
    rs, module = capped
    board = _board(module)
    start = {"speed": 6, "altitude": 3}
    bomber = module.route_cost(board, "bomber", ROW, state=start, move="dive")
    assert (bomber.legal, bomber.reason) == (True, "")
    assert bomber.state == {"speed": 6, "altitude": 2}  # stopped at its own top, not refused
    fighter = module.route_cost(board, "fighter", ROW, state=start, move="dive")
    assert fighter.state == {"speed": 7, "altitude": 2}  # the range for all goes to 8
    top = module.route_cost(board, "fighter", ROW, state={"speed": 8, "altitude": 3}, move="dive")
    assert (top.legal, top.state) == (True, {"speed": 8, "altitude": 2})
    reference = _reference(rs, "bomber", ROW, board, state=start, move="dive")
    assert (reference.legal, reference.state) == (True, bomber.state)


def test_a_capped_loss_stops_at_the_bottom_on_each_step(capped: tuple[ir.Ruleset, Any]) -> None:
    rs, module = capped
    board = _board(module, ((1, 0), (2, 0)))
    start = {"speed": 5, "altitude": 1}
    answer = module.route_cost(board, "fighter", ROW, state=start)
    assert (answer.legal, answer.state) == (True, {"speed": 5, "altitude": 0})
    reference = _reference(rs, "fighter", ROW, board, state=start)
    assert (reference.legal, reference.state) == (True, answer.state)


def test_a_change_not_written_capped_still_breaks_the_route(
    capped: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = capped
    board = _board(module)
    start = {"speed": 2, "altitude": 3}
    answer = module.route_cost(board, "bomber", ROW, state=start, move="climb")
    assert answer.reason == "the move 'Climb' takes 'Speed' to -1 (its range is 0 to 6)"
    reference = _reference(rs, "bomber", ROW, board, state=start, move="climb")
    assert reference.reason == answer.reason


def test_searches_pass_where_a_capped_change_stops_the_state(
    capped: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = capped
    board = _board(module, ((1, 0),))
    start = {"speed": 3, "altitude": 0}  # every way to (1, 0) enters the storm: altitude -1
    route = module.cheapest_route(board, "bomber", (0, 0), (1, 0), state=start)
    assert (route.legal, route.total, route.state) == (True, 2.0, start)
    places = {p: board.places[p] for p in board.places}
    neighbours = {p: [q for q, _ in board.neighbours(p)] for p in places}
    reach = module.reachable(board, "bomber", (0, 0), 2, state=start)
    assert (1, 0) in reach
    reference = semantic_routes.reachable(
        rs, "bomber", (0, 0), 2, places, neighbours, {}, state=start
    )
    assert reference == dict(reach)


def test_the_module_lists_the_capped_changes(capped: tuple[ir.Ruleset, Any]) -> None:
    _, module = capped  # a climb's changes are not capped: not listed
    assert {k: dict(v) for k, v in module._CAPPED_CHANGES.items()} == {
        "dive": {"": (1, 0)},
        "storm": {"": (0, -1)},
    }


@pytest.mark.parametrize(
    ("body", "family", "facing"),
    [
        (CAPPED, "capped", ""),
        (ONE_RANGE, "capped", ""),
        (CAPPED, "capped", "facing bomber on hexes : turn 1 MP per hexside\n"),
    ],
    ids=["own-range", "one-range", "facing"],
)
def test_js_module_answers_capped_questions_as_python(
    node: str, tmp_path: Path, body: str, family: str, facing: str
) -> None:
    expected = js_differential(_ruleset(body + facing), family, 11, tmp_path)
    assert any("'speed': 8" in str(e) or "'speed': 6" in str(e) for e in expected)


def test_rules_without_a_capped_change_keep_their_module_text(tmp_path: Path) -> None:
    import_rendered(_ruleset(RULES), tmp_path, "uncapped")
    text = (tmp_path / "uncapped.py").read_text("utf-8")
    assert "_CAPPED_CHANGES" not in text and "_capped(" not in text
    runtime = "\n".join(js_routes.routes_js(module_plan.build(_ruleset(RULES)).movement))
    assert "[capped]" not in runtime and "[uncapped]" not in runtime
    assert "_capped(" not in runtime and "_CAPPED_CHANGES" not in runtime
    assert "\n\n\n" not in runtime  # the dropped lines leave no blank line behind
    assert module_plan.build(_ruleset(RULES)).movement.state_changes[0].capped == ()


def test_a_module_with_capped_changes_comes_out_formatted_and_typed(tmp_path: Path) -> None:
    import_rendered(_ruleset(), tmp_path, "capped_layout")
    import_rendered(_ruleset(ONE_RANGE), tmp_path, "capped_one_range")
    assert ruff_would_reformat(tmp_path) == []
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(MYPY_CACHE), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize(
    ("line", "code", "column"),
    [
        ('state speed "Speed" : 0 to 8, dive +1 caped\n', "E483", 39),
        ('state speed "Speed" : 0 to 8, bomber dive +1 upto\n', "E483", 46),
    ],
)
def test_a_change_ending_with_another_word_gets_its_code_at_its_place(
    line: str, code: str, column: int
) -> None:
    assert located(Compiler(), HEADER + BODY + line) == [(code, LINE, column)]


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    title, end = "### A change capped at the end of a range", "### A state beside whole-move rules"
    assert guide_answers(title, end, tmp_path, "capped_guide") == 3


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Dive +1 (stops at the end of the unit's range)"),
        ("fr", "Dive +1 (s\u2019arrête au bout de la plage de l\u2019unité)"),
        ("de", "Dive +1 (hält am Rand des Bereichs der Einheit an)"),
        ("ru", "Dive +1 (не дальше границы диапазона отряда)"),
    ],
)
def test_the_sheet_says_a_change_is_capped_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "air.terrain"
    languages = "version 1.0.0\nlanguages en fr de ru\n"
    ruleset.write_text(HEADER.replace("version 1.0.0\n", languages) + CAPPED, "utf-8")
    target = tmp_path / f"air.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    text = target.read_text("utf-8")
    assert words in text
    assert text.count(words.split(" (")[1]) == 2  # the dive and the storm; not the climb


def test_capped_changes_survive_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + CAPPED, "air.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "dive +1 capped" in yaml_text
    yaml_path = tmp_path / "air.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "air.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p) for p in (yaml_path, back)]
    plain = [dataclasses.replace(c.ruleset, digest="") for c in found if c.ruleset is not None]
    assert len(plain) == 2 and plain[0] == plain[1], [str(d) for c in found for d in c.diagnostics]
    assert plain[0].states == _ruleset().states


def test_a_misspelt_cap_in_yaml_is_reported_at_its_place(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + CAPPED, "air.terrain")
    assert source is not None
    path = tmp_path / "air.yaml"
    path.write_text(to_yaml(source).replace("dive +1 capped", "dive +1 caped"), "utf-8")
    found = [
        (d.code, d.pos is not None) for d in Compiler().compile_file(path).diagnostics if d.is_error
    ]
    assert found == [("E483", True)]


def test_diff_grades_a_change_capped_or_uncapped_as_breaking() -> None:
    old = _ruleset(RULES)
    new = _ruleset(RULES.replace("dive +1\n", "dive +1 capped\n"))
    said = [(c.level, c.path, c.message) for c in semantic.diff(old, new).changes]
    assert said == [
        (
            "breaking",
            "speed",
            "Speed: 0 to 8, debris -2, front -1, climb -2, bomber climb -3, dive +1"
            " -> 0 to 8, debris -2, front -1, climb -2, bomber climb -3, dive +1 capped",
        )
    ]
    back = semantic.diff(new, old).changes
    assert [(c.level, c.path) for c in back] == [("breaking", "speed")]


def test_rules_without_a_capped_change_keep_their_digest() -> None:
    plain, _ = Parser().parse(HEADER + RULES, "air.terrain")
    assert plain is not None
    decl = next(st for st in plain.statements if isinstance(st, StateDecl))
    assert isinstance(decl, StateDecl) and decl.ends is None


def test_a_house_rule_caps_a_change_with_its_own_state_line(tmp_path: Path) -> None:
    (tmp_path / "air.terrain").write_text(HEADER + RULES, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends air@^1.0\nremove speed\n'
        'state speed "Speed" : 0 to 8, bomber 0 to 6, dive +1 capped\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    speed = next(v for v in compiled.ruleset.states if v.id == "speed")
    assert speed.changes == (ir.StateChange("dive", 1, "", capped=True),)
