"""Python literals laid out as ruff's formatter lays them out (black's style, line length
WIDTH), so that a generated module comes out formatted with no formatter at run time.

A value becomes a small tree: atoms, strings (in pieces of at most STRING_PIECE characters),
collections, calls, ``key: value`` entries and ``name=value`` arguments. Laying it out follows
the formatter's rules for these few shapes: a group that fits on the rest of its line stays
on it; otherwise a collection puts one element a line (a trailing comma after each when it has
more than one, or is a tuple of one), and a call first tries all its arguments on one indented
line. A string in pieces is joined into one literal when that fits, else its pieces go one a
line. ``tests/test_module_layout.py`` holds the layouts to ``ruff format --check``.

Most of a large module's data is plain dicts, tuples, strings and numbers that fit on their
line, or dicts broken one entry a line: :func:`layout_value` and :func:`layout_entry` lay those
out from the values themselves, with no tree, and hand the rest to the tree
(``tests/test_layout_values.py`` holds them to the tree's text).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, assert_never

WIDTH = 100
"""The generated modules' line length (ruff's setting for the project)."""

STRING_PIECE = 60
"""Longest piece of a long string: a longer one is written as adjacent pieces, one a line
when they do not fit on one, so no line of a module runs past WIDTH however deep it sits."""


# ---- the tree ---------------------------------------------------------------------------------
# Slotted, not frozen: a frozen dataclass sets each field through object.__setattr__, which made
# building the tree of a big module's data (a node per value) a third slower (issue 44). Nothing
# changes a node once made; they stay hashable (``unsafe_hash``) and compare by value.


@dataclass(slots=True, unsafe_hash=True)
class Atom:
    """Source that is never split: a number, a name, a short call such as ``Dice(1, 6, 3)``."""

    text: str


@dataclass(slots=True, unsafe_hash=True)
class Str:
    """A string: its pieces as source literals, and the whole text (to join them)."""

    text: str
    pieces: tuple[str, ...]


@dataclass(slots=True, unsafe_hash=True)
class Group:
    """A collection: ``open``, the elements, ``close``; ``one_tuple`` for ``(x,)``;
    ``exploded``: one element a line even where it would fit on one (a trailing comma after
    the last, as written by hand, tells the formatter to keep it so)."""

    open: str
    items: tuple[Node, ...]
    close: str
    one_tuple: bool = False
    exploded: bool = False


@dataclass(slots=True, unsafe_hash=True)
class Call:
    """``function(arguments)``; ``exploded``: one argument a line, each with a trailing comma,
    when the call does not fit on its line (as written by hand, so the formatter keeps it),
    rather than all the arguments on one indented line first."""

    function: str
    args: tuple[Node, ...]
    exploded: bool = False


@dataclass(slots=True, unsafe_hash=True)
class Entry:
    """``key: value`` in a dict, or ``key=value`` with ``sep="="`` in a call."""

    key: str | Group
    value: Node
    sep: str = ": "


Node = Atom | Str | Group | Call | Entry


def width(text: str) -> int:
    """How many columns ``text`` takes as ruff counts them: 2 for a wide (East Asian) character,
    0 for a combining mark, else 1."""
    if text.isascii():
        return len(text)
    return sum(map(_COLUMNS.__getitem__, text))


class _Columns(dict[str, int]):
    """Each character's columns, looked up in the Unicode database once per character (issue 44:
    a module in Russian measured each line's every character again, a third of its render)."""

    def __missing__(self, ch: str) -> int:
        columns = (
            2
            if unicodedata.east_asian_width(ch) in "WF"
            else 0
            if unicodedata.category(ch) in ("Mn", "Me")
            else 1
        )
        self[ch] = columns
        return columns


_COLUMNS = _Columns()


# ---- strings as ruff writes them --------------------------------------------------------------


def quoted(text: str) -> str:
    """``text`` as one string literal: repr's escapes, in the quotes ruff prefers (double,
    unless the text holds more double quotes than single ones)."""
    literal = repr(text)
    # repr chose double quotes only for a text with ' and no ": nothing to unescape then
    body = literal[1:-1] if literal[0] == '"' else literal[1:-1].replace("\\'", "'")
    quote = "'" if text.count('"') > text.count("'") else '"'
    return quote + body.replace(quote, "\\" + quote) + quote


