"""The meaning of maps: the states a place's features give it (can end a move there, must stop),
whether a unit may enter it, what one step of a route costs, and routes and the places a unit can
reach within its allowance (issue 11).

Part of the reference semantics; :mod:`rulesdsl.semantics` holds costs and modifiers, which this
module builds on.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Generic, TypeVar, assert_never

from rulesdsl import ir
from rulesdsl.ir.records import dataclass
from rulesdsl.semantics import (
    IMPASSABLE,
    PROHIBITED,
    Answer,
    Unfilled,
    counted,
    known,
    move_cost,
    once_cost,
    precedes,
    summed_per_distance,
    written_key,
)
from rulesdsl.semantics.moves import Due, place_roll


def written_state(
    cell: ir.Cell,
    mode: str,
    groups: Sequence[ir.Group],
    precedence: Sequence[Sequence[str]] = (),
    unnamed: bool = True,
) -> ir.PlaceState | None:
    """The place state (``may not end``, ``must stop``) of the cost entry that speaks for
    ``mode``: a state belongs to the entry it is written after, so ``2 may not end, vehicle 3``
    lets vehicles end there."""
    keys = [*cell.exceptions, *([""] if cell.default is not None else []), *cell.states]
    entries = {k: (cell.exceptions.get(k), cell.states.get(k)) for k in keys}
    key = written_key(entries, mode, groups, precedence, unnamed)
    return None if key is None else cell.states.get(key)


def written_along(
    cell: ir.Cell,
    mode: str,
    groups: Sequence[ir.Group],
    precedence: Sequence[Sequence[str]] = (),
    unnamed: bool = True,
) -> float | None:
    """What the place entered costs ``mode`` instead, per distance unit, when the step follows
    this edge feature (``along V``); None when the cell gives it no ``along``."""
    key = written_key(cell.along, mode, groups, precedence, unnamed)
    if key is None:
        return None
    value = cell.along[key]
    return value.value if isinstance(value, ir.Number) else None


def state_words(state: ir.PlaceState) -> str:
    """A place state as the language writes it (``may not end``, ``must stop``)."""
    match state:
        case "may_not_end":
            return "may not end"
        case "must_stop":
            return "must stop"
        case _:
            assert_never(state)


def place_states(rs: ir.Ruleset, mode: str, features: Sequence[str]) -> frozenset[ir.PlaceState]:
    """Every place state the counted features of a place give ``mode``."""
    by_id = known.of(rs).features
    return frozenset(
        by_id[n].states[mode] for n in counted(rs, features) if mode in by_id[n].states
    )


def can_end(rs: ir.Ruleset, mode: str, features: Sequence[str]) -> bool:
    """Whether ``mode`` may end its move in a place with ``features`` (no ``may not end``)."""
    return "may_not_end" not in place_states(rs, mode, features)


def must_stop(rs: ir.Ruleset, mode: str, features: Sequence[str]) -> bool:
    """Whether ``mode`` must stop on entering a place with ``features``."""
    return "must_stop" in place_states(rs, mode, features)


def can_enter(
    rs: ir.Ruleset,
    mode: str,
    features: Sequence[str],
    available: float | None = None,
    allowance: float | None = None,
    inputs: Mapping[str, float] | None = None,
) -> bool:
    """Whether ``mode`` may enter a place with ``features``: its cost is not a marker and is
    within ``available``, or a minimum move allows it (which needs ``available`` above 0)."""
    cost = move_cost(rs, mode, features, 1, allowance, inputs)
    if isinstance(cost, Unfilled):
        raise ValueError(f"unfilled parameter {cost.param}")
    if isinstance(cost, ir.Marker):
        return False
    return available is None or cost <= available or (rs.minimum_move is not None and available > 0)


def step_cost(
    rs: ir.Ruleset,
    mode: str,
    entered: Sequence[str],
    crossed: Sequence[str] = (),
    distance: float = 1,
    allowance: float | None = None,
    inputs: Mapping[str, float] | None = None,
) -> Answer | Unfilled:
    """The cost of one step: the place entered (:func:`move_cost` over ``distance``), plus each
    feature of the edge ``crossed`` on the way in (once, whatever the distance). ``inputs``:
    the step inputs of the costs paid once (``height=3``), for the place and the edge alike.

    An edge feature with ``along V`` for ``mode`` replaces the place's cost by ``V`` per
    distance unit (the lowest such ``V`` when several do), whatever the place would cost,
    impassable included; PROHIBITED (of the place or of an edge) still wins, then an edge's
    IMPASSABLE.
    """
    by_id = known.of(rs).features
    place = move_cost(rs, mode, entered, distance, allowance, inputs)
    if isinstance(place, Unfilled):
        return place
    alongs = [by_id[n].along[mode] for n in crossed if mode in by_id[n].along]
    if alongs and place is not PROHIBITED:
        place = min(alongs) * distance
    edges = summed_per_distance(rs, mode, crossed)
    if isinstance(edges, Unfilled) or edges is PROHIBITED:
        return edges
    impassable = edges is IMPASSABLE
    edge_total = 0.0 if isinstance(edges, ir.Marker) else edges
    for name in crossed:
        once = once_cost(rs, by_id[name].costs[mode], allowance, inputs or {})  # a wall's cost
        if isinstance(once, ir.Marker):
            impassable = True
        else:
            edge_total += once
    if isinstance(place, ir.Marker):
        return place
    return IMPASSABLE if impassable else place + edge_total


@dataclass(frozen=True, slots=False)
class RouteStep:
    """One step of a route as the reference sees it: the features of the place entered, of
    the edge crossed, and the step's cost."""

    entered: tuple[str, ...]
    crossed: tuple[str, ...]
    cost: Answer


