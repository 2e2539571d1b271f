"""The columns' widths a printed table is laid out with, from the packer's own estimate.

A table laid out automatically (CSS's ``table-layout: auto``) is measured twice: WeasyPrint
sets every cell's text to find its narrowest and widest width before it lays the table out,
about a fifth of a deck's layout (issue 44). The packer has already estimated each table's
columns the way the automatic layout shares them (:func:`~rulesdsl.printed.fit.table_fit`),
and cut every card and page from that estimate; given those widths (a ``<col>`` each, in
per cent of the table) and ``table-layout: fixed``, the layout measures nothing.

Only where the estimate is sure to hold the text: a table whose narrowest layout does not fit
its room (the packer's :attr:`~rulesdsl.printed.fit.TableFit.fits` false), a column narrower
than a word of it as the layout breaks it (:func:`table_columns`, :func:`_marked`), or a
header spanning columns narrower than its longest word
(:func:`~rulesdsl.printed.table_slices.measure` does not charge it to them), keeps the
automatic layout, which widens a column past its share.
"""

from __future__ import annotations

from dataclasses import replace

from rulesdsl.printed import fit
from rulesdsl.printed.sheet_view import TableView
from rulesdsl.printed.table_slices import BOLD, column_heads, fit_text, measure

__all__ = ["table_columns"]

PLACES = 2
"""Decimals of a column's per cent: the HTML is the same on every machine."""


def table_columns(
    t: TableView, room: float, box: fit.Box, lang: str, unwrapped: bool = False
) -> list[float]:
    """Each column's width in per cent of the table ``t`` set ``room`` points across, as the
    packer estimated it; empty where the automatic layout must share them (see above), or
    where a column is narrower than a word of it hyphenated only where the dictionary of
    ``lang`` breaks it (the estimate takes a break near the middle of any long word of a
    header: BattleTech en's "Wheeled" has none, and ran past its column). ``unwrapped``:
    only where every column has the room for its widest text on one line, spanning headers
    too (a sheet: where the estimate's widths wrap a cell on other lines than the automatic
    layout, a page may grow; a deck's cards are cut from the estimate, whatever the layout)."""
    if not t.rows:
        return []
    estimate = measure(t, room, box)
    total = sum(estimate.widths)
    if not estimate.fits or total <= 0 or (unwrapped and total > room - WRAPPED):
        return []
    shares = [round(100 * w / total, PLACES) for w in estimate.widths]
    across = [room * s / 100 for s in shares]
    words = measure(t, room, replace(box, hyphen_lang=box.hyphen_lang or lang)).mins
    if any(a < least for a, least in zip(across, words, strict=True)):
        return []
    if any(a < least for a, least in zip(across, _marked(t, box), strict=True)):
        return []
    spans: dict[int, float] = {}
    for c, head in enumerate(column_heads(t), start=1):
        if head.sub is not None:
            spans[head.top] = spans.get(head.top, 0.0) + across[c]
    size = box.font * box.head_scale
    for top, width in spans.items():
        cell = t.head[0][top]
        text = fit_text(cell.text, cell.notes)
        if unwrapped:
            least = fit.width(text, size, True)
        else:
            least = fit.min_width(text, size, True, box.head_hyphens, box.hyphen_lang or lang)
        if least + box.pad_x > width:
            return []
    return shares


def _marked(t: TableView, box: fit.Box) -> list[float]:
    """Each column's widest last word with the note marks printed on to it (``level 1¹,²``:
    the marks are set right after the word, where the estimate lets a line break before
    them), at the text's size and weight: a mark past its column runs over the rule."""
    heads = column_heads(t)
    most = [0.0] * len(t.rows[0])
    cells: list[tuple[int, str, tuple[str, ...], bool, float]] = []
    if t.head:
        tops = [t.head[0][0], *(head.sub or t.head[0][head.top] for head in heads)]
        cells += [(c, h.text, h.notes, True, box.head_scale) for c, h in enumerate(tops)]
    for row in t.rows:
        for c, v in enumerate(row):
            cells.append((c, v.text, v.notes, bool(BOLD & set(v.classes)), 1.0))
    for c, text, notes, bold, scale in cells:
        if notes and c < len(most):
            word = text.split()[-1] if text.split() else ""
            glued = fit.width(word + ",".join(notes), box.font * scale, bold) + box.pad_x
            most[c] = max(most[c], glued)
    return most


WRAPPED = 0.01
"""Points: a table's estimate this close to its room shares the room between its columns'
narrowest and widest (some cells wrap); further, each column has its widest."""
