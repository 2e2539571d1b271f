"""What a worked example gives besides plain values (issue 40): a route's state at the start,
``state=(speed=5, altitude=2)`` (``state`` lines), and the wind's heading, ``wind=2`` (a facing
rule that tacks or wears), read and checked as the module checks its ``state=`` and ``wind=``
arguments; a decision input that takes a modifier's items, ``mods=(aimed, smoke)``; and the
state after a route, ``route_cost(...).state = (speed=3, altitude=4)``. Misuse has codes of its
own (E450-E455, E457, E458, E489-E491; docs/diagnostics.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from rulesdsl import ir, semantics, spelling, words
from rulesdsl.diagnostics import did_you_mean
from rulesdsl.examples.statements import Answered, Plain, Unanswerable
from rulesdsl.semantics import facing as semantics_facing
from rulesdsl.semantics import moves as semantics_moves
from rulesdsl.semantics import routes as semantics_routes

Found = tuple[int, ir.ExampleArg]
"""An argument and its index among the question's arguments."""


def state(rs: ir.Ruleset, found: Found | None) -> dict[str, int] | None:
    """``state=(speed=5, altitude=2)``: every declared state by name, each a whole number in
    its range; None when the question gives none."""
    if found is None:
        return None
    i, a = found
    if not rs.states:
        raise Unanswerable(
            "the rules carry no state (no `state` line): drop 'state'", i, code="E450"
        )
    if not a.names:
        raise Unanswerable("'state' names each state: state=(" + _shape(rs) + ")", i, code="E451")
    declared = {s.id: s for s in rs.states}
    out: dict[str, int] = {}
    for name, value in zip(a.names, a.values, strict=True):
        if name not in declared or name in out:
            why = "is given twice" if name in out else "is not a state of the rules"
            hint = did_you_mean(name, list(declared))
            raise Unanswerable(f"'{name}' {why}" + (f" ({hint})" if hint else ""), i, code="E451")
        s = declared[name]
        number = value.value if isinstance(value, ir.Number) and value.unit is None else None
        if number is None or not float(number).is_integer() or not s.low <= number <= s.high:
            raise Unanswerable(
                f"'{name}' is a whole number from {s.low} to {s.high}, not {spelling.value(value)}",
                i,
                code="E452",
            )
        out[name] = int(number)
    missing = [s.id for s in rs.states if s.id not in out]
    if missing:
        raise Unanswerable(
            f"'state' gives every state the rules carry: {', '.join(missing)} is missing "
            f"(state=({_shape(rs)}))",
            i,
            code="E451",
        )
    return out


def sight_state(rs: ir.Ruleset, rule: ir.Sight, found: Found | None) -> dict[str, int] | None:
    """``state=(speed=3, altitude=4)`` on a line of sight: the viewer's state, for a rule that
    counts only in a band of it (``when altitude below 6``); a state for a rule with no band
    is E458, none for a rule with one names the band."""
    if rule.state is not None and found is None:
        name, side, bound = rule.state
        raise Unanswerable(
            f"'{rule.id}' counts only while '{name}' is {side} {bound}: "
            f"give the viewer's state, state=({_shape(rs)})"
        )
    given = state(rs, found)
    if found is not None and rule.state is None:
        why = f"'{rule.id}' has no band of a state (no `when`), so the state changes nothing"
        raise Unanswerable(why + ": drop 'state'", found[0], code="E458")
    return given


def _shape(rs: ir.Ruleset) -> str:
    return ", ".join(f"{s.id}={s.low}" for s in rs.states)


def wind(rs: ir.Ruleset, mode: str, found: Found | None) -> int | None:
    """``wind=2``: the heading the wind blows from, numbered as the unit's headings (0 the
    example's start, each ``turn`` one more); None when the question gives none."""
    if found is None:
        return None
    i, a = found
    if not any(
        f.tack is not None
        or f.wear is not None
        or f.refused
        or f.sail_by
        or f.speed_by
        or f.strengths
        or f.strength_speeds
        for f in rs.facings
    ):
        raise Unanswerable(
            "no unit type of the rules tacks or wears, so the wind changes nothing: drop 'wind'",
            i,
            code="E453",
        )
    rule = next((f for f in rs.facings if f.mode == mode), None)
    headings = rule.headings if rule is not None else max(f.headings for f in rs.facings)
    value = a.values[0] if len(a.values) == 1 and not a.grouped else None
    if a.grouped and len(a.values) == 2 and not a.names:  # (3, gale): :func:`strength`'s
        value = a.values[0]
    number = value.value if isinstance(value, ir.Number) and value.unit is None else None
    if number is None or not float(number).is_integer() or not 0 <= number < headings:
        shown = ", ".join(spelling.value(v) for v in a.values)
        raise Unanswerable(
            f"'wind' is the heading it blows from, 0 to {headings - 1}, not {shown}",
            i,
            code="E454",
        )
    return int(number)


