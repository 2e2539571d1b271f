"""Lowering of ``facing`` rules (issue 24): a unit type's heading on a hex or square grid.

``facing MODE on GRID : turn 1 MP per hexside, turn mode 2 at speed 6 or less, turn mode 3,
backward +1 MP, sideslip +1 MP once per move, pivot at speed 2 or less, exact speed``.
What the rule then means for a route is :func:`rulesdsl.semantics.facing.route`; this module
judges what only the statement can tell (E280-E288, W280).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from typing import assert_never, get_args

from rulesdsl import ir
from rulesdsl.diagnostics import did_you_mean, warning
from rulesdsl.frontends import syntax as s
from rulesdsl.ir.records import dataclass
from rulesdsl.lowering import sail as sail_lowering
from rulesdsl.lowering.context import Context, role_dimension

MOVES: tuple[ir.FacingMove, ...] = get_args(ir.FacingMove)
WHEN = ("sail when", "speed when")
"""The clauses by the wind's strength (issue 40): their strengths are the ruleset's."""
"""The moves a facing rule may allow beside going forward."""

TURN_UNITS: dict[str, str] = {
    "hex": "a hex grid turns per hexside (or per 60 deg)",
    "square": "a square grid turns per 90 deg",
    "square8": "a square grid with diagonals turns per 45 deg",
}


def headings(grid: ir.Grid) -> int:
    """How many ways a unit may face on ``grid``: 6 on a hex grid, 4 on a square grid, 8 on
    a square grid with diagonals."""
    match grid.shape:
        case "hex":
            return 6
        case "square":
            return 8 if grid.diagonals else 4
        case _:
            assert_never(grid.shape)


def _turn_per(per: s.Located) -> tuple[str, float] | None:
    """``hexside`` or an angle in degrees, as written: (the words, the degrees)."""
    value = per.value
    match value:
        case s.Word():
            return ("hexside", 60.0) if value.name.text == "hexside" else None
        case ir.Number():
            degrees = float(value.value)
            return (f"{degrees:g} deg", degrees) if value.unit == "deg" else None
        case s.SameAs() | ir.Marker() | ir.Same() | ir.PerDistance() | ir.OnceCost() | ir.NonCost():
            return None
        case _:
            assert_never(value)


def facings(
    lw: Context, decls: list[s.FacingDecl], grids: list[ir.Grid], kinds: list[str] | None = None
) -> list[ir.Facing]:
    """Each ``facing`` statement as an IR rule; a second rule for one unit type is E288.
    ``kinds``: the kinds of move a ``turn mode N at KIND`` row may name. A ``sail by`` clause
    names one of the ruleset's arcs blocks (issue 40)."""
    out: list[ir.Facing] = []
    seen: set[str] = set()
    arcs = lw.of(s.ArcsDecl)
    for decl in decls:
        rule = facing(lw, decl, grids, kinds or [], arcs)
        if rule is not None and first_for_mode(lw, decl, seen):
            out.append(rule)
    sail_lowering.spellings(
        lw,
        [n for d in decls for t in d.terms if t.word.text in WHEN for n, _ in t.sails or ()],
    )
    return out


def first_for_mode(lw: Context, decl: s.FacingDecl, seen: set[str]) -> bool:
    """Whether ``decl`` is the first facing rule of its unit type, on a grid or off it (a
    second is E288); the unit type is then ``seen``."""
    return lw.first(
        seen,
        decl.mode,
        "E288",
        f"'{decl.mode.text}' has a facing rule already",
        "give each unit type one `facing` line; a house rule replaces its base's",
    )


