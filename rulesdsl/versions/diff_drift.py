"""``rulesdsl diff`` of drift at the end of a move (issue 40): a drift line added or removed
changes what ``wind=`` does and what ``Route.drift`` holds, and a changed entry where units end
their move: breaking. A new label is a wording change (``Differ._info``)."""

from __future__ import annotations

from rulesdsl import ir
from rulesdsl.versions.diff_sight import Differ, breaking


def _says(drift: ir.Drift) -> str:
    """A drift's entries as a ``drift`` line writes them."""
    return ", ".join(
        (f"{e.mode} " if e.mode else "")
        + str(e.distance)
        + (f" when {e.state} {e.op} {e.bound}" if e.state else "")
        for e in drift.entries
    )


def drifts(d: Differ) -> None:
    breaking(d, "drift", d.old.drifts, d.new.drifts, _says)
