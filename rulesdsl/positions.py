"""Where each part of the IR was written: the table that lowering fills and checks read.

The IR itself holds no positions (it is plain, comparable, serialisable data). While lowering
builds IR nodes it records each one's source position here, keyed by the node object itself;
a check that finds a problem in a node asks for the position of that node or, failing that,
of the nearest enclosing node it knows. IR that arrives without a source (an exported IR read
back) has an empty table, and every diagnostic falls back to the file.
"""

from __future__ import annotations

from rulesdsl.diagnostics import Pos


class Positions:
    """Source positions of IR nodes, by node identity; ``fallback`` is the file's start."""

    def __init__(self, fallback: Pos) -> None:
        self.fallback = fallback
        self._at: dict[int, Pos] = {}
        """Where each node was written, by its ``id`` (lowering records several per row)."""
        self._fields: dict[tuple[int, str], Pos] = {}
        """Where a field of a node was written, by the node's ``id`` and the field's name."""
        self._kept: list[object] = []
        """Every node recorded, kept alive so that no other object takes its identity while
        the table exists (a list, not a pair with each position: 100 bytes less a node)."""

    def record(self, node: object, pos: Pos | None, field: str = "") -> None:
        """Remember where ``node`` (or one of its fields) was written."""
        if pos is None:
            return
        if not field:
            if id(node) not in self._at:
                self._at[id(node)] = pos
                self._kept.append(node)
        elif (id(node), field) not in self._fields:
            self._fields[id(node), field] = pos
            self._kept.append(node)

    def of(self, *nodes: object) -> Pos:
        """The position of the first of ``nodes`` that has one: pass the node a diagnostic
        is about first, then the nodes that enclose it."""
        for node in nodes:
            found = self._at.get(id(node))
            if found is not None:
                return found
        return self.fallback

    def of_field(self, node: object, field: str, *enclosing: object) -> Pos:
        """Where a field of ``node`` was written, else where ``node`` or an enclosing node was."""
        found = self._fields.get((id(node), field))
        if found is not None:
            return found
        return self.of(node, *enclosing)


def item_field(field: str, index: int) -> str:
    """The field name under which the ``index``-th item of a tuple field is recorded
    (``groups.0``): lowering records it, a check asks for it."""
    return f"{field}.{index}"
