"""The cells of one sheet of an ``.xlsx`` workbook (Office Open XML), read as a stream.

Every row the sheet's XML holds is read: the ``<dimension>`` a program declares is not trusted
(a stale one would cut the chart short). A number is written as the number it is, a shared or
inline string as its text, a formula as the value the spreadsheet program saved with it; a
formula saved without a value (a workbook written by a program that does not compute), or an
error value (``#DIV/0!``), is refused at its cell: its value is never guessed.

Not python-calamine: it makes a sheet one dense block from its first cell to its last, so that
a 1.4 KB workbook with cells at A1 and XFD1048576 asks for 512 GiB and aborts the process; and
it cannot tell a formula without a value from an empty cell.
"""

from __future__ import annotations

import math
import posixpath
import re
import zipfile
from xml.etree.ElementTree import Element

from rulesdsl import spelling
from rulesdsl.interchange.sheet_grid import Grid, address
from rulesdsl.interchange.zipped_xml import Budget, Refused, events, local

UNSAVED = (
    "open the workbook in a spreadsheet program (Excel, LibreOffice Calc) and save it: that "
    "saves the value of every formula with it (a value is never guessed)"
)
_REF = re.compile(r"\$?([A-Z]{1,3})\$?(\d{1,7})")
_RELS = frozenset({"Relationship"})


def sheet_names(book: zipfile.ZipFile, budget: Budget) -> tuple[dict[str, str], str | None]:
    """The workbook's sheets (name -> the part holding it, in order) and its shared strings'
    part, if any."""
    top = _relations(book, "_rels/.rels", "", budget)
    workbook = next((p for rel, _, p in top if rel == "officeDocument"), "xl/workbook.xml")
    rels = _relations(book, _rels_of(workbook), posixpath.dirname(workbook), budget)
    by_id = {rid: path for _, rid, path in rels}
    strings = next((p for rel_type, _, p in rels if rel_type == "sharedStrings"), None)
    names: dict[str, str] = {}
    for event, elem in events(book, workbook, budget, frozenset({"sheet"})):
        if event == "end" and local(elem.tag) == "sheet":
            rid = next((v for k, v in elem.attrib.items() if local(k) == "id"), "")
            if rid in by_id and elem.get("name"):
                names[elem.get("name", "")] = by_id[rid]
    return names, strings


def _rels_of(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def _relations(
    book: zipfile.ZipFile, part: str, folder: str, budget: Budget
) -> list[tuple[str, str, str]]:
    """(the type's last word, id, part path) of each relation a ``.rels`` part lists."""
    found: list[tuple[str, str, str]] = []
    for event, elem in events(book, part, budget, _RELS):
        if event == "end" and local(elem.tag) == "Relationship":
            target = elem.get("Target", "")
            path = target[1:] if target.startswith("/") else posixpath.join(folder, target)
            word = elem.get("Type", "").rsplit("/", 1)[-1]
            found.append((word, elem.get("Id", ""), posixpath.normpath(path)))
    return found


def shared_strings(book: zipfile.ZipFile, part: str | None, budget: Budget) -> list[str]:
    """The workbook's shared strings, in order (their size is bounded by the budget)."""
    if part is None:
        return []
    strings: list[str] = []
    for event, elem in events(book, part, budget, frozenset({"si"})):
        if event == "end" and local(elem.tag) == "si":
            strings.append(_string(elem))
    return strings


def _string(elem: Element) -> str:
    """The text of a string item (``<si>``, ``<is>``): its runs, without phonetic guides."""
    parts: list[str] = []
    for child in elem:
        name = local(child.tag)
        if name == "t":
            parts.append(child.text or "")
        elif name == "r":
            parts.extend(t.text or "" for t in child if local(t.tag) == "t")
    return "".join(parts)


def read_sheet(
    book: zipfile.ZipFile, part: str, strings: list[str], budget: Budget, max_chars: int
) -> Grid:
    """The cells and merged ranges of the sheet in ``part``, their text at most ``max_chars``."""
    grid = Grid(max_chars)
    row = column = 0
    for event, elem in events(book, part, budget, frozenset({"c", "mergeCell"})):
        name = local(elem.tag)
        if event == "start":
            if name == "row":
                row = _number(elem.get("r"), row + 1, "row")
                column = 0
            continue
        if name == "c":
            ref = elem.get("r")
            if ref is None:
                column += 1
            else:
                row, column = _cell(ref)
            grid.put(row, column, _value(elem, row, column, strings))
        elif name == "mergeCell":
            first, _, last = elem.get("ref", "").partition(":")
            (top, left), (bottom, right) = _cell(first), _cell(last or first)
            grid.merge(top, left, bottom, right)
    return grid


def _number(text: str | None, default: int, what: str) -> int:
    if text is None:
        return default
    if not text.isdigit() or len(text) > 7:
        raise Refused(f"a {what} is numbered '{text[:20]}'")
    return int(text)


def _cell(ref: str) -> tuple[int, int]:
    found = _REF.fullmatch(ref)
    if found is None:
        raise Refused(f"a cell's address is '{ref[:20]}'")
    column = 0
    for letter in found.group(1):
        column = column * 26 + ord(letter) - 64
    return int(found.group(2)), column


def _value(elem: Element, row: int, column: int, strings: list[str]) -> str:
    """The text of a cell, as a chart reads it."""
    cell_type = elem.get("t", "n")
    formula = value = inline = None
    for child in elem:
        match local(child.tag):
            case "f":
                formula = child
            case "v":
                value = child.text or ""
            case "is":
                inline = child
    where = address(row, column)
    if formula is not None and (value is None or (value == "" and cell_type != "str")):
        shown = f" (={formula.text[:40]})" if formula.text else ""
        raise Refused(
            f"cell {where} holds a formula{shown} saved without its value",
            (row, column),
            UNSAVED,
        )
    match cell_type:
        case "inlineStr":
            return _string(inline) if inline is not None else ""
        case _ if value is None:
            return ""
        case "s":
            if not value.isdigit() or int(value) >= len(strings):
                raise Refused(f"cell {where} names a shared string it lacks", (row, column))
            return strings[int(value)]
        case "str" | "d":
            return value
        case "b":
            return "yes" if value == "1" else "no"
        case "e":
            raise Refused(f"cell {where} holds the error {value[:20]}", (row, column))
        case "n":
            try:
                number = float(value)
            except ValueError:
                number = math.nan
            if not math.isfinite(number):
                raise Refused(f"cell {where} holds '{value[:20]}', not a number", (row, column))
            return spelling.number(number)
    raise Refused(f"cell {where} is of a type no workbook has ('{cell_type[:20]}')", (row, column))
