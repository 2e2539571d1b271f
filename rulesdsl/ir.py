"""The intermediate representation: one plain, ordered, serialisable value per ruleset.

Backends read only these classes. Every class is a frozen dataclass whose fields are plain data
(str, int, float, bool, tuples, dicts with string keys, or other IR classes), so the whole IR
round-trips through JSON (see :mod:`rulesdsl.serial`) and is described by the JSON Schema that
:mod:`rulesdsl.schema` derives from these annotations.

Values are a tagged union: each value class has a ``kind`` field fixed to its own literal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal


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


@dataclass(frozen=True)
class Number:
    """A number with an optional unit: ``3``, ``+1``, ``1.5 m``, ``45 deg``."""

    value: float
    unit: str | None = None
    signed: bool = False
    kind: Literal["number"] = "number"


@dataclass(frozen=True)
class Rate:
    """``amount per per``: ``1 per 2 in`` (MP per distance), ``90 deg per 1.5 m``."""

    amount: Number
    per: Number
    kind: Literal["rate"] = "rate"


@dataclass(frozen=True)
class ParamRate:
    """``1 per road_move``: a rate whose distance is a scenario parameter."""

    amount: Number
    param: Id
    kind: Literal["param_rate"] = "param_rate"


@dataclass(frozen=True)
class Trade:
    """``+90 deg for -1.5 m``: a gain bought with a cost."""

    gain: Number
    cost: Number
    kind: Literal["trade"] = "trade"


@dataclass(frozen=True)
class Span:
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
class Symbol:
    """A word from a table cell: ``none``, ``half``, ``any``; ``yes`` and ``no`` are Flags."""

    name: Id
    kind: Literal["symbol"] = "symbol"


@dataclass(frozen=True)
class Flag:
    """``yes``, ``no``, or an effect named alone in a dice row (``ignites``)."""

    value: bool
    kind: Literal["flag"] = "flag"


@dataclass(frozen=True)
class DiceValue:
    """Dice added up: ``1d6+3``, ``3d6``, ``d10`` (one die), ``d%`` (``1d100``)."""

    count: int
    sides: int
    bonus: int = 0
    kind: Literal["dice"] = "dice"


@dataclass(frozen=True)
class D66Value:
    """``d66``: two six-sided dice read as tens and units (11 to 66, so 17 to 20 never come
    up), each of the 36 results equally likely; plus ``bonus``."""

    bonus: int = 0
    kind: Literal["d66"] = "d66"


DiceRoll = DiceValue | D66Value
"""Every way the rules roll dice."""


@dataclass(frozen=True)
class Given:
    """``given``: a modifier's value that the rules leave to each model (a perk's +/- n),
    supplied when the module is asked: ``modifier("concealment", "perk", perk=2)``."""

    kind: Literal["given"] = "given"


@dataclass(frozen=True)
class Text:
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
class Flat:
    """``flat 2 in``: a cost paid once per move through the feature, whatever the distance."""

    amount: Number
    kind: Literal["flat"] = "flat"


@dataclass(frozen=True)
class Share:
    """``share 1/2``, ``share all`` (1/1), ``share all but 1 in``: a part of the moving
    unit's allowance (``but``: less that much, never below 0)."""

    numerator: int
    denominator: int
    but: Number | None = None
    kind: Literal["share"] = "share"


@dataclass(frozen=True)
class StepCost:
    """``step climb``: the cost is the step's answer for the input the caller gives."""

    step: Id
    kind: Literal["step_cost"] = "step_cost"


Value = (
    Number
    | Rate
    | ParamRate
    | Trade
    | Span
    | Marker
    | Symbol
    | Flag
    | DiceValue
    | D66Value
    | Given
    | Text
    | Same
    | Flat
    | Share
    | StepCost
)


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
    then the combinations of two context values (``pairs``, modifiers keyed by two contexts).

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


# ---- declarations -------------------------------------------------------------------------


@dataclass(frozen=True)
class Book:
    id: NewId
    info: Info


@dataclass(frozen=True)
class Mode:
    id: NewId
    info: Info
    keywords: tuple[Id, ...] = ()
    """``mode NAME : g1, g2``: the groups the mode names as its keywords (it is a member of
    each; :attr:`Group.members` lists it too)."""


