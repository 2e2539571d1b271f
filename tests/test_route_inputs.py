"""Route searches that take a step's inputs and dice outcomes in places (issue 40, item 7):
``route_cost``, ``cheapest_route`` and ``reachable`` take the step inputs of the costs paid once
(``height=3``) and ``outcomes=`` (per place, the dice outcomes that feed the cost rolled there),
with the meaning ``move_cost`` gives them for one step. The module and the reference semantics
answer alike, the JavaScript module as the Python one, and rules without either keep their
route functions as they were."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import routes as semantic_routes
from tests.conftest import compile_snippet, import_rendered
from tests.guide_answers import js_differential
from tests.test_js_target import node
from tests.test_sight_and_results import located

__all__ = ["node"]  # the fixture

RULES = """ruleset ledges "Ledges"
version 1.0.0
units distance in, cost in
mode trooper "Trooper"
mode walker "Walker"
layer terrain "Terrain" one per place {
  clear "Clear" | 1
  rubble "Rubble" | 2
}
layer obstacles "Obstacles" {
  ledge "Ledge" | step climb, walker impassable
}
layer sides "Sides" edges {
  wall "Wall" | step climb
}
step climb "Climbing" (height in) -> in : free up to 2 in, +1 per 1 in
dice shelling "Shelling" : 1d6 {
  1-4 quiet "Quiet"
  5+ cratered "Cratered" | cost +2
}
"""

FACING = (
    RULES.replace("units distance in, cost in", "units distance hex, cost MP")
    .replace("(height in) -> in", "(height hex) -> MP")
    .replace("free up to 2 in, +1 per 1 in", "free up to 2 hex, +1 per 1 hex")
    + 'grid field "Field" : 1 hex = 1 km, hex\n'
    + "facing walker on field : turn 1 MP per hexside\n"
)
"""The rules above with a hex grid and a facing rule for the walker."""


def _ruleset(text: str = RULES) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), text)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def ledges(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset()
    return rs, import_rendered(rs, tmp_path_factory.mktemp("ledges"), "route_inputs_module")


def _lane(module: Any) -> Any:
    """(0, 0) to (4, 0) on a square grid, a ledge at (2, 0), a wall between (3, 0) and (4, 0);
    a detour by (x, 1), rubble at (2, 1)."""
    places = {(x, y): ("clear",) for x in range(5) for y in range(2)}
    places[(2, 0)] = ("clear", "ledge")
    places[(2, 1)] = ("rubble",)
    wall = {((3, 0), (4, 0)): ("wall",), ((4, 0), (3, 0)): ("wall",)}
    return module.Board(places, wall, grid="square")


LANE = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]


def test_route_cost_takes_the_step_inputs_for_places_and_edges(
    ledges: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = ledges
    route = module.route_cost(_lane(module), "trooper", LANE, height=4)
    # the ledge: 1 + 4 (a climb over 2 in counts in full); the wall crossed into (4, 0): 1 + 4
    assert [s.cost for s in route.steps] == [1, 5, 1, 5]
    assert route.total == 12 and route.legal
    reference = semantic_routes.route(
        rs, "trooper", [(s.features, s.edge) for s in route.steps], inputs={"height": 4}
    )
    assert reference.total == route.total
    assert [s.cost for s in reference.steps] == [s.cost for s in route.steps]


def test_route_cost_without_the_step_input_says_which_is_missing(
    ledges: tuple[ir.Ruleset, Any],
) -> None:
    _, module = ledges
    with pytest.raises(module.InvalidArgument, match=r"route_cost\(\) argument 'height'"):
        module.route_cost(_lane(module), "trooper", LANE)


def test_a_route_search_checks_its_step_inputs(ledges: tuple[ir.Ruleset, Any]) -> None:
    _, module = ledges
    board = _lane(module)
    with pytest.raises(module.UnknownName, match="unknown cost input 'hieght'"):
        module.cheapest_route(board, "trooper", (0, 0), (4, 0), hieght=3)
    with pytest.raises(module.ArgumentTypeError, match=r"reachable\(\) argument 'height'"):
        module.reachable(board, "trooper", (0, 0), 6, height="3")


def test_cheapest_route_goes_round_a_high_ledge_and_over_a_low_one(
    ledges: tuple[ir.Ruleset, Any],
) -> None:
    _, module = ledges
    board = _lane(module)
    low = module.cheapest_route(board, "trooper", (0, 0), (3, 0), height=2)
    high = module.cheapest_route(board, "trooper", (0, 0), (3, 0), height=6)
    assert low.total == 3 and (2, 0) in [s.end for s in low.steps]
    assert high.total == 6 and (2, 0) not in [s.end for s in high.steps]  # rubble beats 7


def test_reachable_takes_the_step_inputs(ledges: tuple[ir.Ruleset, Any]) -> None:
    rs, module = ledges
    board = _lane(module)
    reach = module.reachable(board, "trooper", (0, 0), 6, height=3)
    assert reach[(2, 0)] == 5 and reach[(3, 0)] == 6
    neighbours = {p: [q for q, _ in board.neighbours(p)] for p in board.places}
    reference = semantic_routes.reachable(
        rs, "trooper", (0, 0), 6, board.places, neighbours, board.edges, inputs={"height": 3}
    )
    assert dict(reach.items()) == reference


def test_a_dice_outcome_rolled_in_a_place_adds_its_cost_to_entering_it(
    ledges: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = ledges
    board = _lane(module)
    rolled = {(1, 0): ["cratered"]}
    route = module.route_cost(board, "trooper", LANE[:2], outcomes=rolled)
    assert route.total == 3 == module.move_cost("trooper", "clear", "cratered")
    assert route.steps[0].features == ("clear",)  # the place's own features, as the board has them
    reach = module.reachable(board, "trooper", (0, 0), 2, outcomes=rolled)
    assert (1, 0) not in reach and reach[(1, 1)] == 2
    neighbours = {p: [q for q, _ in board.neighbours(p)] for p in board.places}
    reference = semantic_routes.reachable(
        rs, "trooper", (0, 0), 2, board.places, neighbours, board.edges, outcomes=rolled
    )
    assert dict(reach.items()) == reference
    found = module.cheapest_route(board, "trooper", (0, 0), (2, 1), outcomes=rolled, height=0)
    assert (1, 0) not in [s.end for s in found.steps] and found.total == 4


def test_route_searches_check_the_outcomes(ledges: tuple[ir.Ruleset, Any]) -> None:
    _, module = ledges
    board = _lane(module)
    with pytest.raises(module.ArgumentTypeError, match="must be a mapping of places"):
        module.reachable(board, "trooper", (0, 0), 3, outcomes=["cratered"])
    with pytest.raises(module.InvalidArgument, match="'outcomes' is not a place of the board"):
        module.reachable(board, "trooper", (0, 0), 3, outcomes={(9, 9): ["cratered"]})
    with pytest.raises(module.ArgumentTypeError, match="a sequence of dice outcomes"):
        module.route_cost(board, "trooper", LANE, outcomes={(1, 0): "cratered"})
    with pytest.raises(module.UnknownName, match="unknown dice outcome 'crater'"):
        module.cheapest_route(board, "trooper", (0, 0), (1, 0), outcomes={(1, 0): ["crater"]})


def test_rules_without_step_inputs_or_fed_outcomes_keep_their_route_functions(
    tmp_path: Path,
) -> None:
    plain = RULES.split("layer obstacles")[0]
    module = import_rendered(_ruleset(plain), tmp_path, "route_inputs_plain")
    board = module.Board({(0, 0): ("clear",), (1, 0): ("clear",)}, grid="square")
    with pytest.raises(TypeError, match="unexpected keyword argument 'height'"):
        module.route_cost(board, "trooper", [(0, 0), (1, 0)], height=3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'outcomes'"):
        module.reachable(board, "trooper", (0, 0), 3, outcomes={})


@pytest.mark.parametrize("facing", [False, True])
def test_js_module_answers_route_input_questions_as_python(
    node: str, tmp_path: Path, facing: bool
) -> None:
    rs = _ruleset(FACING if facing else RULES)
    answers = [str(e) for e in js_differential(rs, "routes_inputs", 40, tmp_path)]
    # the questions reach the rules (the Python answers; the JavaScript agrees)
    assert any("cost input" in a for a in answers)
    assert any("dice outcome" in a for a in answers)
    assert sum("'route'" in a or "'reach'" in a for a in answers) > len(answers) / 2


@pytest.mark.parametrize("name", ["start", "outcomes"])
def test_a_step_input_named_like_a_route_argument_is_e420(name: str) -> None:
    text = RULES.replace("(height in)", f"({name} in)")
    line = RULES[: RULES.index("\nstep climb")].count("\n") + 2
    assert located(Compiler(), text) == [("E420", line, 24)]
