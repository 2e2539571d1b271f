"""How units move over the map: grids and their shapes, facing and its turns and manoeuvres,
kinds of move and the rolls the map makes due (issue 24).

Part of :mod:`rulesdsl.ir`, which re-exports every name; read them from there.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Literal

from rulesdsl.ir.values import DiceRoll, Id, Info, Named, Number, Value

if TYPE_CHECKING:
    from dataclasses import dataclass
else:  # the same decorator, its methods' bytecode kept between runs (issue 29)
    from rulesdsl.ir.records import dataclass


GridShape = Literal["square", "hex"]
"""The neighbourhood of a grid place."""


@dataclass(frozen=True)
class Grid(Named):
    """A grid: one cell's size in one or more units, and the diagonal cost cycle in cells."""

    size: tuple[Number, ...]
    diagonals: tuple[int, ...]
    shape: GridShape = "square"
    """The neighbourhood of a place: ``hex`` (six, axial (q, r)) or ``square`` ((x, y): four,
    eight when the grid has diagonals)."""


FacingMove = Literal["backward", "sideslip", "pivot"]
"""A move a facing rule allows beside going forward: a step into the place behind, a step
into a place beside the faced one keeping the heading, a turn that ignores the turn mode."""


@dataclass(frozen=True)
class Manoeuvre:
    """``backward +1 MP at speed 4 or less once per move``: a move beside going forward, its
    cost on top of the place's (a pivot's on top of its turn), the highest speed it is
    allowed at (None: any) and whether it may be made only once per move."""

    kind: FacingMove
    cost: float = 0
    up_to_speed: float | None = None
    once: bool = False


@dataclass(frozen=True)
class TurnMode:
    """``turn mode 2 at speed 6 or less``: the places a unit goes straight before it may
    turn, at speeds up to ``up_to_speed`` (None: every speed the rows above leave).
    ``turn mode 3 at flank``: ``move`` set, the row for a unit making that kind of move, at
    any speed; it wins over the rows by speed."""

    places: int
    up_to_speed: float | None = None
    move: Id | None = None


@dataclass(frozen=True)
class Facing:
    """A unit type's heading on a grid (issue 24): ``headings`` ways it may face (6 on a hex
    grid, 4 on a square one, 8 with diagonals), what turning one of them costs
    (``turn_cost``, written per ``turn_per``: ``hexside``, ``90 deg`` or ``45 deg``), turn
    modes by speed (first match wins; the rows by kind of move after them), the moves it may
    make beside going forward, and whether it must spend exactly its speed (or, with
    ``until_spent``, end on the step that spends the rest of it)."""

    mode: Id
    info: Info
    grid: Id
    headings: int
    turn_cost: float
    turn_per: str
    turn_modes: tuple[TurnMode, ...] = ()
    manoeuvres: tuple[Manoeuvre, ...] = ()
    exact_speed: bool = False
    until_spent: bool = False
    """``exact speed or until spent``: a move may also end with the step that uses up the
    speed and more (terrain ate the last points), begun with points left (issue 39)."""
    turn_limit: int | None = None
    """``turn at most 1 hexside per hex`` (issue 40): the headings a unit may turn through in
    one place by turns (pivots aside); None: no limit."""
    turn_costs: tuple[tuple[float, float], ...] = ()
    """``turn 1 MP per hexside at speed 4 or less`` (issue 40): ``(up to speed, cost)`` rows by
    speed, rising, read before ``turn_cost`` (the cost at every speed above them)."""
    tack: float | None = None
    """``tack +2 MP`` (issue 40): what a turn onto the heading the wind blows from costs more;
    None: no rule, or (``tack`` in ``refused``) not allowed."""
    wear: float | None = None
    """``wear +1 MP``: the same for a turn onto the heading the wind blows to."""
    refused: tuple[str, ...] = ()
    """``may not tack``, ``may not wear``: ``tack`` and ``wear`` as refused."""
    sail_by: str = ""
    """``sail by ARCS (...)`` (issue 40): the arcs block whose arc the wind blows from, seen
    from the heading (the point of sail); empty: a step's cost does not read the wind."""
    sail: tuple[tuple[str, float | None], ...] = ()
    """Per arc of ``sail_by``, in the arcs' order: what a step costs more with the wind in that
    arc (None: impassable, as in irons)."""
    speed_by: str = ""
    """``speed by ARCS (...)`` (issue 40): the arcs block of the point of sail that gives the
    unit's speed (its allowance) when the caller passes the wind and no allowance; empty: none."""
    speeds: tuple[tuple[str, float], ...] = ()
    """Per arc of ``speed_by``, in the arcs' order: the unit's speed with the wind in that arc
    at the heading its move starts with."""
    strengths: tuple[tuple[str, float | None], ...] = ()
    """``sail when (calm impassable, gale +1 MP)`` (issue 40): per strength of the wind named,
    as written, what a step costs more when the caller gives it (None: impassable); a strength
    not named costs nothing more; empty: a step's cost does not read the wind's strength."""
    strength_speeds: tuple[tuple[str, float], ...] = ()
    """``speed when (calm 0, gale 3)`` (issue 40): per strength of the wind named, the unit's
    speed (its allowance) when the caller gives that strength and no allowance; it wins over
    ``speeds``; empty: the speed does not read the wind's strength."""


