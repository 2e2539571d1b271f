"""Terrain charts kept in spreadsheets: CSV in (a layer block of DSL text), CSV out (any table).

Import: one row per feature, one column per mode (or group), each cell in the DSL's value
syntax (``2``, ``impassable``, ``as clear``, ``1 per 2 in``). The first column is the
feature's name; columns named ``label`` or with a language code (``fr``) hold its labels,
``source`` and ``note`` its source reference and note, and ``all`` the value for every mode.
Without ``all``, the value most modes share becomes the default and the others its
exceptions, so the row reads the DSL way: a value for all, then the exceptions.

The chart is read by a small RFC 4180 reader of its own (not Python's csv module) that knows
where every cell stands in the file, so that every diagnostic points at the cell's line and
column and names its CSV row and column. The chart becomes syntax nodes (a ``layer``
statement), which go through the same passes as the DSL's: with a target ruleset, added to
it (:func:`check_into`); without, in a ruleset of their own that declares the chart's modes
(:func:`check_alone`).

Export: a layer (features by modes, the resolved cost), a plain table, a modifier (items by
context values) or a dice table, from the IR, as CSV with the same cell syntax. A cell that
a spreadsheet would run as a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return, and is not just a number such as ``-2``) is written after a single quote, as
OWASP advises against CSV injection; import takes that quote off again.
"""

from __future__ import annotations

import bisect
import csv
import io
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, assert_never

from rulesdsl import ir, spelling, words
from rulesdsl.diagnostics import Diagnostic, Related, did_you_mean, error
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.fragments import FragmentError, FragmentParser
from rulesdsl.interchange.fmt import format_text

if TYPE_CHECKING:
    from rulesdsl.compiler import Compiled, Compiler

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
LANGUAGE = re.compile(r"^[a-z]{2}$")
ColumnRole = Literal["key", "mode", "all", "label", "lang", "source", "note", "skip"]
"""What a chart's column holds: the item's name (the first), a mode's or group's cell, the cell
for all modes, the label, a label in another language, the source, the note; or nothing read
(a column in error)."""

SPECIAL: tuple[ColumnRole, ...] = ("label", "source", "note", "all")
"""The roles a header names with its own word."""

MAX_CELL = 131_072
"""The most characters a cell may hold (128 Ki, the limit of Python's own csv reader)."""

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]|[\ud800-\udfff]")
"""What a label or note may not hold, as in the DSL: control characters other than a tab and
a line break, and half a surrogate pair."""

_FORMULA = re.compile(r"'*[=+\-@\t\r]")
"""A cell a spreadsheet runs as a formula (after any quotes export added)."""
_NEUTRALISED = re.compile(r"'+[=+\-@\t\r]")
"""A cell export neutralised: import takes one quote off."""
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
"""A cell that is only a number (``-2``, ``+1``): data, not a formula, and kept as it is."""
_CELL_END = re.compile(r"[,\r\n]")
_NO_EXTRAS = s.Extras()


@dataclass(frozen=True)
class Imported:
    """The layer block (DSL text, laid out by fmt) and what was wrong; text is None on error.
    ``layer`` is the same block as syntax, positioned in the CSV file, for the checks."""

    text: str | None
    diagnostics: list[Diagnostic]
    layer: s.LayerDecl | None = None
    modes: tuple[s.Name, ...] = ()
    """The chart's mode (or group) columns, as named in its header."""
    languages: tuple[s.Name, ...] = ()
    """The chart's language columns (``fr``), besides ``label``."""
    sheet: Sheet | None = field(default=None, repr=False)


