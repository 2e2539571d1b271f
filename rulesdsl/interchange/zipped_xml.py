"""The XML parts of a zipped workbook (.xlsx, .ods), read as a stream under fixed bounds.

A workbook is compressed: a few kilobytes can hold gigabytes of XML. Every part is read in
chunks through an incremental parser, the elements handled and dropped as they end, so that
memory follows what is kept (the cells), never the size of the XML; the bytes decompressed from
all parts together are counted against :data:`MAX_XML_BYTES`, and the time spent against
:data:`MAX_SECONDS`. A document type declaration (an entity could expand a few bytes into
gigabytes) is refused: no spreadsheet program writes one.
"""

from __future__ import annotations

import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element, XMLPullParser

MAX_XML_BYTES = 32 * 1024 * 1024
"""The most XML decompressed from one workbook, all parts together (a chart saved by Excel
or LibreOffice holds well under 1 MiB)."""
MAX_SECONDS = 20.0
"""The most time reading one workbook may take (its parts are read in linear time: a workbook
within the bounds takes a few seconds at most)."""
_CHUNK = 64 * 1024


class Refused(Exception):
    """The workbook is refused: ``str(exc)`` says why; ``cell`` is the (row, column), from 1,
    of the cell at fault, if any; ``hint`` what to do, when more than saving it again."""

    def __init__(
        self, why: str, cell: tuple[int, int] | None = None, hint: str | None = None
    ) -> None:
        super().__init__(why)
        self.cell = cell
        self.hint = hint


@dataclass
class Budget:
    """What reading one workbook may still spend: decompressed bytes and time."""

    bytes_left: int = MAX_XML_BYTES
    deadline: float = field(default_factory=lambda: time.monotonic() + MAX_SECONDS)

    def spend(self, n: int) -> None:
        self.bytes_left -= n
        if self.bytes_left < 0:
            raise Refused(
                f"its XML is over {MAX_XML_BYTES // (1024 * 1024)} MiB once decompressed "
                "(a chart needs far less)"
            )
        if time.monotonic() > self.deadline:
            raise Refused(f"reading it takes over {MAX_SECONDS:g} seconds")


MAX_RECORD_ELEMENTS = 10_000
"""The most elements one record (a cell, a shared string) may hold."""


def events(
    book: zipfile.ZipFile, name: str, budget: Budget, records: frozenset[str]
) -> Iterator[tuple[str, Element]]:
    """The ("start" | "end", element) events of the part ``name``; tags keep their namespace
    (``{uri}local``). An element whose local name is in ``records`` is complete at its "end";
    once handled, it and every element outside a record are dropped, so that memory holds one
    record at a time."""
    try:
        info = book.getinfo(name)
    except KeyError:
        raise Refused(f"it has no part {name}") from None
    if info.file_size > budget.bytes_left:
        budget.spend(info.file_size)  # refused before anything is decompressed
    parser: XMLPullParser[Element] = XMLPullParser(events=("start", "end"))
    stack: list[Element] = []
    inside = kept = 0
    tail = b""
    with book.open(info) as stream:
        while True:
            chunk = stream.read(_CHUNK)
            budget.spend(len(chunk))
            if b"<!DOCTYPE" in tail + chunk:
                raise Refused(f"its part {name} declares a document type (entities)")
            tail = chunk[-8:]
            if chunk:
                parser.feed(chunk)
            else:
                parser.close()
            for event in parser.read_events():
                event_kind, elem = event[0], event[-1]
                assert isinstance(event_kind, str) and isinstance(elem, Element)
                is_record = local(elem.tag) in records
                if event_kind == "start":
                    stack.append(elem)
                    inside += is_record
                    kept += inside > 0
                    if kept > MAX_RECORD_ELEMENTS:
                        raise Refused(f"its part {name} has a cell of over {kept:,} elements")
                    yield event_kind, elem
                    continue
                stack.pop()
                yield event_kind, elem
                inside -= is_record
                if inside == 0:
                    kept = 0
                    if stack:
                        stack[-1].remove(elem)
            if not chunk:
                return


def local(tag: str) -> str:
    """A tag without its namespace: ``{uri}row`` -> ``row``."""
    return tag.rpartition("}")[2]
