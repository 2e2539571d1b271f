"""Lowering of named arcs (issue 40): ``arcs NAME [: deg|hexsides] { NAME | A to B, ... }``.

Kept apart from :mod:`rulesdsl.lowering.lower`, which calls :func:`arcs` with itself: its error
list, labels and position table. What the IR then means is :mod:`rulesdsl.semantics.arcs`.
"""

from __future__ import annotations

from typing import assert_never, get_args

from rulesdsl import ir
from rulesdsl.diagnostics import did_you_mean
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering.context import Context
from rulesdsl.semantics import arcs as semantics_arcs

UNITS: tuple[ir.ArcUnit, ...] = get_args(ir.ArcUnit)


def arcs(lw: Context, decl: s.ArcsDecl) -> ir.Arcs:
    unit = _unit(lw, decl.unit)
    seen: set[str] = set()
    out: list[ir.Arc] = []
    spans: list[semantics_arcs.Span] = []
    for row in decl.arcs:
        name = row.item.name
        twice = f"arc '{name.text}' is listed twice in arcs '{decl.item.name.text}'"
        hint = "give each arc one row; a row may hold several spans (`60 to 120, 240 to 300`)"
        if not lw.first(seen, name, "E374", twice, hint):
            continue
        for span in row.spans:
            degrees = semantics_arcs.span_degrees(unit, span.start, span.end)
            if degrees is None:
                _bad_span(lw, unit, span)
            else:
                spans.append(degrees)
        arc = ir.Arc(name.text, lw.info(row.item), tuple((x.start, x.end) for x in row.spans))
        out.append(lw.at(arc, name.pos))
    gap = semantics_arcs.uncovered(spans)
    if gap is not None and len(spans) == sum(len(r.spans) for r in decl.arcs):
        lw.err(
            "E373",
            f"bearings {_deg(gap[0])} to {_deg(gap[1])} deg are in no arc of "
            f"'{decl.item.name.text}'",
            decl.item.name.pos,
            "the arcs go round the whole circle: widen an arc or add one (a bearing on the line "
            "between two arcs is the first listed one's)",
        )
    return lw.at(ir.Arcs(decl.item.name.text, lw.info(decl.item), unit, tuple(out)), decl.item.pos)


def _unit(lw: Context, name: s.Name | None) -> ir.ArcUnit:
    if name is None:
        return "deg"
    written = next((u for u in UNITS if u == name.text), None)
    if written is None:
        lw.err(
            "E370",
            f"arcs count degrees or hexsides, not '{name.text}'",
            name.pos,
            did_you_mean(name.text, UNITS) or "write `: deg` (the default) or `: hexsides`",
        )
        return "deg"
    return written


def _bad_span(lw: Context, unit: ir.ArcUnit, span: s.ArcSpanNode) -> None:
    text = f"{_deg(span.start)} to {_deg(span.end)}"
    match unit:
        case "hexsides":
            lw.err(
                "E372",
                f"'{text}': a hexside is a whole number from 0 (the faced one) to 5",
                span.pos,
                "count hexsides clockwise from the faced one: `5 to 1` is the three front ones",
            )
        case "deg":
            lw.err(
                "E371",
                f"the span '{text}' deg has no width or goes round more than once",
                span.pos,
                "a span goes clockwise from its first bearing to its second: `-60 to 60`, "
                "`300 to 60`",
            )
        case _:
            assert_never(unit)


def _deg(value: float) -> str:
    return f"{value:g}"


def keyed_table(lw: Context, decl: s.TableDecl) -> None:
    """``table NAME : arcs ARCS``: each arc of ``ARCS`` has a row, and each row is an arc
    (E376), so that the arc the module answers is always a key of the table."""
    if decl.arcs is None:
        return
    block = next((d for d in lw.of(s.ArcsDecl) if d.item.name.text == decl.arcs.text), None)
    if block is None:
        names = [d.item.name.text for d in lw.of(s.ArcsDecl)]
        lw.unknown(f"no arcs named '{decl.arcs.text}'", decl.arcs, names)
        return
    arcs = [a.item.name.text for a in block.arcs]
    rows = [r.item.name.text for r in decl.rows]
    table, name = decl.item.name.text, block.item.name.text
    strays = [row for row in decl.rows if row.item.name.text not in arcs]
    for row in strays:
        lw.err(
            "E376",
            f"row '{row.item.name.text}' of table '{table}' is no arc of '{name}'",
            row.item.name.pos,
            did_you_mean(row.item.name.text, arcs) or "arcs: " + ", ".join(arcs),
        )
    missing = [a for a in arcs if a not in rows]
    if len(missing) > len(strays):  # a stray row stands for a missing arc: said once
        lw.err(
            "E376",
            f"table '{table}' has no row for arc '{missing[0]}' of '{name}'",
            decl.arcs.pos,
            f"add a row for each arc: {', '.join(missing)}",
        )
