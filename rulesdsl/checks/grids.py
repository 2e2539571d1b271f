"""Grids: a hex grid has no diagonals (E243), its six neighbours all share an edge."""

from __future__ import annotations

from typing import assert_never

from rulesdsl import ir
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.positions import Positions


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for grid in rs.grids:
        match grid.shape:
            case "hex":
                if grid.diagonals:
                    out.append(
                        error(
                            "E243",
                            "a hex grid has no diagonals: its six neighbours all share an edge",
                            where.of_field(grid, "shape", grid),
                            "remove `, diagonals ...`, or make the grid `square`",
                        )
                    )
            case "square":
                pass
            case _:
                assert_never(grid.shape)
    return out
