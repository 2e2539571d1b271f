"""A removed unit type or keyword leaves the notes that were for it (``note for airship
"..."``): a note for it alone goes with it, a note for it and others is for the others."""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from functools import cache
from typing import Any, TypeVar, cast

from rulesdsl.diagnostics import Pos
from rulesdsl.frontends import syntax as s

T = TypeVar("T")

_LEAVES = frozenset({str, int, float, bool, type(None), Pos})
"""Types that hold no notes: the walk never looks into a value of one of these (a position,
a name's text)."""


def without_scope(node: T, name: str) -> T:
    """``node`` (a statement or any part of one) with ``name`` gone from its notes' scopes."""
    found = _walk(node, name)
    return node if found is None else found


def _walk(node: Any, name: str) -> Any:
    """The node rewritten, or None when nothing in it changed (most nodes: no note for).

    A ``remove`` walks every node of every statement of the file (issue 44: 40 ms of a 60 ms
    compile of a variant with one remove, when each node asked ``dataclasses`` for its
    fields): the fields are asked once per class, and a value of a leaf type is passed over
    without a call."""
    if isinstance(node, s.Extras):
        return _extras(node, name)
    if isinstance(node, tuple):
        parts = [None if type(part) in _LEAVES else _walk(part, name) for part in node]
        if all(p is None for p in parts):
            return None
        return tuple(node[i] if p is None else p for i, p in enumerate(parts))
    names = _field_names(cast(Any, type(node)))
    if names is None:
        return None
    changes = {}
    for field in names:
        value = getattr(node, field)
        if type(value) in _LEAVES:
            continue
        new = _walk(value, name)
        if new is not None:
            changes[field] = new
    return replace(node, **changes) if changes else None


@cache
def _field_names(cls: type) -> tuple[str, ...] | None:
    """The field names of a dataclass (a syntax node); None for any other class (a class
    object itself too: its type is ``type``)."""
    return tuple(f.name for f in fields(cls)) if is_dataclass(cls) else None


def _extras(extras: s.Extras, name: str) -> s.Extras | None:
    if not any(n.text == name for scope in extras.note_for for n in scope):
        return None
    notes, scopes = [], []
    for note, scope in zip(extras.notes, extras.note_for, strict=True):
        kept = tuple(n for n in scope if n.text != name)
        if scope and not kept:
            continue  # a note for the removed name alone
        notes.append(note)
        scopes.append(kept)
    return replace(extras, notes=tuple(notes), note_for=tuple(scopes) if any(scopes) else ())
