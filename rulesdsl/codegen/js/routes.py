"""Boards, routes and reach in the JavaScript module (for :mod:`rulesdsl.codegen.js`): the map's
data the route functions of ``runtime_routes.js`` read, from the plan's movement section, as
the Python module's ``module_routes.py.j2`` holds it."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.js.checks import package_text, runtime_part
from rulesdsl.codegen.js.data import dict_js, strings_js
from rulesdsl.codegen.js.values import literal_js, number_js, string_js
from rulesdsl.codegen.plan import movement as plan_movement
from rulesdsl.codegen.plan import values as plan_values

_STATE = " // [state]"
_NO_STATE = " // [no state]"
BONUS = (" // [bonus]", " // [no bonus]")
_DRIFT = (" // [drift]", " // [no drift]")
STRENGTH = (" // [wind strength]", " // [no wind strength]")
"""Marks of the runtime lines for rules whose steps cost by the wind's strength (``sail when``,
issue 40): the facing and drift runtimes read ``wind: [heading, strength]``."""
OWN_RANGE = (" // [own range]", " // [one range]")
_WHOLE = (" // [whole]", " // [no whole]")
_WHOLE_PART = "/*@whole*/"
"""The line of runtime_state.js where :func:`whole_js` goes (the lines are kept in one file)."""

FED = (" // [facing fed]", " // [facing unfed]")
"""The marks of the lines for a unit type with facing whose route searches take step inputs or
dice outcomes (rules with both facing and either), and of those for the others."""

STEP_ROLLS = (" // [step rolls]", " // [no step rolls]")
FIRST_STEP = (" // [first step]", " // [no first step]")
"""The marks of the lines for rules with a roll ``on first step`` (issue 40), due once a move,
and of those for the others; applied before the step-roll marks."""

CAPPED = (" // [capped]", " // [uncapped]")
"""The marks of runtime_state.js's lines for rules with a change written ``capped`` (``dive +1
capped``), and of those for the others; applied after the own-range marks."""

CAPPED_AT = (" // [capped at]", " // [capped at end]")
"""The marks of runtime_state.js's lines for rules with a change capped at a bound (``dive +1
capped at 5``), and of those for the others; applied after the capped marks (a line may carry
both, this one first)."""

SHARES = (" // [facing shares]", " // [facing no shares]")
"""The marks of the facing lines for rules with a cost that is a share of the allowance (the
searches cost it with the allowance, as routeCost does), and of those for the others."""

RAISED = (" // [facing raised]", " // [facing not raised]")
"""The marks of _facingRaisedBy, kept where the facing route functions relabel a cost's error
as theirs: route searches fed inputs or outcomes, or costs that are shares."""


def runtime_routes(
    states: bool = False,
    bonuses: bool = False,
    drift: bool = False,
    own: bool = False,
    fed: bool = False,
    step_rolls: bool = False,
    shares: bool = False,
    first_steps: bool = False,
) -> str:
    """The route runtime, its lines for rules with ``state`` lines or without, with whole-move
    bonuses or without, with a ``drift`` line or without, with unit types' own ranges of a
    state or without, with facing route searches fed step inputs or dice outcomes or without,
    with a roll ``on any step`` or without, with facing and costs that are shares or without
    with a roll ``on first step`` or without (:func:`marked`)."""
    text = marked(runtime_part("runtime_routes.js"), shares, *SHARES)
    text = marked(marked(text, own, *OWN_RANGE), fed, *FED)
    text = marked(text, states)
    text = marked(marked(text, bonuses, *BONUS), drift, *_DRIFT)
    return marked(marked(text, first_steps, *FIRST_STEP), step_rolls, *STEP_ROLLS)


def along_js(plan: plan_movement.MovementPlan) -> str:
    """Per edge feature, per mode: what the place entered costs instead when the step follows
    the edge."""
    return dict_js(
        {f: dict_js({m: number_js(v) for m, v in by.items()}) for f, by in plan.along.items()}
    )


def routes_js(plan: plan_movement.MovementPlan, fed: bool = False) -> list[str]:
    """The map's constants and the route functions; ``fed``: dice outcomes feed the cost."""
    diagonal = {g.id: number_js(g.diagonal) for g in plan.grids if g.diagonal is not None}
    limited = any(w.most is not None or w.bonus is not None for w in plan.whole_moves)
    bonuses = [w for w in plan.whole_moves if w.bonus is not None]
    rules = [w for w in plan.whole_moves if w.bonus is None]
    wind = any(plan_movement.reads_wind(f) for f in plan.facings)
    return [
        runtime_routes(
            bool(plan.states),
            bool(bonuses),
            plan.drifts is not None,
            bool(plan_movement.own_ranges(plan.states)),
            facing_fed(plan, fed),
            "any_step" in plan.roll_order,
            facing_shares(plan),
            "first_step" in plan.roll_order,
        ),
        "",
        "/** Each declared grid's neighbourhood: hex (axial [q, r]) or square ([x, y]). */",
        f"export const GRID_SHAPES = {dict_js({g.id: string_js(g.shape) for g in plan.grids})};",
        "/** Cells a diagonal step counts on a square grid with diagonals (their average). */",
        f"const _GRID_DIAGONAL = {dict_js(diagonal)};",
        f"const _ALONG = {along_js(plan)};",
        f"const _EDGE_FEATURES = new Set({strings_js(plan.edge_features)});",
        f"const _FACING_MODES = new Set({strings_js(f.mode for f in plan.facings)});",
        "/** The whole-move rules: id, label, the features a step counts by, the most such steps"
        " (null: the route carries the rule). */",
        f"const _WHOLE_MOVES = [{', '.join(_whole_move_js(w) for w in rules)}];",
        f"const _LIMITED = {'true' if limited else 'false'};",
        f"const _WIND = {'true' if wind else 'false'};",
        *_states_js(plan),
        *_bonuses_js(bonuses),
        *_drifts_js(plan),
    ]


