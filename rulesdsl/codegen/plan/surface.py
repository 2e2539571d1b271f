"""The module plan's surface section (issue 36). A module's public surface: the names it exports,
the name types (unit types, features, tables ...), the argument checks each public function
makes, and the worked examples' questions."""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl import ir


@dataclass(frozen=True, slots=True)
class SurfacePlan:
    ruleset: ir.Ruleset
    """Transitional: the emitters still read this section's part of the IR (issue 36)."""


def build(rs: ir.Ruleset) -> SurfacePlan:
    return SurfacePlan(rs)
