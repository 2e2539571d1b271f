"""Checks: an ordered series of passes over the IR, the same for every front end.

Each pass reads a :class:`rulesdsl.ir.Ruleset` and the
:class:`rulesdsl.positions.Positions`
that lowering recorded, and returns located diagnostics; none changes the IR. The order is
fixed: names first (a malformed name must not reach a message), then numbers, then the
passes that compute with them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from rulesdsl import ir
from rulesdsl.checks import (
    column_pick,
    costs,
    decisions,
    dice,
    examples,
    grids,
    labels,
    modifier_total,
    names,
    numbers,
    policies,
    results,
    roll_reach,
    sheet_words,
    sight_factor,
    sizes,
    unit_effects,
    walk,
)
from rulesdsl.diagnostics import Diagnostic
from rulesdsl.positions import Positions


class Pass(Protocol):
    """A pass: the ruleset, where its nodes were written and, when the caller has listed them
    already, every node of the ruleset (:func:`rulesdsl.checks.walk.nodes`)."""

    def __call__(
        self, rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None, /
    ) -> list[Diagnostic]: ...


PASSES: tuple[Pass, ...] = (
    names.check,
    sizes.check,
    numbers.check,
    dice.check,
    roll_reach.check,
    costs.check,
    results.check,
    column_pick.check,
    modifier_total.check,
    sight_factor.check,
    unit_effects.check,
    grids.check,
    policies.check,
    decisions.check,
    labels.check,
    examples.check,
)
"""Every pass that reads the ruleset alone, in the order it runs."""


def run(rs: ir.Ruleset, where: Positions, words: Path | None = None) -> list[Diagnostic]:
    """Every diagnostic of every pass, in pass order, then the sheet words' (W610), which
    also reads the project's catalog folder ``words``. The IR is walked once, here: the
    passes that look at every node share the list."""
    every = walk.nodes(rs)
    return [d for check in PASSES for d in check(rs, where, every)] + sheet_words.check(
        rs, where, words
    )
