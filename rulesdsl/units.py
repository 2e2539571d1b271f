"""The units a ruleset may write after its numbers, grouped by what they measure."""

from __future__ import annotations

from collections.abc import Mapping

DIMENSIONS: Mapping[str, str] = {
    # lengths and map distances
    "in": "length",
    "cm": "length",
    "mm": "length",
    "m": "length",
    "km": "length",
    "ft": "length",
    "hex": "length",
    "square": "length",
    "level": "length",
    # what movement costs
    "MP": "cost",
    "PA": "cost",
    "AP": "cost",
    "action": "cost",
    # angles
    "deg": "angle",
    # counts and scores
    "points": "count",
    "pieces": "count",
    "rolls": "count",
    "dc": "count",
    # time
    "turn": "time",
    "round": "time",
    "s": "time",
    # temperature, gravity
    "C": "temperature",
    "g": "gravity",
}

ROLES: Mapping[str, str] = {
    "distance": "length",
    "height": "length",
    "cost": "cost",
    "concealment": "count",
    "modifier": "count",
    "time": "time",
}
"""What a `units ROLE UNIT` line may bind, and the dimension the unit must have."""

BOOL_UNIT = "bool"
"""The pseudo-unit of yes/no inputs to decisions."""


def dimension(unit: str) -> str | None:
    return DIMENSIONS.get(unit)


NONNEGATIVE = frozenset({"length", "angle", "time", "gravity"})
"""The dimensions whose inputs are never negative."""


def least(unit: str) -> int | None:
    """The least value an input in ``unit`` may take: 0 for a distance, angle or time, else
    None (a count or a score may be negative)."""
    return 0 if dimension(unit) in NONNEGATIVE else None
