"""Terrain charts kept in spreadsheets, read: a chart's rows as syntax, positioned at its cells.

One row per feature (or table row), one column per mode or group, each cell in the DSL's value
syntax (``2``, ``impassable``, ``as clear``, ``1 per 2 in``); what each header names is
:mod:`rulesdsl.interchange.chart_columns`' (``label fr``, ``all``, ``column to_hit``,
``source``, ``note fr``...), the cells :mod:`rulesdsl.interchange.chart_sheet`'s. Without
``all``, the value most modes share becomes the default and the others its exceptions, so the
row reads the DSL way: a value for all, then the exceptions. Decimal commas (``1,5``) are read
as ``--locale`` says or as the file shows (:func:`decimal_comma`).

Each row becomes syntax nodes (:class:`ChartRow`, its parts as nodes and as DSL text), which go
through the same passes as the DSL's: alone, in a ruleset of their own that declares the
chart's modes (:mod:`rulesdsl.interchange.chart_alone`), or as part of the target ruleset,
whose layer or table they update in place (:mod:`rulesdsl.interchange.chart_into`). Every
diagnostic points at its cell's line and column and names its row and column in the chart.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, assert_never

from rulesdsl import ir, spelling, words
from rulesdsl.diagnostics import CappedList, Diagnostic, error
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.fragments import FragmentError, FragmentParser
from rulesdsl.gc_pause import gc_paused
from rulesdsl.interchange.chart_columns import NAME, Column, Target, read_header
from rulesdsl.interchange.chart_sheet import CONTROL, Cell, Sheet
from rulesdsl.interchange.chart_sheet import shown as _shown
from rulesdsl.interchange.fmt import _outside_strings, _split_outside_strings, format_text

_NO_EXTRAS = s.Extras()


# ---- the chart's rows --------------------------------------------------------------------------

_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d)")
_THOUSANDS = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_THOUSANDS_IN = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])")


@dataclass(frozen=True, slots=True)
class Part:
    """A part of a row, as a syntax node (for the checks) and as DSL text (for the file)."""

    node: Any
    text: str


@dataclass(frozen=True, slots=True)
class ChartRow:
    """One row of the chart: its key and the parts its columns give. A part the chart has no
    column for is missing (None), so that ``--into`` keeps the row's own."""

    key: s.Name
    key_number: ir.Number | None
    key_text: str
    labels: Part | None
    notes: Part | None
    source: Part | None
    ignores: bool | None
    cells: dict[str, Part]
    """Per column of the layer or table (``cost`` for the mode columns and ``all``)."""
    row: int
    """Its row in the chart, from 1."""
    note_for: tuple[tuple[s.Name, ...], ...] | None = None
    """Per note, the unit types or keywords it is for (``note for``); None when the chart has
    no such column, so that ``--into`` keeps the row's own."""


@dataclass(frozen=True)
class Imported:
    """What a chart says and what was wrong; ``text`` (a layer block laid out by fmt) is None on
    error. ``layer`` is the block as syntax, positioned in the chart, for the checks."""

    text: str | None
    diagnostics: list[Diagnostic]
    layer: s.LayerDecl | None = None
    modes: tuple[s.Name, ...] = ()
    """The chart's mode (or group) columns, as named in its header."""
    languages: tuple[s.Name, ...] = ()
    """The languages of the chart's label and note columns, besides the first."""
    sheet: Sheet | None = field(default=None, repr=False)
    rows: tuple[ChartRow, ...] = ()
    columns: tuple[str, ...] = ()
    """The layer's or table's columns the chart gives, in its order."""
    has: frozenset[str] = frozenset()
    """Which parts the chart has columns for: label, note, source, ignores."""


