"""What the JavaScript module's movement costs, place states, path lengths, kinds of move and
rolls due read (for :mod:`rulesdsl.codegen.js`): unit types, groups and layers from the plan's
header, the costs paid once per move, grids, place states, kinds of move and roll rules from
its movement section, the dice outcomes that feed the cost from its sight section. One
``<node>_js`` function per plan node; the runtime is ``runtime_moves.js``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rulesdsl.codegen.js.checks import package_text
from rulesdsl.codegen.js.data import dict_js, fields_js, per_distance_js, strings_js
from rulesdsl.codegen.js.routes import FIRST_STEP, STEP_ROLLS, marked
from rulesdsl.codegen.js.values import labels_js, number_js, string_js, union
from rulesdsl.codegen.plan import ModulePlan
from rulesdsl.codegen.plan import header as plan_header
from rulesdsl.codegen.plan import movement as plan_movement
from rulesdsl.codegen.plan import values as plan_values

ROLL_BANDS = (" // [roll bands]", " // [no roll bands]")
"""The marks of ``runtime_moves.js`` lines kept only in modules with (without) a roll due in a
band of a state, whose ``rollsDue`` takes the unit's ``state`` (its lines for a roll on any
step also marked as :data:`~rulesdsl.codegen.js.routes.STEP_ROLLS`)."""


_STATE_OPTION = (
    "  /** The unit's state as it enters (every state of STATES): a roll in a band of it is due",
    "   * only while the state, changed by the place, is in the band. */",
    "  state?: Readonly<Record<StateName, number>> | null;",
)


def once_js(cost: plan_values.OnceCost) -> str:
    """A cost paid once per move as the module's record."""
    name, args = plan_values.once_record(cost)
    spelt = (string_js(a) if isinstance(a, str) else number_js(a) for a in args)
    return f"new {name}({', '.join(spelt)})"


def _numbers(by_key: Mapping[str, float]) -> str:
    return dict_js({k: number_js(v) for k, v in by_key.items()})


def _nested(by_feature: Mapping[str, Mapping[str, float]]) -> str:
    return dict_js({f: _numbers(by_mode) for f, by_mode in by_feature.items()})


def _set(names: Iterable[str]) -> str:
    return f"new Set({strings_js(names)})"


def mode_js(m: plan_header.ModePlan) -> str:
    fields = {"id": string_js(m.id), "labels": labels_js(m.labels)}
    fields["keywords"] = strings_js(m.keywords)
    if m.allowance is not None:  # issue 40: a unit type's own allowance
        fields["allowance"] = number_js(m.allowance)
    return f"Object.freeze({fields_js(fields)})"


def layer_js(la: plan_header.LayerPlan) -> str:
    fields = {"id": string_js(la.id), "labels": labels_js(la.labels), "scope": string_js(la.scope)}
    return f"Object.freeze({fields_js({**fields, 'features': strings_js(la.features)})})"


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
    own = any(m.allowance is not None for m in plan.header.modes)
    return [
        f"export const PRECEDENCE = Object.freeze([{precedence}]);",
        f"const _UNFILLED_COSTS = new Map([{unfilled}]);",
        f"export const PER_MOVE_COSTS = {dict_js({m: dict_js(by) for m, by in once.items()})};",
        f"const _ONCE_FEATURES = {_set(once_features)};",
        f"export const COST_INPUTS = {strings_js(movement.cost_inputs)};",
        "/** Whether a unit type has an allowance of its own (moveCost reads it, given none). */",
        f"const _OWN_ALLOWANCES = {'true' if own else 'false'};",
        f"const _OUTCOME_COSTS = {_numbers(plan.sight.outcome_costs)};",
        f"export const GRID_SIZES = {_numbers(grid.sizes if grid else {})};",
        f"export const GRID_DIAGONALS = Object.freeze([{diagonals}]);",
        f"const _STATES = {dict_js(states)};",
    ]


