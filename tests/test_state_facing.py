"""State carried between moves on routes with facing (issue 40): a unit type with a ``facing``
line and ``state`` lines (an aircraft's heading, speed and altitude). ``route_cost`` of (place,
heading) pairs, ``cheapest_route`` and ``reachable`` take ``state=`` and carry it as plain
routes do: changed by the features a step enters or crosses and by the kind of move, a step
that takes it out of its range makes the route illegal (the same reason) and is never taken by
the searches, ``FacingRoute.state`` says where it ends, and a roll due in a band of a state is
due only there. The module, the reference semantics and the JavaScript module answer alike."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.js.facing import facing_js
from rulesdsl.codegen.targets import render_python as render
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import facing as semantic_facing
from tests import typescript
from tests.conftest import MYPY_CACHE, compile_snippet, import_rendered
from tests.guide_answers import js_differential
from tests.test_js_target import node, write_package
from tests.test_module_layout import ruff_would_reformat
from tests.test_sight_and_results import located
from tests.test_state import HEADER, RULES

__all__ = ["node"]  # the fixture

FACING = """facing fighter on hexes : turn 1 MP per hexside
facing bomber on hexes : turn 1 MP per hexside, turn mode 1
"""
ROW = [((q, 0), 0) for q in range(4)]
"""Three steps east along the top row, the second into the debris."""


def _ruleset(compiler: Compiler, body: str = RULES + FACING) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def air(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset(Compiler())
    return rs, import_rendered(rs, tmp_path_factory.mktemp("air"), "state_facing_module")


def _board(module: Any) -> Any:
    """Two rows of five hexes; debris in the middle of the top row, a storm below it."""
    places = {(q, r): ("clear",) for q in range(5) for r in range(2)}
    places[(2, 0)] = ("clear", "debris")
    places[(2, 1)] = ("storm",)
    return module.Board(places, grid="hexes")


def _reference(rs: ir.Ruleset, mode: str, route: Any, board: Any, **kwargs: Any) -> Any:
    """The reference semantics' answer to a route of (place, heading) pairs."""
    actions = []
    for (a, _), (b, k) in pairwise(route):
        if a == b:
            actions.append(semantic_facing.Action("turn", heading=k))
        else:
            entered, crossed = board.places[b], board.edges.get((a, b), ())
            actions.append(semantic_facing.Action("forward", entered, crossed))
    return semantic_facing.route(rs, mode, actions, **kwargs)


def test_a_state_beside_facing_lines_is_no_longer_an_error(compiler: Compiler) -> None:
    assert located(compiler, HEADER + RULES + FACING) == []


