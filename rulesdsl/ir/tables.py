"""Decisions and tables: the inputs of a decision, its conditions over table cells read as
bounds, its rows and outcomes; plain tables, dice tables and results tables.

Part of :mod:`rulesdsl.ir`, which re-exports every name; read them from there.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Literal

from rulesdsl.ir.arith import ArithOperand, Rounding
from rulesdsl.ir.values import DiceRoll, Flag, Id, Info, Named, NewId, Number, Symbol, Value

if TYPE_CHECKING:
    from dataclasses import dataclass
else:  # the same decorator, its methods' bytecode kept between runs (issue 29)
    from rulesdsl.ir.records import dataclass

Axis = Literal["row", "column"]
"""What a key input names in its table."""
CompareOp = Literal["<", "<=", ">", ">=", "=", "!="]


@dataclass(frozen=True)
class Param:
    """A named input of a decision or step, with its unit (``bool`` for yes/no inputs).

    ``key_of``: the input names a key of that plain table; its unit is then ``key`` and
    ``axis`` says whether the key is a ``row`` or a ``column`` of the table. ``default``: what
    the input is when the caller leaves it out (a decision's only: a number in ``unit``, a
    ``Flag`` for a yes/no input, a ``Symbol`` naming a key), or None: the caller must give it.
    """

    name: NewId
    unit: str
    key_of: Id | None = None
    axis: Axis | None = None
    default: Number | Flag | Symbol | None = None
    signed: bool = False
    """``bearing signed deg`` (issue 40): a number that may be below 0 although its unit
    measures a distance, an angle or a time."""
    total_of: Id | None = None
    """``shot to_hit`` (issue 40): the caller gives that modifier's items and the input is
    their total, in the ruleset's modifier unit (None: a plain input)."""


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


Operand = InputOperand | LiteralOperand | CellOperand | ArithOperand


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
    """A result of a decision; ``value`` when it stands for a modifier factor. On a results
    table, ``effects`` are what the outcome carries (``retreat 1 hex``), as a dice row's."""

    id: Id
    info: Info
    value: Value | None = None
    effects: dict[Id, Value] = field(default_factory=dict)
    by_unit: dict[Id, dict[Id, Value]] = field(default_factory=dict)
    """Effects keyed by unit type or keyword (``damage & infantry 3``): effect -> key -> value,
    beside the value for everyone in ``effects`` (issue 40)."""


@dataclass(frozen=True)
class DecisionRow:
    """All ``conditions`` hold (an empty tuple: otherwise) -> ``outcome``; ``answer``: the
    number the decision gives on this row (``= speed + levels``, ``= dive_limit[class]``), on
    every row of a decision that gives numbers and on none of another."""

    conditions: tuple[Condition, ...]
    outcome: Id
    info: Info
    answer: ArithOperand | CellOperand | None = None


@dataclass(frozen=True)
class Decision(Named):
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
class Table(Named):
    """A plain table. One column: ``lookup(table, row)``; more: ``lookup(table, column, row)``."""

    columns: tuple[Column, ...]
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class DiceModifier(Named):
    """A dice modifier: ``value`` added to the roll; on a results table, ``shift`` moves the
    column instead (``shift left 1`` is -1, issue 25)."""

    value: int
    shift: int = 0
    on_doubles: bool = False
    """``shift left 1 on doubles``: the dice as rolled apply the shift themselves when they
    show doubles (every face the same); at most one modifier of a table (E342)."""


@dataclass(frozen=True)
class DiceRow:
    """Totals ``low``..``high`` (``None``: open-ended on that side) -> an outcome with effects."""

    id: Id
    info: Info
    low: int | None
    high: int | None
    effects: dict[Id, Value]
    by_unit: dict[Id, dict[Id, Value]] = field(default_factory=dict)
    """Effects keyed by unit type or keyword (``falls & infantry 2``), as on an outcome."""


@dataclass(frozen=True)
class DiceTable(Named):
    dice: DiceRoll
    modifiers: tuple[DiceModifier, ...]
    rows: tuple[DiceRow, ...]
    naturals: tuple[NaturalRow, ...] = ()
    """``natural 12 major``: a natural roll that gives a row whatever the modifiers."""


# ---- results tables and line of sight (issue 11, items 9 and 10) ----------------------------


ColumnBound = Literal["up_to", "above", "at", "category"]
"""How a results table column bounds its input; ``category``: it does not, the caller names
the column (a gun class: ``column heavy "Heavy"``, issue 40)."""


@dataclass(frozen=True)
class ResultColumn(Named):
    """A column of a results table, chosen by the table's input: ``up to`` ``value`` (the
    input at most ``value``, above the previous column's bound), ``above`` ``value``, or
    ``at`` ``value`` (a point: the table's rounding says where values between points fall).
    ``unit``: the unit the bound is written in (``up to 6 in``); ``ratio``: the bound's terms
    when written as a ratio (``at 2:1``)."""

    bound: ColumnBound
    value: float
    unit: str | None = None
    ratio: tuple[int, int] | None = None


@dataclass(frozen=True)
class NaturalRow:
    """``natural N outcome``: when the dice show ``roll`` before any modifier, the outcome
    is ``outcome`` whatever the column and the total (on a plain dice table, the row
    ``outcome``). ``at_least``: the outcome the total gives, but no lower than ``outcome``
    (outcomes count in the order declared, rows in the order of their totals).
    ``by_column``: one outcome per column (``outcome`` is the first column's)."""

    roll: int
    outcome: Id
    info: Info
    at_least: bool = False
    by_column: tuple[Id, ...] = ()


@dataclass(frozen=True)
class ResultRow:
    """Totals ``low``..``high`` (``None``: open-ended) -> one outcome per column."""

    low: int | None
    high: int | None
    outcomes: tuple[Id, ...]
    info: Info


@dataclass(frozen=True)
class ResultsTable(Named):
    """A results table: the column picked by the value of ``by`` (odds, firepower), the row
    by the modified total, natural rows tested first on the natural roll."""

    dice: DiceRoll
    by: Id
    columns: tuple[ResultColumn, ...]
    outcomes: tuple[Outcome, ...]
    naturals: tuple[NaturalRow, ...]
    rows: tuple[ResultRow, ...]
    modifiers: tuple[DiceModifier, ...] = ()
    rounding: Rounding | None = None
