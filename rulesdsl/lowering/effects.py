"""Effects that feed a sight rule or the movement cost (issue 24, item 4): the checks.

A dice outcome whose effects name a sight rule (``1- smoke "Smoke" | los +1``) or ``cost``
(``| cost +1``) is usable where a feature is (:mod:`rulesdsl.semantics.effects`). Misuse:

- E350: the value is not a plain number (``los heavy``, ``cost 1d6``, ``cost`` alone);
- E351: the outcome is named like a feature: ``move_cost`` and ``line_of_sight`` could not tell
  which is meant;
- E352: two outcomes of one name (in two tables) both give the rule or the cost a value;
- E353: a cost in another unit than the ruleset's cost unit, or a sight value with a unit;
- E354: a whole-map condition's sight value is a step: a condition counts once per line, with
  no length of its own for the step;
- W350 (in :func:`rulesdsl.lowering.sight.effects`, where each effect's place is known): an
  effect named nearly like ``cost``, a sight rule or a modifier (``cots +1``), which therefore
  feeds nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesdsl import ir
from rulesdsl.lowering.context import Context
from rulesdsl.semantics import effects as semantics_effects
from rulesdsl.semantics.tables import covers_map


def check(
    lw: Context,
    layers: Sequence[ir.Layer],
    features: Sequence[ir.Feature],
    dice_tables: Sequence[ir.DiceTable],
    results_tables: Sequence[ir.ResultsTable],
    sights: Sequence[ir.Sight],
    cost_unit: str | None,
) -> None:
    """Report E350-E354 for the outcomes and conditions that feed sight rules and costs."""
    rules = {r.id for r in sights}
    columns = (semantics_effects.COST, *rules)
    feature_ids = {f.id for f in features}
    given: dict[tuple[str, str], str] = {}  # (outcome, column) -> the table that gave it
    places: list[tuple[str, str, dict[str, ir.Value], object, object]] = [
        (t.id, r.id, r.effects, r, t) for t in dice_tables for r in t.rows
    ]
    places += [(t.id, o.id, o.effects, o, t) for t in results_tables for o in t.outcomes]
    for table, outcome, effects, node, enclosing in places:
        fed = [c for c in columns if c in effects]
        if not fed:
            continue
        pos = lw.where.of(node, enclosing)
        what = {c: _what(c) for c in fed}
        if outcome in feature_ids:
            lw.err(
                "E351",
                f"the outcome '{outcome}' of '{table}' feeds {what[fed[0]]}, and a feature is "
                f"named '{outcome}' too: a place's names could not tell them apart",
                pos,
                f"rename the outcome, e.g. `{outcome}_result`",
            )
        for column in fed:
            value = effects[column]
            if not isinstance(value, ir.Number):
                lw.err(
                    "E350",
                    f"the outcome '{outcome}' adds to {what[column]}: that takes a number",
                    pos,
                    f"write `| {column} +1`",
                )
                continue
            if column == semantics_effects.COST:
                if value.unit is not None and value.unit != cost_unit:
                    lw.err(
                        "E353",
                        f"the outcome '{outcome}' gives the cost in {value.unit}, and costs "
                        f"are in {cost_unit or 'plain numbers'}",
                        pos,
                        f"write the number in {cost_unit}" if cost_unit else "drop the unit",
                    )
            elif value.unit is not None:
                lw.err(
                    "E353",
                    f"the outcome '{outcome}' gives the sight rule '{column}' a value in "
                    f"{value.unit}: a sight count has no unit",
                    pos,
                    f"write `| {column} +1`",
                )
            earlier = given.get((outcome, column))
            if earlier is not None:
                lw.err(
                    "E352",
                    f"'{outcome}' already gives {what[column]} a value (in '{earlier}')",
                    pos,
                    "rename one of the outcomes, or give the value in one table only",
                )
            else:
                given[outcome, column] = table
    conditions = {layer.id for layer in layers if covers_map(layer)}
    for feature in features:
        if feature.layer not in conditions:
            continue
        for rule in sights:
            cell = feature.cells.get(rule.id)
            values = [cell.default, *cell.exceptions.values()] if cell is not None else []
            if any(isinstance(v, ir.StepCost) for v in values):
                lw.err(
                    "E354",
                    f"'{feature.id}' is a whole-map condition: it adds to a line of sight once, "
                    f"with no length for a step in '{rule.id}'",
                    lw.where.of(feature),
                    "give it a number, or move it to a layer of places",
                )


def _what(column: str) -> str:
    if column == semantics_effects.COST:
        return "the movement cost"
    return f"the sight rule '{column}'"
