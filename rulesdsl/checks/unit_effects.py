"""Effects keyed by unit type (issue 40, item 7, rules that feed rules): ``damage 2, damage &
infantry 3`` in a dice row's or a results table's outcome's effects. A unit type with two
keywords that both give an effect a value, with no ``precedence`` between them and different
values, has no one answer: E477, as E232 is for a cost cell."""

from __future__ import annotations

from rulesdsl import ir, spelling
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.positions import Positions
from rulesdsl.semantics.keywords import group_choice


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    order = [p.groups for p in rs.precedence]
    rows: list[tuple[str, ir.DiceRow | ir.Outcome]] = [
        *((t.id, r) for t in rs.dice_tables for r in t.rows),
        *((t.id, o) for t in rs.results_tables for o in t.outcomes),
    ]
    for table, row in rows:
        for effect, keyed in row.by_unit.items():
            for mode in rs.modes:
                if mode.id in keyed:
                    continue
                _, clash = group_choice(keyed, mode.id, rs.groups, order, everyone=True)
                if clash is not None:
                    a, b = clash
                    gives = (
                        f"'{a}' ({spelling.value(keyed[a])}) and '{b}' ({spelling.value(keyed[b])})"
                    )
                    out.append(
                        error(
                            "E477",
                            f"'{mode.id}' gets '{effect}' of '{table}.{row.id}' from {gives}",
                            where.of(row),
                            f"give '{mode.id}' its own value (`{effect} & {mode.id} ...`), or "
                            f"say which keyword wins: `precedence {a}, {b}`",
                        )
                    )
    return out
