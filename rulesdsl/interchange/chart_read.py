"""A spreadsheet's CSV as people save it: bytes to text, the delimiter, the decimal mark.

Excel and LibreOffice save "CSV" in the user's locale: French Excel writes ``;`` between
cells and ``1,5`` for one and a half, in cp1252 ("CSV (séparateur: point-virgule)") or in
UTF-8 after a byte-order mark ("CSV UTF-8"); "Unicode text" is UTF-16 with tabs. This module
finds out which, so that :mod:`rulesdsl.interchange.csv_chart` reads cells, never bytes:

- :func:`decode_chart`: a byte-order mark (UTF-8, UTF-16) decides; else ``--encoding``; else
  UTF-8, and when that fails, cp1252 with a warning (W132) if the bytes read as cp1252, or
  an E003 at the first bad byte that names the likely encoding.
- :func:`sniff_delimiter`: Excel's ``sep=;`` first line decides; else the one of ``,`` ``;``
  and tab that splits the header and the rows below it into the same number of cells.
- :func:`decimal_mark`: ``--locale``'s decimal mark (Babel's); else the file's own.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from rulesdsl.diagnostics import Pos, error, warning
from rulesdsl.ir.values import LANG
from rulesdsl.sources import Loaded

DELIMITERS = (",", ";", "\t")
"""The delimiters a chart may use, in the order a tie is settled."""

_BINARY = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]")
"""Bytes no text file holds (a workbook, an .xls): such a file is never read as cp1252."""

_SEP_LINE = re.compile(r"sep=([,;\t|])[ \t]*(?:\r\n|\r|\n|$)")
"""Excel's first line naming the delimiter (``sep=;``): not a row of the chart."""


@dataclass(frozen=True)
class Encoding:
    name: str
    """A codec name Python knows."""
    bom: int = 0
    """Bytes of byte-order mark before the text."""


def decode_chart(data: bytes, file: str, encoding: str | None = None) -> Loaded:
    """The chart's text. A byte-order mark names its encoding; otherwise ``encoding`` (the
    ``--encoding`` option) or UTF-8. A file that does not decode is an E003 at its first bad
    byte; when UTF-8 fails, the hint names the encoding the bytes most likely are in."""
    found = _bom(data)
    if found is None:
        found = Encoding(encoding or "utf-8")
    body = data[found.bom :]
    try:
        text = body.decode(found.name)
    except UnicodeDecodeError as exc:
        if (
            encoding is None
            and found.name == "utf-8"
            and not _BINARY.search(body)
            and likely_encoding(body) == "cp1252"
        ):
            return _as_cp1252(file, body, exc)
        return _undecodable(file, body, exc, found.name, given=encoding is not None)
    return Loaded(text, (), text)


def _as_cp1252(file: str, data: bytes, exc: UnicodeDecodeError) -> Loaded:
    """A chart that is not UTF-8 and reads as cp1252, what Excel saves as plain "CSV" on
    Windows: read so, with a W132 at its first byte that is not UTF-8."""
    text = data.decode("cp1252")
    line = data.count(b"\n", 0, exc.start) + 1
    column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
    said = warning(
        "W132",
        f"{file} is not UTF-8 (byte 0x{data[exc.start]:02X}): read as cp1252 ({_NAMES['cp1252']})",
        Pos(file, line, column, line, column + 1),
        'give --encoding NAME when it was saved in another; or save it as UTF-8 (Excel: "CSV '
        'UTF-8")',
    )
    return Loaded(text, (said,), text)


def _bom(data: bytes) -> Encoding | None:
    if data.startswith(codecs.BOM_UTF8):
        return Encoding("utf-8", 3)
    if data.startswith(codecs.BOM_UTF16_LE) or data.startswith(codecs.BOM_UTF16_BE):
        return Encoding("utf-16", 0)  # the codec reads the mark itself
    return None


