"""`import --into`: a chart updates a layer or table of a ruleset file in place.

The chart is the truth for the rows and columns it has: a row whose written parts (labels,
cells, source, notes, ``ignores others``) differ is rewritten where it stands, a new row is
added where the chart has it, and a row of the block that the chart lacks is removed (and
reported). Everything else in the file, comments and layout included, is left byte for byte.
A part the chart has no column for (a chart of costs only) is kept from the row. A layer the
file does not have yet is appended as a new block.

In a variant (``extends``), rows inherited from the base are compared with the chart: the
same, they stay where they are (in the base); changed, that is an error (E133: change the
base); missing, a warning (W130), since only ``remove`` in the variant could drop them.
Rows the chart puts in another order are moved to follow it (a row's lines go where the row
the chart has there stood, so comments between rows stay in place).

The change is checked as the DSL is checked (every error at its cell of the chart), and the
edited file is compiled again and must give what the chart said, before it is written. A
worked example whose answer the chart's cells change (E270, E271) does not stop the update: it
is reported with the file written, so the author sees what changed for players and restates it.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rulesdsl import ir, spelling, words
from rulesdsl.checks.examples import ANSWER_CODES
from rulesdsl.diagnostics import Diagnostic, error, warning
from rulesdsl.frontends import syntax as s
from rulesdsl.interchange import csv_chart as chart
from rulesdsl.interchange.chart_alone import located_in
from rulesdsl.interchange.chart_columns import Target, cell_keys
from rulesdsl.interchange.chart_export import chart_rows, to_csv
from rulesdsl.interchange.fmt import _outside_strings, _split_comment, format_text

if TYPE_CHECKING:
    from rulesdsl.compiler import Compiler


@dataclass(frozen=True)
class Update:
    """The file's new text (None on error, or when nothing changed), what changed, and the
    compiled rulesets before and after."""

    text: str | None
    diagnostics: list[Diagnostic]
    old: ir.Ruleset | None = None
    new: ir.Ruleset | None = None
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[tuple[str, int]] = field(default_factory=list)
    """Each removed row's key and the line it stood on."""
    moved: list[str] = field(default_factory=list)
    """The rows put in another place, as the chart orders them."""


Block = s.LayerDecl | s.TableDecl


def _key(row: s.RowNode) -> str:
    if row.key_number is not None:
        n = row.key_number
        return spelling.number(n.value) + (f" {n.unit}" if n.unit else "")
    return row.item.name.text


def _written(rs: ir.Ruleset, table: bool, name: str) -> dict[str, object]:
    """Each row's written parts (what a chart can change), by key."""
    if not table:
        return {f.id: (f.info, f.cells, f.ignores_others) for f in rs.features if f.layer == name}
    found = next((t for t in rs.tables if t.id == name), None)
    if found is None:
        return {}
    return {
        (
            r.key
            if r.key_number is None
            else spelling.number(r.key_number) + (f" {r.key_unit}" if r.key_unit else "")
        ): (r.info, r.cells)
        for r in found.rows
    }


class _Text:
    """The target's text by lines, and the span of any node in it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines(keepends=True)

    def span(self, pos: s.Pos) -> str:
        if pos.line == pos.end_line:
            return self.lines[pos.line - 1][pos.column - 1 : pos.end_column - 1]
        first = self.lines[pos.line - 1][pos.column - 1 :]
        middle = self.lines[pos.line : pos.end_line - 1]
        last = self.lines[pos.end_line - 1][: pos.end_column - 1]
        joined = "".join([first, *middle, last])
        return " ".join(re.sub(r"\\\s*\n", " ", joined).split())

    def row_lines(self, row: s.RowNode) -> tuple[int, int]:
        """The row's first line and the line after its last (from 0)."""
        positions = [row.item.name.pos, *(c.pos for c in row.cells)]
        positions += [label.pos for label in row.item.labels]
        positions += [label.pos for note in row.item.extras.notes for label in note]
        first = row.item.name.pos.line - 1
        last = max(p.end_line - (p.end_column == 1 and p.end_line > p.line) for p in positions)
        last -= 1
        while last + 1 < len(self.lines) and _split_comment(self.lines[last]).code.endswith("\\"):
            last += 1
        if row.item.extras.ignores_others or row.item.extras.source is not None:
            # a flag or source may stand after the last position on its own line
            while last + 1 < len(self.lines) and _continues(self.lines[last + 1]):
                last += 1
        return first, last + 1

    def closing(self, after: int) -> int:
        """The line (from 0) of the ``}`` that closes the block, at or after ``after``."""
        for i in range(after, len(self.lines)):
            if _split_comment(self.lines[i]).code == "}":
                return i
        return len(self.lines)


