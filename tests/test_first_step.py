"""A roll due once a move in a band of a state (issue 40): ``roll stall "Stall" : stall_table on
first step when speed below 2`` is due at the first step after which the state is in the band,
wherever the unit is, and not again in that move (``on any step`` rolls after each step in it).
The module, the JavaScript module and the reference semantics answer alike; its checks, sheet
words, YAML, diff and guide example; rules without one keep their modules."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.js import moves as js_moves
from rulesdsl.codegen.js import routes as js_routes
from rulesdsl.codegen.targets import render_python
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics import moves as semantic_moves
from rulesdsl.semantics import routes as semantic_routes
from rulesdsl.versions import diff as semantic
from tests import typescript
from tests.conftest import MYPY_CACHE, compile_snippet, import_rendered
from tests.guide_answers import guide_answers, js_differential
from tests.test_js_target import node, write_package
from tests.test_module_layout import ruff_would_reformat
from tests.test_sight_and_results import located
from tests.test_stall import FACING, PLACES, ROW, STALL
from tests.test_state import HEADER
from tests.test_state import RULES as STATE_RULES
from tests.typescript import TSC_STRICT

__all__ = ["node"]  # the fixture

ONCE = STALL.replace("on any step when", "on first step when")
RULES = STATE_RULES + ONCE
BOTH = RULES + 'roll shake "Shake" : 1d6 on any step when speed below 2\n'


def _ruleset(body: str = RULES) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def air(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset()
    return rs, import_rendered(rs, tmp_path_factory.mktemp("first"), "first_step_module")


def _stalls(module: Any, places: dict[Any, tuple[str, ...]], route: list[Any], **kw: Any) -> Any:
    board = module.Board(places, grid="hexes")
    return [(d.step, d.place, d.on) for d in module.route_cost(board, "fighter", route, **kw).rolls]


SLOW = {(0, 0): ("clear",), (1, 0): ("clear",), (2, 0): ("clear", "debris"), (3, 0): ("clear",)}
"""Clear, then debris (speed -2) at the second step, then clear."""


def test_a_roll_on_first_step_is_due_once_where_the_state_falls_into_its_band(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """From speed 3 the debris takes the fighter to 1 at the first step: one stall roll there,
    not after the two steps that follow still below 2; at the second step when the debris is
    there; from 4 (it stays at 2) none."""
    _, module = air
    assert _stalls(module, PLACES, ROW, state={"speed": 3, "altitude": 5}) == [
        (1, (1, 0), "first_step")
    ]
    assert _stalls(module, SLOW, ROW, state={"speed": 3, "altitude": 5}) == [
        (2, (2, 0), "first_step")
    ]
    assert _stalls(module, PLACES, ROW, state={"speed": 4, "altitude": 5}) == []


def test_a_unit_already_in_the_band_rolls_at_its_first_step(air: tuple[ir.Ruleset, Any]) -> None:
    _, module = air
    assert _stalls(module, PLACES, ROW, state={"speed": 1, "altitude": 5}) == [
        (1, (1, 0), "first_step")
    ]
    climbed = _stalls(module, PLACES, ROW[2:], state={"speed": 3, "altitude": 5}, move="climb")
    assert climbed == [(1, (3, 0), "first_step")]


def test_without_a_state_a_roll_on_first_step_is_due_at_the_first_step(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """The band is not read without ``state=``, as for every roll in a band: due once, at 1."""
    _, module = air
    assert [s for s, _, _ in _stalls(module, PLACES, ROW)] == [1]


def test_a_roll_on_first_step_comes_after_a_roll_on_any_step(tmp_path: Path) -> None:
    module = import_rendered(_ruleset(BOTH), tmp_path, "first_and_any")
    board = module.Board(PLACES, grid="hexes")
    answer = module.route_cost(board, "fighter", ROW, state={"speed": 1, "altitude": 5})
    assert [(d.step, d.roll) for d in answer.rolls] == [
        (1, "shake"),
        (1, "stall"),
        (2, "shake"),
        (3, "shake"),
    ]


def test_the_searches_and_facing_routes_list_a_roll_on_first_step(tmp_path: Path) -> None:
    rs = _ruleset(RULES + FACING)
    module = import_rendered(rs, tmp_path, "first_facing")
    board = module.Board(PLACES, grid="hexes")
    slow = {"speed": 1, "altitude": 5}
    found = module.cheapest_route(board, "fighter", (1, 0), (3, 0), state=slow)
    assert [(d.step, d.roll) for d in found.rolls] == [(1, "stall")]
    turning = [((2, 0), 0), ((2, 0), 1), ((2, 0), 0), ((3, 0), 0)]
    faced = module.route_cost(board, "bomber", turning, state=slow)
    assert [(d.step, d.roll) for d in faced.rolls] == [(3, "stall")]


def test_the_module_answers_as_the_reference_semantics(air: tuple[ir.Ruleset, Any]) -> None:
    rs, module = air
    rng = random.Random(41)
    kinds = [("clear",), ("clear", "debris"), ("storm",), ("guns",)]
    for _ in range(200):
        route = [(q, 0) for q in range(rng.randint(1, 6))]
        places = {p: rng.choice(kinds) for p in route}
        state = {"speed": rng.randint(0, 8), "altitude": rng.randint(0, 9)}
        given = rng.choice([state, None])
        move = rng.choice([None, "climb", "dive"])
        board = module.Board(places, grid="hexes")
        got = module.route_cost(board, "fighter", route, state=given, move=move).rolls
        pairs = [(places[b], ()) for b in route[1:]]
        dues = semantic_moves.route_rolls(rs, "fighter", pairs, move, route)
        along: list[tuple[int, ...]] = []
        if given is not None:
            ref = semantic_routes.route(rs, "fighter", pairs, move=move, state=given)
            along = semantic_routes.states_along(rs, "fighter", move, given, ref.steps)
        kept = semantic_routes.state_rolls(rs, dues, along)
        assert [(d.step, d.on, d.roll) for d in got] == [(d.step, d.on, d.roll) for d in kept]


@pytest.mark.parametrize("body", [RULES + FACING, BOTH], ids=["first", "first-and-any"])
def test_js_module_answers_first_step_questions_as_python(
    node: str, tmp_path: Path, body: str
) -> None:
    expected = js_differential(_ruleset(body), "first_step", 41, tmp_path)
    assert sum("first_step" in str(e) for e in expected) > 20  # the questions reach the roll


def test_rules_without_a_roll_on_first_step_emit_no_code_for_it() -> None:
    """Byte for byte as before: the ``first_step`` lines of the route runtimes, of _state_rolls
    and the d.ts's RollTime are emitted only for rules with such a roll."""
    for body, present in [(STATE_RULES + STALL, False), (RULES, True)]:
        rs = _ruleset(body)
        plan = module_plan.build(rs)
        assert ("first_step" in render_python(rs)) is present, body
        assert ("_first_steps" in render_python(rs)) is present, body
        runtime = "\n".join(js_routes.routes_js(plan.movement))
        assert ('"first_step"' in runtime) is present
        assert ("_firstSteps" in runtime) is present
        assert "\n\n\n" not in runtime  # the dropped lines leave no blank line behind
        assert ('"first_step";' in js_moves.movement_dts(plan)) is present