def likely_encoding(data: bytes) -> str:
    """The single-byte encoding that text which is not UTF-8 is most likely in: cp1251
    (Cyrillic) when its non-ASCII bytes come in runs, as Cyrillic words do; cp1252 (Western
    European, a superset of Latin-1 that Excel writes on Windows) otherwise; Latin-1 when a byte
    is one that cp1252 leaves undefined."""
    runs = [len(m.group()) for m in re.finditer(rb"[\x80-\xff]+", data)]
    if runs and sum(runs) / len(runs) >= 3:
        try:
            data.decode("cp1251")
            return "cp1251"
        except UnicodeDecodeError:
            pass
    try:
        data.decode("cp1252")
    except UnicodeDecodeError:
        return "latin-1"
    return "cp1252"


_NAMES = {
    "cp1252": 'Windows Western European, what Excel saves as plain "CSV" on Windows',
    "cp1251": "Windows Cyrillic",
    "latin-1": "ISO 8859-1",
}


def _undecodable(
    file: str, data: bytes, exc: UnicodeDecodeError, name: str, *, given: bool
) -> Loaded:
    line_start = data.rfind(b"\n", 0, exc.start) + 1
    line = data.count(b"\n", 0, exc.start) + 1
    column = len(data[line_start : exc.start].decode(name, "replace")) + 1
    shown = data.decode(name, "replace")
    if given or name != "utf-8":
        hint = f"the file is not {name}: give the encoding it was saved in with --encoding"
    else:
        guess = likely_encoding(data)
        hint = (
            f"it looks like {guess} ({_NAMES[guess]}): run again with --encoding {guess}, "
            'or save the file as UTF-8 (Excel: "CSV UTF-8")'
        )
    what = "UTF-8" if name == "utf-8" else name
    return Loaded(
        None,
        (
            error(
                "E003",
                f"cannot read {file}: byte 0x{data[exc.start]:02X} is not {what} "
                f"(line {line}, column {column})",
                Pos(file, line, column, line, column + 1),
                hint,
            ),
        ),
        shown,
    )


def sep_line(text: str) -> tuple[str | None, int]:
    """Excel's ``sep=X`` first line: the delimiter it names and its length with its line end
    (None, 0 when the chart has none)."""
    found = _SEP_LINE.match(text)
    return (found.group(1), found.end()) if found else (None, 0)


def _split_counts(text: str, delimiter: str, rows: int = 20) -> list[int]:
    """The number of cells of the first ``rows`` rows of ``text`` split at ``delimiter``,
    quotes respected (a rough reader: only for choosing the delimiter)."""
    counts: list[int] = []
    cells, quoted, i, n = 1, False, 0, len(text)
    blank = True
    while i < n and len(counts) < rows:
        ch = text[i]
        if quoted:
            if ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
            blank = False
        elif ch == delimiter:
            cells += 1
            blank = False
        elif ch in "\r\n":
            if not blank:
                counts.append(cells)
            cells, blank = 1, True
            if ch == "\r" and text.startswith("\n", i + 1):
                i += 1
        elif not ch.isspace():
            blank = False
        i += 1
    if not blank and len(counts) < rows:
        counts.append(cells)
    return counts


def sniff_delimiter(text: str) -> str:
    """The delimiter of a chart without a ``sep=`` line: of ``,`` ``;`` and tab, the one that
    splits the header into most cells, with the rows below split like it; a tie (a chart of
    one column) goes to the comma."""
    best, score = ",", (0, 0)
    for delimiter in DELIMITERS:
        counts = _split_counts(text, delimiter)
        if not counts or counts[0] < 2:
            continue
        same = sum(c == counts[0] for c in counts[1:])
        candidate = (same, counts[0])
        if candidate > score:
            best, score = delimiter, candidate
    return best


def locale_decimal(locale: str) -> str | None:
    """The decimal mark of a Babel locale (``fr`` -> ``,``); None for a locale Babel does not
    know."""
    from babel import Locale, UnknownLocaleError
    from babel.numbers import get_decimal_symbol

    try:
        return str(get_decimal_symbol(Locale.parse(locale.replace("-", "_"))))
    except (UnknownLocaleError, ValueError, TypeError):
        return None


def is_language(code: str) -> bool:
    """Whether Babel knows ``code`` as a language (``fr``, ``ar``; not ``hq``)."""
    from babel import Locale, UnknownLocaleError

    if not re.fullmatch(LANG.regex, code):
        return False
    try:
        Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        return False
    return True
