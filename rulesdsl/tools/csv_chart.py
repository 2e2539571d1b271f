"""Terrain charts kept in spreadsheets: CSV in (a layer block of DSL text), CSV out (any table).

Import: one row per feature, one column per mode (or group), each cell in the DSL's value
syntax (``2``, ``impassable``, ``as clear``, ``1 per 2 in``). The first column is the
feature's name; columns named ``label`` or with a language code (``fr``) hold its labels,
``source`` and ``note`` its source reference and note, and ``all`` the value for every mode.
Without ``all``, the value most modes share becomes the default and the others its
exceptions, so the row reads the DSL way: a value for all, then the exceptions. Every error
names the CSV row and column.

Export: a layer (features by modes, the resolved cost), a plain table, a modifier (items by
context values) or a dice table, from the IR, as CSV with the same cell syntax.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from rulesdsl import ir, spelling
from rulesdsl.diagnostics import Diagnostic, did_you_mean, error
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.fragments import FragmentError, FragmentParser
from rulesdsl.tools.fmt import format_text

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
LANGUAGE = re.compile(r"^[a-z]{2}$")
SPECIAL = ("label", "source", "note", "all")


@dataclass(frozen=True)
class Imported:
    """The layer block (DSL text, laid out by fmt) and what was wrong; text is None on error."""

    text: str | None
    diagnostics: list[Diagnostic]


def _column(raw_line: str, index: int) -> int:
    """1-based character column where field ``index`` starts in a raw CSV line (best effort)."""
    fields = next(csv.reader([raw_line]), [])
    col = 1
    for field in fields[:index]:
        quoted = '"' in field or "," in field
        col += len(field) + (2 + field.count('"') if quoted else 0) + 1
    return col


def import_layer(
    text: str,
    path: str,
    layer: str,
    *,
    label: str | None = None,
    scope: str = "",
    known: Iterable[str] | None = None,
    languages: Iterable[str] | None = None,
    fragments: FragmentParser | None = None,
) -> Imported:
    """A ``layer`` block from a CSV chart. ``known`` (modes and groups of the target ruleset)
    and ``languages`` make unknown column names errors instead of guesses."""
    parser = fragments or FragmentParser()
    raw_lines = text.splitlines()
    reader = csv.reader(io.StringIO(text))
    rows: list[list[str]] = []
    starts: list[int] = []
    """The 0-based line each row starts on (a quoted cell may hold line breaks)."""
    for row in reader:
        starts.append(reader.line_num - 1 - sum(c.count("\n") for c in row))
        rows.append(row)
    diags: list[Diagnostic] = []

    def line_of(row: int) -> str:
        return raw_lines[starts[row]] if row < len(starts) and starts[row] < len(raw_lines) else ""

    def where(row: int, col: int, width: int = 1) -> s.Pos:
        start = _column(line_of(row), col)
        line = starts[row] + 1 if row < len(starts) else row + 1
        return s.Pos(path, line, start, line, start + max(width, 1))

    if not rows or not any(c.strip() for c in rows[0]):
        return Imported(
            None,
            [
                error(
                    "E001",
                    "the CSV file has no header row",
                    s.Pos(path, 1, 1, 1, 2),
                    "first row: feature, label, then one column per mode",
                )
            ],
        )
    header = [h.strip() for h in rows[0]]
    langs = set(languages or ())
    modes_known = set(known) if known is not None else None
    kinds: list[str] = ["key"]
    for i, name in enumerate(header[1:], start=1):
        if name in SPECIAL:
            kinds.append(name)
        elif (
            LANGUAGE.match(name)
            and (not langs or name in langs)
            and (modes_known is None or name not in modes_known)
        ):
            kinds.append("lang")
        elif not NAME.match(name):
            diags.append(
                error(
                    "E001",
                    f"row 1, column {i + 1}: '{name}' is not a mode name",
                    where(0, i, len(name)),
                    "a header is a mode or group, label, a language, source, note or all",
                )
            )
            kinds.append("skip")
        elif modes_known is not None and name not in modes_known:
            diags.append(
                error(
                    "E101",
                    f"row 1, column {i + 1}: unknown mode or group '{name}'",
                    where(0, i, len(name)),
                    did_you_mean(name, modes_known),
                )
            )
            kinds.append("skip")
        else:
            kinds.append("mode")

    out = [
        f"layer {layer}"
        + (f" {spelling.string(label)}" if label else "")
        + (f" {scope}" if scope else "")
        + " {"
    ]
    seen: dict[str, int] = {}
    for r, row in enumerate(rows[1:], start=1):
        if not any(c.strip() for c in row):
            continue
        cells = [c.strip() for c in row] + [""] * (len(header) - len(row))
        if len(row) > len(header):
            diags.append(
                error(
                    "E204",
                    f"row {r + 1}: {len(row)} cells for {len(header)} columns",
                    where(r, len(header)),
                    "one cell per header column",
                )
            )
        key = cells[0]
        if not NAME.match(key):
            diags.append(
                error(
                    "E001",
                    f"row {r + 1}, column 1 ({header[0] or 'feature'}): "
                    f"'{key}' is not a feature name",
                    where(r, 0, len(key)),
                    "names start with a letter and hold letters, digits and _",
                )
            )
            continue
        if key in seen:
            diags.append(
                error(
                    "E102",
                    f"row {r + 1}, column 1: '{key}' is already in row {seen[key]}",
                    where(r, 0, len(key)),
                    "one row per feature",
                )
            )
            continue
        seen[key] = r + 1
        values: dict[str, str] = {}
        default = ""
        labels: list[str] = []
        extras = ""
        notes: list[str] = []
        for i, kind in enumerate(kinds[1:], start=1):
            cell = cells[i] if i < len(cells) else ""
            if not cell or kind == "skip":
                continue
            if kind in ("mode", "all"):
                try:
                    parser.parse(cell, "value", path, starts[r] + 1, _column(line_of(r), i))
                except FragmentError as exc:
                    d = exc.diagnostic
                    diags.append(
                        error(
                            d.code,
                            f"row {r + 1}, column {i + 1} ({header[i]}): {d.message}",
                            d.pos,
                            d.hint,
                        )
                    )
                    continue
                if kind == "all":
                    default = " ".join(cell.split())
                else:
                    values[header[i]] = " ".join(cell.split())
            elif kind == "label":
                labels.insert(0, spelling.string(cell))
            elif kind == "lang":
                labels.append(f"{header[i]} {spelling.string(cell)}")
            elif kind == "source":
                try:
                    parser.parse(
                        f"[{cell}]", "source", path, starts[r] + 1, _column(line_of(r), i) - 1
                    )
                except FragmentError as exc:
                    d = exc.diagnostic
                    diags.append(
                        error(
                            d.code,
                            f"row {r + 1}, column {i + 1} (source): {d.message}",
                            d.pos,
                            "a book id, then a page: hg p.12",
                        )
                    )
                    continue
                extras = f" [{cell}]"
            elif kind == "note":
                notes.append(spelling.string(cell))
        if not default and values:
            counts = Counter(values.values())
            default = max(counts, key=lambda v: (counts[v], -list(values.values()).index(v)))
        entries = [default] if default else []
        entries += [f"{mode} {value}" for mode, value in values.items() if value != default]
        head = " ".join([key, *labels])
        note = "".join(f"\n      note {n}" for n in notes)
        out.append(f"  {head} | {', '.join(entries)}{extras}{note}")
    out.append("}")
    if any(d.is_error for d in diags):
        return Imported(None, diags)
    return Imported(format_text("\n".join(out) + "\n"), diags)


# ---- export ------------------------------------------------------------------------------------


def dsl_value(value: ir.Value | None) -> str:
    """A value in the DSL's cell syntax (what `import` and the DSL read back); "" for none."""
    return "" if value is None else spelling.value(value)


