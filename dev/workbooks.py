"""Workbooks written byte by byte (zip + XML), as a spreadsheet program or an attacker might:
the hostile ones the tests and dev/workbookfuzz.py feed `rulesdsl import`.

    xlsx(rows)                       # a sheet "marsh" of these rows (cells as XML or values)
    xlsx(rows, dimension="A1:C2")    # ... declaring a (stale) extent
    xlsx(rows, shared=[...])         # ... with shared strings
    ods(rows)                        # an OpenDocument spreadsheet of these rows

A row is a list of cells; a cell is a str (text), an int or float (a number), None (no
cell) or a :class:`Raw` (its XML as given, for formulas, errors and far addresses).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "application/vnd.openxmlformats-"
SML = "officedocument.spreadsheetml"


@dataclass(frozen=True)
class Raw:
    """A cell's XML as it stands (``<c r="C3"><f>1+2</f></c>``), or a row's (``<row ...>``)."""

    xml: str


def column_letters(column: int) -> str:
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


Cell = str | int | float | Raw | None


def _cell(row: int, column: int, value: Cell) -> str:
    ref = f"{column_letters(column)}{row}"
    match value:
        case None:
            return ""
        case Raw():
            return value.xml
        case bool() | int() | float():
            return f'<c r="{ref}"><v>{value}</v></c>'
        case str():
            return f'<c r="{ref}" t="inlineStr"><is><t>{escape(value)}</t></is></c>'


def sheet_xml(
    rows: Sequence[list[Cell] | Raw], dimension: str | None = None, merges: tuple[str, ...] = ()
) -> str:
    parts = [f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}">']
    if dimension:
        parts.append(f'<dimension ref="{dimension}"/>')
    parts.append("<sheetData>")
    for r, row in enumerate(rows, start=1):
        if isinstance(row, Raw):
            parts.append(row.xml)
            continue
        cells = "".join(_cell(r, c, v) for c, v in enumerate(row, start=1))
        parts.append(f'<row r="{r}">{cells}</row>')
    parts.append("</sheetData>")
    if merges:
        parts.append(f'<mergeCells count="{len(merges)}">')
        parts.extend(f'<mergeCell ref="{m}"/>' for m in merges)
        parts.append("</mergeCells>")
    parts.append("</worksheet>")
    return "".join(parts)


def xlsx(
    rows: Sequence[list[Cell] | Raw],
    *,
    name: str = "marsh",
    dimension: str | None = None,
    merges: tuple[str, ...] = (),
    shared: list[str] | bytes | None = None,
    sheet: str | bytes | None = None,
) -> bytes:
    """A workbook of one sheet; ``shared`` is the shared strings (or their part's bytes),
    ``sheet`` the sheet part's text or bytes in place of the one ``rows`` make."""
    body = sheet if sheet is not None else sheet_xml(rows, dimension, merges)
    strings_rel = ""
    if shared is not None:
        strings_rel = (
            f'<Relationship Id="rId2" Type="{RELS}/sharedStrings" Target="sharedStrings.xml"/>'
        )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
            'content-types"><Default Extension="xml" ContentType="application/xml"/>'
            f'<Default Extension="rels" ContentType="{CT}package.relationships+xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{CT}{SML}.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" '
            f'ContentType="{CT}{SML}.worksheet+xml"/>'
            + (
                '<Override PartName="/xl/sharedStrings.xml" '
                f'ContentType="{CT}{SML}.sharedStrings+xml"/>'
                if shared is not None
                else ""
            )
            + "</Types>",
        )
        book.writestr(
            "_rels/.rels",
            f'<?xml version="1.0"?><Relationships xmlns="{PKG}"><Relationship Id="rId1" '
            f'Type="{RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        )
        book.writestr(
            "xl/workbook.xml",
            f'<?xml version="1.0"?><workbook xmlns="{MAIN}" xmlns:r="{RELS}"><sheets>'
            f'<sheet name="{escape(name)}" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        book.writestr(
            "xl/_rels/workbook.xml.rels",
            f'<?xml version="1.0"?><Relationships xmlns="{PKG}"><Relationship Id="rId1" '
            f'Type="{RELS}/worksheet" Target="worksheets/sheet1.xml"/>{strings_rel}'
            "</Relationships>",
        )
        book.writestr("xl/worksheets/sheet1.xml", body)
        if isinstance(shared, bytes):
            book.writestr("xl/sharedStrings.xml", shared)
        elif shared is not None:
            items = "".join(f"<si><t>{escape(s)}</t></si>" for s in shared)
            book.writestr(
                "xl/sharedStrings.xml",
                f'<?xml version="1.0"?><sst xmlns="{MAIN}" count="{len(shared)}">{items}</sst>',
            )
    return out.getvalue()


def big_shared_strings(megabytes: int) -> bytes:
    """A shared strings part of one string of ``megabytes`` MiB (it compresses to ~1/1000)."""
    head = f'<?xml version="1.0"?><sst xmlns="{MAIN}"><si><t>'.encode()
    return head + b"a" * (megabytes * 1024 * 1024) + b"</t></si></sst>"


OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"


def _ods_cell(value: Cell) -> str:
    match value:
        case None:
            return "<table:table-cell/>"
        case Raw():
            return value.xml
        case bool() | int() | float():
            return (
                f'<table:table-cell office:value-type="float" office:value="{value}">'
                f"<text:p>{value}</text:p></table:table-cell>"
            )
        case str():
            return (
                '<table:table-cell office:value-type="string">'
                f"<text:p>{escape(value)}</text:p></table:table-cell>"
            )


def ods(rows: Sequence[list[Cell] | Raw], *, name: str = "marsh") -> bytes:
    """An OpenDocument spreadsheet of one table, as LibreOffice lays one out."""
    body = []
    for row in rows:
        if isinstance(row, Raw):
            body.append(row.xml)
        else:
            body.append("<table:table-row>" + "".join(map(_ods_cell, row)) + "</table:table-row>")
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="{OFFICE}" '
        f'xmlns:table="{TABLE}" xmlns:text="{TEXT}"><office:body><office:spreadsheet>'
        f'<table:table table:name="{escape(name)}">' + "".join(body) + "</table:table>"
        "</office:spreadsheet></office:body></office:document-content>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        book.writestr("content.xml", content)
    return out.getvalue()
