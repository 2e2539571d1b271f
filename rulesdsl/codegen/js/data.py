"""The plan's data section as JavaScript constants (for :mod:`rulesdsl.codegen.js`): features,
contexts, exclusions and modifiers with their policies, as the Python module holds them, one
``<node>_js`` function per node of :mod:`rulesdsl.codegen.plan.data`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import assert_never

from rulesdsl.codegen.js.values import cell_js, labels_js, literal_js, number_js, string_js
from rulesdsl.codegen.plan import data as plan_data
from rulesdsl.codegen.plan import values as plan_values
from rulesdsl.codegen.plan.data import Combine


def strings_js(names: Iterable[str]) -> str:
    return f"Object.freeze([{', '.join(map(string_js, names))}])"


def dict_js(entries: Mapping[str, str]) -> str:
    """A frozen mapping without a prototype, its values already JavaScript: on one line when
    it is short, else one entry a line."""
    items = [f"{string_js(k)}: {v}" for k, v in entries.items()]
    one_line = "_dict({" + ", ".join(items) + "})"
    if len(one_line) <= 100 and "\n" not in one_line:
        return one_line
    indented = (item.replace("\n", "\n  ") for item in items)
    return "_dict({\n" + "".join(f"  {item},\n" for item in indented) + "})"


def per_distance_js(cost: plan_values.PerDistance) -> str:
    """A cost per distance: a number, a marker, or the name of the unfilled parameter."""
    match cost:
        case plan_values.Unfilled(param=name):
            return string_js(name)
        case plan_values.Mark():
            return literal_js(cost)
        case float() | int():
            return number_js(cost)
        case _:
            assert_never(cost)


def fields_js(fields: Mapping[str, str]) -> str:
    """A record's fields, their values already JavaScript, as an object literal: one a line."""
    body = "".join(
        f"  {name}: {value.replace(chr(10), chr(10) + '  ')},\n" for name, value in fields.items()
    )
    return "{\n" + body + "}"


def frozen_list_js(items: Iterable[str]) -> str:
    """A frozen array of items already JavaScript: on one line when it is short, else one a line."""
    items = list(items)
    one_line = f"Object.freeze([{', '.join(items)}])"
    if len(one_line) <= 100 and "\n" not in one_line:
        return one_line
    indented = (item.replace("\n", "\n  ") for item in items)
    return "Object.freeze([\n" + "".join(f"  {item},\n" for item in indented) + "])"


def feature_js(f: plan_data.Feature) -> str:
    costs = dict_js({mode: per_distance_js(c) for mode, c in f.costs.items()})
    fields = {"id": string_js(f.id), "layer": string_js(f.layer), "labels": labels_js(f.labels)}
    return f"Object.freeze({fields_js({**fields, 'costs': costs})})"


def _optional(name: str | None) -> str:
    return "null" if name is None else string_js(name)


def combine_js(combine: Combine) -> str:
    match combine:
        case "sum" | "highest" | "lowest" | "once":
            return string_js(combine)
        case _:
            assert_never(combine)


def modifiers_js(d: plan_data.DataPlan) -> list[str]:
    """The modifier constants that ``modifier`` reads."""
    ms = d.modifiers
    values = {
        m.id: dict_js(
            {item: dict_js({k: cell_js(v) for k, v in vals.items()}) for item, vals in m.entries}
        )
        for m in ms
    }
    pairs = {
        m.id: dict_js(
            {
                item: "new Map(["
                + ", ".join(
                    f"[{string_js(p.first + chr(0) + p.second)}, {literal_js(p.value)}]" for p in ps
                )
                + "])"
                for item, ps in m.pairs
            }
        )
        for m in ms
        if m.pairs
    }
    combinations = {
        m.id: "Object.freeze(["
        + ", ".join(f"[{strings_js(c.members)}, {literal_js(c.value)}]" for c in m.combinations)
        + "])"
        for m in ms
        if m.combinations
    }
    best = {
        m.id: dict_js(
            {
                i: f"[{string_js(b.group)}, {'true' if b.highest else 'false'}]"
                for i, b in m.best.items()
            }
        )
        for m in ms
        if m.best
    }
    inputs = {
        m.id: dict_js({k: strings_js(v) for k, v in m.step_inputs.items()})
        for m in ms
        if m.step_inputs
    }
    clamps = {
        m.id: f"[{number_js(m.clamp[0])}, {number_js(m.clamp[1])}]"
        for m in ms
        if m.clamp is not None
    }
    second = {m.id: _optional(m.context2) for m in ms if m.context2}
    return [
        f"export const MODIFIERS = {dict_js(values)};",
        f"const _STEP_INPUTS = {dict_js(inputs)};",
        f"const _MODIFIER_CONTEXT = {dict_js({m.id: _optional(m.context) for m in ms})};",
        f"const _MODIFIER_CONTEXT2 = {dict_js(second)};",
        f"const _COMBINATIONS = {dict_js(combinations)};",
        f"export const COMBINE = {dict_js({m.id: combine_js(m.combine) for m in ms})};",
        f"export const CLAMP = {dict_js(clamps)};",
        f"const _PAIRS = {dict_js(pairs)};",
        f"const _BEST_OF = {dict_js(best)};",
        f"const _SUMMED = new Set({strings_js(m.id for m in ms if m.simply_added)});",
        *_sight_factors_js(ms),
    ]


