"""The IR's floor: the patterns of its string slots, its values (a tagged union), the cells
that hold them, and the labels, notes and source every named item carries.

Part of :mod:`rulesdsl.ir`, which re-exports every name; read them from there.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Annotated, Literal

if TYPE_CHECKING:
    from dataclasses import dataclass
else:  # the same decorator, its methods' bytecode kept between runs (issue 29)
    from rulesdsl.ir.records import dataclass


@dataclass(frozen=True)
class Pattern:
    """What a string slot of the IR must look like: checked by :mod:`rulesdsl.checks.names`
    for every front end, and carried into the JSON Schema as ``pattern`` and ``maxLength``."""

    regex: str
    max_length: int
    what: str
    code: str = "E106"
    """The diagnostic for a string that does not match."""


IDENT = Pattern(r"[A-Za-z_][A-Za-z0-9_]*", 64, "a name (letters, digits and _, not first a digit)")
LANG = Pattern(r"[a-z]{2,3}", 3, "a language code (ISO 639, such as en, fr, ru)")
SEMVER = Pattern(r"\d+\.\d+\.\d+", 32, "a semantic version (MAJOR.MINOR.PATCH)", "E111")


@dataclass(frozen=True)
class Declares:
    """Marks the string slots that declare a name (rather than refer to one): such a name may
    not be one the generated module uses itself (see :mod:`rulesdsl.checks.reserved`)."""


Id = Annotated[str, IDENT]
"""A reference to a declared name, or a name. Names become Python identifiers in the generated
module and ruleset ids become file names, so both front ends check them the same way."""
NewId = Annotated[str, IDENT, Declares()]
"""A name declared by this slot."""
Lang = Annotated[str, LANG]
"""A language code; it becomes part of a sheet's file name."""
Version = Annotated[str, SEMVER]
"""A ruleset's version, compared by the variant tools."""

Labels = dict[Lang, str]
"""Text per language code, in the ruleset's language order (the first is the default)."""

# ---- values -------------------------------------------------------------------------------
#
# Each member of :data:`Value` stands alone (Number, Marker, Same) or in one of three groups,
# marked by a base class so that a reader dispatches on a whole group with one class pattern
# (``case ir.OnceCost():``). mypy removes a group's members from the union at such an arm, so
# a member added to ``Value`` outside every group is still named by every reader.


class PerDistance:
    """A group of :data:`Value`: a cost per distance whose distance is written apart
    (:class:`Rate`, :class:`ParamRate`)."""

    __slots__ = ()


class OnceCost:
    """A group of :data:`Value`: a cost paid once per move through the feature, whatever the
    distance (:class:`Flat`, :class:`Share`, :class:`StepCost`; issue 11)."""

    __slots__ = ()


class NonCost:
    """A group of :data:`Value`: a value that is never a movement cost, held by tables,
    modifiers, dice rows and worked examples (:class:`Trade`, :class:`Span`, :class:`Symbol`,
    :class:`Flag`, :class:`DiceValue`, :class:`D66Value`, :class:`Given`, :class:`Text`)."""

    __slots__ = ()


@dataclass(frozen=True)
class Number:
    """A number with an optional unit: ``3``, ``+1``, ``1.5 m``, ``45 deg``."""

    value: float
    unit: str | None = None
    signed: bool = False
    kind: Literal["number"] = "number"


@dataclass(frozen=True)
class Rate(PerDistance):
    """``amount per per``: ``1 per 2 in`` (MP per distance), ``90 deg per 1.5 m``."""

    amount: Number
    per: Number
    kind: Literal["rate"] = "rate"


@dataclass(frozen=True)
class ParamRate(PerDistance):
    """``1 per road_move``: a rate whose distance is a scenario parameter."""

    amount: Number
    param: Id
    kind: Literal["param_rate"] = "param_rate"


@dataclass(frozen=True)
class Trade(NonCost):
    """``+90 deg for -1.5 m``: a gain bought with a cost."""

    gain: Number
    cost: Number
    kind: Literal["trade"] = "trade"


@dataclass(frozen=True)
class Span(NonCost):
    """An inclusive range such as ``2-3 in``."""

    low: float
    high: float
    unit: str | None = None
    kind: Literal["span"] = "span"


MarkerKind = Literal["impassable", "prohibited", "blocked"]
"""What a :class:`Marker` says: the place cannot be entered, may not be entered, or the action is
blocked."""


@dataclass(frozen=True)
class Marker:
    """A value that is not a number: the place cannot be entered, or the action is blocked."""

    marker: MarkerKind
    kind: Literal["marker"] = "marker"


@dataclass(frozen=True)
class Symbol(NonCost):
    """A word from a table cell: ``none``, ``half``, ``any``; ``yes`` and ``no`` are Flags."""

    name: Id
    kind: Literal["symbol"] = "symbol"


@dataclass(frozen=True)
class Flag(NonCost):
    """``yes``, ``no``, or an effect named alone in a dice row (``ignites``)."""

    value: bool
    kind: Literal["flag"] = "flag"