def _continues(line: str) -> bool:
    code = _split_comment(line).code
    return code.startswith(("ignores", "[")) or code.startswith("note ")


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def update_into(
    imported: chart.Imported,
    compiler: Compiler,
    target: Path,
    table: bool,
    name: str,
) -> Update:
    """The target's text with the chart's layer or table ``name`` updated in place."""
    old = compiler.compile_file(target)
    parsed, syntax_errors = compiler.parse_file(target)
    if parsed is None or old.ruleset is None or imported.sheet is None:
        return Update(None, list(old.diagnostics))
    text = _Text(parsed.text)
    block: Block | None = next(
        (
            st
            for st in parsed.statements
            if isinstance(st, s.TableDecl if table else s.LayerDecl) and st.item.name.text == name
        ),
        None,
    )
    if block is None and table and not any(t.id == name for t in old.ruleset.tables):
        return _refused(
            "E101",
            f"--table: {target} has no table '{name}'",
            None,
            "a chart updates a table the ruleset declares; declare new tables in it",
        )
    own_rows = {_key(r): r for r in block.rows} if block is not None else {}
    old_written = _written(old.ruleset, table, name)
    inherited = [k for k in old_written if k not in own_rows]
    order = _column_order(imported, old.ruleset, table, name)
    unknown = _unknown_column(imported, order, table, name)
    if unknown is not None:
        return Update(None, [unknown])
    diags = _inherited(imported, compiler, target, table, name, order, inherited, old.ruleset)
    if any(d.is_error for d in diags):
        return Update(None, diags)
    kept, removed = _kept(own_rows, imported, order, text)
    new_rows = [
        r for r in imported.rows if r.key_text not in own_rows and r.key_text not in old_written
    ]
    position = {r.key_text: i for i, r in enumerate(imported.rows)}
    in_order = sorted(kept, key=lambda k: position[_key(k[0])])  # the rows as the chart orders them
    if block is None and table and new_rows:
        return _refused(
            "E133",
            f"row {new_rows[0].row}, column 1: table '{name}' comes from the base "
            f"of {target.name}; the chart adds '{new_rows[0].key_text}' to it",
            new_rows[0].key.pos,
            "add rows to the table in the base ruleset",
        )
    rows = _in_chart_order(kept, new_rows, position, order)
    statements = _statements(parsed, block, imported, rows, table, inherited)
    candidate = compiler.compile_source(
        replace(parsed, statements=statements), target.parent, list(syntax_errors)
    )
    found = located_in(candidate.diagnostics, imported)
    if candidate.ruleset is None or any(_blocks(d) for d in found):
        return Update(None, [*diags, *found])
    cand_written = _written(candidate.ruleset, table, name)
    edits, changed, moved = _row_edits(text, kept, in_order, old_written, cand_written)
    edits += [(*text.row_lines(own_rows[key]), []) for key, _ in removed]
    if new_rows and block is not None:
        edits += _inserts(text, block, kept, in_order, new_rows, position, order)
    new_text = _edited(text, edits)
    if new_rows and block is None:
        new_text = new_text.rstrip("\n") + _new_block(
            imported, name, new_rows, order, bool(inherited)
        )
    if new_text == parsed.text:  # nothing edited: the file's own compile is the recompile
        recompiled = old
    else:
        recompiled = compiler.compile_text(new_text, str(target), target.parent)
    added = [r.key_text for r in new_rows]
    if recompiled.ruleset is None or any(_blocks(d) for d in recompiled.diagnostics):
        return Update(None, [*diags, *found, *recompiled.diagnostics])
    result = _written(recompiled.ruleset, table, name)
    if result != cand_written or list(result) != list(cand_written):  # guards the editing above
        return _refused(
            "E133",
            f"the edited {target.name} would not say what the chart says",
            None,
            "please report this; the file is left unchanged",
        )
    changed_any = bool(edits) or bool(new_rows)
    return Update(
        new_text if changed_any else None,
        [*diags, *found],
        old.ruleset,
        recompiled.ruleset,
        added,
        changed,
        removed,
        moved,
    )


def _refused(code: str, message: str, pos: s.Pos | None, hint: str) -> Update:
    """No update: the file is left as it is, for the error said."""
    return Update(None, [error(code, message, pos, hint)])


