"""The module plan's sight section (issue 36). Line of sight: sight rules and their values per
feature, dice outcomes fed to costs and sight."""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl import ir


@dataclass(frozen=True, slots=True)
class SightPlan:
    ruleset: ir.Ruleset
    """Transitional: the emitters still read this section's part of the IR (issue 36)."""


def build(rs: ir.Ruleset) -> SightPlan:
    return SightPlan(rs)
