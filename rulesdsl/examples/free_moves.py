"""A worked example's free move off the grid (issue 40): ``free_move(heavy_tank, (straight, 1
in), (turn, 45 deg), (straight, 3 in)) = 5 in, ends``: the legs in order, each a kind of leg
and its length or angle (negative: the other way), as the module's ``free_move`` takes them.
It answers what the move used, then ``ends`` when the move ends there; ``illegal`` when the
rule does not allow the move (the module raises ``IllegalMove``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesdsl import ir, spelling
from rulesdsl.examples.statements import Answered, Plain, Unanswerable
from rulesdsl.semantics import free_facing, routes

Found = tuple[int, ir.ExampleArg]

LEG_FORM = "each leg is (straight, 2 in), (reverse, 1 in), (turn, 45 deg) or (pivot, 135 deg)"


def legs(rs: ir.Ruleset, written: Sequence[Found]) -> list[tuple[free_facing.Leg, float]]:
    """The legs as the module takes them; a leg written otherwise is E456, a length or an
    angle in another unit E273."""
    out: list[tuple[free_facing.Leg, float]] = []
    for i, a in written:
        kind, amount = a.values if a.grouped and len(a.values) == 2 else (None, None)
        leg = next((m for m in free_facing.LEGS if kind == ir.Symbol(m)), None)
        if leg is None or not isinstance(amount, ir.Number):
            raise Unanswerable(f"argument {i + 1}: {LEG_FORM}", i, code="E456")
        unit = "deg" if leg in ("turn", "pivot") else rs.units.get("distance")
        if amount.unit is not None and unit is not None and amount.unit != unit:
            raise Unanswerable(f"a {leg} leg is in {unit}, not {amount.unit}", i, wrong_unit=True)
        out.append((leg, amount.value))
    if not out:
        raise Unanswerable("free_move() needs the legs of the move after the unit type")
    return out


def answer(rs: ir.Ruleset, mode: str, written: Sequence[Found], given: Found | None) -> Answered:
    """What the module's ``free_move`` answers, in the examples' plain parts."""
    rule = next(f for f in rs.free_facings if f.mode == mode)
    moves = legs(rs, written)
    allowance = None
    if given is not None:
        i, a = given
        n = a.values[0] if len(a.values) == 1 and not a.grouped else None
        if not isinstance(n, ir.Number):
            raise Unanswerable("'allowance' should be a number", i)
        if n.unit is not None and n.unit != rs.units.get("cost"):
            raise Unanswerable(f"'allowance' is in {rs.units.get('cost')}, not {n.unit}", i, True)
        allowance = n.value
    allowance = routes.own_allowance(rs, mode, allowance)
    if allowance is None:
        raise Unanswerable("free_move() needs 'allowance' here: the unit type has none of its own")
    try:
        used, left, ends, why = free_facing.free_move(rule, moves, allowance)
    except free_facing.IllegalMove as exc:
        return Answered(({"word": "illegal"},), rs.units.get("cost"), (f"illegal: {exc}",))
    parts: tuple[Plain, ...] = ({"number": used},) + (({"word": "ends"},) if ends else ())
    cells = (f"left: {spelling.number(left)}", *([why] if why else []))
    return Answered(parts, rs.units.get("cost"), cells)