def _kept(
    own_rows: dict[str, s.RowNode], imported: chart.Imported, order: list[str], text: _Text
) -> tuple[list[tuple[s.RowNode, s.RowNode, str]], list[tuple[str, int]]]:
    """The block's rows the chart keeps, each as (old, merged, merged text), and the ones it
    lacks, each as (key, line)."""
    by_key = {r.key_text: r for r in imported.rows}
    kept: list[tuple[s.RowNode, s.RowNode, str]] = []
    removed: list[tuple[str, int]] = []
    for key, old_row in own_rows.items():
        row = by_key.get(key)
        if row is None:
            removed.append((key, old_row.item.name.pos.line))
            continue
        node, written = _merge(row, old_row, order, text, _chart_languages(imported))
        kept.append((old_row, node, written))
    return kept, removed


def _edited(text: _Text, edits: list[tuple[int, int, list[str]]]) -> str:
    """The text with the edits made, bottom up so that earlier lines keep their numbers; at
    one line, the replacement of a row first, then the rows inserted before it."""
    lines = list(text.lines)
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        lines[start:end] = replacement
    return "".join(lines)


def _new_block(
    imported: chart.Imported,
    name: str,
    new_rows: list[chart.ChartRow],
    order: list[str],
    variant: bool,
) -> str:
    """The layer block the file does not have yet, to append (after a blank line)."""
    head_text = _block_head(imported, name, variant)
    body = [head_text, *(f"  {chart.chart_row_text(r, order)}" for r in new_rows), "}"]
    if tuple(order) != ("cost",) and not variant:
        body.insert(1, f"  columns {', '.join(order)}")
    return "\n\n" + format_text("\n".join(body) + "\n")


def _column_order(imported: chart.Imported, rs: ir.Ruleset, table: bool, name: str) -> list[str]:
    """The columns of the block the chart updates, in the order the file declares them."""
    if table:
        columns = next(t for t in rs.tables if t.id == name).columns
        return [c.id for c in columns] or ["value"]
    layer = next((x for x in rs.layers if x.id == name), None)
    return list(layer.columns) if layer is not None else list(imported.columns)


def _unknown_column(
    imported: chart.Imported, order: list[str], table: bool, name: str
) -> Diagnostic | None:
    """E101 at the head of the first column the chart gives and the block does not have."""
    missing = [c for c in imported.columns if c not in order]
    if not missing:
        return None
    what = "table" if table else "layer"
    sheet = imported.sheet
    assert sheet is not None
    heads = [c for c in sheet.rows[0] if c.text.strip() in (missing[0], f"column {missing[0]}")]
    return error(
        "E101",
        f"the chart gives column '{missing[0]}', which {what} '{name}' does not have",
        sheet.at(heads[0]) if heads else None,
        f"the {what}'s columns are {', '.join(order)}",
    )


def _inherited(
    imported: chart.Imported,
    compiler: Compiler,
    target: Path,
    table: bool,
    name: str,
    order: list[str],
    inherited: list[str],
    rs: ir.Ruleset,
) -> list[Diagnostic]:
    """Inherited rows: the same as the base's, or an error (E133); missing ones are kept
    (W130)."""
    diags: list[Diagnostic] = []
    by_key = {r.key_text: r for r in imported.rows}
    base_rows: dict[str, chart.ChartRow] = {}
    if inherited:
        exported = chart_rows(rs, name)
        if exported is not None:
            _, _, again, _ = chart.read_chart(
                to_csv(exported[0]),
                str(target) + ".chart",
                table=table,
                target=Target(_modes(rs), frozenset(order), rs.languages),
                reading=chart.Reading(",", ".", compiler.fragments),
            )
            base_rows = {r.key_text: r for r in again}
    for key in inherited:
        row = by_key.get(key)
        if row is None:
            diags.append(
                warning(
                    "W130",
                    f"'{key}' is not in the chart but comes from the base of {target.name}: kept",
                    None,
                    f"to drop it from the variant, write `remove {key}` in {target.name}",
                )
            )
        elif key in base_rows and _differs(row, base_rows[key], order):
            diags.append(
                error(
                    "E133",
                    f"row {row.row}, column 1: '{key}' comes from the base of {target.name}; "
                    "the chart changes it",
                    row.key.pos,
                    "change it in the base ruleset, or with `override` in the variant",
                )
            )
    return diags


