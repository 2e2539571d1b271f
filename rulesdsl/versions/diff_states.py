"""``rulesdsl diff`` of the state a unit carries from move to move (issue 40): a state added or
removed changes what the route functions' ``state=`` must hold, and a new range or change which
routes are legal: breaking. A new label is a wording change (``Differ._info``)."""

from __future__ import annotations

from rulesdsl import ir, spelling
from rulesdsl.versions.diff_sight import Differ, Level, breaking


def _at(change: ir.StateChange) -> str:
    """`` at 5`` for a change capped at a bound, else nothing."""
    return "" if change.bound is None else f" at {change.bound}"


def _says(state: ir.State) -> str:
    """A state's range, unit types' own ranges and changes as a ``state`` line writes them."""
    own = "".join(f", {r.mode} {r.low} to {r.high}" for r in state.own)
    changes = "".join(
        f", {c.mode + ' ' if c.mode else ''}{c.source} {c.amount:+d}{' capped' * c.capped}{_at(c)}"
        for c in state.changes
    )
    return f"{state.low} to {state.high}{own}{changes}"


def states(d: Differ) -> None:
    breaking(d, "state", d.old.states, d.new.states, _says)


def _bands(mod: ir.Modifier) -> str:
    """A modifier's values in bands of a state as its ``when`` lines write them."""
    said = (f"when {b.state} {b.side} {b.bound} | {spelling.value(b.value)}" for b in mod.bands)
    return "; ".join(said) or "none"


def bands(d: Differ) -> None:
    """A modifier's bands (``when altitude above 6 | +1``): a band added, removed or moved
    changes which states give which answer, and whether ``modifier()`` needs ``state=``:
    breaking; only a band's value changed: a rules change. A sight rule's band (``when
    altitude below 5``) added, removed or moved: breaking (lines open or close)."""
    old_sights = {r.id: r for r in d.old.sights}
    for rule in d.new.sights:
        was = old_sights.get(rule.id)
        if was is not None and was.state != rule.state:
            said = [" ".join(map(str, r.state)) if r.state else "none" for r in (was, rule)]
            message = f"{d.label(rule.info, rule.id)}: band {said[0]} -> {said[1]}"
            d.add("breaking", "changed", f"{rule.id}.band", message, *said)
    before = {m.id: m for m in d.old.modifiers}
    for b in d.new.modifiers:
        a = before.get(b.id)
        if a is None or _bands(a) == _bands(b):
            continue
        where = [[(x.state, x.side, x.bound) for x in m.bands] for m in (a, b)]
        level: Level = "rules" if where[0] == where[1] else "breaking"
        message = f"{d.label(b.info, b.id)}: {_bands(a)} -> {_bands(b)}"
        d.add(level, "changed", f"{b.id}.when", message, _bands(a), _bands(b))