_Step = TypeVar("_Step")


@dataclass(frozen=True, slots=False)
class PathAnswer(Generic[_Step]):
    """The reference's answer for a path of steps (a route, a move with facing): its total,
    each step, and whether it is legal (``reason``: why not)."""

    total: Answer
    steps: tuple[_Step, ...]
    legal: bool
    reason: str


@dataclass(frozen=True, slots=False)
class RouteAnswer(PathAnswer[RouteStep]):
    marks: tuple[str, ...] = ()
    """The ``crosses`` whole-move rules the route carries, by id (issue 40)."""
    state: dict[str, int] | None = None
    """The state after the route, when one was given (``state`` lines, issue 40)."""


def state_change(
    rs: ir.Ruleset, mode: str, values: tuple[int, ...], sources: Iterable[str]
) -> tuple[int, ...]:
    """``values`` (one per ``state`` line, in order) changed by each of ``sources`` (a kind of
    move, or the features of a place entered and an edge crossed; each counted once): a unit
    type's own change where it has one, else the change for all. A state taken past an end
    of the unit's range stops at that end when one of those changes is written ``capped``
    (``dive +1 capped``) and moves it that way, or at its bound (``capped at 5``):
    :func:`capped`."""
    out = list(values)
    made: list[list[ir.StateChange]] = [[] for _ in rs.states]
    for source in dict.fromkeys(sources):
        for i, state in enumerate(rs.states):
            own = {c.mode: c for c in state.changes if c.source == source}
            change = own.get(mode, own.get(""))
            if change is not None:
                out[i] += change.amount
                made[i].append(change)
    keywords = keywords_of(rs, mode)
    return tuple(
        capped(value, state_range(state, mode, keywords), changes, before)
        for value, state, changes, before in zip(out, rs.states, made, values, strict=True)
    )


