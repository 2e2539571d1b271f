"""Text past its table cell: a printed table laid out from the packer's estimated columns
(``table-layout: fixed``, rulesdsl.printed.table_columns) keeps a word too wide for its
column on its line, over the rule and into the next cell, where the automatic layout
would have widened the column. The loss check sees that only where it runs over other text
or off the card; this reading sees it wherever it is, and tests/pdf_layout.py counts it as
lost text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

CELLS = frozenset({"td", "th"})

TOLERANCE_PX = 0.5
"""How far a glyph's box may pass its cell's border (rounding): under 0.15 mm."""
MARK_TOLERANCE_PX = 2.5
"""How far a note mark (``<sup>``) may: WeasyPrint's automatic layout sets one 1.2 px past
its cell (d20_movement fr's A4 sheet, before any table had its columns given), within the
cell padding's width (1.6 pt on cards, 2.5 pt on sheets: 2.1 and 3.3 px)."""


def past_cells(document: Any) -> list[str]:
    """``'<text>' runs N px past its table cell``, for every piece of text that does."""
    return [
        f"{text!r} runs {by:.1f} px past its table cell"
        for page in document.pages
        for text, by in _past(page._page_box, None)
    ]


def _past(box: Any, cell: Any) -> Iterator[tuple[str, float]]:
    element = getattr(box, "element", None)
    if getattr(box, "element_tag", None) in CELLS and element is not getattr(cell, "element", 0):
        cell = box  # the cell's outermost box: its lines and text carry its element too
    text = getattr(box, "text", None)
    if isinstance(text, str) and text.strip() and cell is not None:
        left = cell.border_box_x()
        right = left + cell.border_width()
        by = max(left - box.position_x, box.position_x + box.width - right)
        mark = getattr(box, "element_tag", None) == "sup"
        if by > (MARK_TOLERANCE_PX if mark else TOLERANCE_PX):
            yield text, by
    for child in getattr(box, "children", ()) or ():
        yield from _past(child, cell)
