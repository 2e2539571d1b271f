"""What ``module_free_facing.py.j2`` needs (issue 40): each facing rule off the grid of the
plan's movement section as Python source."""

from __future__ import annotations

from rulesdsl.codegen.plan import movement as plan_movement

FREE_FACING_EXPORTS = ("FREE_FACINGS", "FreeFacingRule", "FreeMove", "IllegalMove", "free_move")
"""The names the part for facing off the grid adds to ``__all__``."""


def _number(value: float | None) -> str:
    return "None" if value is None else repr(float(value))


def rule_py(f: plan_movement.FreeFacingRule) -> tuple[str, str]:
    """The rule's unit type and its ``FreeFacingRule(...)`` source."""
    fields = (f.turn_cost, f.turn_step, f.pivot, f.straight, f.ends_above)
    return f.mode, f"FreeFacingRule({', '.join(map(_number, fields))}, {f.reverse_half})"
