"""Cut a sheet table into pieces that fit: some of its value columns, some of its rows.

A piece keeps the label column and repeats the headers of its own columns (a spanning group
header spans only the columns the piece keeps). Used by sheets, for tables wider than the
paper, and by cards, for tables wider or longer than a card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulesdsl.printed import fit
from rulesdsl.printed.sheet_view import CHANGED_SIGN, MARKERS, CellView, HeadCell, TableView

BOLD = frozenset(MARKERS)
"""Cell classes the stylesheets set in bold (the markers)."""

__all__ = [
    "ColumnHead",
    "column_heads",
    "fit_rows",
    "measure",
    "row_cutter",
    "slice_table",
    "wide_chunks",
]


@dataclass(frozen=True)
class ColumnHead:
    """The header of one value column: the top cell over it, and its own sub-header."""

    top: int
    """Index of the top-row header cell over the column (0 is the label column's)."""
    sub: HeadCell | None


def column_heads(t: TableView) -> list[ColumnHead]:
    """For each value column (after the label column), the header cells over it."""
    if not t.head:
        return []
    top_row = t.head[0]
    subs = list(t.head[1]) if len(t.head) > 1 else []
    heads: list[ColumnHead] = []
    for index, cell in enumerate(top_row[1:], start=1):
        two_rows = len(t.head) > 1 and cell.rowspan < 2
        for _ in range(cell.colspan):
            heads.append(ColumnHead(index, subs.pop(0) if two_rows and subs else None))
    return heads


def slice_table(t: TableView, cols: Sequence[int], rows: Sequence[int]) -> TableView:
    """The table cut to value columns ``cols`` (0-based, after the label) and rows ``rows``."""
    heads = column_heads(t)
    if not t.head:
        return TableView(
            [],
            [[r[0], *(r[c + 1] for c in cols)] for r in (t.rows[i] for i in rows)],
            [],
            t.numeric_from,
        )
    top_row = t.head[0]
    two = len(t.head) > 1
    keep_sub = any(heads[c].sub is not None for c in cols)
    first = top_row[0]
    new_top = [HeadCell(first.text, 1, 2 if two and keep_sub else 1, first.notes)]
    new_sub: list[HeadCell] = []
    seen: dict[int, HeadCell] = {}
    for c in cols:
        head = heads[c]
        cell = top_row[head.top]
        if head.sub is None:
            new_top.append(HeadCell(cell.text, 1, 2 if keep_sub else 1, cell.notes))
            continue
        if head.top in seen:
            seen[head.top].colspan += 1
        else:
            seen[head.top] = HeadCell(cell.text, 1, 1, cell.notes)
            new_top.append(seen[head.top])
        new_sub.append(head.sub)
    head_rows = [new_top] + ([new_sub] if new_sub else [])
    flat = [t.flat_head[0], *(t.flat_head[c + 1] for c in cols)] if t.flat_head else []
    body = [[t.rows[i][0], *(t.rows[i][c + 1] for c in cols)] for i in rows]
    groups = [t.col_groups[c] for c in cols] if t.col_groups else []
    return TableView(head_rows, body, flat, t.numeric_from, False, groups)


def row_cutter(t: TableView) -> Callable[[Sequence[int]], TableView]:
    """``slice_table(t, every column, rows)`` for any ``rows``, its header cut once and shared
    (a real pack cuts its column group into a part per card: cutting the header again for
    each was most of the time of the deck's packs outside the trials, issue 44)."""
    n = len(t.rows[0]) if t.rows else 1
    empty = slice_table(t, range(n - 1), ())
    head, flat, groups = empty.head, empty.flat_head, empty.col_groups

    def cut(rows: Sequence[int]) -> TableView:
        body = [t.rows[i][:n] for i in rows]
        return TableView(head, body, flat, empty.numeric_from, empty.fold, groups)

    return cut


def _cell_text(c: CellView) -> str:
    """A cell's text for measuring, with the sign after a cell a variant changed (set bold
    after a space: a skirmish deck's "15 cm †" wrapped where "15 cm" was measured)."""
    text = fit_text(c.text, c.notes, c.small)
    return f"{text} {CHANGED_SIGN}" if c.changed else text


def fit_text(text: str, notes: Sequence[str] = (), small: str = "") -> str:
    """The text a cell shows, for measuring: marks and small print included."""
    marks = (" " + ",".join(notes)) if notes else ""
    return text + marks + (f" ({small})" if small else "")


def measure(t: TableView, room: float, box: fit.Box) -> fit.TableFit:
    """The estimated layout of ``t`` in ``room`` points across.

    A spanning header is measured over its columns: its height is added to the first row of
    headers, its width is not charged to any one column.
    """
    heads = column_heads(t)
    ncols = 1 + len(heads)
    per_column = [""] * ncols
    if t.head:
        per_column[0] = fit_text(t.head[0][0].text, t.head[0][0].notes)
        for c, head in enumerate(heads, start=1):
            cell = head.sub or t.head[0][head.top]
            per_column[c] = fit_text(cell.text, cell.notes)
    rows = [[_cell_text(c) for c in r] for r in t.rows]
    bold = [[bool(BOLD & set(c.classes)) for c in r] for r in t.rows]
    whole = [[bool(box.nowrap & set(c.classes)) for c in r] for r in t.rows]
    result = fit.table_fit([per_column] if t.head else [], rows, room, box, bold, whole)
    extra = 0.0
    if t.head and len(t.head) > 1:
        spans: dict[int, list[int]] = {}
        for c, head in enumerate(heads, start=1):
            if head.sub is not None:
                spans.setdefault(head.top, []).append(c)
        most = 0
        for top, columns in spans.items():
            across = sum(result.widths[c] for c in columns) - box.pad_x
            cell = t.head[0][top]
            size = box.font * box.head_scale
            most = max(most, fit.lines(fit_text(cell.text, cell.notes), across, size, True))
        if spans:
            extra = most * box.font * box.head_scale * box.line + box.pad_y
    return fit.TableFit(
        result.widths,
        result.mins,
        result.row_heights,
        result.head_height + extra,
        result.fits,
        result.exact,
        result.widest_rows,
    )


def wide_chunks(
    t: TableView, room: float, box: fit.Box, result: fit.TableFit | None = None
) -> list[list[int]]:
    """The value columns of ``t`` in slices that each fit ``room`` across beside the labels
    (one slice, all columns, when the table fits as it is). ``result``: :func:`measure` of
    ``t`` in ``room``, where the caller made it."""
    ncols = len(t.rows[0]) - 1 if t.rows else len(column_heads(t))
    if ncols <= 0:
        return [[]]
    result = result if result is not None else measure(t, room, box)
    if result.fits:
        return [list(range(ncols))]
    groups = t.col_groups or list(range(ncols))
    return fit.column_chunks(result.mins[0], result.mins[1:], groups, room)


def fit_rows(heights: Sequence[float], room: float) -> list[list[int]]:
    """Row indices in runs whose heights add up to at most ``room`` (at least one row each)."""
    runs: list[list[int]] = []
    used = 0.0
    for i, h in enumerate(heights):
        if runs and runs[-1] and used + h <= room:
            runs[-1].append(i)
            used += h
        else:
            runs.append([i])
            used = h
    return runs


def transposed(t: TableView) -> TableView:
    """``t`` turned on its side: a column per row (headed by the row's label, its marks and
    small print), a row per value column (labelled by its header, group and column joined,
    with the header's marks). A short, wide table whose header is taller than a card (many
    unit types) reads so on a card, each part holding every one of its rows."""
    heads = column_heads(t)
    corner = t.head[0][0] if t.head else HeadCell("")
    top = [HeadCell(corner.text, notes=corner.notes)]
    for row in t.rows:
        label = row[0]
        text = f"{label.text} ({label.small})" if label.small else label.text
        top.append(HeadCell(text, notes=label.notes))
    rows = []
    for c, head in enumerate(heads):
        cell = head.sub if head.sub is not None else t.head[0][head.top]
        notes = tuple(dict.fromkeys((*t.head[0][head.top].notes, *cell.notes)))
        text = t.flat_head[c + 1] if len(t.flat_head) > c + 1 else cell.text
        rows.append([CellView(text, ("label",), notes), *(row[c + 1] for row in t.rows)])
    flat = [corner.text, *(h.text for h in top[1:])]
    return TableView([top], rows, flat, t.numeric_from)
