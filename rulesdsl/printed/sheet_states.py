"""Sheet block for the state a unit carries from move to move (issue 40): one table, a row per
state, its range (a unit type's own in brackets) and what changes it ("Debris field -2, Climb -2
(Bomber -3)"), in the sheet's language."""

from __future__ import annotations

from rulesdsl import ir
from rulesdsl.printed.sheet_moves import Builder
from rulesdsl.printed.sheet_view import Block, CellView, table_block


def _change(b: Builder, source: str, change: ir.StateChange | None) -> str:
    """``Dive +1``, or a capped change (``dive +1 capped``, ``capped at 5``) with the words that
    say so."""
    amount = b.signed(change.amount if change is not None else 0)
    if change is not None and change.capped and change.bound is not None:
        return b.w(
            "state_change_capped_at", source=b.name(source), amount=amount, bound=str(change.bound)
        )
    word = "state_change_capped" if change is not None and change.capped else "state_change"
    return b.w(word, source=b.name(source), amount=amount)


def _changes(b: Builder, state: ir.State) -> str:
    """Each source's change, a unit type's own after it in brackets."""
    parts = []
    for source in dict.fromkeys(c.source for c in state.changes):
        mine = [c for c in state.changes if c.source == source]
        general = next((c for c in mine if not c.mode), None)
        own = [_change(b, c.mode, c) for c in mine if c.mode]
        text = _change(b, source, general)
        parts.append(text + (f" ({', '.join(own)})" if own else ""))
    return ", ".join(parts)


def state_blocks(b: Builder) -> list[Block]:
    """One table: a row per ``state`` line, its label, range and changes; none without."""
    rows = []
    for state in b.rs.states:
        name = CellView(b.label(state.info, state.id), ("label",))
        name.changed = b.added(state.id)
        bounds = b.w("state_range_value", low=b.num(state.low), high=b.num(state.high))
        own = [
            b.w(
                "state_own_range",
                unit=b.name(r.mode),
                range=b.w("state_range_value", low=b.num(r.low), high=b.num(r.high)),
            )
            for r in state.own
        ]
        bounds += f" ({', '.join(own)})" if own else ""
        rows.append([name, CellView(bounds), CellView(_changes(b, state))])
    if not rows:
        return []
    heads = [b.w("state_name"), b.w("state_range"), b.w("state_changed_by")]
    return [
        table_block("states", heads, rows, [n for s in b.rs.states for n in b.note_texts(s.info)])
    ]
