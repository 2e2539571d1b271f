"""A unit type's own allowance (issue 40, item 5): ``mode tank "Tank" allowance 6 in``, data
of the unit type that route_cost, cheapest_route and reachable use when the caller gives no
allowance or budget (a caller's value still wins; a kind of move scales it). The module and
the reference semantics answer alike, and the JavaScript module as the Python one; misuse is
E386 or E203 at line and column; YAML, sheets, diff and house rules carry it."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics import routes as semantic_routes
from rulesdsl.versions import diff as semantic
from tests.conftest import compile_snippet, import_rendered
from tests.guide_answers import js_differential
from tests.test_js_target import node
from tests.test_sight_and_results import located

__all__ = ["node"]  # the fixture

HEADER = """ruleset platoon "Platoon"
version 1.0.0
units distance in, cost in
minimum move 1 in
"""
RULES = """mode tank "Tank" allowance 6 in
mode infantry "Infantry" allowance 4 in
mode scout "Scout"
move run "Run" : allowance times 2, only infantry
layer terrain "Terrain" one per place {
  clear "Clear" | 1
  woods "Woods" | 2, tank 3
}
"""
HEADER_LINES = HEADER.count("\n")


def _ruleset(compiler: Compiler, body: str = RULES) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def platoon(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset(Compiler())
    return rs, import_rendered(rs, tmp_path_factory.mktemp("own"), "own_allowance_module")


def _lane(module: Any) -> Any:
    """Ten places in a row, woods at (3, 0)."""
    places = {(x, 0): ("clear",) for x in range(10)}
    places[(3, 0)] = ("woods",)
    return module.Board(places, {}, grid="square")


def test_the_unit_types_allowance_is_data_of_the_module(platoon: tuple[ir.Ruleset, Any]) -> None:
    rs, module = platoon
    assert [(m.id, m.allowance) for m in rs.modes] == [
        ("tank", 6.0),
        ("infantry", 4.0),
        ("scout", None),
    ]
    assert module.MODES["tank"].allowance == 6 and module.MODES["scout"].allowance is None


def test_reachable_without_a_budget_uses_the_unit_types_own_allowance(
    platoon: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = platoon
    board = _lane(module)
    tank = module.reachable(board, "tank", (0, 0))
    assert (max(tank), tank.budget) == ((4, 0), 6)  # 1 + 1 + 3 (woods) + 1
    infantry = module.reachable(board, "infantry", (0, 0))
    assert max(infantry) == (3, 0)  # 1 + 1 + 2
    assert max(module.reachable(board, "tank", (0, 0), 2)) == (2, 0)  # the caller's wins
    neighbours = {p: [n for n, _ in board.neighbours(p)] for p in board.places}
    for mode, reach in (("tank", tank), ("infantry", infantry)):
        reference = semantic_routes.reachable(rs, mode, (0, 0), None, board.places, neighbours, {})
        assert reference == dict(reach)


def test_a_kind_of_move_scales_the_unit_types_own_allowance(
    platoon: tuple[ir.Ruleset, Any],
) -> None:
    _, module = platoon
    run = module.reachable(_lane(module), "infantry", (0, 0), move="run")
    assert (max(run), run.budget) == ((7, 0), 8)  # 4 times 2


def test_route_cost_without_an_allowance_is_judged_by_the_unit_types_own(
    platoon: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = platoon
    board = _lane(module)
    route = [(x, 0) for x in range(6)]  # 1 + 1 + 3 + 1 + 1 = 7
    answer = module.route_cost(board, "tank", route)
    assert (answer.total, answer.legal, answer.reason) == (
        7.0,
        False,
        "the route costs more than the allowance",
    )
    assert module.route_cost(board, "tank", route, allowance=8).legal  # the caller's wins
    assert module.route_cost(board, "scout", route).legal  # no allowance: no limit
    steps = [(board.places[b], ()) for b in route[1:]]
    assert semantic_routes.route(rs, "tank", steps).reason == answer.reason
    assert module.cheapest_route(board, "tank", (0, 0), (5, 0)) is None
    assert module.cheapest_route(board, "infantry", (0, 0), (2, 0)).legal


def test_a_worked_route_example_with_a_kind_of_move_scales_the_unit_types_own_allowance(
    compiler: Compiler,
) -> None:
    """The build's check of a worked example judged a running infantryman's 6 in route by
    its own 4 in, unscaled, where the module gives it 8 (found by armour_inches' dash)."""
    example = (
        'example run_far "Running infantry go 6 in" {\n'
        "  route_cost(infantry, (clear), (clear), (clear), (clear), (clear), (clear), (clear), "
        "move=run) = 6 in\n"
        "  route_cost(infantry, (clear), (clear), (clear), (clear), (clear), (clear), (clear)) "
        "= 6 in, illegal\n}\n"
    )
    compiled = compile_snippet(compiler, HEADER + RULES + example)
    assert [str(d) for d in compiled.diagnostics if d.is_error] == []


def test_reachable_without_a_budget_for_a_unit_type_with_no_allowance_is_refused(
    platoon: tuple[ir.Ruleset, Any],
) -> None:
    _, module = platoon
    with pytest.raises(module.ArgumentError, match="budget"):
        module.reachable(_lane(module), "scout", (0, 0))


def test_js_module_answers_allowance_questions_as_python(node: str, tmp_path: Path) -> None:
    rs = _ruleset(Compiler())
    answers = [str(e) for e in js_differential(rs, "allowance", 40, tmp_path)]
    # the questions reach the rules (the Python answers; the JavaScript agrees)
    assert any("more than the allowance" in a for a in answers)
    assert any("budget" in a and "error" in a for a in answers)


def test_an_allowance_of_zero_is_e386(compiler: Compiler) -> None:
    text = HEADER + RULES.replace("allowance 6 in", "allowance 0 in")
    assert located(compiler, text) == [("E386", HEADER_LINES + 1, 28)]


@pytest.mark.parametrize("unit", ["MP", "km"])
def test_an_allowance_in_another_unit_than_the_cost_unit_is_e203(
    compiler: Compiler, unit: str
) -> None:
    """MP is no length; km is one, but the allowance is not converted: both are refused."""
    text = HEADER + RULES.replace("allowance 4 in", f"allowance 4 {unit}")
    assert located(compiler, text) == [("E203", HEADER_LINES + 2, 36)]


@pytest.mark.parametrize("unit", ["MP", "km"])
def test_an_amount_a_kind_of_move_adds_in_another_unit_is_e203(
    compiler: Compiler, unit: str
) -> None:
    """`allowance +3 km` on a kind of move, the cost in inches, was read as 3 in: an amount
    added to the allowance is in the cost unit as the allowance is, and is not converted."""
    text = HEADER + RULES + f'move charge "Charge" : allowance +3 {unit}\n'
    assert located(compiler, text) == [("E203", HEADER_LINES + 9, 34)]


def test_own_allowances_survive_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + RULES, "platoon.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "tank: {label: Tank, allowance: 6 in}" in yaml_text
    yaml_path = tmp_path / "platoon.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "platoon.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p) for p in (yaml_path, back)]
    plain = [dataclasses.replace(c.ruleset, digest="") for c in found if c.ruleset is not None]
    assert len(plain) == 2 and plain[0] == plain[1], [str(d) for c in found for d in c.diagnostics]
    assert plain[0].modes == _ruleset(Compiler()).modes


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Unit allowances"),
        ("fr", "Potentiels de mouvement"),
        ("de", "Bewegungsweiten"),
        ("ru", "Запас хода"),
    ],
)
def test_the_sheet_lists_the_unit_types_allowances_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "platoon.terrain"
    text = HEADER.replace("version 1.0.0\n", "version 1.0.0\nlanguages en fr de ru\n") + RULES
    ruleset.write_text(text, "utf-8")
    target = tmp_path / f"platoon.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    sheet = target.read_text("utf-8")
    assert words in sheet and "Tank" in sheet.split(words)[1].split("###")[0]


