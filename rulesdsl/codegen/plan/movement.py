"""The module plan's movement section (issue 36). How a module moves units over a map: kinds of
move, the rolls a place makes due, facing rules, costs paid once per move, grids, place states
and edges.

Every node is plain typed data: names as str, labels chosen in the module's language, costs as
the plan's values (:mod:`rulesdsl.codegen.plan.values`). The constants the runtime shares with
the reference semantics (the order rolls fall due, the moves a facing rule may allow and their
once-per-move bits) are taken from where they are defined, once, so no emitter writes them again.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import get_args

from rulesdsl import editions, ir, semantics, spelling
from rulesdsl.codegen.plan import info, values
from rulesdsl.ir.records import dataclass
from rulesdsl.semantics import arcs as semantics_arcs
from rulesdsl.semantics import drift as semantics_drift
from rulesdsl.semantics import moves as semantics_moves
from rulesdsl.semantics import routes as semantics_routes
from rulesdsl.semantics import sail as semantics_sail

FACING_MOVES: tuple[ir.FacingMove, ...] = get_args(ir.FacingMove)
"""The moves a facing rule may allow beside going forward, in the order of their bits."""


@dataclass(frozen=True, slots=True)
class MoveKind:
    """A kind of move: the unit's allowance becomes ``allowance * factor + amount``; ``barred``
    features may not be entered; ``costs[feature][mode]``: the kind's cost per distance."""

    id: str
    label: str
    factor: float
    amount: float
    barred: tuple[str, ...]
    costs: Mapping[str, Mapping[str, values.PerDistance]]
    modes: tuple[str, ...] | None = None
    """The unit types that may make the move (issue 40, ``only``); None: every one."""


@dataclass(frozen=True, slots=True)
class RollRule:
    """A roll the map makes due ``when`` (one of the roll order), with its ``dice`` (as the
    module prints them, ``2d6``) or dice ``table``; ``values[feature][mode]`` and
    ``by_move[kind][feature][mode]``: the roll's modifier (features and modes that do not roll
    left out)."""

    id: str
    label: str
    when: str
    dice: str | None
    table: str | None
    combine: str
    values: Mapping[str, Mapping[str, float]]
    by_move: Mapping[str, Mapping[str, Mapping[str, float]]]


@dataclass(frozen=True, slots=True)
class Manoeuvre:
    """A move beside going forward: its extra ``cost``, the highest speed it is allowed at
    (None: any) and whether it may be made only ``once`` per move."""

    cost: float
    up_to_speed: float | None
    once: bool


@dataclass(frozen=True, slots=True)
class TurnMode:
    """The ``places`` a unit goes straight before it may turn, at speeds up to ``up_to_speed``
    (None: any speed)."""

    up_to_speed: float | None
    places: int


@dataclass(frozen=True, slots=True)
class FacingRule:
    """A unit type's (``mode``'s) heading on ``grid``: ``headings`` ways to face, the cost of
    turning one, the turn modes by speed (first match wins) and by kind of move (``(kind,
    places)``, winning over those by speed), each allowed manoeuvre by kind (one of
    :data:`FACING_MOVES`), whether the move must spend exactly its speed, and whether it may
    also end on the step that spends the rest of it and more."""

    mode: str
    grid: str
    headings: int
    turn_cost: float
    turn_modes: tuple[TurnMode, ...]
    turn_modes_by_move: tuple[tuple[str, int], ...]
    manoeuvres: Mapping[str, Manoeuvre]
    exact_speed: bool
    until_spent: bool
    turn_limit: int | None = None
    """``turn at most 1 hexside per hex`` (issue 40): headings turned in one place by turns."""
    turn_costs: tuple[tuple[float, float], ...] = ()
    """``(up to speed, cost)`` rows read before ``turn_cost`` (issue 40)."""
    tack: float | None = None
    """What a turn onto the wind's heading costs more (issue 40); inf: refused; None: no rule."""
    wear: float | None = None
    """The same for a turn onto the heading the wind blows to."""
    sail: tuple[tuple[str, float], ...] = ()
    """``sail by ARCS (...)`` (issue 40): per relative heading ``(wind - heading) % headings``,
    the point of sail (an arc) and what a step costs more there; inf: impassable."""
    speeds: tuple[tuple[str, float], ...] = ()
    """``speed by ARCS (...)`` (issue 40): per relative heading, the point of sail and the
    unit's speed (its allowance) when the move starts there."""
    strengths: tuple[tuple[str, float], ...] = ()
    """``sail when (...)`` (issue 40): per strength of the wind named, what a step costs more
    when the caller gives it (inf: impassable); a strength not named: nothing more."""
    strength_speeds: tuple[tuple[str, float], ...] = ()
    """``speed when (...)`` (issue 40): per strength of the wind named, the unit's speed (its
    allowance) when the caller gives it and no allowance; it wins over ``speeds``."""


