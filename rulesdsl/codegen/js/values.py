"""The plan's literals as JavaScript source (for :mod:`rulesdsl.codegen.js`): one
``<node>_js`` function per literal of :mod:`rulesdsl.codegen.plan.values`."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import assert_never

from rulesdsl.codegen.plan import values as plan_values

RESERVED = frozenset(
    [
        "await",
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "implements",
        "import",
        "in",
        "instanceof",
        "interface",
        "let",
        "new",
        "null",
        "package",
        "private",
        "protected",
        "public",
        "return",
        "static",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
        "yield",
    ]
)
"""JavaScript's reserved words: no variable or parameter may be one."""


def number_js(value: float) -> str:
    """A number as JavaScript writes it: integral numbers without a fraction, the shortest
    decimals that read back the same double otherwise (Python's repr is valid JavaScript)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return repr(value)


def string_js(text: str) -> str:
    """A string literal (JSON's escapes are JavaScript's; U+2028/9 escaped for old parsers)."""
    return (
        json.dumps(text, ensure_ascii=False)
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def union(names: Iterable[str]) -> str:
    """A string-literal union (``never`` when there is no name)."""
    names = list(dict.fromkeys(names))
    return " | ".join(string_js(n) for n in names) if names else "never"


def comment(text: str) -> str:
    """A documentation comment that no text can close early."""
    return "/** " + text.replace("*/", "*\\/") + " */"


def line_comment(text: str) -> str:
    """A ``//`` comment of one line, whatever ``text`` holds."""
    return "// " + " ".join(text.split())


def key_js(key: float | str) -> str:
    return string_js(key) if isinstance(key, str) else number_js(key)


def labels_js(labels: Mapping[str, str]) -> str:
    """A text by language (labels) as a frozen object literal."""
    items = ", ".join(f"{string_js(k)}: {string_js(v)}" for k, v in labels.items())
    return f"Object.freeze({{{items}}})"


def literal_js(value: plan_values.Literal) -> str:
    """A cell value as the JavaScript module carries it."""
    match value:
        case None:
            return "null"
        case bool():
            return "true" if value else "false"
        case float() | int():
            return number_js(value)
        case str():
            return string_js(value)
        case plan_values.Quantity(value=v, unit=unit):
            return f"new Quantity({number_js(v)}, {string_js(unit)})"
        case plan_values.Rate(amount=a, per=p):
            return f'_record("rate", {{amount: {literal_js(a)}, per: {literal_js(p)}}})'
        case plan_values.Trade(gain=g, cost=c):
            return f'_record("trade", {{gain: {literal_js(g)}, cost: {literal_js(c)}}})'
        case plan_values.Span(low=lo, high=hi, unit=unit):
            u = "null" if unit is None else string_js(unit)
            return f'_record("span", {{low: {number_js(lo)}, high: {number_js(hi)}, unit: {u}}})'
        case plan_values.Mark(marker=m):
            return m.upper()
        case plan_values.Dice(count=c, sides=s, bonus=b):
            return f'_record("dice", {{number: {c}, sides: {s}, bonus: {b}}})'
        case plan_values.D66(bonus=b):
            return f'_record("d66", {{bonus: {b}}})'
        case plan_values.Given():
            return "GIVEN"
        case _:
            assert_never(value)


def cell_js(value: plan_values.Literal | plan_values.OnceCost) -> str:
    """A cell as the JavaScript module carries it: a plan literal, or a cost paid once per
    move (a step's ``StepCost`` as a modifier's value)."""
    match value:
        case plan_values.StepCost(step=step, param=param):
            return f"new StepCost({string_js(step)}, {string_js(param)})"
        case plan_values.Flat(amount=amount):
            return f'_record("flat", {{amount: {number_js(amount)}}})'
        case plan_values.Share(numerator=n, denominator=d, but=but):
            return f'_record("share", {{numerator: {n}, denominator: {d}, but: {number_js(but)}}})'
        case (
            None
            | bool()
            | float()
            | int()
            | str()
            | plan_values.Quantity()
            | plan_values.Rate()
            | plan_values.Trade()
            | plan_values.Span()
            | plan_values.Mark()
            | plan_values.Dice()
            | plan_values.D66()
            | plan_values.Given()
        ):
            return literal_js(value)
        case _:
            assert_never(value)
