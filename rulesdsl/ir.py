"""The intermediate representation: one plain, ordered, serialisable value per ruleset.

Backends read only these classes. Every class is a frozen dataclass whose fields are plain data
(str, int, float, bool, tuples, dicts with string keys, or other IR classes), so the whole IR
round-trips through JSON (see :mod:`rulesdsl.serial`) and is described by the JSON Schema that
:mod:`rulesdsl.schema` derives from these annotations.

Values are a tagged union: each value class has a ``kind`` field fixed to its own literal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Labels = dict[str, str]
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
    param: str
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


@dataclass(frozen=True)
class Marker:
    """A value that is not a number: the place cannot be entered, or the action is blocked."""

    marker: Literal["impassable", "prohibited", "blocked"]
    kind: Literal["marker"] = "marker"


@dataclass(frozen=True)
class Symbol:
    """A word from a table cell: ``none``, ``half``, ``any``; ``yes`` and ``no`` are Flags."""

    name: str
    kind: Literal["symbol"] = "symbol"


@dataclass(frozen=True)
class Flag:
    """``yes``, ``no``, or an effect named alone in a dice row (``ignites``)."""

    value: bool
    kind: Literal["flag"] = "flag"


@dataclass(frozen=True)
class DiceValue:
    """A dice expression such as ``1d6+3``."""

    count: int
    sides: int
    bonus: int = 0
    kind: Literal["dice"] = "dice"


@dataclass(frozen=True)
class Text:
    """Free text kept as written (``"6 x 3 in"``)."""

    text: str
    kind: Literal["text"] = "text"


@dataclass(frozen=True)
class Same:
    """``as clear``: the value another feature has for the same mode, resolved."""

    feature: str
    resolved: Value
    kind: Literal["same"] = "same"


Value = Number | Rate | ParamRate | Trade | Span | Marker | Symbol | Flag | DiceValue | Text | Same


@dataclass(frozen=True)
class Cell:
    """One cell as written: a value for everyone, then the exceptions by mode, group or context."""

    default: Value | None = None
    exceptions: dict[str, Value] = field(default_factory=dict)


# ---- shared item metadata -----------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """Where a number comes from: a declared book, a page, and an optional detail."""

    book: str
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
    id: str
    info: Info


@dataclass(frozen=True)
class Mode:
    id: str
    info: Info


@dataclass(frozen=True)
class Group:
    id: str
    info: Info
    members: tuple[str, ...]


@dataclass(frozen=True)
class ContextValue:
    id: str
    info: Info


@dataclass(frozen=True)
class Context:
    id: str
    info: Info
    values: tuple[ContextValue, ...]


@dataclass(frozen=True)
class Feature:
    """A terrain feature, condition or weather: a row of a layer.

    ``cells`` holds the columns as written (``cost`` and any modifier columns); ``costs`` is the
    movement cost per mode, resolved (defaults, groups and ``as`` applied), per distance unit.
    """

    id: str
    layer: str
    info: Info
    cells: dict[str, Cell]
    costs: dict[str, Value]
    ignores_others: bool = False


@dataclass(frozen=True)
class Layer:
    id: str
    info: Info
    scope: Literal["many", "one", "map"]
    columns: tuple[str, ...]
    features: tuple[str, ...]


@dataclass(frozen=True)
class Factor:
    """A row of a modifier block: something that adds to the modifier by itself."""

    id: str
    info: Info
    cell: Cell


@dataclass(frozen=True)
class Combination:
    """``when a, b``: the value when all the named factors or features are present together."""

    members: tuple[str, ...]
    value: Value
    info: Info


@dataclass(frozen=True)
class Modifier:
    """A summed modifier such as to-hit, with per-item values resolved by context value.

    ``values[item][key]``: the contribution of ``item`` (a feature or factor); key ``""`` is
    the value whatever the context, other keys are values of the modifier's context. Context
    ``mode``, when the ruleset declares no context of that name, keys values by the ruleset's
    modes (groups already expanded to their members).
    """

    id: str
    info: Info
    context: str | None
    factors: tuple[Factor, ...]
    combinations: tuple[Combination, ...]
    values: dict[str, dict[str, Value]]


@dataclass(frozen=True)
class StepTerm:
    """One term of a step function.

    ``rate``: ``amount`` per ``every`` of the input (``full``: only whole multiples count);
    ``floor``: at least ``amount`` once the input reaches ``at`` (``strict``: exceeds it);
    ``impassable``: the answer is impassable once the input reaches (or exceeds) ``at``.
    """

    term: Literal["rate", "floor", "impassable"]
    amount: float = 0
    every: float = 1
    full: bool = False
    at: float = 0
    strict: bool = False


@dataclass(frozen=True)
class Step:
    id: str
    info: Info
    param: str
    param_unit: str
    result_unit: str | None
    terms: tuple[StepTerm, ...]


@dataclass(frozen=True)
class Param:
    """A named input of a decision or step, with its unit (``bool`` for yes/no inputs).

    ``key_of``: the input names a key of that plain table (a column, or the row of a
    one-column table); its unit is then ``key``.
    """

    name: str
    unit: str
    key_of: str | None = None


@dataclass(frozen=True)
class Limit:
    """What one table cell means as a bound in a decision, for one key of the selecting input.

    ``value`` (``per`` set: ``value`` for every ``per`` of the ``over`` input, a rate cell);
    ``unlimited`` for `any` and `yes`; `no` and `none` are 0; a trade counts its gain.
    ``flag`` when the cell is compared as yes/no. ``key_number`` for numeric row keys.
    """

    key: str
    value: float = 0
    per: float | None = None
    unlimited: bool = False
    flag: bool | None = None
    key_number: float | None = None


@dataclass(frozen=True)
class CellRef:
    """A table cell picked by a decision input, in a condition: ``table[input].row`` (the
    input names a column: ``row`` is set), ``table.column[input]`` (it names a row: ``column``
    is set) or ``table[input]`` (a one-column table: neither is set).

    ``limits`` holds, per key the input may take, the cell resolved by the compiler; ``over``
    names the distance input a rate cell scales with (``full``: whole multiples only).
    """

    table: str
    input: str
    row: str | None
    limits: tuple[Limit, ...]
    over: str | None = None
    full: bool = False
    flag: bool = False
    column: str | None = None


@dataclass(frozen=True)
class Operand:
    """A decision operand: an input (optionally scaled: ``size / 2``), a literal number, or a
    table cell picked by an input (``cell``)."""

    ref: str | None = None
    scale_op: Literal["*", "/"] | None = None
    scale: float = 1
    literal: float | None = None
    cell: CellRef | None = None


@dataclass(frozen=True)
class Comparison:
    left: Operand
    op: Literal["<", "<=", ">", ">=", "=", "!="]
    right: Operand


@dataclass(frozen=True)
class Outcome:
    """A result of a decision; ``value`` when it stands for a modifier factor."""

    id: str
    info: Info
    value: Value | None = None


@dataclass(frozen=True)
class DecisionRow:
    """All ``conditions`` hold (an empty tuple: otherwise) -> ``outcome``."""

    conditions: tuple[Comparison, ...]
    outcome: str
    info: Info


@dataclass(frozen=True)
class Decision:
    id: str
    info: Info
    params: tuple[Param, ...]
    result: str | None
    rows: tuple[DecisionRow, ...]
    outcomes: tuple[Outcome, ...]


@dataclass(frozen=True)
class Column:
    id: str
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

    id: str
    info: Info
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class DiceModifier:
    id: str
    info: Info
    value: int


@dataclass(frozen=True)
class DiceRow:
    """Totals ``low``..``high`` (``None``: open-ended on that side) -> an outcome with effects."""

    id: str
    info: Info
    low: int | None
    high: int | None
    effects: dict[str, Value]


@dataclass(frozen=True)
class DiceTable:
    id: str
    info: Info
    dice: DiceValue
    modifiers: tuple[DiceModifier, ...]
    rows: tuple[DiceRow, ...]


@dataclass(frozen=True)
class Trigger:
    """When it happens: optionally a check roll (``check`` at least ``at_least``), then
    ``times`` rolls on ``table`` with the dice modifier ``modifier``."""

    id: str
    info: Info
    table: str
    check: DiceValue | None = None
    at_least: int | None = None
    modifier: str | None = None
    times: int = 1


@dataclass(frozen=True)
class Exclusion:
    """``subject`` cannot be combined with any of ``others``; combining them warns."""

    subject: str
    others: tuple[str, ...]
    info: Info


@dataclass(frozen=True)
class Grid:
    """A grid: one cell's size in one or more units, and the diagonal cost cycle in cells."""

    id: str
    info: Info
    size: tuple[Number, ...]
    diagonals: tuple[int, ...]


