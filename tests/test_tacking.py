"""Tacking and wearing (issue 40, item 4): `tack +2 MP`, `wear +1 MP`, `may not tack` on a facing
rule, with the wind (the heading it blows from) passed to each route call; both modules and
the reference semantics, misuse, sheet words, diff grading, YAML form, house rule and the
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

HEADER = """ruleset ocean "Ocean"
version 1.0.0
units distance hex, cost MP
grid ocean "Ocean hex" : 1 hex, hex
mode brig "Brig"
mode barque "Barque"
mode launch "Launch"
layer waters "Waters" one per place {
  deep "Deep water" | 1
  shallows "Shallows" | 2
}
"""
RULES = """facing brig on ocean : turn 1 MP per hexside, tack +2 MP
facing barque on ocean : turn 1 MP per hexside, tack +1 MP, may not wear
facing launch on ocean : turn 1 MP per hexside
"""
HEADER_LINES = HEADER.count("\n")


def _ruleset(compiler: Compiler, body: str = RULES) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def ocean(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset(Compiler())
    return rs, import_rendered(rs, tmp_path_factory.mktemp("wind"), "tacking_module")


def _board(module: Any) -> Any:
    return module.Board({(q, r): ("deep",) for q in range(6) for r in range(6)}, grid="ocean")


def _turns(*headings: int) -> list[Any]:
    return [((2, 2), h) for h in headings]


def test_a_turn_onto_the_winds_heading_pays_the_tack(ocean: tuple[ir.Ruleset, Any]) -> None:
    m = ocean[1]
    answer = m.route_cost(_board(m), "brig", _turns(0, 1, 2), 9, wind=2)
    assert (answer.total, answer.legal) == (4.0, True)
    assert [s.cost for s in answer.steps] == [1.0, 3.0]
    assert m.route_cost(_board(m), "brig", _turns(0, 1, 2), 9, wind=4).total == 2.0


def test_turns_in_one_action_pay_each_hexside_they_cross(ocean: tuple[ir.Ruleset, Any]) -> None:
    m = ocean[1]
    assert m.route_cost(_board(m), "brig", _turns(0, 2), 9, wind=1).total == 4.0


def test_a_refused_wear_is_illegal_and_says_which_step(ocean: tuple[ir.Ruleset, Any]) -> None:
    m = ocean[1]
    answer = m.route_cost(_board(m), "barque", _turns(0, 5, 4), 9, wind=1)
    assert (answer.legal, answer.total) == (False, 2.0)
    assert answer.reason == "step 2 turns its stern across the wind: it may not wear"


def test_the_searches_go_round_a_refused_or_dear_turn(ocean: tuple[ir.Ruleset, Any]) -> None:
    m = ocean[1]
    route = m.cheapest_route(_board(m), "barque", ((2, 2), 0), ((2, 2), 3), 9, wind=1)
    assert route is not None and route.total == 4.0
    assert [s.heading for s in route.steps] == [1, 2, 3]  # not through 4: a wear
    assert m.cheapest_route(_board(m), "barque", ((2, 2), 0), ((2, 2), 4), 9, wind=1) is None
    assert m.cheapest_route(_board(m), "barque", ((2, 2), 0), ((2, 2), 4), wind=1) is None
    reach = m.reachable(_board(m), "barque", ((2, 2), 0), 2, wind=1)
    assert ((2, 2), 4) not in reach and reach[(2, 2), 1] == 2.0


def test_the_wind_is_a_checked_argument(ocean: tuple[ir.Ruleset, Any]) -> None:
    m = ocean[1]
    with pytest.raises(m.InvalidArgument, match="'wind' must be given"):
        m.route_cost(_board(m), "brig", _turns(0, 1), 9)
    with pytest.raises(m.InvalidArgument, match="must be 0 to 5"):
        m.cheapest_route(_board(m), "brig", ((2, 2), 0), ((2, 2), 1), 9, wind=6)
    with pytest.raises(m.ArgumentTypeError, match="must be an int"):
        m.reachable(_board(m), "brig", ((2, 2), 0), 2, wind=True)
    assert m.route_cost(_board(m), "launch", _turns(0, 1), 9).total == 1.0  # needs none


def test_the_module_agrees_with_the_reference_semantics(ocean: tuple[ir.Ruleset, Any]) -> None:
    rs, m = ocean
    rng = random.Random(40)
    board = _board(m)
    for _ in range(300):
        mode = rng.choice(["brig", "barque"])
        heading, wind = rng.randrange(6), rng.randrange(6)
        route, actions = [((2, 2), heading)], []
        for _ in range(rng.randint(1, 5)):
            heading = (heading + rng.choice([1, -1])) % 6
            route.append(((2, 2), heading))
            actions.append(semantic_facing.Action("turn", heading=heading))
        got = m.route_cost(board, mode, route, 9, wind=wind)
        want = semantic_facing.route(rs, mode, actions, 9, wind=wind)
        assert (got.total, got.legal, got.reason) == (want.total, want.legal, want.reason)


def test_a_module_without_tacks_takes_no_wind(compiler: Compiler, tmp_path: Path) -> None:
    m = import_rendered(_ruleset(compiler, RULES.splitlines()[2] + "\n"), tmp_path, "no_wind")
    with pytest.raises(TypeError):
        m.route_cost(_board(m), "launch", _turns(0, 1), 9, wind=1)


def test_js_module_answers_wind_questions_as_python(node: str, tmp_path: Path) -> None:
    expected = turning_checks.js_answers(_ruleset(Compiler()), tmp_path, "js_tacking")
    answers = [str(e) for e in expected]
    assert sum("it may not wear" in a for a in answers) > 0
    assert any("'wind'" in a for a in answers)


# ---- checks, YAML, sheets, diff, house rules, docs --------------------------------------------


def test_a_tack_given_twice_is_e284(compiler: Compiler) -> None:
    text = HEADER + "facing brig on ocean : turn 1 MP per hexside, tack +1 MP, may not tack\n"
    assert located(compiler, text) == [("E284", HEADER_LINES + 1, 59)]


def test_a_negative_tack_is_e287(compiler: Compiler) -> None:
    text = HEADER + "facing brig on ocean : turn 1 MP per hexside, tack -1 MP\n"
    assert located(compiler, text) == [("E287", HEADER_LINES + 1, 52)]


def test_tacks_survive_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    found = turning_checks.round_trip(HEADER + RULES, tmp_path, "may not wear", "tack +2 MP")
    assert [(f.tack, f.refused) for f in found.facings] == [
        (2.0, ()),
        (1.0, ("wear",)),
        (None, ()),
    ]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "It may not wear (turn onto the heading the wind blows to)."),
        ("fr", "Ne peut pas virer lof pour lof"),
        ("de", "Darf nicht halsen"),
        ("ru", "Не может делать поворот через фордевинд"),  # noqa: RUF001
    ],
)
def test_the_sheet_says_the_turns_by_the_wind_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    assert words in turning_checks.sheet_text(HEADER + RULES, tmp_path, lang)


def test_diff_grades_a_dearer_or_refused_tack_as_breaking(compiler: Compiler) -> None:
    old = _ruleset(compiler)
    body = RULES.replace("tack +2 MP", "may not tack").replace(", may not wear", "")
    new = _ruleset(compiler, body)
    assert [(c.level, c.path, c.message) for c in semantic.diff(old, new).changes] == [
        ("breaking", "facing.brig.tack", "brig: tack +2 -> refused"),
        ("rules", "facing.barque.wear", "barque: wear refused -> no rule"),
    ]


def test_a_house_rule_writes_the_facing_line_again_with_its_own_tack(tmp_path: Path) -> None:
    (tmp_path / "ocean.terrain").write_text(HEADER + RULES, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends ocean@^1.0\n'
        "facing brig on ocean : turn 1 MP per hexside, tack +3 MP\n",
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert {f.mode: f.tack for f in compiled.ruleset.facings}["brig"] == 3.0


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("#### Tacking and wearing") : doc.index("#### Turns in one place")]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    header = 'ruleset demo "Demo"\nversion 1.0.0\nlanguages en fr\nunits distance hex, cost MP\n'
    compiled = compile_snippet(compiler, header + terrain)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = import_rendered(compiled.ruleset, tmp_path, "tacking_guide")
    board = m.Board({(q, r): ("deep",) for q in range(5) for r in range(5)}, grid="ocean")
    assert m.route_cost(board, "brig", _turns(0, 1, 2), 9, wind=2).total == 4.0
    refused = m.route_cost(board, "barque", _turns(0, 5, 4), 9, wind=1)
    assert refused.reason == "step 2 turns its stern across the wind: it may not wear"
    about = m.cheapest_route(board, "barque", ((2, 2), 0), ((2, 2), 3), 9, wind=1)
    assert about is not None and about.total == 4.0
    assert [s.heading for s in about.steps] == [1, 2, 3]
    for shown in (
        '`route_cost(board, "brig", route, 9, wind=2).total` is 4.0',
        "`step 2 turns its stern across the wind: it\nmay not wear`",
        "0 to 1 (a tack, 2 MP), 2 and 3: 4 MP",
    ):
        assert shown in section
