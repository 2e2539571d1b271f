"""A walk over any IR value: every node (frozen dataclass) with the nodes that enclose it.

The passes that look for a kind of node wherever it sits (numbers, rates, dice) share it. A
node reached twice (a cost cell shared by several modes) is visited once.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from functools import cache
from typing import Any, cast


def nodes(root: object) -> Iterator[tuple[object, tuple[object, ...]]]:
    """Each node under ``root`` (``root`` first) and its enclosing nodes, itself first."""
    yield from _nodes(root, (), set())


def numbers(node: object) -> Iterator[tuple[str, float]]:
    """The numbers held directly by ``node``'s fields (in a tuple or dict too), by field."""
    for name in _field_names(cast(Any, type(node))):
        yield from ((name, number) for number in _numbers_in(getattr(node, name)))


def field_names(node: object) -> tuple[str, ...]:
    """The field names of ``node``'s class (asked of ``dataclasses`` once per class)."""
    return _field_names(cast(Any, type(node)))


def _nodes(
    node: object, owners: tuple[object, ...], seen: set[int]
) -> Iterator[tuple[object, tuple[object, ...]]]:
    if isinstance(node, tuple | list):
        for item in node:
            yield from _nodes(item, owners, seen)
    elif isinstance(node, dict):
        for item in node.values():
            yield from _nodes(item, owners, seen)
    elif (names := _node_fields(cast(Any, type(node)))) is not None:
        if id(node) in seen:
            return
        seen.add(id(node))
        inner = (node, *owners)
        yield node, inner
        for name in names:
            yield from _nodes(getattr(node, name), inner, seen)


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