@dataclass(frozen=True, slots=True)
class Grid:
    """A declared grid: its ``shape`` (``hex`` or ``square``), one cell in each unit given,
    the cells a diagonal step counts (cycling) and their average (None: no diagonal steps)."""

    id: str
    shape: str
    sizes: Mapping[str, float]
    diagonals: tuple[int, ...]
    diagonal: float | None


@dataclass(frozen=True, slots=True)
class PerMoveCost:
    """A cost a feature charges a mode once per move, not per distance."""

    mode: str
    feature: str
    cost: values.OnceCost


@dataclass(frozen=True, slots=True)
class Arcs:
    """Named arcs (issue 40): each arc's id and its spans in degrees, ``(start, end)``
    clockwise from dead ahead with 0 <= start < 360 and start < end <= start + 360, in the
    order a bearing tries them (:mod:`rulesdsl.semantics.arcs`)."""

    id: str
    arcs: tuple[tuple[str, tuple[tuple[float, float], ...]], ...]


@dataclass(frozen=True, slots=True)
class WholeMove:
    """A condition on the whole route: a step counts when the edge it crosses or the place it
    enters has one of ``features``; ``most``: the most such steps a move may take (None: a
    route with one carries the rule, whose ``label`` says what follows)."""

    id: str
    label: str
    features: tuple[str, ...]
    most: int | None
    bonus: float | None = None
    """With a bonus, the rule only raises the allowance of a route every step of which counts."""


@dataclass(frozen=True, slots=True)
class StateVar:
    """What a unit carries from move to move (issue 40): its ``id``, ``label`` and range."""

    id: str
    label: str
    low: int
    high: int
    own: tuple[tuple[str, int, int], ...] = ()
    """Per unit type with its own range (``bomber 0 to 6``): the unit type and that range."""


@dataclass(frozen=True, slots=True)
class StateChanges:
    """What a feature (entered or crossed, each step) or a kind of move (once a move),
    ``source``, changes each state by, in the order of the states: ``deltas`` per unit type
    that has its own change, "" for every other."""

    source: str
    deltas: tuple[tuple[str, tuple[int, ...]], ...]
    capped: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """As ``deltas``, only the changes written ``capped`` (0 elsewhere); empty when none is."""
    bounds: tuple[tuple[str, tuple[int | None, ...]], ...] = ()
    """As ``capped``, the bound of each capped change (``capped at 5``; None for one capped at
    the end of the range and for the others); empty when no change of the ruleset has one."""


@dataclass(frozen=True, slots=True)
class FreeFacingRule:
    """A unit type's heading off the grid (issue 40): the turn cost per ``turn_step``
    degrees begun, a pivot's flat cost (None: no pivots), the run straight before a turn, the
    turn above which the move ends (None: none) and whether it may reverse at half speed."""

    mode: str
    turn_cost: float
    turn_step: float
    pivot: float | None
    straight: float
    ends_above: float | None
    reverse_half: bool


