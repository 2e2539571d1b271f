"""Whole-move conditions (issue 40, item 6): a rule about the whole route, as published rules
say them -- "a unit that crosses a hedge may not fire" (``whole move no_fire "May not fire" :
crosses hedge``: the route carries the rule, ``Route.marks``) and "at most one hexside of river
per move" (``whole move one_river "One river a move" : at most 1 river``: a route with more is
not legal, and route searches go round). The module and the reference semantics answer alike,
and the JavaScript module as the Python one."""

from __future__ import annotations

import dataclasses
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
from rulesdsl.semantics import routes as semantic_routes
from rulesdsl.versions import diff as semantic
from tests import js_queries
from tests.conftest import compile_snippet, import_rendered
from tests.test_js_target import node, write_package
from tests.test_sight_and_results import located

__all__ = ["node"]  # the fixture

HEADER = """ruleset wm "Whole moves"
version 1.0.0
minimum move 1 hex
mode foot "Foot"
mode truck "Truck"
grid hexes "Hex" : 1 hex = 1 km, hex
"""
RULES = """layer terrain "Terrain" one per place {
  clear "Clear"  | 1
  marsh "Marsh"  | 2, truck 3 may not end
}
layer hexsides "Hexsides" edges {
  river "River"  | +2, truck impassable
  hedge "Hedge"  | +1
  road "Road"    | along 1/2
}
whole move one_river "One river a move" : at most 1 river
whole move no_fire "May not fire" : crosses hedge or marsh
"""


def _ruleset(compiler: Compiler, body: str = RULES) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


def _board(module: Any) -> Any:
    """Three rows of four hexes; two rivers in a row along the top, a hedge below them."""
    places = {(q, r): ("clear",) for q in range(4) for r in range(3)}
    places[(3, 2)] = ("marsh",)
    edges: dict[Any, Any] = {}
    for a, b, f in [
        ((0, 0), (1, 0), "river"),
        ((1, 0), (2, 0), "river"),
        ((0, 1), (1, 1), "hedge"),
    ]:
        edges[a, b] = edges[b, a] = (f,)
    return module.Board(places, edges, grid="hexes")


