"""The view data of a sheet: sections of blocks, tables of text cells with their classes and
notes, already in the sheet's language; the templates only lay them out."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, assert_never, get_args

from rulesdsl import ir

MARKERS: tuple[ir.MarkerKind, ...] = get_args(ir.MarkerKind)
"""Every marker, in the order a legend lists them."""


def marker_sign(marker: ir.MarkerKind) -> str:
    """A sign before each marker word, so marked cells stand out in black-and-white print."""
    match marker:
        case "impassable":
            return "✕"
        case "prohibited":
            return "⊘"
        case "blocked":
            return "⊗"
        case _:
            assert_never(marker)


MAP_CELLS = frozenset(get_args(ir.GridShape))
"""Units that name a map cell rather than a length (``1 square = 1.5 m``)."""

CHANGED_SIGN = "†"
"""Put after a cell (or a row label) that a variant changed or added."""

SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")

UNITLESS = frozenset({"", "bool", "key", "number", "count", "size"})
"""Input units that are not lengths or points: the input is named without a unit."""


def marks_text(text: str, notes: tuple[str, ...]) -> str:
    """``text`` with its footnote marks as superscripts, never run into a number before them:
    a thin space after a final digit, and a comma between marks (``3 ¹⁰,¹²``)."""
    if not notes:
        return text
    sep = "\u2009" if text[-1:].isdigit() else ""
    return text + sep + ",".join(n.translate(SUPERSCRIPTS) for n in notes)


# ---- view data ------------------------------------------------------------------------------


PAIR = "&"
"""Joins the two context values of a combination in a column key (names have no ``&``)."""


@dataclass
class CellView:
    text: str
    classes: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    """Footnote marks (``"1"``) shown as superscripts after the text."""
    changed: bool = False
    small: str = ""
    """Small print after the text (a row's own source reference)."""

    @property
    def css(self) -> str:
        return " ".join((*self.classes, *(("changed",) if self.changed else ())))

    @property
    def digit_end(self) -> bool:
        """Whether the text ends in a digit (marks after it need a space between)."""
        return self.text[-1:].isdigit()

    @property
    def plain(self) -> str:
        """The text with its marks, as Markdown shows it."""
        text = marks_text(self.text, self.notes)
        if self.changed:
            text += " " + CHANGED_SIGN
        if self.small:
            text += f" ({self.small})"
        return text


@dataclass
class HeadCell:
    text: str
    colspan: int = 1
    rowspan: int = 1
    notes: tuple[str, ...] = ()
    """Footnote marks of a column note."""

    @property
    def plain(self) -> str:
        return marks_text(self.text, self.notes)


@dataclass
class TableView:
    head: list[list[HeadCell]]
    rows: list[list[CellView]]
    flat_head: list[str]
    """One header row for formats without spans (Markdown): group and column joined."""
    numeric_from: int = 1
    """Columns from this index on are values (right-aligned, compact)."""
    fold: bool = False
    """A long two-column table printed as two pairs of columns side by side (HTML, PDF)."""
    col_groups: list[int] = field(default_factory=list)
    """For each value column (after the first), the index of its column group (the modes
    under one cost heading, one modifier's columns): a wide table splits between groups."""

    @property
    def folded(self) -> list[list[CellView]]:
        """The rows in two halves side by side: row i beside row i + half."""
        half = (len(self.rows) + 1) // 2
        left, right = self.rows[:half], self.rows[half:]
        blank = [CellView("") for _ in self.rows[0]] if self.rows else []
        return [a + (right[i] if i < len(right) else blank) for i, a in enumerate(left)]


BlockKind = Literal["table", "dice", "grid", "sources", "step", "text"]
"""What a block of a sheet holds; the sheets' CSS styles each (``kind-table``)."""


@dataclass
class Block:
    id: str
    title: str
    table: TableView | None = None
    lines: list[str] = field(default_factory=list)
    """Short paragraphs before the table (rules, procedure text)."""
    notes: list[tuple[str, str]] = field(default_factory=list)
    """Footnotes: (mark, text)."""
    after: list[str] = field(default_factory=list)
    """Paragraphs after the table (unnumbered notes)."""
    svg: str = ""
    """An inline SVG diagram (HTML and PDF only), already escaped by the svg module."""
    text_alt: list[str] = field(default_factory=list)
    """What Markdown shows in place of the diagram (besides the table, if any)."""
    source: str = ""
    changed: bool = False
    kind: BlockKind = "table"
    narrow: bool = False
    """Set by the page layout: the block takes half the width (two share a row)."""
    columns: list[float] = field(default_factory=list)
    """Set by the page layout: the table's columns' widths in per cent
    (:func:`~rulesdsl.printed.sheets.with_columns`); none, laid out automatically."""
    compact: Block | None = None
    """The same block with its long, repeated cells as short codes and a key to them (a
    results table's outcomes by their ids: ``AE`` for "Attacker eliminated"): what a card
    prints where the whole words would leave parts of the table under three rows."""

    @property
    def tabular(self) -> bool:
        """Whether the block is a table of rows (which the layout may set half-width)."""
        match self.kind:
            case "table" | "dice":
                return True
            case "grid" | "sources" | "step" | "text":
                return False
            case _:
                assert_never(self.kind)

    @property
    def bulleted(self) -> bool:
        """Whether Markdown lists the block's lines as bullets (a list of short items)."""
        match self.kind:
            case "text" | "sources":
                return True
            case "table" | "dice" | "grid" | "step":
                return False
            case _:
                assert_never(self.kind)


def table_block(
    block_id: str, heads: list[str], rows: list[list[CellView]], after: list[str]
) -> Block:
    """An untitled block of one table under one row of plain heads, its notes after it."""
    return Block(block_id, "", TableView([[HeadCell(h) for h in heads]], rows, heads), after=after)


@dataclass
class Section:
    id: str
    title: str
    blocks: list[Block]
    wide: bool = True
    """Set by the page layout: the blocks are wider than a column of a two-column page, so
    they take the page's width (narrow ones flow in the columns)."""
    part: int = 0
    """Set by the page layout: which run of the topic's blocks this is, where some take the
    page's width and some a column; a part after the first prints no heading."""

    @property
    def lines(self) -> int:
        """A rough height in text lines, to keep short topics on one page."""
        total = 2
        for b in self.blocks:
            total += 2 + len(b.lines) + len(b.after) + len(b.notes) + (6 if b.svg else 0)
            if b.table is not None and not b.svg:
                total += len(b.table.head) + len(b.table.rows)
        return total


@dataclass
class Sheet:
    lang: str
    ruleset_id: str
    title: str
    version: str
    digest: str
    ident: str
    """One line: id, version, extends chain and digest (the footer of every page)."""
    sections: list[Section]
    legend: list[str]
    languages: tuple[str, ...]
    words: dict[str, str] = field(default_factory=dict)
    """Fixed words the templates need besides the sheet's own text (``sources``)."""
    mode: str = ""
    """The unit type this sheet is cut down to (its label), or "" for every type."""
    catalog_words: Path | None = None
    """The project's catalog folder its fixed words came from (the decks' words too)."""