def decimal_comma(
    sheet: Sheet, columns: list[Column], locale_mark: str | None, diags: list[Diagnostic]
) -> tuple[bool, set[tuple[int, int]]]:
    """Whether the chart's value cells write ``1,5`` for one and a half: as ``--locale`` says
    (its decimal mark, by Babel); otherwise, yes when the chart's cells are split by ``;``
    (as Excel does where the decimal mark is a comma) or a value cell holds a comma between
    digits that cannot group thousands (``1,5``); a chart with only ``1,500`` and the like is
    ambiguous (E131). Also the cells found ambiguous, which are reported and not read."""
    if locale_mark is not None:
        return locale_mark == ",", set()
    if sheet.delimiter == ";":
        return True, set()
    ambiguous: tuple[int, int, Cell] | None = None
    cells: set[tuple[int, int]] = set()
    for r, row in enumerate(sheet.rows[1:], start=1):
        for c, cell in enumerate(row[: len(columns)]):
            if columns[c].role not in ("mode", "all", "column") or "," not in cell.text:
                continue
            for found in re.finditer(r"[+-]?\d[\d,]*(?:\.\d+)?", cell.text):
                number = found.group()
                if not _DECIMAL_COMMA.search(number):
                    continue
                if not _THOUSANDS.fullmatch(number):
                    return True, set()
                cells.add((r, c))
                if ambiguous is None:
                    ambiguous = (r, c, cell)
    if ambiguous is not None:
        r, c, cell = ambiguous
        diags.append(
            error(
                "E131",
                f"row {r + 1}, column {c + 1}: '{_shown(cell.text.strip())}' may be a decimal "
                "comma or a thousands separator",
                sheet.at(cell),
                "say which with --locale: --locale fr reads 1,500 as 1.5, --locale en as 1500",
            )
        )
    return False, cells


def _decimal(text: str, comma: bool | None) -> str:
    """A value cell's numbers as the DSL writes them: decimal commas as points (``comma``, the
    same length and places), or without the commas that group thousands (``None``: a locale
    that groups with commas said so)."""
    if "," not in text:
        return text
    if comma is None:
        return outside_strings(text, _THOUSANDS_IN, lambda m: m.group().replace(",", ""))
    return outside_strings(text, _DECIMAL_COMMA, lambda m: ".") if comma else text


def outside_strings(
    text: str, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str]
) -> str:
    """``pattern.sub(replace, text)`` where the match is outside the DSL's quoted strings (a
    label in a cell, ``"1,5 m"``, keeps its commas)."""
    if '"' not in text:
        return pattern.sub(replace, text)
    outside = set(_outside_strings(text))
    return pattern.sub(lambda m: replace(m) if m.start() in outside else m.group(), text)


@gc_paused()  # no collection while the rows' many small nodes are made: linear in the chart
@dataclass(frozen=True)
class Reading:
    """How to read a chart's text: its delimiter, its decimal mark (``,`` or ``.``) and the
    row of its header (each None: found from the text), and the parser of its cells' DSL
    (None: a new one)."""

    delimiter: str | None = None
    locale_mark: str | None = None
    fragments: FragmentParser | None = None
    header_row: int | None = None


def read_chart(
    text: str,
    path: str,
    *,
    table: bool = False,
    target: Target | None = None,
    reading: Reading = Reading(),
) -> tuple[Sheet, list[Column], list[ChartRow], list[Diagnostic]]:
    """The chart's rows, each part parsed with the DSL's grammar and placed at its cell."""
    parser = reading.fragments or FragmentParser()
    sheet = Sheet(text, path, reading.delimiter, reading.header_row)
    diags = CappedList(sheet.diagnostics)  # at most MAX_OF_A_CODE of a code, as lowering
    if diags:  # the file is no CSV: its cells are not what they seem
        return sheet, [], [], diags.with_left_out()
    rows = sheet.rows
    diags.extend(sheet.title_said())
    if not rows or not any(c.text.strip() for c in rows[0]):
        diags.append(
            error(
                "E001",
                "the CSV file has no header row",
                s.Pos(path, 1, 1, 1, 2),
                "first row: feature, label, then one column per mode",
            )
        )
        return sheet, [], [], diags.with_left_out()
    columns = read_header(sheet, target, table, diags)
    found_comma, ambiguous = decimal_comma(sheet, columns, reading.locale_mark, diags)
    comma: bool | None = found_comma
    if reading.locale_mark == ".":  # the locale groups thousands with commas: 1,500 is 1500
        comma = None
    reader = _Reader(sheet, path, parser, columns, comma, ambiguous, table, diags)
    out: list[ChartRow] = []
    seen: dict[str, int] = {}
    for r, row in enumerate(rows[1:], start=1):
        if not any(c.text.strip() for c in row):
            continue
        read = reader.row(row, r, seen)
        if read is not None:
            out.append(read)
    return sheet, columns, out, diags.with_left_out()


