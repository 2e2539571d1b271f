"""A lower bound on the size of a deck's HTML, from the sheet it is cut from, without cutting
it (issue 29: the 20,000-feature build).

A deck whose HTML is over :data:`~rulesdsl.outputs.MAX_PDF_SOURCE_BYTES` is never printed
(W009), but finding its exact size means fitting every block at every type size: minutes
for a ruleset of thousands of features, spent on HTML that is then thrown away. Every row
of every table of the sheet lands on some card (``tests/test_cards.py``), written as
``<tr>`` and, per cell, what the cards template's ``cell`` macro writes around the cell's
text. It is a bound in practice, not in every case: a card may write a cell shorter than the
sheet does (a marker by its sign alone, an outcome by its code, a table turned on its side),
so the rows' bytes could pass the deck's only where those rows were nearly all of the deck;
they are 7-11 % of the bundled decks' HTML, whose cards, backs and imposition are most of it.
Blocks drawn as a picture are left out (a card may show the picture instead of the table).
It spares the decks of the largest rulesets, not every deck refused."""

from __future__ import annotations

from rulesdsl.printed.sheet_view import CellView, Sheet

ROW_BYTES = len("<tr></tr>")

__all__ = ["least_deck_bytes"]


def least_deck_bytes(sheet: Sheet) -> int:
    """At most the UTF-8 bytes of the HTML of any deck cut from ``sheet`` (its cards, the
    index and the stylesheet come on top)."""
    total = 0
    for section in sheet.sections:
        for block in section.blocks:
            if block.table is None or block.svg:
                continue
            for row in block.table.rows:
                total += ROW_BYTES + sum(map(_cell_bytes, row))
    return total


def _cell_bytes(c: CellView) -> int:
    """The bytes of the cards template's ``cell`` macro for ``c``, its text unescaped."""
    size = len("<td></td>") + len(c.text.encode())
    if c.css:
        size += len(' class=""') + len(c.css.encode())
    if c.notes:
        size += len("<sup></sup>") + len(",".join(c.notes).encode())
    if c.changed:
        size += len('<span class="mark"> </span>')
    if c.small:
        size += len(" <small></small>") + len(c.small.encode())
    return size