@pytest.fixture(scope="module")
def wm(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset(Compiler())
    return rs, import_rendered(rs, tmp_path_factory.mktemp("wm"), "whole_move_module")


def _reference(rs: ir.Ruleset, mode: str, route: Any, board: Any) -> semantic_routes.RouteAnswer:
    steps = [(board.places[b], board.edges.get((a, b), ())) for a, b in pairwise(route)]
    return semantic_routes.route(rs, mode, steps)


def test_a_route_beyond_a_whole_move_limit_is_not_legal_and_says_which_step(
    wm: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = wm
    board = _board(module)
    route = [(0, 0), (1, 0), (2, 0)]  # two rivers
    answer = module.route_cost(board, "foot", route)
    assert (answer.total, answer.legal) == (6.0, False)
    assert answer.reason == "step 2 goes beyond 'One river a move' (at most 1 per move)"
    reference = _reference(rs, "foot", route, board)
    assert (reference.legal, reference.reason) == (answer.legal, answer.reason)
    assert module.route_cost(board, "foot", route[:2]).legal  # one river is within the limit


def test_a_route_that_crosses_a_marked_feature_carries_the_rule(
    wm: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = wm
    board = _board(module)
    for route, marks in [
        ([(0, 1), (1, 1)], ("no_fire",)),  # across the hedge
        ([(2, 2), (3, 2)], ("no_fire",)),  # into the marsh (a place feature counts too)
        ([(0, 2), (1, 2)], ()),
    ]:
        answer = module.route_cost(board, "foot", route)
        assert (answer.marks, answer.legal) == (marks, True), route
        assert _reference(rs, "foot", route, board).marks == marks


def test_cheapest_route_goes_round_a_whole_move_limit(wm: tuple[ir.Ruleset, Any]) -> None:
    """Along the road over both fords is 5; the limit leaves one ford and the marsh (5.5),
    dearer but the cheapest legal route, which carries the marsh's rule."""
    _, module = wm
    places = {(q, r): ("clear",) for q in range(4) for r in range(3)}
    places[(1, 1)] = ("marsh",)
    del places[(0, 1)]  # the way round is by (1, 1)
    edges: dict[Any, Any] = {}
    for a, b in [((0, 0), (1, 0)), ((1, 0), (2, 0))]:
        edges[a, b] = edges[b, a] = ("river", "road")  # a road over fords: 2.5 a step
    board = module.Board(places, edges, grid="hexes")
    fords = module.route_cost(board, "foot", [(0, 0), (1, 0), (2, 0)])
    assert (fords.total, fords.legal) == (5.0, False)
    best = module.cheapest_route(board, "foot", (0, 0), (2, 0))
    assert [s.end for s in best.steps] == [(1, 0), (1, 1), (2, 0)]
    assert (best.total, best.legal, best.marks) == (5.5, True, ("no_fire",))


def test_reachable_counts_a_place_only_by_routes_within_the_limits(
    wm: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = wm
    places = {(q, 0): ("clear",) for q in range(4)}
    edges: dict[Any, Any] = {}
    for q in range(3):
        edges[(q, 0), (q + 1, 0)] = edges[(q + 1, 0), (q, 0)] = ("river",)
    board = module.Board(places, edges, grid="hexes")
    reach = module.reachable(board, "foot", (0, 0), 20)
    assert dict(reach) == {(0, 0): 0.0, (1, 0): 3.0}
    neighbours = {p: [n for n, _ in board.neighbours(p)] for p in places}
    assert semantic_routes.reachable(rs, "foot", (0, 0), 20, places, neighbours, edges) == dict(
        reach
    )


def test_rules_without_whole_move_rules_keep_their_route_and_module(compiler: Compiler) -> None:
    """No ``marks`` field and no limited search in a module whose rules have none."""
    rs = _ruleset(compiler, RULES.split("whole move")[0])
    text = module_plan.build(rs).movement
    assert text.whole_moves == ()
    from tests.conftest import render

    source = render(rs)
    assert "marks" not in source and "_limited_search" not in source


def test_js_module_answers_whole_move_questions_as_python(node: str, tmp_path: Path) -> None:
    rs = _ruleset(Compiler())
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "js_whole_move")
    module = write_package(plan, tmp_path / "js")
    queries = list(js_queries.families()["whole_move"](__import__("random").Random(40), plan))
    queries += js_queries.queries(plan, seed=40)
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
    answers = [str(e) for e in expected]  # the questions reach the rules
    assert any("goes beyond" in a for a in answers) and any("no_fire" in a for a in answers)


# ---- checks, YAML, sheets, diff, house rules, docs --------------------------------------------

HEADER_LINES = HEADER.count("\n")
RULES_LINES = RULES.count("\n")


def test_a_feature_named_twice_in_a_whole_move_rule_is_e297(compiler: Compiler) -> None:
    text = HEADER + RULES + 'whole move twice "Twice" : crosses hedge or hedge\n'
    assert located(compiler, text) == [("E297", HEADER_LINES + RULES_LINES + 1, 45)]


def test_an_unknown_feature_in_a_whole_move_rule_is_e101_at_its_name(compiler: Compiler) -> None:
    text = HEADER + RULES + 'whole move typo "Typo" : at most 1 rivr\n'
    assert located(compiler, text) == [("E101", HEADER_LINES + RULES_LINES + 1, 36)]


def test_a_whole_move_rule_beside_a_facing_rule_is_no_longer_e298(compiler: Compiler) -> None:
    text = HEADER + RULES + "facing truck on hexes : turn 1 per hexside\n"
    assert located(compiler, text) == []  # tests/test_facing_whole_move.py


def test_whole_move_rules_survive_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + RULES, "wm.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "most: 1" in yaml_text and "features: [hedge, marsh]" in yaml_text
    yaml_path = tmp_path / "wm.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "wm.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p) for p in (yaml_path, back)]
    plain = [dataclasses.replace(c.ruleset, digest="") for c in found if c.ruleset is not None]
    assert len(plain) == 2 and plain[0] == plain[1], [str(d) for c in found for d in c.diagnostics]
    assert plain[0].whole_moves == _ruleset(Compiler()).whole_moves


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "At most 1 per move: River"),
        ("fr", "Au plus 1 par mouvement\u202f: River"),
        ("de", "Höchstens 1 pro Bewegung: River"),
        ("ru", "Не более 1 за движение: River"),  # noqa: RUF001
    ],
)
def test_the_sheet_says_each_whole_move_rule_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "wm.terrain"
    text = HEADER.replace("version 1.0.0\n", "version 1.0.0\nlanguages en fr de ru\n") + RULES
    ruleset.write_text(text, "utf-8")
    target = tmp_path / f"wm.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert words in target.read_text("utf-8")