def strength(rs: ir.Ruleset, mode: str, found: Found | None) -> str | None:
    """``wind=(3, gale)``: the wind's strength beside its heading (``sail when``, issue 40), a
    strength some facing rule names, in a ruleset where one does (E525), and given where the
    unit's steps cost by it (E526); None when the question gives a bare heading or no wind."""
    named = [n for f in rs.facings for n, _ in (*f.strengths, *f.strength_speeds)]
    if found is None:
        return None
    i, a = found
    if not (a.grouped and len(a.values) == 2):
        if any(f.mode == mode and (f.strengths or f.strength_speeds) for f in rs.facings):
            raise Unanswerable(
                f"the rules of '{mode}' read the wind's strength: give it, "
                f"wind=(heading, {named[0]})",
                i,
                code="E526",
            )
        return None
    given = a.values[1]
    name = given.name if isinstance(given, ir.Symbol) else spelling.value(given)
    if not named:
        raise Unanswerable(
            "no unit type's rules read the wind's strength: give the heading alone, wind=3",
            i,
            code="E525",
        )
    if name not in named:
        hint = did_you_mean(name, named)
        raise Unanswerable(
            f"no strength of the wind '{name}' that a `sail when` or `speed when` names; {hint}",
            i,
            code="E525",
        )
    return name


def only_state_named(rs: ir.Ruleset, q: ir.Question) -> None:
    """Named values are the state's alone: ``distance=(a=1)`` is E455; and a field of the
    answer is a route's (:func:`attribute_asked`)."""
    for i, a in enumerate(q.args):
        if a.names and a.keyword != "state":
            raise Unanswerable("only 'state' takes values by name, state=(speed=5)", i, code="E455")
    attribute_asked(rs, q)


def headed(
    rs: ir.Ruleset, mode: str, actions: list[semantics_facing.Action]
) -> list[semantics_facing.Action]:
    """A facing route's actions with each one's heading after it, as the example lays the
    route: from heading 0, each ``turn`` one heading more (what the wind reads: a turn's
    tack or wear, a step's point of sail; the start's, heading 0, gives ``speed by``)."""
    count = next(f.headings for f in rs.facings if f.mode == mode)
    heading, out = 0, []
    for action in actions:
        if action.move == "turn":
            heading = (heading + 1) % count
        out.append(replace(action, heading=heading))
    return out


def total(rs: ir.Ruleset, found: Found, modifier: str) -> float:
    """``mods=(aimed, smoke)``: a decision input that takes a modifier's items (``mods
    to_hit``), as their total; items not in parentheses are E457."""
    i, a = found
    mod = next(m for m in rs.modifiers if m.id == modifier)
    pool = [*(f.id for f in rs.features), *mod.values]
    if not a.grouped:
        raise Unanswerable(
            f"give the items of '{modifier}' in parentheses: (aimed, smoke)", i, code="E457"
        )
    items = [v.name if isinstance(v, ir.Symbol) else spelling.value(v) for v in a.values]
    unknown = next((item for item in items if item not in pool), None)
    if unknown is not None:
        hint = did_you_mean(unknown, pool)
        raise Unanswerable(
            f"'{unknown}' is not an item of '{modifier}'" + (f" ({hint})" if hint else ""), i
        )
    value = semantics.modifier(rs, modifier, items)
    assert not isinstance(value, ir.Marker)  # E432: a modifier read as a total gives no marker
    return value