# ---- reading the file ----------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One cell: its text (quotes undone, an export's neutralising quote taken off), where it
    starts in the file (its opening quote, if quoted) and where it ends."""

    text: str
    start: int
    end: int
    quoted: bool
    lead: int = 0
    """Characters of the text taken off its front: the neutralising quote."""


class Sheet:
    """A CSV file read into rows of cells that know their place in the file."""

    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path
        self.rows: list[list[Cell]] = []
        self.diagnostics: list[Diagnostic] = []
        self._line_starts = [0]
        for line in text.splitlines(keepends=True):  # as the diagnostics printer counts lines
            self._line_starts.append(self._line_starts[-1] + len(line))
        self._read()

    def _read(self) -> None:
        text, n = self.text, len(self.text)
        row: list[Cell] = []
        i = 0
        while True:
            start = i
            if i < n and text[i] == '"':
                parts = []
                j = i + 1
                while True:
                    k = text.find('"', j)
                    if k < 0:
                        self.diagnostics.append(
                            error(
                                "E001",
                                f"row {len(self.rows) + 1}, column {len(row) + 1}: "
                                "a quoted cell is never closed",
                                self.pos(start),
                                'end it with "; a quote inside a cell is written ""',
                            )
                        )
                        parts.append(text[j:])
                        i = n
                        break
                    parts.append(text[j:k])
                    if text.startswith('""', k):
                        parts.append('"')
                        j = k + 2
                        continue
                    i = k + 1
                    break
                value = "".join(parts)
                if i < n and text[i] not in ",\r\n":
                    found = _CELL_END.search(text, i)
                    after = found.start() if found else n
                    self.diagnostics.append(
                        error(
                            "E001",
                            f"row {len(self.rows) + 1}, column {len(row) + 1}: "
                            "text after the closing quote of a cell",
                            self.pos(i, after - i),
                            'quote the whole cell, with each quote inside it written ""',
                        )
                    )
                    i = after
                quoted = True
            else:
                found = _CELL_END.search(text, i)
                i = found.start() if found else n
                value = text[start:i]
                quoted = False
            lead = 1 if _NEUTRALISED.match(value) else 0
            cell = Cell(value[lead:], start, i, quoted, lead)
            if len(value) > MAX_CELL:
                self.diagnostics.append(
                    error(
                        "E003",
                        f"row {len(self.rows) + 1}, column {len(row) + 1}: a cell of "
                        f"{len(value):,} characters; a cell holds at most {MAX_CELL:,}",
                        self.pos(start),
                        "a chart's cells are names, labels and values: is this the right file?",
                    )
                )
                cell = Cell("", start, i, quoted)
            row.append(cell)
            if i >= n:
                break
            if text[i] == ",":
                i += 1
                continue
            i += 2 if text.startswith("\r\n", i) else 1
            self.rows.append(row)
            row = []
            if i >= n:
                break
        if row:
            self.rows.append(row)
        # A blank line is no row, as for Python's csv reader.
        self.rows = [r for r in self.rows if not (len(r) == 1 and r[0].start == r[0].end)]

    def offset(self, cell: Cell, index: int) -> int:
        """Where character ``index`` of the cell's text stands in the file."""
        at = cell.start + (1 if cell.quoted else 0)
        for _ in range(index + cell.lead):
            at += 2 if cell.quoted and self.text.startswith('""', at) else 1
        return at

    def pos(self, offset: int, width: int = 1) -> s.Pos:
        line = bisect.bisect_right(self._line_starts, offset) - 1
        line = min(line, max(len(self._line_starts) - 2, 0))
        column = offset - self._line_starts[line] + 1
        return s.Pos(self.path, line + 1, column, line + 1, column + max(width, 1))

    def at(self, cell: Cell, index: int = 0, width: int | None = None) -> s.Pos:
        """The position of the cell's text from character ``index`` (its stripped start by
        default) over ``width`` characters (the rest of its first line)."""
        if index == 0:
            index = len(cell.text) - len(cell.text.lstrip())
        rest = cell.text[index:].strip().split("\n")[0]
        return self.pos(self.offset(cell, index), width if width is not None else len(rest))

    def cell_at(self, pos: s.Pos) -> tuple[int, int] | None:
        """The (row, column), from 0, of the cell holding ``pos``; None if none does."""
        if pos.file != self.path or not 1 <= pos.line < len(self._line_starts):
            return None
        offset = self._line_starts[pos.line - 1] + pos.column - 1
        for r, row in enumerate(self.rows):
            if row and row[0].start <= offset <= row[-1].end:
                for c, cell in enumerate(row):
                    if cell.start <= offset <= cell.end:
                        return r, c
        return None


