"""A bonus for the whole route (issue 40, item 6): "+4 in if the whole move is on road"
(``whole move road_march "Road march" : on road, allowance +4 in``). A route every step of
which crosses or enters one of the features may cost the allowance plus the bonus;
cheapest_route and reachable search with it. The module and the reference semantics answer
alike."""

from __future__ import annotations

import dataclasses
import random
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

HEADER = """ruleset wb "Road march"
version 1.0.0
units distance hex, cost MP
mode foot "Foot"
grid hexes "Hex" : 1 hex = 1 km, hex
"""
RULES = """layer terrain "Terrain" one per place {
  clear "Clear"  | 2
}
layer hexsides "Hexsides" edges {
  road "Road"    | along 1/2
  river "River"  | +2
}
whole move road_march "Road march" : on road, allowance +2 MP
"""


def _ruleset(body: str = RULES) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


def _board(module: Any) -> Any:
    """One row of six hexes with a road along its first four: (0,0)-(1,0)-(2,0)-(3,0)."""
    places = {(q, r): ("clear",) for q in range(6) for r in range(2)}
    edges: dict[Any, Any] = {}
    for q in range(3):
        a, b = (q, 0), (q + 1, 0)
        edges[a, b] = edges[b, a] = ("road",)
    return module.Board(places, edges, grid="hexes")


@pytest.fixture(scope="module")
def wb(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset()
    return rs, import_rendered(rs, tmp_path_factory.mktemp("wb"), "whole_bonus_module")


def _reference(rs: ir.Ruleset, route: Any, board: Any, allowance: float) -> Any:
    steps = [(board.places[b], board.edges.get((a, b), ())) for a, b in pairwise(route)]
    return semantic_routes.route(rs, "foot", steps, allowance)


def test_a_route_wholly_on_road_may_cost_the_allowance_plus_the_bonus(wb: Any) -> None:
    rs, module = wb
    board = _board(module)
    road = [(0, 0), (1, 0), (2, 0), (3, 0)]  # 3 steps along the road at 1/2 each
    answer = module.route_cost(board, "foot", road, allowance=0.5)
    assert (answer.total, answer.legal) == (1.5, True)  # 1.5 <= 0.5 + 2
    reference = _reference(rs, road, board, 0.5)
    assert (reference.total, reference.legal) == (1.5, True)
    too_far = module.route_cost(board, "foot", road + road[-2::-1], allowance=0.5)  # 3 > 2.5
    assert not too_far.legal and too_far.reason == "the route costs more than the allowance"


def test_a_route_with_one_step_off_road_gets_no_bonus(wb: Any) -> None:
    rs, module = wb
    board = _board(module)
    off = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]  # the last step leaves the road: 1.5 + 2
    answer = module.route_cost(board, "foot", off, allowance=3)
    assert (answer.total, answer.legal) == (3.5, False)  # 3.5 > 3, and no bonus
    assert not _reference(rs, off, board, 3).legal
    assert module.route_cost(board, "foot", off, allowance=3.5).legal


def test_reachable_goes_further_on_road_by_the_bonus(wb: Any) -> None:
    rs, module = wb
    board = _board(module)
    reach = module.reachable(board, "foot", (0, 0), allowance=0.5)
    assert (3, 0) in reach and reach[(3, 0)] == 1.5  # 3 steps of road: within 0.5 + 2
    assert (0, 1) not in reach and (4, 0) not in reach  # off road: a step of 2 > 0.5
    neighbours = {p: [q for q, _ in board.neighbours(p)] for p in board.places}
    reference = semantic_routes.reachable(
        rs, "foot", (0, 0), 0.5, board.places, neighbours, board.edges
    )
    assert reference == dict(reach)


def test_a_route_off_road_goes_on_with_the_allowance_alone(wb: Any) -> None:
    _, module = wb
    board = _board(module)
    reach = module.reachable(board, "foot", (5, 1), allowance=4)  # no road there
    assert reach[(3, 1)] == 4  # two steps off road, 2 each: the bonus lost, the allowance kept
    route = module.cheapest_route(board, "foot", (5, 1), (3, 1), allowance=4)
    assert route is not None and route.legal


def test_cheapest_route_takes_the_road_the_bonus_makes_legal(wb: Any) -> None:
    _, module = wb
    board = _board(module)
    route = module.cheapest_route(board, "foot", (0, 0), (3, 0), allowance=0.5)
    assert route is not None and route.legal and route.total == 1.5
    assert module.cheapest_route(board, "foot", (0, 0), (4, 0), allowance=0.5) is None


def test_a_whole_move_bonus_adds_more_than_0() -> None:
    assert located(Compiler(), HEADER + RULES.replace("+2 MP", "+0 MP")) == [("E421", 13, 57)]


def test_a_whole_move_bonus_in_another_unit_is_e203() -> None:
    assert located(Compiler(), HEADER + RULES.replace("+2 MP", "+2 AP")) == [("E203", 13, 57)]


def test_js_module_answers_whole_move_bonus_questions_as_python(node: str, tmp_path: Path) -> None:
    rs = _ruleset(RULES + 'whole move one_river "One river" : at most 1 river\n')
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "js_whole_bonus")
    module = write_package(plan, tmp_path / "js")
    queries = list(js_queries.families()["bonus"](random.Random(40), plan))
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
    routes = [
        (e["answer"][0]["route"], q["kwargs"]["allowance"])
        for q, e in zip(queries, expected, strict=True)
        if q["function"] == "route_cost"
    ]
    # the questions reach the bonus: legal routes that cost more than their allowance
    assert len([r for r, a in routes if r[2] and r[0] > a and len(r[1]) > 1]) >= 5


