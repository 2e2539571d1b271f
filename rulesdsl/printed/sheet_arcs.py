"""The "Arcs" topic of sheets and cards (issue 40): each arcs block as a small table of its arcs
and their bearings, in the order a bearing tries them."""

from __future__ import annotations

from typing import assert_never

from rulesdsl import ir
from rulesdsl.printed.sheet_more import MoreBlocks
from rulesdsl.printed.sheet_view import Block, CellView, HeadCell, TableView


def arcs_blocks(b: MoreBlocks) -> list[Block]:
    """One block per arcs block of the sheet's ruleset (a card each), in the order written."""
    return [_arcs(b, a) for a in b.rs.arcs]


def _span(b: MoreBlocks, unit: ir.ArcUnit, start: float, end: float) -> str:
    match unit:
        case "deg":
            ends = {
                "start": b.unit_text(b.num(start), "deg"),
                "end": b.unit_text(b.num(end), "deg"),
            }
            return b.w("arcs_span_deg", **ends)
        case "hexsides":
            return b.w("arcs_span_hexsides", start=b.num(start), end=b.num(end))
        case _:
            assert_never(unit)


def _deg(b: MoreBlocks, value: float) -> str:
    return b.unit_text(b.num(value), "deg")


def _arcs(b: MoreBlocks, arcs: ir.Arcs) -> Block:
    head = [[HeadCell(b.w("arcs_arc")), HeadCell(b.w("arcs_bearings"))]]
    rows = [
        [
            CellView(b.label(a.info, a.id), ("label",)),
            CellView(", ".join(_span(b, arcs.unit, lo, hi) for lo, hi in a.spans)),
        ]
        for a in arcs.arcs
    ]
    return Block(
        f"arcs.{arcs.id}",
        b.label(arcs.info, arcs.id),
        TableView(head, rows, [h.text for h in head[0]]),
        lines=[b.w(f"arcs_rule_{arcs.unit}")],
        after=b.note_texts(arcs.info),
        source=b.source(arcs.info),
        changed=b.changed(arcs.id),
    )