# ---- the chart as a layer --------------------------------------------------------------------


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
    sheet = Sheet(text, path)
    diags = list(sheet.diagnostics)
    if diags:  # the file is no CSV: its cells are not what they seem
        return Imported(None, diags, sheet=sheet)
    rows = sheet.rows
    if not rows or not any(c.text.strip() for c in rows[0]):
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
            sheet=sheet,
        )
    head_cells = rows[0]
    header = [c.text.strip() for c in head_cells]
    langs = set(languages or ())
    modes_known = set(known) if known is not None else None
    kinds: list[ColumnRole] = ["key"]
    first: dict[str, int] = {header[0]: 0}
    for i, name in enumerate(header[1:], start=1):
        where = sheet.at(head_cells[i])
        if name in first:
            j = first[name]
            diags.append(
                error(
                    "E102",
                    f"row 1, column {i + 1}: '{_shown(name)}' is also column {j + 1}",
                    where,
                    "one column per mode, language or kind of cell; delete or rename one",
                    [Related(sheet.at(head_cells[j]), f"column {j + 1} is '{_shown(name)}'")],
                )
            )
            kinds.append("skip")
            continue
        first[name] = i
        special = next((role for role in SPECIAL if role == name), None)
        if special is not None:
            kinds.append(special)
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
                    f"row 1, column {i + 1}: '{_shown(name)}' is not a mode name",
                    where,
                    "a header is a mode or group, label, a language, source, note or all",
                )
            )
            kinds.append("skip")
        elif modes_known is not None and name not in modes_known:
            diags.append(
                error(
                    "E101",
                    f"row 1, column {i + 1}: unknown mode or group '{name}'",
                    where,
                    did_you_mean(name, modes_known),
                )
            )
            kinds.append("skip")
        else:
            kinds.append("mode")

    def located(cell: Cell, start: str, r: int, i: int, wrap: str = "") -> object:
        raw = cell.text.strip()
        p = sheet.at(cell)
        try:
            return parser.parse(
                wrap.replace("X", raw) if wrap else raw,
                start,
                path,
                p.line,
                p.column - (1 if wrap else 0),
            )
        except FragmentError as exc:
            d = exc.diagnostic
            diags.append(
                error(
                    d.code,
                    f"row {r + 1}, column {i + 1} ({header[i] or start}): {d.message}",
                    d.pos,
                    "a book id, then a page: hg p.12" if start == "source" else d.hint,
                )
            )
            return None

    def plain(cell: Cell, r: int, i: int) -> str:
        """A label's or note's text; E004 at a character the DSL refuses in a string."""
        value = cell.text.strip()
        bad = CONTROL.search(value)
        if bad is not None:
            offset = len(cell.text) - len(cell.text.lstrip()) + bad.start()
            what = (
                f"control character {bad.group()!r}"
                if not "\ud800" <= bad.group() <= "\udfff"
                else f"{bad.group()!r}, half of a surrogate pair,"
            )
            diags.append(
                error(
                    "E004",
                    f"row {r + 1}, column {i + 1} ({header[i]}): {what} in a string",
                    sheet.at(cell, offset, 1),
                    "remove it; a label is plain text (tabs and line breaks are kept)",
                )
            )
        return value

    out = [
        f"layer {layer}"
        + (f" {spelling.string(label)}" if label else "")
        + (f" {scope}" if scope else "")
        + " {"
    ]
    nodes: list[s.RowNode] = []
    seen: dict[str, int] = {}
    for r, row in enumerate(rows[1:], start=1):
        if not any(c.text.strip() for c in row):
            continue
        if len(row) > len(header):
            diags.append(
                error(
                    "E204",
                    f"row {r + 1}: {len(row)} cells for {len(header)} columns",
                    sheet.at(row[len(header)]),
                    "one cell per header column",
                )
            )
        key_cell = row[0]
        key = key_cell.text.strip()
        if not NAME.match(key):
            diags.append(
                error(
                    "E001",
                    f"row {r + 1}, column 1 ({header[0] or 'feature'}): "
                    f"'{_shown(key)}' is not a feature name",
                    sheet.at(key_cell),
                    "names start with a letter and hold letters, digits and _",
                )
            )
            continue
        if key in seen:
            diags.append(
                error(
                    "E102",
                    f"row {r + 1}, column 1: '{key}' is already in row {seen[key]}",
                    sheet.at(key_cell),
                    "one row per feature",
                )
            )
            continue
        seen[key] = r + 1
        errors_before = len(diags)
        values: dict[str, tuple[str, s.Located, Cell]] = {}
        default: tuple[str, s.Located, Cell] | None = None
        labels: list[str] = []
        label_nodes: list[s.Label] = []
        extras = ""
        source: s.SourceRef | None = None
        notes: list[str] = []
        note_nodes: list[tuple[s.Label, ...]] = []
        for i, kind in enumerate(kinds[1:], start=1):
            cell = row[i] if i < len(row) else None
            if cell is None or not cell.text.strip():
                continue
            text_ = cell.text.strip()
            match kind:
                case "skip":
                    continue
                case "mode":
                    value = located(cell, "value", r, i)
                    if isinstance(value, s.Located):
                        values[header[i]] = (" ".join(text_.split()), value, cell)
                case "all":
                    value = located(cell, "value", r, i)
                    if isinstance(value, s.Located):
                        default = (" ".join(text_.split()), value, cell)
                case "label":
                    labels.insert(0, spelling.string(text_))
                    label_nodes.insert(0, s.Label("", plain(cell, r, i), sheet.at(cell)))
                case "lang":
                    labels.append(f"{header[i]} {spelling.string(text_)}")
                    label_nodes.append(s.Label(header[i], plain(cell, r, i), sheet.at(cell)))
                case "source":
                    found = located(cell, "source", r, i, "[X]")
                    if isinstance(found, s.SourceRef):
                        source = found
                        extras = f" [{text_}]"
                case "note":
                    notes.append(spelling.string(text_))
                    note_nodes.append((s.Label("", plain(cell, r, i), sheet.at(cell)),))
                case "key":  # the first column, read before this loop
                    pass
                case _:
                    assert_never(kind)
        if default is None and values:
            counts = Counter(v[0] for v in values.values())
            order = [v[0] for v in values.values()]
            best = max(counts, key=lambda v: (counts[v], -order.index(v)))
            default = next(v for v in values.values() if v[0] == best)
        chosen = [default] if default else []
        entries = [default[0]] if default else []
        nodes_entries = [s.Entry(None, default[1])] if default else []
        for mode, (written, value, cell) in values.items():
            if default is None or written != default[0]:
                entries.append(f"{mode} {written}")
                nodes_entries.append(s.Entry(s.Name(mode, sheet.at(cell)), value))
                chosen.append((written, value, cell))
        head = " ".join([key, *labels])
        note = "".join(f"\n      note {n}" for n in notes)
        out.append(f"  {head} | {', '.join(entries)}{extras}{note}")
        if len(diags) > errors_before:
            continue  # reported: the checks see only the rows read whole
        key_pos = sheet.at(key_cell)
        cell_pos = (
            replace(
                chosen[0][1].pos,
                end_line=chosen[-1][1].pos.end_line,
                end_column=chosen[-1][1].pos.end_column,
            )
            if chosen
            else key_pos
        )
        nodes.append(
            s.RowNode(
                s.Item(
                    s.Name(key, key_pos),
                    tuple(label_nodes),
                    s.Extras(source, tuple(note_nodes)) if source or note_nodes else _NO_EXTRAS,
                    key_pos,
                ),
                (s.CellNode(tuple(nodes_entries), cell_pos),),
            )
        )
    out.append("}")
    head_pos = _option_pos(path)  # the layer's name and label come from the command line
    bad_label = CONTROL.search(label or "")
    if bad_label is not None:
        diags.append(
            error(
                "E004",
                f"--label: control character '{_shown(bad_label.group())}' in a string",
                None,
                "a label is plain text",
            )
        )
    decl = s.LayerDecl(
        s.Item(
            s.Name(layer, head_pos),
            (s.Label("", label, head_pos),) if label else (),
            _NO_EXTRAS,
            head_pos,
        ),
        words.scope_from_words(scope),
        None,
        tuple(nodes),
    )
    mode_names = tuple(
        s.Name(header[i], sheet.at(head_cells[i])) for i, k in enumerate(kinds) if k == "mode"
    )
    lang_names = tuple(
        s.Name(header[i], sheet.at(head_cells[i])) for i, k in enumerate(kinds) if k == "lang"
    )
    if any(d.is_error for d in diags):
        return Imported(None, diags, decl, mode_names, lang_names, sheet)
    return Imported(format_text("\n".join(out) + "\n"), diags, decl, mode_names, lang_names, sheet)


