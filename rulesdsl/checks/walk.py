"""A walk over any IR value: every node (frozen dataclass) with the nodes that enclose it.

The passes that look for a kind of node wherever it sits (sizes, numbers, dice, labels) share
one walk: :func:`rulesdsl.checks.run` lists the nodes once and hands the list to each of them,
so the checks walk the whole IR once, not once per pass. A node reached twice (a cost cell
shared by several modes) is listed once.

The walk also marks the few nodes the sizes and numbers passes can have anything to say about
(:attr:`Nodes.marked`): a node with a field that holds, directly or in its plain tuples, lists
and dicts, a string longer than ``MAX_STRING_CHARS``, a tuple longer than ``MAX_TABLE_ROWS``, a
number beyond ``MAX_MAGNITUDE`` (or not finite), or a value of any other kind. Those two passes
read only the marked nodes (issue 44: each read every field of every node, 350,000 fields for
5,000 features); a mark is a superset of what they report, and they judge it as before.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from functools import cache
from typing import Any, cast

from rulesdsl.sources import MAX_STRING_CHARS, MAX_TABLE_ROWS

MAX_MAGNITUDE = 1e9
"""The largest number a ruleset may write, in absolute value (the numbers pass's bound)."""


class Nodes(list[tuple[object, tuple[object, ...]]]):
    """Each node of a walk and its enclosing nodes, itself first, in the order of the walk;
    ``marked``: the positions in the list of the nodes that may hold a string, a table or a
    number over its bound (see the module's docstring); None when not known (every node may)."""

    marked: set[int] | None = None


_LEAVES = frozenset({str, int, float, bool, type(None)})
"""Types that hold no node: the walk never descends into a value of one of these."""


def nodes(root: object) -> Nodes:
    """Each node under ``root`` (``root`` first) and its enclosing nodes, itself first: a
    depth-first walk in field order, each node once."""
    out = Nodes()
    out.marked = set()
    _collect(root, (), set(), out, out.marked)
    return out


def marked(listed: Nodes) -> Iterator[tuple[object, tuple[object, ...]]]:
    """The nodes of a walk the sizes and numbers passes need to read, in the walk's order:
    the marked ones, or all when the list has no marks."""
    if listed.marked is None:
        yield from listed
    else:
        for i in sorted(listed.marked):
            yield listed[i]


def numbers(node: object) -> list[tuple[str, float]]:
    """The numbers held directly by ``node``'s fields (in a tuple or dict too), by field."""
    out: list[tuple[str, float]] = []
    for name in _field_names(cast(Any, type(node))):
        value = getattr(node, name)
        kind = type(value)
        if kind is float:
            out.append((name, value))
        elif kind is tuple or kind is list or kind is dict:
            items = value.values() if kind is dict else value
            for item in items:
                if type(item) is float:
                    out.append((name, item))
                elif _node_fields(cast(Any, type(item))) is None:  # a node holds its own
                    out.extend((name, number) for number in _numbers_in(item))
        elif (kind not in _LEAVES or kind is int) and _node_fields(cast(Any, kind)) is None:
            out.extend((name, number) for number in _numbers_in(value))  # an int, a subclass
    return out


def field_names(node: object) -> tuple[str, ...]:
    """The field names of ``node``'s class (asked of ``dataclasses`` once per class)."""
    return _field_names(cast(Any, type(node)))


def _collect(
    node: object, owners: tuple[object, ...], seen: set[int], out: Nodes, marks: set[int]
) -> bool:
    """Append the nodes under ``node`` to ``out`` and the positions of the ones to read to
    ``marks``: a plain recursive function, not nested generators (a generator per level cost a
    resumption per level for every node). True when ``node`` is a plain value (not a node)
    that may hold a string, a table or a number over its bound, or a value of another kind."""
    kind = type(node)
    if kind is tuple or kind is list or kind is dict:
        plain = cast(Any, node)
        odd = len(plain) > MAX_TABLE_ROWS
        for item in plain.values() if kind is dict else plain:
            if _odd(item, owners, seen, out, marks):
                odd = True
        return odd
    if (names := _node_fields(cast(Any, kind))) is not None:
        if id(node) in seen:
            return False
        seen.add(id(node))
        inner = (node, *owners)
        at = len(out)
        out.append((node, inner))
        odd = False
        for name in names:
            if _odd(getattr(node, name), inner, seen, out, marks):
                odd = True
        if odd:
            marks.add(at)
        return False
    if isinstance(node, tuple | list | dict):  # a subclass: walked as before, always read
        items = node.values() if isinstance(node, dict) else node
        for item in items:
            if type(item) not in _LEAVES:
                _collect(item, owners, seen, out, marks)
    return True  # another kind of value: the passes read it


def _odd(
    value: object, owners: tuple[object, ...], seen: set[int], out: Nodes, marks: set[int]
) -> bool:
    """Whether a field's value (or an item of a plain value) may be over a bound; nodes and
    plain values under it walked."""
    kind = type(value)
    if kind is float or kind is int:  # nan compares false: marked too
        return not -MAX_MAGNITUDE <= cast(float, value) <= MAX_MAGNITUDE
    if kind is str:
        return len(cast(str, value)) > MAX_STRING_CHARS
    if kind is bool or value is None:
        return False
    return _collect(value, owners, seen, out, marks)


def _numbers_in(value: object) -> Iterator[float]:
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        try:
            number = float(value)
        except OverflowError:  # an int beyond every float: as unusable as an infinity
            number = math.inf if value > 0 else -math.inf
        yield number
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _numbers_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _numbers_in(item)


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


@cache
def _node_fields(cls: type) -> tuple[str, ...] | None:
    """The field names of a node class; None for any other class (asked once per class)."""
    return _field_names(cls) if dataclasses.is_dataclass(cls) else None
