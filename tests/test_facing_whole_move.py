"""Whole-move rules on facing routes (issue 40): a unit type with a `facing` line is judged by
the `whole move` lines as a unit without one (it was E298). A step forward, backward or
sideways counts by the edge it crosses and the place it enters; a turn crosses and enters
nothing, so it never counts, never breaks a limit and never loses a bonus. route_cost says the
first action beyond a limit and carries the `crosses` rules (FacingRoute.marks); a route every
step of which is on a bonus's features may cost the allowance plus the bonus; cheapest_route
and reachable search over the steps counted by each limit and bonus as they search over
headings. The module, its JavaScript twin and the reference semantics answer alike. A bonus
beside a unit type that spends its speed exactly is E493."""

from __future__ import annotations

import ast
import itertools
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import facing as semantic_facing
from tests import typescript
from tests.conftest import compile_snippet, import_rendered
from tests.guide_answers import js_differential
from tests.test_js_target import node, write_package
from tests.test_sight_and_results import located

__all__ = ["node"]  # the fixture

WAGONS = """ruleset wagons "Wagons"
version 1.0.0
units distance hex, cost MP
mode foot "Foot"
mode wagon "Wagon"
grid hexes "Hex" : 1 hex = 1 km, hex
layer terrain "Terrain" one per place {
  clear "Clear"  | 1
  marsh "Marsh"  | 2
}
layer hexsides "Hexsides" edges {
  road "Road"    | along 1/2
  river "River"  | +1
  hedge "Hedge"  | +1
  ford "Ford"    | along 1
}
whole move one_river "One river a move" : at most 1 river
whole move one_ford "One ford a move" : at most 1 ford
whole move no_fire "May not fire" : crosses hedge or marsh
whole move road_march "Road march" : on road, allowance +1 MP
facing wagon on hexes : turn 1 MP per hexside
"""

SAILING = (
    WAGONS.replace("turn 1 MP per hexside", "turn 1 MP per hexside, tack +1 MP")
    + 'state fuel "Fuel" : 0 to 3, marsh -1\n'
    + 'drift gust "Gust" : 1 when fuel below 2\n'
)
"""The same rules with the wagon tacking by the wind, a fuel state and drift besides."""

MARKS_ONLY = "".join(
    line
    for line in SAILING.splitlines(keepends=True)
    if "at most" not in line and "on road" not in line
)
"""Those rules with the `crosses` rule alone: the route carries it, the searches count nothing."""

ROAD = [((0, 0), (1, 0)), ((1, 0), (2, 0)), ((2, 0), (3, 0))]
"""A road along the first row, (0, 0) to (3, 0)."""


