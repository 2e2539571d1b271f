"""Lowering of ``state`` lines (issue 40): a whole number a unit carries from move to move, its
range, and what changes it (docs/language.md, "State carried between moves")."""

from __future__ import annotations

from typing import Literal

from rulesdsl import ir
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering.context import Context


def _whole(located: s.Located) -> int | None:
    """The whole number ``located`` holds, or None (a fraction, or not a number)."""
    value = located.value
    if isinstance(value, ir.Number) and value.value == int(value.value):
        return int(value.value)
    return None


def state(lw: Context, decl: s.StateDecl) -> ir.State:
    """``state NAME labels : LOW to HIGH, [MODE] SOURCE +N, ...``: E400 for a bad range,
    E401 for a change that is not a whole number or could never be made in the range, E402
    for a source changed twice for the same unit type."""
    low, high = (_whole(bound) for bound in decl.range)
    if low is None or high is None or low >= high:
        lw.err(
            "E400",
            "a state's range is two whole numbers, the lower first",
            decl.range[0].pos,
            'write `state speed "Speed" : 0 to 8`',
        )
        width = 1 if low is None or high is None else max(abs(high - low), 1)
        low, high = 0, width  # one error: the changes are judged by the width written
    changes: list[ir.StateChange] = []
    for mode, source, located in decl.changes:
        change = _change(lw, decl, mode, source, located, high - low)
        if change is None:
            continue
        if any((c.mode, c.source) == (change.mode, change.source) for c in changes):
            lw.err(
                "E402",
                f"'{source.text}' changes '{decl.item.name.text}' twice"
                + (f" for '{change.mode}'" if change.mode else ""),
                source.pos,
                "give each feature or kind of move one change (and one per unit type)",
            )
            continue
        changes.append(change)
    return lw.at(
        ir.State(decl.item.name.text, lw.info(decl.item), low, high, tuple(changes)),
        decl.item.name.pos,
    )


def _change(
    lw: Context,
    decl: s.StateDecl,
    mode: s.Name | None,
    source: s.Name,
    located: s.Located,
    width: int,
) -> ir.StateChange | None:
    """One change of a ``state`` line, checked; None when it is in error."""
    found = lw.symbols.require(source, ("feature", "kind of move"), "feature or kind of move")
    if mode is not None and lw.symbols.require(mode, ("mode",), "mode") is None:
        return None
    amount = _whole(located)
    if amount is None or amount == 0 or abs(amount) > width:
        lw.err(
            "E401",
            f"a change of '{decl.item.name.text}' is a whole number other than 0, at most "
            f"{width} either way (its range)",
            located.pos,
            "write `debris -2` or `climb +1`",
        )
        return None
    if found is None:
        return None
    return ir.StateChange(source.text, amount, mode.text if mode is not None else "")


def band(
    lw: Context, name: s.Name, side: str, bound: s.Located, code: str
) -> tuple[str, Literal["below", "above"], int] | None:
    """``when altitude below 5`` on a rule that reads a state (issue 40): a declared state
    (E101) and a whole bound (``code``); None when either is wrong."""
    if side not in ("below", "above"):  # an override's cell: `| below 6` (E464)
        hint = f"write `{name.text} | below 6` or `| above 2`"
        lw.err("E464", "a band of a state is below or above a bound", bound.pos, hint)
        return None
    whole = _whole(bound)
    if whole is None:
        lw.err(
            code,
            "a band's bound is a whole number",
            bound.pos,
            f"write `when {name.text} {side} 4`",
        )
    declared = lw.symbols.require(name, ("state",), "state")
    if whole is None or declared is None:
        return None
    return (name.text, "below" if side == "below" else "above", whole)
