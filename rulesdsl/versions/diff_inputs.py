"""`rulesdsl diff` for a decision's inputs (issue 39 item 3).

A caller passes inputs by position or by name, so every old input must keep its name and
place. A new input at the end is additive when it has a default (an old call still works) and
breaking when it has none; a default removed is breaking, a default added additive, a default
changed a rules change (an old call that leaves the input out now gets another answer). An
input made ``signed`` (issue 40) is additive (it takes values below 0 it refused), one made
unsigned breaking (a call with such a value now fails). An input that starts or stops taking a
modifier's items (``mods to_hit``, issue 40) is breaking: the caller passes a list, or a number.
"""

from __future__ import annotations

from rulesdsl import ir, spelling
from rulesdsl.versions.diff_sight import Differ


def _spelled(p: ir.Param) -> str:
    default = f" = {spelling.value(p.default)}" if p.default is not None else ""
    return f"{p.name}{default}"


def inputs(differ: Differ, a: ir.Decision, b: ir.Decision, name: str) -> None:
    old, new = [p.name for p in a.params], [p.name for p in b.params]
    if new[: len(old)] != old:
        before = ", ".join(_spelled(p) for p in a.params)
        after = ", ".join(_spelled(p) for p in b.params)
        message = f"{name}: inputs ({before}) -> ({after})"
        differ.add("breaking", "changed", b.id, message, before, after)
        return
    for p in b.params[len(old) :]:
        path = f"{b.id}.{p.name}"
        if p.default is None:
            differ.add("breaking", "added", path, f"{name}: new input '{p.name}' (no default)")
        else:
            default = spelling.value(p.default)
            message = f"{name}: new input '{p.name}' (default {default})"
            differ.add("additive", "added", path, message, None, default)
    kept = list(zip(a.params, b.params, strict=False))
    if any((p.unit, p.key_of, p.axis) != (q.unit, q.key_of, q.axis) for p, q in kept):
        differ.add("rules", "changed", b.id, f"{name}: input units changed")
    for p, q in kept:
        _default(differ, f"{b.id}.{q.name}", name, p, q)
        if p.total_of != q.total_of:  # a number's caller now passes items, or back
            now = f"the items of '{q.total_of}'" if q.total_of else "a number"
            message = f"{name}: input '{q.name}' now takes {now}"
            differ.add("breaking", "changed", f"{b.id}.{q.name}", message)
        if p.signed != q.signed:
            now = "may now be below 0 (signed)" if q.signed else "may no longer be below 0"
            message = f"{name}: input '{q.name}' {now}"
            differ.add(
                "additive" if q.signed else "breaking", "changed", f"{b.id}.{q.name}", message
            )


def _default(differ: Differ, path: str, name: str, p: ir.Param, q: ir.Param) -> None:
    old = spelling.value(p.default) if p.default is not None else None
    new = spelling.value(q.default) if q.default is not None else None
    if old == new:
        return
    if new is None:
        message = f"{name}: input '{q.name}' lost its default {old}"
        differ.add("breaking", "removed", path, message, old)
    elif old is None:
        message = f"{name}: input '{q.name}' defaults to {new}"
        differ.add("additive", "added", path, message, None, new)
    else:
        message = f"{name}: input '{q.name}' defaults to {new} (was {old})"
        differ.add("rules", "changed", path, message, old, new)