@dataclass(frozen=True)
class Group:
    id: NewId
    info: Info
    members: tuple[Id, ...]


@dataclass(frozen=True)
class Precedence:
    """``precedence a, b, ...``: when groups a and b both give a mode a value in a cell, a's
    wins (and so on down the line); its notes say why."""

    groups: tuple[Id, ...]
    info: Info


@dataclass(frozen=True)
class ContextValue:
    id: NewId
    info: Info


@dataclass(frozen=True)
class Context:
    """What a modifier can be keyed by (``by weapon``). ``of_modes``: the built-in context
    ``mode`` of a ruleset that declares none of that name, whose values are its modes."""

    id: NewId
    info: Info
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


LayerScope = Literal["many", "one", "map", "edges"]
"""How many features of a layer a place holds (``many``, ``one``), or whether they cover the whole
map (``map``) or stand on its edges (``edges``)."""


@dataclass(frozen=True)
class Layer:
    id: NewId
    info: Info
    scope: LayerScope
    """``edges``: the features stand on the edges between places (hexsides), paid on crossing."""
    columns: tuple[Id, ...]
    features: tuple[Id, ...]


@dataclass(frozen=True)
class Factor:
    """A row of a modifier block: something that adds to the modifier by itself."""

    id: NewId
    info: Info
    cell: Cell


@dataclass(frozen=True)
class Combination:
    """``when a, b``: the value when all the named factors or features are present together."""

    members: tuple[Id, ...]
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


@dataclass(frozen=True)
class Modifier:
    """A summed modifier such as to-hit, with per-item values resolved by context value.

    ``values[item][key]``: the contribution of ``item`` (a feature or factor); key ``""`` is
    the value whatever the context, other keys are values of the modifier's context (for the
    built-in context of modes, see :attr:`Context.of_modes`, groups are already expanded to
    their members).
    """

    id: NewId
    info: Info
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

StepTermKind = Literal["rate", "floor", "impassable", "free"]
"""The word of each term of :data:`StepTerm` (its ``kind``), as a variant's path names it."""
StepField = Literal["amount", "per", "at"]
"""A parameter of a step's term that a variant can override (``climb.rate.per``)."""


@dataclass(frozen=True)
class Step:
    id: NewId
    info: Info
    param: NewId
    param_unit: str
    result_unit: str | None
    terms: tuple[StepTerm, ...]


Axis = Literal["row", "column"]
"""What a key input names in its table."""
CompareOp = Literal["<", "<=", ">", ">=", "=", "!="]


@dataclass(frozen=True)
class Param:
    """A named input of a decision or step, with its unit (``bool`` for yes/no inputs).

    ``key_of``: the input names a key of that plain table; its unit is then ``key`` and
    ``axis`` says whether the key is a ``row`` or a ``column`` of the table.
    """

    name: NewId
    unit: str
    key_of: Id | None = None
    axis: Axis | None = None


# ---- table cells as bounds in decisions ---------------------------------------------------


@dataclass(frozen=True)
class Bound:
    """A cell read as a number: a number, a trade's gain, `none` (0) or `no` (0)."""

    value: float
    kind: Literal["bound"] = "bound"


@dataclass(frozen=True)
class RateBound:
    """A rate cell: ``value`` for every ``per`` of the distance the reference scales with."""

    value: float
    per: float
    kind: Literal["rate_bound"] = "rate_bound"


@dataclass(frozen=True)
class NoLimit:
    """`any` or `yes`: no bound at all."""

    kind: Literal["no_limit"] = "no_limit"


@dataclass(frozen=True)
class YesNo:
    """A cell read as yes or no."""

    value: bool
    kind: Literal["yes_no"] = "yes_no"


LimitValue = Bound | RateBound | NoLimit | YesNo


@dataclass(frozen=True)
class Limit:
    """What one table cell means in a decision, for one key the selecting input may take
    (``key_number`` for numeric row keys)."""

    key: str
    bound: LimitValue
    key_number: float | None = None


Reading = Literal["number", "rate", "yes_no"]
"""How a decision reads a table cell: as a number, as a rate scaled by a distance, or as yes/no."""