def facing_fed(plan: plan_movement.MovementPlan, fed: bool) -> bool:
    """Whether a unit type with facing takes step inputs or dice outcomes (``fed``: some feed
    the cost) in its route searches."""
    return bool(plan.facings) and (bool(plan.cost_inputs) or fed)


def facing_shares(plan: plan_movement.MovementPlan) -> bool:
    """Whether a unit type with facing may meet a cost that is a share of the allowance."""
    return bool(plan.facings) and any(
        isinstance(c.cost, plan_values.Share) for c in plan.per_move_costs
    )


def _drifts_js(plan: plan_movement.MovementPlan) -> list[str]:
    """Each unit type's drift and the runtime that applies it; nothing for rules without."""
    if plan.drifts is None:
        return []
    entries = {
        m: f"Object.freeze([{d}, {string_js(state)}, {string_js(op)}, {bound}])"
        for m, d, state, op, bound in plan.drifts
    }
    return [
        "/** Per unit type that drifts: the places, and the state band (state, below or above,"
        " bound; empty: always). */",
        f"const _DRIFTS = {dict_js(entries)};",
        "",
        marked(
            runtime_part("runtime_drift.js"),
            any(plan_movement.reads_strength(f) for f in plan.facings),
            *STRENGTH,
        ),
    ]


def _bonuses_js(bonuses: list[plan_movement.WholeMove]) -> list[str]:
    """The whole-move bonuses and the runtime that adds them; nothing for rules without."""
    if not bonuses:
        return []
    rules = ", ".join(
        f"[{string_js(w.id)}, {string_js(w.label)}, new Set({strings_js(w.features)}),"
        f" {number_js(w.bonus or 0)}]"
        for w in bonuses
    )
    return [
        "/** The whole-move bonuses: id, label, the features every step must count by, and what"
        " the route's allowance gains then. */",
        f"const _WHOLE_BONUSES = [{rules}];",
        "",
        runtime_part("runtime_bonus.js").rstrip("\n"),
    ]


def _states_js(plan: plan_movement.MovementPlan) -> list[str]:
    """STATES, their labels and changes, and the runtime that carries them; nothing for rules
    without ``state`` lines (the search also counts whole-move limits and bonuses when the
    rules have them: lines marked ``// [whole]``)."""
    if not plan.states:
        return []
    limited = any(w.most is not None or w.bonus is not None for w in plan.whole_moves)
    bonuses = any(w.bonus is not None for w in plan.whole_moves)
    ranges = {v.id: f"Object.freeze([{v.low}, {v.high}])" for v in plan.states}
    changes = {
        c.source: dict_js({m: f"Object.freeze([{', '.join(map(str, d))}])" for m, d in c.deltas})
        for c in plan.state_changes
    }
    bands = {
        roll: f"Object.freeze([{i}, {string_js(op)}, {bound}])"
        for roll, i, op, bound in plan.roll_states
    }
    own = {
        mode: "Object.freeze([" + ", ".join(f"Object.freeze([{lo}, {hi}])" for lo, hi in r) + "])"
        for mode, r in plan_movement.own_ranges(plan.states).items()
    }
    ranges_own = [
        "/** Per unit type with its own range of a state: every state's range for it. */",
        f"const _STATE_RANGES = {dict_js(own)};",
    ]
    capped = {
        source: dict_js({m: f"Object.freeze([{', '.join(map(str, d))}])" for m, d in by.items()})
        for source, by in plan_movement.capped_changes(plan).items()
    }
    bounds = {
        source: dict_js({m: _frozen(map(_bound_js, b)) for m, b in by.items()})
        for source, by in plan_movement.capped_bounds(plan).items()
    }
    capped_js = [
        "/** As _STATE_CHANGES, only the changes written capped (0 for the others). */",
        f"const _CAPPED_CHANGES = {dict_js(capped)};",
        *(
            [
                "/** As _CAPPED_CHANGES, the bound of each (null: the end of the unit's range). */",
                f"const _CAPPED_BOUNDS = {dict_js(bounds)};",
            ]
            if bounds
            else []
        ),
    ]
    runtime = marked(marked(runtime_part("runtime_state.js"), limited, *_WHOLE), bonuses, *BONUS)
    runtime = runtime.replace(_WHOLE_PART, whole_js(bonuses))
    runtime = marked(marked(runtime, bool(own), *OWN_RANGE), bool(capped), *CAPPED)
    runtime = marked(runtime, bool(bounds), *CAPPED_AT)
    runtime = marked(runtime, "first_step" in plan.roll_order, *FIRST_STEP)
    return [
        "/** What a unit carries from move to move, each with its lowest and highest value. */",
        f"export const STATES = {dict_js(ranges)};",
        f"const _STATE_LABELS = {strings_js(v.label for v in plan.states)};",
        "/** Per feature or kind of move, per unit type with its own change: the changes. */",
        f"const _STATE_CHANGES = {dict_js(changes)};",
        f"const _ROLL_STATES = {dict_js(bands)};",
        *(ranges_own if own else []),
        *(capped_js if capped else []),
        "",
        runtime,
    ]


