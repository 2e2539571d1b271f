"""A roll due on any step in a band of a state (issue 40: "an aircraft whose speed falls below
2 makes a stall roll"): ``roll stall "Stall" : stall_table on any step when speed below 2``.
Due after every step at which the state is in the band, wherever the unit is, in both
emitters and the reference semantics; its checks, sheet words, YAML, diff and guide example;
and rules without one keep their modules."""

from __future__ import annotations

import ast
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
from tests import js_queries, typescript
from tests.conftest import MYPY_CACHE, compile_snippet, import_rendered
from tests.test_js_target import node, write_package
from tests.test_module_layout import ruff_would_reformat
from tests.test_sight_and_results import located
from tests.test_state import HEADER
from tests.test_state import RULES as STATE_RULES

__all__ = ["node"]  # the fixture

STALL = """dice stall_table "Stall table" : 1d6 {
  1-2 spin "Spin"
  3+ recover "Recover"
}
roll stall "Stall" : stall_table on any step when speed below 2
"""
RULES = STATE_RULES + STALL
FACING = "facing bomber on hexes : turn 1 MP per hexside\n"


def _ruleset(compiler: Compiler, body: str = RULES) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def air(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset(Compiler())
    return rs, import_rendered(rs, tmp_path_factory.mktemp("stall"), "stall_module")


def _stalls(module: Any, places: dict[Any, tuple[str, ...]], route: list[Any], **kw: Any) -> Any:
    board = module.Board(places, grid="hexes")
    return [(d.step, d.place, d.on) for d in module.route_cost(board, "fighter", route, **kw).rolls]


ROW = [(0, 0), (1, 0), (2, 0), (3, 0)]
"""Debris (speed -2) at the first step, clear after it."""
PLACES = {(0, 0): ("clear",), (1, 0): ("clear", "debris"), (2, 0): ("clear",), (3, 0): ("clear",)}


def test_a_roll_on_any_step_is_due_after_each_step_in_its_band(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """From speed 3 the debris takes the fighter to 1 at the first step: a stall roll after
    each of the three steps, at the place entered; from 4 it stays at 2: none."""
    _, module = air
    assert _stalls(module, PLACES, ROW, state={"speed": 3, "altitude": 5}) == [
        (1, (1, 0), "any_step"),
        (2, (2, 0), "any_step"),
        (3, (3, 0), "any_step"),
    ]
    assert _stalls(module, PLACES, ROW, state={"speed": 4, "altitude": 5}) == []


def test_a_roll_on_any_step_reads_the_kind_of_moves_change_before_the_first_step(
    air: tuple[ir.Ruleset, Any],
) -> None:
    _, module = air
    clear = [(2, 0), (3, 0)]
    assert _stalls(module, PLACES, clear, state={"speed": 3, "altitude": 5}) == []
    climbed = _stalls(module, PLACES, clear, state={"speed": 3, "altitude": 5}, move="climb")
    assert climbed == [(1, (3, 0), "any_step")]


def test_without_a_state_a_roll_on_any_step_is_due_at_every_step(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """As every roll due in a band, the band is not read without ``state=``."""
    _, module = air
    assert [s for s, _, _ in _stalls(module, PLACES, ROW)] == [1, 2, 3]


def test_a_roll_on_any_step_comes_after_the_steps_other_rolls(
    air: tuple[ir.Ruleset, Any],
) -> None:
    _, module = air
    board = module.Board({(0, 0): ("clear",), (1, 0): ("guns",)}, grid="hexes")
    answer = module.route_cost(
        board, "fighter", [(0, 0), (1, 0)], state={"speed": 1, "altitude": 1}
    )
    assert [d.roll for d in answer.rolls] == ["flak", "stall"]
    assert (answer.rolls[1].table, answer.rolls[1].modifier, answer.rolls[1].features) == (
        "stall_table",
        0,
        (),
    )


def test_the_searches_and_facing_routes_list_a_roll_on_any_step(tmp_path: Path) -> None:
    rs = _ruleset(Compiler(), RULES + FACING)
    module = import_rendered(rs, tmp_path, "stall_facing")
    board = module.Board(PLACES, grid="hexes")
    slow = {"speed": 1, "altitude": 5}
    found = module.cheapest_route(board, "fighter", (2, 0), (3, 0), state=slow)
    assert [(d.step, d.roll) for d in found.rolls] == [(1, "stall")]
    turning = [((2, 0), 0), ((2, 0), 1), ((2, 0), 0), ((3, 0), 0)]
    faced = module.route_cost(board, "bomber", turning, state=slow)
    assert [(d.step, d.roll) for d in faced.rolls] == [(3, "stall")]


def test_the_module_answers_as_the_reference_semantics(air: tuple[ir.Ruleset, Any]) -> None:
    rs, module = air
    rng = random.Random(40)
    kinds = [("clear",), ("clear", "debris"), ("storm",), ("guns",)]
    for _ in range(200):
        route = [(q, 0) for q in range(rng.randint(1, 6))]
        places = {p: rng.choice(kinds) for p in route}
        state = {"speed": rng.randint(0, 8), "altitude": rng.randint(0, 9)}
        move = rng.choice([None, "climb", "dive"])
        board = module.Board(places, grid="hexes")
        got = module.route_cost(board, "fighter", route, state=state, move=move).rolls
        pairs = [(places[b], ()) for b in route[1:]]
        ref = semantic_routes.route(rs, "fighter", pairs, move=move, state=state)
        dues = semantic_moves.route_rolls(rs, "fighter", pairs, move, route)
        along = semantic_routes.states_along(rs, "fighter", move, state, ref.steps)
        kept = semantic_routes.state_rolls(rs, dues, along)
        assert [(d.step, d.on, d.roll) for d in got] == [(d.step, d.on, d.roll) for d in kept]


def test_js_module_answers_stall_questions_as_python(node: str, tmp_path: Path) -> None:
    rs = _ruleset(Compiler(), RULES + FACING)
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "js_stall")
    module = write_package(plan, tmp_path / "js")
    queries = list(js_queries.families()["stall"](random.Random(40), plan))
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
    assert sum("any_step" in str(e) for e in expected) > 20  # the questions reach the roll


def test_rules_without_a_roll_on_any_step_emit_no_code_for_it(tmp_path: Path) -> None:
    """Byte for byte as before: the `any_step` lines of the route runtimes and the d.ts's
    RollTime are emitted only for rules with such a roll."""
    for body, present in [(STATE_RULES, False), (RULES, True)]:
        rs = _ruleset(Compiler(), body)
        plan = module_plan.build(rs)
        assert ("any_step" in render_python(rs)) is present, body
        assert ('"any_step"' in "\n".join(js_routes.routes_js(plan.movement))) is present
        assert ('| "any_step";' in js_moves.movement_dts(plan)) is present


def test_a_module_with_a_roll_on_any_step_comes_out_formatted_and_typed(
    compiler: Compiler, tmp_path: Path
) -> None:
    import_rendered(_ruleset(compiler, RULES + FACING), tmp_path, "stall_layout")
    assert ruff_would_reformat(tmp_path) == []
    command = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(MYPY_CACHE)]
    done = subprocess.run(
        [*command, str(tmp_path / "stall_layout.py")], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout


CONSUMER = """import * as m from "./air.js";
const clear: readonly m.FeatureName[] = ["clear"];
const places = new Map<m.BoardPlace, readonly m.FeatureName[]>([[[0, 0], clear], [[1, 0], clear]]);
const b = new m.Board(places, { grid: "hexes" });
const r = m.routeCost(b, "fighter", [[0, 0], [1, 0]], { state: { speed: 1, altitude: 2 } });
const when: m.RollTime = "any_step";
console.log(r.rolls.filter((d) => d.on === when).length);
"""


@typescript.TSC
def test_the_declarations_type_a_roll_on_any_step(
    node: str, tmp_path: Path, pytestconfig: Any
) -> None:
    write_package(module_plan.build(_ruleset(Compiler())), tmp_path)
    (tmp_path / "consumer.ts").write_text(CONSUMER, "utf-8")
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "consumer.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_roll_on_any_step_needs_no_layer_column(compiler: Compiler) -> None:
    compiled = compile_snippet(compiler, HEADER + RULES)
    assert [d.code for d in compiled.diagnostics if d.code == "W290"] == []


BASE = HEADER.count("\n") + STATE_RULES.count("\n") + STALL.count("\n")


@pytest.mark.parametrize(
    ("roll", "extra", "code", "column"),
    [
        ('roll stall "Stall" : 1d6 on any step\n', "", "E480", 29),
        (
            'roll stall "Stall" : 1d6 on any step combine highest when speed below 2\n',
            "",
            "E481",
            46,
        ),
        (
            'roll stall "Stall" : 1d6 on any step when speed below 2\n',
            'layer spins "Spins" {\n  columns cost, stall\n  spin "Spin zone" | 1 | 0\n}\n',
            "E482",
            17,
        ),
    ],
)
def test_each_misuse_of_a_roll_on_any_step_gets_its_code_at_its_place(
    compiler: Compiler, roll: str, extra: str, code: str, column: int
) -> None:
    line = BASE + 2 if extra else BASE
    text = HEADER + STATE_RULES + STALL.replace(STALL.splitlines()[-1] + "\n", roll) + extra
    assert located(compiler, text) == [(code, line, column)]


# ---- YAML, sheets, diff, docs -----------------------------------------------------------------


def test_a_roll_on_any_step_survives_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + RULES, "air.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "any step" in yaml_text
    yaml_path = tmp_path / "air.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "air.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p) for p in (yaml_path, back)]
    plain = [dataclasses.replace(c.ruleset, digest="") for c in found if c.ruleset is not None]
    assert len(plain) == 2 and plain[0] == plain[1], [str(d) for c in found for d in c.diagnostics]
    stall = next(r for r in plain[0].rolls if r.id == "stall")
    assert (stall.when, stall.state) == ("any_step", ("speed", "below", 2))


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            "After any step, wherever the unit is: roll Stall (Stall table); "
            "only while Speed is below 2.\n",
        ),
        ("fr", "Après chaque pas, où que soit l\u2019unité"),
        ("de", "Nach jedem Schritt, wo die Einheit auch ist"),
        ("ru", "После каждого шага, где бы ни был отряд"),
    ],
)
def test_the_sheet_says_a_roll_on_any_step_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "air.terrain"
    text = HEADER.replace("version 1.0.0\n", "version 1.0.0\nlanguages en fr de ru\n") + RULES
    ruleset.write_text(text, "utf-8")
    target = tmp_path / f"air.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert words in target.read_text("utf-8")


