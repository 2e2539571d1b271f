"""Where a ruleset's statements came from: what :mod:`rulesdsl.variants.resolve` hands to
:mod:`rulesdsl.lowering.lower` besides the statements (a module of its own so neither imports the
other)."""

from __future__ import annotations

from rulesdsl import ir
from rulesdsl.ir.records import dataclass


@dataclass(frozen=True, slots=False)
class Lineage:
    """The ruleset's own digest, its extends chain (nearest first) and its changes."""

    digest: str
    extends: tuple[ir.Ancestor, ...] = ()
    changes: tuple[ir.Change, ...] = ()
