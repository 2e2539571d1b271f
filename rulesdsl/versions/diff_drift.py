"""``rulesdsl diff`` of drift at the end of a move (issue 40): a drift line added or removed
changes what ``wind=`` does and what ``Route.drift`` holds, and a changed entry where units end
their move: breaking. A new label is a wording change (``Differ._info``)."""

from __future__ import annotations

from rulesdsl import ir
from rulesdsl.versions.diff_sight import Differ, named


def _says(drift: ir.Drift) -> str:
    """A drift's entries as a ``drift`` line writes them."""
    return ", ".join(
        (f"{e.mode} " if e.mode else "")
        + str(e.distance)
        + (f" when {e.state} {e.op} {e.bound}" if e.state else "")
        for e in drift.entries
    )


def drifts(d: Differ) -> None:
    pairs = named(d, "drift", d.old.drifts, d.new.drifts, lambda v: v.id, added_level="breaking")
    for a, b in pairs:
        if _says(a) != _says(b):
            name = d.label(b.info, b.id)
            d.add(
                "breaking", "changed", b.id, f"{name}: {_says(a)} -> {_says(b)}", _says(a), _says(b)
            )
