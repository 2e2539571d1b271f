"""Plan values as Python source: literals, docstrings and the runtime values of the generated
module (for :mod:`rulesdsl.codegen.python`).
"""

from __future__ import annotations

import textwrap
from typing import Any, assert_never

from rulesdsl.codegen.plan import values as plan_values
from rulesdsl.codegen.python import layout as python_layout
from rulesdsl.codegen.python.layout import WIDTH
from rulesdsl.codegen.python.once_costs import once_py


class Code(python_layout.Atom):
    """Python source built here from already-safe parts; emitted as is (to the layout, an atom:
    never split)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return self.text


def py(value: Any, column: int = 0, indent: int = 0, tail: int = 1) -> str:
    """A Python literal for plain data, laid out as ruff's formatter would: it starts at
    ``column`` of a line indented by ``indent`` and is followed by ``tail`` characters on its
    last line (by default a comma). :func:`rulesdsl.codegen.python.layout.layout_value` reads
    the plain data itself (a float as :func:`tidy` writes it, a list as a tuple), so no plain
    copy of the value is made first, nor a layout tree where the tree would not change the
    text (issue 44)."""
    return python_layout.layout_value(value, indent, column, tail)


def doc(text: str) -> str:
    """Text made safe inside a triple-quoted docstring, on one line."""
    flat = " ".join(str(text).split())
    if not flat.isprintable():  # a check in C first: most texts are (issue 44)
        flat = "".join(ch for ch in flat if ch.isprintable())
    flat = flat.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return flat + " " if flat.endswith('"') else flat


def tidy(number: float) -> float:
    return int(number) if isinstance(number, float) and number.is_integer() else number


def export_order(name: str) -> tuple[int, str]:
    """isort's order for ``__all__``: CONSTANTS, then Classes, then functions."""
    return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)


def docstring(text: str, indent: int, first: int | None = None, tail: int = 0) -> str:
    """Docstring body text wrapped so that no line passes WIDTH: the lines after the first
    start at column ``indent``; the first starts at column ``first`` (after opening quotes,
    ``indent`` if not given); ``tail`` characters (closing quotes) follow the last line."""
    offset = 0 if first is None else first - indent
    wrapped = textwrap.fill(
        doc(text),
        width=WIDTH - indent - tail,
        initial_indent=" " * offset,
        subsequent_indent=" " * indent,
        break_on_hyphens=False,
    )
    return wrapped[offset:]


def literal_py(value: plan_values.Literal) -> Any:
    """A plan literal as the generated module writes it: plain data, or a record's call."""
    match value:
        case bool() | str() | None:
            return value
        case float() | int():
            return tidy(value)
        case plan_values.Quantity(value=v, unit=unit):
            return Code(f"Quantity({py(tidy(v))}, {py(unit)})")
        case plan_values.Rate(amount=a, per=p):
            return Code(f"Rate({py(literal_py(a))}, {py(literal_py(p))})")
        case plan_values.Trade(gain=g, cost=c):
            return Code(f"Trade({py(literal_py(g))}, {py(literal_py(c))})")
        case plan_values.Span(low=lo, high=hi, unit=u):
            return Code(f"Span({py(lo)}, {py(hi)}, {py(u)})")
        case plan_values.Mark(marker=m):
            return Code(m.upper())
        case plan_values.Dice(count=c, sides=s, bonus=b):
            return Code(f"Dice({c}, {s}, {b})")
        case plan_values.D66(bonus=b):
            return Code(f"D66({b})")
        case plan_values.Given():
            return Code("GIVEN")
        case _:
            assert_never(value)


def per_distance_py(cost: plan_values.PerDistance) -> Any:
    """A cost per distance as the module writes it: a number, a marker, or the unfilled
    parameter's name."""
    match cost:
        case float() | int():  # the most common, first (issue 44)
            return tidy(cost)
        case plan_values.Unfilled(param=name):
            return name
        case plan_values.Mark():
            return literal_py(cost)
        case _:
            assert_never(cost)


def cell_py(value: plan_values.Literal | plan_values.OnceCost) -> Any:
    """A cell as the module carries it: a plan literal, or a cost paid once per move (a
    step's ``StepCost`` record as a modifier's or a sight rule's value)."""
    if isinstance(value, plan_values.Flat | plan_values.Share | plan_values.StepCost):
        return Code(once_py(value))
    return literal_py(value)  # mypy names a new member of either union here or in literal_py