def capped(
    value: int, bounds: tuple[int, int], changes: Sequence[ir.StateChange], before: int
) -> int:
    """``value`` (``before`` with the ``changes`` made) held back by each capped change among
    them: a gain never takes it above the end of ``bounds`` (the unit's range) or the gain's
    own bound (``capped at 5``), whichever is lower, nor above ``before`` when ``before`` is
    already past that; a loss likewise never below. Past the range otherwise, the route
    breaks."""
    low, high = bounds
    for change in changes:
        if change.capped and change.amount > 0:
            top = high if change.bound is None else min(change.bound, high)
            value = min(value, max(top, before))
        elif change.capped:
            bottom = low if change.bound is None else max(change.bound, low)
            value = max(value, min(bottom, before))
    return value


def state_range(state: ir.State, mode: str, keywords: Sequence[str] = ()) -> tuple[int, int]:
    """The range of ``state`` for unit type ``mode``: its own (``bomber 0 to 6``), else the
    first of its ``keywords`` (in :func:`keywords_of`'s order) with one (``heavy 0 to 6``; the
    others that have one agree, come after it by ``precedence``, or the build refused it:
    E487), else the range for all."""
    by_name = {r.mode: (r.low, r.high) for r in state.own}
    found = by_name.get(mode) or next((by_name[k] for k in keywords if k in by_name), None)
    return found or (state.low, state.high)


def keywords_of(rs: ir.Ruleset, mode: str) -> tuple[str, ...]:
    """The keywords of unit type ``mode`` (none for a name that is not one), those that come
    first by the ruleset's ``precedence`` lines before those they win over (else as declared):
    a keyword comes after every keyword of the mode that wins over it."""
    keywords = next((m.keywords for m in rs.modes if m.id == mode), ())
    if not rs.precedence or len(keywords) < 2:
        return keywords
    order = precedes([p.groups for p in rs.precedence])
    return tuple(sorted(keywords, key=lambda k: sum((w, k) in order for w in keywords)))


def out_of_range(rs: ir.Ruleset, values: tuple[int, ...], mode: str) -> str:
    """Which state ``values`` take out of its range for unit type ``mode``, and to what (empty
    when none)."""
    keywords = keywords_of(rs, mode)
    for state, value in zip(rs.states, values, strict=True):
        low, high = state_range(state, mode, keywords)
        if not low <= value <= high:
            label = info_label(rs, state.info, state.id)
            return f"'{label}' to {value} (its range is {low} to {high})"
    return ""


def route_state(
    rs: ir.Ruleset,
    mode: str,
    move: str | None,
    state: Mapping[str, int],
    steps: Sequence[RouteStep],
) -> tuple[dict[str, int], str]:
    """The state after a route (issue 40): the kind of move's change first, then each step's;
    and why the route breaks a range (empty when it does not), the state then staying as it
    was before the change that breaks it."""
    values = tuple(state[s.id] for s in rs.states)
    changes: list[tuple[str, tuple[str, ...]]] = []
    if move is not None:
        changes.append((f"the move '{_move_label(rs, move)}'", (move,)))
    changes += [(f"step {i}", (*s.entered, *s.crossed)) for i, s in enumerate(steps, 1)]
    for where, sources in changes:
        after = state_change(rs, mode, values, sources)
        broken = out_of_range(rs, after, mode)
        if broken:
            return {
                s.id: v for s, v in zip(rs.states, values, strict=True)
            }, f"{where} takes {broken}"
        values = after
    return {s.id: v for s, v in zip(rs.states, values, strict=True)}, ""


def states_along(
    rs: ir.Ruleset,
    mode: str,
    move: str | None,
    state: Mapping[str, int],
    steps: Sequence[RouteStep],
) -> list[tuple[int, ...]]:
    """The state after each step (index 0: after the kind of move, or the start), each change
    made in turn; from a change that breaks a range on, the state stays as it was before it."""
    values = tuple(state[s.id] for s in rs.states)
    if move is not None:
        values = state_change(rs, mode, values, (move,))
    along = [values]
    broken = bool(out_of_range(rs, values, mode))
    if broken:
        along[0] = tuple(state[s.id] for s in rs.states)
    for step in steps:
        after = state_change(rs, mode, along[-1], (*step.entered, *step.crossed))
        broken = broken or bool(out_of_range(rs, after, mode))
        along.append(along[-1] if broken else after)
    return along


