"""What arithmetic in a decision means (issue 25): one place that the compile-time reference
semantics, the sheets and ``rulesdsl diff`` share.

``evaluate`` computes an expression from the inputs; ``source`` writes it back as the DSL
spells it (the generated module's code writes the plan's expression tree,
:mod:`rulesdsl.codegen.python.code`).
Rounding is to a whole number: ``up`` towards +infinity, ``down`` towards -infinity.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from typing import assert_never

from rulesdsl import ir
from rulesdsl.words import Total, total

PRECEDENCE: Total[ir.ArithOp, int] = total(ir.ArithOp, {"+": 1, "-": 1, "*": 2, "/": 2})
ARITY: Total[ir.ArithFunction, tuple[int, int | None]] = total(
    ir.ArithFunction,
    {
        "abs": (1, 1),
        "half": (1, 1),
        "min": (2, None),
        "max": (2, None),
    },
)
"""Each function's least and most arguments (None: no most)."""
MAX_DEPTH = 32
"""The deepest an expression may nest (E228, checked as the parser builds it): deeper is no
rule a player can read, and the compiler's recursive walks stay far from Python's recursion
limit."""


def divides(op: ir.ArithOp) -> bool:
    """Whether ``op`` divides (its right side must not be 0)."""
    match op:
        case "/":
            return True
        case "+" | "-" | "*":
            return False
        case _:
            assert_never(op)


def adds(op: ir.ArithOp) -> bool:
    """Whether ``op`` adds or subtracts (both sides in one unit)."""
    match op:
        case "+" | "-":
            return True
        case "*" | "/":
            return False
        case _:
            assert_never(op)


def rounded(value: float, rounding: ir.Rounding | None) -> float:
    """``value`` rounded as stated: up (towards +infinity), down (towards -infinity), or not."""
    match rounding:
        case None:
            return value
        case "up":
            return math.ceil(value)
        case "down":
            return math.floor(value)
        case _:
            assert_never(rounding)


Called = Callable[[ir.ArithStep | ir.ArithDecision, Mapping[str, float | bool | str]], float]
"""What answers a rule an expression calls (a step or a decision, issue 40) for the inputs."""


def evaluate(
    expr: ir.Arith, inputs: Mapping[str, float | bool | str], call: Called | None = None
) -> float:
    """The expression's value for the given inputs (numbers only); ``call`` answers the
    steps and decisions the expression calls."""
    match expr:
        case ir.ArithInput(input=name):
            return float(inputs[name])
        case ir.ArithNumber(value=value):
            return value
        case ir.ArithBinary(op=op, left=left, right=right, rounding=rounding):
            a, b = evaluate(left, inputs, call), evaluate(right, inputs, call)
            return rounded(_binary(op, a, b), rounding)
        case ir.ArithCall(function=function, args=args, rounding=rounding):
            values = [evaluate(a, inputs, call) for a in args]
            return rounded(_call(function, values), rounding)
        case ir.ArithStep(rounding=rounding) if call is not None:
            return rounded(call(expr, inputs), rounding)
        case ir.ArithDecision() if call is not None:
            return call(expr, inputs)
        case ir.ArithStep() | ir.ArithDecision():
            raise ValueError(f"nothing answers the rule {expr!r}")
        case _:
            assert_never(expr)


def _binary(op: ir.ArithOp, a: float, b: float) -> float:
    match op:
        case "+":
            return a + b
        case "-":
            return a - b
        case "*":
            return a * b
        case "/":
            return a / b
        case _:
            assert_never(op)


def _call(function: ir.ArithFunction, values: list[float]) -> float:
    match function:
        case "abs":
            return abs(values[0])
        case "half":
            return values[0] / 2
        case "min":
            return min(values)
        case "max":
            return max(values)
        case _:
            assert_never(function)


def parts(expr: ir.Arith) -> Iterator[ir.Arith]:
    """The expression and each expression inside it, each before its own parts, left first."""
    yield expr
    match expr:
        case ir.ArithInput() | ir.ArithNumber():
            pass
        case ir.ArithBinary(left=left, right=right):
            yield from parts(left)
            yield from parts(right)
        case ir.ArithCall(args=args):
            for a in args:
                yield from parts(a)
        case ir.ArithStep(arg=arg):
            yield from parts(arg)
        case ir.ArithDecision(args=args):
            for a in args:
                yield from parts(a)
        case _:
            assert_never(expr)


def inputs_of(expr: ir.Arith) -> Iterator[str]:
    """The inputs an expression reads, in the order it names them."""
    return (p.input for p in parts(expr) if isinstance(p, ir.ArithInput))


def divisors(expr: ir.Arith) -> Iterator[ir.ArithNumber]:
    """Each number an expression divides by (each must not be 0)."""
    for p in parts(expr):
        if isinstance(p, ir.ArithBinary) and divides(p.op) and isinstance(p.right, ir.ArithNumber):
            yield p.right


def spell(
    expr: ir.Arith,
    leaf: Callable[[ir.ArithInput | ir.ArithNumber], str],
    binary: Callable[[ir.ArithOp, str, str], str],
    call: Callable[[ir.ArithFunction, list[str]], str],
    rounding: Callable[[str, ir.Rounding], str],
    group: Callable[[str], str],
    rounding_groups: bool = True,
    step: Callable[[str, str], str] = lambda name, arg: f"{name}({arg})",
) -> str:
    """An expression written out by the given spellers, with parentheses where the
    precedence of ``+ - * /`` needs them; ``step``: a step or decision called on its
    values (issue 40)."""

    def go(e: ir.Arith) -> str:
        match e:
            case ir.ArithInput() | ir.ArithNumber():
                return leaf(e)
            case ir.ArithBinary(op=op, left=left, right=right, rounding=r):
                a, b = go(left), go(right)
                if isinstance(left, ir.ArithBinary) and (
                    PRECEDENCE[left.op] < PRECEDENCE[op]
                    or (rounding_groups and left.rounding is not None)
                ):
                    a = group(a)
                if isinstance(right, ir.ArithBinary) and (
                    PRECEDENCE[right.op] <= PRECEDENCE[op]
                    or (rounding_groups and right.rounding is not None)
                ):
                    b = group(b)
                text = binary(op, a, b)
                return text if r is None else rounding(text, r)
            case ir.ArithCall(function=function, args=args, rounding=r):
                text = call(function, [go(a) for a in args])
                return text if r is None else rounding(text, r)
            case ir.ArithStep(step=name, arg=arg, rounding=r):
                text = step(name, go(arg))
                return text if r is None else rounding(text, r)
            case ir.ArithDecision(decision=name, args=args):
                return step(name, ", ".join(go(a) for a in args))
            case _:
                assert_never(e)

    return go(expr)


def source(expr: ir.Arith, number: Callable[[float], str]) -> str:
    """The expression as the DSL writes it: ``abs(new_speed - speed)``,
    ``sensor_range / 2 rounded down - 2`` (a rounding binds to the product before it)."""

    def leaf(e: ir.ArithInput | ir.ArithNumber) -> str:
        if isinstance(e, ir.ArithInput):
            return e.input
        return number(e.value) + (f" {e.unit}" if e.unit else "")

    return spell(
        expr,
        leaf,
        lambda op, a, b: f"{a} {op} {b}",
        lambda f, args: f"{f}({', '.join(args)})",
        lambda text, r: f"{text} rounded {r}",
        lambda text: f"({text})",
        False,
    )