def facing(
    lw: Context,
    decl: s.FacingDecl,
    grids: list[ir.Grid],
    kinds: list[str],
    arcs: Sequence[s.ArcsDecl] = (),
) -> ir.Facing | None:
    ok = True
    if decl.mode.text not in lw.modes:
        known = lw.modes
        kind = "a group" if decl.mode.text in lw.groups else "no unit type"
        lw.err(
            "E280",
            f"'{decl.mode.text}' is {kind}: a facing rule names one unit type (a mode)",
            decl.mode.pos,
            did_you_mean(decl.mode.text, known) or 'declare it with `mode NAME "Label"`',
        )
        ok = False
    grid = _grid(lw, decl, grids)
    if grid is None:
        return None
    count = headings(grid)
    said = _Clauses(arcs=arcs)
    for term in decl.terms:
        said.read(lw, decl, term, grid, count, kinds)
    ok = said.ok and ok
    if said.turn_costs and said.turn_cost is None and said.ok:
        lw.err(
            "E412",
            f"no turn cost above speed {said.turn_costs[-1][0]:g}",
            said.written["turn at speed"],
            "end with a turn cost for every speed: `turn N per hexside`",
        )
        ok = False
    elif said.turn_cost is None and not {"turn", "turn at speed"} & said.written.keys():
        lw.err(
            "E286",
            f"the facing rule of '{decl.mode.text}' says nothing of what a turn costs",
            decl.pos,
            "add a clause such as `turn 1 MP per hexside` (`turn 0 MP per hexside`: free)",
        )
        ok = False
    modes, moves = said.modes, said.moves
    ok = _turn_modes(lw, decl, modes) and ok
    by_speed = [m for m in modes if m.move is None] or [ir.TurnMode(0)]
    by_kind = [m for m in modes if m.move is not None]
    if "pivot" in moves and all(m.places == 0 for m in modes) and said.turn_limit is None:
        lw.diags.append(
            warning(
                "W280",
                f"'{decl.mode.text}' may turn at any place (turn mode 0): a pivot adds nothing",
                said.written["pivot"],
                "remove `pivot`, or give a turn mode above 0",
            )
        )
    if not ok or said.turn_cost is None:
        return None
    rule = ir.Facing(
        decl.mode.text,
        lw.info_of({}, decl.extras),
        grid.id,
        count,
        said.turn_cost,
        said.turn_per,
        (*by_speed, *by_kind),
        tuple(moves[m] for m in MOVES if m in moves),
        said.exact,
        said.until_spent,
        said.turn_limit,
        tuple(said.turn_costs),
        said.wind.get("tack"),
        said.wind.get("wear"),
        tuple(k for k in ("tack", "wear") if k in said.wind and said.wind[k] is None),
        said.sail_by,
        said.sail,
        said.speed_by,
        said.speeds,
        said.strengths,
        said.strength_speeds,
    )
    return lw.at(rule, decl.mode.pos)


def _grid(lw: Context, decl: s.FacingDecl, grids: list[ir.Grid]) -> ir.Grid | None:
    """The declared grid a facing rule turns on (E281), with a shape to turn by (E282)."""
    assert decl.grid is not None  # a facing off the grid is rulesdsl.lowering.free_facing's
    grid = next((g for g in grids if g.id == decl.grid.text), None)
    if grid is None:
        lw.err(
            "E281",
            f"no grid '{decl.grid.text}': a facing rule turns on a declared grid",
            decl.grid.pos,
            did_you_mean(decl.grid.text, [g.id for g in grids])
            or 'declare one: `grid hexes "Hex" : 1 hex, hex`',
        )
        return None
    if not grid.diagonals and not _shaped(lw, grid):
        lw.err(
            "E282",
            f"the grid '{grid.id}' has no shape: a heading needs hex or square neighbours",
            decl.grid.pos,
            f"write `, hex` or `, square` after the grid's size (grid {grid.id} ... , hex)",
        )
        return None
    return grid