@dataclass(slots=True)
class _Parts:
    """What one row's cells say, gathered column by column."""

    key_pos: s.Pos
    values: dict[str, list[tuple[str, s.Entry]]] = field(default_factory=dict)
    default: list[tuple[str, s.Entry]] | None = None
    labels: list[s.Label] = field(default_factory=list)
    notes: dict[int, list[s.Label]] = field(default_factory=dict)
    scopes: dict[int, tuple[s.Name, ...]] = field(default_factory=dict)
    source: Part | None = None
    ignores: bool = False
    cells: dict[str, Part] = field(default_factory=dict)


class _Reader:
    """Reads a chart's rows: each cell parsed with the DSL's grammar, placed at its cell."""

    def __init__(
        self,
        sheet: Sheet,
        path: str,
        parser: FragmentParser,
        columns: list[Column],
        comma: bool | None,
        ambiguous: set[tuple[int, int]],
        table: bool,
        diags: CappedList,
    ) -> None:
        self.sheet = sheet
        self.path = path
        self.parser = parser
        self.columns = columns
        self.header = [c.text.strip() for c in sheet.rows[0]]
        self.comma = comma
        self.ambiguous = ambiguous
        self.table = table
        self.diags = diags
        self.roles = {c.role for c in columns}

    def located(self, cell: Cell, start: str, r: int, i: int, wrap: str = "") -> Any:
        """``cell`` parsed from the grammar's rule ``start`` (inside ``wrap``, its X the
        cell), placed at the cell; None where it does not parse (reported)."""
        raw = cell.text.strip()
        if start in ("cell", "quantity"):
            raw = _decimal(raw, self.comma)
        p = self.sheet.at(cell)
        try:
            return self.parser.parse(
                wrap.replace("X", raw) if wrap else raw,
                start,
                self.path,
                p.line,
                p.column - (1 if wrap else 0),
            )
        except FragmentError as exc:
            d = exc.diagnostic
            hint = d.hint
            if start == "source":
                hint = "a book id, then a page: hg p.12"
            elif "','" in d.message and not self.comma:
                hint = (hint or "") + "; a decimal comma (1,5) is read with --locale fr"
            self.diags.append(
                error(
                    d.code,
                    f"row {r + 1}, column {i + 1} ({self.header[i] or start}): {d.message}",
                    d.pos,
                    hint,
                )
            )
            return None

    def plain(self, cell: Cell, r: int, i: int) -> str:
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
            self.diags.append(
                error(
                    "E004",
                    f"row {r + 1}, column {i + 1} ({self.header[i]}): {what} in a string",
                    self.sheet.at(cell, offset, 1),
                    "remove it; a label is plain text (tabs and line breaks are kept)",
                )
            )
        return value

    def row(self, row: list[Cell], r: int, seen: dict[str, int]) -> ChartRow | None:
        """Row ``r`` of the chart, None where it has errors (reported)."""
        columns, diags = self.columns, self.diags
        if len(row) > len(columns):
            diags.append(
                error(
                    "E204",
                    f"row {r + 1}: {len(row)} cells for {len(columns)} columns",
                    self.sheet.at(row[len(columns)]),
                    "one cell per header column",
                )
            )
        keyed = self.key(row[0], r, seen)
        if keyed is None:
            return None
        key, key_number = keyed
        errors_before = diags.offered
        parts = _Parts(self.sheet.at(row[0]))
        for i, col in enumerate(columns[1:], start=1):
            cell = row[i] if i < len(row) and (r, i) not in self.ambiguous else None
            self.cell(parts, col, cell, r, i)
        if self.roles & {"mode", "all"}:
            parts.cells["cost"] = self.cost(parts)
        if diags.offered > errors_before:
            return None  # reported: the checks see only the rows read whole
        return self.chart_row(parts, key, key_number, r)

    def key(
        self, key_cell: Cell, r: int, seen: dict[str, int]
    ) -> tuple[str, ir.Number | None] | None:
        """A row's key (a feature's or table row's name, or a table's number), None where it
        is no key or a key already seen (reported)."""
        table, header = self.table, self.header
        key = key_cell.text.strip()
        key_pos = self.sheet.at(key_cell)
        key_number: ir.Number | None = None
        if table and key[:1] and key[:1] in "0123456789+-.":
            found = self.located(key_cell, "quantity", r, 0)
            if not isinstance(found, s.Located) or not isinstance(found.value, ir.Number):
                return None
            key_number = found.value
            key = spelling.number(key_number.value) + (
                f" {key_number.unit}" if key_number.unit else ""
            )
        elif not NAME.match(key):
            self.diags.append(
                error(
                    "E001",
                    f"row {r + 1}, column 1 ({header[0] or ('row' if table else 'feature')}): "
                    f"'{_shown(key)}' is not a {'row' if table else 'feature'} name",
                    key_pos,
                    "names start with a letter and hold letters, digits and _",
                )
            )
            return None
        if key in seen:
            self.diags.append(
                error(
                    "E102",
                    f"row {r + 1}, column 1: '{key}' is already in row {seen[key]}",
                    key_pos,
                    "one row per " + ("key" if table else "feature"),
                )
            )
            return None
        seen[key] = r + 1
        return key, key_number

    def cell(self, parts: _Parts, col: Column, cell: Cell | None, r: int, i: int) -> None:
        """What ``cell``, in column ``col``, says of its row, into ``parts``."""
        sheet = self.sheet
        if col.role == "column":
            if cell is None or not cell.text.strip():
                pos = sheet.at(cell) if cell is not None else parts.key_pos
                parts.cells[col.name] = Part(s.CellNode((), pos), "")
                return
            found = self.located(cell, "cell", r, i)
            if isinstance(found, s.CellNode):
                written = _decimal(" ".join(cell.text.split()), self.comma)
                parts.cells[col.name] = Part(found, written)
            return
        if cell is None or not cell.text.strip():
            return
        text_ = cell.text.strip()
        match col.role:
            case "skip" | "key":
                return
            case "mode" | "all":
                found = self.located(cell, "cell", r, i)
                if not isinstance(found, s.CellNode):
                    return
                entries = _entries(found, col, cell, r, i, self.header, sheet, self.diags)
                written_ = _split(_decimal(" ".join(text_.split()), self.comma))
                if entries is None or len(written_) != len(entries):
                    return
                if col.role == "all":
                    parts.default = list(zip(written_, entries, strict=True))
                else:
                    parts.values[col.name] = list(zip(written_, entries, strict=True))
            case "label":
                label = s.Label(col.lang, self.plain(cell, r, i), sheet.at(cell))
                if col.lang:
                    parts.labels.append(label)
                else:
                    parts.labels.insert(0, label)
            case "note":
                note = s.Label(col.lang, self.plain(cell, r, i), sheet.at(cell))
                if col.lang:
                    parts.notes.setdefault(col.number, []).append(note)
                else:
                    parts.notes.setdefault(col.number, []).insert(0, note)
            case "note_for":
                scope = _note_scope(cell, sheet, f"row {r + 1}, column {i + 1}", self.diags)
                if scope:
                    parts.scopes[col.number] = scope
            case "source":
                found = self.located(cell, "source", r, i, "[X]")
                if isinstance(found, s.SourceRef):
                    parts.source = Part(found, spell_source(found))
            case "ignores":
                if text_.lower() in ("yes", "x", "true", "1"):
                    parts.ignores = True
                elif text_.lower() not in ("no", "false", "0"):
                    self.diags.append(
                        error(
                            "E001",
                            f"row {r + 1}, column {i + 1} (ignores others): "
                            f"'{_shown(text_)}' is not yes or no",
                            sheet.at(cell),
                            "yes: the feature ignores the other features of its place",
                        )
                    )
            case "column":
                pass  # read above: an empty cell is a cell too
            case _:
                assert_never(col.role)

    def cost(self, parts: _Parts) -> Part:
        """The row's mode and ``all`` cells as one cost cell: a value for all, then the
        exceptions (without ``all``, the value most modes share is the default)."""
        default, values = parts.default, parts.values
        if default is None and values and "all" not in self.roles:
            counts = Counter(" ".join(p for p, _ in v) for v in values.values())
            order = list(counts)
            best = max(counts, key=lambda v: (counts[v], -order.index(v)))
            default = next(v for v in values.values() if " ".join(p for p, _ in v) == best)
            values = {
                m: v
                for m, v in values.items()
                if " ".join(p for p, _ in v) != " ".join(p for p, _ in default)
            }
        texts = [p for p, _ in default or ()]
        entries_ = [e for _, e in default or ()]
        for mode, given in values.items():
            for written, entry in given:
                texts.append(f"{mode} {written}")
                entries_.append(replace(entry, key=s.Name(mode, entry.value.pos)))
        cell_pos = (
            replace(
                entries_[0].value.pos,
                end_line=entries_[-1].value.pos.end_line,
                end_column=entries_[-1].value.pos.end_column,
            )
            if len(entries_) > 1
            else entries_[0].value.pos  # one entry: the cell's span is its own
            if entries_
            else parts.key_pos
        )
        return Part(s.CellNode(tuple(entries_), cell_pos), ", ".join(texts))

    def chart_row(self, parts: _Parts, key: str, key_number: ir.Number | None, r: int) -> ChartRow:
        """The row read whole; a part the chart has no column for is None."""
        roles = self.roles
        note_tuple = tuple(tuple(parts.notes[n]) for n in sorted(parts.notes))
        note_for = tuple(parts.scopes.get(n, ()) for n in sorted(parts.notes))
        if not any(note_for):
            note_for = ()
        source = parts.source
        return ChartRow(
            # a numeric key's name is its number, as the DSL's parser makes it
            s.Name(spelling.number(key_number.value) if key_number else key, parts.key_pos),
            key_number,
            key,
            Part(tuple(parts.labels), spell_labels(parts.labels)) if "label" in roles else None,
            Part(note_tuple, spell_notes(note_tuple, note_for)) if "note" in roles else None,
            source if source is not None else (Part(None, "") if "source" in roles else None),
            parts.ignores if "ignores" in roles else None,
            parts.cells,
            r + 1,
            note_for if "note_for" in roles else None,
        )


