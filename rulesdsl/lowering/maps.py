"""Misuse of the map constructs (issue 11), found on the syntax tree where positions are exact.

- E240: ``along V`` anywhere but the cost cell of an edge layer (``layer NAME edges``);
- E241: ``may not end`` / ``must stop`` anywhere but the cost cell of a layer of places (an edge
  is not a place to stop in, and a modifier or table cell is not a place at all);
- E242: an ``along`` cost below zero;
- W240: a place state on an entry that is impassable or prohibited, which nobody can enter.

E243 (a hex grid with diagonals) is reported where grids are lowered.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Literal, assert_never

from rulesdsl import ir
from rulesdsl.diagnostics import Diagnostic, error, warning
from rulesdsl.frontends import syntax as s
from rulesdsl.semantics import routes as semantics_routes

COST = "cost"


def misuse(statements: Sequence[s.Statement]) -> list[Diagnostic]:
    """Every misplaced place state or `along` entry in ``statements``."""
    out: list[Diagnostic] = []
    for cell, where in _cells(statements):
        for entry in cell.entries:
            if not entry.along and entry.state is None:
                continue  # most entries: nothing here to misplace (issue 44)
            if entry.along and where != "edge_cost":
                out.append(
                    error(
                        "E240",
                        "`along` is only for the cost cell of an edge layer",
                        entry.value.pos,
                        'declare the layer with `edges` (`layer roads "Roads" edges { ... }`)',
                    )
                )
            negative, marker = _reading(entry.value.value)
            if entry.along and negative:
                out.append(
                    error(
                        "E242",
                        "an `along` cost is negative",
                        entry.value.pos,
                        "`along V` is what the place entered costs instead: 0 or more",
                    )
                )
            if entry.state is not None:
                if where != "place_cost":
                    out.append(
                        error(
                            "E241",
                            f"`{_words(entry.state.state)}` is only for the cost cell of a "
                            "layer of places",
                            entry.state.pos,
                            "an edge, a modifier or a table is not a place a unit stops in",
                        )
                    )
                elif marker is not None:
                    out.append(
                        warning(
                            "W240",
                            f"`{_words(entry.state.state)}` on an {marker.marker} "
                            "entry has no effect: no unit enters it",
                            entry.state.pos,
                            "give these units a cost, or drop the place state",
                        )
                    )
    return out


def _reading(value: s.SynValue) -> tuple[bool, ir.Marker | None]:
    """What the checks ask of an entry's value: whether it is a number below zero, and the
    marker it is."""
    match value:
        case ir.Number():
            return value.value < 0, None
        case ir.Marker():
            return False, value
        case s.Word() | s.SameAs() | ir.Same() | ir.PerDistance() | ir.OnceCost() | ir.NonCost():
            return False, None
        case _:
            assert_never(value)


def _words(state: ir.PlaceState) -> str:
    return semantics_routes.state_words(state)


_Where = Literal["place_cost", "edge_cost", "other"]


def _cost_cell(scope: ir.LayerScope) -> _Where:
    """What a cost cell of a layer with that scope is."""
    match scope:
        case "edges":
            return "edge_cost"
        case "many" | "one" | "map":
            return "place_cost"
        case _:
            assert_never(scope)


def _cells(statements: Sequence[s.Statement]) -> Iterator[tuple[s.CellNode, _Where]]:
    """Each cell with what it is: ``place_cost``, ``edge_cost`` or ``other``."""
    for st in statements:
        match st:
            case s.LayerDecl():
                columns = [n.text for n in st.columns] if st.columns else [COST]
                for row in st.rows:
                    for column, cell in zip(columns, row.cells, strict=False):
                        if column != COST:
                            yield cell, "other"
                        else:
                            yield cell, _cost_cell(st.scope)
                    for cell in row.cells[len(columns) :]:
                        yield cell, "other"
            case s.ModifierDecl():
                for row in st.rows:
                    yield from ((c, "other") for c in row.cells)
                yield from ((w.cell, "other") for w in st.whens)
            case s.TableDecl():
                for row in st.rows:
                    yield from ((c, "other") for c in row.cells)
            case s.DiceDecl():
                yield from ((r.effects, "other") for r in st.rows if r.effects is not None)
            case s.ContextDecl() | s.DecisionDecl() | s.Header() | s.Change() | s.Plain():
                pass  # no cell that these checks read
            case _:
                assert_never(st)