@dataclass(slots=False)
class _Clauses:
    """What the clauses of one facing rule say, read in order (``ok``: no error in them)."""

    turn_cost: float | None = None
    turn_per: str = ""
    modes: list[ir.TurnMode] = field(default_factory=list)
    moves: dict[str, ir.Manoeuvre] = field(default_factory=dict)
    exact: bool = False
    until_spent: bool = False
    turn_limit: int | None = None
    turn_costs: list[tuple[float, float]] = field(default_factory=list)
    wind: dict[str, float | None] = field(default_factory=dict)
    written: dict[str, s.Pos] = field(default_factory=dict)
    ok: bool = True
    arcs: Sequence[s.ArcsDecl] = ()
    sail_by: str = ""
    sail: sail_lowering.Sail = ()
    speed_by: str = ""
    speeds: tuple[tuple[str, float], ...] = ()
    strengths: sail_lowering.Strengths = ()
    strength_speeds: tuple[tuple[str, float], ...] = ()

    def read(
        self,
        lw: Context,
        decl: s.FacingDecl,
        term: s.FacingTerm,
        grid: ir.Grid,
        count: int,
        kinds: list[str],
    ) -> None:
        word = term.word.text
        if word == "exact speed or until spent":  # one clause with `exact speed` (E284)
            word, self.until_spent = "exact speed", True
        if word == "turn" and term.speed is not None:  # a row by speed (issue 40)
            word = "turn at speed"
        key = word.removeprefix("may not ")  # `tack +2 MP` or `may not tack`, once (issue 40)
        if word not in ("turn mode", "turn at speed") and key in self.written:
            lw.err(
                "E284",
                f"`{word}` is given twice in the facing rule of '{decl.mode.text}'",
                term.word.pos,
                "keep one: the clauses of a facing rule would contradict each other",
            )
            self.ok = False
            return
        self.written.setdefault(key, term.word.pos)
        if word in ("turn", "turn at speed"):
            self._turn(lw, term, grid, count)
        elif word == "turn mode":
            self._turn_mode(lw, decl, term, kinds)
        elif word == "exact speed":
            self.exact = True
        elif word == "turn at most":
            self._turn_limit(lw, term, grid, count)
        elif word == "sail by":
            assert term.arcs is not None
            costs = sail_lowering.sail(lw, term, self.arcs, lambda a: _cost(lw, a))
            self.sail_by, self.sail = (term.arcs.text, costs) if costs else ("", ())
            self.ok = self.ok and costs is not None
        elif word == "speed by":
            self._speed_by(lw, term)
        elif word == "sail when":
            costs = sail_lowering.strengths(lw, term, lambda a: _cost(lw, a))
            self.strengths = costs or ()
            self.ok = self.ok and costs is not None
        elif word == "speed when":
            speeds = sail_lowering.strengths(
                lw, term, lambda a: _sail_speed(lw, a, "wind's strength")
            )
            self.strength_speeds = tuple((n, v or 0.0) for n, v in speeds or ())
            self.ok = self.ok and speeds is not None
        elif key in ("tack", "wear"):
            cost = _cost(lw, term.amount) if term.amount is not None else None
            self.wind[key] = cost if word == key else None
            self.ok = self.ok and (cost is not None or word != key)
        else:
            kind = next(m for m in MOVES if m == word)
            extra = _cost(lw, term.amount) if term.amount is not None else 0.0
            self.moves[kind] = lw.at(
                ir.Manoeuvre(kind, extra or 0.0, _speed(lw, term.speed), term.once),
                term.word.pos,
            )

    def _turn(self, lw: Context, term: s.FacingTerm, grid: ir.Grid, count: int) -> None:
        """``turn 1 MP per hexside``: the cost of a turn, per the grid's step (E283)."""
        assert term.amount is not None and term.per is not None
        cost = _cost(lw, term.amount)
        per = _turn_per(term.per)
        expected = {6: 60.0, 4: 90.0, 8: 45.0}[count]
        if per is None or per[1] != expected:
            shape = "hex" if count == 6 else "square" if count == 4 else "square8"
            lw.err(
                "E283",
                f"a turn per {_spelled(term.per)} on the grid '{grid.id}': {TURN_UNITS[shape]}",
                term.per.pos,
                f"write `turn {_spelled(term.amount)} per "
                f"{'hexside' if count == 6 else f'{expected:g} deg'}`",
            )
            self.ok = False
        elif cost is not None and term.speed is not None:
            self._turn_row(lw, term, cost, per[0])
        elif cost is not None:
            self.turn_cost, self.turn_per = cost, per[0]

    def _turn_row(self, lw: Context, term: s.FacingTerm, cost: float, per: str) -> None:
        """``turn 1 MP per hexside at speed 4 or less`` (issue 40): a row by speed, before the
        row for every speed, speeds rising (E412)."""
        speed = _speed(lw, term.speed)
        if speed is None:
            self.ok = False
            return
        below = self.turn_costs[-1][0] if self.turn_costs else None
        if self.turn_cost is not None or (below is not None and speed <= below):
            lw.err(
                "E412",
                "turn costs by speed must rise, before the turn cost for every speed",
                term.word.pos,
                "write the rows `turn N per hexside at speed M or less` lowest speed first, then "
                "`turn N per hexside`",
            )
            self.ok = False
            return
        self.turn_costs.append((speed, cost))
        self.turn_per = per

    def _speed_by(self, lw: Context, term: s.FacingTerm) -> None:
        """``speed by ARCS (running 6, ..., in_irons 0)`` (issue 40): a speed per arc."""
        assert term.arcs is not None
        codes = sail_lowering.SPEED
        said = sail_lowering.sail(lw, term, self.arcs, lambda a: _sail_speed(lw, a), codes)
        if said is None:
            self.ok = False
            return
        self.speed_by = term.arcs.text
        self.speeds = tuple((arc, speed or 0.0) for arc, speed in said)

    def _turn_limit(self, lw: Context, term: s.FacingTerm, grid: ir.Grid, count: int) -> None:
        """``turn at most 1 hexside per hex`` (issue 40): in hexsides, or in degrees of the
        grid's turn (E411), per the grid's place (E411); a whole number of turns, 1 or more
        (E410)."""
        assert term.amount is not None and term.per is not None
        amount, per = term.amount.value, term.per.value
        place, step = ("hex", 60.0) if count == 6 else ("square", 360.0 / count)
        words = "`N hexsides per hex`" if count == 6 else f"`N times {step:g} deg per square`"
        assert isinstance(amount, ir.Number)  # the grammar's quantity
        sides = amount.unit in ("hexside", "hexsides") and count == 6
        if not (sides or amount.unit == "deg") or not (
            isinstance(per, s.Word) and per.name.text == place
        ):
            wrong = term.amount if not (sides or amount.unit == "deg") else term.per
            lw.err(
                "E411",
                f"a turn limit on the grid '{grid.id}' is counted in {words}",
                wrong.pos,
                f"write `turn at most 1 {'hexside' if count == 6 else f'{step:g} deg'} "
                f"per {place}`",
            )
            self.ok = False
            return
        turns = float(amount.value) / (1.0 if sides else step)
        if turns != int(turns) or turns < 1:
            lw.err(
                "E410",
                f"a turn limit of {_spelled(term.amount)}: a unit turns whole "
                f"{'hexsides' if count == 6 else f'steps of {step:g} deg'}, 1 or more",
                term.amount.pos,
                "write a whole number of them, 1 or more (a unit that may not turn has no "
                "facing rule)",
            )
            self.ok = False
            return
        self.turn_limit = int(turns)

    def _turn_mode(
        self, lw: Context, decl: s.FacingDecl, term: s.FacingTerm, kinds: list[str]
    ) -> None:
        """``turn mode 2 at speed 6 or less`` or ``turn mode 1 at KIND``: one row."""
        assert term.amount is not None
        places = term.amount.value
        assert isinstance(places, ir.Number)
        if term.move is not None:
            named = _kind_row(lw, decl, term.move, kinds, self.modes)
            if named is None:
                self.ok = False
                return
            self.modes.append(lw.at(ir.TurnMode(int(places.value), move=named), term.word.pos))
            return
        speed = _speed(lw, term.speed)
        self.modes.append(lw.at(ir.TurnMode(int(places.value), speed), term.word.pos))


