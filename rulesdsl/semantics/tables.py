"""What steps, decisions, dice and results tables mean: a step's answer for an input, a
decision's outcome for its inputs, the totals dice reach and the row that covers each; which
places of a line of sight count; what a layer's scope, a grid's shape and a path on it mean.

Part of :mod:`rulesdsl.semantics`, which re-exports every name; read them from there.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import partial
from typing import assert_never

from rulesdsl import ir, words
from rulesdsl.ir.records import dataclass
from rulesdsl.semantics import arith as semantics_arith
from rulesdsl.semantics import dice

IMPASSABLE = ir.Marker("impassable")
PROHIBITED = ir.Marker("prohibited")

Answer = float | ir.Marker
"""A number, or a marker (impassable, prohibited, blocked)."""


def whole(amount: float, every: float) -> int:
    """How many whole ``every`` fit in ``amount``, read as the decimals the rules write: 0.6
    holds three 0.2 (in binary floating point 0.6 / 0.2 is 2.9999999999999996)."""
    return math.floor(round(amount / every, 9))


def reaches(x: float, at: float, strict: bool) -> bool:
    """Whether the input has reached a threshold (``strict``: gone beyond it)."""
    return x > at if strict else x >= at


def step_value(step: ir.Step, x: float) -> Answer:
    """A step function at ``x``: impassable once a threshold is reached, else 0 while ``x`` is
    at most a ``free up to`` threshold, else the sum of its rates (``full``: whole multiples
    only; ``above``: only the part of ``x`` above it counts), raised to any floor whose
    threshold is reached."""
    free = False
    value = 0.0
    floor: float | None = None
    for t in step.terms:
        match t:
            case ir.ImpassableTerm(at=at, strict=strict):
                if reaches(x, at, strict):
                    return IMPASSABLE
            case ir.FreeTerm(at=at):
                free = free or x <= at
            case ir.RateTerm():
                part = x if t.above is None else max(0.0, x - t.above)
                value += t.amount * (whole(part, t.every) if t.full else part / t.every)
            case ir.FloorTerm():
                if reaches(x, t.at, t.strict):
                    floor = t.amount if floor is None else max(floor, t.amount)
            case _:
                assert_never(t)
    if free:
        return 0.0
    return value if floor is None else max(value, floor)


Inputs = Mapping[str, float | bool | str]
"""A decision's inputs by name: numbers, yes/no, or keys of a table."""


def bound(limit: ir.LimitValue, over: float | None, full: bool) -> float | bool:
    """What a table cell allows: a number (math.inf: no limit), scaled for a rate, or yes/no."""
    match limit:
        case ir.YesNo(value=value):
            return value
        case ir.Bound(value=value):
            return value
        case ir.NoLimit():
            return math.inf
        case ir.RateBound(value=value, per=per):
            distance = over if over is not None else 0.0
            return value * (whole(distance, per) if full else distance / per)
        case _:
            assert_never(limit)


def cell_value(ref: ir.CellRef, inputs: Inputs) -> float | bool:
    """The cell that the input of ``ref`` picks, as a bound."""
    key = inputs[ref.input]
    limit = next(
        lim
        for lim in ref.limits
        if (lim.key_number == key if lim.key_number is not None else lim.key == key)
    )
    over = inputs[ref.over] if ref.over is not None else None
    return bound(limit.bound, float(over) if over is not None else None, ref.full)


def scaled(value: float, op: ir.ScaleOp | None, scale: float) -> float:
    """An input scaled as written: ``size * 2``, ``size / 2`` (None: as it is)."""
    match op:
        case None:
            return value
        case "*":
            return value * scale
        case "/":
            return value / scale
        case _:
            assert_never(op)


def divides(op: ir.ScaleOp | None) -> bool:
    """Whether the scale is a divisor (so it must not be 0)."""
    match op:
        case "/":
            return True
        case "*" | None:
            return False
        case _:
            assert_never(op)


