"""Route searches of a unit type with facing that take a step's inputs and dice outcomes in
places (issue 40): ``route_cost``, ``cheapest_route`` and ``reachable`` of a facing unit type
take the step inputs of the costs paid once (``height=3``) and ``outcomes=`` as those of a unit
type without facing do: the same argument checks and errors, the same costs. The module and the
reference semantics answer alike, the JavaScript module as the Python one, with ``state=`` and
``wind=`` beside them; rules with facing but neither keep their module text."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.js import module_js
from rulesdsl.codegen.targets import render_python
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import facing as semantic_facing
from tests import js_queries, typescript
from tests.conftest import compile_snippet, import_rendered
from tests.test_js_target import node, write_package
from tests.test_route_inputs import FACING

__all__ = ["node"]  # the fixture

SAILING = (
    FACING.replace("facing walker on field : turn 1 MP per hexside", "")
    + "facing walker on field : turn 1 MP per hexside, tack +2 MP\n"
    + 'state fuel "Fuel" : 0 to 6, rubble -4\n'
)
"""The rules with the walker tacking by the wind and a fuel state besides."""

WALL = {((0, 0), (1, 0)): ("wall",), ((1, 0), (0, 0)): ("wall",)}
AHEAD = [((0, 0), 0), ((1, 0), 0), ((2, 0), 0)]
"""Two steps forward along heading 0, the first over the wall."""


def _ruleset(text: str) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), text)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def walkers(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset(FACING)
    return rs, import_rendered(rs, tmp_path_factory.mktemp("walkers"), "facing_inputs_module")


def _field(module: Any, rubble: bool = False) -> Any:
    """A 4 x 2 hex field of clear places, a wall between (0, 0) and (1, 0); rubble at (1, 1)."""
    places = {(q, r): ("clear",) for q in range(4) for r in range(2)}
    if rubble:
        places[(1, 1)] = ("rubble",)
    return module.Board(places, WALL, grid="field")


def _reference(rs: ir.Ruleset, module: Any, route: Any, **kwargs: Any) -> Any:
    """The reference semantics' answer for the actions of ``route`` (a FacingRoute)."""
    acts = [
        semantic_facing.Action("turn", heading=s.heading)
        if s.start == s.end
        else semantic_facing.Action("forward", s.features, s.edge)
        for s in route.steps
    ]
    return semantic_facing.route(rs, "walker", acts, **kwargs)