@dataclass(frozen=True, slots=True)
class MovementPlan:
    """The movement section: what the costs, routes, facing and rolls parts of a module read.

    ``roll_order``: the times a roll falls due, in the order a step makes them due;
    ``facing_moves`` and ``once_bits``: the manoeuvres and the bit each sets once made;
    ``cost_inputs``: the step inputs the cost function takes by name; ``place_states`` and
    ``along``: per feature, per mode; ``refused_costed``: whether the edition costs a refused
    backward step or sideslip as that manoeuvre."""

    moves: tuple[MoveKind, ...]
    rolls: tuple[RollRule, ...]
    roll_order: tuple[str, ...]
    facings: tuple[FacingRule, ...]
    facing_moves: tuple[str, ...]
    once_bits: Mapping[str, int]
    refused_costed: bool
    per_move_costs: tuple[PerMoveCost, ...]
    cost_inputs: tuple[str, ...]
    grids: tuple[Grid, ...]
    place_states: Mapping[str, Mapping[str, str]]
    along: Mapping[str, Mapping[str, float]]
    edge_features: tuple[str, ...]
    arcs: tuple[Arcs, ...] = ()
    whole_moves: tuple[WholeMove, ...] = ()
    free_facings: tuple[FreeFacingRule, ...] = ()
    states: tuple[StateVar, ...] = ()
    state_changes: tuple[StateChanges, ...] = ()
    roll_states: tuple[tuple[str, int, str, int], ...] = ()
    """Per roll due only in a band of a state (``when altitude below 4``): the roll, the
    state's index, ``below`` or ``above``, and the bound."""
    drifts: tuple[tuple[str, int, str, str, int], ...] | None = None
    """With a ``drift`` line (issue 40), per unit type that drifts: the places, and the state
    band it drifts in (a state id, ``below`` or ``above``, the bound; "": always)."""


def build(rs: ir.Ruleset) -> MovementPlan:
    edge_layers = {layer.id for layer in rs.layers if semantics.on_edges(layer)}
    per_move = _per_move_costs(rs)
    params = semantics.param_values(rs)
    return MovementPlan(
        moves=tuple(_move(rs, k, params) for k in rs.moves),
        rolls=tuple(_roll(rs, r) for r in rs.rolls),
        roll_order=semantics_moves.roll_order(rs),
        facings=tuple(_facing(f, rs.arcs) for f in rs.facings),
        facing_moves=FACING_MOVES,
        once_bits={move: 1 << i for i, move in enumerate(FACING_MOVES)},
        refused_costed=editions.refused_manoeuvre_costed(rs.edition),
        per_move_costs=per_move,
        cost_inputs=tuple(
            dict.fromkeys(c.cost.param for c in per_move if isinstance(c.cost, values.StepCost))
        ),
        grids=tuple(_grid(g) for g in rs.grids),
        place_states={f.id: dict(f.states) for f in rs.features if f.states},
        along={f.id: dict(f.along) for f in rs.features if f.along},
        edge_features=tuple(f.id for f in rs.features if f.layer in edge_layers),
        arcs=tuple(Arcs(a.id, semantics_arcs.degrees(a)) for a in rs.arcs),
        states=tuple(
            StateVar(
                v.id,
                info.label(v.info, rs.languages[0], v.id),
                v.low,
                v.high,
                _own(rs, v),
            )
            for v in rs.states
        ),
        state_changes=_state_changes(rs.states),
        roll_states=tuple(
            (r.id, [v.id for v in rs.states].index(r.state[0]), r.state[1], r.state[2])
            for r in rs.rolls
            if r.state is not None
        ),
        drifts=_drifts(rs),
        whole_moves=tuple(
            WholeMove(w.id, info.label(w.info, rs.languages[0], w.id), w.features, w.most, w.bonus)
            for w in rs.whole_moves
        ),
        free_facings=tuple(
            FreeFacingRule(
                f.mode,
                f.turn_cost,
                f.turn_step,
                f.pivot,
                f.straight,
                f.ends_above,
                f.reverse_half,
            )
            for f in rs.free_facings
        ),
    )