def _note_scope(
    cell: Cell | None, sheet: Sheet, at: str, diags: list[Diagnostic]
) -> tuple[s.Name, ...]:
    """The unit types or keywords of a ``note for`` cell (``mech, vehicle``), each a name."""
    text = cell.text.strip() if cell is not None else ""
    if cell is None or not text:
        return ()
    names = tuple(n.strip() for n in text.split(","))
    bad = next((n for n in names if not NAME.match(n)), None)
    if bad is not None:
        diags.append(
            error(
                "E001",
                f"{at} (note for): '{_shown(bad)}' is not a unit type or keyword's name",
                sheet.at(cell),
                "the names of the unit types or keywords the note is for, between commas: "
                "'mech, vehicle'",
            )
        )
        return ()
    return tuple(s.Name(n, sheet.at(cell)) for n in names)


def _entries(
    found: s.CellNode,
    col: Column,
    cell: Cell,
    r: int,
    i: int,
    header: list[str],
    sheet: Sheet,
    diags: list[Diagnostic],
) -> list[s.Entry] | None:
    """The entries of a mode's or ``all`` cell: values for that column, none keyed."""
    for entry in found.entries:
        if entry.key is not None or entry.key2 is not None:
            key = entry.key or entry.key2
            assert key is not None
            diags.append(
                error(
                    "E132",
                    f"row {r + 1}, column {i + 1} ({header[i]}): '{key.text}' names a mode or "
                    "group inside a cell of one column",
                    key.pos,
                    "write the value alone; the column says whom it is for"
                    + (": a mode's value goes in that mode's column" if col.role == "all" else ""),
                )
            )
            return None
    return list(found.entries)


