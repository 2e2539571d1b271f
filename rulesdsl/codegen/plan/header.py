"""The module plan's header section (issue 36). What a module says of its ruleset: identity, title,
books, remarks, units, modes, groups, layers, parameters."""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl import ir


@dataclass(frozen=True, slots=True)
class HeaderPlan:
    ruleset: ir.Ruleset
    """Transitional: the emitters still read this section's part of the IR (issue 36)."""


def build(rs: ir.Ruleset) -> HeaderPlan:
    return HeaderPlan(rs)
