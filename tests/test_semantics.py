"""The generated modules answer exactly as rulesdsl.semantics, the one home of the rules'
meaning, on every bundled ruleset: costs, modifiers, steps, decisions and dice."""

from __future__ import annotations

import itertools
import math
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesdsl import ir, semantics
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import routes as semantics_routes
from tests.conftest import GENERATED, RULESETS, import_rendered, load_generated
from tests.test_modifier_policies import DEMO, load_demo

BUNDLED = sorted(p.stem for p in GENERATED.glob("*.py") if not p.name.startswith("test_"))


@pytest.fixture(scope="module", params=BUNDLED)
def pair(request: pytest.FixtureRequest, compiler: Compiler) -> tuple[ir.Ruleset, ModuleType]:
    compiled = compiler.compile_file(RULESETS / f"{request.param}.terrain")
    assert compiled.ruleset is not None
    return compiled.ruleset, load_generated(request.param)


def same(module_answer: object, reference: object) -> bool:
    if isinstance(reference, ir.Marker):
        return getattr(module_answer, "value", None) == reference.marker
    assert isinstance(reference, float | int)
    assert isinstance(module_answer, float | int)
    return math.isclose(module_answer, reference, abs_tol=1e-9)


def places(rs: ir.Ruleset) -> list[tuple[str, ...]]:
    """One feature alone, and one feature of each of two layers together."""
    single = [(f.id,) for f in rs.features]
    by_layer = [[f.id for f in rs.features if f.layer == layer.id] for layer in rs.layers]
    pairs = [(a, b) for la, lb in itertools.combinations(by_layer, 2) for a in la for b in lb]
    return single + pairs


def test_move_cost_matches_the_stacking_policy(pair: tuple[ir.Ruleset, ModuleType]) -> None:
    rs, module = pair
    checked = 0
    inputs = dict.fromkeys(module.COST_INPUTS, 2.5)  # costs paid once per move (issue 11)
    for mode in (m.id for m in rs.modes):
        for place in places(rs):
            reference = semantics.move_cost(rs, mode, place, 3, 6.0, inputs)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if isinstance(reference, semantics.Unfilled):
                    with pytest.raises(module.UnfilledParameter):
                        module.move_cost(mode, *place, distance=3, allowance=6.0, **inputs)
                    continue
                answer = module.move_cost(mode, *place, distance=3, allowance=6.0, **inputs)
            assert same(answer, reference), (mode, place, answer, reference)
            checked += 1
    assert checked or not rs.features or not rs.modes


def test_modifiers_match_per_item_and_context(pair: tuple[ir.Ruleset, ModuleType]) -> None:
    rs, module = pair
    for mod in rs.modifiers:
        contexts = {"": ""}
        if mod.context is not None:
            values = {c.id: [v.id for v in c.values] for c in rs.contexts}
            keys = values.get(mod.context, [m.id for m in rs.modes])
            contexts.update({k: k for k in keys})
        for item in mod.values:
            given = {item: 2.5} if isinstance(mod.values[item].get(""), ir.Given) else {}
            # a value that is a step takes its input by name (issue 25 item 8)
            inputs = semantics.step_inputs(rs, mod).items()
            given |= {name: 0.6 for name, users in inputs if item in users}
            for key in contexts:
                kwargs: dict[str, str | float] = {mod.context: key} if key and mod.context else {}
                reference = semantics.modifier(rs, mod.id, [item], key, given)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    answer = module.modifier(mod.id, item, **kwargs, **given)
                assert same(answer, reference), (mod.id, item, key)
        for combo in mod.combinations:
            reference = semantics.modifier(rs, mod.id, list(combo.members))
            assert same(module.modifier(mod.id, *combo.members), reference)


def test_steps_match_at_every_quarter_unit(pair: tuple[ir.Ruleset, ModuleType]) -> None:
    rs, module = pair
    for step in rs.steps:
        for x in (i / 4 for i in range(0, 81)):
            assert same(getattr(module, step.id)(x), semantics.step_value(step, x)), (step.id, x)


