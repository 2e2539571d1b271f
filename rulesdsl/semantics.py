"""What the rules mean: one home for the semantics of each construct, read from the IR.

The compiler's stages and tools all ask this module rather than re-deriving meaning:

- lowering resolves each feature's cost per mode with :func:`written_cost` (mode, then group,
  then the value for all);
- the Python backend precomputes the dice index with :func:`dice_index` and emits step
  bodies that compute :func:`step_value`;
- the sheet model draws step diagrams from :func:`step_value`;
- the checks compute dice coverage from :func:`reachable_totals`.

It also answers whole rules questions (:func:`move_cost`, :func:`modifier`, :func:`decide`,
:func:`roll`) as a reference: a test asks every bundled ruleset's generated module and this
module the same questions and requires the same answers, so the generated code cannot drift
from the meaning defined here. Answers that are not numbers are :class:`rulesdsl.ir.Marker`
values; a movement cost that depends on a parameter nobody filled in is :class:`Unfilled`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import assert_never

from rulesdsl import dice, ir

IMPASSABLE = ir.Marker("impassable")
PROHIBITED = ir.Marker("prohibited")

Answer = float | ir.Marker
"""A number, or a marker (impassable, prohibited, blocked)."""


@dataclass(frozen=True)
class Unfilled:
    """A cost that needs the scenario parameter ``param``, which the ruleset leaves open."""

    param: str


# ---- movement costs -----------------------------------------------------------------------


def written_cost(cell: ir.Cell, mode: str, groups: Sequence[ir.Group]) -> ir.Value | None:
    """The value a cost cell gives ``mode``: its own exception, else the first declared group
    that holds it and has one, else the value for all (None when the cell has none)."""
    if mode in cell.exceptions:
        return cell.exceptions[mode]
    for group in groups:
        if mode in group.members and group.id in cell.exceptions:
            return cell.exceptions[group.id]
    return cell.default


def per_distance(value: ir.Value, params: Mapping[str, float | None]) -> Answer | Unfilled:
    """A resolved cost per distance unit: a number, a marker, or the unfilled parameter."""
    match value:
        case ir.Number(value=v):
            return v
        case ir.Rate(amount=a, per=p):
            return a.value / p.value
        case ir.ParamRate(amount=a, param=name):
            filled = params.get(name)
            return Unfilled(name) if not filled else a.value / filled
        case ir.Same(resolved=resolved):
            return per_distance(resolved, params)
        case ir.Marker():
            return value
        case (
            ir.Trade()
            | ir.Span()
            | ir.Symbol()
            | ir.Flag()
            | ir.DiceValue()
            | ir.D66Value()
            | ir.Given()
            | ir.Text()
        ):
            raise ValueError(f"not a movement cost: {value!r}")
        case _:
            assert_never(value)


def param_values(rs: ir.Ruleset) -> dict[str, float | None]:
    """Each scenario parameter's number, None while unfilled."""
    return {p.id: p.value.value if isinstance(p.value, ir.Number) else None for p in rs.params}


def counted(rs: ir.Ruleset, names: Sequence[str]) -> tuple[str, ...]:
    """The names that count in a place: a feature that ignores others silences the other
    features there; whole-map conditions and modifier factors still count."""
    features = {f.id: f for f in rs.features}
    if not any(n in features and features[n].ignores_others for n in names):
        return tuple(names)
    whole_map = {layer.id for layer in rs.layers if layer.scope == "map"}
    return tuple(
        n
        for n in names
        if n not in features or features[n].ignores_others or features[n].layer in whole_map
    )


def move_cost(
    rs: ir.Ruleset, mode: str, features: Sequence[str], distance: float = 1
) -> Answer | Unfilled:
    """The stacking policy ``sum``: the entry cost plus every counted feature's cost per
    distance unit, times the distance; prohibited before impassable."""
    by_id = {f.id: f for f in rs.features}
    params = param_values(rs)
    total = rs.entry_cost
    impassable = False
    for name in counted(rs, features):
        cost = per_distance(by_id[name].costs[mode], params)
        match cost:
            case Unfilled():
                return cost
            case ir.Marker(marker="prohibited"):
                return PROHIBITED
            case ir.Marker():
                impassable = True
            case float() | int():
                total += cost
            case _:
                assert_never(cost)
    return IMPASSABLE if impassable else total * distance


