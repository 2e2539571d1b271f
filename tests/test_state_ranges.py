"""A unit type's own range of a state (issue 40, item 1): ``state speed "Speed" : 0 to 8,
bomber 0 to 6, dive +1`` gives bombers a top speed of 6. As for the range for all, a change that
would take a bomber's state past its own range breaks the route (it is not capped there), route
searches go round, and ``state=`` is checked by the unit's own range. The module, the reference
semantics and the JavaScript module answer alike; rules without own ranges keep their module."""

from __future__ import annotations

import ast
import dataclasses
import random
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
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics import routes as semantic_routes
from rulesdsl.versions import diff as semantic
from tests import js_queries
from tests.conftest import MYPY_CACHE, compile_snippet, import_rendered
from tests.test_js_target import node, write_package
from tests.test_module_layout import ruff_would_reformat
from tests.test_sight_and_results import located
from tests.test_state import BODY, HEADER, LINE, RULES

__all__ = ["node"]  # the fixture

OWN = RULES.replace(
    'state speed "Speed" : 0 to 8,', 'state speed "Speed" : 0 to 8, bomber 0 to 6,'
).replace(
    'state altitude "Altitude" : 0 to 9,', 'state altitude "Altitude" : 0 to 9, bomber 1 to 7,'
)
ROW = [(0, 0), (1, 0), (2, 0), (3, 0)]


def _ruleset(body: str = OWN) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset()
    return rs, import_rendered(rs, tmp_path_factory.mktemp("own"), "own_ranges_module")


def _board(module: Any) -> Any:
    return module.Board({(q, r): ("clear",) for q in range(5) for r in range(2)}, grid="hexes")


def _reference(rs: ir.Ruleset, mode: str, route: Any, board: Any, **kw: Any) -> Any:
    steps = [(board.places[b], board.edges.get((a, b), ())) for a, b in pairwise(route)]
    return semantic_routes.route(rs, mode, steps, **kw)


def test_a_change_past_a_unit_types_own_top_breaks_the_route(own: tuple[ir.Ruleset, Any]) -> None:
    rs, module = own
    board = _board(module)
    start = {"speed": 6, "altitude": 3}
    fighter = module.route_cost(board, "fighter", ROW, state=start, move="dive")
    assert (fighter.legal, fighter.state) == (True, {"speed": 7, "altitude": 2})
    bomber = module.route_cost(board, "bomber", ROW, state=start, move="dive")
    assert bomber.legal is False
    assert bomber.reason == "the move 'Dive' takes 'Speed' to 7 (its range is 0 to 6)"
    assert bomber.state == start  # refused, not capped at 6: as the range for all
    reference = _reference(rs, "bomber", ROW, board, state=start, move="dive")
    assert (reference.reason, reference.state) == (bomber.reason, bomber.state)


def test_a_unit_types_own_bottom_counts_too(own: tuple[ir.Ruleset, Any]) -> None:
    rs, module = own
    board = _board(module)
    start = {"speed": 3, "altitude": 1}
    answer = module.route_cost(board, "bomber", ROW, state=start, move="dive")
    assert answer.reason == "the move 'Dive' takes 'Altitude' to 0 (its range is 1 to 7)"
    assert module.route_cost(board, "fighter", ROW, state=start, move="dive").legal is True
    reference = _reference(rs, "bomber", ROW, board, state=start, move="dive")
    assert reference.reason == answer.reason


def test_state_is_checked_by_the_unit_types_own_range(own: tuple[ir.Ruleset, Any]) -> None:
    _, module = own
    board = _board(module)
    state = {"speed": 7, "altitude": 3}
    assert module.route_cost(board, "fighter", ROW, state=state).legal is True
    calls = [
        lambda: module.route_cost(board, "bomber", ROW, state=state),
        lambda: module.cheapest_route(board, "bomber", (0, 0), (3, 0), state=state),
        lambda: module.reachable(board, "bomber", (0, 0), 5, state=state),
    ]
    for call in calls:
        with pytest.raises(module.InvalidArgument, match="'speed' a whole number from 0 to 6"):
            call()


def test_searches_go_round_what_would_break_a_unit_types_own_range(
    own: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = own
    places = {(q, r): ("clear",) for q in range(5) for r in range(2)}
    places[(1, 0)] = ("storm",)  # storm: altitude -1
    board = module.Board(places, grid="hexes")
    start = {"speed": 3, "altitude": 1}
    route = module.cheapest_route(board, "bomber", (0, 0), (2, 0), state=start)
    assert (1, 0) not in [s.end for s in route.steps] and route.legal
    assert (1, 0) in [s.end for s in module.cheapest_route(board, "fighter", (0, 0), (2, 0)).steps]
    reach = module.reachable(board, "bomber", (0, 0), 1, state=start)
    assert (1, 0) not in reach and (0, 1) in reach
    neighbours = {p: [q for q, _ in board.neighbours(p)] for p in places}
    reference = semantic_routes.reachable(
        rs, "bomber", (0, 0), 1, places, neighbours, {}, state=start
    )
    assert reference == dict(reach)


def test_the_module_lists_each_unit_types_own_ranges(own: tuple[ir.Ruleset, Any]) -> None:
    _, module = own
    assert dict(module.STATES) == {"speed": (0, 8), "altitude": (0, 9)}
    assert dict(module._STATE_RANGES) == {"bomber": ((0, 6), (1, 7))}


@pytest.mark.parametrize(
    ("family", "facing"),
    [("state", ""), ("facing_state", "facing bomber on hexes : turn 1 MP per hexside\n")],
)
def test_js_module_answers_own_range_questions_as_python(
    node: str, tmp_path: Path, family: str, facing: str
) -> None:
    rs = _ruleset(OWN + facing)
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "js_own")
    module = write_package(plan, tmp_path / "js")
    queries = list(js_queries.families()[family](random.Random(7), plan))
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [(q, e, g) for q, e, g in zip(queries, expected, got, strict=True)]
    assert [w for w in wrong if not js_queries.same(w[1], w[2])][:3] == []
    answers = [str(e) for e in expected]  # the questions reach the own ranges
    assert any("(its range is 0 to 6)" in a or "from 0 to 6" in a for a in answers)
    assert any("(its range is 1 to 7)" in a or "from 1 to 7" in a for a in answers)