def _kind_row(
    lw: Context, decl: s.FacingDecl, name: s.Name, kinds: list[str], modes: list[ir.TurnMode]
) -> str | None:
    """The kind of move a ``turn mode N at KIND`` row names: a declared kind (E340), given
    one row (E341)."""
    if name.text not in kinds:
        lw.err(
            "E340",
            f"no kind of move '{name.text}': `turn mode N at KIND` names a kind of move",
            name.pos,
            did_you_mean(name.text, kinds)
            or 'declare it with `move NAME "Label" : allowance times 2`, or write `at speed N '
            "or less`",
        )
        return None
    if any(m.move == name.text for m in modes):
        lw.err(
            "E341",
            f"the facing rule of '{decl.mode.text}' gives a turn mode at '{name.text}' twice",
            name.pos,
            "keep one row per kind of move",
        )
        return None
    return name.text


def _shaped(lw: Context, grid: ir.Grid) -> bool:
    """Whether the grid's shape was written (``, hex`` / ``, square``), not only its size."""
    for st in lw.statements:
        if isinstance(st, s.GridDecl) and st.item.name.text == grid.id:
            return st.shape is not None
    return True


def _sail_speed(lw: Context, amount: s.Located, by: str = "point of sail") -> float | None:
    """A speed of ``speed by`` or ``speed when`` (issue 40): a number 0 or more (E520)."""
    number = lw.number(amount, _cost_dimension(lw))
    if number is None:
        return None
    if number.value < 0:
        lw.err(
            "E520",
            f"a speed of {_spelled(amount)} by the {by}: a unit moves 0 or more",
            amount.pos,
            "write 0 where the unit does not move (in irons)",
        )
        return None
    return float(number.value)