def test_a_whole_move_bonus_survives_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + RULES, "wb.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "bonus: +2 MP" in yaml_text
    yaml_path = tmp_path / "wb.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "wb.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p) for p in (yaml_path, back)]
    plain = [dataclasses.replace(c.ruleset, digest="") for c in found if c.ruleset is not None]
    assert len(plain) == 2 and plain[0] == plain[1], [str(d) for c in found for d in c.diagnostics]
    assert [w.bonus for w in plain[0].whole_moves] == [2.0]
    assert plain[0].whole_moves == _ruleset().whole_moves


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Allowance +2 MP when the whole move is on: Road"),
        ("fr", "Potentiel +2 PM si tout le mouvement est sur\u202f: Road"),
        ("de", "Bewegungsvorrat +2 BP, wenn die ganze Bewegung entlang: Road"),
        ("ru", "Запас движения +2 ОД, если всё движение по: Road"),
    ],
)
def test_the_sheet_says_a_whole_move_bonus_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "wb.terrain"
    text = HEADER.replace("version 1.0.0\n", "version 1.0.0\nlanguages en fr de ru\n") + RULES
    ruleset.write_text(text, "utf-8")
    target = tmp_path / f"wb.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert words in target.read_text("utf-8")


def test_diff_grades_a_whole_move_bonus_changed_or_added_as_breaking() -> None:
    old = _ruleset()
    new = _ruleset(
        RULES.replace("+2 MP", "+3 MP")
        + 'whole move river_march "River" : on river, allowance +1\n'
    )
    d = semantic.diff(old, new)
    assert [(c.level, c.action, c.path, c.message) for c in d.changes] == [
        ("breaking", "added", "river_march", "whole-move rule added: River"),
        (
            "breaking",
            "changed",
            "road_march",
            "Road march: on road, allowance +2 -> on road, allowance +3",
        ),
    ]


def test_a_house_rule_replaces_a_whole_move_bonus(tmp_path: Path) -> None:
    (tmp_path / "wb.terrain").write_text(HEADER + RULES, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends wb@^1.0\nremove road_march\n'
        'whole move fast_road "Fast road" : on road, allowance +3 MP\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert {w.id: w.bonus for w in compiled.ruleset.whole_moves} == {"fast_road": 3.0}


def test_the_language_guide_bonus_example_answers_as_it_says(tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[
        doc.index("### A bonus for the whole route") : doc.index("## Rolls due on the map")
    ]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    start = section.index("```python\n") + len("```python\n")
    python = section[start : section.index("```", start)]
    header = HEADER.replace("version 1.0.0\n", "version 1.0.0\nlanguages en fr\n")
    header += 'layer terrain "Terrain" one per place {\n  clear "Clear" | 1\n}\n'
    header += 'layer hexsides "Hexsides" edges {\n  road "Road" | along 1/2\n}\n'
    compiled = compile_snippet(Compiler(), header + terrain)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    module = import_rendered(compiled.ruleset, tmp_path, "whole_bonus_guide")
    names: dict[str, Any] = {"Board": module.Board}
    names["places"] = {(q, r): ("clear",) for q in range(4) for r in range(3)}
    exec("\n".join(line for line in python.splitlines() if "(march" not in line), names)
    march = names["march"]
    along = [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert module.route_cost(march, "foot", along, allowance=1).legal is True
    assert module.route_cost(march, "foot", [(0, 0), (1, 0), (1, 1)], allowance=1).legal is False
    assert module.reachable(march, "foot", (0, 0), allowance=1)[(3, 0)] == 1.5
    for shown in (
        "allowance=1).legal  # True: 1.5 <= 1 + 2",
        "allowance=1).legal  # False: 1.5, off road",
        "allowance=1)[(3, 0)]  # 1.5: three steps of road",
    ):
        assert shown in python


def test_a_state_beside_a_whole_move_bonus_is_no_longer_e403() -> None:
    state = 'state speed "Speed" : 0 to 8\n'
    assert located(Compiler(), HEADER + RULES + state) == []


def test_a_whole_move_bonus_beside_a_facing_rule_is_no_longer_e298() -> None:
    facing = "facing foot on hexes : turn 1 per hexside\n"
    assert located(Compiler(), HEADER + RULES + facing) == []  # tests/test_facing_whole_move.py


def test_the_module_reaches_as_the_semantics_on_random_road_boards(wb: Any) -> None:
    rs, module = wb
    plan = module_plan.build(rs)
    asked = 0
    rng = random.Random(8)
    for query in js_queries.families()["bonus"](random.Random(7), plan):
        if query["function"] != "reachable" or query["board"]["grid"] != "hex":
            continue  # the rules declare a hex grid
        spec = query["board"]
        places = {tuple(p): tuple(f) for p, f in spec["places"]}
        edges = {(tuple(a), tuple(b)): tuple(f) for (a, b), f in spec["edges"] or []}
        board = module.Board(places, edges, grid="hexes")
        neighbours = {p: [q for q, _ in board.neighbours(p)] for p in places}
        _, start, small = query["args"]
        budget = small + rng.choice([0, 4, 8])  # room for steps off road too
        got = dict(module.reachable(board, "foot", tuple(start), budget))
        want = semantic_routes.reachable(
            rs, "foot", tuple(start), budget, places, neighbours, edges
        )
        assert got == want, (query, got, want)
        asked += 1
    assert asked >= 20
