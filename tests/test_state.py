"""State carried between moves (issue 40, item 1): ``state speed "Speed" : 0 to 8, debris -2,
climb -2, bomber climb -3`` declares a whole number a unit carries from move to move, its range,
and what changes it (entering or crossing a feature, each step; making a kind of move, once a
move; a unit type's own change first). Route searches given ``state={...}`` carry it, refuse a
step that takes it out of its range and say where it ends (``Route.state``). The module and the
reference semantics answer alike, and the JavaScript module as the Python one."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import shutil
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics import moves as semantic_moves
from rulesdsl.semantics import routes as semantic_routes
from rulesdsl.versions import diff as semantic
from tests import typescript
from tests.conftest import MYPY_CACHE, compile_snippet, import_rendered
from tests.guide_answers import js_differential
from tests.test_js_target import node, write_package
from tests.test_module_layout import ruff_would_reformat
from tests.test_sight_and_results import located

__all__ = ["node"]  # the fixture

HEADER = """ruleset air "Air"
version 1.0.0
units distance hex, cost MP
mode fighter "Fighter"
mode bomber "Bomber"
move climb "Climb" : allowance times 1
move dive "Dive" : allowance times 1
grid hexes "Hex" : 1 hex, hex
"""
RULES = """roll flak "Flak" : 2d6 on entering when altitude below 4
layer sky "Sky" one per place {
  columns cost, flak
  clear "Clear" | 1 |
  storm "Storm" | 2 |
  guns "Flak guns" | 1 | 0
}
layer hazards "Hazards" {
  debris "Debris field" | +1
}
layer hexsides "Hexsides" edges {
  front "Weather front" | +1
}
state speed "Speed" : 0 to 8, debris -2, front -1, climb -2, bomber climb -3, dive +1
state altitude "Altitude" : 0 to 9, climb +1, dive -1, storm -1
"""


def _ruleset(compiler: Compiler, body: str = RULES) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def air(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset(Compiler())
    return rs, import_rendered(rs, tmp_path_factory.mktemp("air"), "state_module")


def _board(module: Any) -> Any:
    """Two rows of five hexes; debris in the middle of the top row, a storm below it."""
    places = {(q, r): ("clear",) for q in range(5) for r in range(2)}
    places[(2, 0)] = ("clear", "debris")
    places[(2, 1)] = ("storm",)
    return module.Board(places, grid="hexes")


def _reference(
    rs: ir.Ruleset, mode: str, route: Any, board: Any, **kwargs: Any
) -> semantic_routes.RouteAnswer:
    steps = [(board.places[b], board.edges.get((a, b), ())) for a, b in pairwise(route)]
    return semantic_routes.route(rs, mode, steps, **kwargs)


ROW = [(0, 0), (1, 0), (2, 0), (3, 0)]


def test_a_route_carries_the_state_and_says_where_it_ends(air: tuple[ir.Ruleset, Any]) -> None:
    rs, module = air
    board = _board(module)
    start = {"speed": 5, "altitude": 2}
    answer = module.route_cost(board, "fighter", ROW, state=start)
    assert (answer.total, answer.legal, answer.state) == (4.0, True, {"speed": 3, "altitude": 2})
    reference = _reference(rs, "fighter", ROW, board, state=start)
    assert (reference.legal, reference.state) == (True, answer.state)


def test_a_kind_of_move_changes_the_state_once_and_a_unit_types_own_change_wins(
    air: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = air
    board = _board(module)
    start = {"speed": 5, "altitude": 2}
    for mode, end in [
        ("fighter", {"speed": 1, "altitude": 3}),
        ("bomber", {"speed": 0, "altitude": 3}),
    ]:
        answer = module.route_cost(board, mode, ROW, state=start, move="climb")
        assert (answer.legal, answer.state) == (True, end), mode
        assert _reference(rs, mode, ROW, board, state=start, move="climb").state == end


def test_a_step_that_takes_a_state_out_of_its_range_is_not_legal(
    air: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = air
    board = _board(module)
    start = {"speed": 1, "altitude": 2}
    answer = module.route_cost(board, "fighter", ROW, state=start)
    assert answer.legal is False
    assert answer.reason == "step 2 takes 'Speed' to -1 (its range is 0 to 8)"
    assert answer.state == {"speed": 1, "altitude": 2}  # as it was before the change
    reference = _reference(rs, "fighter", ROW, board, state=start)
    assert (reference.reason, reference.state) == (answer.reason, answer.state)
    high = module.route_cost(board, "fighter", ROW, state={"speed": 5, "altitude": 9}, move="climb")
    assert high.reason == "the move 'Climb' takes 'Altitude' to 10 (its range is 0 to 9)"


def test_without_a_state_the_route_is_costed_as_before(air: tuple[ir.Ruleset, Any]) -> None:
    _, module = air
    board = _board(module)
    answer = module.route_cost(board, "fighter", ROW)
    assert (answer.total, answer.legal, answer.state) == (4.0, True, None)
    assert module.cheapest_route(board, "fighter", (0, 0), (3, 0)).steps[1].end == (2, 0)


def test_cheapest_route_goes_round_a_place_that_would_take_the_state_out_of_range(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """Through the debris is 3; at speed 1 the debris would take the speed below 0, and at
    altitude 0 the storm below it would take the altitude below 0: no route. At altitude 1 the
    storm is the way round (4)."""
    _, module = air
    board = _board(module)
    low = {"speed": 1, "altitude": 0}
    assert module.cheapest_route(board, "fighter", (1, 0), (3, 0), state=low) is None
    best = module.cheapest_route(
        board, "fighter", (1, 0), (3, 0), state={"speed": 1, "altitude": 1}
    )
    assert [s.end for s in best.steps] == [(1, 1), (2, 1), (3, 0)]
    assert (best.total, best.legal, best.state) == (4.0, True, {"speed": 1, "altitude": 0})


def test_reachable_counts_a_place_only_by_steps_that_keep_the_state_in_range(
    air: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = air
    places = {(q, 0): ("clear",) for q in range(5)}
    places[(2, 0)] = ("clear", "debris")
    board = module.Board(places, grid="hexes")
    neighbours = {p: [q for q, _ in board.neighbours(p)] for p in places}
    for speed, ends in [(1, {(0, 0), (1, 0)}), (2, set(places))]:
        start = {"speed": speed, "altitude": 0}
        got = module.reachable(board, "fighter", (0, 0), 10, state=start)
        assert set(got) == ends, speed
        reference = semantic_routes.reachable(
            rs, "fighter", (0, 0), 10, places, neighbours, {}, state=start
        )
        assert reference == dict(got)
    assert (
        len(
            module.reachable(
                board, "fighter", (0, 0), 10, state={"speed": 1, "altitude": 0}, move="climb"
            )
        )
        == 0
    )


@pytest.mark.parametrize(
    ("state", "error", "words"),
    [
        (5, "ArgumentTypeError", "must be a mapping of states to values"),
        ({"speed": 5}, "InvalidArgument", "must give 'altitude' a whole number from 0 to 9"),
        (
            {"speed": 9, "altitude": 0},
            "InvalidArgument",
            "must give 'speed' a whole number from 0 to 8",
        ),
        ({"speed": True, "altitude": 0}, "InvalidArgument", "must give 'speed' a whole number"),
        (
            {"speed": 1, "altitude": 0, "fuel": 2},
            "InvalidArgument",
            "names 'fuel', which is not a state",
        ),
    ],
)
def test_a_bad_state_is_refused_by_every_route_function(
    air: tuple[ir.Ruleset, Any], state: Any, error: str, words: str
) -> None:
    _, module = air
    board = _board(module)
    calls = [
        lambda: module.route_cost(board, "fighter", ROW, state=state),
        lambda: module.cheapest_route(board, "fighter", (0, 0), (3, 0), state=state),
        lambda: module.reachable(board, "fighter", (0, 0), 5, state=state),
    ]
    for call in calls:
        with pytest.raises(getattr(module, error), match=words):
            call()


def test_rules_without_state_lines_keep_their_route_functions(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler, RULES.split("state ")[0].replace(" when altitude below 4", ""))
    module = import_rendered(rs, tmp_path, "stateless_module")
    assert "state" not in inspect.signature(module.route_cost).parameters
    assert not hasattr(module, "STATES") and "state" not in module.Route._fields


def test_the_module_lists_the_states_and_their_ranges(air: tuple[ir.Ruleset, Any]) -> None:
    _, module = air
    assert dict(module.STATES) == {"speed": (0, 8), "altitude": (0, 9)}


def test_js_module_answers_state_questions_as_python(node: str, tmp_path: Path) -> None:
    rs = _ruleset(Compiler())
    answers = [str(e) for e in js_differential(rs, "state", 40, tmp_path)]
    # the questions reach the rules (the Python answers; the JavaScript agrees)
    assert any("takes 'Speed'" in a for a in answers) and any("'altitude': " in a for a in answers)
    assert any("InvalidArgument" in a for a in answers)


# ---- checks -----------------------------------------------------------------------------------

LINE = (
    HEADER.count("\n")
    + RULES.split("state ")[0].replace(" when altitude below 4", "").count("\n")
    + 1
)
BODY = RULES.split("state ")[0].replace(" when altitude below 4", "")


@pytest.mark.parametrize(
    ("line", "code", "column"),
    [
        ('state speed "Speed" : 8 to 0\n', "E400", 23),
        ('state speed "Speed" : 0 to 2.5\n', "E400", 23),
        ('state speed "Speed" : 0 to 3, debris -4\n', "E401", 31),
        ('state speed "Speed" : 0 to 3, debris 0\n', "E401", 31),
        ('state speed "Speed" : 0 to 3, debris -1.5\n', "E401", 31),
        ('state speed "Speed" : 0 to 3, debris -1, debris -2\n', "E402", 42),
        ('state speed "Speed" : 0 to 3, climb -1, bomber climb -2, bomber climb -1\n', "E402", 65),
        ('state speed "Speed" : 0 to 3, debirs -1\n', "E101", 31),
        ('state speed "Speed" : 0 to 3, jet climb -1\n', "E101", 31),
    ],
)
def test_each_misuse_of_a_state_line_gets_its_code_at_its_place(
    compiler: Compiler, line: str, code: str, column: int
) -> None:
    assert located(compiler, HEADER + BODY + line) == [(code, LINE, column)]


def test_a_state_beside_a_whole_move_limit_is_no_longer_e403(compiler: Compiler) -> None:
    state = 'state speed "Speed" : 0 to 3\n'
    limit = 'whole move one "One front" : at most 1 front\n'
    assert located(compiler, HEADER + BODY + state + limit) == []


# ---- YAML, sheets, diff, house rules, docs ----------------------------------------------------


def test_state_lines_survive_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + RULES, "air.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "range:" in yaml_text and "bomber climb -3" in yaml_text
    yaml_path = tmp_path / "air.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "air.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p) for p in (yaml_path, back)]
    plain = [dataclasses.replace(c.ruleset, digest="") for c in found if c.ruleset is not None]
    assert len(plain) == 2 and plain[0] == plain[1], [str(d) for c in found for d in c.diagnostics]
    assert plain[0].states == _ruleset(Compiler()).states


def test_a_bad_change_in_yaml_is_reported_at_its_place(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + RULES, "air.terrain")
    assert source is not None
    path = tmp_path / "air.yaml"
    path.write_text(to_yaml(source).replace("debris -2", "debris --2"), "utf-8")
    found = [
        (d.code, d.pos is not None) for d in Compiler().compile_file(path).diagnostics if d.is_error
    ]
    assert found == [("E001", True)]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            "| Speed | 0 to 8 | Debris field -2, Weather front -1, Climb -2 (Bomber -3), Dive +1 |",
        ),
        ("fr", "| Speed | de 0 à 8 |"),
        ("en", "only while Altitude is below 4."),
        ("fr", "seulement si Altitude est inférieur à 4."),
        ("de", "nur solange Altitude unter 4 liegt."),
        ("ru", "только пока Altitude ниже 4."),
        ("de", "| Speed | 0 bis 8 |"),
        ("ru", "| Speed | от 0 до 8 |"),
    ],
)
def test_the_sheet_lists_each_state_its_range_and_changes_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "air.terrain"
    text = HEADER.replace("version 1.0.0\n", "version 1.0.0\nlanguages en fr de ru\n") + RULES
    ruleset.write_text(text, "utf-8")
    target = tmp_path / f"air.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert words in target.read_text("utf-8")


def test_diff_grades_a_state_changed_or_added_as_breaking(compiler: Compiler) -> None:
    old = _ruleset(compiler)
    new = _ruleset(
        compiler,
        RULES.replace("debris -2", "debris -3").replace("below 4", "below 5")
        + 'state fuel "Fuel" : 0 to 20, climb -1\n',
    )
    d = semantic.diff(old, new)
    assert [(c.level, c.action, c.path, c.message) for c in d.changes] == [
        (
            "breaking",
            "changed",
            "flak",
            "Flak: 2d6 on entering, combine sum, when altitude below 4 -> "
            "2d6 on entering, combine sum, when altitude below 5",
        ),
        ("breaking", "added", "fuel", "state added: Fuel"),
        (
            "breaking",
            "changed",
            "speed",
            "Speed: 0 to 8, debris -2, front -1, climb -2, bomber climb -3, dive +1 -> "
            "0 to 8, debris -3, front -1, climb -2, bomber climb -3, dive +1",
        ),
    ]


def test_a_house_rule_removes_a_state_and_writes_its_own(tmp_path: Path) -> None:
    (tmp_path / "air.terrain").write_text(HEADER + RULES, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends air@^1.0\nremove speed\n'
        'state speed "Speed" : 0 to 10, debris -1\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    speed = next(v for v in compiled.ruleset.states if v.id == "speed")
    assert (speed.high, speed.changes) == (10, (ir.StateChange("debris", -1),))


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[
        doc.index("## State carried between moves") : doc.index("## Rolls due on the map")
    ]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    start = section.index("```python\n") + len("```python\n")
    python = section[start : section.index("```", start)].splitlines()
    compiled = compile_snippet(Compiler(), terrain)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    module = import_rendered(compiled.ruleset, tmp_path, "state_guide")
    names: dict[str, Any] = {n: getattr(module, n) for n in ("Board", "route_cost")}
    names["cheapest_route"] = module.cheapest_route
    asked = 0
    for i, line in enumerate(python):
        if line.startswith("#"):
            continue
        if i + 1 < len(python) and python[i + 1].startswith("# "):
            expected = ast.literal_eval(python[i + 1][2:])
            assert eval(line, names) == expected, line
            asked += 1
        else:
            exec(line, names)
    assert asked == 6


@pytest.mark.parametrize(
    "whole",
    [
        "",
        'whole move no_fire "May not fire" : crosses front\n',
        'whole move one "One front" : at most 1 front\n',
        'whole move low "Low" : on clear, allowance +2 MP\n',
    ],
    ids=["state", "state and a whole-move rule", "state and a limit", "state and a bonus"],
)
def test_a_module_with_state_lines_comes_out_formatted_and_typed(
    compiler: Compiler, tmp_path: Path, whole: str
) -> None:
    body = RULES + whole
    import_rendered(_ruleset(compiler, body), tmp_path, "state_layout")
    assert ruff_would_reformat(tmp_path) == []
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(MYPY_CACHE),
            str(tmp_path / "state_layout.py"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout


@typescript.TSC
def test_the_declarations_type_a_consumer_passing_a_state(
    node: str, tmp_path: Path, pytestconfig: Any
) -> None:
    write_package(module_plan.build(_ruleset(Compiler())), tmp_path)
    shutil.copy(Path(__file__).parent / "js" / "state_consumer.ts", tmp_path / "consumer.ts")
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "consumer.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_roll_due_in_a_band_of_a_state_is_due_only_there(air: tuple[ir.Ruleset, Any]) -> None:
    """Flak over the guns only below altitude 4, read after the step: a climb to 4 before the
    first step takes the unit out of the band; without a state the roll is due as before."""
    rs, module = air
    places = {(q, 0): ("guns",) for q in range(3)}
    board = module.Board(places, grid="hexes")
    route = [(0, 0), (1, 0), (2, 0)]
    for kwargs, steps in [
        ({"state": {"speed": 5, "altitude": 3}}, [1, 2]),
        ({"state": {"speed": 5, "altitude": 3}, "move": "climb"}, []),
        ({"state": {"speed": 5, "altitude": 4}, "move": "dive"}, [1, 2]),
        ({}, [1, 2]),
    ]:
        answer = module.route_cost(board, "fighter", route, **kwargs)
        assert [d.step for d in answer.rolls if d.roll == "flak"] == steps, kwargs
        if kwargs:
            pairs = [(places[b], ()) for b in route[1:]]
            ref = semantic_routes.route(rs, "fighter", pairs, **kwargs)
            dues = semantic_moves.route_rolls(rs, "fighter", pairs, kwargs.get("move"), route)
            along = semantic_routes.states_along(
                rs, "fighter", kwargs.get("move"), kwargs["state"], ref.steps
            )
            kept = semantic_routes.state_rolls(rs, dues, along)
            assert [d.step for d in kept if d.roll == "flak"] == steps, kwargs


def test_a_roll_band_on_an_undeclared_state_or_not_whole_is_an_error(compiler: Compiler) -> None:
    base = HEADER + RULES
    assert located(compiler, base.replace("altitude below 4", "height below 4")) == [
        ("E101", HEADER.count("\n") + 1, 41)
    ]
    assert located(compiler, base.replace("altitude below 4", "altitude below 3.5")) == [
        ("E404", HEADER.count("\n") + 1, 41)
    ]


def test_a_decision_may_not_take_a_name_the_state_part_of_the_module_defines(
    compiler: Compiler,
) -> None:
    """`STATES` is a constant of every module with `state` lines: a decision of that name
    would shadow it (the reserved names read the state part of the template too)."""
    decision = 'decision STATES "S" (x points) {\n  x > 1 -> a "A"\n  otherwise -> b "B"\n}\n'
    line = (HEADER + RULES).count("\n") + 1
    assert located(compiler, HEADER + RULES + decision) == [("E103", line, 10)]
    assert located(compiler, HEADER + decision) == []  # no state part: the name is free
