"""Arithmetic in decisions (issue 25): an expression over a decision's inputs and numbers,
``abs(new_speed - speed)``, ``sensor_range / 2 rounded down - 2``, ``min(a, b)``.

Part of :mod:`rulesdsl.ir`, which re-exports every name; read them from there. Its meaning
(evaluation, rounding) lives in :mod:`rulesdsl.semantics.arith`.
"""

from __future__ import annotations

from typing import Literal

from rulesdsl.ir.records import dataclass
from rulesdsl.ir.values import Id

ArithOp = Literal["+", "-", "*", "/"]
"""The four operations; ``*`` and ``/`` bind tighter than ``+`` and ``-``."""
Rounding = Literal["down", "up"]
"""Which way a value between two whole numbers or two columns falls: ``down`` (towards
-infinity; a results table's lower ``at`` column) or ``up`` (towards +infinity; the higher).
Decisions write it ``rounded down|up``, results tables ``by odds round down|up``."""
ArithFunction = Literal["abs", "min", "max", "half"]
"""The functions an expression may call: ``half(x)`` is ``x / 2``."""


@dataclass(frozen=True, slots=False)
class ArithInput:
    """An input of the decision, as a number."""

    input: Id
    kind: Literal["input"] = "input"


@dataclass(frozen=True, slots=False)
class ArithNumber:
    """A number written in the expression, with its unit if it has one."""

    value: float
    unit: str | None = None
    kind: Literal["number"] = "number"


@dataclass(frozen=True, slots=False)
class ArithBinary:
    """``left op right``; ``rounding``: the result rounded to a whole number."""

    op: ArithOp
    left: Arith
    right: Arith
    rounding: Rounding | None = None
    kind: Literal["binary"] = "binary"


@dataclass(frozen=True, slots=False)
class ArithCall:
    """``abs(x)``, ``min(a, b, ...)``, ``max(a, b, ...)``, ``half(x)``; ``rounding``: the
    result rounded to a whole number."""

    function: ArithFunction
    args: tuple[Arith, ...]
    rounding: Rounding | None = None
    kind: Literal["call"] = "call"


@dataclass(frozen=True, slots=False)
class ArithStep:
    """A step's answer for a value (issue 40, a rule that reads another rule's answer):
    ``climb_cost(levels)``; the step can never answer impassable. ``rounding``: the answer
    rounded to a whole number."""

    step: Id
    arg: Arith
    rounding: Rounding | None = None
    kind: Literal["step"] = "step"


@dataclass(frozen=True, slots=False)
class ArithDecision:
    """The number a decision declared above gives for these values (issue 40, a rule that
    reads another rule's answer): ``capped(kind, speed + 1, 2)``. ``args`` are given to its
    first inputs in order, named in ``inputs`` (a key input passed on as an
    :class:`ArithInput`); the rest take their defaults."""

    decision: Id
    args: tuple[Arith, ...]
    inputs: tuple[Id, ...]
    kind: Literal["decision"] = "decision"


Arith = ArithInput | ArithNumber | ArithBinary | ArithCall | ArithStep | ArithDecision


@dataclass(frozen=True, slots=False)
class ArithOperand:
    """One side of a comparison that computes: ``abs(new_speed - speed)``; ``unit``: the
    unit of its result (None for a plain number)."""

    expr: Arith
    unit: str | None = None
    kind: Literal["arith"] = "arith"
