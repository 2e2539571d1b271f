"""Turn costs by speed (issue 40, item 4: "turning costs 1 MP per hexside, 2 at speed 5 or
more"): `turn N per hexside at speed M or less` rows on a facing rule, read at the route's speed
by route_cost, cheapest_route, reachable and pivots of both modules and by the reference
semantics; their misuse (E412, E284), sheet words, diff grading, YAML form, house rule and the
language guide's example."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import facing as semantic_facing
from rulesdsl.versions import diff as semantic
from tests import turning_checks
from tests.conftest import compile_snippet, import_rendered
from tests.test_js_target import node
from tests.test_sight_and_results import located

__all__ = ["node"]  # the fixture

HEADER = """ruleset lanes "Lanes"
version 1.0.0
units distance hex, cost MP
grid lanes "Space hex" : 1 hex, hex
mode cutter "Cutter"
mode tug "Tug"
layer space "Space" one per place {
  void "Void" | 1
  dust "Dust" | 2
}
"""
RULES = """facing cutter on lanes : turn 1 MP per hexside at speed 4 or less, \\
    turn 2 MP per hexside, turn mode 1
facing tug on lanes : turn 0 MP per hexside at speed 1 or less, \\
    turn 1 MP per hexside at speed 3 or less, turn 3 MP per hexside, turn mode 1, \\
    pivot +1 MP at speed 4 or less
