"""Facing in the JavaScript module (for :mod:`rulesdsl.codegen.js`): each facing rule of the
plan's movement section as the module's ``FacingRule``, and the constants the facing runtime
(``runtime_facing.js``, included only when the ruleset has facing rules) shares with the
plan: the once-per-move bit of each manoeuvre, whether a refused one is costed."""

from __future__ import annotations

from rulesdsl.codegen.js.checks import runtime_part
from rulesdsl.codegen.js.data import dict_js, fields_js
from rulesdsl.codegen.js.routes import (
    BONUS,
    FED,
    OWN_RANGE,
    RAISED,
    SHARES,
    STRENGTH,
    facing_fed,
    facing_shares,
    marked,
    whole_js,
)
from rulesdsl.codegen.js.values import number_js, string_js, union
from rulesdsl.codegen.plan import movement as plan_movement

WHOLE = (" // [facing whole]", " // [facing not whole]")
"""The marks of the facing lines for rules with whole-move rules (the route carries them, the
searches count the limits and bonuses step by step), and of those for the others."""
SAIL = (" // [sail]", " // [no sail]")
"""Marks of the runtime lines for rules that sail by arcs (``sail by``, issue 40) or not."""
SPEED_BY = (" // [sailing speed]", " // [no sailing speed]")
"""Marks of the runtime lines for rules whose speed is by the point of sail (``speed by``)."""


def _bound(value: float | None) -> str:
    return "Infinity" if value is None else number_js(value)


def manoeuvre_js(move: plan_movement.Manoeuvre | None) -> str:
    """A manoeuvre as ``[extra cost, up to speed, once per move]``; null: not allowed."""
    if move is None:
        return "null"
    once = "true" if move.once else "false"
    return f"Object.freeze([{number_js(move.cost)}, {_bound(move.up_to_speed)}, {once}])"


def facing_rule_js(f: plan_movement.FacingRule, moves: tuple[str, ...]) -> str:
    """A facing rule as the module's record; its manoeuvres named as the plan's facing moves."""
    modes = ", ".join(f"[{_bound(m.up_to_speed)}, {m.places}]" for m in f.turn_modes)
    by_move = ", ".join(f"[{string_js(kind)}, {places}]" for kind, places in f.turn_modes_by_move)
    costs = ", ".join(f"[{number_js(up)}, {number_js(cost)}]" for up, cost in f.turn_costs)
    fields = {
        "grid": string_js(f.grid),
        "headings": str(f.headings),
        "turnCost": number_js(f.turn_cost),
        "turnModes": f"Object.freeze([{modes}])",
        **{move: manoeuvre_js(f.manoeuvres.get(move)) for move in moves},
        "exactSpeed": "true" if f.exact_speed else "false",
        "turnModesByMove": f"Object.freeze([{by_move}])",
        "untilSpent": "true" if f.until_spent else "false",
        **({"turnLimit": str(f.turn_limit)} if f.turn_limit is not None else {}),
        **({"turnCosts": f"Object.freeze([{costs}])"} if f.turn_costs else {}),
        **{
            k: "Infinity" if v == float("inf") else number_js(v)
            for k, v in (("tack", f.tack), ("wear", f.wear))
            if v is not None
        },
        **({"sail": f"Object.freeze([{_sail(f)}])"} if f.sail else {}),
        **({"speeds": f"Object.freeze([{_speeds(f.speeds)}])"} if f.speeds else {}),
        **({"strengths": f"Object.freeze([{_strengths(f)}])"} if f.strengths else {}),
        **(
            {"strengthSpeeds": f"Object.freeze([{_speeds(f.strength_speeds)}])"}
            if f.strength_speeds
            else {}
        ),
    }
    return f"new FacingRule({fields_js(fields)})"


def _sail(f: plan_movement.FacingRule) -> str:
    """``sail by`` (issue 40): per relative heading, [the point of sail, its extra cost]."""
    return ", ".join(
        f"[{string_js(a)}, {'Infinity' if c == float('inf') else number_js(c)}]" for a, c in f.sail
    )


def _strengths(f: plan_movement.FacingRule) -> str:
    """``sail when`` (issue 40): per strength of the wind named, [it, the step's extra cost]."""
    return ", ".join(
        f"[{string_js(n)}, {'Infinity' if c == float('inf') else number_js(c)}]"
        for n, c in f.strengths
    )


