"""The data the generated module carries (the plan's data section): features and their costs,
contexts, modifiers and their policies, tables, dice tables, triggers, results tables and
exclusions."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, assert_never

from rulesdsl import ir, semantics
from rulesdsl.codegen.plan.data import DataPlan
from rulesdsl.codegen.python import once_costs
from rulesdsl.codegen.python import sight as python_sight
from rulesdsl.codegen.python.values import (
    Code,
    per_distance,
    per_value,
    policy_entries,
    runtime,
    source_text,
    tidy,
)
from rulesdsl.semantics import effects as semantics_effects
from rulesdsl.semantics.dice import chance_at_least, chance_between


def data_context(plan: DataPlan) -> dict[str, Any]:
    """The template's variables for FEATURES, CONTEXTS, MODIFIERS, TABLES, DICE_TABLES,
    TRIGGERS, RESULTS_TABLES and what ``move_cost`` and ``modifier`` read beside them."""
    rs = plan.ruleset
    params = semantics.param_values(rs)
    features, unfilled = _features(rs, params)
    whole = semantics_effects.whole_map(rs)
    return {
        "features": features,
        "params": params,
        "unfilled": unfilled,
        "contexts": [(c.id, tuple(v.id for v in c.values)) for c in rs.contexts],
        "modifiers": _modifiers(rs),
        "precedence": tuple(p.groups for p in rs.precedence),
        "tables": _tables(rs),
        "dice_tables": [_dice_table(t) for t in rs.dice_tables],
        "triggers": _triggers(rs),
        "exclusions": _exclusions(rs),
        "ignores_others": tuple(f.id for f in rs.features if f.ignores_others),
        "whole_map": tuple(f.id for f in rs.features if f.id in whole),
        "one_per_place": tuple(layer.id for layer in rs.layers if semantics.one_per_place(layer)),
        "summed_modifiers": tuple(m.id for m in rs.modifiers if _simply_added(m)),
        "best_groups": [
            (m.id, {i: (g.id, _highest(g)) for g in m.best for i in g.members})
            for m in rs.modifiers
            if m.best
        ],
        "step_inputs": [
            (m.id, semantics.step_inputs(rs, m))
            for m in rs.modifiers
            if semantics.step_inputs(rs, m)
        ],
        "results_tables": python_sight.results_tables(rs, runtime),
    }


def _features(
    rs: ir.Ruleset, params: dict[str, float | None]
) -> tuple[list[dict[str, Any]], list[tuple[tuple[str, str], str]]]:
    features = []
    unfilled: list[tuple[tuple[str, str], str]] = []
    for f in rs.features:
        costs = {mode: per_distance(v, params) for mode, v in f.costs.items()}
        unfilled += [
            ((mode, f.id), c)
            for mode, c in costs.items()
            if isinstance(c, str) and not isinstance(c, Code)
        ]
        features.append(
            {
                "id": f.id,
                "layer": f.layer,
                "labels": f.info.labels,
                "costs": costs,
                "notes": tuple(f.info.notes),
                "source": source_text(rs, f.info),
            }
        )
    return features, unfilled


def _modifiers(rs: ir.Ruleset) -> list[dict[str, Any]]:
    return [
        {
            "id": m.id,
            "context": m.context,
            "entries": [
                (item, {k: _modifier_value(rs, v) for k, v in vals.items()})
                for item, vals in m.values.items()
            ],
            "combinations": [(tuple(c.members), per_value(c.value)) for c in m.combinations],
            **policy_entries(m),
        }
        for m in rs.modifiers
    ]


def _tables(rs: ir.Ruleset) -> list[dict[str, Any]]:
    return [
        {
            "id": t.id,
            "labels": t.info.labels,
            "columns": tuple(c.id for c in t.columns),
            "column_labels": {c.id: c.info.labels for c in t.columns if c.info.labels},
            "column_notes": {c.id: tuple(c.info.notes) for c in t.columns if c.info.notes},
            "rows": [
                (
                    tidy(r.key_number) if r.key_number is not None else r.key,
                    tuple(runtime(c) for c in r.cells),
                )
                for r in t.rows
            ],
        }
        for t in rs.tables
    ]


def _triggers(rs: ir.Ruleset) -> list[dict[str, Any]]:
    return [
        {
            "id": t.id,
            "labels": t.info.labels,
            "table": t.table,
            "check": runtime(t.check) if t.check else None,
            "at_least": t.at_least,
            "check_chance": (
                chance_at_least(semantics.roll_of(t.check), t.at_least or 0)
                if t.check
                else Fraction(1)
            ),
            "modifier": t.modifier,
            "times": t.times,
            "more_modifiers": t.more_modifiers,
        }
        for t in rs.triggers
    ]


def _exclusions(rs: ir.Ruleset) -> list[tuple[str, tuple[str, ...]]]:
    exclusions: dict[str, set[str]] = {}
    for ex in rs.exclusions:
        for other in ex.others:
            exclusions.setdefault(ex.subject, set()).add(other)
            exclusions.setdefault(other, set()).add(ex.subject)
    return [(k, tuple(sorted(v))) for k, v in sorted(exclusions.items())]


def _dice_table(t: ir.DiceTable) -> dict[str, Any]:
    dice = semantics.roll_of(t.dice)
    index = semantics.dice_index(t)

    with_naturals = (
        {0: semantics.dice_chances(t)}
        | {m.value: semantics.dice_chances(t, m.value) for m in t.modifiers}
        if t.naturals
        else {}
    )

    def chance(row: ir.DiceRow, shift: int) -> Fraction:
        if with_naturals:  # a natural roll gives its row whatever the total (issue 25)
            return with_naturals[shift][row.id]
        low = row.low - shift if row.low is not None else dice.minimum
        high = row.high - shift if row.high is not None else None
        return chance_between(dice, low, high)

    rows = [
        {
            "id": r.id,
            "labels": r.info.labels,
            "low": r.low,
            "high": r.high,
            "effects": {k: runtime(v) for k, v in r.effects.items()},
            "chance": chance(r, 0),
            "chance_with": {m.id: chance(r, m.value) for m in t.modifiers},
        }
        for r in t.rows
    ]
    return {
        "id": t.id,
        "labels": t.info.labels,
        "dice": runtime(t.dice),
        "modifiers": {m.id: m.value for m in t.modifiers},
        "rows": rows,
        "index": index,
        "naturals": {n.roll: n.outcome for n in t.naturals},
        "natural_at_least": sorted(n.roll for n in t.naturals if n.at_least),
    }


def _modifier_value(rs: ir.Ruleset, value: ir.Value) -> Any:
    """A modifier's value in MODIFIERS: a number, a marker, or a step's StepCost record."""
    step = once_costs.record(rs, value) if isinstance(value, ir.StepCost) else None
    return Code(step) if step is not None else per_value(value)


def _highest(group: ir.BestGroup) -> bool:
    match group.combine:
        case "highest":
            return True
        case "lowest":
            return False
        case _:
            assert_never(group.combine)


def _simply_added(m: ir.Modifier) -> bool:
    """Whether the module's modifier may answer ``m`` from _SUMMED_VALUES: its values are added
    up, with no clamp, no ``when`` combination, no second context and no best group."""
    match m.combine:
        case "sum":
            return (
                m.clamp is None
                and not m.combinations
                and m.context2 is None
                and not m.pairs
                and not m.best
            )
        case "highest" | "lowest" | "once":
            return False
        case _:
            assert_never(m.combine)
