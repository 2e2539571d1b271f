"""A walk over any IR value: every node (frozen dataclass) with the nodes that enclose it.

The passes that look for a kind of node wherever it sits (sizes, numbers, dice, labels) share
one walk: :func:`rulesdsl.checks.run` lists the nodes once and hands the list to each of them,
so the checks walk the whole IR once, not once per pass. A node reached twice (a cost cell
shared by several modes) is listed once.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from functools import cache
from typing import Any, cast

Nodes = list[tuple[object, tuple[object, ...]]]
"""Each node of a walk and its enclosing nodes, itself first, in the order of the walk."""

_LEAVES = frozenset({str, int, float, bool, type(None)})
"""Types that hold no node: the walk never descends into a value of one of these."""


def nodes(root: object) -> Nodes:
    """Each node under ``root`` (``root`` first) and its enclosing nodes, itself first: a
    depth-first walk in field order, each node once."""
    out: Nodes = []
    _collect(root, (), set(), out)
    return out


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


def _collect(node: object, owners: tuple[object, ...], seen: set[int], out: Nodes) -> None:
    """Append the nodes under ``node`` to ``out``: a plain recursive function, not nested
    generators (a generator per level cost a resumption per level for every node)."""
    if isinstance(node, tuple | list):
        for item in node:
            if type(item) not in _LEAVES:
                _collect(item, owners, seen, out)
    elif isinstance(node, dict):
        for item in node.values():
            if type(item) not in _LEAVES:
                _collect(item, owners, seen, out)
    elif (names := _node_fields(cast(Any, type(node)))) is not None:
        if id(node) in seen:
            return
        seen.add(id(node))
        inner = (node, *owners)
        out.append((node, inner))
        for name in names:
            value = getattr(node, name)
            if type(value) not in _LEAVES:
                _collect(value, inner, seen, out)


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
