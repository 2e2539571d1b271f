"""route_cost on a grid makes its steps a route at a time (issue 29): whatever the route --
steps to neighbours or not, impassable, prohibited or must-stop places on the way or at the
end, features that exclude each other, edges crossed, an allowance, asked once or again --
it answers, warns and raises exactly as the step-by-step loop does on the same board given
by a ``neighbours`` function."""

from __future__ import annotations

import itertools
import operator
import random
import warnings
from types import ModuleType
from typing import Any

import pytest

from rulesdsl.compiler import Compiler
from tests.conftest import import_rendered

RULES = """ruleset fast_routes "Fast routes"
version 1.0.0
units distance hex, cost MP
minimum move 1 hex
mode foot "Foot"
mode vehicle "Vehicle"
layer terrain "Terrain" one per place {
  clear "Clear"  | 1
  woods "Woods"  | 2, vehicle 4
  marsh "Marsh"  | 2, vehicle 3 may not end
  ford "Ford"    | 1 must stop
  rock "Rock"    | impassable, vehicle prohibited
}
layer cover "Cover" {
  smoke "Smoke"  | +1
  fire "Fire"    | +2, vehicle impassable
}
layer hexsides "Hexsides" edges {
  river "River"  | +2
  road "Road"    | along 1/2
  cliff "Cliff"  | impassable
}
exclude smoke with fire
grid hexes "Hex" : 1 hex = 1 km, hex
"""

