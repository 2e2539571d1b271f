"""Lowering of facing off the grid (issue 40): ``facing tank : turn 1 in per 45 deg,
pivot 2 in, straight 2 in before turn, turn above 90 deg ends move, reverse at half speed``,
a unit type's heading in free movement. What a move then costs is
:func:`rulesdsl.semantics.free_facing.free_move`; this module judges the statement (E280,
E284, E286, E287, E277, E278)."""

from __future__ import annotations

from dataclasses import field

from rulesdsl import ir
from rulesdsl.diagnostics import did_you_mean
from rulesdsl.frontends import syntax as s
from rulesdsl.ir.records import dataclass
from rulesdsl.lowering.context import Context, role_dimension
from rulesdsl.lowering.facing import first_for_mode

ON_GRID_ONLY = ("backward", "sideslip")
"""Grid moves a free facing has no use for: it reverses (``reverse at half speed``)."""


@dataclass(slots=False)
class _Said:
    """What the clauses of one free facing say (``ok``: no error in them)."""

    turn: tuple[float, float] | None = None
    pivot: float | None = None
    straight: float = 0
    ends_above: float | None = None
    reverse_half: bool = False
    written: set[str] = field(default_factory=set)
    ok: bool = True


def free_facing(lw: Context, decl: s.FacingDecl) -> ir.FreeFacing | None:
    """A ``facing MODE : ...`` statement (no grid) as an IR rule, or None after its errors."""
    ok = True
    if decl.mode.text not in lw.modes:
        kind = "a group" if decl.mode.text in lw.groups else "no unit type"
        lw.err(
            "E280",
            f"'{decl.mode.text}' is {kind}: a facing rule names one unit type (a mode)",
            decl.mode.pos,
            did_you_mean(decl.mode.text, lw.modes) or 'declare it with `mode NAME "Label"`',
        )
        ok = False
    said = _Said()
    for term in decl.terms:
        _read(lw, decl, term, said)
    if said.turn is None and "turn" not in said.written:
        lw.err(
            "E286",
            f"the facing rule of '{decl.mode.text}' says nothing of what a turn costs",
            decl.pos,
            "add a clause such as `turn 1 in per 45 deg` (`turn 0 in per 45 deg`: free)",
        )
        ok = False
    if not (ok and said.ok) or said.turn is None:
        return None
    rule = ir.FreeFacing(
        decl.mode.text,
        lw.info_of({}, decl.extras),
        said.turn[0],
        said.turn[1],
        said.pivot,
        said.straight,
        said.ends_above,
        said.reverse_half,
    )
    return lw.at(rule, decl.mode.pos)


def _read(lw: Context, decl: s.FacingDecl, term: s.FacingTerm, said: _Said) -> None:
    word = term.word.text
    if word in ON_GRID_ONLY:
        lw.err(
            "E278",
            f"`{word}` is a move on a grid: '{decl.mode.text}' has no grid (`facing MODE : ...`)",
            term.word.pos,
            "off the grid a unit backs up with `reverse at half speed`; a grid facing is "
            "`facing MODE on GRID : ...`",
        )
        said.ok = False
        return
    if word in said.written:
        lw.err(
            "E284",
            f"`{word}` is given twice in the facing rule of '{decl.mode.text}'",
            term.word.pos,
            "keep one: the clauses of a facing rule would contradict each other",
        )
        said.ok = False
        return
    said.written.add(word)
    if word == "reverse at half speed":
        said.reverse_half = True
        return
    assert term.amount is not None
    if word == "turn":
        assert term.per is not None
        cost, step = _cost(lw, term.amount, said), _angle(lw, term.per, said)
        said.turn = None if cost is None or step is None else (cost, step)
    elif word == "pivot":
        said.pivot = _cost(lw, term.amount, said)
    elif word == "straight before turn":
        said.straight = _cost(lw, term.amount, said) or 0.0
    else:
        said.ends_above = _angle(lw, term.amount, said, zero=True)


def _cost(lw: Context, amount: s.Located, said: _Said) -> float | None:
    """A cost or a length in the header's cost unit, 0 or more (E287)."""
    number = lw.number(amount, role_dimension("cost", lw.header.units.get("cost")))
    if number is None:
        said.ok = False
        return None
    if number.value < 0:
        lw.err(
            "E287",
            f"a facing cost of {number.value:g}: a turn or a move never gives points back",
            amount.pos,
            "write 0 or more",
        )
        said.ok = False
        return None
    return float(number.value)


def _angle(lw: Context, amount: s.Located, said: _Said, zero: bool = False) -> float | None:
    """An angle in degrees, above 0 (0 too for ``turn above``) and at most 180 (E277)."""
    value = amount.value
    if (
        isinstance(value, ir.Number)
        and value.unit == "deg"
        and (value.value >= 0 if zero else value.value > 0)
        and value.value <= 180
    ):
        return float(value.value)
    shown = f"{value.value:g} {value.unit or ''}".strip() if isinstance(value, ir.Number) else "?"
    lw.err(
        "E277",
        f"a turn of {shown}: a facing off the grid turns by degrees, "
        f"{'0' if zero else 'above 0'} to 180",
        amount.pos,
        "write the angle in degrees, as `per 45 deg` or `turn above 90 deg ends move`",
    )
    said.ok = False
    return None


def free_facings(
    lw: Context, decls: list[s.FacingDecl], facings: list[ir.Facing]
) -> list[ir.FreeFacing]:
    """Each ``facing MODE : ...`` statement as an IR rule; a unit type with a facing rule
    already (on a grid or off it) is E288."""
    out: list[ir.FreeFacing] = []
    seen = {f.mode for f in facings}
    for decl in decls:
        rule = free_facing(lw, decl)
        if rule is not None and first_for_mode(lw, decl, seen):
            out.append(rule)
    return out
