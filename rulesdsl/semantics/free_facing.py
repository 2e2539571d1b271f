"""What a move off the grid means (issue 40): a unit type with ``facing MODE : ...`` and no grid
moves freely, as legs in order, each ``("straight", inches)``, ``("reverse", inches)``,
``("turn", degrees)`` or ``("pivot", degrees)`` (a negative angle turns the other way).

A straight leg costs its length and counts towards the straight run; a reverse leg costs twice
its length (``reverse at half speed``; no reverse without it) and leaves the run as it is. A turn
costs the turn cost for each step of degrees begun (``turn 1 in per 45 deg``: 1 for 1 to 45
degrees, 2 for 46 to 90) and needs the run (``straight 2 in before turn``) since the start or the
last turn; a pivot costs its flat cost whatever its angle, needs no run, and is allowed only when
written. Both set the run back to 0. A turn or pivot of more than ``turn above N deg ends move``
ends the move: no leg may follow. A move that costs more than the allowance is refused; one that
spends it all ends. The generated module's ``free_move`` answers the same (tests hold them to it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rulesdsl import ir

LEGS = ("straight", "reverse", "turn", "pivot")
"""The kinds of leg a free move is made of."""

EPSILON = 1e-9
"""How far a sum of inches may stray from the allowance and still be it (1.1 + 1.9 is 3)."""


class IllegalMove(ValueError):
    """A move the rule does not allow, or legs that are not a move; the message says which."""


def _amount(index: int, leg: object) -> tuple[str, float]:
    """A leg's kind and amount, or IllegalMove for what is not a leg."""
    ok = isinstance(leg, list | tuple) and len(leg) == 2 and leg[0] in LEGS
    amount = leg[1] if ok and isinstance(leg, list | tuple) else None
    if not ok or isinstance(amount, bool) or not isinstance(amount, int | float):
        raise IllegalMove(
            f"leg {index} must be a (move, amount) pair: move 'straight', 'reverse', 'turn' or "
            "'pivot', amount a finite number"
        )
    try:
        finite = math.isfinite(amount)
    except OverflowError:
        finite = False
    if not finite:
        raise IllegalMove(f"leg {index} must have a finite amount")
    return str(leg[0]), float(amount)  # type: ignore[index]


def _check(index: int, kind: str, amount: float, mode: str, rule: ir.FreeFacing) -> None:
    """Whether the rule allows this leg on its own (its length or angle, reverse, pivot)."""
    if kind in ("straight", "reverse") and amount <= 0:
        raise IllegalMove(f"leg {index}: a {kind} leg must be longer than 0; got {amount!r}")
    if kind in ("turn", "pivot") and not 0 < abs(amount) <= 180:
        raise IllegalMove(
            f"leg {index}: a {kind} is above 0 and at most 180 degrees, either way; got {amount!r}"
        )
    if kind == "reverse" and not rule.reverse_half:
        raise IllegalMove(f"leg {index}: {mode} may not reverse (no `reverse at half speed`)")
    if kind == "pivot" and rule.pivot is None:
        raise IllegalMove(f"leg {index}: {mode} may not pivot (no `pivot` in its facing)")


def free_move(
    rule: ir.FreeFacing, legs: Sequence[object], allowance: float
) -> tuple[float, float, bool, str]:
    """The move's (used, left, ends, why): the cost of the legs, what is left of the
    allowance, whether the move ends there and why ("" when it does not)."""
    used, run, why = 0.0, 0.0, ""
    for index, leg in enumerate(legs, 1):
        kind, amount = _amount(index, leg)
        if why:
            raise IllegalMove(f"leg {index} comes after the move ended ({why})")
        _check(index, kind, amount, rule.mode, rule)
        if kind == "straight":
            used, run = used + amount, run + amount
        elif kind == "reverse":
            used += 2 * amount
        else:
            if kind == "turn" and run < rule.straight - EPSILON:
                raise IllegalMove(
                    f"leg {index} turns after {run!r} straight; {rule.mode} goes "
                    f"{float(rule.straight)!r} straight before a turn"
                )
            steps = math.ceil(abs(amount) / rule.turn_step - EPSILON)
            cost = rule.turn_cost * steps if kind == "turn" else rule.pivot or 0.0
            used, run = used + cost, 0.0
            if rule.ends_above is not None and abs(amount) > rule.ends_above:
                why = f"leg {index} turns more than {float(rule.ends_above)!r} degrees"
        if used > allowance + EPSILON:
            raise IllegalMove(
                f"leg {index} brings the move to {used!r}, more than the allowance of "
                f"{float(allowance)!r}"
            )
    left = max(0.0, allowance - used)
    if not why and left <= EPSILON:
        why = "the allowance is spent"
    return used, left, bool(why), why
