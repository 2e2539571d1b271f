"""Charts as ``.xlsx`` workbooks (and ``.ods`` spreadsheets, read), one sheet per layer or table.

Reading (:mod:`rulesdsl.interchange.xlsx_read`, :mod:`rulesdsl.interchange.ods_read`; no
extra needed) turns the sheet's cells into
the text of a CSV chart, which :mod:`rulesdsl.interchange.csv_chart` then reads like any other
(so every check and message is the same); a diagnostic names the sheet's row and column.
Numbers are read as the numbers they are (no decimal mark to guess), a formula as the value the
spreadsheet program saved with it. Writing (the ``xlsx`` extra: openpyxl) puts
text cells as text (a cell starting with ``=`` stays text, never a formula) and cells that are
only a number as numbers.
"""

from __future__ import annotations

import datetime
import importlib
import io
import re
import zipfile
from typing import Any, Literal, assert_never

from rulesdsl.diagnostics import Pos, error
from rulesdsl.gc_pause import gc_paused
from rulesdsl.interchange import ods_read, xlsx_read
from rulesdsl.interchange.sheet_grid import Grid
from rulesdsl.interchange.zipped_xml import Budget, Refused
from rulesdsl.sources import MAX_FILE_BYTES, Loaded

INSTALL = "pip install 'rulesdsl[xlsx]'"
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)")


class XlsxUnavailable(Exception):
    """openpyxl is not installed."""


def _openpyxl() -> Any:
    try:
        return importlib.import_module("openpyxl")  # the `xlsx` extra, loaded when used
    except ImportError:
        raise XlsxUnavailable(f".xlsx needs openpyxl: {INSTALL}") from None


Kind = Literal["xlsx", "ods"]
"""The workbooks read: Excel's (Office Open XML) and OpenDocument's (LibreOffice)."""
_SAVE_AS = {
    "xlsx": "save it from a spreadsheet as Excel 2007-365 (.xlsx)",
    "ods": "save it from a spreadsheet as OpenDocument Spreadsheet (.ods)",
}


@gc_paused()  # the cells kept are many small strings and tuples: no collection walks them
def read_workbook(
    data: bytes, file: str, form: Kind, sheet: str | None, max_chars: int = MAX_FILE_BYTES
) -> Loaded:
    """The sheet named ``sheet`` (or the workbook's only sheet) as CSV text, at most
    ``max_chars`` long (the size a CSV chart may have)."""
    budget = Budget()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as book:
            names, grid = _sheet(book, form, sheet, budget, max_chars)
            text = grid.text() if grid is not None else None
    except Refused as exc:
        return refused(file, str(exc), exc.cell, exc.hint or _SAVE_AS[form])
    except Exception as exc:  # zip and XML errors of any bytes: never a traceback
        what = "workbook" if form == "xlsx" else "spreadsheet"
        return refused(
            file, f"it is not an .{form} {what} ({type(exc).__name__})", None, _SAVE_AS[form]
        )
    if text is None:
        return Loaded(
            None,
            (
                error(
                    "E101",
                    f"{file} has no sheet '{sheet}'"
                    + (f": its sheets are {', '.join(names)}" if names else ""),
                    Pos(file, 1, 1, 1, 2),
                    "name the sheet after the layer or table (export --format xlsx does)",
                ),
            ),
        )
    return Loaded(text, (), text)


def _sheet(
    book: zipfile.ZipFile, form: Kind, sheet: str | None, budget: Budget, max_chars: int
) -> tuple[list[str], Grid | None]:
    """The names of the workbook's sheets and the cells of the one named ``sheet`` (or of its
    only sheet; None when there is no such sheet)."""
    match form:
        case "xlsx":
            sheets, strings_part = xlsx_read.sheet_names(book, budget)
            names = list(sheets)
            name = sheet if sheet in names else names[0] if len(names) == 1 else None
            if name is None:
                return names, None
            strings = xlsx_read.shared_strings(book, strings_part, budget)
            return names, xlsx_read.read_sheet(book, sheets[name], strings, budget, max_chars)
        case "ods":
            return ods_read.read_tables(book, sheet, budget, max_chars)
        case _:
            assert_never(form)


def refused(file: str, why: str, cell: tuple[int, int] | None, hint: str) -> Loaded:
    """A workbook refused: an E003 at the cell at fault (its row and column), or at the top."""
    row, column = cell or (1, 1)
    return Loaded(
        None,
        (
            error(
                "E003", f"cannot read {file}: {why}", Pos(file, row, column, row, column + 1), hint
            ),
        ),
    )


def write_xlsx(sheets: list[tuple[str, list[list[str]]]]) -> bytes:
    """A workbook with one sheet per (name, rows); deterministic bytes (fixed dates)."""
    openpyxl = _openpyxl()
    book = openpyxl.Workbook()
    book.remove(book.active)
    fixed = datetime.datetime(2000, 1, 1)
    book.properties.created = fixed
    book.properties.modified = fixed
    book.properties.creator = "rulesdsl"
    for name, rows in sheets:
        ws = book.create_sheet(title=name[:31])
        for r, row in enumerate(rows, start=1):
            for c, value in enumerate(row, start=1):
                if value == "":
                    continue
                cell = ws.cell(row=r, column=c)
                if _NUMBER.fullmatch(value) and r > 1:
                    cell.value = float(value) if "." in value else int(value)
                else:
                    cell.value = value
                    cell.data_type = "s"  # text, never a formula
        ws.freeze_panes = "B2"
    buffer = io.BytesIO()
    book.save(buffer)
    return _fixed_zip(buffer.getvalue())


def _fixed_zip(data: bytes) -> bytes:
    """The workbook with every zip entry's time and its modified date fixed, so the same
    charts give the same bytes."""
    import zipfile

    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(data)) as src,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst,
    ):
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2000, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            data = src.read(info.filename)
            if info.filename == "docProps/core.xml":  # openpyxl stamps the time of saving
                data = re.sub(
                    rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>2000-01-01T00:00:00Z", data
                )
            dst.writestr(fixed, data)
    return out.getvalue()