@dataclass(frozen=True)
class CellRef:
    """A table cell picked by a decision input.

    ``axis``: what the input names, a ``column`` (``table[input].row``: ``line`` is the row) or
    a ``row`` (``table.column[input]``: ``line`` is the column; ``table[input]`` on a
    one-column table: ``line`` is None). ``reading``: the cells as numbers, as rates scaled by
    the distance input ``over`` (``full``: whole multiples only), or as yes/no. ``limits``
    holds each cell resolved by the compiler, one per key.
    """

    table: Id
    input: Id
    axis: Axis
    line: Id | None
    reading: Reading
    limits: tuple[Limit, ...]
    over: Id | None = None
    full: bool = False


# ---- decision conditions ------------------------------------------------------------------


ScaleOp = Literal["*", "/"]
"""How a decision input is scaled: ``size * 2``, ``size / 2``."""


@dataclass(frozen=True)
class InputOperand:
    """An input of the decision, optionally scaled: ``size / 2``."""

    input: Id
    scale_op: ScaleOp | None = None
    scale: float = 1
    kind: Literal["input"] = "input"


@dataclass(frozen=True)
class LiteralOperand:
    """A number written in the condition."""

    value: float
    unit: str | None = None
    kind: Literal["literal"] = "literal"


@dataclass(frozen=True)
class CellOperand:
    """A table cell picked by an input: ``flight[class].turn over distance``."""

    cell: CellRef
    kind: Literal["cell"] = "cell"


Operand = InputOperand | LiteralOperand | CellOperand


@dataclass(frozen=True)
class Comparison:
    """Two numbers compared: ``distance <= size``."""

    left: Operand
    op: CompareOp
    right: Operand
    kind: Literal["compare"] = "compare"


@dataclass(frozen=True)
class InputTruth:
    """A yes/no input that holds (``hidden``) or does not (``not hidden``)."""

    input: Id
    holds: bool = True
    kind: Literal["input_truth"] = "input_truth"


@dataclass(frozen=True)
class CellTruth:
    """A yes/no table cell picked by an input, that holds or does not."""

    cell: CellRef
    holds: bool = True
    kind: Literal["cell_truth"] = "cell_truth"


Condition = Comparison | InputTruth | CellTruth


@dataclass(frozen=True)
class Outcome:
    """A result of a decision; ``value`` when it stands for a modifier factor."""

    id: Id
    info: Info
    value: Value | None = None


@dataclass(frozen=True)
class DecisionRow:
    """All ``conditions`` hold (an empty tuple: otherwise) -> ``outcome``."""

    conditions: tuple[Condition, ...]
    outcome: Id
    info: Info


@dataclass(frozen=True)
class Decision:
    id: NewId
    info: Info
    params: tuple[Param, ...]
    result: Id | None
    rows: tuple[DecisionRow, ...]
    outcomes: tuple[Outcome, ...]


@dataclass(frozen=True)
class Column:
    id: Id
    info: Info


@dataclass(frozen=True)
class Row:
    """A row of a plain table: keyed by a name or by a number (``key_number``)."""

    key: str
    info: Info
    cells: tuple[Value | None, ...]
    key_number: float | None = None
    key_unit: str | None = None


@dataclass(frozen=True)
class Table:
    """A plain table. One column: ``lookup(table, row)``; more: ``lookup(table, column, row)``."""

    id: NewId
    info: Info
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class DiceModifier:
    id: NewId
    info: Info
    value: int


@dataclass(frozen=True)
class DiceRow:
    """Totals ``low``..``high`` (``None``: open-ended on that side) -> an outcome with effects."""

    id: Id
    info: Info
    low: int | None
    high: int | None
    effects: dict[Id, Value]


@dataclass(frozen=True)
class DiceTable:
    id: NewId
    info: Info
    dice: DiceRoll
    modifiers: tuple[DiceModifier, ...]
    rows: tuple[DiceRow, ...]


# ---- results tables and line of sight (issue 11, items 9 and 10) ----------------------------


ColumnBound = Literal["up_to", "above"]
"""How a results table column bounds its input."""


@dataclass(frozen=True)
class ResultColumn:
    """A column of a results table, chosen by the table's input: ``up to`` ``value`` (the
    input at most ``value``, above the previous column's bound) or ``above`` ``value``."""

    id: NewId
    info: Info
    bound: ColumnBound
    value: float


