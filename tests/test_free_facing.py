"""Facing off the grid (issue 40, item 3): `facing MODE : turn 1 in per 45 deg, pivot 2 in,
straight 2 in before turn, turn above 90 deg ends move, reverse at half speed`, free movement
in inches with a heading. The module's `free_move` and the reference semantics answer alike,
misuse is reported at its place, the YAML form, the sheet's words, `diff` grading and the
house-rule path."""

from __future__ import annotations

import ast
import dataclasses
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics import free_facing
from rulesdsl.versions import diff as semantic
from tests import js_queries, js_queries_freefacing, typescript
from tests.conftest import compile_snippet
from tests.test_js_target import _needed, write_package
from tests.test_sight_and_results import load, yaml_errors

HEADER = (
    'ruleset tanks "Tanks"\nversion 1.0.0\nedition 2026.12\nlanguages en fr\n'
    "units distance in, cost in\n"
    'mode tank "Tank" fr "Char"\nmode jeep "Jeep" fr "Jeep"\ngroup wheels "Wheels" fr "Roues"\n'
    'layer terrain "Terrain" fr "Terrain" {\n  columns cost\n  clear "Clear" fr "Dégagé" | 1\n}\n'
)
TANK = (
    "facing tank : turn 1 in per 45 deg, pivot 2 in, straight 2 in before turn, "
    "turn above 90 deg ends move, reverse at half speed\n"
)
JEEP = "facing jeep : turn 0.5 in per 30 deg\n"


@pytest.fixture(scope="module")
def node() -> str:
    return _needed("node")


def _compiled(compiler: Compiler, body: str) -> tuple[ir.Ruleset | None, list[str]]:
    compiled = compile_snippet(compiler, HEADER + body)
    return compiled.ruleset, [str(d) for d in compiled.diagnostics if d.is_error]


def _module(compiler: Compiler, tmp_path: Path, body: str = TANK + JEEP) -> ModuleType:
    ruleset, errors = _compiled(compiler, body)
    assert ruleset is not None and not errors, errors
    return load(ruleset, tmp_path)


def _answer(function: Any, *args: Any) -> Any:
    try:
        return tuple(function(*args))
    except ValueError as error:
        return (type(error).__name__, str(error))


def _legs(rng: random.Random) -> list[tuple[str, float]]:
    kinds = ("straight", "straight", "reverse", "turn", "pivot")
    legs = []
    for _ in range(rng.randint(0, 5)):
        kind = rng.choice(kinds)
        if kind in ("turn", "pivot"):
            amount = rng.choice([30, 45, -45, 60, 90, 91, 135, -180, 200, 0])
        else:
            amount = rng.choice([0.5, 1, 2, 2.5, 3, 0, -1])
        legs.append((kind, float(amount) if rng.random() < 0.5 else amount))
    return legs


def test_free_move_answers_as_the_reference_semantics(compiler: Compiler, tmp_path: Path) -> None:
    m = _module(compiler, tmp_path)
    ruleset, _ = _compiled(compiler, TANK + JEEP)
    assert ruleset is not None
    rules = {f.mode: f for f in ruleset.free_facings}
    rng = random.Random(40)
    for _ in range(400):
        mode = rng.choice(["tank", "jeep"])
        legs, allowance = _legs(rng), rng.choice([4, 6, 8, 12])
        module = _answer(m.free_move, mode, legs, allowance)
        reference = _answer(free_facing.free_move, rules[mode], legs, allowance)
        assert module == reference, (mode, legs, allowance)


