"""Exact dice arithmetic for rules such as ``2d6``, ``1d6+3`` or ``d10``.

Everything is computed with integers and :class:`fractions.Fraction`, so
probabilities are exact (``P(2d6 >= 8) == Fraction(15, 36)``), and the module
uses nothing but the standard library.

>>> dice = parse_dice("2d6")
>>> chance_between(dice, 2, 7)
Fraction(7, 12)
>>> percent(chance_between(dice, 2, 7))
'58.3 %'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import accumulate

__all__ = [
    "D66",
    "MAX_COUNT",
    "MAX_SIDES",
    "Dice",
    "DiceError",
    "Roll",
    "chance_at_least",
    "chance_between",
    "parse_dice",
    "percent",
    "reachable_totals",
]

#: Largest number of dice in one expression (keeps distributions cheap to compute).
MAX_COUNT = 100
#: Largest number of sides on one die.
MAX_SIDES = 1000

# "2d6", "d10", "1d6+3", "3d6 - 2"; surrounding whitespace is stripped first.
_DICE_RE = re.compile(
    r"(?P<count>\d*)[dD](?P<sides>\d+)(?:\s*(?P<sign>[+-])\s*(?P<bonus>\d+))?",
    re.ASCII,
)


class DiceError(ValueError):
    """A dice expression is malformed or out of range."""


def _check_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DiceError(f"dice {name} must be an integer, got {value!r}")
    return value


@dataclass(frozen=True)
class Dice:
    """``count`` dice with ``sides`` faces each (numbered 1..sides), plus ``bonus``.

    ``str(Dice(2, 6, -1))`` is the canonical text ``"2d6-1"``.
    """

    count: int
    sides: int
    bonus: int = 0

    def __post_init__(self) -> None:
        count = _check_int("count", self.count)
        sides = _check_int("sides", self.sides)
        _check_int("bonus", self.bonus)
        if not 1 <= count <= MAX_COUNT:
            raise DiceError(f"dice count must be between 1 and {MAX_COUNT}, got {count}")
        if not 1 <= sides <= MAX_SIDES:
            raise DiceError(f"dice sides must be between 1 and {MAX_SIDES}, got {sides}")

    def __str__(self) -> str:
        if self.bonus > 0:
            suffix = f"+{self.bonus}"
        elif self.bonus < 0:
            suffix = str(self.bonus)
        else:
            suffix = ""
        return f"{self.count}d{self.sides}{suffix}"

    @property
    def minimum(self) -> int:
        """Smallest possible total (every die shows 1)."""
        return self.count + self.bonus

    @property
    def maximum(self) -> int:
        """Largest possible total (every die shows its top face)."""
        return self.count * self.sides + self.bonus

    @property
    def outcomes(self) -> int:
        """Number of equally likely rolls: ``sides ** count``."""
        return int(self.sides**self.count)

    @property
    def totals(self) -> range:
        """Every total the dice can roll."""
        return range(self.minimum, self.maximum + 1)

    @cached_property
    def _counts(self) -> tuple[int, ...]:
        """Ways to roll each total, indexed from ``minimum`` (exact integers).

        Built by convolving one die at a time, using prefix sums so each step
        is linear in the number of totals.  Cached on the instance only.
        """
        ways = [1] * self.sides  # one die: totals 1..sides, one way each
        for _ in range(self.count - 1):
            prefix = [0, *accumulate(ways)]
            length = len(ways) + self.sides - 1
            # new[t] = ways[t - sides + 1] + ... + ways[t], clipped to the list
            ways = [
                prefix[min(t + 1, len(ways))] - prefix[max(t - self.sides + 1, 0)]
                for t in range(length)
            ]
        return tuple(ways)

    def distribution(self) -> dict[int, Fraction]:
        """Exact probability of every reachable total, keyed ``minimum..maximum``.

        A fresh dict is returned on each call, so callers may modify it.
        """
        total = self.outcomes
        return {self.minimum + i: Fraction(n, total) for i, n in enumerate(self._counts)}

    def _ways_between(self, low: int, high: int) -> int:
        start = max(low, self.minimum) - self.minimum
        stop = min(high, self.maximum) - self.minimum + 1
        return sum(self._counts[start:stop]) if stop > start else 0


@dataclass(frozen=True)
class D66:
    """Two six-sided dice read as tens and units (11, 12, ... 16, 21, ... 66), plus ``bonus``:
    36 equally likely results, and no 17 to 20, 27 to 30 and so on."""

    bonus: int = 0

    def __str__(self) -> str:
        return "d66" + (f"{self.bonus:+d}" if self.bonus else "")

    @property
    def minimum(self) -> int:
        return 11 + self.bonus

    @property
    def maximum(self) -> int:
        return 66 + self.bonus

    @property
    def outcomes(self) -> int:
        return 36

    @property
    def totals(self) -> tuple[int, ...]:
        """Every total the dice can roll, in order."""
        return tuple(
            10 * tens + units + self.bonus for tens in range(1, 7) for units in range(1, 7)
        )

    def distribution(self) -> dict[int, Fraction]:
        return {total: Fraction(1, 36) for total in self.totals}

    def _ways_between(self, low: int, high: int) -> int:
        return sum(1 for total in self.totals if low <= total <= high)


Roll = Dice | D66
"""Any roll the rules make: dice added up, or a d66."""


def parse_dice(text: str) -> Dice:
    """Parse ``"2d6"``, ``"1d6+3"``, ``"d10"``, ``"3d6-2"``, ``" 2D6 "`` into a :class:`Dice`.

    A missing count means one die.  Whitespace is allowed around the text and
    around the ``+``/``-`` sign.  Anything else raises :class:`DiceError`.
    """
    if not isinstance(text, str):
        raise DiceError(f"dice expression must be a string, got {type(text).__name__}")
    match = _DICE_RE.fullmatch(text.strip())
    if match is None:
        raise DiceError(
            f"invalid dice expression {text!r}: expected NdS with an optional +B or -B, "
            "e.g. '2d6', 'd10', '1d6+3'"
        )
    count = int(match["count"]) if match["count"] else 1
    sides = int(match["sides"])
    bonus = int(match["bonus"]) if match["bonus"] else 0
    if match["sign"] == "-":
        bonus = -bonus
    if count == 0:
        raise DiceError(f"invalid dice expression {text!r}: need at least one die")
    if sides == 0:
        raise DiceError(f"invalid dice expression {text!r}: a die needs at least one side")
    try:
        return Dice(count, sides, bonus)
    except DiceError as exc:
        raise DiceError(f"invalid dice expression {text!r}: {exc}") from None


def chance_at_least(dice: Roll, target: int) -> Fraction:
    """Exact probability that a roll of ``dice`` totals ``target`` or more."""
    return Fraction(dice._ways_between(target, dice.maximum), dice.outcomes)


def chance_between(dice: Roll, low: int, high: int | None) -> Fraction:
    """Exact probability that ``low <= total <= high`` (both inclusive).

    ``high=None`` means "``low`` and above".  An empty range (``high < low``)
    has probability 0.
    """
    top = dice.maximum if high is None else high
    return Fraction(dice._ways_between(low, top), dice.outcomes)


def percent(fraction: Fraction) -> str:
    """Format a probability as a percentage with one decimal: ``Fraction(7, 12)`` → ``"58.3 %"``.

    Rounding is exact and half-up (halves round away from zero), e.g.
    ``Fraction(1, 2000)`` (0.05 %) gives ``"0.1 %"``.
    """
    tenths = Fraction(fraction) * 1000
    magnitude = abs(tenths)
    rounded = int(magnitude + Fraction(1, 2))  # floor(x + 1/2) for x >= 0
    sign = "-" if tenths < 0 and rounded else ""
    return f"{sign}{rounded // 10}.{rounded % 10} %"


def reachable_totals(dice: Dice, modifiers: Iterable[int]) -> range:
    """Span of totals reachable by ``dice`` plus any one of ``modifiers`` (0 always included).

    Returns ``range(lowest, highest + 1)``.  It is the overall span: if two
    modifiers differ by more than ``maximum - minimum`` the span may include
    totals that no single modifier reaches.
    """
    mods = {0, *modifiers}
    return range(dice.minimum + min(mods), dice.maximum + max(mods) + 1)