def _frozen(items: Iterable[str]) -> str:
    """A frozen array of JavaScript values."""
    return f"Object.freeze([{', '.join(items)}])"


def _bound_js(bound: int | None) -> str:
    """A capped change's bound, or ``null`` for one capped at the end of the range."""
    return "null" if bound is None else str(bound)


def whole_js(bonuses: bool) -> str:
    """_wholeLimits and _wholeCounts, which count whole-move limits and bonuses step by step
    in the searches that carry a state or a heading; ``bonuses``: the rules have bonuses."""
    return marked(runtime_part("runtime_whole.js"), bonuses, *BONUS)


def state_reads_js(plan: module_plan.ModulePlan) -> list[str]:
    """The rules that read a state (issue 40) as ``runtime_state.js`` reads them: per modifier
    with values in a band (``when altitude above 6 | +1``), its bands; per sight rule with a
    band (``when altitude below 5``), the band. Nothing for rules without states."""
    if not plan.movement.states:
        return []
    bands = {
        m.id: "Object.freeze(["
        + ", ".join(
            f"Object.freeze([{b.index}, {string_js(b.side)}, {b.bound}, {literal_js(b.value)}])"
            for b in m.bands
        )
        + "])"
        for m in plan.data.modifiers
        if m.bands
    }
    sight = {
        rule: f"Object.freeze([{i}, {string_js(side)}, {bound}])"
        for rule, (i, side, bound) in plan.sight.state_bands.items()
    }
    return [
        "/** Per modifier with values in a band of a state: the state's index, below or above,"
        " the bound and the value. */",
        f"const _MODIFIER_BANDS = {dict_js(bands)};",
        "/** Per sight rule that counts only while the viewer's state is in a band. */",
        f"const _SIGHT_STATES = {dict_js(sight)};",
    ]


def _whole_move_js(rule: plan_movement.WholeMove) -> str:
    most = "null" if rule.most is None else str(rule.most)
    features = f"new Set({strings_js(rule.features)})"
    return f"[{string_js(rule.id)}, {string_js(rule.label)}, {features}, {most}]"


@lru_cache(maxsize=256)
def marked(text: str, states: bool, on: str = _STATE, off: str = _NO_STATE) -> str:
    """``text`` with its lines marked ``// [state]`` (``on``) kept for rules with ``state``
    lines and those marked ``// [no state]`` (``off``) for the others (so a module without
    states is as it was). Kept for the last texts and marks asked (issue 44: each module
    marked the same runtime parts, the same way, line by line, again: half of a small
    module's render); the runtime parts are read and written once per process
    (:func:`rulesdsl.codegen.js.checks.runtime_part`), so a chain of marks meets itself."""
    kept, dropped = (on, off) if states else (off, on)
    lines = text.rstrip("\n").split("\n")
    return "\n".join(line.removesuffix(kept) for line in lines if not line.endswith(dropped))


def routes_dts(
    grid_names: str, states: tuple[str, ...] = (), drift: bool = False, strengths: bool = False
) -> list[str]:
    """The declarations of the boards, routes and reach; ``grid_names``: the declared grids'
    names as a string-literal union; ``states``: the declared states' names; ``drift``: with
    a ``drift`` line; ``strengths``: ``wind`` may carry the wind's strength (``sail when``)."""
    declared = (
        [
            f"export type StateName = {' | '.join(map(string_js, states))};",
            "export declare const STATES: Readonly<Record<StateName, readonly [number, number]>>;",
        ]
        if states
        else []
    )
    return [
        marked(
            marked(marked(package_text("runtime_routes.d.ts"), strengths, *STRENGTH), bool(states)),
            drift,
            *_DRIFT,
        ),
        *declared,
        f"export type DeclaredGridName = {grid_names};",
        'export type GridName = DeclaredGridName | "hex" | "square";',
        'export declare const GRID_SHAPES: Readonly<Record<DeclaredGridName, "hex" | "square">>;',
    ]
