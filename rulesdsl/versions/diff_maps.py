"""`rulesdsl diff` for maps and grids (issue 11).

Called by :class:`rulesdsl.versions.diff._Differ` with itself. A changed place state or
``along`` cost changes what ``can_end``, ``must_stop`` and the route functions answer, and a
grid's neighbourhood where a route may go: breaking. A grid's cell size or diagonal cycle is a
rules change; a new grid is additive, a removed one breaking.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol, TypeVar

from rulesdsl import spelling
from rulesdsl.semantics import routes as semantics_routes
from rulesdsl.versions.diff_sight import Differ as _Parts
from rulesdsl.versions.diff_sight import named

_T = TypeVar("_T")


class Differ(_Parts, Protocol):
    """What this module uses of :class:`rulesdsl.versions.diff._Differ`: what the sight diff
    uses, and each unit type's label."""

    mode_labels: dict[str, str]


def _kept(old: Iterable[_T], new: Iterable[_T], key: Callable[[_T], str]) -> list[tuple[_T, _T]]:
    """The items in both, paired by ``key``, in the order of ``new``."""
    old_by = {key(x): x for x in old}
    return [(old_by[key(x)], x) for x in new if key(x) in old_by]


def maps(d: Differ) -> None:
    """A changed place state or ``along`` cost changes what ``can_end``, ``must_stop`` and
    the route functions answer: breaking. So does a grid's neighbourhood."""
    modes = [m.id for m in d.new.modes if m.id in {o.id for o in d.old.modes}]
    kept = _kept(d.old.features, d.new.features, lambda f: f.id)
    for a, b in kept:
        name = d.label(b.info, b.id)
        for m in modes:
            was, now = a.states.get(m), b.states.get(m)
            if was != now:
                d.add(
                    "breaking",
                    "changed",
                    f"{b.id}.{m}",
                    f"{name}, {d.mode_labels[m]}: place state "
                    f"{semantics_routes.state_words(was) if was else 'none'} -> "
                    f"{semantics_routes.state_words(now) if now else 'none'}",
                    was,
                    now,
                )
            along_a, along_b = a.along.get(m), b.along.get(m)
            if along_a != along_b:
                before = "none" if along_a is None else spelling.number(along_a)
                after = "none" if along_b is None else spelling.number(along_b)
                d.add(
                    "breaking",
                    "changed",
                    f"{b.id}.{m}",
                    f"{name}, {d.mode_labels[m]}: along {before} -> {after}",
                    before,
                    after,
                )
    for ga, gb in _kept(d.old.grids, d.new.grids, lambda g: g.id):
        if ga.shape != gb.shape:
            d.add(
                "breaking",
                "changed",
                gb.id,
                f"{d.label(gb.info, gb.id)}: neighbourhood {ga.shape} -> {gb.shape}",
                ga.shape,
                gb.shape,
            )


def grids(d: Differ) -> None:
    for a, b in named(d, "grid", d.old.grids, d.new.grids, lambda g: g.id):
        name = d.label(b.info, b.id)
        if a.size != b.size:
            before = " = ".join(spelling.value(n) for n in a.size)
            after = " = ".join(spelling.value(n) for n in b.size)
            d.add("rules", "changed", b.id, f"{name}: one cell {before} -> {after}", before, after)
        if a.diagonals != b.diagonals:
            before = ", ".join(map(str, a.diagonals))
            after = ", ".join(map(str, b.diagonals))
            d.add(
                "rules",
                "changed",
                b.id,
                f"{name}: diagonals {before} -> {after}",
                before,
                after,
            )
