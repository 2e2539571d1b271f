"""Charts out: a layer, table, modifier or dice table of the IR as rows of cells for a
spreadsheet (CSV here, ``.xlsx`` in :mod:`rulesdsl.interchange.xlsx_chart`).

A layer's chart holds everything its block says, so that importing it back (``import --into``)
gives the same IR: the labels (``label``, ``label fr``), the cost cell as ``all`` (the value for
every mode) and one column per mode or group (its exception, blank for none; ``as clear`` as
written, a place state or ``along`` value after it), each other column of the layer as a whole
cell (``column to_hit``: ``+1, energy +2``), the source, each note in each language (``note``,
``note fr``, ``note 2``...) and ``ignores others``. A plain table's chart: its rows by its
columns, with labels, source and notes.

A cell that a spreadsheet would run as a formula (it starts with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return, and is not just a number such as ``-2``) is written after a single
quote, as OWASP advises against CSV injection; import takes that quote off again.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass

from rulesdsl import ir, spelling
from rulesdsl.interchange.csv_chart import dsl_value, outside_strings
from rulesdsl.semantics.routes import state_words

_FORMULA = re.compile(r"'*[=+\-@\t\r]")
"""A cell a spreadsheet runs as a formula (after any quotes export added)."""
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
"""A cell that is only a number (``-2``, ``+1``): data, not a formula, and kept as it is."""
_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")

TABLE_VALUE = ir.Column("value", ir.Info())
"""The header of the one column of a table that declares none."""

Rows = list[list[str]]
"""A chart: its header, then one row per item; ``value_columns`` marks the cells that hold
values (which a decimal comma changes)."""


def neutralise(cell: str) -> str:
    """``cell`` as a spreadsheet may open it: after a single quote when it would run as a
    formula (OWASP's advice against CSV injection), unless it is only a number (``-2``)."""
    if _FORMULA.match(cell) and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def table_names(ruleset: ir.Ruleset) -> list[str]:
    """Everything `export --format csv --table` accepts."""
    return [
        *(x.id for x in ruleset.layers),
        *(x.id for x in ruleset.tables),
        *(x.id for x in ruleset.modifiers),
        *(x.id for x in ruleset.dice_tables),
    ]


def spell_cost(cell: ir.Cell, key: str) -> str:
    """The entries of a cost cell for ``key`` ("" for every mode) without the key: ``2``,
    ``3 may not end``, ``along 0.5``."""
    parts = []
    value = cell.default if key == "" else cell.exceptions.get(key)
    if value is not None:
        state = cell.states.get(key)
        parts.append(spelling.value(value) + (f" {state_words(state)}" if state else ""))
    if key in cell.along:
        parts.append(f"along {spelling.value(cell.along[key])}")
    return ", ".join(parts)


def spell_cell(cell: ir.Cell) -> str:
    """A whole cell as the DSL writes it: ``+1, energy +2``, ``a & b 1``."""
    keys = [""] + [k for k in cell.exceptions]
    keys += [k for k in (*cell.states, *cell.along) if k not in keys]
    parts = []
    for key in keys:
        written = spell_cost(cell, key)
        if written:
            parts += [f"{key} {p}" if key else p for p in written.split(", ")]
    parts += [f"{p.first} & {p.second} {spelling.value(p.value)}" for p in cell.pairs]
    return ", ".join(parts)


def spell_source(source: ir.Source | None) -> str:
    if source is None:
        return ""
    return " ".join(
        [
            source.book,
            *([source.page] if source.page else []),
            *([spelling.string(source.detail)] if source.detail is not None else []),
        ]
    )


@dataclass(frozen=True)
class _InfoColumns:
    """The columns the rows' infos need: how many notes, a ``note for`` column after each
    note (some note is for some unit types only), a source column."""

    notes: int
    scoped: bool
    source: bool


def _info_heads(infos: Iterable[ir.Info]) -> _InfoColumns:
    infos = list(infos)
    return _InfoColumns(
        max((len(i.notes) for i in infos), default=0),
        any(any(i.note_for) for i in infos),
        any(i.source for i in infos),
    )


def _note_heads(languages: tuple[str, ...], cols: _InfoColumns) -> list[str]:
    heads = ["source"] if cols.source else []
    for n in range(1, cols.notes + 1):
        base = "note" if n == 1 else f"note {n}"
        heads += [base, *(f"{base} {lang}" for lang in languages[1:])]
        heads += [f"{base} for"] if cols.scoped else []
    return heads


def _info_cells(info: ir.Info, languages: tuple[str, ...], cols: _InfoColumns) -> list[str]:
    cells = [spell_source(info.source)] if cols.source else []
    for n in range(cols.notes):
        note = info.notes[n] if n < len(info.notes) else {}
        cells += [note.get(lang, "") for lang in languages]
        if cols.scoped:  # whom the note is for: unit types or keywords
            cells.append(", ".join(info.note_for[n] if n < len(info.note_for) else ()))
    return cells


def chart_rows(ruleset: ir.Ruleset, name: str) -> tuple[Rows, set[int]] | None:
    """One layer, table, modifier or dice table as rows of cells, and which columns hold
    values; None when the ruleset has none of that name."""
    langs = ruleset.languages
    label_heads = ["label", *(f"label {lang}" for lang in langs[1:])]
    layer = next((x for x in ruleset.layers if x.id == name), None)
    if layer is not None:
        by_id = {f.id: f for f in ruleset.features}
        features = [by_id[fid] for fid in layer.features]
        info_cols = _info_heads(f.info for f in features)
        ignores = any(f.ignores_others for f in features)
        modes = [m.id for m in ruleset.modes]
        used = {
            k
            for f in features
            if "cost" in f.cells
            for k in (*f.cells["cost"].exceptions, *f.cells["cost"].states, *f.cells["cost"].along)
        }
        keys = modes + [g.id for g in ruleset.groups if g.id in used]
        keys += sorted(used - set(keys) - {""})
        header = ["feature", *label_heads]
        values: set[int] = set()
        for column in layer.columns:
            if column == "cost":
                values.update(range(len(header), len(header) + 1 + len(keys)))
                header += ["all", *keys]
            else:
                values.add(len(header))
                header.append(f"column {column}")
        header += _note_heads(langs, info_cols)
        header += ["ignores others"] if ignores else []
        rows = [header]
        for f in features:
            row = [f.id, *(f.info.labels.get(lang, "") for lang in langs)]
            for column in layer.columns:
                cell = f.cells.get(column)
                if column == "cost":
                    row += [spell_cost(cell, k) if cell else "" for k in ["", *keys]]
                else:
                    row.append(spell_cell(cell) if cell else "")
            row += _info_cells(f.info, langs, info_cols)
            row += (["yes" if f.ignores_others else ""]) if ignores else []
            rows.append(row)
        return rows, values
    table = next((x for x in ruleset.tables if x.id == name), None)
    if table is not None:
        info_cols = _info_heads(r.info for r in table.rows)
        header = ["row", *label_heads, *(c.id for c in table.columns or [TABLE_VALUE])]
        values = set(range(len(label_heads) + 1, len(header))) | {0}
        header += _note_heads(langs, info_cols)
        rows = [header]
        for trow in table.rows:
            key = (
                trow.key
                if trow.key_number is None
                else (
                    spelling.number(trow.key_number)
                    + (f" {trow.key_unit}" if trow.key_unit else "")
                )
            )
            rows.append(
                [
                    key,
                    *(trow.info.labels.get(lang, "") for lang in langs),
                    *(dsl_value(c) for c in trow.cells),
                    *_info_cells(trow.info, langs, info_cols),
                ]
            )
        return rows, values
    modifier = next((x for x in ruleset.modifiers if x.id == name), None)
    if modifier is not None:
        keys_ = list(dict.fromkeys(k for vals in modifier.values.values() for k in vals))
        rows = [["item", *(k or "all" for k in keys_)]]
        for item, vals in modifier.values.items():
            rows.append([item, *(dsl_value(vals.get(k)) for k in keys_)])
        return rows, set(range(1, len(keys_) + 1))
    dice = next((x for x in ruleset.dice_tables if x.id == name), None)
    if dice is not None:
        rows = [["roll", "result", *label_heads, "effects"]]
        for d in dice.rows:
            effects = ", ".join(
                [
                    *(f"{k} {dsl_value(v)}" if k else dsl_value(v) for k, v in d.effects.items()),
                    *(  # values by unit type, as written (issue 40)
                        f"{k} & {unit} {dsl_value(v)}"
                        for k, by in d.by_unit.items()
                        for unit, v in by.items()
                    ),
                ]
            )
            rows.append(
                [
                    spelling.dice_range(d.low, d.high),
                    d.id,
                    *(d.info.labels.get(lang, "") for lang in langs),
                    effects,
                ]
            )
        return rows, {len(label_heads) + 2}
    return None


def with_decimal_comma(rows: Rows, values: set[int]) -> Rows:
    """The chart with ``1,5`` for ``1.5`` in its value cells, as a locale with a decimal
    comma writes numbers."""
    return [
        [
            outside_strings(c, _DECIMAL_POINT, lambda m: ",") if i in values else c
            for i, c in enumerate(row)
        ]
        for row in rows
    ]


def to_csv(rows: Rows, delimiter: str = ",") -> str:
    """The chart as CSV (RFC 4180 quoting), every formula-like cell neutralised."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
    for row in rows:
        writer.writerow([neutralise(c) for c in row])
    return buffer.getvalue()


def export_csv(ruleset: ir.Ruleset, name: str) -> str | None:
    """One table of the ruleset as CSV; None when it has no table of that name."""
    found = chart_rows(ruleset, name)
    return None if found is None else to_csv(found[0])
