"""Checks: an ordered series of passes over the IR, the same for every front end.

Each pass reads a :class:`rulesdsl.ir.Ruleset` and the
:class:`rulesdsl.positions.Positions`
that lowering recorded, and returns located diagnostics; none changes the IR. The order is
fixed: names first (a malformed name must not reach a message), then numbers, then the
passes that compute with them.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import ir
from rulesdsl.checks import (
    costs,
    decisions,
    dice,
    examples,
    grids,
    labels,
    names,
    numbers,
    policies,
    results,
    sheet_words,
    sizes,
)
from rulesdsl.diagnostics import Diagnostic
from rulesdsl.positions import Positions

Pass = Callable[[ir.Ruleset, Positions], list[Diagnostic]]

PASSES: tuple[Pass, ...] = (
    names.check,
    sizes.check,
    numbers.check,
    dice.check,
    costs.check,
    results.check,
    grids.check,
    policies.check,
    decisions.check,
    labels.check,
    sheet_words.check,
    examples.check,
)
"""Every pass, in the order it runs."""


def run(rs: ir.Ruleset, where: Positions) -> list[Diagnostic]:
    """Every diagnostic of every pass, in pass order."""
    return [d for check in PASSES for d in check(rs, where)]
