"""Charts as ``.xlsx`` workbooks (the ``xlsx`` extra: openpyxl), one sheet per layer or table.

Reading turns the sheet's cells into the text of a CSV chart, which
:mod:`rulesdsl.interchange.csv_chart` then reads like any other (so every check and message is
the same); a diagnostic names the sheet's row and column. Numbers are read as the numbers they
are (no decimal mark to guess), a formula as the value Excel last computed for it. Writing puts
text cells as text (a cell starting with ``=`` stays text, never a formula) and cells that are
only a number as numbers.
"""

from __future__ import annotations

import csv
import datetime
import importlib
import io
import re
from typing import Any

from rulesdsl import spelling
from rulesdsl.diagnostics import Pos, error
from rulesdsl.sources import Loaded

INSTALL = "pip install 'rulesdsl[xlsx]'"
MAX_CELLS = 1_000_000
"""The most cells read from a sheet (a workbook is compressed: its size says little)."""
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)")


class XlsxUnavailable(Exception):
    """openpyxl is not installed."""


def _openpyxl() -> Any:
    try:
        return importlib.import_module("openpyxl")  # the `xlsx` extra, loaded when used
    except ImportError:
        raise XlsxUnavailable(f".xlsx needs openpyxl: {INSTALL}") from None


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return spelling.number(float(value))
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    return str(value)


def read_xlsx(data: bytes, file: str, sheet: str | None) -> Loaded:
    """The sheet named ``sheet`` (or the workbook's only sheet) as CSV text."""
    openpyxl = _openpyxl()
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # a third party's reader on any bytes: never a traceback
        return _refused(file, f"it is not an .xlsx workbook ({type(exc).__name__})")
    try:
        names = list(book.sheetnames)
        name = sheet if sheet in names else names[0] if len(names) == 1 else None
        if name is None:
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
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        count = 0
        for row in book[name].iter_rows(values_only=True):
            cells = [_text(v) for v in row]
            while cells and cells[-1] == "":
                cells.pop()
            count += len(cells)
            if count > MAX_CELLS:
                return _refused(file, f"sheet '{name}' has more than {MAX_CELLS:,} cells")
            writer.writerow(cells)
    except Exception as exc:
        return _refused(file, f"its sheet cannot be read ({type(exc).__name__})")
    finally:
        book.close()
    text = buffer.getvalue()
    return Loaded(text, (), text)


def _refused(file: str, why: str) -> Loaded:
    return Loaded(
        None,
        (
            error(
                "E003",
                f"cannot read {file}: {why}",
                Pos(file, 1, 1, 1, 2),
                "save it from a spreadsheet as Excel 2007-365 (.xlsx)",
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
