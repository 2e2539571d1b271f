"""The "Facing" topic of sheets and cards (issue 24): each unit type's facing rule in words,
and its turn modes as a small table of speeds."""

from __future__ import annotations

from rulesdsl import ir
from rulesdsl.printed.sheet_more import MoreBlocks
from rulesdsl.printed.sheet_view import Block, CellView, HeadCell, TableView


def facing_blocks(b: MoreBlocks) -> list[Block]:
    """One block per facing rule of the sheet's ruleset (a card each), in the order written,
    cut down to the sheet's unit type when it has one."""
    return [_facing(b, f) for f in b.rs.facings if b.mode in (None, f.mode)]


def _cost(b: MoreBlocks, value: float) -> str:
    return b.unit_text(b.num(value), b.rs.units.get("cost"))


def _per(b: MoreBlocks, per: str) -> str:
    return b.w("facing_per_hexside") if per == "hexside" else b.unit_text(per.split()[0], "deg")


def _turned(b: MoreBlocks, f: ir.Facing, turns: int) -> str:
    """``turns`` headings: hexsides, or degrees on a square grid."""
    if f.headings == 6:
        return b.w("facing_limit_hexsides", count=b.num(turns))
    return b.unit_text(b.num(turns * 360 / f.headings), "deg")


def _limits(b: MoreBlocks, move: ir.Manoeuvre) -> str:
    parts = []
    if move.up_to_speed is not None:
        parts.append(b.w("facing_at_speed", speed=b.num(move.up_to_speed)))
    if move.once:
        parts.append(b.w("facing_once"))
    return "".join(f", {p}" for p in parts)


def _sail(b: MoreBlocks, f: ir.Facing) -> str:
    """``sail by ARCS (...)`` (issue 40): what a step costs more at each point of sail."""
    block = next(a for a in b.rs.arcs if a.id == f.sail_by)
    labels = {a.id: b.label(a.info, a.id) for a in block.arcs}
    costs = [
        b.w("facing_sail_impassable", arc=labels[arc])
        if cost is None
        else b.w("facing_sail_cost", arc=labels[arc], cost=_cost(b, cost))
        for arc, cost in f.sail
    ]
    return b.w("facing_sail", arcs=b.label(block.info, block.id), costs="; ".join(costs))


def _speed_by(b: MoreBlocks, f: ir.Facing) -> str:
    """``speed by ARCS (...)`` (issue 40): the unit's speed at each point of sail."""
    block = next(a for a in b.rs.arcs if a.id == f.speed_by)
    labels = {a.id: b.label(a.info, a.id) for a in block.arcs}
    speeds = [b.w("facing_speed_by_entry", arc=labels[a], speed=b.num(v)) for a, v in f.speeds]
    return b.w("facing_speed_by", arcs=b.label(block.info, block.id), speeds="; ".join(speeds))


def _sail_when(b: MoreBlocks, f: ir.Facing) -> str:
    """``sail when (...)`` (issue 40): what a step costs more in each strength of the wind."""
    costs = [
        b.w("facing_sail_impassable", arc=b.label(None, name))
        if cost is None
        else b.w("facing_sail_cost", arc=b.label(None, name), cost=_cost(b, cost))
        for name, cost in f.strengths
    ]
    return b.w("facing_sail_when", costs="; ".join(costs))


def _speed_when(b: MoreBlocks, f: ir.Facing) -> str:
    """``speed when (...)`` (issue 40): the unit's speed in each strength of the wind."""
    speeds = [
        b.w("facing_speed_by_entry", arc=b.label(None, n), speed=b.num(v))
        for n, v in f.strength_speeds
    ]
    return b.w("facing_speed_when", speeds="; ".join(speeds))


def _facing(b: MoreBlocks, f: ir.Facing) -> Block:
    lines = [
        b.w("facing_grid", grid=b.name(f.grid), count=b.num(f.headings)),
        *(
            b.w("facing_turn_up_to", speed=b.num(up), cost=_cost(b, cost), per=_per(b, f.turn_per))
            for up, cost in f.turn_costs
        ),
        b.w(
            "facing_turn_above" if f.turn_costs else "facing_turn",
            speed=b.num(f.turn_costs[-1][0]) if f.turn_costs else "",
            cost=_cost(b, f.turn_cost),
            per=_per(b, f.turn_per),
        ),
    ]
    for move in f.manoeuvres:
        lines.append(b.w(f"facing_{move.kind}", cost=_cost(b, move.cost)) + _limits(b, move) + ".")
    if f.exact_speed:
        lines.append(b.w("facing_exact_until" if f.until_spent else "facing_exact"))
    if f.turn_limit is not None:
        lines.append(b.w("facing_turn_limit", turn=_turned(b, f, f.turn_limit)))
    for wind, cost in (("tack", f.tack), ("wear", f.wear)):  # by the wind (issue 40)
        if wind in f.refused:
            lines.append(b.w(f"facing_{wind}_refused"))
        elif cost is not None:
            lines.append(b.w(f"facing_{wind}", cost=_cost(b, cost)))
    if f.sail_by:
        lines.append(_sail(b, f))
    if f.speed_by:
        lines.append(_speed_by(b, f))
    if f.strengths:
        lines.append(_sail_when(b, f))
    if f.strength_speeds:
        lines.append(_speed_when(b, f))
    head = [[HeadCell(b.w("facing_speed")), HeadCell(b.w("facing_turn_mode"))]]
    rows = []
    below = None
    kinds = {k.id: k for k in b.rs.moves}
    for row in f.turn_modes:
        if row.move is not None:  # `turn mode N at KIND`: the kind's own row
            kind = kinds.get(row.move)
            label = b.label(kind.info, row.move) if kind is not None else row.move
            speed = b.w("facing_speed_move", move=label)
        elif row.up_to_speed is None:
            speed = (
                b.w("facing_speed_above", speed=b.num(below))
                if below is not None
                else b.w("facing_speed_any")
            )
        else:
            speed = b.w("facing_speed_up_to", speed=b.num(row.up_to_speed))
            below = row.up_to_speed
        rows.append([CellView(speed, ("label",)), CellView(b.num(row.places))])
    return Block(
        f"facing.{f.mode}",
        b.name(f.mode),
        TableView(head, rows, [h.text for h in head[0]]),
        lines=lines,
        after=b.note_texts(f.info),
        source=b.source(f.info),
        changed=b.changed(f"facing {f.mode}"),
    )


def free_facing_blocks(b: MoreBlocks) -> list[Block]:
    """One block per facing rule off the grid (issue 40), in words, cut down to the sheet's
    unit type when it has one."""
    return [_free(b, f) for f in b.rs.free_facings if b.mode in (None, f.mode)]


def _free(b: MoreBlocks, f: ir.FreeFacing) -> Block:
    lines = [b.w("free_facing_turn", cost=_cost(b, f.turn_cost), step=_per(b, f"{f.turn_step:g}"))]
    if f.pivot is not None:
        lines.append(b.w("free_facing_pivot", cost=_cost(b, f.pivot)))
    if f.straight:
        lines.append(b.w("free_facing_straight", length=_cost(b, f.straight)))
    if f.ends_above is not None:
        lines.append(b.w("free_facing_ends", angle=_per(b, f"{f.ends_above:g}")))
    if f.reverse_half:
        lines.append(b.w("free_facing_reverse"))
    return Block(
        f"facing.{f.mode}",
        b.name(f.mode),
        None,
        lines=lines,
        after=b.note_texts(f.info),
        source=b.source(f.info),
        changed=b.changed(f"facing {f.mode}"),
    )
