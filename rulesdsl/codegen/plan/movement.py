"""The module plan's movement section (issue 36). How a module moves units over a map: kinds of
move, the rolls a place makes due, facing rules, costs paid once per move, grids, place states
and edges."""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl import ir


@dataclass(frozen=True, slots=True)
class MovementPlan:
    ruleset: ir.Ruleset
    """Transitional: the emitters still read this section's part of the IR (issue 36)."""


def build(rs: ir.Ruleset) -> MovementPlan:
    return MovementPlan(rs)
