"""The plan's results tables as JavaScript (for :mod:`rulesdsl.codegen.js`): the data ``roll``
reads on a results table (``runtime_results.js``) and their declarations, as the Python module
carries them (``module_sight.py.j2``'s RESULTS_TABLES and _RESULT_ROWS)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction

from rulesdsl.codegen.js.checks import runtime_part
from rulesdsl.codegen.js.data import dict_js, fields_js, fraction_js, frozen_list_js, strings_js
from rulesdsl.codegen.js.values import comment, labels_js, literal_js, number_js, string_js
from rulesdsl.codegen.plan import data as plan_data

_COLUMN_OF = "function _columnOf(results, column) {\n"
_CATEGORIES = (
    '  if (results.columns[0].bound === "category") throw new InvalidArgument("roll", "column", '
    "column, `must name a column of ${pyRepr(results.id)}: its columns are categories`);\n"
)
_LAST = "  const last = results.columns.length - 1;\n"
_NO_SHIFT = (
    '  if (picked.bound === "category") throw new InvalidArgument("roll", "shift", shift, '
    '"cannot move along categories");\n'
)
_PICKED_COLUMN = "function _pickedColumn(results, column, shift) {\n"
_FROM_OUTCOME = (
    "  if (column instanceof Outcome) { // a decision's answer: the column it names\n"
    '    if (!_PICKED_BY.has(results.id)) throw new InvalidArgument("roll", "column", column, '
    "`must name a column of ${pyRepr(results.id)}: no decision picks it`);\n"
    "    column = column.id;\n"
    "  }\n"
)


def runtime_results(plan: plan_data.DataPlan) -> str:
    """The results runtime; a module with a table whose columns are categories (issue 40)
    refuses a value for their column and a shift of it, and takes a decision's answer for
    the column of a table that decision picks, as the Python module does (other modules are
    unchanged)."""
    text = runtime_part("runtime_results.js")
    if not any(t.categories for t in plan.results_tables):
        return text
    assert _COLUMN_OF in text and _LAST in text and _PICKED_COLUMN in text
    text = text.replace(_COLUMN_OF, _COLUMN_OF + _CATEGORIES).replace(_LAST, _NO_SHIFT + _LAST)
    if any(t.picked_by for t in plan.results_tables):
        text = text.replace(_PICKED_COLUMN, _PICKED_COLUMN + _FROM_OUTCOME)
    return text


def _optional(value: str | int | None) -> str:
    if value is None:
        return "null"
    return string_js(value) if isinstance(value, str) else str(value)


def column_js(c: plan_data.ResultColumn) -> str:
    return (
        f"new ResultColumn({string_js(c.id)}, {labels_js(c.labels)}, {string_js(c.bound)}, "
        f"{number_js(c.value)}, {_optional(c.unit)})"
    )


def chances_js(by_column: Mapping[str, Mapping[str, Fraction]]) -> str:
    """The exact chance of each outcome, per column."""
    return dict_js(
        {c: dict_js({o: fraction_js(f) for o, f in fs.items()}) for c, fs in by_column.items()}
    )


def results_table_js(t: plan_data.ResultsTable) -> str:
    """A results table as ``new ResultsTable({...})``, its fields camelCased."""
    rows = frozen_list_js(
        f"Object.freeze([{_optional(r.low)}, {_optional(r.high)}, {strings_js(r.outcomes)}])"
        for r in t.rows
    )
    naturals = ", ".join(f"[{n}, {string_js(o)}]" for n, o in t.naturals.items())
    by_column = ", ".join(f"[{n}, {strings_js(o)}]" for n, o in t.natural_by_column.items())
    effects = {
        o: dict_js({k: literal_js(v) for k, v in es.items()}) for o, es in t.outcome_effects.items()
    }
    fields = {
        "id": string_js(t.id),
        "labels": labels_js(t.labels),
        "dice": literal_js(t.dice),
        "by": string_js(t.by),
        "columns": frozen_list_js(column_js(c) for c in t.columns),
        "outcomes": dict_js({o: labels_js(labels) for o, labels in t.outcomes.items()}),
        "naturals": f"new Map([{naturals}])",
        "rows": rows,
        "modifiers": dict_js({m: str(v) for m, v in t.modifiers.items()}),
        "chances": chances_js(t.chances),
        "chancesWith": dict_js({m: chances_js(cs) for m, cs in t.chances_with.items()}),
        "rounding": _optional(t.rounding),
        "naturalAtLeast": f"new Set([{', '.join(map(str, t.natural_at_least))}])",
        "naturalByColumn": f"new Map([{by_column}])",
        "outcomeEffects": dict_js(effects),
        "shifts": dict_js({m: str(v) for m, v in t.shifts.items()}),
        "onDoubles": _optional(t.on_doubles),
    }
    return f"new ResultsTable({fields_js(fields)})"


def results_js(d: plan_data.DataPlan) -> list[str]:
    """RESULTS_TABLES and, per table, every total its dice reach -> the row's index."""
    rows = {
        t.id: "new Map([" + ", ".join(f"[{k}, {v}]" for k, v in t.index.items()) + "])"
        for t in d.results_tables
    }
    tables = dict_js({t.id: results_table_js(t) for t in d.results_tables})
    picked = [t.id for t in d.results_tables if t.picked_by]
    return [
        f"export const RESULTS_TABLES = {tables};",
        f"const _RESULT_ROWS = {dict_js(rows)};",
        *([f"const _PICKED_BY = new Set({strings_js(picked)});"] if picked else []),
    ]


