"""The JavaScript module's boards, routes and reach (issue 37; rulesdsl/codegen/js/routes.py and
runtime_routes.js): the differential test of tests/test_js_target.py sees an emitter or a
runtime of these broken on purpose, and a board reads places by value as Python's dict does."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.codegen.js import routes as js_routes
from tests import js_queries
from tests.conftest import load_generated
from tests.test_js_target import mismatched_functions, node, plan_of, write_package

__all__ = ["node"]  # the fixture, imported for the tests below


def test_differential_test_sees_a_broken_route_emitter(
    node: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An emitter that leaves out the edges' ``along`` costs (a road's 1/2 an MP a hex) is
    caught by route_cost's queries."""
    monkeypatch.setattr(js_routes, "along_js", lambda plan: "_dict({})")
    plan = plan_of("hex_operational")
    assert "route_cost" in mismatched_functions(
        plan, "hex_operational", write_package(plan, tmp_path)
    )


BREAKS = {
    "a minimum move": (
        "return MINIMUM_MOVE && budget > 0;",
        "return false;",
        "reachable",
    ),
    "must stop": ("if (stop) reason = `step", "if (false) reason = `step", "route_cost"),
    "first entering": (
        "if (firsts.get(keys[i]) !== i || entered.has(keys[i])) continue;",
        "if (entered.has(keys[i])) continue;",
        "route_cost",
    ),
    "edge features": ("if (_EDGE_FEATURES.has(feature)) {", "if (false) {", "Board"),
    "diagonals": ("if (this._diagonal) near(", "if (false) near(", "neighbours"),
    "the heap's order": (
        "(a[0] === b[0] && a[1] < b[1])",
        "(a[0] === b[0] && a[1] > b[1])",
        "reachable",
    ),
    "must stop, on a grid's box": (
        "if (here !== from && (stop[here] || paid > budget)) continue;",
        "if (here !== from && paid > budget) continue;",
        "reachable",
    ),
    "a place given twice": (
        "if (!board._place.has(key)) board._place.set",
        "board._place.set",
        "Board",
    ),
}
"""A runtime line broken on purpose: (its text, its broken text, a function that shows it)."""

RULESETS_OF = {
    "a minimum move": "battletech_tacops",
    "must stop": "void_patrol",
    "first entering": "void_patrol",
    "edge features": "hex_operational",
    "diagonals": "d20_movement",
    "the heap's order": "void_patrol",
    "a place given twice": "heavy_gear",
    "must stop, on a grid's box": "void_patrol",
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_differential_test_sees_a_broken_route_runtime(
    name: str, node: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    line, broken_line, function = BREAKS[name]
    text = js_routes.runtime_routes()
    assert text.count(line) == 1
    monkeypatch.setattr(js_routes, "runtime_routes", lambda *_: text.replace(line, broken_line))
    rid = RULESETS_OF[name]
    plan = plan_of(rid)
    assert function in mismatched_functions(plan, rid, write_package(plan, tmp_path))


def test_a_board_finds_places_by_value_as_python_does(node: str, tmp_path: Path) -> None:
    """A place is found by its value, not by the array given (Python's tuples are equal by
    value); true is 1, as in a Python dict; a place given twice keeps its last features."""
    module = write_package(plan_of("hex_operational"), tmp_path)
    spec = {
        "places": [[[0, 0], ["clear"]], [[1, 0], ["forest"]], [[True, 0], ["hills"]]],
        "edges": None,
        "grid": "hexes",
        "neighbours": None,
    }
    queries: list[js_queries.Query] = [
        {"function": "reachable", "board": spec, "args": ["foot", [0, 0], 9], "kwargs": {}},
        {"function": "route_cost", "board": spec, "args": ["foot", [[0, 0], [1, 0]]], "kwargs": {}},
    ]
    got = js_queries.ask_node(module, queries)
    python = load_generated("hex_operational")
    assert got == js_queries.ask_python_all(python, queries)
    reach, route = got
    assert [place for place, _ in reach["answer"][0]["reach"][0]] == [[0, 0], [1, 0]]
    assert route["answer"][0]["route"][1][0][2] == ["hills"]
