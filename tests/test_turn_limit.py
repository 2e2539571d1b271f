"""A limit on the turns in one place (issue 40, item 4): `turn at most 1 hexside per hex` on a
facing rule, read by route_cost, cheapest_route and reachable of both modules and by the
reference semantics; its misuse (E410, E411), sheet words, diff grading, YAML form, house rule
and the language guide's example."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen.targets import render_python as render
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import facing as semantic_facing
from rulesdsl.versions import diff as semantic
from tests import turning_checks
from tests.conftest import compile_snippet, import_rendered
from tests.test_js_target import node
from tests.test_sight_and_results import located

__all__ = ["node"]  # the fixture

HEADER = """ruleset sea "Sea"
version 1.0.0
units distance hex, cost MP
grid sea "Sea hex" : 1 hex, hex
grid squares "Square" : 1 hex, square
mode sloop "Sloop"
mode galleon "Galleon"
mode barge "Barge"
layer water "Water" one per place {
  open_sea "Open sea" | 1
  shoal "Shoal" | 2
}
"""
RULES = """facing sloop on sea : turn 0 MP per hexside, turn at most 2 hexsides per hex
facing galleon on sea : turn 1 MP per hexside, turn at most 1 hexside per hex, \\
    pivot +2 MP at speed 2 or less