@dataclass(frozen=True)
class NaturalRow:
    """``natural N outcome``: when the dice show ``roll`` before any modifier, the outcome
    is ``outcome`` whatever the column and the total."""

    roll: int
    outcome: Id
    info: Info


@dataclass(frozen=True)
class ResultRow:
    """Totals ``low``..``high`` (``None``: open-ended) -> one outcome per column."""

    low: int | None
    high: int | None
    outcomes: tuple[Id, ...]
    info: Info


@dataclass(frozen=True)
class ResultsTable:
    """A results table: the column picked by the value of ``by`` (odds, firepower), the row
    by the modified total, natural rows tested first on the natural roll."""

    id: NewId
    info: Info
    dice: DiceRoll
    by: Id
    columns: tuple[ResultColumn, ...]
    outcomes: tuple[Outcome, ...]
    naturals: tuple[NaturalRow, ...]
    rows: tuple[ResultRow, ...]
    modifiers: tuple[DiceModifier, ...] = ()


SightCounts = Literal["between", "target", "both"]
"""Which places of a line of sight count."""


@dataclass(frozen=True)
class Sight:
    """A line-of-sight rule: a layer column whose values add up along a line of places.

    ``counts``: which places of the line count (``between``: only the places between the
    firer's and the target's; ``target``: those and the target's; ``both``: those and both
    ends). The line is blocked once the total reaches ``blocks_at`` (None: only a ``blocked``
    cell blocks) or when a counted place holds a feature whose value is ``blocked``.
    ``crossed``: the unit in which the caller gives the length of line inside each place; a
    cell that is a step answers for that length (None: no cell is a step).
    """

    id: NewId
    info: Info
    blocks_at: float | None
    counts: SightCounts
    crossed: str | None = None


@dataclass(frozen=True)
class Trigger:
    """When it happens: optionally a check roll (``check`` at least ``at_least``), then
    ``times`` rolls on ``table`` with the dice modifier ``modifier``."""

    id: NewId
    info: Info
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


GridShape = Literal["square", "hex"]
"""The neighbourhood of a grid place."""


@dataclass(frozen=True)
class Grid:
    """A grid: one cell's size in one or more units, and the diagonal cost cycle in cells."""

    id: NewId
    info: Info
    size: tuple[Number, ...]
    diagonals: tuple[int, ...]
    shape: GridShape = "square"
    """The neighbourhood of a place: ``hex`` (six, axial (q, r)) or ``square`` ((x, y): four,
    eight when the grid has diagonals)."""


@dataclass(frozen=True)
class ScenarioParam:
    """A value a scenario or house rule fills in; ``value`` is None while unfilled."""

    id: NewId
    info: Info
    unit: str
    value: Value | None = None


@dataclass(frozen=True)
class Ancestor:
    """One link of the extends chain."""

    id: Id
    version: Version
    digest: str


# ---- a variant's changes: one path class per kind of addressable item ----------------------


@dataclass(frozen=True)
class NamePath:
    """A declared name added or removed whole (mode, feature, factor, table ...): ``ice``."""

    name: str
    kind: Literal["name"] = "name"


PolicyPart = Literal["combine", "clamp"]
"""The part of a modifier policy a path names."""


@dataclass(frozen=True)
class PolicyPath:
    """A modifier's ``combine`` policy or ``clamp``: ``cover.combine``, ``shooting.clamp``."""

    modifier: Id
    part: PolicyPart
    kind: Literal["policy"] = "policy"


HeaderLine = Literal["languages", "units", "stacking", "minimum_move"]
"""A header line that a variant can replace."""


@dataclass(frozen=True)
class HeaderPath:
    """A header line of the variant replacing the base's: ``units``."""

    line: HeaderLine
    kind: Literal["header"] = "header"


@dataclass(frozen=True)
class CostPath:
    """A feature's movement cost cell (``mode`` None: the whole cell): ``soft.walker``."""

    feature: str
    mode: str | None = None
    kind: Literal["cost"] = "cost"