def _option_pos(path: str) -> s.Pos:
    """Where the checks find what the command line gave (the layer's name and label): an
    empty span at the file's start, which :func:`located_in` reports as ``--layer``."""
    return s.Pos(path, 1, 1, 1, 1)


def _shown(text: str) -> str:
    """``text`` for a message: control characters escaped, so none reaches the terminal."""
    return spelling.string(text)[1:-1]


# ---- the same checks as the DSL's ------------------------------------------------------------

STANDALONE_ID = "chart"


def check_alone(imported: Imported, compiler: Compiler) -> list[Diagnostic]:
    """The diagnostics of :func:`compile_alone` (the chart's own errors not included)."""
    compiled = compile_alone(imported, compiler)
    return [] if compiled is None else compiled.diagnostics


def compile_alone(imported: Imported, compiler: Compiler) -> Compiled | None:
    """The chart's layer compiled in a ruleset of its own that declares the chart's columns as
    modes (and its language columns as languages): every check of the DSL runs on it, save
    the names it refers to outside the chart (``as clear``, ``step climb``, a book), which only
    a target ruleset knows (``--into``)."""
    if imported.layer is None or imported.sheet is None:
        return None
    sheet = imported.sheet
    head = s.Pos(sheet.path, 1, 1, 1, 2)
    languages = ("en", *(n.text for n in imported.languages if n.text != "en"))

    def item(name: s.Name) -> s.Item:
        labels = tuple(
            s.Label("" if i == 0 else lang, name.text, name.pos) for i, lang in enumerate(languages)
        )
        return s.Item(name, labels, _NO_EXTRAS, name.pos)

    statements: list[s.Statement] = [
        s.RulesetDecl(s.Item(s.Name(STANDALONE_ID, head), (), _NO_EXTRAS, head)),
        s.VersionDecl("1.0.0", head),
    ]
    if len(languages) > 1:
        statements.append(s.LanguagesDecl((s.Name("en", head), *imported.languages), head))
    statements += [s.ModeDecl(item(name)) for name in imported.modes]
    statements.append(imported.layer)
    source = s.SourceFile(sheet.path, sheet.text, tuple(statements))
    compiled = compiler.compile_source(source, Path(sheet.path).parent)
    value_cells = {
        (r, c) for r, row in enumerate(sheet.rows[1:], start=1) for c in range(1, len(row))
    }
    kept = []
    for d in compiled.diagnostics:
        here = sheet.cell_at(d.pos) if d.pos is not None else None
        if d.code == "E101" and here in value_cells:
            continue  # a name from outside the chart: checked with --into
        kept.append(d)
    return replace(compiled, diagnostics=located_in(kept, imported))


