"""A CSV chart read into rows of cells that know where they stand in the file.

The chart is read by a small RFC 4180 reader of its own (not Python's csv module) that knows
where every cell stands in the file, so that every diagnostic points at the cell's line and
column and names its CSV row and column. The delimiter is the chart's own (``,``, ``;`` or a
tab: :mod:`rulesdsl.interchange.chart_read`); Excel's ``sep=;`` first line is no row. A cell
that export neutralised against formulas (``'=...``) has that quote taken off.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from rulesdsl import spelling
from rulesdsl.diagnostics import Diagnostic, error, warning
from rulesdsl.frontends import syntax as s
from rulesdsl.interchange.chart_read import sep_line, sniff_delimiter

MAX_CELL = 131_072
"""The most characters a cell may hold (128 Ki, the limit of Python's own csv reader)."""

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]|[\ud800-\udfff]")
"""What a label or note may not hold, as in the DSL: control characters other than a tab and
a line break, and half a surrogate pair."""

TITLE_ROWS = 10
"""The most rows a title may take above a chart's header."""

_NEUTRALISED = re.compile(r"'+[=+\-@\t\r]")
"""A cell export neutralised: import takes one quote off."""


@dataclass(frozen=True, slots=True)
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

    def __init__(
        self, text: str, path: str, delimiter: str | None = None, header_row: int | None = None
    ) -> None:
        self.text = text
        self.path = path
        named, self._skip = sep_line(text)  # Excel's `sep=;` line: no row of the chart
        self.delimiter = delimiter or named or sniff_delimiter(text[self._skip :])
        self._cell_end = re.compile(f"[{re.escape(self.delimiter)}\r\n]")
        self.rows: list[list[Cell]] = []
        self.diagnostics: list[Diagnostic] = []
        self._line_starts = [0]
        for line in text.splitlines(keepends=True):  # as the diagnostics printer counts lines
            self._line_starts.append(self._line_starts[-1] + len(line))
        self.title: list[list[Cell]] = []
        """The rows above the header: a title and its like, not read."""
        self._read()
        self._find_header(header_row)

    def line(self, row: list[Cell]) -> int:
        """The line a row starts on: for a workbook's sheet, its row's number."""
        return self.pos(row[0].start).line

    def _find_header(self, header_row: int | None) -> None:
        """The header: the row on line ``header_row`` when given; else the first row of two
        cells or more when only rows of one cell (a title) stand above it, within the first
        :data:`TITLE_ROWS` rows."""
        if header_row is not None:
            at = next((i for i, r in enumerate(self.rows) if self.line(r) == header_row), None)
            if at is None:
                self.diagnostics.append(
                    error(
                        "E001",
                        f"--header-row {header_row}: no row of the chart starts there",
                        self.pos(0),
                        "the number a spreadsheet shows at the left of the header row",
                    )
                )
                return
        else:
            filled = [sum(bool(c.text.strip()) for c in r) for r in self.rows[:TITLE_ROWS]]
            at = next((i for i, n in enumerate(filled) if n >= 2), 0)
        self.title, self.rows = self.rows[:at], self.rows[at:]

    def title_said(self) -> list[Diagnostic]:
        """W131 naming the rows above the header, if any."""
        if not self.title or not self.rows:
            return []
        lines = sorted({self.line(r) for r in self.title})
        return [
            warning(
                "W131",
                f"{'rows' if len(lines) > 1 else 'row'} {', '.join(map(str, lines))} above the "
                f"header (row {self.line(self.rows[0])}): taken as the chart's title, not read",
                self.at(self.title[0][0]),
                "--header-row N names the header row when it is another",
            )
        ]

    def _read(self) -> None:
        text, n = self.text, len(self.text)
        delimiter, cell_end = self.delimiter, self._cell_end
        row: list[Cell] = []
        i = self._skip
        if i >= n:
            return
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
                if i < n and text[i] not in (delimiter, "\r", "\n"):
                    found = cell_end.search(text, i)
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
                found = cell_end.search(text, i)
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
            if text[i] == delimiter:
                i += 1
                continue
            i += 2 if text.startswith("\r\n", i) else 1
            self.rows.append(row)
            row = []
            if i >= n:
                break
        if row:
            self.rows.append(row)
        # Empty cells at the end of a row are none (Excel writes `;;;` after formatted columns);
        # a blank line is no row, as for Python's csv reader.
        for cells in self.rows:
            while len(cells) > 1 and not cells[-1].text.strip():
                cells.pop()
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


def shown(text: str) -> str:
    """``text`` for a message: control characters escaped, so none reaches the terminal."""
    return spelling.string(text)[1:-1]
