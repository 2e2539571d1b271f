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
