"""Lowering of ``state`` lines (issue 40): a whole number a unit carries from move to move, its
range, and what changes it (docs/language.md, "State carried between moves")."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal

from rulesdsl import ir, semantics
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering.context import Context


def _whole(located: s.Located) -> int | None:
    """The whole number ``located`` holds, or None (a fraction, or not a number)."""
    value = located.value
    if isinstance(value, ir.Number) and value.value == int(value.value):
        return int(value.value)
    return None


def state(lw: Context, decl: s.StateDecl, modes: Sequence[ir.Mode] = ()) -> ir.State:
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
    ends = decl.ends or (None,) * len(decl.changes)
    caps = decl.caps or (None,) * len(decl.changes)
    for (mode, source, located), end, cap in zip(decl.changes, ends, caps, strict=True):
        change = _change(lw, decl, mode, source, located, high - low)
        if change is None or not _capped_word(lw, source, end):
            continue
        if end is not None:
            bound = _cap_bound(lw, decl, cap, low, high)
            change = dataclasses.replace(change, capped=True, bound=bound)
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
    own = _own_ranges(lw, decl, low, high)
    _keyword_clashes(lw, decl, own, modes)
    return lw.at(
        ir.State(decl.item.name.text, lw.info(decl.item), low, high, tuple(changes), own),
        decl.item.name.pos,
    )


def _capped_word(lw: Context, source: s.Name, end: s.Name | None) -> bool:
    """The word after a change is ``capped`` or nothing (E483, at the word)."""
    if end is None or end.text == "capped":
        return True
    lw.err(
        "E483",
        f"a change ends with `capped` or nothing, not '{end.text}'",
        end.pos,
        "end it with `capped` (`dive +1 capped`) to stop the state at the end of its range",
    )
    return False


def _cap_bound(
    lw: Context, decl: s.StateDecl, cap: s.Located | None, low: int, high: int
) -> int | None:
    """``capped at 5``: a whole number (E513) within the range for all (E514); None when there
    is no bound (or it is in error: the change is then capped at the end of the range)."""
    if cap is None:
        return None
    bound = _whole(cap)
    if bound is None:
        lw.err("E513", "a cap's bound is a whole number", cap.pos, "write `dive +1 capped at 5`")
    elif not low <= bound <= high:
        lw.err(
            "E514",
            f"the cap at {bound} is outside the range of '{decl.item.name.text}' ({low} to {high})",
            cap.pos,
            f"cap it within {low} to {high}, or write `capped` to stop at the end of the range",
        )
        return None
    return bound


def _own_ranges(lw: Context, decl: s.StateDecl, low: int, high: int) -> tuple[ir.StateRange, ...]:
    """``bomber 0 to 6``: a unit type's own range, checked: E465 not two whole numbers, the
    lower first; E466 outside the range for all; E467 a unit type given two ranges."""
    own: list[ir.StateRange] = []
    for mode, first, last in decl.own or ():
        bottom, top = _whole(first), _whole(last)
        name = decl.item.name.text
        if bottom is None or top is None or bottom >= top:
            hint = f"write `{mode.text} {low} to {high - 1}`"
            why = "a unit type's range is two whole numbers, the lower first"
            lw.err("E465", why, first.pos, hint)
        elif not low <= bottom < top <= high:
            lw.err(
                "E466",
                f"the range of '{name}' for '{mode.text}' goes outside the range for all "
                f"({low} to {high})",
                first.pos,
                f"keep a unit type's range within {low} to {high}, or widen the range for all",
            )
        elif any(r.mode == mode.text for r in own):
            hint = "give each unit type one range"
            lw.err("E467", f"'{mode.text}' has two ranges of '{name}'", mode.pos, hint)
        elif lw.symbols.require(mode, ("mode", "group"), "unit type or keyword") is not None:
            own.append(ir.StateRange(mode.text, bottom, top))
    return tuple(own)


def _keyword_clashes(
    lw: Context, decl: s.StateDecl, own: Sequence[ir.StateRange], modes: Sequence[ir.Mode]
) -> None:
    """E487: a unit type without its own range whose keywords give it different ones
    (``heavy 0 to 6, slow 0 to 4`` for a unit type that is both) with no ``precedence``
    between them that settles it, as for a cost cell (:func:`semantics.group_choice`)."""
    by_name = {r.mode: (r.low, r.high) for r in own}
    precedence = [[n.text for n in line] for line in lw.precedence_names]
    for mode in modes:
        given = {k: by_name[k] for k in mode.keywords if k in by_name}
        if mode.id in by_name or len(set(given.values())) < 2:
            continue
        _, clash = semantics.group_choice(given, mode.id, lw.group_list, precedence)
        if clash is not None:
            low, high = min(given.values())
            lw.err(
                "E487",
                f"'{mode.id}' gets two ranges of '{decl.item.name.text}' from its keywords",
                decl.item.name.pos,
                f"give '{mode.id}' its own range (`{mode.id} {low} to {high}`), or write "
                f"`precedence {clash[0]}, {clash[1]}`",
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
