"""Sheet block for drift at the end of a move (issue 40): the rule in one sentence, then a line
per entry of the ``drift`` line ("Balloon: 2 place(s) downwind"), in the sheet's language."""

from __future__ import annotations

from rulesdsl import ir
from rulesdsl.printed.sheet_moves import Builder
from rulesdsl.printed.sheet_view import Block


def _entry(b: Builder, states: dict[str, ir.State], entry: ir.DriftEntry, alone: bool) -> str:
    """One entry: who (``alone``: the entry for all is the only one), how far, and the state
    band it drifts in."""
    who = b.name(entry.mode) if entry.mode else b.w("drift_all" if alone else "drift_others")
    if entry.distance == 0:
        return b.w("drift_none", who=who)
    text = b.w("drift_places", who=who, count=b.num(entry.distance))
    if not entry.state:
        return text
    state = states[entry.state]
    band = b.w(
        f"roll_state_{entry.op}", state=b.label(state.info, state.id), bound=b.num(entry.bound)
    )
    return f"{text} ({band})"


def drift_blocks(b: Builder) -> list[Block]:
    """The ruleset's drift: its rule and entries; none without a ``drift`` line."""
    states = {v.id: v for v in b.rs.states}
    return [
        Block(
            "drift",
            b.label(drift.info, drift.id),
            lines=[
                b.w("drift_rule"),
                *(_entry(b, states, e, len(drift.entries) == 1) for e in drift.entries),
            ],
            after=b.note_texts(drift.info),
            changed=b.added(drift.id),
        )
        for drift in b.rs.drifts
    ]