def _labels(info: ir.Info, languages: tuple[str, ...]) -> list[str]:
    return [info.labels.get(lang, "") for lang in languages]


def table_names(ruleset: ir.Ruleset) -> list[str]:
    """Everything `export --format csv --table` accepts."""
    return [
        *(x.id for x in ruleset.layers),
        *(x.id for x in ruleset.tables),
        *(x.id for x in ruleset.modifiers),
        *(x.id for x in ruleset.dice_tables),
    ]


def export_csv(ruleset: ir.Ruleset, name: str) -> str | None:
    """One table of the ruleset as CSV; None when it has no table of that name."""
    langs = ruleset.languages
    label_heads = ["label", *langs[1:]]
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    layer = next((x for x in ruleset.layers if x.id == name), None)
    if layer is not None:
        modes = [m.id for m in ruleset.modes]
        out.writerow(["feature", *label_heads, *modes])
        features = {f.id: f for f in ruleset.features}
        for fid in layer.features:
            f = features[fid]
            out.writerow(
                [fid, *_labels(f.info, langs), *(dsl_value(f.costs.get(m)) for m in modes)]
            )
        return buffer.getvalue()
    table = next((x for x in ruleset.tables if x.id == name), None)
    if table is not None:
        out.writerow(["row", *label_heads, *(c.id for c in table.columns)])
        for row in table.rows:
            key = (
                row.key
                if row.key_number is None
                else (
                    spelling.number(row.key_number) + (f" {row.key_unit}" if row.key_unit else "")
                )
            )
            out.writerow([key, *_labels(row.info, langs), *(dsl_value(c) for c in row.cells)])
        return buffer.getvalue()
    modifier = next((x for x in ruleset.modifiers if x.id == name), None)
    if modifier is not None:
        keys = list(dict.fromkeys(k for vals in modifier.values.values() for k in vals))
        out.writerow(["item", *(k or "all" for k in keys)])
        for item, vals in modifier.values.items():
            out.writerow([item, *(dsl_value(vals.get(k)) for k in keys)])
        return buffer.getvalue()
    dice = next((x for x in ruleset.dice_tables if x.id == name), None)
    if dice is not None:
        out.writerow(["roll", "result", *label_heads, "effects"])
        for d in dice.rows:
            effects = ", ".join(
                f"{k} {dsl_value(v)}" if k else dsl_value(v) for k, v in d.effects.items()
            )
            out.writerow(
                [spelling.dice_range(d.low, d.high), d.id, *_labels(d.info, langs), effects]
            )
        return buffer.getvalue()
    return None
