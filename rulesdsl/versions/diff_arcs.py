"""`rulesdsl diff` for named arcs (issue 40).

Called by :class:`rulesdsl.versions.diff._Differ` with itself. Arcs cover the whole circle, so
any change to them moves some bearings from one arc to another: a span changed, an arc added
or removed, the unit they count in, and the order they are listed in (a bearing on a line is
the first listed arc's) are each breaking. A new arcs block is additive, a removed one
breaking.
"""

from __future__ import annotations

from typing import assert_never

from rulesdsl import ir
from rulesdsl.versions.diff_sight import Differ, named


def _spans(arcs: ir.Arcs, arc: ir.Arc) -> str:
    spans = ", ".join(f"{lo:g} to {hi:g}" for lo, hi in arc.spans)
    match arcs.unit:
        case "hexsides":
            return f"hexsides {spans}"
        case "deg":
            return f"{spans} deg"
        case _:
            assert_never(arcs.unit)


def arcs(d: Differ) -> None:
    for a, b in named(d, "arcs", d.old.arcs, d.new.arcs, lambda x: x.id):
        name = d.label(b.info, b.id)
        if a.unit != b.unit:
            d.add("breaking", "changed", b.id, f"{name}: counted in {a.unit} -> {b.unit}")
        kept = named(
            d,
            f"{name}: arc",
            a.arcs,
            b.arcs,
            lambda x: x.id,
            added_level="breaking",
            prefix=b.id,
        )
        for old, new in kept:
            before, after = _spans(a, old), _spans(b, new)
            if before != after:
                label = d.label(new.info, new.id)
                path = f"{b.id}.{new.id}"
                d.add("breaking", "changed", path, f"{name}, {label}: {before} -> {after}")
        order = [x.id for x in b.arcs if x.id in {y.id for y in a.arcs}]
        if order != [x.id for x in a.arcs if x.id in set(order)]:
            d.add("breaking", "changed", b.id, f"{name}: arcs reordered ({', '.join(order)})")