def test_a_facing_route_costs_its_steps_with_the_step_inputs(
    walkers: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = walkers
    route = module.route_cost(_field(module), "walker", AHEAD, height=4)
    # the wall crossed into (1, 0): 1 + 4 (a climb over 2 hex counts in full); then 1
    assert [s.cost for s in route.steps] == [5, 1]
    assert route.total == 6 and route.legal
    reference = _reference(rs, module, route, inputs={"height": 4})
    assert reference.total == route.total
    assert [s.cost for s in reference.steps] == [s.cost for s in route.steps]


def test_a_facing_route_without_the_step_input_says_which_is_missing(
    walkers: tuple[ir.Ruleset, Any],
) -> None:
    _, module = walkers
    board = _field(module)
    for function, call in (
        ("route_cost", lambda: module.route_cost(board, "walker", AHEAD)),
        ("cheapest_route", lambda: module.cheapest_route(board, "walker", ((0, 0), 0), (1, 0))),
        ("reachable", lambda: module.reachable(board, "walker", ((0, 0), 0), 3)),
    ):
        with pytest.raises(module.InvalidArgument, match=rf"^{function}\(\) argument 'height'"):
            call()


def test_a_facing_route_search_checks_its_step_inputs_and_outcomes(
    walkers: tuple[ir.Ruleset, Any],
) -> None:
    _, module = walkers
    board = _field(module)
    start = ((0, 0), 0)
    with pytest.raises(module.UnknownName, match="unknown cost input 'hieght'"):
        module.cheapest_route(board, "walker", start, (3, 0), hieght=3)
    with pytest.raises(module.ArgumentTypeError, match=r"reachable\(\) argument 'height'"):
        module.reachable(board, "walker", start, 6, height="3")
    with pytest.raises(module.ArgumentTypeError, match="must be a mapping of places"):
        module.reachable(board, "walker", start, 3, height=0, outcomes=["cratered"])
    with pytest.raises(module.InvalidArgument, match="'outcomes' is not a place of the board"):
        module.route_cost(board, "walker", AHEAD, height=0, outcomes={(9, 9): ["cratered"]})
    with pytest.raises(module.UnknownName, match="unknown dice outcome 'crater'"):
        module.cheapest_route(board, "walker", start, (1, 0), outcomes={(1, 0): ["crater"]})


def test_a_dice_outcome_rolled_in_a_place_adds_its_cost_for_a_facing_unit(
    walkers: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = walkers
    board = module.Board({(q, r): ("clear",) for q in range(4) for r in range(2)}, grid="field")
    rolled = {(1, 0): ["cratered"]}
    route = module.route_cost(board, "walker", AHEAD, outcomes=rolled, height=0)
    assert [s.cost for s in route.steps] == [3, 1] and route.total == 4
    assert route.steps[0].features == ("clear",)  # the place's own features
    reference = _reference(rs, module, route, outcomes=[["cratered"], []], inputs={"height": 0})
    assert reference.total == route.total
    reach = module.reachable(board, "walker", ((0, 0), 0), 2, outcomes=rolled, height=0)
    assert ((1, 0), 0) not in reach and reach[((0, 1), 5)] == 2
    assert module.reachable(board, "walker", ((0, 0), 0), 3, outcomes=rolled)[(1, 0), 0] == 3
    found = module.cheapest_route(board, "walker", ((0, 0), 0), (2, 0), outcomes={(1, 0): []})
    assert found.total == 2
    found = module.cheapest_route(board, "walker", ((0, 0), 0), (2, 0), outcomes=rolled)
    assert found.total == 4 and (1, 0) in [s.end for s in found.steps]  # 2 turns + 2 steps
    found = module.cheapest_route(board, "walker", ((0, 0), 0), (2, 0), 3, outcomes=rolled)
    assert found is None  # round (1, 0) it costs 5, through it 4


def test_cheapest_facing_route_goes_round_a_high_wall_and_over_a_low_one(
    walkers: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = walkers
    board = _field(module)
    low = module.cheapest_route(board, "walker", ((0, 0), 0), (1, 0), height=2)
    high = module.cheapest_route(board, "walker", ((0, 0), 0), (1, 0), height=6)
    assert low.total == 1 and [s.end for s in low.steps] == [(1, 0)]
    assert high.total == 5 and len(high.steps) == 5  # turn, step, 2 turns, step: round the wall
    for found, height in ((low, 2), (high, 6)):
        assert _reference(rs, module, found, inputs={"height": height}).total == found.total


def test_a_facing_route_takes_state_wind_outcomes_and_step_inputs_at_once(
    tmp_path: Path,
) -> None:
    rs = _ruleset(SAILING)
    module = import_rendered(rs, tmp_path, "facing_inputs_sailing")
    board = _field(module, rubble=True)
    route = module.route_cost(
        board,
        "walker",
        [((0, 0), 5), ((0, 1), 5), ((0, 1), 0), ((1, 1), 0)],
        None,
        None,
        None,
        {"fuel": 6},
        2,
        outcomes={(1, 1): ["cratered"]},
        height=0,
    )
    # forward 1, a turn onto heading 0 (the wind blows from 2: no tack), rubble 2 + crater 2
    assert [s.cost for s in route.steps] == [1, 1, 4] and route.state == {"fuel": 2}
    reference = _reference(
        rs, module, route, wind=2, state={"fuel": 6}, outcomes=[[], [], ["cratered"]]
    )
    assert reference.total == route.total and reference.state == route.state
    reach = module.reachable(
        board, "walker", ((0, 0), 0), 6, None, None, {"fuel": 3}, 2, outcomes={}, height=0
    )
    assert not any(place == (1, 1) for place, _ in reach)  # rubble would burn 4 of 3


def test_rules_with_facing_but_no_step_inputs_or_fed_outcomes_keep_their_module_text() -> None:
    plain = FACING.split("layer obstacles")[0] + FACING[FACING.index('grid field "Field"') :]
    rs = _ruleset(plain)
    python, js = render_python(rs), module_js(module_plan.build(rs))
    assert "_priced_entering" not in python and "outcomes=" not in python
    assert "_pricedEntering" not in js and "_facingPlain" in js
    assert "[facing" not in js  # every mark taken off


@pytest.mark.parametrize("sailing", [False, True])
def test_js_module_answers_facing_route_input_questions_as_python(
    node: str, tmp_path: Path, sailing: bool
) -> None:
    rs = _ruleset(SAILING if sailing else FACING)
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, f"js_facing_inputs_{sailing}")
    module = write_package(plan, tmp_path / "js")
    queries = list(js_queries.families()["facing_inputs"](random.Random(40), plan))
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
    answers = [str(e) for e in expected]  # the questions reach the rules
    assert any("cost input" in a for a in answers)
    assert any("dice outcome" in a for a in answers)
    assert sum("'facing'" in a or "'reach'" in a for a in answers) > len(answers) / 3


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index('```terrain\nruleset walkers "Walkers"')
    rules = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    module = import_rendered(_ruleset(rules), tmp_path, "facing_inputs_docs")
    start = doc.index("```python\n", start)
    code = doc[start + len("```python\n") : doc.index("```", start + 10)]
    names: dict[str, Any] = vars(module).copy()
    shown = 0
    for line in code.splitlines():
        if "  # " not in line:
            exec(line, names)  # an assignment
            continue
        call, answer = line.split("  # ")
        assert eval(call, names) == float(answer.split(":")[0]), line
        shown += 1
    assert shown == 4


@typescript.TSC
def test_the_declarations_type_a_consumer_passing_inputs_and_outcomes_to_a_facing_unit(
    node: str, tmp_path: Path, pytestconfig: Any
) -> None:
    write_package(module_plan.build(_ruleset(SAILING)), tmp_path)
    consumer = Path(__file__).parent / "js" / "facing_inputs_consumer.ts"
    shutil.copy(consumer, tmp_path / "consumer.ts")
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "consumer.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