def decision_inputs(rs: ir.Ruleset, d: ir.Decision) -> list[dict[str, object]]:
    tables = {t.id: t for t in rs.tables}
    choices: list[list[object]] = []
    for p in d.params:
        if p.unit == "bool":
            choices.append([False, True])
        elif p.key_of is not None:
            table = tables[p.key_of]
            if p.axis == "column":
                choices.append([c.id for c in table.columns])
            else:
                choices.append(
                    [r.key_number if r.key_number is not None else r.key for r in table.rows]
                )
        else:
            choices.append([0, 1, 2.5, 4, 7, 12])
    count = math.prod(len(c) for c in choices)
    step = max(1, count // 4000)
    combos = (_nth_of_product(choices, i) for i in range(0, count, step))
    return [dict(zip((p.name for p in d.params), c, strict=True)) for c in combos]


def _nth_of_product(choices: list[list[object]], index: int) -> tuple[object, ...]:
    """``list(itertools.product(*choices))[index]`` without making the product: a decision of
    d20_movement has millions of combinations, of which the test asks about 4,000 (making them
    all was 5.7 s of the test's 6.7, issue 44)."""
    picked = []
    for options in reversed(choices):  # the last varies fastest, as in itertools.product
        index, at = divmod(index, len(options))
        picked.append(options[at])
    return tuple(reversed(picked))


def test_decisions_match_row_by_row(pair: tuple[ir.Ruleset, ModuleType]) -> None:
    rs, module = pair
    for d in rs.decisions:
        for inputs in decision_inputs(rs, d):
            answer = getattr(module, d.id)(**inputs)
            got = answer if isinstance(answer, int | float) else answer.id  # a number (issue 40)
            assert got == semantics.decision_answer(d, inputs), (d.id, inputs)  # type: ignore[arg-type]


def test_dice_rolls_match_for_every_reachable_total(pair: tuple[ir.Ruleset, ModuleType]) -> None:
    rs, module = pair
    for table in rs.dice_tables:
        totals = semantics.reachable_totals(table.dice, (m.value for m in table.modifiers))
        for total in totals:
            row = semantics.roll(table, total)
            assert row is not None
            assert module.roll(table.id, total).id == row.id


def test_place_states_and_route_costs_match(pair: tuple[ir.Ruleset, ModuleType]) -> None:
    """Maps (issue 11): can_end, must_stop and a route's steps over a line of places made of
    the ruleset's own features agree with rulesdsl.semantics (step_cost, route)."""
    rs, module = pair

    def answers(p: tuple[str, ...]) -> bool:
        try:
            costs = [semantics.move_cost(rs, m.id, p, allowance=5) for m in rs.modes]
        except semantics.MissingArgument:  # a step's cost: a route gives no step inputs
            return False
        return not any(isinstance(c, semantics.Unfilled) for c in costs)

    filled = [p for p in places(rs) if len(p) == 1 and answers(p)]
    line = filled[:6]
    board = module.Board({(x, 0): p for x, p in enumerate(line)}, grid="square")
    checked = 0
    facing = getattr(module, "FACINGS", {})  # their routes: tests/test_facing.py
    for mode in (m.id for m in rs.modes if m.id not in facing):
        for place in line:
            assert module.can_end(mode, *place) == semantics_routes.can_end(rs, mode, place)
            assert module.must_stop(mode, *place) == semantics_routes.must_stop(rs, mode, place)
        reference = semantics_routes.route(rs, mode, [(p, ()) for p in line[1:]], allowance=5)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            answer = module.route_cost(board, mode, [(x, 0) for x in range(len(line))], 5)
        assert same(answer.total, reference.total), (mode, answer, reference)
        assert [s.cost for s in answer.steps] == [
            getattr(module, s.cost.marker.upper()) if isinstance(s.cost, ir.Marker) else s.cost
            for s in reference.steps
        ]
        assert (answer.legal, answer.reason) == (reference.legal, reference.reason)
        checked += 1
    assert checked or len(line) < 2 or all(m.id in facing for m in rs.modes)


# ---- modifier policies, two contexts, keywords (tests/data/keywords_demo.terrain) -----------


def test_policies_two_contexts_and_keywords_match_on_the_demo(
    compiler: Compiler, tmp_path: Path
) -> None:
    """Every modifier of the demo, over every one or two items (a repeated one too) and every
    pair of context values (or none), and every cost: the module answers as semantics."""
    rs = compiler.compile_file(DEMO).ruleset
    assert rs is not None
    module = load_demo(compiler, tmp_path)
    by_context = {c.id: [v.id for v in c.values] for c in rs.contexts}
    checked = 0
    for mod in rs.modifiers:
        firsts = ["", *by_context.get(mod.context or "", [])]
        seconds = ["", *by_context.get(mod.context2 or "", [])]
        items = list(mod.values)
        for chosen in [*([i] for i in items), *itertools.product(items, repeat=2)]:
            for first in firsts:
                for second in seconds:
                    kwargs = {
                        k: v for k, v in ((mod.context, first), (mod.context2, second)) if k and v
                    }
                    reference = semantics.modifier(rs, mod.id, list(chosen), first, None, second)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        answer = module.modifier(mod.id, *chosen, **kwargs)
                    assert same(answer, reference), (mod.id, chosen, first, second)
                    checked += 1
    for mode in rs.modes:
        for place in places(rs):
            assert same(module.move_cost(mode.id, *place), semantics.move_cost(rs, mode.id, place))
    assert checked > 200


# ---- costs paid once per move (issue 11): flat, share, step ---------------------------------


def test_costs_paid_once_per_move_match_the_module(compiler: Compiler, tmp_path: Path) -> None:
    """The module's move_cost with an allowance and step inputs, and its steps with free-up-to
    and above thresholds, against semantics.move_cost and semantics.step_value."""
    compiled = compiler.compile_file(Path(__file__).parent / "data" / "once_costs.terrain")
    rs = compiled.ruleset
    assert rs is not None and compiled.ok
    module = import_rendered(rs, tmp_path, "semantics_once_costs")
    for step in rs.steps:
        for x in (i / 4 for i in range(0, 25)):
            assert same(getattr(module, step.id)(x), semantics.step_value(step, x)), (step.id, x)
    checked = 0
    for mode in (m.id for m in rs.modes):
        for place in places(rs):
            for allowance, height in itertools.product((0.0, 4.5), (1.0, 2.5)):
                reference = semantics.move_cost(rs, mode, place, 2.5, allowance, {"height": height})
                answer = module.move_cost(
                    mode, *place, distance=2.5, allowance=allowance, height=height
                )
                assert same(answer, reference), (mode, place, allowance, height)
                checked += 1
    assert checked == 2 * 7 * 4


def _sight_states(rs: ir.Ruleset, rule: ir.Sight) -> list[dict[str, int] | None]:
    """A rule with a band of a state (issue 40) is asked by a viewer on each side of its bound;
    a rule without one, with no state."""
    if rule.state is None:
        return [None]
    low, high = {s.id: s.low for s in rs.states}, {s.id: s.high for s in rs.states}
    name, _, bound = rule.state
    return [{**low, name: bound}, {**low, name: min(bound + 1, high[name])}]


def test_line_of_sight_matches_for_lines_of_every_sighted_feature(
    pair: tuple[ir.Ruleset, ModuleType],
) -> None:
    rs, module = pair
    for rule in rs.sights:
        sighted = [(f.id,) for f in rs.features if rule.id in f.cells] + [()]
        for length in (2, 3, 4):
            # a rule read through scales takes the length of line inside each place
            crossed = tuple(0.5 + 1.5 * i for i in range(length)) if rule.crossed else None
            # a rule with cells keyed by unit type is asked for every viewer (issue 25)
            keyed = any(f.cells[rule.id].exceptions for f in rs.features if rule.id in f.cells)
            viewers = [None, *(m.id for m in rs.modes)] if keyed and length < 4 else [None]
            lines = itertools.product(itertools.product(sighted, repeat=length), viewers)
            for (line, mode), state in itertools.product(lines, _sight_states(rs, rule)):
                reference = semantics.line_of_sight(rs, rule, line, crossed, mode, state=state)
                kwargs: dict[str, Any] = {"mode": mode} if mode is not None else {}
                if state is not None:
                    kwargs["state"] = state
                answer = module.line_of_sight(rule.id, *line, crossed=crossed, **kwargs)
                assert answer.hindrance == reference.hindrance
                assert answer.blocked == reference.blocked
                assert all(
                    same(a, r) for a, r in zip(answer.by_place, reference.by_place, strict=True)
                )


def test_results_tables_match_for_every_total_column_and_natural(
    pair: tuple[ir.Ruleset, ModuleType],
) -> None:
    rs, module = pair
    for table in rs.results_tables:
        totals = semantics.results_index(table, semantics.trigger_shifts(rs, table.id))
        naturals = [None, *semantics.plain_totals(table.dice)]
        for total, column, natural in itertools.product(totals, table.columns, naturals):
            expected = semantics.result(table, total, column.id, natural)
            assert module.roll(table.id, total, column=column.id, natural=natural).id == expected
            if column.bound == "category":  # named by the caller (or a decision), not by a value
                assert module.roll(table.id, total, column=column.id).column == column.id
                continue
            picked = semantics.result_column(table, column.value)
            assert picked is not None
            assert module.roll(table.id, total, column=column.value).column == picked.id
