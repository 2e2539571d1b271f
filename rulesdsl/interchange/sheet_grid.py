"""A sheet's cells as a workbook reader finds them, bounded, then as the text of a CSV chart.

Only the cells that hold something are kept (a cell far away costs one entry, never the empty
rows and columns before it); a cell past :data:`MAX_ROWS` or :data:`MAX_COLUMNS` is refused by
its address as soon as it is met, and the chart the cells make is refused at the cell where its
text passes the size a CSV chart may have. A header of two rows, a merged cell over the columns
it groups ("label" over "en" and "fr", "cost" over the modes), becomes one row of column names.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict

from rulesdsl.interchange.zipped_xml import Refused

MAX_ROWS = 100_000
"""The last row a chart's cell may be in."""
MAX_COLUMNS = 1_000
"""The last column (ALL) a chart's cell may be in."""
MAX_CELLS = 1_000_000
"""The most cells holding something in one sheet."""
MAX_MERGES = 1_000
"""The most merged ranges kept from one sheet."""
_HEADER_ROWS = 20
"""A two-row header starts within this many rows of the top (a title may stand above it)."""
_PREFIXES = ("label", "note")
"""Column names a merged header cell puts before the names below it ("label" over "fr")."""


def address(row: int, column: int) -> str:
    """A cell's address as spreadsheets write it: (1048576, 16384) -> ``XFD1048576``."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return f"{letters}{row}"


class Grid:
    """The cells of one sheet, by (row, column) from 1, and its merged ranges."""

    def __init__(self, max_chars: int) -> None:
        self.cells: dict[tuple[int, int], str] = {}
        self.merges: list[tuple[int, int, int, int]] = []
        self.max_chars = max_chars
        """The size of a CSV chart: the cells' text together may not pass it."""
        self._chars = 0

    def put(self, row: int, column: int, text: str) -> None:
        """The cell at (row, column) holds ``text``; an empty text is no cell."""
        if not text:
            return
        if row > MAX_ROWS or column > MAX_COLUMNS:
            raise Refused(
                f"cell {address(row, column)} is past the last cell a chart may have "
                f"({address(MAX_ROWS, MAX_COLUMNS)})",
                (row, column),
                "clear what lies past the chart (select those cells, Delete) and save it again",
            )
        if (row, column) in self.cells:
            raise Refused(f"cell {address(row, column)} is given twice", (row, column))
        if len(self.cells) >= MAX_CELLS:
            raise Refused(f"the sheet has more than {MAX_CELLS:,} cells", (row, column))
        self._chars += len(text)
        if self._chars > self.max_chars:
            raise Refused(self._over(row), (row, column))
        self.cells[(row, column)] = text

    def merge(self, top: int, left: int, bottom: int, right: int) -> None:
        """The cells from (top, left) to (bottom, right) are merged into the first."""
        if len(self.merges) >= MAX_MERGES:
            raise Refused(f"the sheet has more than {MAX_MERGES:,} merged cells", (top, left))
        self.merges.append((top, left, min(bottom, MAX_ROWS), min(right, MAX_COLUMNS)))

    def _over(self, row: int) -> str:
        return f"the sheet as a chart is over {self.max_chars:,} characters by row {row}"

    def text(self) -> str:
        """The sheet as CSV text, a line per row (empty rows stay as empty lines, so a row's
        line is its number), trailing empty cells left out."""
        self._one_header()
        rows: dict[int, dict[int, str]] = defaultdict(dict)
        for (row, column), value in self.cells.items():
            rows[row][column] = value
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        last = 0
        for row in sorted(rows):
            cells = rows[row]
            width = max(cells)
            buffer.write("\n" * (row - last - 1))
            writer.writerow([cells.get(c, "") for c in range(1, width + 1)])
            last = row
            if buffer.tell() > self.max_chars:
                raise Refused(self._over(row), (row, width))
        return buffer.getvalue()

    def _one_header(self) -> None:
        """A header of two rows, the upper with a merged cell over columns named in the lower,
        made the lower row alone; the upper row is left empty (rows keep their numbers)."""
        counts: dict[int, int] = defaultdict(int)
        for row, _ in self.cells:
            if row <= _HEADER_ROWS:
                counts[row] += 1
        top = min((r for r, n in counts.items() if n >= 2), default=None)
        if top is None:
            return
        first = min(c for r, c in self.cells if r == top)
        if (top + 1, first) in self.cells:  # the row below has a key: it is data
            return
        groups = [m for m in self.merges if m[0] == m[2] == top and m[3] > m[1]]
        if not any(
            (top + 1, c) in self.cells
            for _, left, _, right in groups
            for c in range(left, right + 1)
        ):
            return
        upper = {c: v for (r, c), v in self.cells.items() if r == top}
        for _, left, _, right in groups:
            for c in range(left + 1, right + 1):
                upper.setdefault(c, upper.get(left, ""))
        for column, above in upper.items():
            below = self.cells.pop((top + 1, column), "")
            prefix = above.split()[0].casefold() if above.strip() else ""
            name = f"{above} {below}" if below and prefix in _PREFIXES else below or above
            self.cells.pop((top, column), None)
            self.cells[(top + 1, column)] = name