def test_diff_grades_a_whole_move_rule_changed_or_added_as_breaking(compiler: Compiler) -> None:
    old = _ruleset(compiler)
    new = _ruleset(
        compiler,
        RULES.replace("at most 1 river", "at most 2 river")
        + ('whole move wall "Wall" : crosses road\n'),
    )
    d = semantic.diff(old, new)
    assert [(c.level, c.action, c.path, c.message) for c in d.changes] == [
        ("breaking", "added", "wall", "whole-move rule added: Wall"),
        (
            "breaking",
            "changed",
            "one_river",
            "One river a move: at most 1 river -> at most 2 river",
        ),
    ]


def test_a_house_rule_removes_a_whole_move_rule_and_writes_its_own(tmp_path: Path) -> None:
    (tmp_path / "wm.terrain").write_text(HEADER + RULES, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends wm@^1.0\nremove one_river\n'
        'whole move two_rivers "Two rivers a move" : at most 2 river\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    rules = {w.id: w.most for w in compiled.ruleset.whole_moves}
    assert rules == {"no_fire": None, "two_rivers": 2}


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("## Whole-move conditions") : doc.index("## Rolls due on the map")]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    start = section.index("```python\n") + len("```python\n")
    python = section[start : section.index("```", start)]
    header = HEADER.replace("version 1.0.0\n", "version 1.0.0\nlanguages en fr\n")
    header += 'layer terrain "Terrain" one per place {\n  clear "Clear" | 1\n}\n'
    compiled = compile_snippet(compiler, header + terrain)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    module = import_rendered(compiled.ruleset, tmp_path, "whole_move_guide")
    names: dict[str, Any] = {n: getattr(module, n) for n in ("Board", "route_cost")}
    names["cheapest_route"] = module.cheapest_route
    lines = python.splitlines()
    exec(
        "\n".join(line for line in lines if not line.startswith("#") and "(" not in line[:5]), names
    )
    board = names["board"]
    assert module.route_cost(board, "foot", [(0, 0), (1, 0), (2, 0)]).reason == (
        "step 2 goes beyond 'One river a move' (at most 1 per move)"
    )
    assert module.route_cost(board, "foot", [(0, 1), (1, 1)]).marks == ("no_fire",)
    assert module.cheapest_route(board, "foot", (0, 0), (2, 0)).total == 4.0
    for shown in (
        "# \"step 2 goes beyond 'One river a move' (at most 1 per move)\"",
        ".marks  # ('no_fire',)",
        ".total  # 4.0",
    ):
        assert shown in python


def test_a_yaml_limit_that_is_not_a_whole_number_is_e299(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + RULES, "wm.terrain")
    assert source is not None
    path = tmp_path / "wm.yaml"
    path.write_text(to_yaml(source).replace("most: 1", "most: '1.5'"), "utf-8")
    found = [d.code for d in Compiler().compile_file(path).diagnostics if d.is_error]
    assert found == ["E299"]