@dataclass(frozen=True)
class DiceValue(NonCost):
    """Dice added up: ``1d6+3``, ``3d6``, ``d10`` (one die), ``d%`` (``1d100``)."""

    count: int
    sides: int
    bonus: int = 0
    kind: Literal["dice"] = "dice"


@dataclass(frozen=True)
class D66Value(NonCost):
    """``d66``: two six-sided dice read as tens and units (11 to 66, so 17 to 20 never come
    up), each of the 36 results equally likely; plus ``bonus``."""

    bonus: int = 0
    kind: Literal["d66"] = "d66"


DiceRoll = DiceValue | D66Value
"""Every way the rules roll dice."""


@dataclass(frozen=True)
class Given(NonCost):
    """``given``: a modifier's value that the rules leave to each model (a perk's +/- n),
    supplied when the module is asked: ``modifier("concealment", "perk", perk=2)``."""

    kind: Literal["given"] = "given"


@dataclass(frozen=True)
class Text(NonCost):
    """Free text kept as written (``"6 x 3 in"``)."""

    text: str
    kind: Literal["text"] = "text"


@dataclass(frozen=True)
class Same:
    """``as clear``: the value another feature has for the same mode, resolved."""

    feature: Id
    resolved: Value
    kind: Literal["same"] = "same"


# ---- costs that are not per distance (issue 11) -------------------------------------------


@dataclass(frozen=True)
class Flat(OnceCost):
    """``flat 2 in``: a cost paid once per move through the feature, whatever the distance."""

    amount: Number
    kind: Literal["flat"] = "flat"


@dataclass(frozen=True)
class Share(OnceCost):
    """``share 1/2``, ``share all`` (1/1), ``share all but 1 in``: a part of the moving
    unit's allowance (``but``: less that much, never below 0)."""

    numerator: int
    denominator: int
    but: Number | None = None
    kind: Literal["share"] = "share"


@dataclass(frozen=True)
class StepCost(OnceCost):
    """``step climb``: the cost is the step's answer for the input the caller gives."""

    step: Id
    kind: Literal["step_cost"] = "step_cost"


Value = (
    Number
    | Rate  # PerDistance
    | ParamRate  # PerDistance
    | Trade  # NonCost
    | Span  # NonCost
    | Marker
    | Symbol  # NonCost
    | Flag  # NonCost
    | DiceValue  # NonCost
    | D66Value  # NonCost
    | Given  # NonCost
    | Text  # NonCost
    | Same
    | Flat  # OnceCost
    | Share  # OnceCost
    | StepCost  # OnceCost
)
"""What a cell holds: a number, a marker, another feature's value (``as``), or a member of
one of the groups :class:`PerDistance`, :class:`OnceCost`, :class:`NonCost`."""


PlaceState = Literal["may_not_end", "must_stop"]
"""A place between passable and impassable (maps, issue 11): a unit ``may_not_end`` its move
there (it may move through), or ``must_stop`` on entering it."""

PLACE_STATES: tuple[PlaceState, ...] = ("may_not_end", "must_stop")


@dataclass(frozen=True)
class PairValue:
    """``a & b value`` in a cell of a modifier keyed by two contexts (``by x, y``): the value
    when the first context is ``first`` and the second is ``second``."""

    first: Id
    second: Id
    value: Value


@dataclass(frozen=True)
class Cell:
    """One cell as written: a value for everyone, then the exceptions by mode, group or context,
    then the combinations of two context values (``pairs``, modifiers keyed by two contexts; in
    a roll cell, a kind of move, ``first``, and a unit type or keyword, ``second``: issue 40).

    Cost cells may also carry, per entry (key ``""``: the entry for everyone), a place state
    written after the value (``states``) and ``along`` values of an edge feature (``along``).
    """

    default: Value | None = None
    exceptions: dict[Id, Value] = field(default_factory=dict)
    pairs: tuple[PairValue, ...] = ()
    states: dict[str, PlaceState] = field(default_factory=dict)
    along: dict[str, Value] = field(default_factory=dict)


# ---- shared item metadata -----------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """Where a number comes from: a declared book, a page, and an optional detail."""

    book: Id
    page: str | None = None
    detail: str | None = None


@dataclass(frozen=True)
class Info:
    """Labels, notes and source reference carried by any named item."""

    labels: Labels = field(default_factory=dict)
    notes: tuple[Labels, ...] = ()
    source: Source | None = None
    remarks: tuple[str, ...] = ()
    """Words for programmers (``remark "..."``): in the generated module's docstring, never
    on a sheet or a card."""
    note_for: tuple[tuple[Id, ...], ...] = ()
    """Per note, in order, the unit types or keywords it concerns (``note for mech "..."``;
    empty: all); empty altogether when no note is for some. A per-mode deck keeps a note for
    all and the notes for its unit type or one of its keywords."""


@dataclass(frozen=True)
class Named:
    """A declared item of the ruleset: its name (``id``) and its labels, notes and source
    reference (``info``)."""

    id: NewId
    info: Info


StepTermKind = Literal["rate", "floor", "impassable", "free"]
"""The word of each term of :data:`StepTerm` (its ``kind``), as a variant's path names it."""
StepField = Literal["amount", "per", "at"]
"""A parameter of a step's term that a variant can override (``climb.rate.per``)."""
