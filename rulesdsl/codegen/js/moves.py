"""What the JavaScript module's movement costs, place states, path lengths, kinds of move and
rolls due read (for :mod:`rulesdsl.codegen.js`): unit types, groups and layers from the plan's
header, the costs paid once per move, grids, place states, kinds of move and roll rules from
its movement section, the dice outcomes that feed the cost from its sight section. One
``<node>_js`` function per plan node; the runtime is ``runtime_moves.js``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import assert_never

from rulesdsl.codegen.js.data import dict_js, per_distance_js, strings_js
from rulesdsl.codegen.js.values import labels_js, number_js, string_js
from rulesdsl.codegen.plan import ModulePlan
from rulesdsl.codegen.plan import header as plan_header
from rulesdsl.codegen.plan import movement as plan_movement
from rulesdsl.codegen.plan import values as plan_values


def once_js(cost: plan_values.OnceCost) -> str:
    """A cost paid once per move as the module's record."""
    match cost:
        case plan_values.Flat(amount=amount):
            return f"new Flat({number_js(amount)})"
        case plan_values.Share(numerator=n, denominator=d, but=but):
            return f"new Share({n}, {d}, {number_js(but)})"
        case plan_values.StepCost(step=step, param=param):
            return f"new StepCost({string_js(step)}, {string_js(param)})"
        case _:
            assert_never(cost)


def _numbers(by_key: Mapping[str, float]) -> str:
    return dict_js({k: number_js(v) for k, v in by_key.items()})


def _nested(by_feature: Mapping[str, Mapping[str, float]]) -> str:
    return dict_js({f: _numbers(by_mode) for f, by_mode in by_feature.items()})


def _set(names: Iterable[str]) -> str:
    return f"new Set({strings_js(names)})"


def mode_js(m: plan_header.ModePlan) -> str:
    return (
        f"Object.freeze({{id: {string_js(m.id)}, labels: {labels_js(m.labels)}, "
        f"keywords: {strings_js(m.keywords)}}})"
    )


def layer_js(la: plan_header.LayerPlan) -> str:
    return (
        f"Object.freeze({{id: {string_js(la.id)}, labels: {labels_js(la.labels)}, "
        f"scope: {string_js(la.scope)}, features: {strings_js(la.features)}}})"
    )


def header_js(h: plan_header.HeaderPlan) -> list[str]:
    """Unit types, groups, layers, the entry cost and the minimum-move rule."""
    return [
        f"export const MODES = {dict_js({m.id: mode_js(m) for m in h.modes})};",
        f"export const GROUPS = {dict_js({g.id: strings_js(g.members) for g in h.groups})};",
        f"export const LAYERS = {dict_js({la.id: layer_js(la) for la in h.layers})};",
        f"export const ENTRY_COST = {number_js(h.entry_cost)};",
        f"export const MINIMUM_MOVE = {'true' if h.minimum_move else 'false'};",
    ]


def costs_js(plan: ModulePlan) -> list[str]:
    """What moveCost reads beside FEATURES: one-per-place layers, unfilled costs, costs paid
    once per move and their inputs, the dice outcomes that feed the cost, the grid."""
    data, movement = plan.data, plan.movement
    unfilled = ", ".join(
        f"[{string_js(mode + chr(0) + f.id)}, {string_js(cost.param)}]"
        for f in data.features
        for mode, cost in f.costs.items()
        if isinstance(cost, plan_values.Unfilled)
    )
    once: dict[str, dict[str, str]] = {}
    for c in movement.per_move_costs:
        once.setdefault(c.mode, {})[c.feature] = once_js(c.cost)
    grid = movement.grids[0] if movement.grids else None
    diagonals = ", ".join(map(str, grid.diagonals if grid else ()))
    states = {
        f: dict_js({m: string_js(s) for m, s in by.items()})
        for f, by in movement.place_states.items()
    }
    precedence = ", ".join(map(strings_js, data.precedence))
    once_features = dict.fromkeys(c.feature for c in movement.per_move_costs)
    return [
        f"export const PRECEDENCE = Object.freeze([{precedence}]);",
        f"const _ONE_PER_PLACE = {_set(data.one_per_place)};",
        f"const _UNFILLED_COSTS = new Map([{unfilled}]);",
        f"export const PER_MOVE_COSTS = {dict_js({m: dict_js(by) for m, by in once.items()})};",
        f"const _ONCE_FEATURES = {_set(once_features)};",
        f"export const COST_INPUTS = {strings_js(movement.cost_inputs)};",
        f"const _OUTCOMES = {_set(plan.sight.fed_outcomes)};",
        f"const _OUTCOME_COSTS = {_numbers(plan.sight.outcome_costs)};",
        f"export const GRID_SIZES = {_numbers(grid.sizes if grid else {})};",
        f"export const GRID_DIAGONALS = Object.freeze([{diagonals}]);",
        f"const _STATES = {dict_js(states)};",
    ]


def move_kind_js(k: plan_movement.MoveKind) -> str:
    return (
        f"new MoveKind({string_js(k.id)}, {string_js(k.label)}, {number_js(k.factor)}, "
        f"{number_js(k.amount)}, {_set(k.barred)})"
    )


def _optional(text: str | None) -> str:
    return "null" if text is None else string_js(text)


def roll_rule_js(r: plan_movement.RollRule) -> str:
    return (
        f"new RollRule({string_js(r.id)}, {string_js(r.label)}, {string_js(r.when)}, "
        f"{_optional(r.dice)}, {_optional(r.table)}, {string_js(r.combine)})"
    )


def moves_js(m: plan_movement.MovementPlan) -> list[str]:
    """Kinds of move and their costs, roll rules and their modifiers, the roll order."""
    kind_costs = {
        k.id: dict_js(
            {
                feature: dict_js({mode: per_distance_js(c) for mode, c in by_mode.items()})
                for feature, by_mode in k.costs.items()
            }
        )
        for k in m.moves
        if k.costs
    }
    roll_moves = {
        r.id: dict_js({kind: _nested(by) for kind, by in r.by_move.items()})
        for r in m.rolls
        if r.by_move
    }
    return [
        f"export const MOVES = {dict_js({k.id: move_kind_js(k) for k in m.moves})};",
        f"export const ROLLS = {dict_js({r.id: roll_rule_js(r) for r in m.rolls})};",
        f"const _KIND_COSTS = {dict_js(kind_costs)};",
        f"const _ROLL_VALUES = {dict_js({r.id: _nested(r.values) for r in m.rolls})};",
        f"const _ROLL_MOVES = {dict_js(roll_moves)};",
        f"const _ROLL_ORDER = {strings_js(m.roll_order)};",
    ]


def movement_js(plan: ModulePlan) -> list[str]:
    """The movement data of ``<id>.js``, after FEATURES."""
    return [*header_js(plan.header), *costs_js(plan), *moves_js(plan.movement)]
