"""The module plan's data section (issue 36). The data a module carries: features and their costs,
contexts, modifiers and their policies, tables, dice tables, triggers, results tables,
exclusions."""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl import ir


@dataclass(frozen=True, slots=True)
class DataPlan:
    ruleset: ir.Ruleset
    """Transitional: the emitters still read this section's part of the IR (issue 36)."""


def build(rs: ir.Ruleset) -> DataPlan:
    return DataPlan(rs)
