"""A removed unit type or keyword leaves the notes that were for it (``note for airship
"..."``): a note for it alone goes with it, a note for it and others is for the others."""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from typing import Any, TypeVar

from rulesdsl.frontends import syntax as s

T = TypeVar("T")


def without_scope(node: T, name: str) -> T:
    """``node`` (a statement or any part of one) with ``name`` gone from its notes' scopes."""
    found = _walk(node, name)
    return node if found is None else found


def _walk(node: Any, name: str) -> Any:
    """The node rewritten, or None when nothing in it changed (most nodes: no note for)."""
    if isinstance(node, s.Extras):
        return _extras(node, name)
    if isinstance(node, tuple):
        parts = [_walk(part, name) for part in node]
        if all(p is None for p in parts):
            return None
        return tuple(node[i] if p is None else p for i, p in enumerate(parts))
    if is_dataclass(node) and not isinstance(node, type):
        changes = {}
        for f in fields(node):
            new = _walk(getattr(node, f.name), name)
            if new is not None:
                changes[f.name] = new
        return replace(node, **changes) if changes else None
    return None


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