def _in_chart_order(
    kept: list[tuple[s.RowNode, s.RowNode, str]],
    new_rows: list[chart.ChartRow],
    position: dict[str, int],
    order: list[str],
) -> tuple[s.RowNode, ...]:
    """The block's rows after the update: the kept ones merged and the new ones, in the
    chart's order."""
    new_nodes = [chart.chart_row_node(r, order) for r in new_rows]
    by_position = sorted(
        [(position[_key(old_row)], node) for old_row, node, _ in kept]
        + [(position[r.key_text], n) for r, n in zip(new_rows, new_nodes, strict=True)],
        key=lambda x: x[0],
    )
    return tuple(node for _, node in by_position)


def _statements(
    parsed: s.SourceFile,
    block: Block | None,
    imported: chart.Imported,
    rows: tuple[s.RowNode, ...],
    table: bool,
    inherited: list[str],
) -> tuple[s.Statement, ...]:
    """The file's statements with the block's rows as the chart has them (a new layer block
    appended), to check before editing."""
    if block is not None:
        return tuple(replace(st, rows=rows) if st is block else st for st in parsed.statements)
    if table or not rows:
        return parsed.statements
    assert imported.layer is not None
    head = imported.layer
    if inherited:  # a variant's block adds rows to its base's layer: no head of its own
        head = replace(head, item=replace(head.item, labels=()), scope="many", columns=None)
    return (*parsed.statements, replace(head, rows=rows))


def _row_edits(
    text: _Text,
    kept: list[tuple[s.RowNode, s.RowNode, str]],
    in_order: list[tuple[s.RowNode, s.RowNode, str]],
    old_written: dict[str, object],
    cand_written: dict[str, object],
) -> tuple[list[tuple[int, int, list[str]]], list[str], list[str]]:
    """The edits of the kept rows (rewritten where changed, moved where the chart orders them
    otherwise), the rows changed and the rows moved."""
    edits: list[tuple[int, int, list[str]]] = []
    changed: list[str] = []
    contents: dict[str, list[str]] = {}
    for old_row, _, written in kept:
        key = _key(old_row)
        start, end = text.row_lines(old_row)
        contents[key] = text.lines[start:end]
        if cand_written.get(key) != old_written.get(key):
            changed.append(key)
            line = text.lines[start]
            contents[key] = _lines(written, _indent(line), _bar(line))
    # Each kept row's lines take the place of the row that stood where the chart puts it, so
    # the block follows the sheet's order and comments between rows stay where they were.
    moved: list[str] = []
    for (slot, _, _), (row_, _, _) in zip(kept, in_order, strict=True):
        key = _key(row_)
        if row_ is not slot:
            moved.append(key)
        if row_ is not slot or key in changed:
            start, end = text.row_lines(slot)
            edits.append((start, end, contents[key]))
    return edits, changed, moved


def _inserts(
    text: _Text,
    block: Block,
    kept: list[tuple[s.RowNode, s.RowNode, str]],
    in_order: list[tuple[s.RowNode, s.RowNode, str]],
    new_rows: list[chart.ChartRow],
    position: dict[str, int],
    order: list[str],
) -> list[tuple[int, int, list[str]]]:
    """A new row goes after the row the chart has before it (at the block's end if none)."""
    line = text.lines[block.rows[-1].item.name.pos.line - 1] if block.rows else "  "
    last = max((text.row_lines(r)[1] for r in block.rows), default=block.item.pos.line)
    kept_at = [position[_key(r)] for r, _, _ in in_order]
    inserts: dict[int, list[str]] = {}
    for r in new_rows:
        before = bisect.bisect_left(kept_at, position[r.key_text])
        if not kept:
            at = text.closing(last)
        elif before == 0:
            at = text.row_lines(kept[0][0])[0]
        else:
            at = text.row_lines(kept[before - 1][0])[1]
        added = _lines(chart.chart_row_text(r, order), _indent(line), _bar(line))
        inserts.setdefault(at, []).extend(added)
    return [(at, at, added) for at, added in inserts.items()]


def _blocks(d: Diagnostic) -> bool:
    """An error that stops the update: any but a worked example the chart's cells now answer
    otherwise (E270, E271), which the update reports for the author to restate."""
    return d.is_error and d.code not in ANSWER_CODES


def _modes(rs: ir.Ruleset) -> frozenset[str]:
    return frozenset(cell_keys(rs))


