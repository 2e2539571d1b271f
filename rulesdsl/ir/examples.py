"""Worked examples: the questions an ``example`` block asks the generated module and the
answers it states (issue 27).

Part of :mod:`rulesdsl.ir`, which re-exports every name; read them from there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rulesdsl.ir.values import Id, Info, Named, Value

if TYPE_CHECKING:
    from dataclasses import dataclass
else:  # the same decorator, its methods' bytecode kept between runs (issue 29)
    from rulesdsl.ir.records import dataclass


Ask = Literal[
    "move_cost",
    "can_enter",
    "can_end",
    "must_stop",
    "modifier",
    "roll",
    "chance",
    "lookup",
    "route_cost",
    "line_of_sight",
    "path_cost",
    "rolls_due",
    "free_move",
    "effect",
    "arc_between",
]
"""The module functions a worked example may ask, beside each step and decision by its name
(:func:`rulesdsl.words.asked` reads a question's name as one)."""


@dataclass(frozen=True)
class ExampleArg:
    """One argument of an example's question: positional (``keyword`` empty) or by keyword;
    ``grouped``: written in parentheses (a place's features, a tuple of lengths)."""

    keyword: str
    values: tuple[Value, ...]
    grouped: bool = False
    names: tuple[str, ...] = ()
    """The name of each value when they are named, ``state=(speed=5, altitude=2)`` (issue 40)."""


@dataclass(frozen=True)
class Question:
    """A question a worked example asks the generated module, and the answer it states:
    ``ask`` is the module's function (an :data:`Ask`) or a step's or decision's name. A
    chance is stated as a :class:`Share` (``5/36``)."""

    ask: Id
    args: tuple[ExampleArg, ...]
    answer: tuple[Value, ...]
    info: Info
    attribute: str = ""
    """The field of the module's answer the example states, ``.state`` (issue 40); empty: the
    answer itself."""
    answer_names: tuple[str, ...] = ()
    """The name of each value of the answer when they are named, ``(speed=3, altitude=4)``."""


@dataclass(frozen=True)
class Example(Named):
    """``example NAME "Title" { ... }``: a worked example, checked at every build (issue 27).
    ``inherited``: the base ruleset that states it, when a variant inherits it unchanged
    (empty for the ruleset's own examples and those a variant restates)."""

    questions: tuple[Question, ...]
    inherited: str = ""