def results_dts(d: plan_data.DataPlan, union: Callable[[Iterable[str]], str]) -> list[str]:
    """The declarations of RESULTS_TABLES, their records, and ``roll`` on each results table
    (its columns as a string-literal union; ``union`` writes one)."""
    lines = [
        f"export type ResultsTableName = {union(t.id for t in d.results_tables)};",
        "export declare class ResultColumn {",
        "  readonly id: string;",
        "  readonly labels: Readonly<Record<string, string>>;",
        '  readonly bound: "up_to" | "above" | "at";',
        "  readonly value: number;",
        "  readonly unit: string | null;",
        "}",
        "type Chances = Readonly<Record<string, Readonly<Record<string, Fraction>>>>;",
        "export declare class ResultsTable {",
        "  readonly id: ResultsTableName;",
        "  readonly labels: Readonly<Record<string, string>>;",
        "  readonly dice: Dice | D66;",
        "  readonly by: string;",
        "  readonly columns: readonly ResultColumn[];",
        "  readonly outcomes: Readonly<Record<string, Readonly<Record<string, string>>>>;",
        "  readonly naturals: ReadonlyMap<number, string>;",
        "  readonly rows: readonly (readonly [number | null, number | null, readonly string[]])[];",
        "  readonly modifiers: Readonly<Record<string, number>>;",
        "  /** Per column, the exact chance of each outcome (natural rolls included). */",
        "  readonly chances: Chances;",
        "  /** The same per modifier. */",
        "  readonly chancesWith: Readonly<Record<string, Chances>>;",
        '  readonly rounding: "down" | "up" | null;',
        "  readonly naturalAtLeast: ReadonlySet<number>;",
        "  readonly naturalByColumn: ReadonlyMap<number, readonly string[]>;",
        "  readonly outcomeEffects: Readonly<Record<string, Readonly<Record<string, Value>>>>;",
        "  readonly shifts: Readonly<Record<string, number>>;",
        "  readonly onDoubles: string | null;",
        "}",
        "export declare class Result<Id extends string = string> {",
        "  readonly id: Id;",
        "  readonly labels: Readonly<Record<string, string>>;",
        "  readonly column: string;",
        "  readonly low: number | null;",
        "  readonly high: number | null;",
        "  readonly natural: boolean;",
        "  readonly effects: Readonly<Record<string, Value>>;",
        "}",
        "export declare const RESULTS_TABLES: Readonly<Record<ResultsTableName, ResultsTable>>;",
    ]
    for t in d.results_tables:
        by = f"a value of {t.by}, or two strengths whose ratio it is"
        lines += [
            comment(f"The outcome of {t.id} for ``total`` in ``column`` (a name, {by})."),
            "export declare function roll(",
            f"  table: {string_js(t.id)},",
            "  total: number,",
            "  options: {",
            f"    column: {union(c.id for c in t.columns)} | number | readonly [number, number]"
            + (f" | Outcome<{union(c.id for c in t.columns)}>;" if t.picked_by else ";"),
            "    natural?: number | null;",
            "    shift?: number;",
            "    dice?: readonly number[] | null;",
            "  },",
            f"): Result<{union(t.outcomes)}>;",
        ]
    return lines