def _split(text: str) -> list[str]:
    """A cell's entries as written, split at the commas between them (not inside strings)."""
    parts = [p.strip() for p in _split_outside_strings(text, ",")]
    return [p for p in parts if p]


def spell_labels(labels: Iterable[s.Label]) -> str:
    """Labels as the DSL writes them after a name: ``"Bog" fr "Tourbière"``."""
    return " ".join(
        (f"{label.lang} " if label.lang else "") + spelling.string(label.text) for label in labels
    )


def spell_notes(
    notes: Iterable[Iterable[s.Label]], scopes: tuple[tuple[s.Name, ...], ...] = ()
) -> str:
    """Notes as the DSL writes them, one ``note`` line each (``note for mech "..."`` where
    ``scopes`` names whom the note is for)."""
    return "\n".join(
        f"note {_spell_scope(scopes[i] if i < len(scopes) else ())}{spell_labels(n)}"
        for i, n in enumerate(notes)
    )


def _spell_scope(scope: tuple[s.Name, ...]) -> str:
    return f"for {', '.join(n.text for n in scope)} " if scope else ""


def spell_source(source: s.SourceRef) -> str:
    """A source reference without its brackets: ``hg p.12``, ``megamek "units/Mek.java"``."""
    return " ".join(
        [
            source.book.text,
            *([source.page] if source.page else []),
            *([spelling.string(source.detail)] if source.detail is not None else []),
        ]
    )