def move_kind_js(k: plan_movement.MoveKind) -> str:
    return (
        f"new MoveKind({string_js(k.id)}, {string_js(k.label)}, {number_js(k.factor)}, "
        f"{number_js(k.amount)}, {_set(k.barred)}"
        + ("" if k.modes is None else f", {_set(k.modes)}")  # issue 40: `only`
        + ")"
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


def runtime_dts() -> str:
    return package_text("runtime_moves.d.ts")


def movement_dts(plan: ModulePlan) -> str:
    """The declarations of what :func:`movement_js` and ``runtime_moves.js`` export (after
    those of :func:`rulesdsl.codegen.js.dts.dts`, whose names they use)."""
    h, movement = plan.header, plan.movement
    grid = movement.grids[0] if movement.grids else None
    inputs = "; ".join(f"{string_js(name)}?: number" for name in movement.cost_inputs)
    place = "mode: ModeName, features?: readonly PlaceName[]"
    lines = [
        marked(
            marked(runtime_dts(), "first_step" in movement.roll_order, *FIRST_STEP),
            "any_step" in movement.roll_order,
            *STEP_ROLLS,
        ),
        f"export type GroupName = {union(g.id for g in h.groups)};",
        f"export type LayerName = {union(la.id for la in h.layers)};",
        f"export type PlaceName = FeatureName | {union(plan.sight.fed_outcomes)};",
        f"export type MoveName = {union(k.id for k in movement.moves)};",
        f"export type RollName = {union(r.id for r in movement.rolls)};",
        f"export type GridUnit = {union(grid.sizes if grid else ())};",
        f"export type CostInput = {union(movement.cost_inputs)};",
        "export declare const MODES: Readonly<Record<ModeName, Mode>>;",
        "export declare const GROUPS: Readonly<Record<GroupName, readonly ModeName[]>>;",
        "export declare const LAYERS: Readonly<Record<LayerName, Layer>>;",
        "export declare const PRECEDENCE: readonly (readonly string[])[];",
        "export declare const ENTRY_COST: number;",
        "export declare const MINIMUM_MOVE: boolean;",
        "export declare const PER_MOVE_COSTS: Readonly<",
        "  Partial<Record<ModeName, Readonly<Partial<Record<FeatureName, OnceCost>>>>>",
        ">;",
        "export declare const COST_INPUTS: readonly CostInput[];",
        "export declare const GRID_SIZES: Readonly<Record<GridUnit, number>>;",
        "export declare const GRID_DIAGONALS: readonly number[];",
        "export declare const MOVES: Readonly<Record<MoveName, MoveKind>>;",
        "export declare const ROLLS: Readonly<Record<RollName, RollRule>>;",
        f"type StepInputs = {{ {inputs} }};" if inputs else "type StepInputs = {};",
        "type Place = { allowance?: number | null; move?: MoveName | null } & StepInputs;",
        "/** The cost for ``mode`` through a place with ``features`` (Python's move_cost). */",
        f"export declare function moveCost({place}, options?: Place & {{ distance?: number }}",
        "): number | Marker;",
        "/** Whether ``mode`` may enter the place, given the movement ``available``. */",
        f"export declare function canEnter({place}, options?: Place & {{",
        "  available?: number | null;",
        "}): boolean;",
        f"export declare function canEnd({place}): boolean;",
        f"export declare function mustStop({place}): boolean;",
        "/** The length of a grid path of straight and diagonal steps, in ``unit``. */",
        "export declare function pathCost(",
        "  steps: string | readonly PathStep[],",
        "  options?: { unit?: GridUnit | null },",
        "): number;",
        "/** The rolls due when ``mode`` enters (``on``) a place with ``features``. */",
        f"export declare function rollsDue({place}, options?: {{",
        "  move?: MoveName | null;",
        "  on?: RollTime;",
        *(_STATE_OPTION if movement.roll_states else ()),
        "}): RollDue[];",
    ]
    return "\n".join(lines) + "\n"