def _move(rs: ir.Ruleset, kind: ir.MoveKind, params: Mapping[str, float | None]) -> MoveKind:
    return MoveKind(
        id=kind.id,
        label=info.label(kind.info, rs.languages[0], kind.id),
        factor=kind.factor,
        amount=kind.amount,
        barred=tuple(kind.barred),
        costs={
            feature: {mode: values.per_distance(v, params) for mode, v in by_mode.items()}
            for feature, by_mode in kind.costs.items()
        },
        modes=tuple(m.id for m in rs.modes if semantics_moves.may_make(rs, kind, m.id))
        if kind.only
        else None,
    )


def _roll(rs: ir.Ruleset, rule: ir.RollRule) -> RollRule:
    return RollRule(
        id=rule.id,
        label=info.label(rule.info, rs.languages[0], rule.id),
        when=rule.when,
        dice=spelling.dice(rule.dice) if rule.dice is not None else None,
        table=rule.table,
        combine=rule.combine,
        values={f: dict(by_mode) for f, by_mode in rule.values.items() if by_mode},
        by_move={
            kind: {f: dict(by_mode) for f, by_mode in by.items()}
            for kind, by in rule.by_move.items()
        },
    )


def reads_strength(rule: FacingRule) -> bool:
    """Whether the rule's answers read the wind's strength (issue 40): ``sail when`` or
    ``speed when``; the caller then gives the wind as (heading, strength)."""
    return bool(rule.strengths or rule.strength_speeds)


strengths = semantics_sail.strengths
"""The strengths of the wind the rules name, in the order first named (one meaning:
:func:`rulesdsl.semantics.sail.strengths`)."""


def reads_wind(rule: FacingRule) -> bool:
    """Whether the rule's answers read the wind (issue 40): it tacks, wears, sails by arcs or
    takes its speed by them."""
    return (
        rule.tack is not None
        or rule.wear is not None
        or bool(rule.sail or rule.speeds)
        or reads_strength(rule)
    )


def _facing(rule: ir.Facing, arcs: tuple[ir.Arcs, ...] = ()) -> FacingRule:
    return FacingRule(
        mode=rule.mode,
        grid=rule.grid,
        headings=rule.headings,
        turn_cost=rule.turn_cost,
        turn_modes=tuple(
            TurnMode(m.up_to_speed, m.places) for m in rule.turn_modes if m.move is None
        ),
        turn_modes_by_move=tuple((m.move, m.places) for m in rule.turn_modes if m.move),
        manoeuvres={m.kind: Manoeuvre(m.cost, m.up_to_speed, m.once) for m in rule.manoeuvres},
        exact_speed=rule.exact_speed,
        until_spent=rule.until_spent,
        turn_limit=rule.turn_limit,
        turn_costs=rule.turn_costs,
        tack=math.inf if "tack" in rule.refused else rule.tack,
        wear=math.inf if "wear" in rule.refused else rule.wear,
        sail=semantics_sail.by_relative(rule, arcs),
        speeds=semantics_sail.speed_by_relative(rule, arcs),
        strengths=tuple((n, math.inf if c is None else c) for n, c in rule.strengths),
        strength_speeds=rule.strength_speeds,
    )


def _grid(grid: ir.Grid) -> Grid:
    diagonal = sum(grid.diagonals) / len(grid.diagonals) if semantics.has_diagonals(grid) else None
    return Grid(
        id=grid.id,
        shape=grid.shape,
        sizes={n.unit: n.value for n in grid.size if n.unit},
        diagonals=grid.diagonals,
        diagonal=diagonal,
    )


def _per_move_costs(rs: ir.Ruleset) -> tuple[PerMoveCost, ...]:
    return tuple(
        PerMoveCost(mode, f.id, cost)
        for f in rs.features
        for mode, value in f.costs.items()
        if (cost := values.once_cost(rs, value)) is not None
    )


def _own(rs: ir.Ruleset, state: ir.State) -> tuple[tuple[str, int, int], ...]:
    """Per unit type with its own range of ``state``: written for it (in the order written),
    then by one of its keywords (``heavy 0 to 6``, in the order of the unit types)."""
    modes = {m.id for m in rs.modes}
    written = tuple((r.mode, r.low, r.high) for r in state.own if r.mode in modes)
    named = {mode for mode, _, _ in written}
    by_keyword = (
        (m.id, *semantics_routes.state_range(state, m.id, semantics_routes.keywords_of(rs, m.id)))
        for m in rs.modes
        if m.id not in named and any(r.mode in m.keywords for r in state.own)
    )
    return written + tuple(by_keyword)