def test_a_module_with_a_roll_on_first_step_comes_out_formatted_and_typed(
    tmp_path: Path,
) -> None:
    import_rendered(_ruleset(BOTH + FACING), tmp_path, "first_layout")
    assert ruff_would_reformat(tmp_path) == []
    command = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(MYPY_CACHE)]
    done = subprocess.run(
        [*command, str(tmp_path / "first_layout.py")], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout


CONSUMER = """import * as m from "./air.js";
const clear: readonly m.FeatureName[] = ["clear"];
const places = new Map<m.BoardPlace, readonly m.FeatureName[]>([[[0, 0], clear], [[1, 0], clear]]);
const b = new m.Board(places, { grid: "hexes" });
const r = m.routeCost(b, "fighter", [[0, 0], [1, 0]], { state: { speed: 1, altitude: 2 } });
const when: m.RollTime = "first_step";
console.log(r.rolls.filter((d) => d.on === when).length);
"""


TYPED = {"first": CONSUMER, "first-and-any": CONSUMER + 'const any: m.RollTime = "any_step";\n'}
"""Each case's consumer of the declarations, beside the package of its rules."""


@pytest.fixture(scope="module")
def typed(node: str, tmp_path_factory: pytest.TempPathFactory, pytestconfig: Any) -> str:
    """The output of one ``tsc --strict`` run over both cases' consumers, each in a folder of
    its own beside its package (one run instead of two: 1.2 s of CPU)."""
    folder = tmp_path_factory.mktemp("first_step_dts")
    for case, consumer in TYPED.items():
        write_package(
            module_plan.build(_ruleset(RULES if case == "first" else BOTH)), folder / case
        )
        (folder / case / "consumer.ts").write_text(consumer, "utf-8")
    done = typescript.tsc(
        pytestconfig, [*TSC_STRICT, *(f"{case}/consumer.ts" for case in TYPED)], folder
    )
    if done.returncode == 0:
        return ""
    return done.stdout + done.stderr or f"tsc exited {done.returncode}, saying nothing"


@typescript.TSC  # and the module fixture's one run on one worker
@pytest.mark.parametrize("case", list(TYPED))
def test_the_declarations_type_a_roll_on_first_step(typed: str, case: str) -> None:
    """No error of tsc's is in this case's folder (its package or its consumer), and none is
    outside every case's folder (an option or a crash)."""
    errors = [line for line in typed.splitlines() if line.startswith(f"{case}/")]
    stray = [line for line in typed.splitlines() if not line.startswith((*TYPED, " "))]
    assert errors == [] and stray == [], typed


def test_a_roll_on_first_step_needs_no_layer_column() -> None:
    compiled = compile_snippet(Compiler(), HEADER + RULES)
    assert [d.code for d in compiled.diagnostics if d.code == "W290"] == []


BASE = HEADER.count("\n") + STATE_RULES.count("\n") + ONCE.count("\n")


@pytest.mark.parametrize(
    ("roll", "extra", "code", "column"),
    [
        ('roll stall "Stall" : 1d6 on first step\n', "", "E484", 29),
        (
            'roll stall "Stall" : 1d6 on first step combine highest when speed below 2\n',
            "",
            "E485",
            48,
        ),
        (
            'roll stall "Stall" : 1d6 on first step when speed below 2\n',
            'layer spins "Spins" {\n  columns cost, stall\n  spin "Spin zone" | 1 | 0\n}\n',
            "E486",
            17,
        ),
    ],
)
def test_each_misuse_of_a_roll_on_first_step_gets_its_code_at_its_place(
    roll: str, extra: str, code: str, column: int
) -> None:
    line = BASE + 2 if extra else BASE
    text = HEADER + STATE_RULES + ONCE.replace(ONCE.splitlines()[-1] + "\n", roll) + extra
    assert located(Compiler(), text) == [(code, line, column)]


def test_a_roll_on_first_step_survives_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + RULES, "air.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "first step" in yaml_text
    yaml_path = tmp_path / "air.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "air.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p) for p in (yaml_path, back)]
    plain = [dataclasses.replace(c.ruleset, digest="") for c in found if c.ruleset is not None]
    assert len(plain) == 2 and plain[0] == plain[1], [str(d) for c in found for d in c.diagnostics]
    stall = next(r for r in plain[0].rolls if r.id == "stall")
    assert (stall.when, stall.state) == ("first_step", ("speed", "below", 2))


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            "Once a move, after the first step in the band, wherever the unit is: roll Stall "
            "(Stall table); only while Speed is below 2.\n",
        ),
        (
            "fr",
            "Une fois par mouvement, après le premier pas dans la bande, où que soit l\u2019unité",
        ),
        ("de", "Einmal je Bewegung, nach dem ersten Schritt im Band, wo die Einheit auch ist"),
        ("ru", "Один раз за движение, после первого шага в диапазоне, где бы ни был отряд"),
    ],
)
def test_the_sheet_says_a_roll_on_first_step_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "air.terrain"
    text = HEADER.replace("version 1.0.0\n", "version 1.0.0\nlanguages en fr de ru\n") + RULES
    ruleset.write_text(text, "utf-8")
    target = tmp_path / f"air.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert words in target.read_text("utf-8")


def test_diff_grades_a_roll_moved_to_first_step_as_breaking() -> None:
    old = _ruleset(STATE_RULES + STALL)
    levels = {c.level for c in semantic.diff(old, _ruleset()).changes if "stall" in c.path}
    assert levels == {"breaking"}


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    title = "### A roll due once a move in a band: one stall roll"
    assert guide_answers(title, "## Rolls due on the map", tmp_path, "first_guide") == 3


def test_a_house_rule_makes_a_roll_on_any_step_due_once(tmp_path: Path) -> None:
    """``remove stall`` then its own ``roll`` line ``on first step``: one roll a move."""
    (tmp_path / "air.terrain").write_text(HEADER + STATE_RULES + STALL, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends air@^1.0\nremove stall\n'
        'roll stall "Stall" : stall_table on first step when speed below 2\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    module = import_rendered(compiled.ruleset, tmp_path, "first_house")
    assert _stalls(module, PLACES, ROW, state={"speed": 3, "altitude": 5}) == [
        (1, (1, 0), "first_step")
    ]
