"""The data the generated module carries, from the plan's data section: features and their costs,
contexts, modifiers and their policies, tables, dice tables, triggers, results tables and
exclusions. One ``<node>_py`` function per plan node gives the templates its values."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from rulesdsl.codegen.plan import data as plan_data
from rulesdsl.codegen.plan import values as plan_values
from rulesdsl.codegen.python.values import cell_py, literal_py, per_distance_py, tidy


def data_context(plan: plan_data.DataPlan) -> dict[str, Any]:
    """The template's variables for FEATURES, CONTEXTS, MODIFIERS, TABLES, DICE_TABLES,
    TRIGGERS, RESULTS_TABLES and what ``move_cost`` and ``modifier`` read beside them."""
    return {
        "features": [feature_py(f) for f in plan.features],
        "params": [(p.id, p.value) for p in plan.params],
        "unfilled": [
            ((mode, f.id), cost.param)
            for f in plan.features
            for mode, cost in f.costs.items()
            if isinstance(cost, plan_values.Unfilled)
        ],
        "contexts": [(c.id, c.values) for c in plan.contexts],
        "modifiers": [modifier_py(m) for m in plan.modifiers],
        "precedence": plan.precedence,
        "tables": [table_py(t) for t in plan.tables],
        "dice_tables": [dice_table_py(t) for t in plan.dice_tables],
        "triggers": [trigger_py(t) for t in plan.triggers],
        "exclusions": [(e.subject, e.others) for e in plan.exclusions],
        "ignores_others": plan.ignores_others,
        "whole_map": plan.whole_map,
        "one_per_place": plan.one_per_place,
        "summed_modifiers": tuple(m.id for m in plan.modifiers if m.simply_added),
        "best_groups": [
            (m.id, {i: (b.group, b.highest) for i, b in m.best.items()})
            for m in plan.modifiers
            if m.best
        ],
        "step_inputs": [(m.id, m.step_inputs) for m in plan.modifiers if m.step_inputs],
        "sight_factors": [(m.id, m.sights) for m in plan.modifiers if m.sights],
        "modifier_bands": {
            m.id: tuple((b.index, b.side, b.bound, literal_py(b.value)) for b in m.bands)
            for m in plan.modifiers
            if m.bands
        },
        "results_tables": [results_table_py(t) for t in plan.results_tables],
        "categories": any(t.categories for t in plan.results_tables),
        "picked_by": [t.id for t in plan.results_tables if t.picked_by],
        "unit_effects": {
            table: {
                outcome: {
                    name: {m: literal_py(v) for m, v in by.items()} for name, by in es.items()
                }
                for outcome, es in outcomes.items()
            }
            for table, outcomes in plan.unit_effects.items()
        },
    }


def feature_py(f: plan_data.Feature) -> SimpleNamespace:
    """A feature as FEATURES writes it. Attributes, not a dict's keys: Jinja reads ``f.id`` by
    ``getattr`` first, and a dict's miss costs an AttributeError before the key is read (issue
    44: about 45,000 of them for 5,000 features)."""
    return SimpleNamespace(
        id=f.id,
        layer=f.layer,
        labels=f.labels,
        costs={mode: per_distance_py(c) for mode, c in f.costs.items()},
        notes=f.notes,
        source=f.source,
    )


def modifier_py(m: plan_data.Modifier) -> dict[str, Any]:
    return {
        "id": m.id,
        "context": m.context,
        "entries": [(item, {k: cell_py(v) for k, v in vals.items()}) for item, vals in m.entries],
        "combinations": [(c.members, literal_py(c.value)) for c in m.combinations],
        "combine": m.combine,
        "clamp": (tidy(m.clamp[0]), tidy(m.clamp[1])) if m.clamp is not None else None,
        "context2": m.context2,
        "pairs": [
            (item, {(p.first, p.second): literal_py(p.value) for p in pairs})
            for item, pairs in m.pairs
        ],
    }


def table_py(t: plan_data.Table) -> dict[str, Any]:
    return {
        "id": t.id,
        "labels": t.labels,
        "columns": tuple(c.id for c in t.columns),
        "column_labels": {c.id: c.labels for c in t.columns if c.labels},
        "column_notes": {c.id: c.notes for c in t.columns if c.notes},
        "rows": [
            (
                tidy(r.key) if isinstance(r.key, float) else r.key,
                tuple(literal_py(c) for c in r.cells),
            )
            for r in t.rows
        ],
    }


def dice_table_py(t: plan_data.DiceTable) -> dict[str, Any]:
    return {
        "id": t.id,
        "labels": t.labels,
        "dice": literal_py(t.dice),
        "modifiers": t.modifiers,
        "rows": [
            {
                "id": r.id,
                "labels": r.labels,
                "low": r.low,
                "high": r.high,
                "effects": {k: literal_py(v) for k, v in r.effects.items()},
                "chance": r.chance,
                "chance_with": r.chance_with,
            }
            for r in t.rows
        ],
        "index": t.index,
        "naturals": t.naturals,
        "natural_at_least": list(t.natural_at_least),
    }


def trigger_py(t: plan_data.Trigger) -> dict[str, Any]:
    return {
        "id": t.id,
        "labels": t.labels,
        "table": t.table,
        "check": literal_py(t.check),
        "at_least": t.at_least,
        "check_chance": t.check_chance,
        "modifier": t.modifier,
        "times": t.times,
        "more_modifiers": t.more_modifiers,
    }


def results_table_py(t: plan_data.ResultsTable) -> dict[str, Any]:
    return {
        "id": t.id,
        "labels": t.labels,
        "dice": literal_py(t.dice),
        "by": t.by,
        "columns": [(c.id, c.labels, c.bound, tidy(c.value), c.unit) for c in t.columns],
        "rounding": t.rounding,
        "natural_at_least": list(t.natural_at_least),
        "natural_by_column": t.natural_by_column,
        "outcome_effects": {
            o: {k: literal_py(v) for k, v in effects.items()}
            for o, effects in t.outcome_effects.items()
        },
        "outcomes": t.outcomes,
        "naturals": t.naturals,
        "rows": [(r.low, r.high, r.outcomes) for r in t.rows],
        "modifiers": t.modifiers,
        "chances": t.chances,
        "chances_with": t.chances_with,
        "shifts": t.shifts,
        "on_doubles": t.on_doubles,
        "index": t.index,
    }
