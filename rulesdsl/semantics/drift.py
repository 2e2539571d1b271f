"""Drift at the end of a move (issue 40; docs/language.md, "Drift at the end of a move"): the
reference the generated modules' ``Route.drift`` is tested against."""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence

from rulesdsl import ir
from rulesdsl.semantics import move_cost
from rulesdsl.semantics.routes import can_end, must_stop

_IN_BAND: Mapping[str, Callable[[int, int], bool]] = {"below": operator.lt, "above": operator.gt}
"""How a band's state compares with its bound."""

HEX_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SQUARE_STEPS = ((1, 0), (0, -1), (-1, 0), (0, 1))
EIGHT_STEPS = ((1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1))


def entry(rs: ir.Ruleset, mode: str) -> ir.DriftEntry | None:
    """The entry ``mode`` drifts by: its own, else its keywords' (they agree, or the build
    refused it: E445), else the entry for all; None when it does not drift (no entry, or 0)."""
    if not rs.drifts:
        return None
    by_name = {e.mode: e for e in rs.drifts[0].entries}
    keywords = next((m.keywords for m in rs.modes if m.id == mode), ())
    found = by_name.get(mode) or next((by_name[k] for k in keywords if k in by_name), None)
    found = found or by_name.get("")
    return found if found is not None and found.distance > 0 else None


def drifts_in(found: ir.DriftEntry, state: Mapping[str, int] | None) -> bool:
    """Whether the unit drifts at the state it ends its move with (no state given: it does)."""
    if not found.state or state is None:
        return True
    return _IN_BAND[found.op](state[found.state], found.bound)


def blocked(rs: ir.Ruleset, mode: str, features: Sequence[str]) -> bool:
    """Whether drift stops before a place with ``features``: one the unit may not enter (a
    feature impassable or prohibited for it) or may not end in."""
    return not can_end(rs, mode, features) or any(
        isinstance(move_cost(rs, mode, [f]), ir.Marker) for f in features
    )


def drift(
    rs: ir.Ruleset,
    mode: str,
    end: tuple[int, int],
    wind: int,
    steps: Sequence[tuple[int, int]],
    places: Callable[[tuple[int, int]], Sequence[str] | None],
    state: Mapping[str, int] | None = None,
) -> tuple[int, int] | None:
    """Where the wind blowing from heading ``wind`` (of ``steps``, the grid's directions)
    carries ``mode`` from ``end``, the last place of its legal move; ``places`` gives a place's
    features (None off the board). Place by place downwind up to its distance: it stops before
    the board's edge or a :func:`blocked` place, and in a place where it must stop. None when
    it does not drift."""
    found = entry(rs, mode)
    if found is None or not drifts_in(found, state):
        return None
    dq, dr = steps[(wind + len(steps) // 2) % len(steps)]
    place = end
    for _ in range(found.distance):
        there = (place[0] + dq, place[1] + dr)
        features = places(there)
        if features is None or blocked(rs, mode, features):
            break
        place = there
        if must_stop(rs, mode, features):
            break
    return place