@dataclass(frozen=True)
class FreeFacing:
    """A unit type's heading off the grid (issue 40), moving freely in inches: what each
    ``turn_step`` degrees of a turn cost (``turn_cost``; a part step counts whole), a pivot's
    flat cost (None: no pivots), how far the unit goes straight before it may turn, the turn
    above which the move ends (None: none ends it) and whether it may reverse at half speed
    (each inch backward costs 2)."""

    mode: Id
    info: Info
    turn_cost: float
    turn_step: float
    pivot: float | None = None
    straight: float = 0
    ends_above: float | None = None
    reverse_half: bool = False


@dataclass(frozen=True)
class MoveKind(Named):
    """``move run "Run" : allowance times 2, not water``: a kind of move beside the unit type
    (issue 24). The unit's allowance becomes ``allowance * factor + amount``; ``barred``: the
    features a unit making this move may not enter (PROHIBITED). A cost or roll cell may key an
    entry by the kind; it wins over the unit type's and its keywords' entries, so a cell
    without one keeps answering by the unit's keywords."""

    factor: float = 1
    amount: float = 0
    barred: tuple[Id, ...] = ()
    costs: dict[Id, dict[Id, Value]] = field(default_factory=dict)
    """Per feature whose cost cell keys an entry by this kind, per mode that takes it: the
    kind's entry stands for the value for all, so a mode with an entry of its own or of one of
    its keywords keeps that (and is left out here)."""
    only: tuple[Id, ...] = ()
    """``only infantry or beast`` (issue 40): the unit types or keywords that may make this
    move, as written (:func:`rulesdsl.semantics.moves.may_make`); empty: every unit type."""


RollWhen = Literal["entering", "crossing", "ending", "first_entering", "any_step", "first_step"]
"""When a roll rule's features make its roll due: on entering a place, on crossing an edge, on
ending the move in a place, or on entering a place for the first time; ``any_step`` (issue 40,
``on any step when speed below 2``): after every step, wherever the unit is, with no feature
calling for it (its band of a state says when); ``first_step`` (``on first step when speed
below 2``): the same, but once a move, at the first step after which the state is in the band."""


RollCombine = Literal["sum", "highest", "lowest"]
"""How the values of several features of one place combine into one roll's modifier."""


@dataclass(frozen=True)
class RollRule(Named):
    """``roll bog "Bog-down roll" : 2d6 on entering``: a layer column whose features make a roll
    due on the map (issue 24). Each feature's cell gives, per unit type, keyword or kind of
    move, the roll's modifier, or ``no`` (that unit does not roll). ``values[feature][mode]``
    is resolved for every mode (modes that do not roll left out); ``by_move[kind][feature]
    [mode]`` likewise for a unit making that move, for the features whose cell has an entry for
    the kind or a pair with it (the kind's entry stands for the value for all; a mode's or
    keyword's own entry wins over it, a pair ``low & bomber`` over both). A
    place makes one roll however many of its features call for it, their values combined by
    ``combine``; a whole-map condition only adds its value to a roll that its place's features
    make due (an effect that feeds the roll)."""

    when: RollWhen
    dice: DiceRoll | None = None
    table: Id | None = None
    combine: RollCombine = "sum"
    values: dict[Id, dict[Id, float]] = field(default_factory=dict)
    by_move: dict[Id, dict[Id, dict[Id, float]]] = field(default_factory=dict)
    state: tuple[Id, Literal["below", "above"], int] | None = None
    """``when altitude below 4`` (issue 40): due only while the unit's state, after the step,
    is below (or above) the bound; judged when a route is given a state."""