HEX = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@pytest.fixture(scope="module")
def module(compiler: Compiler, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    folder = tmp_path_factory.mktemp("fast_routes")
    compiled = compiler.compile_text(RULES, str(folder / "fast_routes.terrain"), folder)
    assert compiled.ruleset is not None, compiled.diagnostics
    return import_rendered(compiled.ruleset, folder, "fast_routes_module")


def boards(m: ModuleType, seed: int, size: int = 8) -> tuple[Any, Any]:
    """One random map as a grid board and as a board with a neighbours function."""
    rng = random.Random(seed)
    places: dict[Any, tuple[str, ...]] = {}
    for q in range(size):
        for r in range(size):
            ground = rng.choices(["clear", "woods", "marsh", "ford", "rock"], [60, 15, 8, 7, 5])
            cover = rng.choices([(), ("smoke",), ("fire",), ("smoke", "fire")], [80, 8, 6, 6])
            places[q, r] = (ground[0], *cover[0])
    edges: dict[Any, tuple[str, ...]] = {}
    for q, r in places:
        for dq, dr in HEX[:3]:
            there = (q + dq, r + dr)
            if there in places and rng.random() < 0.25:
                edges[(q, r), there] = edges[there, (q, r)] = (
                    rng.choice(["river", "road", "cliff"]),
                )

    def neighbours(place: Any) -> list[Any]:
        q, r = place
        return [(q + dq, r + dr) for dq, dr in HEX]

    return m.Board(places, edges, grid="hexes"), m.Board(places, edges, neighbours=neighbours)


def routes(seed: int, size: int = 8) -> list[list[Any]]:
    """Random walks from a random place, some with a jump to a place not next to the last."""
    rng = random.Random(seed)
    found = []
    for n in range(40):
        here = (rng.randrange(size), rng.randrange(size))
        route = [here]
        for _ in range(rng.randrange(1, 12)):
            options = [
                (here[0] + dq, here[1] + dr)
                for dq, dr in HEX
                if 0 <= here[0] + dq < size and 0 <= here[1] + dr < size
            ]
            here = rng.choice(options)
            route.append(here)
        if n % 7 == 3:
            route.insert(rng.randrange(1, len(route) + 1), (size - 1, size - 1))
        found.append(route)
    return found


def outcome(call: Any) -> tuple[object, list[str]]:
    """A call's answer or error (type and message), and its warnings."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            answer: object = call()
        except Exception as error:  # the error is part of the answer
            answer = (type(error).__name__, str(error))
    return answer, [str(w.message) for w in seen]


@pytest.mark.parametrize("seed", range(4))
def test_route_cost_on_a_grid_answers_warns_and_raises_as_the_step_by_step_loop(
    module: ModuleType, seed: int
) -> None:
    m = module
    grid, general = boards(m, seed)
    for route in routes(seed):
        for mode in ("foot", "vehicle"):
            for allowance in (None, 5):
                loop = outcome(lambda: m.route_cost(general, mode, route, allowance))  # noqa: B023
                for _ in range(2):  # asked again: prices kept from the first call
                    quick = outcome(lambda: m.route_cost(grid, mode, route, allowance))  # noqa: B023
                    assert quick == loop, (route, mode, allowance)


def test_a_legal_grid_route_is_made_at_once_and_its_answer_is_the_loops(
    module: ModuleType,
) -> None:
    # The quick path must be taken (else the test above compares the loop with itself).
    m = module
    places = {(q, 0): ("clear",) for q in range(6)}
    places[2, 0] = ("woods",)
    edges = {((0, 0), (1, 0)): ("road",), ((3, 0), (4, 0)): ("river",)}
    grid = m.Board(places, edges, grid="hexes")
    route = [(q, 0) for q in range(6)]
    made = m._grid_steps(grid, "foot", tuple(route), [places[p] for p in route], {}, {})
    assert made is not None
    steps, total, _ = made
    assert list(grid._routed["foot"]) == list(itertools.pairwise(route))  # kept on the board
    general = m.Board(places, edges, neighbours=lambda p: [(p[0] + 1, 0), (p[0] - 1, 0)])
    answer = m.route_cost(general, "foot", route)
    assert tuple(steps) == answer.steps and total == answer.total == 0.5 + 2 + 1 + 3 + 1
    assert m.route_cost(grid, "foot", route) == answer


def test_an_unhashable_or_missing_place_is_refused_as_before(module: ModuleType) -> None:
    m = module
    grid, general = boards(m, 0)
    for route in ([(0, 0), [0, 1]], [(0, 0), (0, 9)], [(0, 0)], []):
        assert outcome(lambda: m.route_cost(grid, "foot", route)) == outcome(  # noqa: B023
            lambda: m.route_cost(general, "foot", route)  # noqa: B023
        )


def test_a_route_asked_again_on_its_board_reads_its_steps_back(
    module: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 44: a route whose steps were all made before on the board, without a word, is
    read back from the board (no step priced again), with the places as the caller gives
    them; a step into a place where the unit must stop is never read back."""
    m = module
    places = {(q, 0): ("clear",) for q in range(6)}
    places[2, 0] = ("woods",)
    places[5, 0] = ("ford",)  # must stop
    edges = {((0, 0), (1, 0)): ("road",), ((3, 0), (4, 0)): ("river",)}
    grid = m.Board(places, edges, grid="hexes")
    route = [(q, 0) for q in range(5)]
    first = m.route_cost(grid, "foot", route)
    m.route_cost(grid, "foot", [*route, (5, 0)])  # legal: it stops at the end
    m.route_cost(grid, "foot", [(5, 0), (4, 0)])

    def priced(*_: Any) -> Any:
        raise AssertionError("a step priced again")

    monkeypatch.setattr(m, "_ROUTE_PRICES", {mode: {} for mode in m.MODES})
    monkeypatch.setattr(m, "_step_cost", priced)
    given = [(float(q), 0) for q in range(5)]  # the same places, other objects
    again = m.route_cost(grid, "foot", given)
    assert again == first and [type(s.end[0]) for s in again.steps] == [float] * 4
    with pytest.raises(AssertionError, match="priced again"):
        m.route_cost(m.Board(places, edges, grid="hexes"), "foot", route)  # a new board
    with pytest.raises(AssertionError, match="priced again"):
        m.route_cost(grid, "foot", [*route, (5, 0), (4, 0)])  # the ford, not at the end


def test_a_route_read_back_with_the_caller_s_very_places_reuses_the_steps_kept(
    module: ModuleType,
) -> None:
    """Issue 44: read back with the very place objects it was first asked with, a route's
    steps are the RouteSteps kept on the board, not made again; asked with other objects for
    the same places, they are made again with the caller's."""
    m = module
    places = {(q, 0): ("clear",) for q in range(6)}
    places[2, 0] = ("woods",)
    edges = {((0, 0), (1, 0)): ("road",), ((3, 0), (4, 0)): ("river",)}
    grid = m.Board(places, edges, grid="hexes")
    route = [(q, 0) for q in range(6)]
    first = m.route_cost(grid, "foot", route)
    again = m.route_cost(grid, "foot", list(route))
    assert again == first and all(map(operator.is_, again.steps, first.steps))
    other = m.route_cost(grid, "foot", [(q, 0) for q in range(6)])  # equal places, new objects
    assert other == first and not any(map(operator.is_, other.steps, first.steps))
    assert [s.start for s in other.steps] == route[:-1]