@dataclass(frozen=True, slots=False)
class Rules:
    """The rules a decision's arithmetic may call (issue 40): steps and decisions by name."""

    steps: Mapping[str, ir.Step]
    decisions: Mapping[str, ir.Decision]

    @staticmethod
    def of(rs: ir.Ruleset) -> Rules:
        return Rules({st.id: st for st in rs.steps}, {d.id: d for d in rs.decisions})


def operand(op: ir.Operand, inputs: Inputs, rules: Rules | None = None) -> float:
    match op:
        case ir.InputOperand(input=name, scale_op=scale_op, scale=scale):
            value = float(inputs[name])
            return scaled(value, scale_op, scale)
        case ir.LiteralOperand(value=value):
            return value
        case ir.CellOperand(cell=ref):
            return float(cell_value(ref, inputs))
        case ir.ArithOperand(expr=expr):
            return semantics_arith.evaluate(expr, inputs, partial(_called, rules or Rules({}, {})))
        case _:
            assert_never(op)


def compare(op: ir.CompareOp, left: float, right: float) -> bool:
    """``left op right``, as a decision row writes it (``=`` is equality)."""
    match op:
        case "<":
            return left < right
        case "<=":
            return left <= right
        case ">":
            return left > right
        case ">=":
            return left >= right
        case "=":
            return left == right
        case "!=":
            return left != right
        case _:
            assert_never(op)


def _called(rules: Rules, expr: ir.ArithStep | ir.ArithDecision, inputs: Inputs) -> float:
    """What a step or decision that arithmetic calls answers: a number (lowering refuses a
    step that may answer impassable and a decision that gives outcomes)."""
    call = partial(_called, rules)
    match expr:
        case ir.ArithStep(step=name, arg=arg):
            x = semantics_arith.evaluate(arg, inputs, call)
            value: Answer | str = step_value(rules.steps[name], x)
        case ir.ArithDecision(decision=name, args=args):
            callee = rules.decisions[name]
            given = {
                p.name: inputs[a.input]
                if p.key_of is not None and isinstance(a, ir.ArithInput)
                else semantics_arith.evaluate(a, inputs, call)
                for p, a in zip(callee.params, args, strict=False)
            }
            for p in callee.params[len(args) :]:
                given[p.name] = _default_of(p)
            value = decision_answer(callee, given, rules)
        case _:
            assert_never(expr)
    if isinstance(value, ir.Marker | str):
        raise ValueError(f"{expr!r} answers {value!r}, not a number")
    return value


def _default_of(p: ir.Param) -> float | bool | str:
    match p.default:
        case ir.Number(value=value) | ir.Flag(value=value):
            return value
        case ir.Symbol(name=name):
            return name
        case None:
            raise ValueError(f"input {p.name!r} has no default")
        case _:
            assert_never(p.default)


def holds(c: ir.Condition, inputs: Inputs, rules: Rules | None = None) -> bool:
    """Whether one condition of a decision row holds for these inputs."""
    match c:
        case ir.Comparison(left=left, op=op, right=right):
            return compare(op, operand(left, inputs, rules), operand(right, inputs, rules))
        case ir.InputTruth(input=name, holds=wanted):
            return bool(inputs[name]) == wanted
        case ir.CellTruth(cell=ref, holds=wanted):
            return bool(cell_value(ref, inputs)) == wanted
        case _:
            assert_never(c)


def decide(decision: ir.Decision, inputs: Inputs) -> str:
    """The outcome of the first row whose conditions all hold (``otherwise`` holds always)."""
    return decision.rows[decided_row(decision, inputs)].outcome


def decision_answer(
    decision: ir.Decision, inputs: Inputs, rules: Rules | None = None
) -> str | float:
    """What a decision returns: the outcome of the first row that holds, or the number that
    row gives in a decision that gives numbers (issue 40)."""
    row = decision.rows[decided_row(decision, inputs, rules)]
    return row.outcome if row.answer is None else operand(row.answer, inputs, rules)