"""
HEADER_LINES = HEADER.count("\n")


def _ruleset(compiler: Compiler, body: str = RULES) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def lanes(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset(Compiler())
    return rs, import_rendered(rs, tmp_path_factory.mktemp("speeds"), "turn_speed_module")


def _board(module: Any) -> Any:
    return module.Board({(q, r): ("void",) for q in range(6) for r in range(6)}, grid="lanes")


ROUTE = [((1, 1), 0), ((2, 1), 0), ((2, 1), 1)]  # a hex, then a turn


def test_a_turn_costs_the_row_of_the_routes_speed(lanes: tuple[ir.Ruleset, Any]) -> None:
    m = lanes[1]
    assert m.route_cost(_board(m), "cutter", ROUTE, 4).total == 2.0
    assert m.route_cost(_board(m), "cutter", ROUTE, 5).total == 3.0
    tug = [m.route_cost(_board(m), "tug", ROUTE, speed).total for speed in (1, 2, 3, 9)]
    assert tug == [1.0, 2.0, 2.0, 4.0]


def test_without_a_speed_the_cost_for_every_speed_counts(lanes: tuple[ir.Ruleset, Any]) -> None:
    m = lanes[1]
    assert m.route_cost(_board(m), "cutter", ROUTE).total == 3.0


def test_a_pivot_costs_the_turn_of_its_speed_and_its_extra(lanes: tuple[ir.Ruleset, Any]) -> None:
    m = lanes[1]
    answer = m.route_cost(_board(m), "tug", [((1, 1), 0), ((1, 1), 1)], 3)
    assert [(s.move, s.cost) for s in answer.steps] == [("pivot", 2.0)]
    reach = m.reachable(_board(m), "tug", ((1, 1), 0), 1, allowance=1)
    assert reach[(1, 1), 1] == 1.0  # a pivot at speed 1: 0 + 1


def test_searches_pay_the_turn_of_their_speed(lanes: tuple[ir.Ruleset, Any]) -> None:
    m = lanes[1]
    slow = m.cheapest_route(_board(m), "cutter", ((1, 1), 0), ((2, 1), 1), 4)
    fast = m.cheapest_route(_board(m), "cutter", ((1, 1), 0), ((2, 1), 1), 5)
    assert (slow.total, fast.total) == (2.0, 3.0)
    assert ((2, 1), 1) in m.reachable(_board(m), "cutter", ((1, 1), 0), 2, allowance=4)
    assert ((2, 1), 1) not in m.reachable(_board(m), "cutter", ((1, 1), 0), 2, allowance=5)


def test_the_module_agrees_with_the_reference_semantics(lanes: tuple[ir.Ruleset, Any]) -> None:
    rs, m = lanes
    rng = random.Random(40)
    board = _board(m)
    steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    for _ in range(300):
        mode = rng.choice(["cutter", "tug"])
        place, heading = (2, 2), rng.randrange(6)
        route, actions = [(place, heading)], []
        for _ in range(rng.randint(1, 6)):
            if rng.random() < 0.5:
                heading = (heading + rng.choice([1, -1])) % 6
                actions.append(semantic_facing.Action("turn"))
            else:
                place = (place[0] + steps[heading][0], place[1] + steps[heading][1])
                if place not in board.places:
                    break
                actions.append(semantic_facing.Action("forward", ("void",)))
            route.append((place, heading))
        if not actions or len(route) != len(actions) + 1:
            continue
        speed = rng.choice([1, 2, 3, 4, 5, 9])
        got = m.route_cost(board, mode, route, speed)
        want = semantic_facing.route(rs, mode, actions, speed)
        assert (got.total, got.legal, got.reason) == (want.total, want.legal, want.reason)
        assert [s.cost for s in got.steps] == [s.cost for s in want.steps]


def test_js_module_answers_turn_cost_questions_as_python(node: str, tmp_path: Path) -> None:
    expected = turning_checks.js_answers(_ruleset(Compiler()), tmp_path, "js_turn_speed")
    assert sum("'turn', [], [], 3" in str(e) for e in expected) > 2  # the dearest row reached


# ---- checks, YAML, sheets, diff, house rules, docs --------------------------------------------


@pytest.mark.parametrize(
    ("rows", "column"),
    [
        ("turn 2 MP per hexside, turn 1 MP per hexside at speed 4 or less", 49),
        ("turn 1 MP per hexside at speed 4 or less, turn 2 MP per hexside at speed 3 or less", 68),
        ("turn 1 MP per hexside at speed 4 or less", 26),
    ],
)
def test_turn_costs_by_speed_out_of_order_or_uncovered_are_e412(
    compiler: Compiler, rows: str, column: int
) -> None:
    text = HEADER + f"facing cutter on lanes : {rows}\n"
    assert located(compiler, text) == [("E412", HEADER_LINES + 1, column)]


def test_two_turn_costs_for_every_speed_are_e284(compiler: Compiler) -> None:
    text = HEADER + "facing cutter on lanes : turn 1 MP per hexside, turn 2 MP per hexside\n"
    assert located(compiler, text) == [("E284", HEADER_LINES + 1, 49)]


def test_turn_costs_by_speed_survive_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    found = turning_checks.round_trip(
        HEADER + RULES, tmp_path, "turn 1 MP per hexside at speed 4 or less"
    )
    assert [f.turn_costs for f in found.facings] == [((4.0, 1.0),), ((1.0, 0.0), (3.0, 1.0))]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "At speed 4 or less, a turn costs 1 MP per hexside."),
        ("fr", "À une vitesse de 4 ou moins, un virage coûte 1"),
        ("de", "Bei Geschwindigkeit 4 oder weniger kostet eine Drehung 1"),
        ("ru", "На скорости выше 4 поворот стоит 2"),  # noqa: RUF001
    ],
)
def test_the_sheet_says_each_turn_cost_by_speed_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    assert words in turning_checks.sheet_text(HEADER + RULES, tmp_path, lang)


def test_diff_grades_a_turn_cost_that_rises_at_some_speed_as_breaking(compiler: Compiler) -> None:
    old = _ruleset(compiler)
    dearer = _ruleset(
        compiler,
        RULES.replace("turn 1 MP per hexside at speed 4", "turn 1 MP per hexside at speed 3"),
    )
    cheaper = _ruleset(compiler, RULES.replace("turn 3 MP per hexside", "turn 2 MP per hexside"))
    assert [(c.level, c.path, c.message) for c in semantic.diff(old, dearer).changes] == [
        (
            "breaking",
            "facing.cutter.turn",
            "cutter: a turn costs 1 at speed 4 or less, 2 -> 1 at speed 3 or less, 2 per hexside",
        )
    ]
    assert [c.level for c in semantic.diff(old, cheaper).changes] == ["rules"]


def test_a_house_rule_writes_the_facing_line_again_with_its_own_costs(tmp_path: Path) -> None:
    (tmp_path / "lanes.terrain").write_text(HEADER + RULES, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends lanes@^1.0\n'
        "facing cutter on lanes : turn 1 MP per hexside at speed 6 or less, "
        "turn 2 MP per hexside, turn mode 1\n",
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    costs = {f.mode: f.turn_costs for f in compiled.ruleset.facings}
    assert costs == {"cutter": ((6.0, 1.0),), "tug": ((1.0, 0.0), (3.0, 1.0))}


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("#### Turn costs by speed") : doc.index("#### Turns in one place")]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    header = 'ruleset demo "Demo"\nversion 1.0.0\nlanguages en fr\nunits distance hex, cost MP\n'
    compiled = compile_snippet(compiler, header + terrain)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = import_rendered(compiled.ruleset, tmp_path, "turn_speed_guide")
    board = m.Board({(q, r): ("void",) for q in range(4) for r in range(4)}, grid="lanes")
    assert m.route_cost(board, "cutter", ROUTE, allowance=4).total == 2.0
    assert m.route_cost(board, "cutter", ROUTE, allowance=5).total == 3.0
    for shown in (
        "pays 1 + 1 = 2 MP at speed 4, and 1 + 2 = 3 MP\nat speed 5",
        "`route_cost(..., allowance=5).total` is 3.0",
    ):
        assert shown in section