def row_text(
    key: str,
    labels: str,
    cells: Iterable[str],
    source: str = "",
    notes: str = "",
    ignores: bool = False,
) -> str:
    """A row of a layer or table block as the DSL writes it (notes on lines of their own)."""
    line = " ".join(x for x in (key, labels) if x) + " | " + " | ".join(cells)
    line = line.rstrip()
    if source:
        line += f" [{source}]"
    note_lines = notes.split("\n") if notes else []
    if ignores:
        if note_lines:
            note_lines[-1] += " ignores others"
        else:
            line += " ignores others"
    return "\n".join([line, *(f"    {n}" for n in note_lines)])


def _layer_columns(
    sheet: Sheet, cols: Sequence[Column]
) -> tuple[list[str], dict[str, s.Pos], tuple[s.Name, ...], tuple[s.Name, ...], frozenset[str]]:
    """A layer's columns (``cost`` for a mode's or ``all``), where each ``column NAME`` is, the
    mode columns, each label's or note's language, which of label/note/source/ignores it has."""
    order: list[str] = []
    where: dict[str, s.Pos] = {}
    modes: list[s.Name] = []
    langs: dict[str, s.Pos] = {}
    has: set[str] = set()
    for c, cell in zip(cols, sheet.rows[0], strict=False):
        match c.role:
            case "mode":
                order.append("cost")
                modes.append(s.Name(c.name, sheet.at(cell)))
            case "all":
                order.append("cost")
            case "column":
                order.append(c.name)
                where[c.name] = sheet.at(cell)
            case "label" | "note":
                has.add(c.role)
                if c.lang:
                    langs[c.lang] = sheet.at(cell)
            case "source" | "ignores":
                has.add(c.role)
            case "key" | "note_for" | "skip":
                continue
            case _:
                assert_never(c.role)
    languages = tuple(s.Name(lang, at) for lang, at in langs.items())
    return [n for n in dict.fromkeys(order) if n], where, tuple(modes), languages, frozenset(has)