def decided_row(decision: ir.Decision, inputs: Inputs, rules: Rules | None = None) -> int:
    """The index of the first row whose conditions all hold: the row :func:`decide` answers."""
    for index, row in enumerate(decision.rows):
        if all(holds(c, inputs, rules) for c in row.conditions):
            return index
    raise ValueError(f"no row of {decision.id!r} holds")  # checks require `otherwise`


def roll_of(value: ir.DiceRoll) -> dice.Roll:
    """The roll a dice value stands for, with its exact chances (rulesdsl.semantics.dice)."""
    match value:
        case ir.DiceValue(count=count, sides=sides, bonus=bonus):
            return dice.Dice(count, sides, bonus)
        case ir.D66Value(bonus=bonus):
            return dice.D66(bonus)
        case _:
            assert_never(value)


def plain_totals(value: ir.DiceRoll) -> Sequence[int]:
    """Every total the dice can roll, unmodified, in order."""
    match value:
        case ir.DiceValue(count=count, sides=sides, bonus=bonus):
            return range(count + bonus, count * sides + bonus + 1)
        case ir.D66Value(bonus=bonus):
            return dice.D66(bonus).totals
        case _:
            assert_never(value)


def reachable_totals(value: ir.DiceRoll, modifiers: Iterable[int]) -> list[int]:
    """Every total the dice can roll with no modifier or any one declared modifier, sorted."""
    return sorted({t + m for m in {0, *modifiers} for t in plain_totals(value)})


def covers(row: ir.DiceRow, total: int) -> bool:
    return (row.low is None or total >= row.low) and (row.high is None or total <= row.high)


def roll(table: ir.DiceTable, total: int, natural: int | None = None) -> ir.DiceRow | None:
    """The first row that covers ``total``, None if no row does; a ``natural`` roll with a
    natural row gives that row (``at least``: the higher of it and the total's row, rows
    counted in the order of their totals)."""
    row = next((row for row in table.rows if covers(row, total)), None)
    nat = next((n for n in table.naturals if n.roll == natural), None)
    if nat is None:
        return row
    given = next((r for r in table.rows if r.id == nat.outcome), None)
    if not nat.at_least or row is None or given is None:
        return given or row
    return max(row, given, key=_row_order)


def _row_order(row: ir.DiceRow) -> float:
    return -math.inf if row.low is None else row.low


def dice_chances(table: ir.DiceTable, shift: int = 0) -> dict[str, Fraction]:
    """The exact chance of each row with natural rolls counted (issue 25): each natural roll
    gives its natural row if it has one, else the row covering it plus ``shift``."""
    chances = {r.id: Fraction(0) for r in table.rows}
    for natural, p in roll_of(table.dice).distribution().items():
        row = roll(table, natural + shift, natural)
        if row is not None:
            chances[row.id] += p
    return chances


def dice_index(table: ir.DiceTable) -> dict[int, int]:
    """Every reachable total -> the index of the row that covers it."""
    index: dict[int, int] = {}
    for total in reachable_totals(table.dice, (m.value for m in table.modifiers)):
        for i, row in enumerate(table.rows):
            if covers(row, total):
                index[total] = i
                break
    return index


POINT_SLACK = 1e-9
"""How far below a column's point a value may be and still count as at it: odds given as
``1/3`` (0.333...) are at the point ``1:3`` however the float rounds."""


def result_column(table: ir.ResultsTable, value: float) -> ir.ResultColumn | None:
    """The column a value of the table's input picks: the first, in declared order, whose
    bound holds (``up to V``: value <= V; ``above V``: value > V). Columns ``at`` points
    (issue 25) take the value by the table's rounding: ``down``, the last point at or below
    it (the first column for a value below every point); ``up``, the first point at or above
    it (the last column for a value above every point)."""
    if table.rounding is not None and table.columns:
        return rounded_column(table.columns, table.rounding, value)
    for column in table.columns:
        if column_holds(column, value):
            return column
    return None


