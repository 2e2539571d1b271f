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

With ``whole move`` lines a leg may name, third, the features it crosses or enters (a straight
or reverse leg only: a turn or pivot crosses and enters nothing), and the legs are all read
before any is judged. A leg counts once for a rule when it names one of the rule's features: a
leg beyond a limit is refused (``leg 3 goes beyond 'One river a move' (at most 1 per move)``), a
``crosses`` rule a leg counts for is carried in the answer's marks, and a bonus every straight
or reverse leg counts for raises the allowance (a move of turns alone keeps it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Literal, assert_never, get_args

from rulesdsl import ir

Leg = Literal["straight", "reverse", "turn", "pivot"]
"""The kinds of leg a free move is made of."""

LEGS: tuple[Leg, ...] = get_args(Leg)

EPSILON = 1e-9
"""How far a sum of inches may stray from the allowance and still be it (1.1 + 1.9 is 3)."""


class IllegalMove(ValueError):
    """A move the rule does not allow, or legs that are not a move; the message says which."""


def _amount(index: int, leg: object, sizes: tuple[int, ...] = (2,)) -> tuple[Leg, float]:
    """A leg's kind and amount, or IllegalMove for what is not a leg (``sizes``: how many
    parts a leg may have)."""
    pair = leg if isinstance(leg, list | tuple) and len(leg) in sizes else None
    move = next((m for m in LEGS if pair is not None and m == pair[0]), None)
    amount = pair[1] if pair is not None else None
    if move is None or isinstance(amount, bool) or not isinstance(amount, int | float):
        shape = "(move, amount) pair" if sizes == (2,) else "(move, amount[, features]) leg"
        raise IllegalMove(
            f"leg {index} must be a {shape}: move 'straight', 'reverse', 'turn' or "
            "'pivot', amount a finite number"
        )
    try:
        finite = math.isfinite(amount)
    except OverflowError:
        finite = False
    if not finite:
        raise IllegalMove(f"leg {index} must have a finite amount")
    return move, float(amount)


def _check(index: int, move: Leg, amount: float, rule: ir.FreeFacing) -> None:
    """Whether the rule allows this leg on its own (its length or angle, reverse, pivot)."""
    match move:
        case "straight" | "reverse":
            if amount <= 0:
                raise IllegalMove(
                    f"leg {index}: a {move} leg must be longer than 0; got {amount!r}"
                )
            if move == "reverse" and not rule.reverse_half:
                raise IllegalMove(
                    f"leg {index}: {rule.mode} may not reverse (no `reverse at half speed`)"
                )
        case "turn" | "pivot":
            if not 0 < abs(amount) <= 180:
                raise IllegalMove(
                    f"leg {index}: a {move} is above 0 and at most 180 degrees, either way; "
                    f"got {amount!r}"
                )
            if move == "pivot" and rule.pivot is None:
                raise IllegalMove(
                    f"leg {index}: {rule.mode} may not pivot (no `pivot` in its facing)"
                )
        case _:
            assert_never(move)


def _turn(index: int, move: Leg, amount: float, run: float, rule: ir.FreeFacing) -> float:
    """What a turn or pivot costs; a turn before the run straight is refused."""
    if move == "pivot":
        return rule.pivot or 0.0
    if run < rule.straight - EPSILON:
        raise IllegalMove(
            f"leg {index} turns after {run!r} straight; {rule.mode} goes "
            f"{float(rule.straight)!r} straight before a turn"
        )
    return rule.turn_cost * math.ceil(abs(amount) / rule.turn_step - EPSILON)


def free_move(
    rule: ir.FreeFacing, legs: Sequence[object], allowance: float, beyond: Mapping[int, str] = {}
) -> tuple[float, float, bool, str]:
    """The move's (used, left, ends, why): the cost of the legs, what is left of the
    allowance, whether the move ends there and why ("" when it does not). ``beyond``: the legs
    a whole-move limit refuses, once the leg itself is allowed (:func:`free_move_whole`)."""
    used, run, why = 0.0, 0.0, ""
    for index, leg in enumerate(legs, 1):
        move, amount = _amount(index, leg)
        if why:
            raise IllegalMove(f"leg {index} comes after the move ended ({why})")
        _check(index, move, amount, rule)
        match move:
            case "straight":
                used, run = used + amount, run + amount
            case "reverse":
                used += 2 * amount
            case "turn" | "pivot":
                used, run = used + _turn(index, move, amount, run, rule), 0.0
                if rule.ends_above is not None and abs(amount) > rule.ends_above:
                    why = f"leg {index} turns more than {float(rule.ends_above)!r} degrees"
            case _:
                assert_never(move)
        if index in beyond:
            raise IllegalMove(beyond[index])
        if used > allowance + EPSILON:
            raise IllegalMove(
                f"leg {index} brings the move to {used!r}, more than the allowance of "
                f"{float(allowance)!r}"
            )
    left = max(0.0, allowance - used)
    if not why and left <= EPSILON:
        why = "the allowance is spent"
    return used, left, bool(why), why


def _named(index: int, leg: object, move: Leg, features: frozenset[str]) -> frozenset[str]:
    """The features a leg names as crossed or entered (its third part; none without one)."""
    if not isinstance(leg, list | tuple) or len(leg) < 3:
        return frozenset()
    named = leg[2]
    if not isinstance(named, list | tuple) or not all(
        isinstance(f, str) and f in features for f in named
    ):
        raise IllegalMove(f"leg {index} must name what it crosses or enters as a list of features")
    if named and move in ("turn", "pivot"):
        raise IllegalMove(f"leg {index}: a {move} crosses and enters nothing")
    return frozenset(named)


def _label(rs: ir.Ruleset, rule: ir.WholeMove) -> str:
    return rule.info.labels.get(rs.languages[0]) or next(iter(rule.info.labels.values()), rule.id)


def free_move_whole(
    rs: ir.Ruleset, rule: ir.FreeFacing, legs: Sequence[object], allowance: float
) -> tuple[float, float, bool, str, tuple[str, ...]]:
    """A free move in a ruleset with ``whole move`` lines: :func:`free_move`'s answer, the
    whole-move rules applied to what the legs name, and the ``crosses`` rules it carries."""
    known = frozenset(f.id for f in rs.features)
    read: list[tuple[Leg, float]] = []
    named: list[frozenset[str]] = []
    for i, leg in enumerate(legs, 1):  # each leg read, then what it names
        read.append(_amount(i, leg, (2, 3)))
        named.append(_named(i, leg, read[-1][0], known))
    moved = [n for n, (m, _) in zip(named, read, strict=True) if m in ("straight", "reverse")]
    bonus = sum(
        w.bonus
        for w in rs.whole_moves
        if w.bonus is not None and all(n & set(w.features) for n in moved)
    )
    rules = [w for w in rs.whole_moves if w.bonus is None]
    beyond: dict[int, str] = {}
    for w in rules:
        counted = [i for i, n in enumerate(named, 1) if n & set(w.features)]
        if w.most is not None and len(counted) > w.most:
            reason = (
                f"leg {counted[w.most]} goes beyond '{_label(rs, w)}' (at most {w.most} per move)"
            )
            beyond.setdefault(counted[w.most], reason)
    answer = free_move(rule, read, allowance + bonus, beyond)
    marks = tuple(w.id for w in rules if w.most is None and any(n & set(w.features) for n in named))
    return (*answer, marks)