def _speeds(speeds: tuple[tuple[str, float], ...]) -> str:
    """``speed by`` (issue 40): per relative heading, [the point of sail, the speed there];
    ``speed when``: per strength of the wind, [it, the speed]."""
    return ", ".join(f"[{string_js(a)}, {number_js(v)}]" for a, v in speeds)


def runtime_facing(
    states: bool = False,
    own: bool = False,
    fed: bool = False,
    shares: bool = False,
    whole: bool = False,
    bonuses: bool = False,
    sail: bool = False,
    speeds: bool = False,
    strengths: bool = False,
) -> str:
    """The facing runtime, its lines for rules with ``state`` lines or without (and with unit
    types' own ranges of a state or without), for route searches fed step inputs or dice
    outcomes or not, for costs that are shares of the allowance or not, and for rules with
    whole-move rules (and bonuses among them) or without, and that sail by arcs (or take their
    speed by the point of sail, or cost their steps by the wind's strength) or not."""
    text = marked(runtime_part("runtime_facing.js"), strengths, *STRENGTH)
    text = marked(text, speeds, *SPEED_BY)
    text = marked(marked(text, sail, *SAIL), whole, *WHOLE)
    text = marked(marked(text, bonuses, *BONUS), shares, *SHARES)
    text = marked(text, fed or shares, *RAISED)
    text = marked(marked(text, own, *OWN_RANGE), fed, *FED)
    return marked(text, states)


def facing_js(plan: plan_movement.MovementPlan, fed: bool = False) -> list[str]:
    """The facing runtime and its data; nothing for a ruleset without facing rules. ``fed``:
    dice outcomes feed the cost."""
    if not plan.facings:
        return []
    bits = dict_js({move: str(bit) for move, bit in plan.once_bits.items()})
    rules = {f.mode: facing_rule_js(f, plan.facing_moves) for f in plan.facings}
    bonuses = any(w.bonus is not None for w in plan.whole_moves)
    limited = any(w.most is not None or w.bonus is not None for w in plan.whole_moves)
    in_state = bool(plan.states) and limited  # the state runtime has _wholeCounts then
    strengths = plan_movement.strengths(plan.facings)
    return [
        "",
        runtime_facing(
            bool(plan.states),
            bool(plan_movement.own_ranges(plan.states)),
            facing_fed(plan, fed),
            facing_shares(plan),
            bool(plan.whole_moves),
            bonuses,
            any(f.sail or plan_movement.reads_strength(f) for f in plan.facings),
            any(f.speeds or f.strength_speeds for f in plan.facings),
            bool(strengths),
        ),
        *(["", whole_js(bonuses)] if plan.whole_moves and not in_state else []),
        "",
        f"export const FACINGS = {dict_js(rules)};",
        f"const _ONCE_BITS = {bits};",
        f"const _REFUSED_COSTED = {'true' if plan.refused_costed else 'false'};",
        *(
            [f"const _STRENGTHS = Object.freeze([{', '.join(map(string_js, strengths))}]);"]
            if strengths
            else []
        ),
    ]


