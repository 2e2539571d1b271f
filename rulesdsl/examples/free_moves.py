"""A worked example's free move off the grid (issue 40): ``free_move(heavy_tank, (straight, 1
in), (turn, 45 deg), (straight, 3 in)) = 5 in, ends``: the legs in order, each a kind of leg
and its length or angle (negative: the other way), as the module's ``free_move`` takes them.
It answers what the move used, then ``ends`` when the move ends there; ``illegal`` when the
rule does not allow the move (the module raises ``IllegalMove``). With ``whole move`` lines a
straight or reverse leg may name, after its length, the features it crosses or enters:
``(straight, 2 in, river)``, ``(straight, 3 in, road, ford)``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesdsl import ir, spelling
from rulesdsl.examples.statements import Answered, Plain, Unanswerable
from rulesdsl.semantics import free_facing, routes

Found = tuple[int, ir.ExampleArg]

LEG_FORM = "each leg is (straight, 2 in), (reverse, 1 in), (turn, 45 deg) or (pivot, 135 deg)"
NAMED_FORM = "; a straight or reverse leg may name the features it crosses: (straight, 2 in, river)"

Leg = tuple[free_facing.Leg, float] | tuple[free_facing.Leg, float, tuple[str, ...]]
"""A leg as the module takes it: with the features it names, in a ruleset with whole-move rules."""


def _named(
    rs: ir.Ruleset, i: int, leg: free_facing.Leg, rest: Sequence[ir.Value]
) -> tuple[str, ...]:
    """The features a leg names after its length (E456 for what is not a declared feature, or
    for any on a turn or pivot)."""
    names = tuple(v.name for v in rest if isinstance(v, ir.Symbol))
    known = {f.id for f in rs.features}
    if len(names) < len(rest) or not set(names) <= known or leg in ("turn", "pivot"):
        raise Unanswerable(f"argument {i + 1}: {LEG_FORM}{NAMED_FORM}", i, code="E456")
    return names


def legs(rs: ir.Ruleset, written: Sequence[Found]) -> list[Leg]:
    """The legs as the module takes them; a leg written otherwise is E456, a length or an
    angle in another unit E273."""
    out: list[Leg] = []
    sizes = range(2, 3 + len(rs.features)) if rs.whole_moves else range(2, 3)
    for i, a in written:
        grouped = a.grouped and len(a.values) in sizes
        kind, amount = a.values[:2] if grouped else (None, None)
        leg = next((m for m in free_facing.LEGS if kind == ir.Symbol(m)), None)
        if leg is None or not isinstance(amount, ir.Number):
            raise Unanswerable(f"argument {i + 1}: {LEG_FORM}", i, code="E456")
        unit = "deg" if leg in ("turn", "pivot") else rs.units.get("distance")
        if amount.unit is not None and unit is not None and amount.unit != unit:
            raise Unanswerable(f"a {leg} leg is in {unit}, not {amount.unit}", i, wrong_unit=True)
        rest = a.values[2:]
        out.append((leg, amount.value, _named(rs, i, leg, rest)) if rest else (leg, amount.value))
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
        if rs.whole_moves:
            used, left, ends, why, marks = free_facing.free_move_whole(rs, rule, moves, allowance)
        else:
            used, left, ends, why, marks = (*free_facing.free_move(rule, moves, allowance), ())
    except free_facing.IllegalMove as exc:
        return Answered(({"word": "illegal"},), rs.units.get("cost"), (f"illegal: {exc}",))
    parts: tuple[Plain, ...] = ({"number": used},) + (({"word": "ends"},) if ends else ())
    carried = [f"marks: {', '.join(marks)}"] if marks else []
    cells = (f"left: {spelling.number(left)}", *([why] if why else []), *carried)
    return Answered(parts, rs.units.get("cost"), cells)
