"""Whole-move rules on free moves off the grid (issue 40). Beside `facing MODE : turn ...`
(no grid) a leg of `free_move` may name, third, the features it crosses or enters
(`("straight", 3, ["river"])`); a leg counts once for a rule when it names one of the rule's
features, as a step does on a grid. A leg beyond a limit is refused, a `crosses` rule a leg
counts for is carried in `FreeMove.marks`, and a bonus every straight or reverse leg counts
for raises the allowance (turns and pivots cross and enter nothing). Python, JavaScript and the
reference semantics answer alike; rulesets without whole-move rules keep their module."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import free_facing
from tests import js_queries, typescript
from tests.conftest import compile_snippet
from tests.test_examples_route_inputs import _vectors, js_answers, replay_python
from tests.test_free_facing import HEADER, JEEP, TANK, _legs
from tests.test_js_target import node, write_package
from tests.test_sight_and_results import load, located

__all__ = ["node"]  # the fixture, used by name

WATER = (
    'layer water "Water" {\n  columns cost\n  river "River" | 2\n  ford "Ford" | 1\n'
    '  road "Road" | 1\n}\n'
)
LIMIT = 'whole move one_river "One river a move" : at most 1 river\n'
MARK = 'whole move no_fire "May not fire" : crosses ford or river\n'
BONUS = 'whole move road_march "Road march" : on road, allowance +2 in\n'
RULES = TANK + JEEP + WATER + LIMIT + MARK + BONUS


def _ruleset(body: str = RULES) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), HEADER + body)
    errors = [str(d) for d in compiled.diagnostics if d.is_error]
    assert compiled.ruleset is not None and not errors, errors
    return compiled.ruleset


def _module(tmp_path: Path, body: str = RULES) -> ModuleType:
    return load(_ruleset(body), tmp_path)


def _answer(function: Any, *args: Any) -> Any:
    try:
        return tuple(function(*args))
    except ValueError as error:
        return (type(error).__name__, str(error))


def test_a_free_move_beyond_a_whole_move_limit_is_illegal_and_says_which_leg(
    tmp_path: Path,
) -> None:
    m = _module(tmp_path)
    one = [("straight", 2, ["river"]), ("turn", 45), ("straight", 1, ["road"])]
    assert m.free_move("tank", one, 8).used == 4.0
    two = [("straight", 2, ["river"]), ("turn", 45), ("straight", 2, ("river", "road"))]
    with pytest.raises(m.IllegalMove, match=r"^leg 3 goes beyond 'One river a move' \(at most 1"):
        m.free_move("tank", two, 8)


def test_a_free_move_whose_leg_crosses_a_marked_feature_carries_the_rule(tmp_path: Path) -> None:
    m = _module(tmp_path)
    assert m.free_move("jeep", [("straight", 1, ["ford"]), ("straight", 1)], 6).marks == (
        "no_fire",
    )
    assert m.free_move("jeep", [("straight", 1, ["road"])], 6).marks == ()
    assert m.free_move("jeep", [("straight", 1)], 6) == (1.0, 5.0, False, "", ())


def test_a_free_move_wholly_on_road_may_use_the_allowance_plus_the_bonus(tmp_path: Path) -> None:
    m = _module(tmp_path)
    road = [("straight", 4, ["road"]), ("pivot", 90), ("straight", 3, ["road", "ford"])]
    assert m.free_move("tank", road, 8) == (9.0, 1.0, False, "", ("no_fire",))
    off_road = [("straight", 4, ["road"]), ("pivot", 90), ("straight", 3)]
    with pytest.raises(m.IllegalMove, match=r"leg 3 brings the move to 9\.0, more than the allowa"):
        m.free_move("tank", off_road, 8)
    assert m.free_move("tank", [("pivot", 90)], 1).left == 1.0  # turns alone keep the bonus


def test_a_leg_names_known_features_and_only_a_straight_or_reverse_leg_names_any(
    tmp_path: Path,
) -> None:
    m = _module(tmp_path)
    with pytest.raises(m.IllegalMove, match="leg 1: a turn crosses and enters nothing"):
        m.free_move("tank", [("turn", 45, ["road"])], 8)
    with pytest.raises(m.IllegalMove, match="leg 2 must name what it crosses or enters"):
        m.free_move("tank", [("straight", 2), ("straight", 1, ["lava"])], 8)
    assert m.free_move("tank", [("straight", 2), ("pivot", 45, [])], 8).used == 4.0


def test_free_moves_with_whole_move_rules_answer_as_the_reference_semantics(
    tmp_path: Path,
) -> None:
    rs = _ruleset()
    m = load(rs, tmp_path)
    rules = {f.mode: f for f in rs.free_facings}
    rng = random.Random(40)
    answers, raised = [], 0
    for _ in range(600):
        mode = rng.choice(["tank", "jeep"])
        legs: list[tuple[Any, ...]] = []
        road = rng.random() < 0.3  # every leg on road: the bonus
        for kind, amount in _legs(rng):
            named = rng.sample(["river", "ford", "clear"], rng.randint(0, 2)) + ["road"] * road
            moved = kind in ("straight", "reverse") and rng.random() < 0.8
            legs.append((kind, amount, named) if moved else (kind, amount))
        allowance = rng.choice([4, 6, 8, 12])
        module = _answer(m.free_move, mode, legs, allowance)
        reference = _answer(free_facing.free_move_whole, rs, rules[mode], legs, allowance)
        assert module == reference, (mode, legs, allowance)
        answers.append(str(module))
        legal = isinstance(module[0], float)
        raised += legal and module[1] > max(0, allowance - module[0])  # on road: the bonus
    assert sum("goes beyond 'One river a move'" in a for a in answers) > 3
    assert sum("'no_fire'" in a for a in answers) > 10
    assert raised > 20


def test_js_module_answers_free_moves_with_whole_move_rules_as_python(
    node: str, tmp_path: Path
) -> None:
    rs = _ruleset()
    plan = module_plan.build(rs)
    python = load(rs, tmp_path)
    module = write_package(plan, tmp_path / "js")
    queries = list(js_queries.families()["freefacing_whole"](random.Random(40), plan))
    queries += list(js_queries.families()["freefacing_whole"](random.Random(41), plan))
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
    answers = [str(e) for e in expected]  # the questions reach the rules
    assert any("goes beyond 'One river a move'" in a for a in answers)
    assert any("'no_fire'" in a for a in answers)
    assert any("crosses and enters nothing" in a for a in answers)


@typescript.TSC
def test_the_declarations_type_legs_that_name_features_and_the_marks(
    node: str, tmp_path: Path, pytestconfig: Any
) -> None:
    write_package(module_plan.build(_ruleset()), tmp_path)
    shutil.copy(Path(__file__).parent / "js" / "free_whole_consumer.ts", tmp_path / "consumer.ts")
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "consumer.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_free_facing_module_without_whole_move_rules_takes_two_part_legs_only(
    tmp_path: Path,
) -> None:
    m = _module(tmp_path, TANK + JEEP + WATER)
    with pytest.raises(m.IllegalMove, match=r"leg 1 must be a \(move, amount\) pair"):
        m.free_move("tank", [("straight", 2, ["road"])], 8)
    assert m.free_move("tank", [("straight", 2)], 8) == (2.0, 6.0, False, "")


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    text = (Path(__file__).parents[1] / "docs" / "language.md").read_text("utf-8")
    part = text.split("### Whole-move rules on free moves", 1)[1]
    rules = part.split("```terrain\n", 1)[1].split("```", 1)[0]
    code = part.split("```python\n", 1)[1].split("```", 1)[0]
    compiled = compile_snippet(Compiler(), rules)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    module = load(compiled.ruleset, tmp_path)
    names: dict[str, Any] = vars(module).copy()
    shown = 0
    for line in code.splitlines():
        call, _, answer = line.partition("  # ")
        try:
            got: Any = eval(call, names)
        except module.IllegalMove as error:
            got = f"IllegalMove: {error}"
        assert str(got) == answer.split("  (")[0], line
        shown += 1
    assert shown == 4


EXAMPLE = (
    'example convoy "Convoy" {\n'
    "  free_move(tank, (straight, 2 in, river), (turn, 45 deg), (straight, 2 in, river), "
    "allowance=8 in) = illegal\n"
    "  free_move(tank, (straight, 4 in, road), (pivot, 90 deg), (straight, 3 in, road, ford), "
    "allowance=8 in) = 9 in\n"
    "  free_move(tank, (straight, 4 in, road), (pivot, 90 deg), (straight, 3 in), "
    "allowance=8 in) = illegal\n"
    "}\n"
)


def test_a_worked_example_of_a_free_move_names_the_features_of_its_legs(tmp_path: Path) -> None:
    assert located(Compiler(), HEADER + RULES + EXAMPLE) == []
    wrong = EXAMPLE.replace("allowance=8 in) = 9 in", "allowance=8 in) = illegal")
    assert [c for c, _, _ in located(Compiler(), HEADER + RULES + wrong)] == ["E270"]
    _, vectors = _vectors(Compiler(), HEADER + RULES + EXAMPLE, tmp_path)
    assert vectors[1]["args"][1] == [
        ["straight", 4.0, ["road"]],
        ["pivot", 90.0],
        ["straight", 3.0, ["road", "ford"]],
    ]


@pytest.mark.parametrize(
    ("leg", "rules"),
    [
        ("(turn, 45 deg, road)", RULES),
        ("(straight, 2 in, lava)", RULES),
        ("(straight, 2 in, road)", TANK + WATER),
    ],
    ids=["on_a_turn", "unknown", "without_whole_move_rules"],
)
def test_a_worked_example_leg_that_names_what_it_may_not_is_e456_at_the_leg(
    leg: str, rules: str
) -> None:
    question = f"free_move(tank, (straight, 2 in), {leg}) = 3 in"
    text = HEADER + rules + 'example bad "Bad" {\n  ' + question + "\n}\n"
    line = text.split("\n").index("  " + question) + 1
    assert located(Compiler(), text) == [("E456", line, question.rindex(leg) + 3)]


def test_python_and_js_modules_replay_the_free_move_examples(node: str, tmp_path: Path) -> None:
    rs, vectors = _vectors(Compiler(), HEADER + RULES + EXAMPLE, tmp_path)
    (tmp_path / "py").mkdir()
    assert "3 passed" in replay_python(rs, tmp_path / "py")
    assert js_answers(rs, vectors, tmp_path) == [v["expected"] for v in vectors]