def state_rolls(
    rs: ir.Ruleset, dues: Sequence[Due], along: Sequence[tuple[int, ...]]
) -> tuple[Due, ...]:
    """The rolls due along a route less those due only in a band of a state (``when altitude
    below 4``) that the state after their step is not in (``along``; empty: no state given,
    every roll kept), and a roll ``on first step`` kept at its first step only (issue 40)."""
    index = {s.id: i for i, s in enumerate(rs.states)}
    rules = {r.id: r.state for r in rs.rolls}
    kept = []
    once: set[str] = set()
    for due in dues:
        if due.on == "first_step" and due.roll in once:
            continue
        band = rules.get(due.roll)
        if band is not None and along:
            value = along[due.step][index[band[0]]]
            if not (value < band[2] if band[1] == "below" else value > band[2]):
                continue
        if due.on == "first_step":
            once.add(due.roll)
        kept.append(due)
    return tuple(kept)


def place_rolls(
    rs: ir.Ruleset,
    mode: str,
    names: Sequence[str],
    on: ir.RollWhen,
    move: str | None = None,
    state: Mapping[str, int] | None = None,
) -> tuple[Due, ...]:
    """The rolls due for one place (or edge, ``on="crossing"``) with ``names`` (the module's
    ``rolls_due``), at step 1. Given the unit's ``state`` as it enters: one due only in a band
    of a state is kept while the state, changed by ``names`` as a route's step changes it (kept
    as it was where that breaks a range), is in the band; a roll on any step, which no feature
    calls for, is then due in its band. Without a state, every roll the features call for."""
    dues = []
    for rule in rs.rolls:
        if rule.when != on:
            continue
        if rule.when == "any_step":
            dues += [Due(1, on, rule.id, 0.0, ())] if state is not None else []
        elif (found := place_roll(rs, rule, mode, names, move)) is not None:
            dues.append(Due(1, on, rule.id, *found))
    if state is None:
        return tuple(dues)
    begin = tuple(state[s.id] for s in rs.states)
    after = state_change(rs, mode, begin, names)
    return state_rolls(rs, dues, [begin, begin if out_of_range(rs, after, mode) else after])


def info_label(rs: ir.Ruleset, item_info: ir.Info, fallback: str) -> str:
    """An item's label in the ruleset's first language (or any, or its id)."""
    return item_info.labels.get(rs.languages[0]) or next(iter(item_info.labels.values()), fallback)


def _move_label(rs: ir.Ruleset, move: str) -> str:
    kind = next(k for k in rs.moves if k.id == move)
    return info_label(rs, kind.info, move)


def whole_move(rs: ir.Ruleset, steps: Sequence[RouteStep]) -> tuple[tuple[str, ...], str]:
    """What the whole-move rules say of a route (issue 40): the ids of the ``crosses`` rules
    it carries, and why it breaks a limit (the first step beyond one, rule by rule; empty when
    none). A step counts once per rule when the edge it crosses or the place it enters has one
    of the rule's features."""
    marks: list[str] = []
    reason = ""
    for rule in rs.whole_moves:
        if rule.bonus is not None:
            continue  # whole_bonus
        counted = [
            i
            for i, step in enumerate(steps, 1)
            if set(rule.features) & (set(step.crossed) | set(step.entered))
        ]
        if rule.most is None:
            marks += [rule.id] if counted else []
        elif len(counted) > rule.most and not reason:
            label = rule.info.labels.get(rs.languages[0]) or next(
                iter(rule.info.labels.values()), rule.id
            )
            reason = (
                f"step {counted[rule.most]} goes beyond '{label}' (at most {rule.most} per move)"
            )
    return tuple(marks), reason