def _cost_dimension(lw: Context) -> str | None:
    """What a facing cost or speed measures: the header's cost unit says (`cost hex`: hexes,
    so `turn 1 hex per hexside` is a cost, issue 40)."""
    return role_dimension("cost", lw.header.units.get("cost"))


def _cost(lw: Context, amount: s.Located) -> float | None:
    number = lw.number(amount, _cost_dimension(lw))
    if number is None:
        return None
    if number.value < 0:
        lw.err(
            "E287",
            f"a facing cost of {_spelled(amount)}: a turn or a move never gives points back",
            amount.pos,
            "write 0 or more",
        )
        return None
    return float(number.value)


def _speed(lw: Context, speed: s.Located | None) -> float | None:
    if speed is None:
        return None
    number = lw.number(speed, _cost_dimension(lw))
    if number is None:
        return None
    if number.value < 0:
        lw.err("E287", "a speed below 0", speed.pos, "write 0 or more")
        return None
    return float(number.value)


def _turn_modes(lw: Context, decl: s.FacingDecl, modes: list[ir.TurnMode]) -> bool:
    """Turn modes by speed read top down: speeds rising, one row for every speed at the end
    (E285)."""
    terms = [t for t in decl.terms if t.word.text == "turn mode" and t.move is None]
    modes = [m for m in modes if m.move is None]
    last: float = -1.0
    for i, (mode, term) in enumerate(zip(modes, terms, strict=False)):
        if mode.up_to_speed is None and i < len(modes) - 1:
            lw.err(
                "E285",
                "a turn mode for every speed must come last: the rows after it are never read",
                term.word.pos,
                "move it after the rows `turn mode N at speed M or less`",
            )
            return False
        if mode.up_to_speed is not None and mode.up_to_speed <= last:
            lw.err(
                "E285",
                "turn modes by speed must rise: this row's speeds are covered above",
                term.word.pos,
                "order the rows by speed, lowest first",
            )
            return False
        if mode.up_to_speed is not None:
            last = mode.up_to_speed
    if modes and modes[-1].up_to_speed is not None:
        lw.err(
            "E285",
            f"no turn mode above speed {modes[-1].up_to_speed:g}",
            terms[-1].word.pos,
            "end with a row for every speed: `turn mode N`",
        )
        return False
    return True


def _spelled(loc: s.Located) -> str:
    value = loc.value
    match value:
        case s.Word():
            return value.name.text
        case ir.Number():
            return f"{value.value:g}{' ' + value.unit if value.unit else ''}"
        case s.SameAs() | ir.Marker() | ir.Same() | ir.PerDistance() | ir.OnceCost() | ir.NonCost():
            return "this"
        case _:
            assert_never(value)