ArcUnit = Literal["deg", "hexsides"]
"""What an arc's spans count: degrees, or hexsides (0 the faced one, then clockwise)."""


@dataclass(frozen=True)
class Arc:
    """A named arc (issue 40): its spans, each clockwise from its first bearing to its second
    (relative to the facing, clockwise from dead ahead), as written in the arcs' unit."""

    id: str
    info: Info
    spans: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Arcs(Named):
    """``arcs NAME { ... }`` (issue 40): named arcs around a unit's facing. A bearing is in
    the first arc listed whose span holds it, ends included; together they cover the circle."""

    unit: ArcUnit
    arcs: tuple[Arc, ...]


@dataclass(frozen=True)
class WholeMove(Named):
    """``whole move NAME "Label" : crosses F [or G]`` or ``... : at most N F [or G]``: a
    condition on the whole route (issue 40). A step counts when the edge it crosses or the
    place it enters has one of ``features``. With ``most`` None, a route with such a step
    carries the rule (its label says what follows: "may not fire"); with ``most``, a route
    with more such steps is not legal, and route searches do not return it. With ``bonus``
    (``on F [or G], allowance +N``), a route every step of which counts may cost the allowance
    plus ``bonus`` (in the cost unit)."""

    features: tuple[Id, ...]
    most: int | None = None
    bonus: float | None = None


@dataclass(frozen=True)
class StateChange:
    """``debris -2`` or ``bomber climb -3`` on a ``state`` line: entering or crossing the
    feature ``source`` (each step), or making the kind of move ``source`` (once a move),
    changes the state by ``amount``; ``mode``: for that unit type only (empty: every one
    without its own)."""

    source: Id
    amount: int
    mode: str = ""
    capped: bool = False
    """``dive +1 capped``: a change past the end of the unit's range stops the state at that end
    instead of breaking the route."""
    bound: int | None = None
    """``dive +1 capped at 5``: a capped change stops the state at this bound instead (or at the
    end of the unit's range, if nearer); a state already past it stays where it was."""


@dataclass(frozen=True)
class StateRange:
    """``bomber 0 to 6`` on a ``state`` line: unit type ``mode``'s own range of the state, or
    (``heavy 0 to 6``) that of every unit type with the keyword ``mode`` and no range of its
    own."""

    mode: str
    low: int
    high: int


@dataclass(frozen=True)
class State(Named):
    """``state speed "Speed" : 0 to 8, debris -2``: a whole number a unit carries from move to
    move (issue 40), from ``low`` to ``high``, and what changes it. Route searches given a
    starting state carry it step by step; a change that takes it out of its range is a step
    the unit may not take."""

    low: int
    high: int
    changes: tuple[StateChange, ...] = ()
    own: tuple[StateRange, ...] = ()
    """``bomber 0 to 6``: per unit type with its own range (within ``low`` to ``high``), that
    range; its routes and its ``state=`` are judged by it."""


@dataclass(frozen=True)
class DriftEntry:
    """``balloon 2`` or ``1 when altitude below 3`` on a ``drift`` line: the places the wind
    carries a unit downwind at the end of its move; ``mode``: a unit type or keyword (empty:
    every unit type without its own entry); ``state``, ``op``, ``bound``: only while the
    unit's state is below or above the bound (empty ``state``: always)."""

    distance: int
    mode: str = ""
    state: str = ""
    op: str = ""
    bound: int = 0


@dataclass(frozen=True)
class Drift(Named):
    """``drift wind "Wind drift" : 1, balloon 2, heavy 0`` (issue 40): at the end of its move
    the wind (the route searches' ``wind``) carries a unit downwind, place by place on the
    board's grid, at no cost; it stops before the map's edge, a place it may not enter or may
    not end in, and in a place where it must stop."""

    entries: tuple[DriftEntry, ...] = ()