@dataclass(frozen=True)
class ColumnPath:
    """A modifier column of a feature, whole or one context value: ``woods.to_hit.energy``."""

    feature: str
    column: str
    value: str | None = None
    kind: Literal["column"] = "column"


@dataclass(frozen=True)
class FactorPath:
    """A modifier factor's cell, whole or one context value: ``full.energy``."""

    factor: str
    value: str | None = None
    kind: Literal["factor"] = "factor"


@dataclass(frozen=True)
class CombinationPath:
    """A ``when`` combination of a modifier: ``to_hit.when.woods+fog``."""

    modifier: str
    members: tuple[str, ...]
    kind: Literal["combination"] = "combination"


@dataclass(frozen=True)
class TableCellPath:
    """A cell of a plain table (``column`` None when the table names no columns)."""

    table: str
    column: str | None
    row: str
    kind: Literal["table_cell"] = "table_cell"


@dataclass(frozen=True)
class TableRowPath:
    """A row of a plain table, by name or number: ``armor_speed.6``."""

    table: str
    row: str
    kind: Literal["table_row"] = "table_row"


@dataclass(frozen=True)
class TableColumnPath:
    table: str
    column: str
    kind: Literal["table_column"] = "table_column"


@dataclass(frozen=True)
class DiceRowPath:
    """A dice row (added, removed) or its effects (overridden): ``effects.fire``."""

    table: str
    row: str
    kind: Literal["dice_row"] = "dice_row"


@dataclass(frozen=True)
class DiceRangePath:
    """The range of totals of a dice row: ``effects.fire.range``."""

    table: str
    row: str
    kind: Literal["dice_range"] = "dice_range"


@dataclass(frozen=True)
class DiceModifierPath:
    """The amount of a dice table's modifier (``override effects.landing | +3``)."""

    table: str
    modifier: str
    kind: Literal["dice_modifier"] = "dice_modifier"


@dataclass(frozen=True)
class StepPath:
    """One parameter of a step's term: ``climb.rate.per``."""

    step: str
    term: StepTermKind
    field: StepField
    kind: Literal["step"] = "step"


@dataclass(frozen=True)
class DecisionRowPath:
    """A decision row, named by its outcome: ``lock.auto``."""

    decision: str
    row: str
    kind: Literal["decision_row"] = "decision_row"


TriggerField = Literal["table", "modifier", "times", "at_least"]
"""A part of a trigger that a variant can override."""


@dataclass(frozen=True)
class TriggerPath:
    """What a trigger rolls on, with which dice modifier, how many times: ``bog.modifier``."""

    trigger: str
    field: TriggerField
    kind: Literal["trigger"] = "trigger"


@dataclass(frozen=True)
class ParamPath:
    param: str
    kind: Literal["param"] = "param"


@dataclass(frozen=True)
class LabelPath:
    """An item's label in one language: ``soft.label.fr`` (``item`` is the item's path)."""

    item: str
    lang: str
    kind: Literal["label"] = "label"


@dataclass(frozen=True)
class NotePath:
    """An item's note (``index`` from 1) in one language: ``soft.note.fr``."""

    item: str
    lang: str
    index: int = 1
    kind: Literal["note"] = "note"


ChangePath = (
    NamePath
    | HeaderPath
    | CostPath
    | ColumnPath
    | FactorPath
    | CombinationPath
    | TableCellPath
    | TableRowPath
    | TableColumnPath
    | DiceRowPath
    | DiceRangePath
    | DiceModifierPath
    | StepPath
    | DecisionRowPath
    | TriggerPath
    | ParamPath
    | LabelPath
    | NotePath
    | PolicyPath
)


ChangeAction = Literal["override", "add", "remove"]
"""What a variant does to an item of its base."""


@dataclass(frozen=True)
class Change:
    """A changelog line of a variant: what it overrides, adds or removes from its base.

    ``subject``: the labels of what the path names, outermost first (a feature, then a mode),
    kept here because a removed item is no longer in the ruleset; ``was`` and ``now``: the
    value before and after (None where there is none: an added or removed item).
    """

    action: ChangeAction
    path: ChangePath
    info: Info
    subject: tuple[Labels, ...] = ()
    was: Cell | None = None
    now: Cell | None = None


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
    ):
        for item in items:
            infos.setdefault(item.id, item.info)
    return infos
