"""``rulesdsl diff`` of the state a unit carries from move to move (issue 40): a state added or
removed changes what the route functions' ``state=`` must hold, and a new range or change which
routes are legal: breaking. A new label is a wording change (``Differ._info``)."""

from __future__ import annotations

from rulesdsl import ir
from rulesdsl.versions.diff_sight import Differ, named


def _says(state: ir.State) -> str:
    """A state's range and changes as a ``state`` line writes them."""
    changes = "".join(
        f", {c.mode + ' ' if c.mode else ''}{c.source} {c.amount:+d}" for c in state.changes
    )
    return f"{state.low} to {state.high}{changes}"


def states(d: Differ) -> None:
    pairs = named(d, "state", d.old.states, d.new.states, lambda v: v.id, added_level="breaking")
    for a, b in pairs:
        if _says(a) != _says(b):
            name = d.label(b.info, b.id)
            d.add(
                "breaking", "changed", b.id, f"{name}: {_says(a)} -> {_says(b)}", _says(a), _says(b)
            )
