"""What a move with facing means (issue 24), without a map: a route as its actions in order,
each a step (forward, backward, sideslip) into a place of given features, or a turn of one
hexside (one heading). The generated module's ``route_cost`` for a unit type with facing
(``templates/module_facing.py.j2``) answers the same; worked examples and tests hold them to it.

A step adds the place's cost (:func:`rulesdsl.semantics.routes.step_cost`) and the move's extra
cost, and counts one place straight (up to the turn mode). A turn costs the rule's turn cost and
sets the count back to 0; it is a plain turn when the count has reached the turn mode (and the
place's turns stay within ``turn at most``, pivots aside), else a pivot
when the rule allows one at that speed (and it is not used up), else illegal. The speed is the
allowance; without one, every speed limit fails and the last turn mode counts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Literal, assert_never

from rulesdsl import editions, ir
from rulesdsl.ir.records import dataclass
from rulesdsl.semantics import (
    IMPASSABLE,
    PROHIBITED,
    Answer,
    MissingArgument,
    Unfilled,
)
from rulesdsl.semantics.moves import Due, kind_allowance, kind_of, kind_view, route_rolls
from rulesdsl.semantics.routes import (
    PathAnswer,
    RouteStep,
    can_end,
    must_stop,
    route_state,
    state_rolls,
    states_along,
    step_cost,
    whole_bonus,
    whole_move,
)
from rulesdsl.semantics.sail import (
    by_relative,
    sailing_speed,
    step_extra,
    strength_extra,
    strength_speed,
)

Move = Literal["forward", "turn"] | ir.FacingMove
"""What one action of a move with facing is: a step forward, a turn, or a manoeuvre."""


@dataclass(frozen=True, slots=False)
class Action:
    """One action as a route gives it: a step of ``move`` into a place (the features entered,
    and those of the edge crossed on the way), or a turn (``move`` ``turn``, no place)."""

    move: Literal["forward", "backward", "sideslip", "turn"]
    entered: tuple[str, ...] = ()
    crossed: tuple[str, ...] = ()
    heading: int | None = None
    """A turn's heading after it, for the wind's tacks and wears (issue 40); a step's, the
    heading kept, for the point of sail (``sail by``; None: the last turn's)."""


@dataclass(frozen=True, slots=False)
class FacingStep:
    move: Move
    entered: tuple[str, ...]
    crossed: tuple[str, ...]
    cost: Answer
    straight: int


@dataclass(frozen=True, slots=False)
class FacingAnswer(PathAnswer[FacingStep]):
    turn_mode: int
    rolls: tuple[Due, ...] = ()
    """The rolls the map makes due, numbered by action (turns make none); a place entered is
    new at each step (the reference knows no places)."""
    state: dict[str, int] | None = None
    """The state after the move, when one was given (``state`` lines, issue 40)."""
    marks: tuple[str, ...] = ()
    """The ``crosses`` whole-move rules the move carries, by id (issue 40)."""


WORDS = ("forward", "backward", "sideslip", "turn")
"""Words a facing route's worked example writes between its places: ``turn`` is a turn of one
hexside; ``backward`` and ``sideslip`` say how the unit enters the place after them."""


def actions(items: Sequence[str | tuple[Sequence[str], Sequence[str]]]) -> list[Action]:
    """A route as an example writes it after its start: places entered, each (features,
    edge features), and :data:`WORDS` between them; raises ValueError without an action."""
    out: list[Action] = []
    how: Literal["forward", "backward", "sideslip"] = "forward"
    for item in items:
        if isinstance(item, str):
            if item == "turn":
                out.append(Action("turn"))
            elif item in ("forward", "backward", "sideslip"):
                how = (
                    "backward"
                    if item == "backward"
                    else "sideslip"
                    if item == "sideslip"
                    else "forward"
                )
            continue
        out.append(Action(how, tuple(item[0]), tuple(item[1])))
        how = "forward"
    if not out:
        raise ValueError("a route needs the start and at least one more action")
    return out


def turn_mode(rule: ir.Facing, speed: float, move: str | None = None) -> int:
    """The places straight before a turn at ``speed``: the row for the kind of move ``move``
    when the rule has one, else the first row by speed that covers it."""
    for row in rule.turn_modes:
        if row.move is not None and row.move == move:
            return row.places
    rows = [row for row in rule.turn_modes if row.move is None]
    for row in rows:
        if row.up_to_speed is None or speed <= row.up_to_speed:
            return row.places
    return rows[-1].places if rows else 0


def turn_cost(rule: ir.Facing, speed: float) -> float:
    """What turning one heading costs at ``speed``: the first row by speed that covers it
    (``turn 2 MP per hexside at speed 4 or less``, issue 40), else the cost for every speed."""
    for up_to, cost in rule.turn_costs:
        if speed <= up_to:
            return cost
    return rule.turn_cost


def _wind_turn(rule: ir.Facing, wind: int | None, heading: int | None, i: int) -> tuple[float, str]:
    """What the turn of step ``i`` onto ``heading`` costs more by the wind, and why it is not
    allowed (empty: it is)."""
    more = _by_wind(rule, wind, heading)
    if more is not None:
        return more, ""
    what, verb = ("bow", "tack") if heading == wind else ("stern", "wear")
    return 0.0, f"step {i} turns its {what} across the wind: it may not {verb}"


def _by_wind(rule: ir.Facing, wind: int | None, heading: int | None) -> float | None:
    """What a turn onto ``heading`` costs more by the wind (issue 40): the tack's onto the
    heading the wind blows from, the wear's onto the opposite one; None: not allowed."""
    if wind is None or heading is None:
        return 0.0
    if heading == wind:
        return None if "tack" in rule.refused else rule.tack or 0.0
    if heading == (wind + rule.headings // 2) % rule.headings:
        return None if "wear" in rule.refused else rule.wear or 0.0
    return 0.0


def turned(rule: ir.Facing, turns: int) -> str:
    """A turn of ``turns`` headings as a reason says it: hexsides, or degrees on a square
    grid (``turn at most``, issue 40)."""
    if rule.headings == 6:
        return f"{turns} hexside{'s' * (turns != 1)}"
    return f"{turns * 360 // rule.headings} deg"


def _refused_turn(
    rule: ir.Facing, i: int, straight: int, places: int, here: int, speed: float
) -> str:
    """Why the turn of step ``i`` is refused: before the turn mode, or (``straight`` at the
    turn mode) beyond the turns allowed in one place, ``here`` made there already."""
    if straight >= places:
        assert rule.turn_limit is not None
        return (
            f"step {i} turns {turned(rule, here + 1)} in one place"
            f" (at most {turned(rule, rule.turn_limit)})"
        )
    plural = "s" * (straight != 1)
    return (
        f"step {i} turns after {straight} place{plural} straight"
        f" (turn mode {places} at speed {speed:g})"
    )


def _allowed(move: ir.Manoeuvre | None, speed: float, used: set[str]) -> bool:
    return (
        move is not None
        and (move.up_to_speed is None or speed <= move.up_to_speed)
        and not (move.once and move.kind in used)
    )


def _verb(move: ir.FacingMove) -> str:
    """What a refused manoeuvre does, as a reason says it."""
    match move:
        case "backward":
            return "moves backward"
        case "sideslip":
            return "sideslips"
        case "pivot":
            return "pivots"
        case _:
            assert_never(move)


def route(
    rs: ir.Ruleset,
    mode: str,
    actions: Sequence[Action],
    allowance: float | None = None,
    move: str | None = None,
    wind: int | None = None,
    state: Mapping[str, int] | None = None,
    inputs: Mapping[str, float] | None = None,
    outcomes: Sequence[Sequence[str]] | None = None,
    start: int | None = None,
    entered: Sequence[int] = (),
    strength: str | None = None,
) -> FacingAnswer:
    """The cost of ``actions`` for ``mode`` (a unit type with a facing rule), and whether the
    move is legal (the first reason it is not). ``move``: a kind of move (its costs, barred
    features, turn mode row; its allowance is the speed); ``state``: carried; ``inputs``, and
    ``outcomes`` rolled in each action's place, as :func:`~rulesdsl.semantics.routes.route`
    has them; ``start``: the heading it starts with; ``entered``: the actions into places
    entered earlier (no first-entering roll); ``strength``: the wind's (``sail when``)."""
    rule = next(f for f in rs.facings if f.mode == mode)
    allowance = _given(rs, rule, allowance, wind, start, strength)
    sail, blown = by_relative(rule, rs.arcs), strength_extra(rule, strength)
    base = rs
    if move is not None:
        allowance = kind_allowance(kind_of(rs, move), allowance)
        rs = kind_view(rs, move)
    speed = math.inf if allowance is None else allowance
    places = turn_mode(rule, speed, move)
    moves = {m.kind: m for m in rule.manoeuvres}
    used: set[str] = set()
    straight = 0
    here = 0  # headings turned by turns in this place (`turn at most`, issue 40)
    total = 0.0
    markers: list[ir.Marker] = []
    reason = ""
    out: list[FacingStep] = []
    last_place: tuple[str, ...] | None = None
    heading = None
    for i, action in enumerate(actions, 1):
        heading = action.heading if action.heading is not None else heading
        if action.move == "turn":
            how: Move = "turn"
            cost = turn_cost(rule, speed)
            if straight < places or (rule.turn_limit is not None and here >= rule.turn_limit):
                pivot = moves.get("pivot")
                if _allowed(pivot, speed, used) and pivot is not None:
                    how, cost = "pivot", cost + pivot.cost
                    used |= {"pivot"} if pivot.once else set()
                elif not reason:
                    reason = _refused_turn(rule, i, straight, places, here, speed)
            more, why = _wind_turn(rule, wind, action.heading, i)
            cost, reason = cost + more, reason or why
            here += 1 if how == "turn" else 0
            straight, total = 0, total + cost
            out.append(FacingStep(how, (), (), cost, straight))
            continue
        extra = 0.0
        if action.move != "forward":
            manoeuvre = moves.get(action.move)
            if manoeuvre is None:
                reason = reason or f"step {i} moves where its heading does not let it"
            elif not _allowed(manoeuvre, speed, used):  # refused, costed as what it is
                verb = _verb(action.move)
                reason = reason or f"step {i} {verb}, not allowed at speed {speed:g}"
                if editions.refused_manoeuvre_costed(rs.edition):
                    extra = manoeuvre.cost
            else:
                extra = manoeuvre.cost
                if manoeuvre.once:
                    used.add(action.move)
        rolled = tuple(outcomes[i - 1]) if outcomes is not None else ()
        paid = step_cost(rs, mode, (*action.entered, *rolled), action.crossed, 1, allowance, inputs)
        if isinstance(paid, Unfilled):
            raise ValueError(f"unfilled parameter {paid.param}")
        straight = min(straight + 1, places)
        here = 0
        last_place = action.entered
        paid, extra, reason = _sailed(sail, wind, heading, i, (paid, extra, reason), blown)
        if isinstance(paid, ir.Marker):
            markers.append(paid)
            reason = reason or f"step {i} is {paid.marker}"
        else:
            paid += extra
            total += paid
            if not reason and i < len(actions) and must_stop(rs, mode, action.entered):
                reason = f"step {i} enters a place where the unit must stop"
        out.append(FacingStep(action.move, action.entered, action.crossed, paid, straight))
    answer: Answer = total
    if markers:
        answer = PROHIBITED if PROHIBITED in markers else IMPASSABLE
    marks, beyond = whole_move(rs, _plain(out))  # numbered by action: turns never count
    end_state, broken, along = _carried(base, mode, move, state, out)
    reason = reason or beyond or broken
    if not reason and last_place is not None and not can_end(rs, mode, last_place):
        reason = "the unit may not end its move in the last place"
    if not reason and allowance is not None:
        reason = _over_allowance(rs, rule, out, total, allowance)
    rolls = _rolls(base, mode, move, out, along, entered)
    return FacingAnswer(answer, tuple(out), not reason, reason, places, rolls, end_state, marks)


def _given(
    rs: ir.Ruleset,
    rule: ir.Facing,
    allowance: float | None,
    wind: int | None,
    start: int | None,
    strength: str | None = None,
) -> float | None:
    """The allowance, or the speed at the point of sail of the heading ``start`` the move starts
    with (``speed by``, issue 40); the arguments the rule needs (MissingArgument): the wind's
    ``strength`` too where its steps cost by it (``sail when``)."""
    if allowance is None:  # the wind's strength's speed first (``speed when``)
        allowance = strength_speed(rule, strength)
    if allowance is None:
        allowance = sailing_speed(rule, rs.arcs, wind, start)
    if allowance is None and rule.exact_speed:
        raise MissingArgument("allowance")
    strengths = rule.strengths or rule.strength_speeds
    if (wind is None and _reads_wind(rule)) or (strengths and strength is None):
        raise MissingArgument("wind")
    return allowance


def _reads_wind(rule: ir.Facing) -> bool:
    """Whether the rule's answers read the wind: it tacks, wears or sails by arcs (issue 40)."""
    return (
        rule.tack is not None
        or rule.wear is not None
        or bool(rule.refused or rule.sail_by or rule.strengths or rule.strength_speeds)
    )


def _sailed(
    sail: tuple[tuple[str, float], ...],
    wind: int | None,
    heading: int | None,
    i: int,
    step: tuple[Answer, float, str],
    blown: tuple[str, float] = ("", 0.0),
) -> tuple[Answer, float, str]:
    """Step ``i`` at ``heading`` by the point of sail and the wind's strength ``blown`` (issue
    40): its cost (IMPASSABLE in an impassable arc or strength), its ``extra`` cost with what
    they add, and the route's first reason so far (``step``: the three before)."""
    paid, extra, reason = step
    arc, more = step_extra(sail, wind, heading)
    if isinstance(paid, ir.Marker) or max(more, blown[1]) < math.inf:
        return paid, extra + (more + blown[1]), reason
    why = f"{arc} by the wind" if more == math.inf else f"{blown[0]} wind"
    return IMPASSABLE, extra, reason or f"step {i} is impassable ({why})"


def _plain(out: Sequence[FacingStep]) -> list[RouteStep]:
    """The actions of a move with facing as plain route steps (a turn enters nothing)."""
    return [RouteStep(s.entered, s.crossed, s.cost) for s in out]


def _over_allowance(
    rs: ir.Ruleset, rule: ir.Facing, out: list[FacingStep], total: float, allowance: float
) -> str:
    """Why a move of ``total`` breaks the ``allowance`` (the speed): not spent exactly where it
    must be, or over it (and the whole-move bonuses its steps keep); empty when it does not."""
    allowance += whole_bonus(rs, _plain([s for s in out if s.move not in ("turn", "pivot")]))
    stepped = out and out[-1].move not in ("turn", "pivot")  # a turn never overspends
    last = out[-1].cost if stepped and not isinstance(out[-1].cost, ir.Marker) else 0.0
    spent = total == allowance or (
        rule.until_spent and total > allowance and total - last < allowance
    )
    if rule.exact_speed:
        if not spent:
            return f"the route spends {total:g} of a speed of {allowance:g}, not all of it"
    elif total > allowance and not (
        rs.minimum_move is not None and allowance > 0 and len(out) == 1
    ):
        return "the route costs more than the allowance"
    return ""


def _carried(
    rs: ir.Ruleset,
    mode: str,
    move: str | None,
    state: Mapping[str, int] | None,
    out: Sequence[FacingStep],
) -> tuple[dict[str, int] | None, str, list[tuple[int, ...]]]:
    """The state after a move with facing, why it breaks a range (empty when it does not), and
    the state after each action (a turn changes nothing), as plain routes carry it."""
    if state is None:
        return None, "", []
    steps = _plain(out)
    end, broken = route_state(rs, mode, move, state, steps)
    return end, broken, states_along(rs, mode, move, state, steps)


def _rolls(
    rs: ir.Ruleset,
    mode: str,
    move: str | None,
    out: Sequence[FacingStep],
    along: Sequence[tuple[int, ...]],
    entered: Sequence[int] = (),
) -> tuple[Due, ...]:
    """The rolls due along a move with facing, numbered by action; with a state carried
    (``along``), those due in a band of it only where the state is in the band; none on first
    entering the places of the actions ``entered`` (each action's place a new one)."""
    moved = [(i, s) for i, s in enumerate(out, 1) if s.move not in ("turn", "pivot")]
    by_action = {i: n for n, (i, _) in enumerate(moved, 1)}
    before = [by_action[i] for i in entered if i in by_action]
    places = range(len(moved) + 1)  # the start, then each place entered
    plain = [(s.entered, s.crossed) for _, s in moved]
    due = route_rolls(rs, mode, plain, move, places, entered=before)
    rolls = tuple(replace(d, step=moved[d.step - 1][0]) for d in due)
    return state_rolls(rs, rolls, along)
