"""The intermediate representation: one plain, ordered, serialisable value per ruleset.

Backends read only these classes. Every class is a frozen dataclass whose fields are plain data
(str, int, float, bool, tuples, dicts with string keys, or other IR classes), so the whole IR
round-trips through JSON (see :mod:`rulesdsl.ir.serial`) and is described by the JSON Schema that
:mod:`rulesdsl.ir.schema` derives from these annotations.

Values are a tagged union: each value class has a ``kind`` field fixed to its own literal.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Literal

from rulesdsl.ir.arith import Arith as Arith
from rulesdsl.ir.arith import ArithBinary as ArithBinary
from rulesdsl.ir.arith import ArithCall as ArithCall
from rulesdsl.ir.arith import ArithDecision as ArithDecision
from rulesdsl.ir.arith import ArithFunction as ArithFunction
from rulesdsl.ir.arith import ArithInput as ArithInput
from rulesdsl.ir.arith import ArithNumber as ArithNumber
from rulesdsl.ir.arith import ArithOp as ArithOp
from rulesdsl.ir.arith import ArithOperand as ArithOperand
from rulesdsl.ir.arith import ArithStep as ArithStep
from rulesdsl.ir.arith import Rounding as Rounding
from rulesdsl.ir.changes import AllowancePath as AllowancePath
from rulesdsl.ir.changes import Change as Change
from rulesdsl.ir.changes import ChangeAction as ChangeAction
from rulesdsl.ir.changes import ChangePath as ChangePath
from rulesdsl.ir.changes import ColumnPath as ColumnPath
from rulesdsl.ir.changes import CombinationPath as CombinationPath
from rulesdsl.ir.changes import CostPath as CostPath
from rulesdsl.ir.changes import DecisionRowPath as DecisionRowPath
from rulesdsl.ir.changes import DiceModifierPath as DiceModifierPath
from rulesdsl.ir.changes import DiceRangePath as DiceRangePath
from rulesdsl.ir.changes import DiceRowPath as DiceRowPath
from rulesdsl.ir.changes import ExamplePath as ExamplePath
from rulesdsl.ir.changes import FactorPath as FactorPath
from rulesdsl.ir.changes import HeaderLine as HeaderLine
from rulesdsl.ir.changes import HeaderPath as HeaderPath
from rulesdsl.ir.changes import LabelPath as LabelPath
from rulesdsl.ir.changes import MoveField as MoveField
from rulesdsl.ir.changes import MovePath as MovePath
from rulesdsl.ir.changes import NamePath as NamePath
from rulesdsl.ir.changes import NotePath as NotePath
from rulesdsl.ir.changes import ParamPath as ParamPath
from rulesdsl.ir.changes import PolicyPart as PolicyPart
from rulesdsl.ir.changes import PolicyPath as PolicyPath
from rulesdsl.ir.changes import SightField as SightField
from rulesdsl.ir.changes import SightPath as SightPath
from rulesdsl.ir.changes import StepPath as StepPath
from rulesdsl.ir.changes import TableCellPath as TableCellPath
from rulesdsl.ir.changes import TableColumnPath as TableColumnPath
from rulesdsl.ir.changes import TableRowPath as TableRowPath
from rulesdsl.ir.changes import TriggerField as TriggerField
from rulesdsl.ir.changes import TriggerPath as TriggerPath
from rulesdsl.ir.examples import Ask as Ask
from rulesdsl.ir.examples import Example as Example
from rulesdsl.ir.examples import ExampleArg as ExampleArg
from rulesdsl.ir.examples import Question as Question
from rulesdsl.ir.movement import Arc as Arc
from rulesdsl.ir.movement import Arcs as Arcs
from rulesdsl.ir.movement import ArcUnit as ArcUnit
from rulesdsl.ir.movement import Drift as Drift
from rulesdsl.ir.movement import DriftEntry as DriftEntry
from rulesdsl.ir.movement import Facing as Facing
from rulesdsl.ir.movement import FacingMove as FacingMove
from rulesdsl.ir.movement import FreeFacing as FreeFacing
from rulesdsl.ir.movement import Grid as Grid
from rulesdsl.ir.movement import GridShape as GridShape
from rulesdsl.ir.movement import Manoeuvre as Manoeuvre
from rulesdsl.ir.movement import MoveKind as MoveKind
from rulesdsl.ir.movement import RollCombine as RollCombine
from rulesdsl.ir.movement import RollRule as RollRule
from rulesdsl.ir.movement import RollWhen as RollWhen
from rulesdsl.ir.movement import State as State
from rulesdsl.ir.movement import StateChange as StateChange
from rulesdsl.ir.movement import StateRange as StateRange
from rulesdsl.ir.movement import TurnMode as TurnMode
from rulesdsl.ir.movement import WholeMove as WholeMove
from rulesdsl.ir.tables import Axis as Axis
from rulesdsl.ir.tables import Bound as Bound
from rulesdsl.ir.tables import CellOperand as CellOperand
from rulesdsl.ir.tables import CellRef as CellRef
from rulesdsl.ir.tables import CellTruth as CellTruth
from rulesdsl.ir.tables import Column as Column
from rulesdsl.ir.tables import ColumnBound as ColumnBound
from rulesdsl.ir.tables import CompareOp as CompareOp
from rulesdsl.ir.tables import Comparison as Comparison
from rulesdsl.ir.tables import Condition as Condition
from rulesdsl.ir.tables import Decision as Decision
from rulesdsl.ir.tables import DecisionRow as DecisionRow
from rulesdsl.ir.tables import DiceModifier as DiceModifier
from rulesdsl.ir.tables import DiceRow as DiceRow
from rulesdsl.ir.tables import DiceTable as DiceTable
from rulesdsl.ir.tables import InputOperand as InputOperand
from rulesdsl.ir.tables import InputTruth as InputTruth
from rulesdsl.ir.tables import Limit as Limit
from rulesdsl.ir.tables import LimitValue as LimitValue
from rulesdsl.ir.tables import LiteralOperand as LiteralOperand
from rulesdsl.ir.tables import NaturalRow as NaturalRow
from rulesdsl.ir.tables import NoLimit as NoLimit
from rulesdsl.ir.tables import Operand as Operand
from rulesdsl.ir.tables import Outcome as Outcome
from rulesdsl.ir.tables import Param as Param
from rulesdsl.ir.tables import RateBound as RateBound
from rulesdsl.ir.tables import Reading as Reading
from rulesdsl.ir.tables import ResultColumn as ResultColumn
from rulesdsl.ir.tables import ResultRow as ResultRow
from rulesdsl.ir.tables import ResultsTable as ResultsTable
from rulesdsl.ir.tables import Row as Row
from rulesdsl.ir.tables import ScaleOp as ScaleOp
from rulesdsl.ir.tables import Table as Table
from rulesdsl.ir.tables import YesNo as YesNo
from rulesdsl.ir.values import IDENT as IDENT
from rulesdsl.ir.values import LANG as LANG
from rulesdsl.ir.values import PLACE_STATES as PLACE_STATES
from rulesdsl.ir.values import SEMVER as SEMVER
from rulesdsl.ir.values import Cell as Cell
from rulesdsl.ir.values import D66Value as D66Value
from rulesdsl.ir.values import Declares as Declares
from rulesdsl.ir.values import DiceRoll as DiceRoll
from rulesdsl.ir.values import DiceValue as DiceValue
from rulesdsl.ir.values import Flag as Flag
from rulesdsl.ir.values import Flat as Flat
from rulesdsl.ir.values import Given as Given
from rulesdsl.ir.values import Id as Id
from rulesdsl.ir.values import Info as Info
from rulesdsl.ir.values import Labels as Labels
from rulesdsl.ir.values import Lang as Lang
from rulesdsl.ir.values import Marker as Marker
from rulesdsl.ir.values import MarkerKind as MarkerKind
from rulesdsl.ir.values import Named as Named
from rulesdsl.ir.values import NewId as NewId
from rulesdsl.ir.values import NonCost as NonCost
from rulesdsl.ir.values import Number as Number
from rulesdsl.ir.values import OnceCost as OnceCost
from rulesdsl.ir.values import PairValue as PairValue
from rulesdsl.ir.values import ParamRate as ParamRate
from rulesdsl.ir.values import Pattern as Pattern
from rulesdsl.ir.values import PerDistance as PerDistance
from rulesdsl.ir.values import PlaceState as PlaceState
from rulesdsl.ir.values import Rate as Rate
from rulesdsl.ir.values import Same as Same
from rulesdsl.ir.values import Share as Share
from rulesdsl.ir.values import Source as Source
from rulesdsl.ir.values import Span as Span
from rulesdsl.ir.values import StepCost as StepCost
from rulesdsl.ir.values import StepField as StepField
from rulesdsl.ir.values import StepTermKind as StepTermKind
from rulesdsl.ir.values import Symbol as Symbol
from rulesdsl.ir.values import Text as Text
from rulesdsl.ir.values import Trade as Trade
from rulesdsl.ir.values import Value as Value
from rulesdsl.ir.values import Version as Version

if TYPE_CHECKING:
    from dataclasses import dataclass
else:  # the same decorator, its methods' bytecode kept between runs (issue 29)
    from rulesdsl.ir.records import dataclass


# ---- declarations -------------------------------------------------------------------------


@dataclass(frozen=True)
class Book(Named):  # a book the ruleset's sources cite (no docstring: none in the schema)
    pass


@dataclass(frozen=True)
class Mode(Named):
    keywords: tuple[Id, ...] = ()
    """``mode NAME : g1, g2``: the groups the mode names as its keywords (it is a member of
    each; :attr:`Group.members` lists it too)."""
    allowance: float | None = None
    """``mode NAME allowance 6 in``: the unit type's own allowance in the cost unit, which the
    routes and ``reachable`` use when the caller gives none (None: the caller must)."""


@dataclass(frozen=True)
class Group(Named):
    members: tuple[Id, ...]


@dataclass(frozen=True)
class Precedence:
    """``precedence a, b, ...``: when groups a and b both give a mode a value in a cell, a's
    wins (and so on down the line); its notes say why."""

    groups: tuple[Id, ...]
    info: Info


@dataclass(frozen=True)
class ContextValue(Named):  # a value of a context (``context weapon : energy, ballistic``)
    pass


@dataclass(frozen=True)
class Context(Named):
    """What a modifier can be keyed by (``by weapon``). ``of_modes``: the built-in context
    ``mode`` of a ruleset that declares none of that name, whose values are its modes."""

    values: tuple[ContextValue, ...]
    of_modes: bool = False


@dataclass(frozen=True)
class Feature:
    """A terrain feature, condition or weather: a row of a layer.

    ``cells`` holds the columns as written (``cost`` and any modifier columns); ``costs`` is the
    movement cost per mode, resolved (defaults, groups and ``as`` applied), per distance unit.
    """

    id: NewId
    layer: Id
    info: Info
    cells: dict[Id, Cell]
    costs: dict[Id, Value]
    ignores_others: bool = False
    states: dict[Id, PlaceState] = field(default_factory=dict)
    """Per mode, resolved like ``costs``: the place state of a place with this feature (modes
    with none are left out)."""
    along: dict[Id, float] = field(default_factory=dict)
    """Per mode, for a feature of an edge layer: what the place entered costs instead, per
    distance unit, when the step crosses an edge with this feature (modes with none left out)."""
    precedence: tuple[Id, ...] = ()
    """``precedence infantry, fly`` on the feature's row (issue 40): the order of keywords for
    its own cells, before its layer's and the ruleset's (:func:`rulesdsl.semantics.place_order`);
    empty when the row names none."""


LayerScope = Literal["many", "one", "map", "edges"]
"""How many features of a layer a place holds (``many``, ``one``), or whether they cover the whole
map (``map``) or stand on its edges (``edges``)."""


@dataclass(frozen=True)
class Layer(Named):
    scope: LayerScope
    """``edges``: the features stand on the edges between places (hexsides), paid on crossing."""
    columns: tuple[Id, ...]
    features: tuple[Id, ...]
    precedence: tuple[Id, ...] = ()
    """``layer ruins "Ruins" precedence infantry, fly {`` (issue 40): the order of keywords for
    the cells of the layer's features, before the ruleset's; empty when the layer names none."""


@dataclass(frozen=True)
class Factor(Named):
    """A row of a modifier block: something that adds to the modifier by itself."""

    cell: Cell


@dataclass(frozen=True)
class Combination:
    """``when a, b``: the value when all the named factors or features are present together."""

    members: tuple[Id, ...]
    value: Value
    info: Info


@dataclass(frozen=True)
class Band:
    """``when altitude above 6 | +1``: the value while the state is above (or below) the bound."""

    state: Id
    side: Literal["below", "above"]
    bound: int
    value: Value
    info: Info


Combine = Literal["sum", "highest", "lowest", "once"]
"""How a modifier's contributions combine: added up; only the highest counts; only the lowest
counts; added up with each named source counted once however often it is given."""


@dataclass(frozen=True)
class Clamp:
    """``clamp low to high``: the bounds of a modifier's total."""

    low: float
    high: float


BestCombine = Literal["highest", "lowest"]
"""Which value of a best group counts: the highest or the lowest."""


@dataclass(frozen=True)
class BestGroup:
    """``best NAME combine lowest : a, b`` inside a modifier: of the members present, only the
    best value (``combine``) counts, added to the others' by the modifier's policy (issue 25:
    "light cover -1, hard cover -2, only the best counts", then summed with range)."""

    id: str
    info: Info
    combine: BestCombine
    members: tuple[Id, ...]


@dataclass(frozen=True)
class SightFactor:
    """``sight NAME : rule`` inside a modifier: a factor whose value is the sight rule's
    hindrance along the line the caller gives for it, or ``blocked`` when that line is (issue
    40, item 7: "+1 to hit per hex of woods in between; no line of sight at 3")."""

    id: str
    info: Info
    rule: Id


@dataclass(frozen=True)
class Modifier(Named):
    """A summed modifier such as to-hit, with per-item values resolved by context value.

    ``values[item][key]``: the contribution of ``item`` (a feature or factor); key ``""`` is
    the value whatever the context, other keys are values of the modifier's context (for the
    built-in context of modes, see :attr:`Context.of_modes`, groups are already expanded to
    their members).
    """

    context: Id | None
    factors: tuple[Factor, ...]
    combinations: tuple[Combination, ...]
    values: dict[Id, dict[str, Value]]
    combine: Combine = "sum"
    clamp: Clamp | None = None
    context2: Id | None = None
    """``by a, b``: the second context; ``values`` then holds the single values of both
    contexts (their value names are distinct) and ``pairs`` the combinations."""
    pairs: dict[Id, tuple[PairValue, ...]] = field(default_factory=dict)
    """Per item: the values for a combination of a first- and a second-context value (groups
    of the built-in mode context expanded to their members)."""
    best: tuple[BestGroup, ...] = ()
    """Groups of items of which only the best value counts (``best`` lines)."""
    sights: tuple[SightFactor, ...] = ()
    """Factors whose value a sight rule gives along a line (``sight`` lines)."""
    bands: tuple[Band, ...] = ()
    """``when altitude above 6 | +1`` (issue 40): values while the unit's state is in a band."""


@dataclass(frozen=True)
class RateTerm:
    """``+1 per full 4 in``: ``amount`` per ``every`` of the input (``full``: only whole
    multiples count); with ``above``, only the part of the input above that threshold counts
    (issue 11)."""

    amount: float
    every: float = 1
    full: bool = False
    above: float | None = None
    kind: Literal["rate"] = "rate"


@dataclass(frozen=True)
class FloorTerm:
    """``at least 1 from 2 in``: at least ``amount`` once the input reaches ``at``
    (``strict``: exceeds it)."""

    amount: float
    at: float
    strict: bool = False
    kind: Literal["floor"] = "floor"


@dataclass(frozen=True)
class ImpassableTerm:
    """``impassable from 3 in``: the answer is impassable once the input reaches ``at``
    (``strict``: exceeds it)."""

    at: float
    strict: bool = False
    kind: Literal["impassable"] = "impassable"


@dataclass(frozen=True)
class FreeTerm:
    """``free up to 2 in``: the answer is 0 while the input is at most ``at`` (issue 11)."""

    at: float
    kind: Literal["free"] = "free"


StepTerm = RateTerm | FloorTerm | ImpassableTerm | FreeTerm
"""One term of a step function."""


@dataclass(frozen=True)
class Step(Named):
    param: NewId
    param_unit: str
    result_unit: str | None
    terms: tuple[StepTerm, ...]


SightCounts = Literal["between", "target", "both"]
SightBound = Literal["at", "above"]
"""How a sight rule's total is compared with ``blocks_at``: ``at`` (that total or more
blocks), ``above`` (only a total greater than it, `blocks above 2`, issue 40)."""
"""Which places of a line of sight count."""


@dataclass(frozen=True)
class Sight(Named):
    """A line-of-sight rule: a layer column whose values add up along a line of places.

    ``counts``: which places of the line count (``between``: only the places between the
    firer's and the target's; ``target``: those and the target's; ``both``: those and both
    ends). The line is blocked once the total reaches ``blocks_at`` (None: only a ``blocked``
    cell blocks), or passes it when ``blocks_when`` is ``above``, or when a counted place holds
    a feature whose value is ``blocked``.
    ``crossed``: the unit in which the caller gives the length of line inside each place; a
    cell that is a step answers for that length (None: no cell is a step).
    ``target_inside`` (``counts between, target inside``): the target's own place adds to the
    hindrance (the target is inside it) but not to the total that ``blocks_at`` tests (what
    the line is seen through). A cell may be keyed by unit type or keyword (``2, fly 0``):
    the viewer's unit type picks its value as for costs (:func:`rulesdsl.semantics.written_cost`).
    """

    blocks_at: float | None
    counts: SightCounts
    crossed: str | None = None
    target_inside: bool = False
    blocks_when: SightBound = "at"
    state: tuple[Id, Literal["below", "above"], int] | None = None
    """``when altitude below 5`` (issue 40): the rule counts only while the viewer's state is
    in the band; elsewhere the line is open and every place counts 0."""


@dataclass(frozen=True)
class Trigger(Named):
    """When it happens: optionally a check roll (``check`` at least ``at_least``), then
    ``times`` rolls on ``table`` with the dice modifier ``modifier``."""

    table: Id
    check: DiceRoll | None = None
    at_least: int | None = None
    modifier: Id | None = None
    times: int = 1
    more_modifiers: tuple[Id, ...] = ()
    """``with a, b, c``: the dice modifiers after ``modifier``, all added to the roll."""


@dataclass(frozen=True)
class Exclusion:
    """``subject`` cannot be combined with any of ``others``; combining them warns."""

    subject: Id
    others: tuple[Id, ...]
    info: Info


@dataclass(frozen=True)
class ScenarioParam(Named):
    """A value a scenario or house rule fills in; ``value`` is None while unfilled."""

    unit: str
    value: Value | None = None


@dataclass(frozen=True)
class Ancestor:
    """One link of the extends chain."""

    id: Id
    version: Version
    digest: str


Stacking = Literal["sum"]
"""How the costs of a place's layers stack: added up."""


@dataclass(frozen=True)
class Ruleset:
    id: Id
    info: Info
    version: Version
    digest: str
    languages: tuple[Lang, ...]
    units: dict[str, str]
    stacking: Stacking = "sum"
    entry_cost: float = 0
    minimum_move: Number | None = None
    extends: tuple[Ancestor, ...] = ()
    changes: tuple[Change, ...] = ()
    books: tuple[Book, ...] = ()
    modes: tuple[Mode, ...] = ()
    groups: tuple[Group, ...] = ()
    contexts: tuple[Context, ...] = ()
    layers: tuple[Layer, ...] = ()
    features: tuple[Feature, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    steps: tuple[Step, ...] = ()
    decisions: tuple[Decision, ...] = ()
    tables: tuple[Table, ...] = ()
    dice_tables: tuple[DiceTable, ...] = ()
    triggers: tuple[Trigger, ...] = ()
    exclusions: tuple[Exclusion, ...] = ()
    grids: tuple[Grid, ...] = ()
    params: tuple[ScenarioParam, ...] = ()
    precedence: tuple[Precedence, ...] = ()
    """``precedence a, b, ...`` lines: when groups both give a value in a cell, the one
    listed first wins (the order is the transitive closure of every line)."""
    sights: tuple[Sight, ...] = ()
    results_tables: tuple[ResultsTable, ...] = ()
    examples: tuple[Example, ...] = ()
    facings: tuple[Facing, ...] = ()
    """``facing MODE on GRID : ...`` rules (issue 24), one per unit type at most."""
    moves: tuple[MoveKind, ...] = ()
    """Kinds of move (issue 24), in the order written."""
    rolls: tuple[RollRule, ...] = ()
    """Rolls the map makes due (issue 24), in the order written."""
    arcs: tuple[Arcs, ...] = ()
    """Named arcs around a unit's facing (issue 40), in the order written."""
    whole_moves: tuple[WholeMove, ...] = ()
    """Conditions on the whole route (issue 40), in the order written."""
    edition: str = "2026.12"
    """The edition of the language the ruleset is read in (:mod:`rulesdsl.editions`); a file
    without ``edition`` is read as the first, a ruleset built by hand as the current one."""
    free_facings: tuple[FreeFacing, ...] = ()
    """``facing MODE : turn 1 in per 45 deg, ...`` rules (issue 40): headings off the grid."""
    states: tuple[State, ...] = ()
    """``state`` lines (issue 40): what a unit carries from move to move, in the order written."""
    drifts: tuple[Drift, ...] = ()
    """The ``drift`` line (issue 40; at most one): the wind carries units at the end of a move."""


def infos_by_id(rs: Ruleset) -> dict[str, Info]:
    """The labels, notes and source of every named item of ``rs``, by id. Ids are one
    namespace, but a factor and a feature may share one: earlier kinds win (features and
    factors name most things)."""
    infos: dict[str, Info] = {}
    for items in (
        rs.features,
        [f for m in rs.modifiers for f in m.factors],
        rs.modes,
        rs.groups,
        [v for c in rs.contexts for v in c.values],
        rs.layers,
        rs.modifiers,
        rs.tables,
        rs.dice_tables,
        rs.steps,
        rs.decisions,
        rs.params,
        rs.contexts,
        rs.books,
        rs.grids,
        rs.triggers,
        [m for d in rs.dice_tables for m in d.modifiers],
        rs.sights,
        rs.results_tables,
        [m for d in rs.results_tables for m in d.modifiers],
        [c for d in rs.results_tables for c in d.columns],
        rs.moves,
        rs.rolls,
        rs.arcs,
        rs.whole_moves,
        rs.states,
        rs.drifts,
        [r for d in rs.dice_tables for r in d.rows],  # outcomes that feed a modifier (issue 24)
    ):
        for item in items:
            infos.setdefault(item.id, item.info)
    return infos