def test_diff_grades_a_changed_or_given_allowance_as_breaking(compiler: Compiler) -> None:
    old = _ruleset(compiler)
    new = _ruleset(
        compiler,
        RULES.replace("allowance 6 in", "allowance 5 in").replace(
            'mode scout "Scout"', 'mode scout "Scout" allowance 8 in'
        ),
    )
    d = semantic.diff(old, new)
    assert [(c.level, c.path, c.message) for c in d.changes] == [
        ("breaking", "tank.allowance", "Tank: own allowance 6 in -> 5 in"),
        ("breaking", "scout.allowance", "Scout: own allowance none -> 8 in"),
    ]


def test_a_house_rule_overrides_a_unit_types_allowance(tmp_path: Path) -> None:
    (tmp_path / "platoon.terrain").write_text(HEADER + RULES, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends platoon@^1.0\n'
        "override tank.allowance | 5 in\noverride scout.allowance | 8 in\n",
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert [m.allowance for m in compiled.ruleset.modes] == [5.0, 4.0, 8.0]


def test_the_docs_example_gives_the_answers_the_docs_say(
    compiler: Compiler, tmp_path: Path
) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index('```terrain\n  ruleset platoon "Platoon"')
    snippet = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    compiled = compile_snippet(compiler, "\n".join(x[2:] for x in snippet.splitlines()) + "\n")
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = import_rendered(compiled.ruleset, tmp_path, "platoon_docs")
    board = _lane(m)
    assert max(m.reachable(board, "tank", (0, 0))) == (4, 0)
    assert max(m.reachable(board, "infantry", (0, 0))) == (3, 0)
    assert max(m.reachable(board, "infantry", (0, 0), move="run")) == (7, 0)
    route = m.route_cost(board, "tank", [(x, 0) for x in range(6)])
    assert (route.total, route.reason) == (7, "the route costs more than the allowance")
    assert m.MODES["tank"].allowance == 6 and m.MODES["scout"].allowance is None
    flat = " ".join(doc.split())
    for shown in ("reaches `(4, 0)`", "the infantry `(3, 0)`", "`(7, 0)` (8 in)", "(7 in) is not"):
        assert shown in flat
