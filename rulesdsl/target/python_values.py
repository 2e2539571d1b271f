"""IR values as Python source: literals, docstrings and the runtime values of the generated module
(for :mod:`rulesdsl.target.python`).
"""

from __future__ import annotations

import pprint
import subprocess
import textwrap
from fractions import Fraction
from typing import Any, ClassVar, assert_never

from rulesdsl import ir, semantics

WIDTH = 100
"""The generated modules' line length (ruff's setting for the project)."""


class Code:
    """Python source built here from already-safe parts; emitted as is."""

    def __init__(self, source: str) -> None:
        self.source = source

    def __repr__(self) -> str:
        return self.source

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Code) and other.source == self.source

    def __hash__(self) -> int:
        return hash(self.source)


def _plain(value: Any) -> Any:
    if isinstance(value, float):
        return tidy(value)
    if isinstance(value, list | tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if value is None or isinstance(value, str | int | Fraction | Code):
        return value
    raise TypeError(f"cannot emit {value!r}")  # pragma: no cover


STRING_PIECE = 60
"""Longest piece of a long string: a longer one is written as adjacent pieces, which the
formatter puts one per line, so no line of a module runs past WIDTH however deep it sits."""


def string_literal(text: str) -> str:
    """``text`` as Python source: repr's escapes, in double quotes as ruff format writes them,
    in pieces of at most STRING_PIECE characters (split after a space where there is one)."""
    pieces: list[str] = []
    while len(text) > STRING_PIECE:
        cut = text.rfind(" ", STRING_PIECE // 2, STRING_PIECE) + 1 or STRING_PIECE
        pieces.append(text[:cut])
        text = text[cut:]
    return " ".join(_quoted(piece) for piece in [*pieces, text])


def _quoted(text: str) -> str:
    literal = repr(text)
    if literal.startswith("'") and '"' not in text:
        literal = '"' + literal[1:-1].replace("\\'", "'") + '"'
    return literal


class _Printer(pprint.PrettyPrinter):
    """pprint, with strings written by :func:`string_literal` (never split by pprint)."""

    _dispatch: ClassVar[dict[Any, Any]] = {
        k: v
        for k, v in pprint.PrettyPrinter._dispatch.items()  # type: ignore[attr-defined]
        if k is not str.__repr__
    }

    def format(
        self, obj: object, context: dict[int, int], maxlevels: int, level: int
    ) -> tuple[str, bool, bool]:
        if isinstance(obj, str):
            return string_literal(obj), True, False
        return super().format(obj, context, maxlevels, level)


def py(value: Any, column: int = 0) -> str:
    """A Python literal for plain data; the module is laid out by the formatter afterwards
    (:func:`formatted`), so ``column`` only keeps pprint's first draft near its final shape."""
    printer = _Printer(width=max(40, WIDTH - column - 1), sort_dicts=False)
    return printer.pformat(_plain(value)).replace("\n", "\n" + " " * column)


def formatted(source: str) -> str:
    """``source`` laid out by ruff's formatter (black's style), at the pinned version the
    package depends on, so the same IR always gives the same bytes and every generated module
    passes `ruff format --check` as the project's own code does."""
    from ruff.__main__ import find_ruff_bin

    done = subprocess.run(
        [find_ruff_bin(), "format", "--isolated", "--line-length", str(WIDTH), "-"],
        input=source,
        capture_output=True,
        encoding="utf-8",  # whatever the locale: a module holds labels in every language
        check=False,
    )
    if done.returncode != 0:  # pragma: no cover - the backend writes valid Python
        raise RuntimeError(f"ruff format refused a generated module: {done.stderr}")
    return done.stdout


def doc(text: str) -> str:
    """Text made safe inside a triple-quoted docstring, on one line."""
    flat = " ".join(str(text).split())
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


def runtime(value: ir.Value | None) -> Any:
    """How an IR value looks in the generated module."""
    match value:
        case None:
            return None
        case ir.Number(value=v, unit=None):
            return tidy(v)
        case ir.Number(value=v, unit=unit):
            return Code(f"Quantity({py(v)}, {py(unit)})")
        case ir.Rate(amount=a, per=p):
            return Code(f"Rate({py(runtime(a))}, {py(runtime(p))})")
        case ir.Trade(gain=g, cost=c):
            return Code(f"Trade({py(runtime(g))}, {py(runtime(c))})")
        case ir.Span(low=lo, high=hi, unit=u):
            return Code(f"Span({py(lo)}, {py(hi)}, {py(u)})")
        case ir.Marker(marker=m):
            return Code(m.upper())
        case ir.Symbol(name=n):
            return n
        case ir.Flag(value=b):
            return b
        case ir.DiceValue(count=c, sides=s, bonus=b):
            return Code(f"Dice({c}, {s}, {b})")
        case ir.D66Value(bonus=b):
            return Code(f"D66({b})")
        case ir.Text(text=t):
            return t
        case ir.Same(resolved=r):
            return runtime(r)
        case ir.ParamRate(param=p):
            return p
        case ir.Given():
            return Code("GIVEN")
        case ir.Flat() | ir.Share() | ir.StepCost():
            raise ValueError(f"a cost paid once per move is not a cell value: {value!r}")
        case _:
            assert_never(value)


def per_distance(value: ir.Value, params: dict[str, float | None]) -> Any:
    """A movement cost per distance unit: a number, a marker, or an unfilled parameter's name."""
    cost = semantics.per_distance(value, params)
    match cost:
        case semantics.Unfilled(param=name):
            return name
        case ir.Marker(marker=m):
            return Code(m.upper())
        case float() | int():
            return tidy(cost)
        case _:
            assert_never(cost)


def source_text(rs: ir.Ruleset, info: ir.Info) -> str:
    src = info.source
    if src is None:
        return ""
    book = next((b for b in rs.books if b.id == src.book), None)
    title = next(iter(book.info.labels.values()), src.book) if book else src.book
    parts = [title, src.page or "", src.detail or ""]
    return ", ".join(p for p in parts if p)


def per_value(value: ir.Value | None) -> Any:
    """A modifier's value in the module: a number or a marker."""
    if value is None:
        return None
    if isinstance(value, ir.Marker):
        return Code(value.marker.upper())
    if isinstance(value, ir.Number):
        return tidy(value.value)
    return runtime(value)


def policy_entries(m: ir.Modifier) -> dict[str, Any]:
    """A modifier's policy, clamp, second context and combinations of two context values."""
    return {
        "combine": m.combine,
        "clamp": (tidy(m.clamp.low), tidy(m.clamp.high)) if m.clamp is not None else None,
        "context2": m.context2,
        "pairs": [
            (item, {(p.first, p.second): per_value(p.value) for p in pairs})
            for item, pairs in m.pairs.items()
        ],
    }
