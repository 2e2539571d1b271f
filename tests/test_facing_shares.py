"""A cost that is a share of the allowance (``share 1/2``) for a unit type with facing: the
route searches (cheapest_route, reachable) cost each step with the allowance as route_cost
does, so the cheapest route's total is what route_cost says of it and reachable's costs are
those of the cheapest routes, in the Python module and the JavaScript one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from tests.conftest import compile_snippet, import_rendered

BOG = """ruleset bog "Bog"
version 1.0.0
units distance hex, cost MP
mode walker "Walker"
move march "March" : allowance times 2
grid field "Field" : 1 hex, hex
layer terrain "Terrain" one per place {
  clear "Clear" | 1
  bog "Bog" | share 1/2
}
facing walker on field : turn 1 MP per hexside
"""
"""A walker with facing; a bog costs half its allowance (of the kind of move's allowance)."""

START = ((0, 0), 0)
CALLS: list[dict[str, Any]] = [{"allowance": 6}, {"allowance": 4, "move": "march"}]


def _ruleset() -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), BOG)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def bog(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return import_rendered(_ruleset(), tmp_path_factory.mktemp("bog"), "facing_shares_module")


def _board(module: Any) -> Any:
    """A 4 x 2 hex field, a bog at (1, 0) straight ahead of the start."""
    places = {(q, r): ("clear",) for q in range(4) for r in range(2)}
    places[(1, 0)] = ("bog",)
    return module.Board(places, grid="field")


@pytest.mark.parametrize("call", CALLS, ids=["allowance", "a kind of move"])
def test_a_facing_search_costs_a_share_of_the_allowance_as_route_cost_does(
    bog: Any, call: dict[str, Any]
) -> None:
    board = _board(bog)
    reach = bog.reachable(board, "walker", START, **call)
    assert reach[((1, 0), 0)] == bog.move_cost("walker", "bog", **call)
    for end, cost in reach.items():
        route = bog.cheapest_route(board, "walker", START, end, **call)
        assert route is not None and route.total == cost, end
        path = [START] + [(s.end, s.heading) for s in route.steps]
        assert bog.route_cost(board, "walker", path, **call).total == route.total, end