# ---- modifiers ------------------------------------------------------------------------------


def modifier(
    rs: ir.Ruleset,
    name: str,
    items: Sequence[str],
    context: str = "",
    given: Mapping[str, float] | None = None,
) -> Answer:
    """The modifier ``name`` over ``items``: combinations present first (a marker replaces the
    sum), then each counted item's value for the context value (else its value for all); a
    ``given`` value is the one the caller gives for that item."""
    mod = next(m for m in rs.modifiers if m.id == name)
    present = counted(rs, items)
    total = 0.0
    for combo in mod.combinations:
        if set(combo.members) <= set(present):
            value = _number_or_marker(combo.value)
            if isinstance(value, ir.Marker):
                return value
            total += value
    for item in present:
        by_context = mod.values.get(item, {})
        chosen = by_context.get(context, by_context.get(""))
        if chosen is None:
            continue
        if isinstance(chosen, ir.Given):
            total += (given or {})[item]  # KeyError: the caller did not give it
            continue
        value = _number_or_marker(chosen)
        if isinstance(value, ir.Marker):
            return value
        total += value
    return total


def _number_or_marker(value: ir.Value) -> Answer:
    match value:
        case ir.Number(value=v):
            return v
        case ir.Marker():
            return value
        case ir.Same(resolved=resolved):
            return _number_or_marker(resolved)
        case _:
            raise ValueError(f"not a modifier value: {value!r}")


# ---- steps ----------------------------------------------------------------------------------


def whole(amount: float, every: float) -> int:
    """How many whole ``every`` fit in ``amount``, read as the decimals the rules write: 0.6
    holds three 0.2 (in binary floating point 0.6 / 0.2 is 2.9999999999999996)."""
    return math.floor(round(amount / every, 9))


def reaches(x: float, at: float, strict: bool) -> bool:
    """Whether the input has reached a threshold (``strict``: gone beyond it)."""
    return x > at if strict else x >= at


def step_value(step: ir.Step, x: float) -> Answer:
    """A step function at ``x``: impassable once a threshold is reached, else the sum of its
    rates (``full``: whole multiples only), raised to any floor whose threshold is reached."""
    for t in step.terms:
        if t.term == "impassable" and reaches(x, t.at, t.strict):
            return IMPASSABLE
    value = 0.0
    for t in step.terms:
        if t.term == "rate":
            value += t.amount * (whole(x, t.every) if t.full else x / t.every)
    for t in step.terms:
        if t.term == "floor" and reaches(x, t.at, t.strict):
            value = max(value, t.amount)
    return value


# ---- decisions ------------------------------------------------------------------------------

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


def operand(op: ir.Operand, inputs: Inputs) -> float:
    match op:
        case ir.InputOperand(input=name, scale_op=scale_op, scale=scale):
            value = float(inputs[name])
            return value * scale if scale_op == "*" else value / scale if scale_op else value
        case ir.LiteralOperand(value=value):
            return value
        case ir.CellOperand(cell=ref):
            return float(cell_value(ref, inputs))
        case _:
            assert_never(op)


_COMPARE = {
    "<": float.__lt__,
    "<=": float.__le__,
    ">": float.__gt__,
    ">=": float.__ge__,
    "=": float.__eq__,
    "!=": float.__ne__,
}


def holds(c: ir.Condition, inputs: Inputs) -> bool:
    """Whether one condition of a decision row holds for these inputs."""
    match c:
        case ir.Comparison(left=left, op=op, right=right):
            return bool(_COMPARE[op](operand(left, inputs), operand(right, inputs)))
        case ir.InputTruth(input=name, holds=wanted):
            return bool(inputs[name]) == wanted
        case ir.CellTruth(cell=ref, holds=wanted):
            return bool(cell_value(ref, inputs)) == wanted
        case _:
            assert_never(c)


