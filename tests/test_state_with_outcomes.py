"""State carried between moves beside the route searches' dice outcomes and step inputs (issue
40, items 1 and 7, built on two branches at once): one call may pass ``state=``,
``outcomes=`` and a step input together; the module, the reference semantics and the
JavaScript module answer alike."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import routes as semantic_routes
from tests import js_queries
from tests.conftest import compile_snippet, import_rendered
from tests.test_js_target import node, write_package
from tests.test_route_inputs import LANE, RULES, _lane

__all__ = ["node"]  # the fixture

FUELLED = RULES + 'state fuel "Fuel" : 0 to 6, rubble -4\n'
"""The ledges of test_route_inputs, and fuel that entering rubble burns."""

ROLLED = {(1, 0): ["cratered"]}


@pytest.fixture(scope="module")
def fuelled(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    compiled = compile_snippet(Compiler(), FUELLED)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    folder = tmp_path_factory.mktemp("fuelled")
    return compiled.ruleset, import_rendered(compiled.ruleset, folder, "state_outcomes_module")


def test_a_route_cost_takes_state_outcomes_and_step_inputs_at_once(
    fuelled: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = fuelled
    route = module.route_cost(
        _lane(module), "trooper", LANE, state={"fuel": 6}, outcomes=ROLLED, height=4
    )
    # cratered (1, 0): 1 + 2; the ledge: 1 + 4; clear: 1; the wall: 1 + 4
    assert [s.cost for s in route.steps] == [3, 5, 1, 5] and route.legal
    assert route.state == {"fuel": 6}
    steps = [(s.features, s.edge) for s in route.steps]
    reference = semantic_routes.route(
        rs, "trooper", steps, inputs={"height": 4}, outcomes=[["cratered"], [], [], []]
    )
    assert reference.total == route.total


def test_a_search_goes_round_what_the_state_forbids_and_pays_the_outcomes(
    fuelled: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = fuelled
    board = _lane(module)
    kwargs: dict[str, Any] = {"outcomes": ROLLED, "height": 3}
    reach = module.reachable(board, "trooper", (0, 0), 4, state={"fuel": 3}, **kwargs)
    assert reach[(1, 0)] == 3 and (2, 1) not in reach  # rubble would burn 4 of 3 fuel
    neighbours = {p: [q for q, _ in board.neighbours(p)] for p in board.places}
    reference = semantic_routes.reachable(
        rs, "trooper", (0, 0), 4, board.places, neighbours, board.edges,
        inputs={"height": 3}, outcomes=ROLLED, state={"fuel": 3},
    )  # fmt: skip
    assert dict(reach.items()) == reference
    full = module.cheapest_route(board, "trooper", (0, 0), (2, 1), state={"fuel": 6}, **kwargs)
    assert full is not None and full.state == {"fuel": 2}
    assert (1, 0) not in [s.end for s in full.steps]  # round the crater: (0, 1), then rubble
    assert (
        module.cheapest_route(board, "trooper", (0, 0), (2, 1), state={"fuel": 3}, **kwargs) is None
    )


def test_js_module_answers_state_and_outcome_questions_together_as_python(
    node: str, tmp_path: Path
) -> None:
    compiled = compile_snippet(Compiler(), FUELLED)
    assert compiled.ruleset is not None
    plan = module_plan.build(compiled.ruleset)
    python = import_rendered(compiled.ruleset, tmp_path, "js_state_outcomes")
    module = write_package(plan, tmp_path / "js")
    families = js_queries.families()
    rng = random.Random(40)
    queries = [*families["state"](rng, plan), *families["routes_inputs"](rng, plan)]
    both = [  # the route questions with dice outcomes, asked again with a state
        {**q, "kwargs": {**q["kwargs"], "state": {"fuel": rng.randint(0, 6)}}}
        for q in queries
        if "outcomes" in q.get("kwargs", {})
    ]
    assert both
    queries += both
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