def attribute_asked(rs: ir.Ruleset, q: ir.Question) -> None:
    """``route_cost(...).state = (speed=3, altitude=4)``: only a route answers ``.state``
    (E489), from a state given at the start (E490), stated as every state by name, once, a
    whole number (E491); and ``.rolls``, a route's, with facing or without (E489 otherwise)."""
    if not q.attribute:
        return
    if q.attribute == "rolls" and words.asked(q.ask) == "route_cost":
        return
    if q.attribute != "state" or words.asked(q.ask) != "route_cost":
        raise Unanswerable(
            f"'{q.ask}(...).{q.attribute}' is not an answer an example states: a route states "
            "the state after it, route_cost(...).state = (...), and its rolls due, "
            "route_cost(...).rolls = ...",
            code="E489",
        )
    found = next((i for i, a in enumerate(q.args) if a.keyword == "state"), None)
    if found is None:
        raise Unanswerable(
            f"the state after the route needs the state at the start: add state=({_shape(rs)})",
            code="E490",
        )
    names = [s.id for s in rs.states]
    given = list(q.answer_names)
    wrong = [v for v in q.answer if not isinstance(v, ir.Number) or v.unit is not None]
    wrong += [v for v in q.answer if isinstance(v, ir.Number) and not float(v.value).is_integer()]
    if sorted(given) != sorted(names) or len(set(given)) != len(given) or wrong:
        raise Unanswerable(
            f"'.state' states every state the rules carry by name, once, each a whole number: "
            f"({_shape(rs)}), not ({', '.join(given)})",
            code="E491",
        )


def attributed(rs: ir.Ruleset, q: ir.Question, answered: Answered) -> Answered:
    """The answer of a question that states a field of a route: ``.state``, its state after
    its last step by name (the module's ``Route.state``); ``.rolls``, its rolls due."""
    if q.attribute == "rolls":
        assert answered.rolls is not None  # attribute_asked: a route's
        return replace(answered, parts=answered.rolls, unit=None)
    assert answered.state is not None  # attribute_asked: a route given a state
    parts = ({q.attribute: dict(answered.state)},)
    return replace(answered, parts=parts, unit=None, cells=tuple(map(_state_line, rs.states)))


class Asked(Protocol):
    """A question's arguments as the examples read them (:class:`rulesdsl.examples._Args`)."""

    q: ir.Question

    def keyword(self, name: str) -> Found | None: ...


def rolls(
    rs: ir.Ruleset,
    args: Asked,
    mode: str,
    steps: list[tuple[list[str], list[str]]],
    move: str | None,
    state: dict[str, int] | None,
    costed: Sequence[semantics_routes.RouteStep],
) -> tuple[Plain, ...] | None:
    """``route_cost(..., entered=(2)).rolls = light_flak, 0``: the rolls due along a route
    without facing, each its name and modifier (``none``), in the module's order; ``entered``:
    the places entered earlier in the turn, by step (1 for the first place entered), which no
    roll on first entering is due in again. None when the question states no ``.rolls``;
    ``entered`` without it is E492, as is a step the route does not have."""
    entered = entered_steps(args, len(steps))
    if args.q.attribute != "rolls":
        return None
    places = list(range(len(steps) + 1))
    due = semantics_moves.route_rolls(rs, mode, steps, move, places, entered=entered)
    if state is not None:  # rolls due in a band of the state: where the state is in it
        due = semantics_routes.state_rolls(
            rs, due, semantics_routes.states_along(rs, mode, move, state, costed)
        )
    return rolls_parts(due)


def entered_steps(args: Asked, count: int) -> list[int]:
    """``entered=(1, 3)``: the steps of a route of ``count`` steps whose places the unit entered
    earlier in the turn (none when the question gives none); not a step of the route, or
    given without ``.rolls``, is E492."""
    found = args.keyword("entered")
    if found is None:
        return []
    i, a = found
    numbers = [v.value if isinstance(v, ir.Number) and v.unit is None else 0 for v in a.values]
    if args.q.attribute != "rolls" or not all(
        float(n).is_integer() and 1 <= n <= count for n in numbers
    ):
        raise Unanswerable(
            f"'entered' gives the steps of the route entered earlier in the turn, 1 to "
            f"{count}, and changes only the rolls due: state them, "
            "route_cost(..., entered=(1)).rolls = ...",
            i,
            code="E492",
        )
    return [int(n) for n in numbers]


def rolls_parts(due: Sequence[semantics_moves.Due]) -> tuple[Plain, ...]:
    """Rolls due as a route's ``.rolls`` states them: each roll's name and modifier, in order;
    ``none`` when none is."""
    parts = [part for d in due for part in ({"word": d.roll}, {"number": d.modifier})]
    return tuple(parts) or ({"word": "none"},)


def _state_line(s: ir.State) -> str:
    """A ``state`` line's range and changes, as the rules write them: ``speed: 0 to 8, debris
    -2, bomber climb -3``."""
    changes = (
        " ".join((*([c.mode] if c.mode else []), c.source, f"{c.amount:+d}")) for c in s.changes
    )
    return f"{s.id}: " + ", ".join((f"{s.low} to {s.high}", *changes))
