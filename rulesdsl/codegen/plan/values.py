"""A value as a generated module carries it at run time (issue 36): the plan's literals.

The IR's ``Value`` says what an author wrote (``same as``, a parameter's rate, a number with
its sign); a module carries less: a number, a quantity with its unit, a rate, a trade, a span,
a marker, a name or text, a flag, dice, or the marker of an input the caller gives. Every
emitter writes each of these in its language, dispatching on :data:`Literal` exhaustively.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import assert_never

from rulesdsl import ir, semantics
from rulesdsl.ir.records import dataclass


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number with its unit (``2 in``)."""

    value: float
    unit: str


@dataclass(frozen=True, slots=True)
class Rate:
    """An amount per a distance (``1 MP per 2 in``)."""

    amount: Literal
    per: Literal


@dataclass(frozen=True, slots=True)
class Trade:
    """A gain bought with a cost (``+1 for 2 MP``)."""

    gain: Literal
    cost: Literal


@dataclass(frozen=True, slots=True)
class Span:
    """A range of numbers, both ends included, in a unit or none."""

    low: float
    high: float
    unit: str | None


@dataclass(frozen=True, slots=True)
class Mark:
    """A marker that replaces a number: impassable, prohibited, blocked."""

    marker: ir.MarkerKind


@dataclass(frozen=True, slots=True)
class Dice:
    """Dice to roll: ``count`` dice of ``sides`` sides plus ``bonus``."""

    count: int
    sides: int
    bonus: int


@dataclass(frozen=True, slots=True)
class D66:
    """A d66 roll (tens die and units die) plus ``bonus``."""

    bonus: int


@dataclass(frozen=True, slots=True)
class Given:
    """The marker of a value the caller gives (an input of a step or a decision)."""


@dataclass(frozen=True, slots=True)
class Flat:
    """A cost paid once per move, whatever the distance (``flat 2 in``)."""

    amount: float


@dataclass(frozen=True, slots=True)
class Share:
    """A share of the unit's allowance paid once per move (``share 1/2``, ``share all but 1
    in``): ``numerator / denominator`` of it, less ``but``."""

    numerator: int
    denominator: int
    but: float


@dataclass(frozen=True, slots=True)
class StepCost:
    """A step's answer paid once per move (``step climb``); ``param`` is the step's input,
    which the caller gives by name."""

    step: str
    param: str


OnceCost = Flat | Share | StepCost
"""A cost paid once per move, not per distance (issue 11)."""


def once_record(cost: OnceCost) -> tuple[str, tuple[float | str, ...]]:
    """A cost paid once per move as every target's module makes it: the runtime's class of
    the same name (``Flat``, ``Share``, ``StepCost``) and its arguments, in order."""
    match cost:
        case Flat(amount=amount):
            return "Flat", (amount,)
        case Share(numerator=n, denominator=d, but=but):
            return "Share", (n, d, but)
        case StepCost(step=step, param=param):
            return "StepCost", (step, param)
        case _:
            assert_never(cost)


Literal = float | str | bool | None | Quantity | Rate | Trade | Span | Mark | Dice | D66 | Given
"""A value as the module carries it: a plain number, a name or text (a string), a flag, no
value, or one of the records above."""


def literal(value: ir.Value | None) -> Literal:
    """How an IR value is carried by the module: the one place the plan reads ``Value``."""
    match value:
        case None:
            return None
        case ir.Number(value=v, unit=unit):
            return v if unit is None else Quantity(v, unit)
        case ir.Rate(amount=a, per=p):
            return Rate(literal(a), literal(p))
        case ir.Trade(gain=g, cost=c):
            return Trade(literal(g), literal(c))
        case ir.Span(low=lo, high=hi, unit=u):
            return Span(lo, hi, u)
        case ir.Marker(marker=m):
            return Mark(m)
        case ir.Symbol(name=n):
            return n
        case ir.Flag(value=b):
            return b
        case ir.DiceValue(count=c, sides=s, bonus=b):
            return Dice(c, s, b)
        case ir.D66Value(bonus=b):
            return D66(b)
        case ir.Text(text=t):
            return t
        case ir.Same(resolved=r):
            return literal(r)
        case ir.ParamRate(param=p):
            return p
        case ir.Given():
            return Given()
        case ir.Flat() | ir.Share() | ir.StepCost():
            raise ValueError(f"a cost paid once per move is not a cell value: {value!r}")
        case _:
            assert_never(value)


@dataclass(frozen=True, slots=True)
class Unfilled:
    """A cost per distance that is a scenario parameter the ruleset leaves open."""

    param: str


PerDistance = float | Mark | Unfilled
"""A movement cost per distance unit: a number, a marker, or an unfilled parameter."""


def per_distance(value: ir.Value, params: Mapping[str, float | None]) -> PerDistance:
    """A resolved cost per distance unit, as the module carries it."""
    cost = semantics.per_distance(value, params)
    match cost:
        case float() | int():  # the most common, first (issue 44: a cost per feature and mode)
            return cost
        case semantics.Unfilled(param=name):
            return Unfilled(name)
        case ir.Marker(marker=m):
            return Mark(m)
        case _:
            assert_never(cost)


def once_cost(rs: ir.Ruleset, value: ir.Value) -> OnceCost | None:
    """A cost paid once per move as the module carries it; None for a cost per distance."""
    match value:
        case (  # the most common first (issue 44: a cost per feature and mode)
            ir.Number()
            | ir.Rate()
            | ir.ParamRate()
            | ir.Trade()
            | ir.Span()
            | ir.Marker()
            | ir.Symbol()
            | ir.Flag()
            | ir.DiceValue()
            | ir.D66Value()
            | ir.Given()
            | ir.Text()
        ):
            return None
        case ir.Same(resolved=resolved):
            return once_cost(rs, resolved)
        case ir.Flat(amount=amount):
            return Flat(amount.value)
        case ir.Share(numerator=n, denominator=d, but=but):
            return Share(n, d, but.value if but is not None else 0)
        case ir.StepCost(step=name):
            return StepCost(name, next(s.param for s in rs.steps if s.id == name))
        case _:
            assert_never(value)