@dataclass(frozen=True)
class ScenarioParam:
    """A value a scenario or house rule fills in; ``value`` is None while unfilled."""

    id: str
    info: Info
    unit: str
    value: Value | None = None


@dataclass(frozen=True)
class Ancestor:
    """One link of the extends chain."""

    id: str
    version: str
    digest: str


# ---- a variant's changes: one path class per kind of addressable item ----------------------


@dataclass(frozen=True)
class NamePath:
    """A declared name added or removed whole (mode, feature, factor, table ...): ``ice``."""

    name: str
    kind: Literal["name"] = "name"


@dataclass(frozen=True)
class HeaderPath:
    """A header line of the variant replacing the base's: ``units``."""

    line: Literal["languages", "units", "stacking", "minimum_move"]
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
    term: Literal["rate", "floor", "impassable"]
    field: Literal["amount", "per", "at"]
    kind: Literal["step"] = "step"


@dataclass(frozen=True)
class DecisionRowPath:
    """A decision row, named by its outcome: ``lock.auto``."""

    decision: str
    row: str
    kind: Literal["decision_row"] = "decision_row"


@dataclass(frozen=True)
class TriggerPath:
    """What a trigger rolls on, with which dice modifier, how many times: ``bog.modifier``."""

    trigger: str
    field: Literal["table", "modifier", "times", "at_least"]
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
    NamePath | HeaderPath | CostPath | ColumnPath | FactorPath | CombinationPath | TableCellPath
    | TableRowPath | TableColumnPath | DiceRowPath | DiceRangePath | DiceModifierPath | StepPath
    | DecisionRowPath | TriggerPath | ParamPath | LabelPath | NotePath
)


@dataclass(frozen=True)
class Change:
    """A changelog line of a variant: what it overrides, adds or removes from its base.

    ``subject``: the labels of what the path names, outermost first (a feature, then a mode),
    kept here because a removed item is no longer in the ruleset; ``was`` and ``now``: the
    value before and after (None where there is none: an added or removed item).
    """

    action: Literal["override", "add", "remove"]
    path: ChangePath
    info: Info
    subject: tuple[Labels, ...] = ()
    was: Cell | None = None
    now: Cell | None = None


@dataclass(frozen=True)
class Ruleset:
    id: str
    info: Info
    version: str
    digest: str
    languages: tuple[str, ...]
    units: dict[str, str]
    stacking: Literal["sum"] = "sum"
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
