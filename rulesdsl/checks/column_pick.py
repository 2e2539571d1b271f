"""A decision that picks a results table's column (issue 40, rules that feed rules).

``dice penetration "Penetration" : 1d6 by gun_class`` whose columns are categories, and a
decision ``gun_class``: the decision's outcome names the column. Its outcomes must be the
table's columns, no more and no fewer (E430, at the outcome no column has and at the column
no outcome gives); a decision that gives a number cannot name a category (E431).
"""

from __future__ import annotations

from rulesdsl import ir, semantics, words
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.positions import Positions


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    decisions = {d.id: d for d in rs.decisions}
    for table in rs.results_tables:
        named = decisions.get(table.by)
        if named is None or not table.columns:
            continue
        if not all(words.is_category(c.bound) for c in table.columns):
            continue
        if semantics.column_decision(rs, table) is None:
            out.append(
                error(
                    "E431",
                    f"'{table.id}' is picked by '{named.id}', which gives a number, but its "
                    "columns are categories a number cannot name",
                    where.of_field(table, "by", table),
                    f"make '{named.id}' give outcomes named like the columns, or pick the "
                    "column by another name",
                )
            )
            continue
        _same_names(table, named, where, out)
    return out


def _same_names(
    table: ir.ResultsTable, decision: ir.Decision, where: Positions, out: list[Diagnostic]
) -> None:
    """Each outcome of the decision a column of the table, each column an outcome (E430)."""
    columns = [c.id for c in table.columns]
    given = {r.outcome for r in decision.rows}
    outcomes = {o.id: o for o in decision.outcomes}  # each where its name is first written
    reported: set[str] = set()
    for row in decision.rows:
        if row.outcome in columns or row.outcome in reported:
            continue
        reported.add(row.outcome)
        out.append(
            error(
                "E430",
                f"'{decision.id}' picks the column of '{table.id}', but its outcome "
                f"'{row.outcome}' is not one of its columns ({', '.join(columns)})",
                where.of(outcomes.get(row.outcome), row, decision),
                f"name the outcome like a column of '{table.id}', or add `column "
                f"{row.outcome}` to the table",
            )
        )
    for column in table.columns:
        if column.id in given:
            continue
        out.append(
            error(
                "E430",
                f"no outcome of '{decision.id}' picks the column '{column.id}' of '{table.id}'",
                where.of(column, table),
                f"give '{column.id}' on a row of '{decision.id}' (`otherwise -> {column.id}`), "
                "or remove the column",
            )
        )