def test_diff_grades_a_roll_moved_to_any_step_as_breaking(compiler: Compiler) -> None:
    old = _ruleset(
        compiler,
        RULES.replace("on any step when", "on ending when")
        + ('layer spins "Spins" {\n  columns cost, stall\n  spin "Spin zone" | 1 | 0\n}\n'),
    )
    new = _ruleset(compiler)
    levels = {c.level for c in semantic.diff(old, new).changes if "stall" in c.path}
    assert "breaking" in levels


def test_the_language_guide_stall_example_answers_as_it_says(tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    title = "### A roll due on any step in a band: stalls"
    section = doc[doc.index(title) : doc.index("## Rolls due on the map")]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    start = section.index("```python\n") + len("```python\n")
    python = section[start : section.index("```", start)].splitlines()
    compiled = compile_snippet(Compiler(), terrain)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    module = import_rendered(compiled.ruleset, tmp_path, "stall_guide")
    names: dict[str, Any] = {"Board": module.Board, "route_cost": module.route_cost}
    asked = 0
    for i, line in enumerate(python):
        if i + 1 < len(python) and python[i + 1].startswith("# "):
            assert eval(line, names) == ast.literal_eval(python[i + 1][2:]), line
            asked += 1
        elif not line.startswith("#"):
            exec(line, names)
    assert asked == 3


def test_a_house_rule_removes_a_roll_on_any_step_and_writes_its_own(tmp_path: Path) -> None:
    """``remove stall`` then its own ``roll`` line: the house rule stalls below 3 (the
    base's band, below 2, is gone)."""
    (tmp_path / "air.terrain").write_text(HEADER + RULES, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends air@^1.0\nremove stall\n'
        'roll stall "Stall" : stall_table on any step when speed below 3\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    stall = next(r for r in compiled.ruleset.rolls if r.id == "stall")
    assert (stall.when, stall.state) == ("any_step", ("speed", "below", 3))
    module = import_rendered(compiled.ruleset, tmp_path, "stall_house")
    assert [s for s, _, _ in _stalls(module, PLACES, ROW, state={"speed": 4, "altitude": 5})] == [
        1,
        2,
        3,
    ]