def _counts(rule: ir.WholeMove, step: RouteStep) -> bool:
    return bool(set(rule.features) & (set(step.crossed) | set(step.entered)))


def whole_bonus(rs: ir.Ruleset, steps: Sequence[RouteStep]) -> float:
    """What the whole-move bonuses add to the allowance of a route (issue 40): each bonus
    every step of which crosses or enters one of its features."""
    return sum(
        rule.bonus
        for rule in rs.whole_moves
        if rule.bonus is not None and all(_counts(rule, step) for step in steps)
    )


def own_allowance(rs: ir.Ruleset, mode: str, allowance: float | None) -> float | None:
    """``allowance``, or when none is given the unit type's own (``mode tank allowance 6 in``,
    issue 40): what the route functions judge a move by."""
    if allowance is not None:
        return allowance
    return next((m.allowance for m in rs.modes if m.id == mode), None)


def route(
    rs: ir.Ruleset,
    mode: str,
    steps: Sequence[tuple[Sequence[str], Sequence[str]]],
    allowance: float | None = None,
    distances: Sequence[float] | None = None,
    inputs: Mapping[str, float] | None = None,
    outcomes: Sequence[Sequence[str]] | None = None,
    move: str | None = None,
    state: Mapping[str, int] | None = None,
) -> RouteAnswer:
    """A route given as its steps, each (features of the place entered, features of the edge
    crossed). The total sums the steps (a marker when one is: PROHIBITED before IMPASSABLE).
    It is legal when every step can be taken, no place but the last says ``must stop``, the
    last place does not say ``may not end``, and the total is within ``allowance`` (when one is
    given) -- or, with a minimum move in the rules and an allowance above 0, the route is one
    step that is not a marker (the generated module's rule). No ``allowance``: the unit
    type's own, if it has one. ``inputs``: the step inputs every step is costed with;
    ``outcomes``: per step, the dice outcomes rolled in the place entered, costed with its
    features (issue 40). ``state``: the unit's state at the start (``state`` lines), carried
    by ``route_state`` (``move``: the kind of move, for its change only).
    """
    allowance = own_allowance(rs, mode, allowance)
    out: list[RouteStep] = []
    numbers: list[float] = []
    markers: list[ir.Marker] = []
    for i, (entered, crossed) in enumerate(steps):
        distance = distances[i] if distances is not None else 1
        rolled = tuple(outcomes[i]) if outcomes is not None else ()
        cost = step_cost(rs, mode, (*entered, *rolled), crossed, distance, allowance, inputs)
        if isinstance(cost, Unfilled):
            raise ValueError(f"unfilled parameter {cost.param}")
        out.append(RouteStep(tuple(entered), tuple(crossed), cost))
        if isinstance(cost, ir.Marker):
            markers.append(cost)
        else:
            numbers.append(cost)
    total: Answer = sum(numbers)
    if markers:
        total = PROHIBITED if PROHIBITED in markers else IMPASSABLE
    reason = ""
    for i, step in enumerate(out, 1):
        if isinstance(step.cost, ir.Marker):
            reason = f"step {i} is {step.cost.marker}"
            break
        if i < len(out) and must_stop(rs, mode, step.entered):
            reason = f"step {i} enters a place where the unit must stop"
            break
    marks, broken = whole_move(rs, out)
    reason = reason or broken
    end_state = None
    if state is not None:
        end_state, broken = route_state(rs, mode, move, state, out)
        reason = reason or broken
    if not reason and out and not can_end(rs, mode, out[-1].entered):
        reason = "the unit may not end its move in the last place"
    if (
        not reason
        and allowance is not None
        and isinstance(total, float | int)
        and total > allowance + whole_bonus(rs, out)
        and not (rs.minimum_move is not None and allowance > 0 and len(out) == 1)
    ):
        reason = "the route costs more than the allowance"
    return RouteAnswer(total, tuple(out), not reason, reason, marks, end_state)


