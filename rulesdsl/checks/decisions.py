"""Decisions: the first matching row wins, so the last row is ``otherwise`` and no row
follows it (E206)."""

from __future__ import annotations

from rulesdsl import ir
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.positions import Positions


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for decision in rs.decisions:
        for row in decision.rows[:-1]:
            if not row.conditions:
                out.append(
                    error(
                        "E206",
                        "rows after `otherwise` can never be reached",
                        where.of(row, decision),
                        "`otherwise` goes last",
                    )
                )
        if not decision.rows or decision.rows[-1].conditions:
            out.append(
                error(
                    "E206",
                    f"decision '{decision.id}' has no `otherwise` row",
                    where.of(decision),
                    "end the table with `otherwise -> <outcome>`",
                )
            )
    return out
