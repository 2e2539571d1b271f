"""The cells of one table of an ``.ods`` spreadsheet (OpenDocument, LibreOffice's own), read
as a stream under the bounds of :mod:`rulesdsl.interchange.zipped_xml`.

LibreOffice writes runs of like cells and rows once, with a repeat count (a million empty rows
below the chart is one ``<table:table-row>``): an empty run is skipped by its count, never
walked; a run that holds something is laid out cell by cell, so the bounds of
:class:`~rulesdsl.interchange.sheet_grid.Grid` stop it at its first cell past them. A number is
read as the value LibreOffice saved (``office:value``), never as its displayed text; a formula
saved without its value is refused at its cell.
"""

from __future__ import annotations

import zipfile
from xml.etree.ElementTree import Element

from rulesdsl import spelling
from rulesdsl.interchange.sheet_grid import MAX_COLUMNS, Grid, address
from rulesdsl.interchange.xlsx_read import UNSAVED
from rulesdsl.interchange.zipped_xml import Budget, Refused, events, local

OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_CELLS = frozenset({"table-cell", "covered-table-cell"})
_NUMBERS = ("float", "percentage", "currency")
_MAX_SPACES = 1_000
"""The most spaces one ``<text:s>`` stands for in a cell's text."""


def read_tables(
    book: zipfile.ZipFile, wanted: str | None, budget: Budget, max_chars: int
) -> tuple[list[str], Grid | None]:
    """The names of the spreadsheet's tables, and the cells of the one named ``wanted`` (or of
    its only table)."""
    names: list[str] = []
    grids: dict[str, Grid] = {}
    grid: Grid | None = None
    row = column = repeat = 0
    held: list[tuple[int, str]] = []  # the current row's cells: (column, text)
    for event, elem in events(book, "content.xml", budget, _CELLS):
        name = local(elem.tag)
        if event == "start":
            if name == "table":
                names.append(elem.get(f"{TABLE}name", ""))
                grid = Grid(max_chars) if names[-1] == wanted or len(names) == 1 else None
                if grid is not None:
                    grids[names[-1]] = grid
                row = 0
            elif name == "table-row":
                repeat = _count(elem, "number-rows-repeated")
                row, column, held = row + 1, 0, []
            continue
        if name in _CELLS and grid is not None:
            text = _value(elem, row, column + 1)
            spread = _count(elem, "number-columns-repeated")
            across = _count(elem, "number-columns-spanned")
            down = _count(elem, "number-rows-spanned")
            if across > 1 or down > 1:
                grid.merge(row, column + 1, row + down - 1, column + across - 1)
            if text:
                if column + spread > MAX_COLUMNS:
                    grid.put(row, max(column + 1, MAX_COLUMNS + 1), text)  # refused there
                held.extend((column + i, text) for i in range(1, spread + 1))
            column += spread
        elif name == "table-row" and grid is not None:
            for again in range(repeat if held else 1):
                for at, text in held:
                    grid.put(row + again, at, text)
            row += repeat - 1
        elif name == "table-row":
            row += repeat - 1
    chosen = wanted if wanted in grids else names[0] if len(names) == 1 else None
    return names, grids.get(chosen) if chosen is not None else None


def _count(elem: Element, name: str) -> int:
    text = elem.get(f"{TABLE}{name}", "1")
    if not text.isdigit() or len(text) > 8 or int(text) < 1:
        raise Refused(f"a {name} is '{text[:20]}'")
    return int(text)


def _value(elem: Element, row: int, column: int) -> str:
    """The text of a cell, as a chart reads it."""
    value_type = elem.get(f"{OFFICE}value-type")
    value = elem.get(f"{OFFICE}value")
    formula = elem.get(f"{TABLE}formula")
    where = address(row, column)
    if formula is not None and (value_type is None or (value_type in _NUMBERS and value is None)):
        shown = f" ({formula[:40]})"
        raise Refused(
            f"cell {where} holds a formula{shown} saved without its value", (row, column), UNSAVED
        )
    match value_type:
        case None:
            return ""
        case "float" | "percentage" | "currency":
            try:
                return spelling.number(float(value or ""))
            except ValueError:
                raise Refused(
                    f"cell {where} holds '{(value or '')[:20]}', not a number", (row, column)
                ) from None
        case "boolean":
            return "yes" if elem.get(f"{OFFICE}boolean-value") == "true" else "no"
        case "date":
            return elem.get(f"{OFFICE}date-value", "")
        case "time":
            return elem.get(f"{OFFICE}time-value", "")
        case _:
            given = elem.get(f"{OFFICE}string-value")
            if given is not None:
                return given
            return "\n".join(_text(p) for p in elem if local(p.tag) in ("p", "h"))


def _text(elem: Element) -> str:
    """A paragraph's text: its spans, runs of spaces (``<text:s text:c="3"/>``), tabs and line
    breaks."""
    parts = [elem.text or ""]
    for child in elem:
        match local(child.tag):
            case "s":
                count = child.get(f"{TEXT}c", "1")
                spaces = int(count) if count.isdigit() and len(count) < 5 else _MAX_SPACES
                parts.append(" " * min(spaces, _MAX_SPACES))
            case "tab":
                parts.append("\t")
            case "line-break":
                parts.append("\n")
            case "annotation":
                pass  # a comment on the cell, not its text
            case _:
                parts.append(_text(child))
        parts.append(child.tail or "")
    return "".join(parts)