def test_a_turn_costs_per_step_of_degrees_begun_and_a_pivot_its_flat_cost(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = _module(compiler, tmp_path)
    legs = [("straight", 2), ("turn", 45), ("straight", 2), ("turn", -60)]
    assert m.free_move("tank", legs, 8) == m.FreeMove(7.0, 1.0, False, "")
    assert m.free_move("tank", [("pivot", 90), ("straight", 3)], 8) == (5.0, 3.0, False, "")
    assert m.free_move("jeep", [("turn", 31)], 6).used == 1.0


def test_reverse_costs_double_and_spending_the_allowance_ends_the_move(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = _module(compiler, tmp_path)
    assert m.free_move("tank", [("reverse", 3)], 6) == (6.0, 0.0, True, "the allowance is spent")
    with pytest.raises(m.IllegalMove, match="jeep may not reverse"):
        m.free_move("jeep", [("reverse", 1)], 6)


def test_a_turn_of_more_than_90_degrees_ends_the_move(compiler: Compiler, tmp_path: Path) -> None:
    m = _module(compiler, tmp_path)
    ends = m.free_move("tank", [("straight", 2), ("turn", 135)], 8)
    assert ends == (5.0, 3.0, True, "leg 2 turns more than 90.0 degrees")
    assert not m.free_move("tank", [("straight", 2), ("turn", 90)], 8).ends
    with pytest.raises(m.IllegalMove, match="leg 3 comes after the move ended"):
        m.free_move("tank", [("straight", 2), ("turn", 135), ("straight", 1)], 8)


def test_a_turn_before_the_run_straight_is_refused(compiler: Compiler, tmp_path: Path) -> None:
    m = _module(compiler, tmp_path)
    with pytest.raises(m.IllegalMove, match=r"leg 2 turns after 1.5 straight; tank goes 2.0"):
        m.free_move("tank", [("straight", 1.5), ("turn", 45)], 8)
    assert m.free_move("tank", [("straight", 1.5), ("pivot", 45)], 8).used == 3.5


def test_a_move_beyond_the_allowance_and_legs_that_are_no_move_are_refused(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = _module(compiler, tmp_path)
    with pytest.raises(m.IllegalMove, match=r"more than the allowance of 4\.0"):
        m.free_move("tank", [("straight", 5)], 4)
    for legs in ([("fly", 2)], [("turn", 181)], [("straight", 0)], [("turn", True)], [3]):
        with pytest.raises(m.IllegalMove, match="leg 1"):
            m.free_move("tank", legs, 8)
    with pytest.raises(m.IllegalMove, match="jeep may not pivot"):
        m.free_move("jeep", [("pivot", 45)], 8)
    with pytest.raises(m.UnknownName, match="'tnak'; did you mean 'tank'"):
        m.free_move("tnak", [], 8)
    with pytest.raises(m.InvalidArgument, match="allowance"):
        m.free_move("tank", [], -1)
    with pytest.raises(m.ArgumentTypeError, match="legs"):
        m.free_move("tank", "straight", 8)


def test_the_javascript_module_gives_the_same_free_moves_and_errors(
    compiler: Compiler, node: str, tmp_path: Path
) -> None:
    ruleset, errors = _compiled(compiler, TANK + JEEP)
    assert ruleset is not None and not errors, errors
    plan = module_plan.build(ruleset)
    python = load(ruleset, tmp_path)
    module = write_package(plan, tmp_path / "js")
    rng = random.Random(40)
    asked = [x for _ in range(10) for x in js_queries_freefacing.free_move_queries(rng, plan)]
    expected = js_queries.ask_python_all(python, asked)
    got = js_queries.ask_node(module, asked)
    assert {"error", "answer"} <= {key for e in expected for key in e}
    wrong = [
        (x, e, g) for x, e, g in zip(asked, expected, got, strict=True) if not js_queries.same(e, g)
    ]
    assert wrong[:5] == []


CONSUMER = """import { freeMove, FREE_FACINGS, IllegalMove } from "./tanks.js";
const move = freeMove("tank", [["straight", 2], ["turn", 45]], 8);
const left: number = move.left;
const why: string = move.reason;
const pivot: number | null = FREE_FACINGS.jeep.pivot;
console.log(left, why, pivot, IllegalMove.name);
"""


@typescript.TSC
def test_the_declarations_type_check_a_consumer_of_free_move(
    compiler: Compiler, node: str, tmp_path: Path, pytestconfig: Any
) -> None:
    ruleset, _ = _compiled(compiler, TANK + JEEP)
    assert ruleset is not None
    write_package(module_plan.build(ruleset), tmp_path)
    (tmp_path / "consumer.ts").write_text(CONSUMER, "utf-8")
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "consumer.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def _errors_at(compiler: Compiler, body: str) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, HEADER + body)
    return [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.is_error]


BODY_LINE = HEADER.count("\n") + 1


@pytest.mark.parametrize(
    ("body", "code", "column"),
    [
        ("facing tank : turn 1 in per 45 in\n", "E277", 29),
        ("facing tank : turn 1 in per 45 deg, turn above 200 deg ends move\n", "E277", 48),
        ("facing tank : turn 1 in per 0 deg\n", "E277", 29),
        ("facing tank : turn 1 in per 45 deg, backward 1 in\n", "E278", 37),
        ("facing tank : turn 1 in per 45 deg, sideslip 1 in\n", "E278", 37),
        ("facing tank : turn 1 in per 45 deg, pivot -2 in\n", "E287", 43),
        ("facing tank : turn 1 in per 45 deg, turn 2 in per 90 deg\n", "E284", 37),
        ("facing tank : pivot 2 in\n", "E286", 1),
        ("facing wheels : turn 1 in per 45 deg\n", "E280", 8),
        ("facing tank : turn 1 MP per 45 deg\n", "E203", 20),
    ],
)
def test_misuse_of_a_facing_off_the_grid_is_reported_at_its_place(
    compiler: Compiler, body: str, code: str, column: int
) -> None:
    assert _errors_at(compiler, body) == [(code, BODY_LINE, column)]


def test_a_unit_type_with_facing_on_a_grid_and_off_it_is_e288(compiler: Compiler) -> None:
    body = 'grid hexes "Hexes" : 1 in, hex\nfacing tank on hexes : turn 1 in per hexside\n' + TANK
    assert _errors_at(compiler, body) == [("E288", BODY_LINE + 2, 8)]


def test_every_error_of_a_free_facing_is_reported_together(compiler: Compiler) -> None:
    body = "facing tank : turn 1 in per 45 in, backward 1 in, pivot -1 in\n"
    assert [code for code, _, _ in _errors_at(compiler, body)] == ["E277", "E278", "E287"]


def test_a_facing_off_the_grid_survives_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + TANK + JEEP, "tanks.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "  tank:\n    rules:\n    - turn 1 in per 45 deg\n    - pivot 2 in\n" in yaml_text
    assert "\n    on:" not in yaml_text
    yaml_path = tmp_path / "tanks.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "back" / "tanks.terrain"
    back.parent.mkdir()
    back.write_text(to_terrain(yaml_text), "utf-8")
    assert TANK.strip() in back.read_text("utf-8")
    found = [Compiler().compile_file(p).ruleset for p in (yaml_path, back)]
    plain = [dataclasses.replace(r, digest="") for r in found if r is not None]
    assert len(plain) == 2 and plain[0] == plain[1] and plain[0].free_facings


def test_misuse_in_a_yaml_facing_off_the_grid_is_reported_on_its_clause(tmp_path: Path) -> None:
    found = yaml_errors(HEADER + TANK.replace("pivot 2 in", "sideslip 2 in"), tmp_path)
    assert [d.code for d in found] == ["E278"]


def _house(tmp_path: Path, lines: str) -> tuple[ir.Ruleset | None, list[str]]:
    (tmp_path / "tanks.terrain").write_text(HEADER + TANK + JEEP, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text('ruleset house "House"\nversion 1.0.0\nextends tanks@^1.0\n' + lines, "utf-8")
    compiled = Compiler().compile_file(house)
    return compiled.ruleset, [d.code for d in compiled.diagnostics if d.is_error]


def test_a_house_rule_replaces_or_removes_a_facing_off_the_grid(tmp_path: Path) -> None:
    house, errors = _house(tmp_path, "facing tank : turn 1 in per 30 deg, reverse at half speed\n")
    assert house is not None and not errors
    tank = next(f for f in house.free_facings if f.mode == "tank")
    assert (tank.turn_step, tank.pivot, tank.straight, tank.reverse_half) == (30, None, 0, True)
    house, errors = _house(tmp_path, "remove facing jeep\n")
    assert house is not None and not errors
    assert [f.mode for f in house.free_facings] == ["tank"]


def test_diff_grades_a_dearer_or_stricter_free_facing_as_breaking(
    compiler: Compiler, tmp_path: Path
) -> None:
    old, _ = _compiled(compiler, TANK)
    stricter = TANK.replace("45 deg", "30 deg").replace("straight 2 in", "straight 3 in")
    looser = TANK.replace(", turn above 90 deg ends move", "").replace("pivot 2 in", "pivot 1 in")
    (strict, _), (loose, _) = _compiled(compiler, stricter), _compiled(compiler, looser)
    assert old is not None and strict is not None and loose is not None
    found = {(c.level, c.path, c.message) for c in semantic.diff(old, strict).changes}
    assert found == {
        ("breaking", "facing.tank.turn", "tank: a turn costs 1 per 45 deg -> 1 per 30 deg"),
        ("breaking", "facing.tank.straight", "tank: straight before a turn 2 -> 3"),
    }
    found = {(c.level, c.path) for c in semantic.diff(old, loose).changes}
    assert found == {("rules", "facing.tank.pivot"), ("rules", "facing.tank.ends_above")}
    assert [c.level for c in semantic.diff(loose, old).changes] == ["breaking", "breaking"]


def test_a_step_named_free_move_is_refused_where_a_facing_off_the_grid_defines_it(
    compiler: Compiler,
) -> None:
    step = 'step free_move "Free move" (distance in) -> points : +1 per full 1 in\n'
    assert "E103" in [code for code, _, _ in _errors_at(compiler, TANK + step)]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "A turn costs 1 in for each 45° or part of it."),
        ("fr", "Un virage de plus de 90° termine le mouvement."),
        ("de", "Fährt vor jeder Drehung 2 Zoll geradeaus."),
        ("ru", "Разворот на месте стоит 2 дюйм."),
    ],
)
def test_the_sheet_says_a_facing_off_the_grid_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "tanks.terrain"
    ruleset.write_text(HEADER + TANK + JEEP, "utf-8")
    target = tmp_path / f"tanks.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert words in target.read_text("utf-8")


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index("```terrain\nfacing tank : turn 1 in per 45 deg")
    snippet = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    m = _module(compiler, tmp_path, snippet)
    start = doc.index('```text\nfree_move("tank"')
    shown = doc[start + len("```text\n") : doc.index("```", start + 10)].splitlines()
    assert len(shown) == 8
    for call, answer in zip(shown[::2], shown[1::2], strict=True):
        legs = ast.literal_eval(call.removeprefix('free_move("tank", ').removesuffix(", 8)"))
        try:
            got = repr(m.free_move("tank", legs, 8))
        except m.IllegalMove as error:
            got = f"IllegalMove: {error}"
        assert answer.strip() == got
