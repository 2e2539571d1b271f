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

The walk of each node class is a function written once for it (on first use), with the test of
each of its fields written out in field order: a call per field was half of the walk's time,
and the walk is paid by every compile (issue 44). Their code is kept between runs with the
dataclasses' (:func:`rulesdsl.ir.records.exec_kept`).
"""

from __future__ import annotations

import dataclasses
import math
import textwrap
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any, cast

from rulesdsl.ir.records import exec_kept
from rulesdsl.sources import MAX_STRING_CHARS, MAX_TABLE_ROWS

MAX_MAGNITUDE = 1e9
"""The largest number a ruleset may write, in absolute value (the numbers pass's bound)."""


class Nodes:
    """Each node of a walk, in the order of the walk, with the nodes that enclose it; item
    ``i`` is (the node, its enclosing nodes, itself first). ``marked``: the positions in the
    list of the nodes that may hold a string, a table or a number over its bound (see the
    module's docstring); None when not known (every node may). ``Nodes(listed)``: the same
    nodes with no marks.

    The walk keeps each node's enclosing node as its position (``parents``; -1 for the root)
    and makes the tuple of enclosing nodes only for a node a pass reads (issue 44: a tuple
    for each node was a fifth of the walk's time)."""

    def __init__(self, listed: Nodes | None = None) -> None:
        self.nodes: list[object] = [] if listed is None else listed.nodes
        self.parents: list[int] = [] if listed is None else listed.parents
        self.marked: set[int] | None = None
        self._kinds: dict[type, list[int]] | None = None

    def __len__(self) -> int:
        return len(self.nodes)

    def __getitem__(self, at: int) -> tuple[object, tuple[object, ...]]:
        node = self.nodes[at]
        owners = [node]
        at = self.parents[at]
        while at >= 0:
            owners.append(self.nodes[at])
            at = self.parents[at]
        return node, tuple(owners)

    def __iter__(self) -> Iterator[tuple[object, tuple[object, ...]]]:
        return (self[i] for i in range(len(self.nodes)))

    def positions(self, test: Callable[[type], bool]) -> list[int]:
        """The positions in the list of the nodes whose class passes ``test``, in the walk's
        order: a pass after a few classes asks each class once, not each node (issue 44)."""
        if self._kinds is None:
            self._kinds = {}
            for i, node in enumerate(self.nodes):
                self._kinds.setdefault(type(node), []).append(i)
        picked = [i for kind, at in self._kinds.items() if test(kind) for i in at]
        picked.sort()
        return picked


_LEAVES = frozenset({str, int, float, bool, type(None)})
"""Types that hold no node: the walk never descends into a value of one of these."""


def nodes(root: object) -> Nodes:
    """Each node under ``root`` (``root`` first) and its enclosing nodes, itself first: a
    depth-first walk in field order, each node once."""
    out = Nodes()
    out.marked = set()
    _collect(root, -1, set(), out, out.marked)
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


Visit = Callable[[Any, int, set[int], Nodes, set[int]], bool]
"""A step of the walk: (a value, the position in the list of the node that holds it, -1 for
none; the ids of the nodes listed, the list, the marks). Lists the nodes under the value (each
once) and marks those with a field that may be over a bound; True when the value is a plain
one (not a node) that may be. A node class's visit is called only for a node not listed yet
(the caller asks ``seen``)."""

_ODD = """\
    kind = type(value)
    if kind is str:
        if len(value) > MAX_STRING_CHARS:
            odd = True
    elif kind is float or kind is int:  # nan compares false: marked too
        if not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
            odd = True
    elif kind is bool or value is None:
        pass
    elif kind is tuple or kind is list or kind is dict:
        if value and _plain(value, at, seen, out, marks):  # an empty one holds nothing
            odd = True
    elif (visit := _VISITORS[kind]) is not None:
        if id(value) not in seen:  # a node reached again (one value for many modes): no call
            visit(value, at, seen, out, marks)
    elif _other(value, at, seen, out, marks):
        odd = True
"""
"""Whether ``value`` may be over a bound (``odd``), the nodes and plain values under it
walked: the text the walk's functions are written with, for each place a value is read (a
field of a node class, an item of a plain value), so that reading one costs no call."""


def _other(value: object, at: int, seen: set[int], out: Nodes, marks: set[int]) -> bool:
    """A value of another kind: walked as before when a subclass of a plain one, always read."""
    if isinstance(value, tuple | list | dict):
        for item in value.values() if isinstance(value, dict) else value:
            if type(item) not in _LEAVES:
                _collect(item, at, seen, out, marks)
    return True


def _written(text: str, name: str) -> Any:
    """The function ``name`` that ``text`` defines, with :data:`_SCOPE` for its globals (the
    functions the walk writes call each other by name)."""
    made: dict[str, Any] = {}
    exec_kept(text, _SCOPE, made)
    return made[name]


_SCOPE: dict[str, Any] = {
    "MAX_STRING_CHARS": MAX_STRING_CHARS,
    "MAX_MAGNITUDE": MAX_MAGNITUDE,
    "MAX_TABLE_ROWS": MAX_TABLE_ROWS,
    "_other": _other,
}
_collect: Visit = _written(
    "def _collect(value, at, seen, out, marks):\n    odd = False\n" + _ODD + "    return odd\n",
    "_collect",
)
_SCOPE["_collect"] = _collect
_SCOPE["_plain"] = _written(
    "def _plain(plain, at, seen, out, marks):\n"
    "    odd = len(plain) > MAX_TABLE_ROWS\n"
    "    for value in plain.values() if type(plain) is dict else plain:\n"
    + textwrap.indent(_ODD, "    ")
    + "    return odd\n",
    "_plain",
)


def _visitor(cls: type) -> Visit | None:
    """The :data:`Visit` of a node class, each field read in order by :data:`_ODD` written
    out for it; None for any other class."""
    names = _node_fields(cast(Any, cls))
    if names is None:
        return None
    fields = "".join(f"    value = node.{name}\n" + _ODD for name in names)
    return cast(
        Visit,
        _written(
            f"def visit_{cls.__name__}(node, outer, seen, out, marks):\n"
            "    seen.add(id(node))  # the caller asked: not seen before\n"
            "    at = len(out.nodes)  # this node's position: its fields' enclosing node\n"
            "    out.nodes.append(node)\n"
            "    out.parents.append(outer)\n"
            "    odd = False\n" + fields + "    if odd:\n        marks.add(at)\n"
            "    return False\n",
            f"visit_{cls.__name__}",
        ),
    )


class _Visitors(dict[type, Visit | None]):
    """Each class's :data:`Visit` (None: not a node class), written on first use."""

    def __missing__(self, cls: type) -> Visit | None:
        made = self[cls] = _visitor(cls)
        return made


_VISITORS = _SCOPE["_VISITORS"] = _Visitors()


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