def check_into(imported: Imported, compiler: Compiler, target: Path) -> list[Diagnostic]:
    """The chart's layer added to ``target`` (already compiled by ``compiler``) and the whole
    compiled: the chart's errors point at its cells, the target's at its lines."""
    if imported.layer is None:
        return []
    parsed, syntax_errors = compiler.parse_file(target)
    if parsed is None:
        return syntax_errors
    source = replace(parsed, statements=(*parsed.statements, imported.layer))
    compiled = compiler.compile_source(source, target.parent, syntax_errors)
    return located_in(compiled.diagnostics, imported)


def located_in(diags: list[Diagnostic], imported: Imported) -> list[Diagnostic]:
    """``diags`` with those in the chart's cells named by CSV row and column, as the chart's
    own are."""
    sheet = imported.sheet
    if sheet is None:
        return diags
    out = []
    option = _option_pos(sheet.path)
    for d in diags:
        if d.pos == option:
            d = replace(d, message=f"--layer: {d.message}", pos=None)
        d = replace(d, related=tuple(r for r in d.related if r.pos != option))
        here = sheet.cell_at(d.pos) if d.pos is not None else None
        if here is not None and not d.message.startswith("row "):
            r, c = here
            head = sheet.rows[0][c].text.strip() if c < len(sheet.rows[0]) else ""
            where = f"row {r + 1}, column {c + 1}" + (f" ({head})" if head else "")
            d = replace(d, message=f"{where}: {d.message}")
        out.append(d)
    return out


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


def neutralise(cell: str) -> str:
    """``cell`` as a spreadsheet may open it: after a single quote when it would run as a
    formula (OWASP's advice against CSV injection), unless it is only a number (``-2``)."""
    if _FORMULA.match(cell) and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


class _SafeWriter:
    """A csv writer that neutralises every cell it writes."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer

    def writerow(self, cells: Iterable[str]) -> None:
        self._writer.writerow([neutralise(c) for c in cells])


def export_csv(ruleset: ir.Ruleset, name: str) -> str | None:
    """One table of the ruleset as CSV; None when it has no table of that name."""
    langs = ruleset.languages
    label_heads = ["label", *langs[1:]]
    buffer = io.StringIO()
    out = _SafeWriter(csv.writer(buffer, lineterminator="\n"))
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