def _sight_factors_js(ms: Sequence[plan_data.Modifier]) -> list[str]:
    """Per modifier, its factors read along a line of sight and their rules (none: no line)."""
    sights = {m.id: dict_js({f: string_js(r) for f, r in m.sights.items()}) for m in ms if m.sights}
    return [f"const _SIGHT_FACTORS = {dict_js(sights)};", SIGHT_FACTOR_JS] if sights else []


SIGHT_FACTOR_JS = """\
/** The value of ``factor`` of modifier ``name`` along ``line`` (the firer's place first): its
 * sight rule's hindrance, or BLOCKED when the line is blocked (Python's _sight_factor). */
function _sightFactor(name, factor, line) {
  if (!Array.isArray(line)) {
    const reason = "must be the line: one tuple of feature names per place";
    throw new ArgumentTypeError("modifier", factor, line, reason);
  }
  let sight;
  try {
    sight = lineOfSight(_SIGHT_FACTORS[name][factor], line);
  } catch (error) {
    if (!(error instanceof ArgumentError)) throw error;
    throw new error.constructor("modifier", factor, line, error.reason);
  }
  return sight.blocked ? BLOCKED : sight.hindrance;
}"""


def data_js(d: plan_data.DataPlan) -> list[str]:
    """The data the module's questions read, beside the tables and parameters."""
    exclusions = {e.subject: strings_js(e.others) for e in d.exclusions}
    return [
        f"export const FEATURES = {dict_js({f.id: feature_js(f) for f in d.features})};",
        f"export const CONTEXTS = {dict_js({c.id: strings_js(c.values) for c in d.contexts})};",
        f"export const EXCLUSIONS = {dict_js(exclusions)};",
        f"const _IGNORES_OTHERS = new Set({strings_js(d.ignores_others)});",
        f"const _WHOLE_MAP = new Set({strings_js(d.whole_map)});",
        f"const _ONE_PER_PLACE = new Set({strings_js(d.one_per_place)});",
        *modifiers_js(d),
        *dice_js(d),
    ]


def fraction_js(f: Fraction) -> str:
    return f"_fraction({f.numerator}, {f.denominator})"


def dice_row_js(r: plan_data.DiceRow) -> str:
    effects = dict_js({k: literal_js(v) for k, v in r.effects.items()})
    chances = dict_js({k: fraction_js(v) for k, v in r.chance_with.items()})
    low = "null" if r.low is None else str(r.low)
    high = "null" if r.high is None else str(r.high)
    return (
        f"new DiceRow({string_js(r.id)}, {labels_js(r.labels)}, {low}, {high}, {effects}, "
        f"{fraction_js(r.chance)}, {chances})"
    )


def dice_table_js(t: plan_data.DiceTable) -> str:
    modifiers = dict_js({k: str(v) for k, v in t.modifiers.items()})
    rows = ", ".join(dice_row_js(r) for r in t.rows)
    naturals = ", ".join(f"[{n}, {string_js(row)}]" for n, row in t.naturals.items())
    at_least = ", ".join(map(str, t.natural_at_least))
    return (
        f"new DiceTable({string_js(t.id)}, {labels_js(t.labels)}, {literal_js(t.dice)}, "
        f"{modifiers}, Object.freeze([{rows}]), new Map([{naturals}]), new Set([{at_least}]))"
    )


def trigger_js(t: plan_data.Trigger) -> str:
    at_least = "null" if t.at_least is None else str(t.at_least)
    return (
        f"new Trigger({string_js(t.id)}, {labels_js(t.labels)}, {string_js(t.table)}, "
        f"{literal_js(t.check)}, {at_least}, {fraction_js(t.check_chance)}, "
        f"{_optional(t.modifier)}, {t.times}, {strings_js(t.more_modifiers)})"
    )


def dice_js(d: plan_data.DataPlan) -> list[str]:
    """The dice tables ``roll`` reads: each with its rows, and every total its dice reach."""
    rolls = {
        t.id: "new Map([" + ", ".join(f"[{k}, {v}]" for k, v in t.index.items()) + "])"
        for t in d.dice_tables
    }
    return [
        f"export const DICE_TABLES = {dict_js({t.id: dice_table_js(t) for t in d.dice_tables})};",
        f"const _ROLLS = {dict_js(rolls)};",
        "const _ROWS_BY_TOTAL = _rowsByTotal(_ROLLS, DICE_TABLES);",
        f"export const TRIGGERS = {dict_js({t.id: trigger_js(t) for t in d.triggers})};",
        f"const _HAS_RESULTS_TABLES = {'true' if d.results_tables else 'false'};",
    ]