def import_layer(
    text: str,
    path: str,
    layer: str,
    *,
    label: str | None = None,
    scope: str = "",
    known: Iterable[str] | None = None,
    languages: Iterable[str] | None = None,
    columns: Iterable[str] = (),
    reading: Reading = Reading(),
) -> Imported:
    """A ``layer`` block from a CSV chart. ``known`` (modes and groups of the target ruleset),
    ``languages`` and ``columns`` (its modifiers and sights) make unknown headers errors
    instead of modes."""
    target = (
        Target(frozenset(known), frozenset(columns), tuple(languages or ()))
        if known is not None
        else None
    )
    sheet, cols, rows, diags = read_chart(text, path, table=False, target=target, reading=reading)
    if not cols:
        return Imported(None, diags, sheet=sheet)
    order, where, mode_names, lang_names, has = _layer_columns(sheet, cols)
    if not order and not any(d.is_error for d in diags):
        diags.append(
            error(
                "E001",
                "row 1: no column of values: a layer's chart needs `all`, a mode or a "
                "`column NAME`",
                sheet.at(sheet.rows[0][0]),
                "first row: feature, label, then one column per mode",
            )
        )
    head_pos = option_pos(path)  # the layer's name and label come from the command line
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
    column_names = tuple(s.Name(name, where.get(name, head_pos)) for name in order)
    nodes = tuple(chart_row_node(row, order) for row in rows)
    decl = s.LayerDecl(
        s.Item(
            s.Name(layer, head_pos),
            (s.Label("", label, head_pos),) if label else (),
            _NO_EXTRAS,
            head_pos,
        ),
        words.scope_from_words(scope),
        column_names if tuple(order) != ("cost",) else None,
        nodes,
    )
    result = Imported(
        None, diags, decl, mode_names, lang_names, sheet, tuple(rows), tuple(order), has
    )
    if any(d.is_error for d in diags):
        return result
    lines = [
        f"layer {layer}"
        + (f" {spelling.string(label)}" if label else "")
        + (f" {scope}" if scope else "")
        + " {"
    ]
    if tuple(order) != ("cost",):
        lines.append(f"  columns {', '.join(order)}")
    for row in rows:
        lines.append("  " + chart_row_text(row, order).replace("\n", "\n  "))
    lines.append("}")
    return replace(result, text=format_text("\n".join(lines) + "\n"))


def import_table(
    text: str,
    path: str,
    *,
    known: Iterable[str],
    languages: Iterable[str],
    columns: Iterable[str],
    reading: Reading = Reading(),
) -> Imported:
    """A plain table's rows from a chart, for ``--into``: a header names the table's columns."""
    target = Target(frozenset(known), frozenset(columns), tuple(languages))
    sheet, cols, rows, diags = read_chart(text, path, table=True, target=target, reading=reading)
    order = [c.name for c in cols if c.role == "column"]
    has = frozenset(c.role for c in cols) & {"label", "note", "source"}
    return Imported(None, diags, None, (), (), sheet, tuple(rows), tuple(order), has)


def chart_row_node(row: ChartRow, order: Iterable[str]) -> s.RowNode:
    """The row as syntax, positioned in the chart (parts the chart lacks left empty)."""
    labels: tuple[s.Label, ...] = row.labels.node if row.labels else ()
    notes: tuple[tuple[s.Label, ...], ...] = row.notes.node if row.notes else ()
    source = row.source.node if row.source else None
    extras = (
        s.Extras(source, notes, bool(row.ignores), (), row.note_for or ())
        if source or notes or row.ignores
        else _NO_EXTRAS
    )
    empty = s.CellNode((), row.key.pos)
    return s.RowNode(
        s.Item(row.key, labels, extras, row.key.pos),
        tuple(row.cells[c].node if c in row.cells else empty for c in order),
        row.key_number,
    )


def chart_row_text(row: ChartRow, order: Iterable[str]) -> str:
    """The row as the DSL writes it (parts the chart lacks left out)."""
    return row_text(
        row.key_text,
        row.labels.text if row.labels else "",
        [row.cells[c].text if c in row.cells else "" for c in order],
        row.source.text if row.source else "",
        row.notes.text if row.notes else "",
        bool(row.ignores),
    )


def option_pos(path: str) -> s.Pos:
    """Where the checks find what the command line gave (the layer's name and label): an
    empty span at the file's start, which :func:`located_in` reports as ``--layer``."""
    return s.Pos(path, 1, 1, 1, 1)


# ---- values in the DSL's cell syntax -----------------------------------------------------------


def dsl_value(value: ir.Value | None) -> str:
    """A value in the DSL's cell syntax (what `import` and the DSL read back); "" for none."""
    return "" if value is None else spelling.value(value)
