"""The module plan's code section (issue 36). What a module computes: steps (terms), decisions
(condition trees, outcomes), arithmetic (expression trees), the table cells decisions read."""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl import ir


@dataclass(frozen=True, slots=True)
class CodePlan:
    ruleset: ir.Ruleset
    """Transitional: the emitters still read this section's part of the IR (issue 36)."""


def build(rs: ir.Ruleset) -> CodePlan:
    return CodePlan(rs)