def _differs(row: chart.ChartRow, base: chart.ChartRow, order: list[str]) -> bool:
    """Whether a chart's row says something else than the base's row (parts it has)."""
    if row.labels is not None and base.labels is not None and row.labels.text != base.labels.text:
        return True
    if row.notes is not None and base.notes is not None:
        # a chart without `note for` columns says nothing of whom the notes are for
        based = base.notes.text if row.note_for is not None else chart.spell_notes(base.notes.node)
        if row.notes.text != based:
            return True
    if row.source is not None and (base.source.text if base.source else "") != row.source.text:
        return True
    if row.ignores is not None and bool(base.ignores) != row.ignores:
        return True
    return any(
        c in row.cells and row.cells[c].text != (base.cells[c].text if c in base.cells else "")
        for c in order
    )


def _chart_languages(imported: chart.Imported) -> frozenset[str]:
    """The languages the chart has label and note columns for ("" is the first, written bare)."""
    return frozenset(["", *(n.text for n in imported.languages)])


def _other_languages(labels: tuple[s.Label, ...], langs: frozenset[str]) -> tuple[s.Label, ...]:
    return tuple(label for label in labels if label.lang not in langs)


def _merge(
    row: chart.ChartRow, old: s.RowNode, order: list[str], text: _Text, langs: frozenset[str]
) -> tuple[s.RowNode, str]:
    """The chart's row, with what the chart has no column for taken from the file's row: a
    part without a column, and the labels and notes in a language the chart has no column for
    (a chart in English and French leaves a German label as it was)."""
    extras = old.item.extras
    labels = row.labels or chart.Part(old.item.labels, chart.spell_labels(old.item.labels))
    if row.labels is not None and (kept := _other_languages(old.item.labels, langs)):
        both = (*row.labels.node, *kept)
        labels = chart.Part(both, chart.spell_labels(both))
    # whom each note is for: the chart's `note for` columns, else the file's
    scopes = extras.note_for if row.note_for is None else row.note_for
    notes = chart.Part(
        row.notes.node if row.notes else extras.notes,
        chart.spell_notes(row.notes.node if row.notes else extras.notes, scopes),
    )
    if row.notes is not None and any(_other_languages(n, langs) for n in extras.notes):
        given = list(row.notes.node)
        merged_notes = [
            (*(given[i] if i < len(given) else ()), *_other_languages(n, langs))
            for i, n in enumerate(extras.notes)
        ] + given[len(extras.notes) :]
        notes = chart.Part(tuple(merged_notes), chart.spell_notes(merged_notes, scopes))
    source = row.source
    if source is None:
        source = chart.Part(
            extras.source, chart.spell_source(extras.source) if extras.source else ""
        )
    ignores = extras.ignores_others if row.ignores is None else row.ignores
    cells: dict[str, chart.Part] = {}
    for i, column in enumerate(order):
        if column in row.cells:
            cells[column] = row.cells[column]
        elif i < len(old.cells):
            cells[column] = chart.Part(old.cells[i], text.span(old.cells[i].pos))
    merged = replace(
        row,
        labels=labels,
        notes=notes,
        note_for=scopes,
        source=source,
        ignores=ignores,
        cells=cells,
    )
    node = chart.chart_row_node(merged, order)
    given = [order.index(c) + 1 for c in row.cells if row.cells[c].text or c == "cost"]
    width = max(len(old.cells), max(given, default=0))
    node = replace(node, cells=node.cells[:width])
    written = chart.row_text(
        row.key_text if old.key_number is None else text.span(old.item.name.pos),
        labels.text,
        [cells[c].text if c in cells else "" for c in order[:width]],
        source.text,
        notes.text,
        ignores,
    )
    return node, written


def _bar(line: str) -> int | None:
    """Where the first ``|`` of a row's line stands (outside strings), if it has one."""
    return next((i for i in _outside_strings(line) if line[i] == "|"), None)


def _lines(written: str, indent: str, bar: int | None = None) -> list[str]:
    """A row's text as lines of the block: indented as its neighbours, notes two deeper, and
    its first ``|`` where the row it replaces (or the block's last row) has it, if it fits."""
    out = []
    for i, line in enumerate(written.split("\n")):
        line = (indent if i == 0 else indent + "    ") + line.strip()
        here = _bar(line) if i == 0 else None
        if here is not None and bar is not None and here < bar:
            line = line[:here].rstrip().ljust(bar) + line[here:]
        out.append(line + "\n")
    return out


def _block_head(imported: chart.Imported, name: str, variant: bool) -> str:
    layer = imported.layer
    if variant or layer is None:
        return f"layer {name} {{"
    label = chart.spell_labels(layer.item.labels)
    scope = words.scope_words(layer.scope)
    return f"layer {name}" + (f" {label}" if label else "") + (f" {scope}" if scope else "") + " {"