def decide(decision: ir.Decision, inputs: Inputs) -> str:
    """The outcome of the first row whose conditions all hold (``otherwise`` holds always)."""
    for row in decision.rows:
        if all(holds(c, inputs) for c in row.conditions):
            return row.outcome
    raise ValueError(f"no row of {decision.id!r} holds")  # checks require `otherwise`


# ---- dice -----------------------------------------------------------------------------------


def roll_of(value: ir.DiceRoll) -> dice.Roll:
    """The roll a dice value stands for, with its exact chances (rulesdsl.dice)."""
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


def roll(table: ir.DiceTable, total: int) -> ir.DiceRow | None:
    """The first row that covers ``total``, None if no row does."""
    return next((row for row in table.rows if covers(row, total)), None)


def dice_index(table: ir.DiceTable) -> dict[int, int]:
    """Every reachable total -> the index of the row that covers it."""
    index: dict[int, int] = {}
    for total in reachable_totals(table.dice, (m.value for m in table.modifiers)):
        for i, row in enumerate(table.rows):
            if covers(row, total):
                index[total] = i
                break
    return index


# ---- line of sight and results tables (issue 11, items 9 and 10) ----------------------------

BLOCKED = ir.Marker("blocked")


@dataclass(frozen=True)
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


def place_hindrance(rs: ir.Ruleset, rule: ir.Sight, features: Sequence[str]) -> Answer:
    """One place's hindrance: its features' values added up (``counted`` applies, so a
    feature that ignores the others stands alone), or BLOCKED if one of them blocks."""
    by_id = {f.id: f for f in rs.features}
    total: float = 0
    for name in counted(rs, features):
        cell = by_id[name].cells.get(rule.id)
        value = cell.default if cell is not None else None
        if isinstance(value, ir.Marker):
            return BLOCKED
        if isinstance(value, ir.Number):
            total += value.value
    return total


def line_of_sight(rs: ir.Ruleset, rule: ir.Sight, places: Sequence[Sequence[str]]) -> SightLine:
    """The line from the firer's place (first) to the target's (last): the counted places'
    hindrance adds up; the line is blocked once it reaches ``blocks_at`` or when a counted
    place blocks by itself."""
    counted_at = set(counted_places(rule, len(places)))
    by_place: list[float | ir.Marker] = []
    total: float = 0
    blocked = False
    for i, place in enumerate(places):
        if i not in counted_at:
            by_place.append(0)
            continue
        value = place_hindrance(rs, rule, place)
        by_place.append(value)
        if isinstance(value, ir.Marker):
            blocked = True
        else:
            total += value
    if rule.blocks_at is not None and total >= rule.blocks_at:
        blocked = True
    return SightLine(total, blocked, tuple(by_place))


def result_column(table: ir.ResultsTable, value: float) -> ir.ResultColumn | None:
    """The column a value of the table's input picks: the first, in declared order, whose
    bound holds (``up to V``: value <= V; ``above V``: value > V)."""
    for column in table.columns:
        if (column.bound == "up_to" and value <= column.value) or (
            column.bound == "above" and value > column.value
        ):
            return column
    return None


def result_covers(row: ir.ResultRow, total: int) -> bool:
    return (row.low is None or total >= row.low) and (row.high is None or total <= row.high)


def result(
    table: ir.ResultsTable, total: int, column: str, natural: int | None = None
) -> str | None:
    """The outcome of a roll on a results table: a natural row for the natural roll wins;
    else the outcome in ``column`` of the first row covering ``total``; None if none does."""
    if natural is not None:
        for nat in table.naturals:
            if nat.roll == natural:
                return nat.outcome
    index = [c.id for c in table.columns].index(column)
    for row in table.rows:
        if result_covers(row, total) and index < len(row.outcomes):
            return row.outcomes[index]
    return None


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