facing barge on squares : turn 1 MP per 90 deg, turn at most 90 deg per square
"""
HEADER_LINES = HEADER.count("\n")


def _ruleset(compiler: Compiler, body: str = RULES) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def sea(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset(Compiler())
    return rs, import_rendered(rs, tmp_path_factory.mktemp("turns"), "turn_limit_module")


def _board(module: Any, grid: str = "sea") -> Any:
    return module.Board({(q, r): ("open_sea",) for q in range(6) for r in range(6)}, grid=grid)


def _turns(place: Any, *headings: int) -> list[Any]:
    return [(place, h) for h in headings]


# ---- the modules -------------------------------------------------------------------------------


def test_a_turn_beyond_the_limit_in_one_place_is_illegal_and_says_which_step(
    sea: tuple[ir.Ruleset, Any],
) -> None:
    m = sea[1]
    answer = m.route_cost(_board(m), "sloop", _turns((2, 2), 0, 1, 2, 3), 6)
    assert (answer.legal, answer.reason) == (
        False,
        "step 3 turns 3 hexsides in one place (at most 2 hexsides)",
    )
    within = m.route_cost(_board(m), "sloop", _turns((2, 2), 0, 1, 2), 6)
    assert (within.legal, within.total) == (True, 0.0)


def test_turns_in_one_action_count_toward_the_limit(sea: tuple[ir.Ruleset, Any]) -> None:
    m = sea[1]
    answer = m.route_cost(_board(m), "sloop", [((2, 2), 0), ((2, 2), 2), ((2, 2), 3)], 6)
    assert answer.reason == "step 2 turns 3 hexsides in one place (at most 2 hexsides)"
    at_once = m.route_cost(_board(m), "sloop", [((2, 2), 0), ((2, 2), 3)], 6)
    assert at_once.reason == "step 1 turns 3 hexsides in one place (at most 2 hexsides)"


def test_a_step_into_another_place_starts_the_count_again(sea: tuple[ir.Ruleset, Any]) -> None:
    m = sea[1]
    route = [((2, 2), 0), ((2, 2), 1), ((2, 2), 2), ((2, 1), 2), ((2, 1), 3), ((2, 1), 4)]
    answer = m.route_cost(_board(m), "sloop", route, 6)
    assert (answer.legal, answer.total) == (True, 1.0)


def test_a_pivot_is_neither_counted_nor_limited(sea: tuple[ir.Ruleset, Any]) -> None:
    m = sea[1]
    fast = m.route_cost(_board(m), "galleon", _turns((2, 2), 0, 1, 2), 6)
    assert fast.reason == "step 2 turns 2 hexsides in one place (at most 1 hexside)"
    refused = m.route_cost(_board(m), "galleon", _turns((2, 2), 0, 1, 2, 3), 12)  # no pivot
    assert [s.move for s in refused.steps] == ["turn", "turn", "turn"]
    assert (refused.legal, refused.total) == (False, 3.0)
    pivots = m.route_cost(_board(m), "galleon", _turns((2, 2), 0, 1, 2, 3, 4), 2)
    assert [s.move for s in pivots.steps] == ["turn", "pivot", "pivot", "pivot"]
    assert (pivots.total, pivots.reason) == (10.0, "the route costs more than the allowance")


def test_a_square_grid_limit_counts_in_degrees(sea: tuple[ir.Ruleset, Any]) -> None:
    m = sea[1]
    answer = m.route_cost(_board(m, "squares"), "barge", _turns((2, 2), 0, 1, 2), 6)
    assert answer.reason == "step 2 turns 180 deg in one place (at most 90 deg)"


def test_cheapest_route_goes_round_the_turn_limit(sea: tuple[ir.Ruleset, Any]) -> None:
    m = sea[1]
    route = m.cheapest_route(_board(m), "galleon", ((2, 2), 0), ((2, 2), 3), 12)
    assert route is not None and route.legal and route.total == 12.0
    assert [s.move for s in route.steps].count("turn") == 5
    assert m.cheapest_route(_board(m), "galleon", ((2, 2), 0), ((2, 2), 3), 11) is None
    sloop = m.cheapest_route(_board(m), "sloop", ((2, 2), 0), ((2, 2), 3), 6)
    assert sloop is not None and sloop.legal and sloop.total == 3.0


def test_reachable_ends_only_with_headings_the_limit_allows(sea: tuple[ir.Ruleset, Any]) -> None:
    m = sea[1]
    reach = m.reachable(_board(m), "sloop", ((2, 2), 0), 0)
    assert sorted(reach) == [((2, 2), 0), ((2, 2), 1), ((2, 2), 2), ((2, 2), 4), ((2, 2), 5)]


def test_the_module_agrees_with_the_reference_semantics(sea: tuple[ir.Ruleset, Any]) -> None:
    rs, m = sea
    rng = random.Random(40)
    board = _board(m)
    steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    for _ in range(300):
        mode = rng.choice(["sloop", "galleon"])
        place, heading = (2, 2), rng.randrange(6)
        route, actions = [(place, heading)], []
        for _ in range(rng.randint(1, 6)):
            if rng.random() < 0.6:
                heading = (heading + rng.choice([1, -1])) % 6
                actions.append(semantic_facing.Action("turn"))
            else:
                place = (place[0] + steps[heading][0], place[1] + steps[heading][1])
                if place not in board.places:
                    break
                actions.append(semantic_facing.Action("forward", ("open_sea",)))
            route.append((place, heading))
        if not actions or len(route) != len(actions) + 1:
            continue
        speed = rng.choice([1, 2, 6])
        got = m.route_cost(board, mode, route, speed)
        want = semantic_facing.route(rs, mode, actions, speed)
        assert (got.total, got.legal, got.reason) == (want.total, want.legal, want.reason)
        assert [s.move for s in got.steps] == [s.move for s in want.steps]


def test_rules_without_a_turn_limit_keep_their_python_module(compiler: Compiler) -> None:
    root = Path(__file__).parent.parent
    compiled = compiler.compile_file(root / "rulesets" / "void_patrol.terrain")
    assert compiled.ruleset is not None
    written = (root / "generated" / "python" / "void_patrol.py").read_text("utf-8")
    assert render(compiled.ruleset) == written


def test_js_module_answers_turn_limit_questions_as_python(node: str, tmp_path: Path) -> None:
    expected = turning_checks.js_answers(_ruleset(Compiler()), tmp_path, "js_turn_limit")
    answers = [str(e) for e in expected]  # the questions reach the limit
    assert sum("in one place (at most" in a for a in answers) > 5


# ---- checks, YAML, sheets, diff, house rules, docs --------------------------------------------


@pytest.mark.parametrize(
    ("clause", "code", "column"),
    [
        ("turn at most 0 hexsides per hex", "E410", 59),
        ("turn at most 90 deg per hex", "E410", 59),
        ("turn at most 1 hexside per square", "E411", 73),
        ("turn at most 1 side per hex", "E411", 59),
    ],
)
def test_a_misused_turn_limit_is_reported_at_its_place(
    compiler: Compiler, clause: str, code: str, column: int
) -> None:
    text = HEADER + f"facing sloop on sea : turn 0 MP per hexside, {clause}\n"
    assert located(compiler, text) == [(code, HEADER_LINES + 1, column)]


def test_a_turn_limit_given_twice_is_e284(compiler: Compiler) -> None:
    text = HEADER + (
        "facing sloop on sea : turn 0 MP per hexside, turn at most 1 hexside per hex, "
        "turn at most 2 hexsides per hex\n"
    )
    assert located(compiler, text) == [("E284", HEADER_LINES + 1, 78)]


def test_a_pivot_beside_a_turn_limit_draws_no_w280(compiler: Compiler) -> None:
    compiled = compile_snippet(compiler, HEADER + RULES)
    assert [d.code for d in compiled.diagnostics] == []
    plain = RULES.replace(", turn at most 1 hexside per hex", "")
    compiled = compile_snippet(compiler, HEADER + plain)
    assert [d.code for d in compiled.diagnostics] == ["W280"]


def test_turn_limits_survive_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    found = turning_checks.round_trip(HEADER + RULES, tmp_path, "turn at most 2 hexsides per hex")
    assert [f.turn_limit for f in found.facings] == [2, 1, 1]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "In one place it turns at most 2 hexside(s); a pivot is not counted."),
        ("fr", "il tourne d\u2019au plus 2 côté(s) d\u2019hexagone\u202f; un pivot ne compte pas."),
        ("de", "An einem Ort dreht er sich höchstens um 2 Hexseite(n);"),
        ("ru", "На одном месте поворачивает не более чем на 2 гр.;"),  # noqa: RUF001
    ],
)
def test_the_sheet_says_the_turn_limit_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    assert words in turning_checks.sheet_text(HEADER + RULES, tmp_path, lang)


def test_diff_grades_a_lower_or_added_turn_limit_as_breaking(compiler: Compiler) -> None:
    old = _ruleset(compiler)
    new = _ruleset(
        compiler,
        RULES.replace("turn at most 2 hexsides", "turn at most 1 hexside").replace(
            ", turn at most 90 deg per square", ""
        ),
    )
    d = semantic.diff(old, new)
    assert [(c.level, c.path, c.message) for c in d.changes] == [
        (
            "breaking",
            "facing.sloop.turn_limit",
            "sloop: turns in one place at most 2 hexsides -> 1 hexside",
        ),
        ("rules", "facing.barge.turn_limit", "barge: turns in one place at most 90 deg -> any"),
    ]


def test_a_house_rule_writes_the_facing_line_again_with_its_own_limit(tmp_path: Path) -> None:
    (tmp_path / "sea.terrain").write_text(HEADER + RULES, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends sea@^1.0\n'
        "facing galleon on sea : turn 1 MP per hexside, turn at most 2 hexsides per hex\n",
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert {f.mode: f.turn_limit for f in compiled.ruleset.facings} == {
        "sloop": 2,
        "galleon": 2,
        "barge": 1,
    }


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("#### Turns in one place") : doc.index("### Arcs: bearings")]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    header = 'ruleset demo "Demo"\nversion 1.0.0\nlanguages en fr\nunits distance hex, cost MP\n'
    compiled = compile_snippet(compiler, header + terrain)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = import_rendered(compiled.ruleset, tmp_path, "turn_limit_guide")
    board = m.Board({(q, r): ("open_sea",) for q in range(6) for r in range(6)}, grid="sea")
    sloop = m.route_cost(board, "sloop", _turns((2, 2), 0, 1, 2, 3), 6)
    assert sloop.reason == "step 3 turns 3 hexsides in one place (at most 2 hexsides)"
    moved = _turns((2, 2), 0, 1, 2) + _turns((2, 1), 2, 3, 4)
    assert m.route_cost(board, "sloop", moved, 6).legal
    galleon = m.route_cost(board, "galleon", _turns((2, 2), 0, 1, 2), 6)
    assert galleon.reason == "step 2 turns 2 hexsides in one place (at most 1 hexside)"
    slow = m.route_cost(board, "galleon", _turns((2, 2), 0, 1, 2), 2)
    assert [(s.move, s.cost) for s in slow.steps] == [("turn", 1.0), ("pivot", 3.0)]
    about = m.cheapest_route(board, "galleon", ((2, 2), 0), ((2, 2), 3), 12)
    assert about is not None and about.total == 12.0
    hexes = {s.end for s in about.steps} - {(2, 2)}
    assert len(hexes) == 6
    for shown in (
        "`step 3 turns 3 hexsides in one place (at most 2 hexsides)`",
        "`step 2 turns 2\nhexsides in one place (at most 1 hexside)`",
        "costs 12 MP, sailing round through six hexes",
        '"In one place\nit turns at most 1 hexside(s); a pivot is not counted."',
    ):
        assert shown in section