@lru_cache(maxsize=1 << 16)  # a module repeats its names and labels many times
def string(text: str) -> Str:
    """``text`` in pieces of at most STRING_PIECE characters (cut after a space where there
    is one)."""
    pieces: list[str] = []
    rest = text
    while len(rest) > STRING_PIECE:
        cut = rest.rfind(" ", STRING_PIECE // 2, STRING_PIECE) + 1 or STRING_PIECE
        pieces.append(rest[:cut])
        rest = rest[cut:]
    return Str(text, tuple(quoted(piece) for piece in [*pieces, rest]))


# ---- values as trees -----------------------------------------------------------------------


def call(function: str, *args: Any, exploded: bool = False) -> Call:
    """``function(args)`` of plain values, each laid out as :func:`tree` makes it."""
    return Call(function, tuple([tree(a) for a in args]), exploded)


def tree(value: Any) -> Node:
    """The tree of a plain value (dicts, tuples, strings, numbers, None); a node (a
    python_values.Code is an Atom) as it is."""
    kind = type(value)  # the most common kinds first, by type (issue 29: big modules)
    if kind is str:
        return string(value)
    if kind is dict:
        return Group("{", tuple([dict_entry(tree(k), tree(v)) for k, v in value.items()]), "}")
    if kind is tuple or kind is list:
        items = tuple([tree(v) for v in value])
        return Group("(", items, ")", len(items) == 1)
    if kind is int:
        return Atom(repr(value))
    if kind is float:
        return Atom(repr(int(value)) if value.is_integer() else repr(value))
    if isinstance(value, Atom | Str | Group | Call | Entry):
        return value
    if isinstance(value, str):
        return string(value)
    if isinstance(value, bool) or value is None:
        return Atom(repr(value))
    if isinstance(value, float):
        return Atom(repr(int(value)) if value.is_integer() else repr(value))
    if isinstance(value, int | Fraction):
        return Atom(repr(value))
    if isinstance(value, dict):
        return Group("{", tuple(dict_entry(tree(k), tree(v)) for k, v in value.items()), "}")
    if isinstance(value, list | tuple):
        items = tuple(tree(v) for v in value)
        return Group("(", items, ")", one_tuple=len(items) == 1)
    raise TypeError(f"cannot emit {value!r}")  # pragma: no cover


def flat_value(value: Any) -> str:
    """``flat(tree(value))``, read from the plain value itself: no tree is made to find that a
    value fits on its line, as most of a module's data does (issue 44). Kinds other than the
    common plain ones go through the tree."""
    kind = type(value)
    if kind is str:
        return _flat_string(value)
    if kind is int:
        return repr(value)
    if kind is dict:
        return _braced(_entry_parts(value))
    if kind is tuple or kind is list:
        return _parenthesized([flat_value(v) for v in value])
    if isinstance(value, Atom):  # python_values.Code
        return value.text
    return flat(tree(value))


def _entry_parts(value: dict[Any, Any]) -> list[str]:
    return [flat_value(k) + ": " + flat_value(v) for k, v in value.items()]


def _braced(parts: list[str]) -> str:
    return "{" + ", ".join(parts) + "}"


def _parenthesized(parts: list[str]) -> str:
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


@lru_cache(maxsize=1 << 16)
def _flat_string(text: str) -> str:
    """``flat(string(text))``: the string as one literal."""
    return flat(string(text))


def dict_entry(key: Node, value: Node) -> Entry:
    """``key: value`` in a dict."""
    return Entry(key if isinstance(key, Group) else flat(key), value)


# ---- laying out ------------------------------------------------------------------------------


def flat(node: Node) -> str:
    """``node`` on one line."""
    kind = type(node)
    if kind is Atom:  # the most common, first, without the match below
        return node.text  # type: ignore[union-attr]
    if kind is Str:
        pieces = node.pieces  # type: ignore[union-attr]
        return pieces[0] if len(pieces) == 1 else quoted(node.text)  # type: ignore[union-attr]
    if kind is Group:
        items = node.items  # type: ignore[union-attr]
        one = node.one_tuple  # type: ignore[union-attr]
        return node.open + ", ".join(map(flat, items)) + ("," if one else "") + node.close  # type: ignore[union-attr]
    match node:
        case Atom(text=text):
            return text
        case Str(text=text, pieces=pieces):
            return pieces[0] if len(pieces) == 1 else quoted(text)
        case Group(open=o, items=items, close=c, one_tuple=one):
            return o + ", ".join(map(flat, items)) + ("," if one else "") + c
        case Call(function=f, args=args):
            return f + "(" + ", ".join(map(flat, args)) + ")"
        case Entry(key=k, value=v, sep=sep):
            return (k if isinstance(k, str) else flat(k)) + sep + flat(v)
        case _:
            assert_never(node)


def layout_value(value: Any, indent: int, column: int, tail: int = 0) -> str:
    """``layout(tree(value), ...)``, read from the plain value itself: a value that fits on its
    line, and a dict or tuple broken one element a line, need no tree, and each element's one
    line form is made once (issue 44: most of a big module's data). Other kinds, and a value
    given as a node, go through the tree."""
    kind = type(value)
    if kind is str:  # the most common
        one_line = _flat_string(value)
    elif kind is dict:
        parts = _entry_parts(value)
        one_line = _braced(parts)
    elif kind is tuple or kind is list:
        parts = [flat_value(v) for v in value]
        one_line = _parenthesized(parts)
    elif isinstance(value, Group):  # it may be ``exploded``
        return layout(value, indent, column, tail)
    else:
        one_line = flat_value(value)
    if column + width(one_line) + tail <= WIDTH:
        return one_line
    if kind is dict:
        comma = len(parts) > 1
        room = WIDTH - indent - 4 - comma  # an entry that fits is its one line form
        laid = [
            part if width(part) <= room else layout_entry(k, v, indent + 4, int(comma))
            for part, (k, v) in zip(parts, value.items(), strict=True)
        ]
        return _one_a_line("{", laid, "}", comma, indent)
    if kind is tuple or kind is list:
        room = WIDTH - indent - 5  # so is an element, unless it is a group (maybe exploded)
        laid = [
            part
            if width(part) <= room and not isinstance(v, Group)
            else layout_value(v, indent + 4, indent + 4, 1)
            for part, v in zip(parts, value, strict=True)
        ]
        return _one_a_line("(", laid, ")", True, indent)  # a comma after each: (x,) too
    return layout(tree(value), indent, column, tail)


def layout_entry(key: Any, value: Any, indent: int, tail: int) -> str:
    """``layout(dict_entry(tree(key), tree(value)), indent, indent, tail)``: ``key: value`` as
    an element of a dict laid out one entry a line at ``indent``, with no tree for an entry
    that fits on its line or has a string key (a tuple key, or a node as the value, may need
    the tree's own rules when it does not fit)."""
    if type(key) is str and not isinstance(value, Group):
        head = _flat_string(key) + ": "
        return head + layout_value(value, indent, indent + width(head), tail)
    one_line = flat_value(key) + ": " + flat_value(value)
    if indent + width(one_line) + tail <= WIDTH:
        return one_line
    return layout(dict_entry(tree(key), tree(value)), indent, indent, tail)


def layout(node: Node, indent: int, column: int, tail: int = 0) -> str:
    """``node`` as source that starts at ``column`` of a line indented by ``indent``, with
    ``tail`` characters after it on its last line (a comma, a closing bracket)."""
    one_line = flat(node)
    forced = isinstance(node, Group) and node.exploded and len(node.items) > 1
    if column + width(one_line) + tail <= WIDTH and not forced:
        return one_line
    inner = " " * (indent + 4)
    match node:
        case Atom(text=text):
            return text
        case Str(pieces=pieces):
            return ("\n" + " " * indent).join(pieces)
        case Entry(key=k, value=v, sep=sep):
            if isinstance(k, Group):
                return _group_entry(k, v, sep, indent, column, tail)
            return k + sep + layout(v, indent, column + width(k) + width(sep), tail)
        case Group():
            return _broken(node, indent)
        case Call(function=f, args=args, exploded=exploded):
            if len(args) == 1 and not exploded:
                return f"{f}(\n{inner}{layout(args[0], indent + 4, indent + 4)}\n{' ' * indent})"
            joined = ", ".join(map(flat, args))
            if indent + 4 + width(joined) <= WIDTH and not exploded:
                return f"{f}(\n{inner}{joined}\n{' ' * indent})"
            lines = [inner + layout(a, indent + 4, indent + 4, 1) + "," for a in args]
            return f + "(\n" + "\n".join(lines) + "\n" + " " * indent + ")"
        case _:
            assert_never(node)


def _group_entry(key: Group, value: Node, sep: str, indent: int, column: int, tail: int) -> str:
    """An entry keyed by a tuple: the value breaks first; the key too when the line up to the
    value's first break is still too long."""
    head = flat(key) + sep
    laid = layout(value, indent, column + width(head), tail)
    if column + width(head) + width(laid.split("\n")[0]) <= WIDTH:
        return head + laid
    return _broken(key, indent) + sep + layout(value, indent, indent + 1 + width(sep), tail)


def _broken(group: Group, indent: int) -> str:
    """``group`` one element a line."""
    comma = len(group.items) > 1 or group.one_tuple
    laid = [layout(item, indent + 4, indent + 4, int(comma)) for item in group.items]
    return _one_a_line(group.open, laid, group.close, comma, indent)


def _one_a_line(open_: str, laid: list[str], close: str, comma: bool, indent: int) -> str:
    """A collection's elements, each already laid out, one a line between ``open_`` and
    ``close`` (a trailing comma after each when ``comma``)."""
    inner = " " * (indent + 4)
    end = "," if comma else ""
    lines = [inner + text + end for text in laid]
    return open_ + "\n" + "\n".join(lines) + "\n" + " " * indent + close


def statement(head: str, node: Node, indent: int = 0) -> str:
    """``head`` (``NAME: Final = ``) then ``node``. A string that does not fit goes in
    parentheses, on its own line if it fits there, else one piece a line (a string of one
    piece that fits nowhere stays where it is)."""
    one_line = flat(node)
    if isinstance(node, Str) and indent + width(head) + width(one_line) > WIDTH:
        inner = "\n" + " " * (indent + 4)
        if indent + 4 + width(one_line) <= WIDTH:
            return f"{head}({inner}{one_line}\n{' ' * indent})"
        if len(node.pieces) > 1:
            return f"{head}({inner}{inner.join(node.pieces)}\n{' ' * indent})"
    return head + layout(node, indent, indent + width(head))


def def_line(
    name: str, params: list[str], returns: str, indent: int = 0, exploded: bool = False
) -> str:
    """``def name(params) -> returns:`` on one line if it fits, else its parameters on one
    indented line (unless ``exploded``), else one a line with a trailing comma."""
    pad, inner = " " * indent, " " * (indent + 4)
    joined = ", ".join(params)
    if indent + width(f"def {name}({joined}) -> {returns}:") <= WIDTH:
        return f"def {name}({joined}) -> {returns}:"
    if indent + 4 + width(joined) <= WIDTH and not exploded:
        return f"def {name}(\n{inner}{joined}\n{pad}) -> {returns}:"
    return f"def {name}(\n" + "".join(f"{inner}{p},\n" for p in params) + f"{pad}) -> {returns}:"


def condition(keyword: str, test: str, operator: str, indent: int) -> str:
    """``keyword (test):`` (``if not``), the test in parentheses laid out as ruff lays out a
    boolean operation: on the line, else alone on an indented line, else one operand a line
    led by ``operator`` (the test's operands are joined by `` operator `` at its top level)."""
    pad, inner = " " * indent, " " * (indent + 4)
    one_line = f"{keyword} ({test}):"
    if indent + width(one_line) <= WIDTH:
        return one_line
    if indent + 4 + width(test) <= WIDTH:
        return f"{keyword} (\n{inner}{test}\n{pad}):"
    head, *rest = test.split(f" {operator} ")
    return (
        f"{keyword} (\n{inner}{head}\n"
        + "".join(f"{inner}{operator} {part}\n" for part in rest)
        + f"{pad}):"
    )