def facing_dts(plan: plan_movement.MovementPlan, fed: bool = False) -> list[str]:
    """The declarations of the facing records and FACINGS, and the route functions' overloads
    for a unit type with facing (before the others, so that TypeScript picks them first);
    nothing for a ruleset without facing rules. ``fed``: dice outcomes feed the cost."""
    if not plan.facings:
        return []
    manoeuvres = "".join(f" readonly {move}: Manoeuvre | null;" for move in plan.facing_moves)
    modes = union(f.mode for f in plan.facings)
    wind = any(plan_movement.reads_wind(f) for f in plan.facings)
    sail = any(f.sail for f in plan.facings)
    speeds = any(f.speeds for f in plan.facings)
    strengths = plan_movement.strengths(plan.facings)
    strength_speeds = any(f.strength_speeds for f in plan.facings)
    # `wind`: the heading the wind blows from, where some unit type tacks or wears (issue 40),
    # with its strength where some unit type's rules read it (`sail when`, `speed when`)
    blown = "number | readonly [number, WindStrength] | null" if strengths else "number | null"
    options = f"RouteOptions & {{ wind?: {blown} }}" if wind else "RouteOptions"
    return [
        *([f"export type WindStrength = {union(strengths)};"] if strengths else []),
        "/** A manoeuvre: [extra cost, up to speed, once per move]. */",
        "export type Manoeuvre = readonly [number, number, boolean];",
        "export declare class FacingRule {",
        "  readonly grid: string; readonly headings: 4 | 6 | 8; readonly turnCost: number;",
        "  readonly turnModes: readonly (readonly [number, number])[];",
        f" {manoeuvres}",
        "  readonly exactSpeed: boolean; readonly untilSpent: boolean;",
        "  readonly turnLimit?: number;",
        "  readonly turnCosts?: readonly (readonly [number, number])[];",
        "  readonly tack?: number; readonly wear?: number;",
        *(["  readonly sail?: readonly (readonly [string, number])[];"] if sail else []),
        *(["  readonly speeds?: readonly (readonly [string, number])[];"] if speeds else []),
        *(["  readonly strengths?: readonly (readonly [string, number])[];"] if strengths else []),
        *(
            ["  readonly strengthSpeeds?: readonly (readonly [string, number])[];"]
            if strength_speeds
            else []
        ),
        "  readonly turnModesByMove: readonly (readonly [MoveName, number])[];",
        "}",
        'export type FacingMove = "forward" | "backward" | "sideslip" | "turn" | "pivot";',
        "export declare class FacingStep {",
        "  readonly start: BoardPlace; readonly end: BoardPlace; readonly heading: number;",
        "  readonly move: FacingMove; readonly features: readonly FeatureName[];",
        "  readonly edge: readonly FeatureName[]; readonly cost: number | Marker;",
        "  readonly straight: number;",
        "}",
        "export declare class FacingRoute {",
        "  readonly total: number | Marker; readonly steps: readonly FacingStep[];",
        "  readonly legal: boolean; readonly reason: string; readonly heading: number;",
        "  readonly speed: number; readonly turnMode: number; readonly move: string;",
        "  readonly rolls: readonly RollDue[];",
        *([f"  readonly state: {_STATE} | null;"] if plan.states else []),
        *(["  readonly drift: BoardPlace | null;"] if plan.drifts is not None else []),
        *(["  readonly marks?: readonly string[];"] if plan.whole_moves else []),
        "}",
        f"export type FacingModeName = {modes};",
        "export declare const FACINGS: Readonly<Record<FacingModeName, FacingRule>>;",
        "/** A unit with facing is where it is and which way it faces: [place, heading]. */",
        "export type FacingState = readonly [BoardPlace, number];",
        "/** The cost of a move with facing: each next pair one action (a step or a turn). */",
        "export declare function routeCost(",
        "  board: Board,",
        "  mode: FacingModeName,",
        "  route: Iterable<FacingState>,",
        f"  options?: {options},",
        "): FacingRoute;",
        "/** The cheapest legal move with facing to a place (any heading) or a pair. */",
        "export declare function cheapestRoute(",
        "  board: Board,",
        "  mode: FacingModeName,",
        "  start: FacingState,",
        "  goal: BoardPlace | FacingState,",
        f"  options?: {options},",
        "): FacingRoute | null;",
        *(_reachable_dts(bool(plan.states), facing_fed(plan, fed), blown) if wind else []),
    ]


_STATE = "Readonly<Record<StateName, number>>"
"""A state carried between moves (issue 40), as runtime_routes.d.ts types it."""


def _reachable_dts(states: bool, fed: bool = False, wind: str = "number | null") -> list[str]:
    """reachable's overload for a unit type with facing where some tack or wear (issue 40),
    with the carried ``state`` among its options when the ruleset has ``state`` lines, and
    ``outcomes`` and the step inputs when its route searches take them (``fed``)."""
    state = f"; state?: {_STATE} | null" if states else ""
    state += "; outcomes?: PlacedOutcomes | null" if fed else ""
    return [
        "/** Each [place, heading] a unit with facing may end with (``wind``: it blows from). */",
        "export declare function reachable(",
        "  board: Board,",
        "  mode: FacingModeName,",
        "  start: FacingState,",
        "  budget?: number | null,",
        "  options?: { allowance?: number | null; move?: MoveName | null;"
        f" wind?: {wind}{state} }}{' & StepInputs' if fed else ''},",
        "): Reach;",
    ]