def _ruleset(text: str = WAGONS) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), text)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def wagons(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset()
    return rs, import_rendered(rs, tmp_path_factory.mktemp("wagons"), "facing_whole_module")


def _board(module: Any, edges: dict[Any, str], marsh: tuple[Any, ...] = ()) -> Any:
    """Two rows of five clear hexes (``marsh`` places marsh); ``edges`` both ways."""
    places = {
        (q, r): ("marsh",) if (q, r) in marsh else ("clear",) for q in range(5) for r in range(2)
    }
    both: dict[Any, tuple[str, ...]] = {}
    for (a, b), feature in edges.items():
        both[a, b] = both[b, a] = (feature,)
    return module.Board(places, both, grid="hexes")


def _reference(rs: ir.Ruleset, route: Any, **kwargs: Any) -> Any:
    """The reference semantics' answer for the actions of ``route`` (a FacingRoute)."""
    acts = [
        semantic_facing.Action("turn", heading=s.heading)
        if s.start == s.end
        else semantic_facing.Action("forward", s.features, s.edge)
        for s in route.steps
    ]
    return semantic_facing.route(rs, "wagon", acts, **kwargs)


def _same(rs: ir.Ruleset, route: Any, **kwargs: Any) -> None:
    ref = _reference(rs, route, **kwargs)
    assert (route.total, route.legal, route.reason) == (ref.total, ref.legal, ref.reason)
    assert route.marks == ref.marks


def test_whole_move_rules_beside_facing_rules_compile_clean() -> None:
    assert located(Compiler(), WAGONS) == []


def test_a_facing_route_beyond_a_whole_move_limit_is_not_legal_and_says_which_action(
    wagons: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = wagons
    board = _board(module, {((0, 0), (1, 0)): "river", ((1, 0), (2, 0)): "river"})
    moves = [((0, 0), 0), ((0, 0), 1), ((0, 0), 0), ((1, 0), 0), ((2, 0), 0)]
    route = module.route_cost(board, "wagon", moves, allowance=9)
    # two turns, then the first river (action 3, allowed) and the second (action 4: beyond)
    assert (route.legal, route.reason) == (
        False,
        "step 4 goes beyond 'One river a move' (at most 1 per move)",
    )
    _same(rs, route, allowance=9)
    assert module.route_cost(board, "wagon", moves[:4], allowance=9).legal


def test_a_facing_route_that_crosses_a_marked_feature_carries_the_rule(
    wagons: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = wagons
    board = _board(module, {((1, 0), (2, 0)): "hedge"})
    hedge = module.route_cost(board, "wagon", [((0, 0), 0), ((1, 0), 0), ((2, 0), 0)])
    assert (hedge.legal, hedge.marks) == (True, ("no_fire",))
    _same(rs, hedge)
    turned = module.route_cost(board, "wagon", [((1, 0), 0), ((1, 0), 1)])
    assert turned.marks == ()  # a turn beside the hedge crosses nothing
    _same(rs, turned)


def test_a_facing_route_wholly_on_road_may_cost_the_allowance_plus_the_bonus(
    wagons: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = wagons
    board = _board(module, dict.fromkeys(ROAD, "road"))
    # 0.5 + 1 (a turn, which keeps the bonus) + 1 (a turn back) + 0.5 + 0.5 = 3.5 > 3, <= 3 + 1
    moves = [((0, 0), 0), ((1, 0), 0), ((1, 0), 1), ((1, 0), 0), ((2, 0), 0), ((3, 0), 0)]
    on_road = module.route_cost(board, "wagon", moves, allowance=3)
    assert (on_road.total, on_road.legal) == (3.5, True)
    _same(rs, on_road, allowance=3)
    off = module.route_cost(board, "wagon", [((1, 1), 0), ((2, 1), 0), ((3, 1), 0)], allowance=1)
    assert (off.legal, off.reason) == (False, "the route costs more than the allowance")
    _same(rs, off, allowance=1)


def test_cheapest_facing_route_goes_round_a_whole_move_limit(
    wagons: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = wagons
    rivers = {((1, 0), (2, 0)): "river", ((2, 0), (3, 0)): "river"}
    board = _board(module, rivers)
    found = module.cheapest_route(board, "wagon", ((1, 0), 0), ((3, 0), 0))
    assert found is not None and found.legal
    crossed = [s.edge for s in found.steps if s.start != s.end]
    assert crossed.count(("river",)) <= 1
    straight = module.route_cost(board, "wagon", [((1, 0), 0), ((2, 0), 0), ((3, 0), 0)])
    assert (straight.total, straight.legal) == (4, False)  # cheaper, but beyond the limit
    assert found.total > straight.total
    _same(rs, found)


def test_facing_reachable_goes_further_on_road_by_the_bonus(
    wagons: tuple[ir.Ruleset, Any],
) -> None:
    _, module = wagons
    road = module.reachable(_board(module, dict.fromkeys(ROAD, "road")), "wagon", ((0, 0), 0), 1)
    # 3 road steps at 0.5: 1.5, within 1 + 1 on road; the same row without the road: 1 step
    assert road[(3, 0), 0] == 1.5
    plain = module.reachable(_board(module, {}), "wagon", ((0, 0), 0), 1)
    assert ((3, 0), 0) not in plain and plain[(1, 0), 0] == 1.0
    found = module.cheapest_route(
        _board(module, dict.fromkeys(ROAD, "road")), "wagon", ((0, 0), 0), (3, 0), allowance=1
    )
    assert found is not None and found.total == 1.5 and found.legal


def _moves(start: Any, depth: int) -> list[list[Any]]:
    """Every move from ``start`` of up to ``depth`` actions: a step forward or a turn."""
    offsets = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    found: list[list[Any]] = [[start]]
    frontier = [[start]]
    for _ in range(depth):
        frontier = [
            [*m, nxt]
            for m in frontier
            for nxt in (
                (
                    (m[-1][0][0] + offsets[m[-1][1]][0], m[-1][0][1] + offsets[m[-1][1]][1]),
                    m[-1][1],
                ),
                (m[-1][0], (m[-1][1] + 1) % 6),
                (m[-1][0], (m[-1][1] + 5) % 6),
            )
            if 0 <= nxt[0][0] < 4 and 0 <= nxt[0][1] < 3
        ]
        found += frontier
    return found


def test_facing_searches_find_the_cheapest_legal_move_on_random_boards(
    wagons: tuple[ir.Ruleset, Any],
) -> None:
    """reachable and cheapest_route against every move of up to 6 actions (each costs 0.5 or
    more: budget 2 plus the bonus is within reach of 6), judged by route_cost, which the
    reference semantics judge in turn."""
    rs, module = wagons
    rng = random.Random(40)
    limited = on_road = 0
    for _ in range(8):
        places = {
            (q, r): (rng.choice(["clear", "clear", "marsh"]),) for q in range(4) for r in range(3)
        }
        edges: dict[Any, tuple[str, ...]] = {}
        for a in places:
            for b in [(a[0] + 1, a[1]), (a[0], a[1] + 1), (a[0] + 1, a[1] - 1)]:
                if b in places and rng.random() < 0.7:
                    edges[a, b] = edges[b, a] = (rng.choice(["road", "ford", "ford", "hedge"]),)
        board = module.Board(places, edges, grid="hexes")
        start = ((rng.randrange(4), rng.randrange(3)), rng.randrange(6))
        best: dict[Any, float] = {}
        loose: dict[Any, float] = {}  # the same, beyond the limit or not
        for i, moves in enumerate(_moves(start, 6)):
            route = module.route_cost(board, "wagon", moves, allowance=2)
            if i % 11 == 0:
                _same(rs, route, allowance=2)
            if route.legal and route.total < best.get(moves[-1], float("inf")):
                best[moves[-1]] = route.total
            if (route.legal or "goes beyond" in route.reason) and route.total <= 2:
                loose[moves[-1]] = min(route.total, loose.get(moves[-1], float("inf")))
        reach = module.reachable(board, "wagon", start, 2)
        assert dict(reach) == best
        for goal in itertools.islice(best, 0, None, 5):
            found = module.cheapest_route(board, "wagon", start, goal, allowance=2)
            assert found is not None and found.legal and found.total == best[goal]
        limited += loose != best
        on_road += any(cost > 2 for cost in best.values())
    assert limited > 2 and on_road > 2  # the limit changes answers, and so does the bonus


def test_a_whole_move_bonus_beside_a_unit_that_spends_its_speed_exactly_is_e493() -> None:
    text = WAGONS.replace("turn 1 MP per hexside", "turn 1 MP per hexside, exact speed")
    line = WAGONS.split("\n").index('whole move road_march "Road march" : on road, allowance +1 MP')
    assert located(Compiler(), text) == [("E493", line + 1, 57)]  # at the bonus
    limit_only = text.replace('whole move road_march "Road march" : on road, allowance +1 MP\n', "")
    assert located(Compiler(), limit_only) == []


@pytest.mark.parametrize("rules", [WAGONS, SAILING, MARKS_ONLY], ids=["wagons", "sailing", "marks"])
def test_js_module_answers_facing_whole_move_questions_as_python(
    node: str, tmp_path: Path, rules: str
) -> None:
    rs = _ruleset(rules)
    answers = [str(e) for e in js_differential(rs, "facing_whole", 40, tmp_path)]
    # the questions reach the rules (the Python answers; the JavaScript agrees)
    assert any("goes beyond 'One river a move'" in a for a in answers) == (rules != MARKS_ONLY)
    assert any("'no_fire'" in a for a in answers)
    assert sum("'facing'" in a or "'reach'" in a for a in answers) > len(answers) / 2


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index('```terrain\nruleset wagons "Wagons"')
    rules = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    module = import_rendered(_ruleset(rules), tmp_path, "facing_whole_docs")
    start = doc.index("```python\n", start)
    code = doc[start + len("```python\n") : doc.index("```", start + 10)]
    names: dict[str, Any] = vars(module).copy()
    shown = 0
    for line in code.splitlines():
        call, _, answer = line.partition("  # ")
        if not answer or "=" in call.split("(")[0]:
            exec(line, names)  # an assignment
            continue
        assert eval(call, names) == ast.literal_eval(answer.split(":")[0]), line
        shown += 1
    assert shown == 4


@typescript.TSC
def test_the_declarations_type_the_marks_of_a_facing_route(
    node: str, tmp_path: Path, pytestconfig: Any
) -> None:
    write_package(module_plan.build(_ruleset(SAILING)), tmp_path)
    shutil.copy(Path(__file__).parent / "js" / "facing_whole_consumer.ts", tmp_path / "consumer.ts")
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "consumer.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