def rounded_column(
    columns: Sequence[ir.ResultColumn], rounding: ir.Rounding, value: float
) -> ir.ResultColumn:
    match rounding:
        case "down":
            below = [c for c in columns if c.value <= value + POINT_SLACK * max(1, abs(value))]
            return below[-1] if below else columns[0]
        case "up":
            above = [c for c in columns if c.value >= value - POINT_SLACK * max(1, abs(value))]
            return above[0] if above else columns[-1]
        case _:
            assert_never(rounding)


def column_holds(column: ir.ResultColumn, value: float) -> bool:
    """Whether the column's bound holds for a value of the table's input (a column ``at`` a
    point holds only for the point itself; its table's rounding gives the rest)."""
    match column.bound:
        case "up_to":
            return value <= column.value
        case "above":
            return value > column.value
        case "at":
            return value == column.value
        case "category":  # named by the caller, never picked by a value (issue 40)
            return False
        case _:
            assert_never(column.bound)


def result_covers(row: ir.ResultRow, total: int) -> bool:
    return (row.low is None or total >= row.low) and (row.high is None or total <= row.high)


def result(
    table: ir.ResultsTable, total: int, column: str, natural: int | None = None
) -> str | None:
    """The outcome of a roll on a results table: a natural row for the natural roll wins;
    else the outcome in ``column`` of the first row covering ``total``; None if none does."""
    index = [c.id for c in table.columns].index(column)
    given = next(
        (
            r.outcomes[index]
            for r in table.rows
            if result_covers(r, total) and index < len(r.outcomes)
        ),
        None,
    )
    nat = next((n for n in table.naturals if n.roll == natural), None)
    if nat is None:
        return given
    if nat.by_column:
        return nat.by_column[index] if index < len(nat.by_column) else given
    if not nat.at_least or given is None:
        return nat.outcome
    order = [o.id for o in table.outcomes]
    if given in order and nat.outcome in order:
        return max(given, nat.outcome, key=order.index)  # "at least": the later outcome
    return nat.outcome


def column_decision(rs: ir.Ruleset, table: ir.ResultsTable) -> ir.Decision | None:
    """The decision whose outcome names the column of a results table whose columns are
    categories (issue 40): the decision its ``by`` names, when that decision gives outcomes
    (not numbers). ``dice penetration : 1d6 by gun_class``: ``gun_class``'s outcome ``heavy``
    picks the column ``heavy``."""
    if not table.columns or not all(words.is_category(c.bound) for c in table.columns):
        return None
    found = next((d for d in rs.decisions if d.id == table.by), None)
    if found is None or any(r.answer is not None for r in found.rows):
        return None
    return found


def shifted_column(table: ir.ResultsTable, column: str, shift: int) -> str:
    """The column ``shift`` columns to the right of ``column`` (left when negative), stopping
    at the first and the last column (issue 25)."""
    ids = [c.id for c in table.columns]
    return ids[max(0, min(len(ids) - 1, ids.index(column) + shift))]


def modifier_chances(
    table: ir.ResultsTable, column: str, m: ir.DiceModifier
) -> dict[str, Fraction]:
    """Each outcome's chance in ``column`` with the modifier ``m``: added to the roll, or
    shifting the column."""
    return result_chances(table, shifted_column(table, column, m.shift), m.value)


def result_chances(table: ir.ResultsTable, column: str, shift: int = 0) -> dict[str, Fraction]:
    """The exact chance of each outcome in ``column`` (issue 25), every declared outcome in
    order, natural rolls included: each natural roll of the dice gives the natural row's
    outcome if there is one, else the outcome of the row covering it plus ``shift`` (a
    modifier)."""
    chances = {o.id: Fraction(0) for o in table.outcomes}
    for natural, p in roll_of(table.dice).distribution().items():
        outcome = result(table, natural + shift, column, natural)
        if outcome is not None:
            chances[outcome] = chances.get(outcome, Fraction(0)) + p
    return chances