def test_rules_without_own_ranges_keep_their_module_text(tmp_path: Path) -> None:
    rs = _ruleset(RULES)
    module = import_rendered(rs, tmp_path, "one_range")
    text = (tmp_path / "one_range.py").read_text("utf-8")
    assert "_STATE_RANGES" not in text and "_ranges(" not in text
    assert "def _out_of_range(values: tuple[int, ...]) -> str:" in text
    assert not hasattr(module, "_STATE_RANGES")
    runtime = js_routes.runtime_routes(True)
    assert "[own range]" not in runtime and "[one range]" not in runtime
    assert '_carriedArg("route_cost", options?.state);' in runtime


def test_a_module_with_own_ranges_comes_out_formatted_and_typed(tmp_path: Path) -> None:
    import_rendered(_ruleset(), tmp_path, "own_layout")
    assert ruff_would_reformat(tmp_path) == []
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(MYPY_CACHE),
            str(tmp_path / "own_layout.py"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize(
    ("line", "code", "column"),
    [
        ('state speed "Speed" : 0 to 8, bomber 6 to 2\n', "E465", 31),
        ('state speed "Speed" : 0 to 8, bomber 0 to 2.5\n', "E465", 31),
        ('state speed "Speed" : 0 to 8, bomber 0 to 9\n', "E466", 31),
        ('state speed "Speed" : 0 to 8, bomber 0 to 6, bomber 0 to 5\n', "E467", 46),
        ('state speed "Speed" : 0 to 8, jet 0 to 6\n', "E101", 31),
    ],
)
def test_each_misuse_of_an_own_range_gets_its_code_at_its_place(
    line: str, code: str, column: int
) -> None:
    assert located(Compiler(), HEADER + BODY + line) == [(code, LINE, column)]


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[
        doc.index("### A unit type's own range") : doc.index("### A modifier in a band of a state")
    ]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    start = section.index("```python\n") + len("```python\n")
    python = section[start : section.index("```", start)].splitlines()
    compiled = compile_snippet(Compiler(), terrain)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    module = import_rendered(compiled.ruleset, tmp_path, "own_guide")
    names: dict[str, Any] = {"Board": module.Board, "route_cost": module.route_cost}
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


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "0 to 8 (Bomber 0 to 6)"),
        ("fr", "de 0 à 8 (Bomber de 0 à 6)"),
        ("de", "0 bis 8 (Bomber 0 bis 6)"),
        ("ru", "от 0 до 8 (Bomber от 0 до 6)"),
    ],
)
def test_the_sheet_gives_a_unit_types_own_range_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "air.terrain"
    languages = "version 1.0.0\nlanguages en fr de ru\n"
    ruleset.write_text(HEADER.replace("version 1.0.0\n", languages) + OWN, "utf-8")
    target = tmp_path / f"air.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert words in target.read_text("utf-8")


def test_own_ranges_survive_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + OWN, "air.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "bomber 0 to 6" in yaml_text and "ranges:" in yaml_text
    yaml_path = tmp_path / "air.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "air.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p) for p in (yaml_path, back)]
    plain = [dataclasses.replace(c.ruleset, digest="") for c in found if c.ruleset is not None]
    assert len(plain) == 2 and plain[0] == plain[1], [str(d) for c in found for d in c.diagnostics]
    assert plain[0].states == _ruleset().states


def test_a_bad_own_range_in_yaml_is_reported_at_its_place(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + OWN, "air.terrain")
    assert source is not None
    path = tmp_path / "air.yaml"
    path.write_text(to_yaml(source).replace("bomber 0 to 6", "bomber 0 to 9"), "utf-8")
    found = [
        (d.code, d.pos is not None) for d in Compiler().compile_file(path).diagnostics if d.is_error
    ]
    assert found == [("E466", True)]


def test_diff_grades_an_own_range_added_or_changed_as_breaking() -> None:
    old = _ruleset()
    new = _ruleset(OWN.replace("bomber 0 to 6", "bomber 0 to 5"))
    said = [(c.level, c.path, c.message) for c in semantic.diff(old, new).changes]
    assert said == [
        (
            "breaking",
            "speed",
            "Speed: 0 to 8, bomber 0 to 6, debris -2, front -1, climb -2, bomber climb -3, dive +1"
            " -> 0 to 8, bomber 0 to 5, debris -2, front -1, climb -2, bomber climb -3, dive +1",
        )
    ]
    added = semantic.diff(_ruleset(RULES), old).changes
    assert [(c.level, c.path) for c in added] == [("breaking", "speed"), ("breaking", "altitude")]


def test_a_house_rule_writes_its_own_state_line_with_own_ranges(tmp_path: Path) -> None:
    (tmp_path / "air.terrain").write_text(HEADER + OWN, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends air@^1.0\nremove speed\n'
        'state speed "Speed" : 0 to 10, bomber 2 to 7, debris -1\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    speed = next(v for v in compiled.ruleset.states if v.id == "speed")
    assert (speed.high, speed.own) == (10, (ir.StateRange("bomber", 2, 7),))
