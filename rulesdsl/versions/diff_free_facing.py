"""`rulesdsl diff` for facing off the grid (issue 40).

Called by :class:`rulesdsl.versions.diff._Differ` with itself. A change that lets fewer moves
through or makes them dearer (a turn, pivot or reverse that costs more or is taken away, a
longer run straight before a turn, a smaller turn that ends the move) is breaking: a move that
was legal may no longer be, or leave less of the allowance. One that only lets more through is a
rules change. A rule added or removed changes what ``free_move`` answers: breaking.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import ir
from rulesdsl.versions.diff_sight import Differ, Level

_INF = float("inf")


def _text(value: float | bool | None, unit: str = "") -> str:
    if value is None or value is False:
        return "none" if value is None else "no"
    return "yes" if value is True else f"{value:g}{unit}"


def _turn(rule: ir.FreeFacing) -> str:
    return f"{rule.turn_cost:g} per {rule.turn_step:g} deg"


_FIELDS: tuple[tuple[str, str, Callable[[ir.FreeFacing, ir.FreeFacing], bool]], ...] = (
    ("pivot", "a pivot costs", lambda a, b: (b.pivot is None) or (b.pivot > (a.pivot or 0))),
    ("straight", "straight before a turn", lambda a, b: b.straight > a.straight),
    (
        "ends_above",
        "ends the move on a turn above (deg)",
        lambda a, b: (b.ends_above or _INF) < (a.ends_above or _INF),
    ),
    ("reverse_half", "may reverse at half speed", lambda a, b: not b.reverse_half),
)
"""Each field beside the turn: its words and whether the new value is worse."""


def _grade(worse: bool) -> Level:
    return "breaking" if worse else "rules"


def free_facings(d: Differ) -> None:
    old = {f.mode: f for f in d.old.free_facings}
    new = {f.mode: f for f in d.new.free_facings}
    for mode in sorted(old.keys() | new.keys()):
        a, b = old.get(mode), new.get(mode)
        path = f"facing.{mode}"
        if a is None:
            d.add("breaking", "added", path, f"facing off the grid for {mode}: free moves")
            continue
        if b is None:
            d.add("breaking", "removed", path, f"facing off the grid for {mode}: no free moves")
            continue
        if (a.turn_cost, a.turn_step) != (b.turn_cost, b.turn_step):
            worse = b.turn_cost / b.turn_step > a.turn_cost / a.turn_step or (
                b.turn_step > a.turn_step and b.turn_cost > 0
            )
            before, after = _turn(a), _turn(b)
            text = f"{mode}: a turn costs {before} -> {after}"
            d.add(_grade(worse), "changed", f"{path}.turn", text, before, after)
        for name, words, worse_of in _FIELDS:
            was, now = getattr(a, name), getattr(b, name)
            if was == now:
                continue
            before, after = _text(was), _text(now)
            text = f"{mode}: {words} {before} -> {after}"
            d.add(_grade(worse_of(a, b)), "changed", f"{path}.{name}", text, before, after)