def trigger_shift(rs: ir.Ruleset, trigger: ir.Trigger) -> int:
    """What a trigger's modifiers add to its roll together (``with a, b``: both)."""
    tables: list[ir.DiceTable | ir.ResultsTable] = [*rs.dice_tables, *rs.results_tables]
    amounts = {m.id: m.value for t in tables if t.id == trigger.table for m in t.modifiers}
    return sum(amounts.get(m, 0) for m in (trigger.modifier, *trigger.more_modifiers) if m)


def trigger_shifts(rs: ir.Ruleset, table_id: str) -> list[int]:
    """What each trigger that rolls on ``table_id`` with several modifiers adds to the roll."""
    return [trigger_shift(rs, t) for t in rs.triggers if t.table == table_id and t.more_modifiers]


def results_index(table: ir.ResultsTable, shifts: Iterable[int] = ()) -> dict[int, int]:
    """Every total the dice reach (alone, with one declared modifier, or with ``shifts``)
    -> the index of the first row that covers it."""
    index: dict[int, int] = {}
    mods = [*(m.value for m in table.modifiers), *shifts]
    for total in reachable_totals(table.dice, mods):
        for i, row in enumerate(table.rows):
            if result_covers(row, total):
                index[total] = i
                break
    return index


BLOCKED = ir.Marker("blocked")


@dataclass(frozen=True, slots=False)
class SightLine:
    """What a line of places gives for a sight rule: the hindrance of the counted places,
    whether the line is blocked, and each place's own hindrance (0 for a place the rule does
    not count; ``BLOCKED`` for a counted place that blocks by itself)."""

    hindrance: float
    blocked: bool
    by_place: tuple[float | ir.Marker, ...]


def counted_places(rule: ir.Sight, count: int) -> range:
    """The indexes of the places a line of ``count`` places (firer first, target last) counts:
    ``between`` leaves out both ends, ``target`` only the firer's place, ``both`` neither."""
    match rule.counts:
        case "between":
            return range(1, count - 1)
        case "target":
            return range(1, count)
        case "both":
            return range(0, count)
        case _:
            assert_never(rule.counts)


def covers_map(layer: ir.Layer) -> bool:
    """Whether a layer's features hold for the whole map (weather, conditions)."""
    match layer.scope:
        case "map":
            return True
        case "many" | "one" | "edges":
            return False
        case _:
            assert_never(layer.scope)


def on_edges(layer: ir.Layer) -> bool:
    """Whether a layer's features stand on the edges between places (paid on crossing)."""
    match layer.scope:
        case "edges":
            return True
        case "many" | "one" | "map":
            return False
        case _:
            assert_never(layer.scope)


def one_per_place(layer: ir.Layer) -> bool:
    """Whether a place holds at most one feature of the layer."""
    match layer.scope:
        case "one":
            return True
        case "many" | "map" | "edges":
            return False
        case _:
            assert_never(layer.scope)


def has_diagonals(grid: ir.Grid) -> bool:
    """Whether a step may go diagonally on the grid (a square grid that costs diagonals)."""
    match grid.shape:
        case "square":
            return bool(grid.diagonals)
        case "hex":
            return False
        case _:
            assert_never(grid.shape)


def path_length(grid: ir.Grid, steps: Iterable[str], unit: str | None) -> float:
    """The length in ``unit`` (1 a cell when the grid does not give it) of a path of ``s``
    (straight) and ``d`` (diagonal) steps: a diagonal counts the grid's ``diagonals`` cycle of
    cells in turn, carried across the straight steps between; ValueError for a diagonal on a
    grid without them."""
    cells = 0
    diagonals = 0
    for step in steps:
        if step == "s":
            cells += 1
        else:
            if not grid.diagonals:
                raise ValueError(f"the grid '{grid.id}' has no diagonals")
            cells += grid.diagonals[diagonals % len(grid.diagonals)]
            diagonals += 1
    return cells * next((n.value for n in grid.size if n.unit == unit), 1.0)