def own_ranges(states: tuple[StateVar, ...]) -> dict[str, tuple[tuple[int, int], ...]]:
    """Per unit type with its own range of a state: every state's range for it, in the order of
    the states (empty when no unit type has its own range)."""
    modes = dict.fromkeys(mode for v in states for mode, _, _ in v.own)
    return {
        mode: tuple(
            next(((lo, hi) for m, lo, hi in v.own if m == mode), (v.low, v.high)) for v in states
        )
        for mode in modes
    }


def _state_changes(states: tuple[ir.State, ...]) -> tuple[StateChanges, ...]:
    """Per source of a change (in the order first written), its deltas: for each unit type
    with a change of its own, its own where it has one and the general one elsewhere."""
    sources = dict.fromkeys(c.source for v in states for c in v.changes)
    out = []
    for source in sources:
        modes = dict.fromkeys(
            ["", *(c.mode for v in states for c in v.changes if c.source == source)]
        )
        deltas = tuple((mode, tuple(_delta(v, source, mode) for v in states)) for mode in modes)
        capped = tuple(
            (mode, tuple(_delta(v, source, mode, capped=True) for v in states)) for mode in modes
        )
        has_cap = any(any(d) for _, d in capped)
        bounds = tuple((mode, tuple(_bound(v, source, mode) for v in states)) for mode in modes)
        out.append(StateChanges(source, deltas, capped if has_cap else (), bounds))
    if not any(b is not None for c in out for _, by in c.bounds for b in by):
        return tuple(replace(c, bounds=()) for c in out)
    return tuple(c if c.capped else replace(c, bounds=()) for c in out)


def _change(state: ir.State, source: str, mode: str) -> ir.StateChange | None:
    """The change ``source`` makes to ``state`` for unit type ``mode``: its own, else the one
    for all (None when it makes none)."""
    by_mode = {c.mode: c for c in state.changes if c.source == source}
    return by_mode.get(mode, by_mode.get(""))


def _bound(state: ir.State, source: str, mode: str) -> int | None:
    """The bound of that change when it is capped at one (``capped at 5``), else None."""
    change = _change(state, source, mode)
    return None if change is None or not change.capped else change.bound


def _delta(state: ir.State, source: str, mode: str, *, capped: bool = False) -> int:
    """The amount of that change (0 for none); with ``capped``, only a change written
    ``capped`` (else 0)."""
    change = _change(state, source, mode)
    if change is None or (capped and not change.capped):
        return 0
    return change.amount


def capped_changes(plan: MovementPlan) -> dict[str, dict[str, tuple[int, ...]]]:
    """Per source with a change written ``capped`` (``dive +1 capped``), per unit type as in
    ``state_changes``: those changes, 0 for the others (empty when no change is capped)."""
    return {c.source: dict(c.capped) for c in plan.state_changes if c.capped}


def capped_bounds(plan: MovementPlan) -> dict[str, dict[str, tuple[int | None, ...]]]:
    """Per source in ``capped_changes``, per unit type as there: the bound each capped change
    stops at (``capped at 5``; None: the end of the unit's range); empty when no change is
    capped at a bound, so rules without one have the module they had."""
    return {c.source: dict(c.bounds) for c in plan.state_changes if c.bounds}


def _drifts(rs: ir.Ruleset) -> tuple[tuple[str, int, str, str, int], ...] | None:
    """Each unit type's resolved drift entry (:func:`rulesdsl.semantics.drift.entry`)."""
    if not rs.drifts:
        return None
    found = ((m.id, semantics_drift.entry(rs, m.id)) for m in rs.modes)
    return tuple((m, e.distance, e.state, e.op, e.bound) for m, e in found if e is not None)
