"""What the point of sail costs a step (issue 40): ``sail by ARCS (running +0 MP, ...)``.

The wind is the heading it blows from, numbered as the unit's headings (counter-clockwise
from +x). Seen from a unit at heading ``h``, a wind from heading ``w`` is ``(w - h) % headings``
headings to the left of the bow: the bearing ``-360 * that / headings`` degrees, clockwise from
dead ahead, as arcs count. The arc of ``ARCS`` holding that bearing is the point of sail; a step
(forward, backward or sideslip, the heading kept) costs that arc's amount more, or cannot be
made (impassable). Turns are not steps: what they cost by the wind is tacking and wearing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Protocol

from rulesdsl import ir
from rulesdsl.semantics.arcs import arc


class _Strengths(Protocol):
    """A facing rule's ``sail when`` and ``speed when`` clauses, as the IR and the module plan
    both hold them: (strength, amount) pairs."""

    @property
    def strengths(self) -> Sequence[tuple[str, object]]: ...

    @property
    def strength_speeds(self) -> Sequence[tuple[str, object]]: ...


def strengths(rules: Iterable[_Strengths]) -> tuple[str, ...]:
    """The strengths of the wind the rules name (issue 40), in the order first named: those a
    caller may give (the module's argument check, its declarations, the web page's field)."""
    return tuple(dict.fromkeys(n for f in rules for n, _ in (*f.strengths, *f.strength_speeds)))


def by_relative(rule: ir.Facing, arcs: Sequence[ir.Arcs]) -> tuple[tuple[str, float], ...]:
    """Per relative heading ``(wind - heading) % headings``: the arc the wind is in and what a
    step costs more there (inf: impassable); empty when the rule does not sail by arcs."""
    if not rule.sail_by:
        return ()
    costs = {name: math.inf if cost is None else cost for name, cost in rule.sail}
    return tuple((name, costs[name]) for name in _points(rule, arcs, rule.sail_by))


def _points(rule: ir.Facing, arcs: Sequence[ir.Arcs], block_id: str) -> list[str]:
    """Per relative heading ``(wind - heading) % headings``, the arc of the block the wind is
    in: ``left`` headings to the left of the bow is the bearing ``-360 * left / headings``."""
    block = next(a for a in arcs if a.id == block_id)
    return [arc(block, -360.0 * left / rule.headings) for left in range(rule.headings)]


def step_extra(
    table: tuple[tuple[str, float], ...], wind: int | None, heading: int | None
) -> tuple[str, float]:
    """The point of sail of a step at ``heading`` with the wind from ``wind``, and its extra
    cost (``("", 0.0)`` with no table, wind or heading)."""
    if not table or wind is None or heading is None:
        return "", 0.0
    return table[(wind - heading) % len(table)]


def speed_by_relative(rule: ir.Facing, arcs: Sequence[ir.Arcs]) -> tuple[tuple[str, float], ...]:
    """``speed by ARCS (...)``: per relative heading ``(wind - heading) % headings``, the arc
    the wind is in and the unit's speed there; empty when the rule has no speed by the wind."""
    if not rule.speed_by:
        return ()
    speeds = dict(rule.speeds)
    return tuple((name, speeds[name]) for name in _points(rule, arcs, rule.speed_by))


def sailing_speed(
    rule: ir.Facing, arcs: Sequence[ir.Arcs], wind: int | None, heading: int | None
) -> float | None:
    """The unit's speed at the start of a move at ``heading`` with the wind from ``wind``: its
    ``speed by`` speed at that point of sail; None with no such rule, wind or heading."""
    table = speed_by_relative(rule, arcs)
    if not table or wind is None or heading is None:
        return None
    return table[(wind - heading) % len(table)][1]


def strength_extra(rule: ir.Facing, strength: str | None) -> tuple[str, float]:
    """``sail when (calm impassable, gale +1 MP)`` (issue 40): the wind's ``strength`` and what
    a step costs more in it (inf: impassable); a strength the rule does not name, or none given,
    costs nothing more."""
    if strength is None:
        return "", 0.0
    cost = dict(rule.strengths).get(strength, 0.0)
    return strength, math.inf if cost is None else cost


def strength_speed(rule: ir.Facing, strength: str | None) -> float | None:
    """``speed when (calm 0, gale 3)`` (issue 40): the unit's speed in the wind's ``strength``;
    None for a strength the rule does not name, or none given."""
    return dict(rule.strength_speeds).get(strength) if strength is not None else None