def reachable(
    rs: ir.Ruleset,
    mode: str,
    start: object,
    budget: float | None,
    places: Mapping[object, Sequence[str]],
    neighbours: Mapping[object, Sequence[object]],
    edges: Mapping[tuple[object, object], Sequence[str]],
    inputs: Mapping[str, float] | None = None,
    outcomes: Mapping[object, Sequence[str]] | None = None,
    state: Mapping[str, int] | None = None,
    move: str | None = None,
) -> dict[object, float]:
    """Reference for the places ``mode`` may end in from ``start`` within ``budget``, with the
    cheapest cost of each: relaxation to a fixed point (not Dijkstra, so the module's heap
    search has something independent to agree with). A ``must stop`` place is not left; a
    ``may not end`` place is passed through but not answered; with a minimum move in the
    rules and a budget above 0, one step from ``start`` is always allowed when its cost is a
    number (the generated module's rule). With whole-move limits the search is over (place,
    the steps counted by each limit), a step beyond a limit never taken (issue 40). A
    ``budget`` of None is the unit type's own allowance (issue 40). ``inputs`` and
    ``outcomes`` (per place, the dice outcomes rolled there) as for :func:`route`. With a
    ``state`` (and the kind of ``move`` that first changes it) the search is over (place,
    counts, state), a step that takes a state out of its range never taken (issue 40)."""
    budget = own_allowance(rs, mode, budget)
    if budget is None:
        raise ValueError(f"{mode!r} has no allowance of its own: give a budget")
    limits = [(set(w.features), w.most) for w in rs.whole_moves if w.most is not None]
    bonuses = [(set(w.features), w.bonus) for w in rs.whole_moves if w.bonus is not None]
    values: tuple[int, ...] = ()
    if state is not None:
        values = state_change(rs, mode, tuple(state[s.id] for s in rs.states), (move or "",))
        if out_of_range(rs, values, mode):
            return {}
    begin = (start, (0,) * len(limits), values, (True,) * len(bonuses))
    best: dict[tuple[object, tuple[int, ...], tuple[int, ...], tuple[bool, ...]], float] = {
        begin: 0.0
    }
    changed = True
    while changed:
        changed = False
        for (here, counts, values, whole), cost in list(best.items()):
            if here != start and must_stop(rs, mode, places[here]):
                continue
            for there in neighbours[here]:
                crossed = edges.get((here, there), ())
                rolled = (outcomes or {}).get(there, ())
                step = step_cost(rs, mode, (*places[there], *rolled), crossed, 1, None, inputs)
                if not isinstance(step, float | int):
                    continue
                met = set(crossed) | set(places[there])
                after = tuple(n + bool(f & met) for (f, _), n in zip(limits, counts, strict=True))
                if any(n > most for (_, most), n in zip(limits, after, strict=True)):
                    continue  # a whole-move limit (issue 40): the step is never taken
                kept = tuple(w and bool(f & met) for (f, _), w in zip(bonuses, whole, strict=True))
                room = budget + sum(b for (_, b), w in zip(bonuses, kept, strict=True) if w)
                carried = state_change(rs, mode, values, met) if state is not None else ()
                if state is not None and out_of_range(rs, carried, mode):
                    continue  # a state out of its range (issue 40): the step is never taken
                total = cost + step
                first = (
                    rs.minimum_move is not None
                    and budget > 0
                    and (here, counts, values, whole) == begin
                )
                allowed = total <= room or first
                if allowed and total < best.get((there, after, carried, kept), math.inf):
                    best[there, after, carried, kept] = total
                    changed = True
    cheapest: dict[object, float] = {}
    for (place, _, _, _), cost in best.items():
        cheapest[place] = min(cost, cheapest.get(place, math.inf))
    return {p: c for p, c in cheapest.items() if p == start or can_end(rs, mode, places[p])}
