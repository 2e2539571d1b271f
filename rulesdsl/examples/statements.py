"""What a worked example states: its answer as plain JSON parts, and how a question and an
answer are written (``move_cost(clear) = 1 MP``) on sheets, in diagnostics and in the diff.

:mod:`rulesdsl.examples` asks the rules; this module only reads what the example says.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Literal, assert_never

from rulesdsl import ir, spelling, words
from rulesdsl.ir.records import dataclass

Plain = dict[str, Any]
"""One part of an answer, as JSON: a single key naming its kind."""


class Unanswerable(Exception):
    """A question the module cannot answer as written: an unknown function or name, missing
    or extra arguments, or (``wrong_unit``) a number in another unit than the rules use.
    ``arg``: the index of the argument at fault, None for the whole question; ``code``: the
    diagnostic's own code, when it is not E272 (a route's ``state=`` or ``wind=``: E450-E459)."""

    def __init__(
        self, message: str, arg: int | None = None, wrong_unit: bool = False, code: str = ""
    ) -> None:
        super().__init__(message)
        self.message = message
        self.arg = arg
        self.wrong_unit = wrong_unit
        self.code = code


@dataclass(frozen=True, slots=False)
class Answered:
    """The module's answer to a question: its plain parts, the unit numbers are in, and the
    cells that give it (``light_woods: 1 MP``), in the DSL's words."""

    parts: tuple[Plain, ...]
    unit: str | None
    cells: tuple[str, ...]
    row: int | None = None
    """The index of the decision row that holds, or of the dice row that covers the total."""
    places: tuple[tuple[tuple[str, ...], Plain], ...] = ()
    """A route's steps or a line's places: their features and what each costs or hinders."""
    value: ir.Value | None = None
    """A table cell's value itself, as the table holds it (``lookup``)."""
    state: dict[str, int] | None = None
    """A route's state after its last step, when it was given one at the start (issue 40)."""
    rolls: tuple[Plain, ...] | None = None
    """A route's rolls due, each its name and modifier (``none``: no roll), when a route
    without facing was asked (issue 40)."""


def plain(value: ir.Value) -> Plain:
    """A stated value as a plain part."""
    match value:
        case ir.Number(value=n):
            return {"number": n}
        case ir.Marker(marker=marker):
            return {"marker": marker}
        case ir.Flag(value=flag):
            return {"bool": flag}
        case ir.Symbol(name=name):
            return {"word": name}
        case ir.Text(text=text):
            return {"word": text}
        case ir.Share(numerator=n, denominator=d):
            f = Fraction(n, d) if d else Fraction(0)
            return {"fraction": [f.numerator, f.denominator]}
        case ir.Span(low=low, high=high):
            return {"span": [low, high]}
        case ir.DiceValue(count=count, sides=sides, bonus=bonus):
            return {"dice": [count, sides, bonus]}
        case ir.D66Value(bonus=bonus):
            return {"d66": bonus}
        case ir.Rate(amount=amount, per=per):
            return {"rate": [amount.value, per.value]}
        case ir.Trade(gain=gain, cost=cost):
            return {"trade": [gain.value, cost.value]}
        case ir.Same() | ir.PerDistance() | ir.OnceCost() | ir.NonCost():
            return {"word": spelling.value(value)}
        case _:
            assert_never(value)


def stated(q: ir.Question) -> tuple[Plain, ...]:
    if q.answer_names:  # `.state = (speed=3, altitude=4)`: one part, the values by name
        named = zip(q.answer_names, q.answer, strict=True)
        return ({q.attribute: {n: next(iter(plain(v).values())) for n, v in named}},)
    return tuple(plain(v) for v in q.answer)


def same(a: Sequence[Plain], b: Sequence[Plain]) -> bool:
    """Whether two answers agree (numbers to 1e-9)."""
    return len(a) == len(b) and all(_same_part(x, y) for x, y in zip(a, b, strict=True))


def _same_part(x: Any, y: Any) -> bool:
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(_same_part(x[k], y[k]) for k in x)
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(_same_part(a, b) for a, b in zip(x, y, strict=True))
    if isinstance(x, bool) or isinstance(y, bool):
        return x is y
    if isinstance(x, int | float) and isinstance(y, int | float):
        return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)
    return bool(x == y)


def answer_text(parts: Sequence[Plain], unit: str | None = None) -> str:
    """An answer as the DSL writes it: ``4 MP``, ``impassable``, ``5/36``, ``3, blocked``."""
    return ", ".join(_part_text(p, unit) for p in parts)


def _part_text(part: Plain, unit: str | None) -> str:
    form, value = next(iter(part.items()))
    if form == "number":
        return spelling.number(value) + (f" {unit}" if unit else "")
    if form in ("marker", "word"):
        return str(value)
    if form == "bool":
        return "yes" if value else "no"
    if form == "fraction":
        return f"{value[0]}/{value[1]}"
    if isinstance(value, dict):  # a route's state, by name (issue 40)
        return (
            "("
            + ", ".join(f"{k}={_part_text({'number': v}, None)}" for k, v in value.items())
            + ")"
        )
    if form == "span":
        return f"{spelling.number(value[0])}-{spelling.number(value[1])}"
    if form == "dice":
        return f"{value[0]}d{value[1]}" + (f"{value[2]:+d}" if value[2] else "")
    if form == "d66":
        return "d66" + (f"{value:+d}" if value else "")
    if form == "rate":
        return f"{spelling.number(value[0])} per {spelling.number(value[1])}"
    return f"{spelling.number(value[0])} for {spelling.number(value[1])}"


def question_text(q: ir.Question) -> str:
    """The question as the DSL writes it: ``move_cost(mech, light_woods, distance=2 in)``."""

    def arg(a: ir.ExampleArg) -> str:
        named = (f"{n}={spelling.value(v)}" for n, v in zip(a.names, a.values, strict=True))
        text = ", ".join(named if a.names else (spelling.value(v) for v in a.values))
        text = f"({text})" if a.grouped else text
        return f"{a.keyword}={text}" if a.keyword else text

    attribute = f".{q.attribute}" if q.attribute else ""
    return f"{q.ask}({', '.join(arg(a) for a in q.args)}){attribute}"


def unit_of(q: ir.Question) -> str | None:
    """The unit the stated answer is written in, if any."""
    return next((v.unit for v in q.answer if isinstance(v, ir.Number) and v.unit), None)


QuestionKind = Literal["step", "decision"] | ir.Ask
"""What a worked example asks: a step or a decision by its name, or a module function."""


def question_kind(rs: ir.Ruleset, q: ir.Question) -> QuestionKind | None:
    """``step`` or ``decision`` for a question asked by a step's or decision's name, else
    the module function it names (None: no question the module answers)."""
    if any(s.id == q.ask for s in rs.steps):
        return "step"
    if any(d.id == q.ask for d in rs.decisions):
        return "decision"
    return words.asked(q.ask)