def test_a_facing_route_carries_the_state_and_says_where_it_ends(
    air: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = air
    board = _board(module)
    start = {"speed": 5, "altitude": 2}
    answer = module.route_cost(board, "fighter", ROW, state=start)
    assert (answer.total, answer.legal, answer.state) == (4.0, True, {"speed": 3, "altitude": 2})
    reference = _reference(rs, "fighter", ROW, board, state=start)
    assert (reference.legal, reference.state) == (True, answer.state)
    assert module.route_cost(board, "fighter", ROW).state is None


def test_a_facing_step_that_takes_a_state_out_of_its_range_is_not_legal(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """A turn first: the steps are counted by action, as the facing reasons count them."""
    rs, module = air
    board = _board(module)
    route = [((0, 0), 1), *ROW]
    start = {"speed": 1, "altitude": 2}
    answer = module.route_cost(board, "fighter", route, state=start)
    assert answer.legal is False
    assert answer.reason == "step 3 takes 'Speed' to -1 (its range is 0 to 8)"
    assert answer.state == start  # as it was before the change
    reference = _reference(rs, "fighter", route, board, state=start)
    assert (reference.reason, reference.state) == (answer.reason, answer.state)
    high = module.route_cost(board, "fighter", ROW, state={"speed": 5, "altitude": 9}, move="climb")
    assert high.reason == "the move 'Climb' takes 'Altitude' to 10 (its range is 0 to 9)"


def test_a_kind_of_move_changes_a_facing_units_state_once_and_its_own_change_wins(
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


def test_cheapest_facing_route_goes_round_what_would_take_the_state_out_of_range(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """Straight through the debris is 3; at speed 1 it would take the speed below 0, and at
    altitude 0 the storm below it would take the altitude below 0: no route. At altitude 1
    the storm is the way round (with its turns)."""
    _, module = air
    board = _board(module)
    low = {"speed": 1, "altitude": 0}
    assert module.cheapest_route(board, "fighter", ((1, 0), 0), (3, 0), state=low) is None
    best = module.cheapest_route(
        board, "fighter", ((1, 0), 0), (3, 0), state={"speed": 1, "altitude": 1}
    )
    assert [s.end for s in best.steps if s.move == "forward"] == [(1, 1), (2, 1), (3, 0)]
    assert (best.legal, best.state) == (True, {"speed": 1, "altitude": 0})
    plain = module.cheapest_route(board, "fighter", ((1, 0), 0), (3, 0))
    assert [s.end for s in plain.steps] == [(2, 0), (3, 0)]


def test_facing_reachable_takes_only_steps_that_keep_the_state_in_range(
    air: tuple[ir.Ruleset, Any],
) -> None:
    _, module = air
    places = {(q, 0): ("clear",) for q in range(5)}
    places[(2, 0)] = ("clear", "debris")
    board = module.Board(places, grid="hexes")
    for speed, ends in [(1, {(0, 0), (1, 0)}), (2, set(places))]:
        got = module.reachable(
            board, "fighter", ((0, 0), 0), 10, state={"speed": speed, "altitude": 0}
        )
        assert {place for place, _ in got} == ends, speed
    climb = module.reachable(
        board, "fighter", ((0, 0), 0), 10, state={"speed": 1, "altitude": 0}, move="climb"
    )
    assert len(climb) == 0


def test_a_roll_due_in_a_band_is_due_on_a_facing_route_only_there(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """Flak over the guns only below altitude 4: a climb to 4 takes the unit out of the band;
    a turn between the steps counts as an action."""
    rs, module = air
    board = module.Board({(q, 0): ("guns",) for q in range(3)}, grid="hexes")
    route = [((0, 0), 0), ((1, 0), 0), ((1, 0), 1), ((1, 0), 0), ((2, 0), 0)]
    for kwargs, steps in [
        ({"state": {"speed": 5, "altitude": 3}}, [1, 4]),
        ({"state": {"speed": 5, "altitude": 3}, "move": "climb"}, []),
        ({"state": {"speed": 5, "altitude": 4}, "move": "dive"}, [1, 4]),
        ({}, [1, 4]),
    ]:
        answer = module.route_cost(board, "fighter", route, **kwargs)
        assert [d.step for d in answer.rolls] == steps, kwargs
        reference = _reference(rs, "fighter", route, board, **kwargs)
        assert [d.step for d in reference.rolls] == steps, kwargs


@pytest.mark.parametrize(
    ("state", "error", "words"),
    [
        (5, "ArgumentTypeError", "must be a mapping of states to values"),
        ({"speed": 9, "altitude": 0}, "InvalidArgument", "must give 'speed' a whole number"),
        ({"speed": 1, "altitude": 0, "fuel": 2}, "InvalidArgument", "names 'fuel'"),
    ],
)
def test_a_bad_state_is_refused_by_every_facing_route_function(
    air: tuple[ir.Ruleset, Any], state: Any, error: str, words: str
) -> None:
    _, module = air
    board = _board(module)
    calls = [
        lambda: module.route_cost(board, "fighter", ROW, state=state),
        lambda: module.cheapest_route(board, "fighter", ((0, 0), 0), (3, 0), state=state),
        lambda: module.reachable(board, "fighter", ((0, 0), 0), 5, state=state),
    ]
    for call in calls:
        with pytest.raises(getattr(module, error), match=words):
            call()


def test_rules_without_state_lines_keep_their_facing_modules(compiler: Compiler) -> None:
    """No ``state`` parameter, no FacingRoute.state: void_patrol's Python and JS facing parts
    are as generated."""
    root = Path(__file__).parent.parent
    compiled = compiler.compile_file(root / "rulesets" / "void_patrol.terrain")
    assert compiled.ruleset is not None
    python = render(compiled.ruleset)
    assert python == (root / "generated" / "python" / "void_patrol.py").read_text("utf-8")
    assert "state: object = None" not in python and "carried" not in python
    js = "\n".join(facing_js(module_plan.build(compiled.ruleset).movement))
    assert "[state]" not in js and "carried" not in js and "[no state]" not in js
    assert js in (root / "generated" / "js" / "void_patrol" / "void_patrol.js").read_text("utf-8")


def test_the_facing_route_functions_take_the_state(air: tuple[ir.Ruleset, Any]) -> None:
    _, module = air
    for function in (module.route_cost, module.cheapest_route, module.reachable):
        assert "state" in inspect.signature(function).parameters
    assert "state" in module.FacingRoute._fields


@pytest.mark.parametrize("wind", [False, True])
def test_a_module_with_state_and_facing_lines_comes_out_formatted_and_typed(
    compiler: Compiler, tmp_path: Path, wind: bool
) -> None:
    """With a unit type that tacks too (the wind's parameter beside the state's)."""
    facing = FACING.replace("per hexside\n", "per hexside, tack +2 MP\n", 1) if wind else FACING
    import_rendered(_ruleset(compiler, RULES + facing), tmp_path, "state_facing_layout")
    assert ruff_would_reformat(tmp_path) == []
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(MYPY_CACHE),
            str(tmp_path / "state_facing_layout.py"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout


def test_js_module_answers_facing_state_questions_as_python(node: str, tmp_path: Path) -> None:
    rs = _ruleset(Compiler())
    answers = [str(e) for e in js_differential(rs, "facing_state", 40, tmp_path)]
    # the questions reach the rules (the Python answers; the JavaScript agrees)
    assert any("takes 'Speed'" in a for a in answers) and any("'altitude': " in a for a in answers)
    assert any("InvalidArgument" in a for a in answers) and any("reach" in a for a in answers)


@typescript.TSC
@pytest.mark.parametrize("wind", [False, True])
def test_the_declarations_type_a_consumer_passing_a_state_to_a_facing_unit(
    node: str, tmp_path: Path, pytestconfig: Any, wind: bool
) -> None:
    """With a unit type that tacks, reachable's facing overload takes the wind and the state."""
    facing = FACING.replace("per hexside\n", "per hexside, tack +2 MP\n", 1) if wind else FACING
    write_package(module_plan.build(_ruleset(Compiler(), RULES + facing)), tmp_path)
    consumer = (Path(__file__).parent / "js" / "state_facing_consumer.ts").read_text("utf-8")
    if wind:
        options = "{ wind: 0, state: { speed: 5, altitude: 2 } }"
        consumer += f'm.reachable(b, "fighter", [[0, 0], 0], 4, {options});\n'
    (tmp_path / "consumer.ts").write_text(consumer, "utf-8")
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "consumer.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    """docs/language.md, "State carried between moves": the facing line added to the section's
    rules, the section's board set up, then each commented call of the facing example."""
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[
        doc.index("## State carried between moves") : doc.index("## Rolls due on the map")
    ]
    terrain, facing = (part.split("```")[0] for part in section.split("```terrain\n")[1:3])
    compiled = compile_snippet(Compiler(), terrain + facing)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    module = import_rendered(compiled.ruleset, tmp_path, "state_facing_guide")
    names = {n: getattr(module, n) for n in ("Board", "route_cost", "cheapest_route", "reachable")}
    board, example = (part.split("```")[0] for part in section.split("```python\n")[1:3])
    exec("\n".join(line for line in board.splitlines()[:4]), names)
    lines = example.splitlines()
    asked = 0
    for i, line in enumerate(lines):
        if line.startswith("#"):
            continue
        if i + 1 < len(lines) and lines[i + 1].startswith("# "):
            assert eval(line, names) == ast.literal_eval(lines[i + 1][2:]), line
            asked += 1
        else:
            exec(line, names)
    assert asked == 3
