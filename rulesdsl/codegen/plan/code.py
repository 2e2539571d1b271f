"""The module plan's code section (issue 36). What a module computes: steps (lists of terms),
decisions (inputs, rows as condition trees over expression trees, outcomes), the table cells
decisions read (one line of a table read one way, with its entry per key) and every outcome's
labels. Operators keep the IR's names (``=``, ``!=``, ``+``, ``half``, ``down``); an emitter
spells them in its language."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import assert_never

from rulesdsl import ir, spelling, units
from rulesdsl.codegen.plan import values as plan_values
from rulesdsl.codegen.plan.info import label, source
from rulesdsl.ir.records import dataclass

Axis = ir.Axis
CompareOp = ir.CompareOp
ArithOp = ir.ArithOp
ArithFunction = ir.ArithFunction
Rounding = ir.Rounding
Reading = ir.Reading

# ---- steps ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Impassable:
    """The answer is impassable once the input reaches ``at`` (``strict``: exceeds it)."""

    at: float
    strict: bool


@dataclass(frozen=True, slots=True)
class Free:
    """The answer is 0 while the input is at most ``at``."""

    at: float


@dataclass(frozen=True, slots=True)
class PerEvery:
    """``amount`` for every ``every`` of the input (``full``: whole multiples only), counting
    only the part above ``above`` when it is given."""

    amount: float
    every: float
    full: bool
    above: float | None


@dataclass(frozen=True, slots=True)
class AtLeast:
    """The answer is at least ``amount`` once the input reaches ``at`` (``strict``: exceeds
    it)."""

    amount: float
    at: float
    strict: bool


Term = Impassable | Free | PerEvery | AtLeast
"""One term of a step. A step answers: impassable or 0 by the first of those terms that
holds, else the sum of its ``PerEvery`` terms raised to each ``AtLeast`` that holds."""


@dataclass(frozen=True, slots=True)
class Function:
    """A function of the module, a rule of the ruleset: its name, its label in the module's
    language and the source it cites (the docstring's)."""

    name: str
    label: str
    source: str


@dataclass(frozen=True, slots=True)
class Step(Function):
    """A step function of one input (``param`` in ``param_unit``, at least ``minimum`` when
    that is not None); ``rule``: its terms as the ruleset writes them."""

    rule: str
    param: str
    param_unit: str
    result_unit: str | None
    minimum: int | None
    terms: tuple[Term, ...]

    @property
    def impassable(self) -> bool:
        """Whether the step may answer impassable."""
        return any(isinstance(t, Impassable) for t in self.terms)


# ---- table cells decisions read --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Limit:
    """A bound read as a rate: ``value`` (per ``per`` of a distance when given), scaled by the
    distance it is read over."""

    value: float
    per: float | None = None


Entry = bool | float | Limit
"""A cell as a decision reads it: yes or no, a number (infinity: no limit), or a rate."""


@dataclass(frozen=True, slots=True)
class Cells:
    """One line of a table as decisions read it: a row or column (``line``, on the other axis
    than ``axis``; None: the table's only column), ``axis`` naming what the selecting input
    picks, the entry per key (numbers when ``numeric``)."""

    table: str
    axis: Axis
    line: str | None
    reading: Reading
    numeric: bool
    entries: tuple[tuple[float | str, Entry], ...]


# ---- decisions: expressions and conditions -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Input:
    """An input of the decision."""

    name: str


@dataclass(frozen=True, slots=True)
class Number:
    """A number written in the rule."""

    value: float


@dataclass(frozen=True, slots=True)
class CellRead:
    """The entry of ``cells`` (an index into :attr:`CodePlan.cells`) at the key ``input``
    names; read as a rate, scaled by the distance input ``over`` (``full``: whole multiples)."""

    cells: int
    input: str
    over: str | None = None
    full: bool = False


@dataclass(frozen=True, slots=True)
class Binary:
    """``left op right``, rounded to a whole number by ``rounding`` when given."""

    op: ArithOp
    left: Expr
    right: Expr
    rounding: Rounding | None = None


@dataclass(frozen=True, slots=True)
class Call:
    """``function(args)``, rounded to a whole number by ``rounding`` when given."""

    function: ArithFunction
    args: tuple[Expr, ...]
    rounding: Rounding | None = None


@dataclass(frozen=True, slots=True)
class StepCall:
    """The step ``step``'s answer for ``arg`` (never impassable), rounded to a whole number
    by ``rounding`` when given (issue 40)."""

    step: str
    arg: Expr
    rounding: Rounding | None = None


@dataclass(frozen=True, slots=True)
class DecisionCall:
    """The number the decision ``decision`` gives for ``args``, each by the name of the input
    it is given to (a key input passed on as an :class:`Input`; issue 40)."""

    decision: str
    args: tuple[tuple[str, Expr], ...]


Expr = Input | Number | CellRead | Binary | Call | StepCall | DecisionCall


@dataclass(frozen=True, slots=True)
class Truth:
    """An input or a cell read as yes or no; ``holds``: it must be yes (else no)."""

    of: Input | CellRead
    holds: bool


@dataclass(frozen=True, slots=True)
class Compare:
    left: Expr
    op: CompareOp
    right: Expr


Test = Truth | Compare


# ---- decisions ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NumberParam:
    """A number in ``unit``, at least ``minimum`` when that is not None."""

    name: str
    unit: str
    minimum: int | None
    default: float | None


@dataclass(frozen=True, slots=True)
class FlagParam:
    """Yes or no."""

    name: str
    default: bool | None


@dataclass(frozen=True, slots=True)
class KeyParam:
    """A key of ``table`` on ``axis``: a number when ``numeric``, else a name."""

    name: str
    table: str
    axis: Axis
    numeric: bool
    default: float | str | None


@dataclass(frozen=True, slots=True)
class ModifierParam:
    """The items of ``modifier`` (feature and factor names); the decision reads their total,
    a number in ``unit`` (issue 40). The caller may not leave it out."""

    name: str
    modifier: str
    unit: str
    total: str
    """The name the rows read the total by (the input's own holds the items)."""
    default: None = None


Param = NumberParam | FlagParam | KeyParam | ModifierParam


@dataclass(frozen=True, slots=True)
class Outcome:
    """A result a decision returns: its id, its label, its value (None: none)."""

    id: str
    label: str
    value: plan_values.Literal


@dataclass(frozen=True, slots=True)
class Row:
    """All ``conditions`` hold (none: otherwise) -> the outcome ``outcome`` (its id); in a
    decision that gives numbers, ``answer`` is the number it returns (issue 40)."""

    conditions: tuple[Test, ...]
    outcome: str
    answer: Expr | None = None


@dataclass(frozen=True, slots=True)
class Decision(Function):
    params: tuple[Param, ...]
    rows: tuple[Row, ...]
    outcomes: tuple[Outcome, ...]

    @property
    def gives_number(self) -> bool:
        """Whether the decision returns a number (its rows' answers) rather than an outcome."""
        return any(row.answer is not None for row in self.rows)


@dataclass(frozen=True, slots=True)
class OutcomeLabels:
    """An outcome's labels in every language, found by its id and its label in the first."""

    id: str
    label: str
    labels: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class CodePlan:
    steps: tuple[Step, ...]
    decisions: tuple[Decision, ...]
    cells: tuple[Cells, ...]
    outcome_labels: tuple[OutcomeLabels, ...]

    @property
    def limits(self) -> bool:
        """Whether a decision reads a cell as a rate (the module needs its ``Limit``)."""
        return any(_is_rate(c.reading) for c in self.cells)


def build(rs: ir.Ruleset) -> CodePlan:
    lang = rs.languages[0]
    cells = _cells(rs)
    index = {key: n for n, key in enumerate(cells)}
    tables = {t.id: t for t in rs.tables}
    return CodePlan(
        tuple(_step(rs, st, lang) for st in rs.steps),
        tuple(_decision(rs, d, lang, tables, index) for d in rs.decisions),
        tuple(cells.values()),
        _outcome_labels(rs, lang),
    )


# ---- building steps ---------------------------------------------------------------------------


def _step(rs: ir.Ruleset, st: ir.Step, lang: str) -> Step:
    return Step(
        st.id,
        label(st.info, lang, st.id),
        source(rs, st.info),
        spelling.step_rule(st),
        st.param,
        st.param_unit,
        st.result_unit,
        units.least(st.param_unit),
        tuple(_term(t) for t in st.terms),
    )


def _term(t: ir.StepTerm) -> Term:
    match t:
        case ir.ImpassableTerm(at=at, strict=strict):
            return Impassable(at, strict)
        case ir.FreeTerm(at=at):
            return Free(at)
        case ir.RateTerm(amount=amount, every=every, full=full, above=above):
            return PerEvery(amount, every, full, above)
        case ir.FloorTerm(amount=amount, at=at, strict=strict):
            return AtLeast(amount, at, strict)
        case _:
            assert_never(t)


# ---- building the cells decisions read --------------------------------------------------------

CellKey = tuple[str, Axis, str | None, Reading]


def _key(ref: ir.CellRef) -> CellKey:
    """Cell references read as one: table, axis and line (when there is one), reading."""
    return (ref.table, ref.axis if ref.line is not None else "row", ref.line, ref.reading)


def _cells(rs: ir.Ruleset) -> dict[CellKey, Cells]:
    out: dict[CellKey, Cells] = {}
    for d in rs.decisions:
        for ref in _cell_refs(d):
            if _key(ref) not in out:
                entries = tuple(
                    (lim.key if lim.key_number is None else lim.key_number, _entry(lim, ref))
                    for lim in ref.limits
                )
                numeric = any(lim.key_number is not None for lim in ref.limits)
                out[_key(ref)] = Cells(ref.table, ref.axis, ref.line, ref.reading, numeric, entries)
    return out


def _cell_refs(d: ir.Decision) -> Iterator[ir.CellRef]:
    """The table cells that the conditions of ``d`` read, then those its rows give."""
    for row in d.rows:
        for c in row.conditions:
            match c:
                case ir.Comparison(left=left, right=right):
                    yield from (o.cell for o in (left, right) if isinstance(o, ir.CellOperand))
                case ir.CellTruth(cell=ref):
                    yield ref
                case ir.InputTruth():
                    pass
                case _:
                    assert_never(c)
    yield from (row.answer.cell for row in d.rows if isinstance(row.answer, ir.CellOperand))


def _entry(lim: ir.Limit, ref: ir.CellRef) -> Entry:
    """A cell's bound as read: a flag, a number, or (read as a rate) a Limit."""
    match lim.bound:
        case ir.YesNo(value=value):
            return value
        case ir.RateBound(value=value, per=per):
            return Limit(value, per)
        case ir.Bound(value=value):
            number = value
        case ir.NoLimit():
            number = math.inf
        case _:
            assert_never(lim.bound)
    return Limit(number) if _is_rate(ref.reading) else number


def _is_rate(reading: Reading) -> bool:
    match reading:
        case "rate":
            return True
        case "number" | "yes_no":
            return False
        case _:
            assert_never(reading)


# ---- building decisions -----------------------------------------------------------------------


def _decision(
    rs: ir.Ruleset,
    d: ir.Decision,
    lang: str,
    tables: dict[str, ir.Table],
    cells: dict[CellKey, int],
) -> Decision:
    reads = _totals(d.params)
    return Decision(
        d.id,
        label(d.info, lang, d.id),
        source(rs, d.info),
        tuple(_param(p, tables.get(p.key_of or ""), reads) for p in d.params),
        tuple(
            Row(
                tuple(_condition(c, cells, reads) for c in row.conditions),
                row.outcome,
                None if row.answer is None else _operand(row.answer, cells, reads),
            )
            for row in d.rows
        ),
        tuple(Outcome(o.id, label(o.info, lang, o.id), _value(o.value)) for o in d.outcomes),
    )


def _totals(params: Sequence[ir.Param]) -> dict[str, str]:
    """The name each input that holds a modifier's items is read by, as its total: the
    input's name and ``_total``, clear of the other inputs' names (issue 40)."""
    taken = {p.name for p in params}
    reads: dict[str, str] = {}
    for p in params:
        if p.total_of is not None:
            total = f"{p.name}_total"
            while total in taken:
                total += "_"
            taken.add(total)
            reads[p.name] = total
    return reads


def _least(p: ir.Param) -> int | None:
    """The least value a number input may take: none for a ``signed`` one (issue 40)."""
    return None if p.signed else units.least(p.unit)


def _param(p: ir.Param, table: ir.Table | None, reads: Mapping[str, str]) -> Param:
    if p.total_of is not None:
        return ModifierParam(p.name, p.total_of, p.unit, reads[p.name])
    if table is not None:
        axis = p.axis or "row"
        numeric = (
            p.axis is not None
            and _names_row(p.axis)
            and any(r.key_number is not None for r in table.rows)
        )
        return KeyParam(p.name, table.id, axis, numeric, _key_default(p, table, numeric))
    match p.default:
        case ir.Flag(value=flag):
            return FlagParam(p.name, flag)
        case ir.Number(value=value):
            return NumberParam(p.name, p.unit, _least(p), value)
        case None if p.unit == units.BOOL_UNIT:
            return FlagParam(p.name, None)
        case None:
            return NumberParam(p.name, p.unit, _least(p), None)
        case ir.Symbol():
            raise ValueError(f"a key default on an input that names no table: {p.name}")
        case _:
            assert_never(p.default)


def _names_row(axis: Axis) -> bool:
    """Whether an input on ``axis`` names a row of its table (rather than a column)."""
    match axis:
        case "row":
            return True
        case "column":
            return False
        case _:
            assert_never(axis)


def _key_default(p: ir.Param, table: ir.Table, numeric: bool) -> float | str | None:
    """A key default as the function takes it: the row's number when the key is numeric."""
    match p.default:
        case None:
            return None
        case ir.Symbol(name=key):
            number = next((r.key_number for r in table.rows if r.key == key), None)
            return number if numeric and number is not None else key
        case ir.Number() | ir.Flag():
            raise ValueError(f"a key input's default is no key: {p.name}")
        case _:
            assert_never(p.default)


def _value(value: ir.Value | None) -> plan_values.Literal:
    """An outcome's value: a number (without its unit), or the value as a module carries it."""
    return value.value if isinstance(value, ir.Number) else plan_values.literal(value)


def _condition(c: ir.Condition, cells: dict[CellKey, int], reads: Mapping[str, str]) -> Test:
    """A row's condition; ``reads``: the name an input is read by, when not its own."""
    match c:
        case ir.InputTruth(input=name, holds=holds):
            return Truth(Input(name), holds)
        case ir.CellTruth(cell=ref, holds=holds):
            return Truth(_read(ref, cells), holds)
        case ir.Comparison(left=left, op=op, right=right):
            return Compare(_operand(left, cells, reads), op, _operand(right, cells, reads))
        case _:
            assert_never(c)


def _read(ref: ir.CellRef, cells: dict[CellKey, int]) -> CellRead:
    return CellRead(cells[_key(ref)], ref.input, ref.over, ref.full)


def _operand(op: ir.Operand, cells: dict[CellKey, int], reads: Mapping[str, str]) -> Expr:
    match op:
        case ir.InputOperand(input=name, scale_op=scale_op, scale=scale):
            read = Input(reads.get(name, name))
            return read if scale_op is None else Binary(scale_op, read, Number(scale))
        case ir.LiteralOperand(value=value):
            return Number(value)
        case ir.CellOperand(cell=ref):
            return _read(ref, cells)
        case ir.ArithOperand(expr=expr):
            return _arith(expr, reads)
        case _:
            assert_never(op)


def _arith(e: ir.Arith, reads: Mapping[str, str]) -> Expr:
    match e:
        case ir.ArithInput(input=name):
            return Input(reads.get(name, name))
        case ir.ArithNumber(value=value):
            return Number(value)
        case ir.ArithBinary(op=op, left=left, right=right, rounding=rounding):
            return Binary(op, _arith(left, reads), _arith(right, reads), rounding)
        case ir.ArithCall(function=function, args=args, rounding=rounding):
            return Call(function, tuple(_arith(a, reads) for a in args), rounding)
        case ir.ArithStep(step=step, arg=arg, rounding=rounding):
            return StepCall(step, _arith(arg, reads), rounding)
        case ir.ArithDecision(decision=name, args=args, inputs=inputs):
            given = tuple(_arith(a, reads) for a in args)
            return DecisionCall(name, tuple(zip(inputs, given, strict=True)))
        case _:
            assert_never(e)


def _outcome_labels(rs: ir.Ruleset, lang: str) -> tuple[OutcomeLabels, ...]:
    """Each decision outcome's labels in every language, found as ``Outcome.labels`` looks
    them up: by id and label in the first language (item 11 of issue 11); the first wins."""
    out: dict[tuple[str, str], OutcomeLabels] = {}
    for d in rs.decisions:
        for o in d.outcomes:
            if o.info.labels:
                first = label(o.info, lang, o.id)
                out.setdefault(
                    (o.id, first), OutcomeLabels(o.id, first, tuple(o.info.labels.items()))
                )
    return tuple(out.values())
