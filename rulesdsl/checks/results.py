"""Results tables and line of sight pass (issue 11, items 9 and 10).

- sight rules: ``blocks at`` a positive number (E250); a rule no layer column uses (W251);
  ``crossed`` in the ruleset's distance unit, and said when a cell is a step (E260); a step
  cell whose input is in that unit (E261);
- results tables: columns in order with neither overlap nor gap, ending with ``above`` (E255);
  columns that are categories, all of them, with no rounding (E327) and no shift (E328);
  a natural roll the dice can make (E256), given once (E259); coverage of every total the
  dice reach, alone or with one modifier, per column (E301, E302, E303 as for dice tables);
  an outcome no row gives (W250);
- triggers with several modifiers (``with a, b``): the totals they push a roll to must be
  covered (E313), on results and plain dice tables alike.
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import assert_never

from rulesdsl import ir, semantics, spelling, words
from rulesdsl.checks import dice, walk
from rulesdsl.diagnostics import Diagnostic, Related, error, warning
from rulesdsl.positions import Positions, item_field
from rulesdsl.units import DIMENSIONS


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for rule in rs.sights:
        _sight(rs, rule, where, out)
    for table in rs.results_tables:
        _columns(table, where, out)
        _widths(table, where, out)
        if not dice.usable(table.dice):  # E304, from the dice pass: no totals to list
            continue
        _naturals(table, where, out)
        _scale(table, where, out)
        _coverage(table, where, out)
        _unused(table, where, out)
    for plain in rs.dice_tables:  # natural rolls on plain dice tables (issue 25)
        if plain.naturals and dice.usable(plain.dice):
            _naturals(plain, where, out)
    for trigger in rs.triggers:
        _named_twice(rs, trigger, where, out)
    _trigger_reach(rs, where, out)
    return out


def _widths(table: ir.ResultsTable, where: Positions, out: list[Diagnostic]) -> None:
    """One outcome per column in every row (E253)."""
    width = len(table.columns)
    for row in table.rows:
        given = len(row.outcomes)
        if given == width:
            continue
        at = (
            where.of_field(row, item_field("outcomes", width), row, table)
            if given > width
            else where.of(row, table)
        )
        out.append(
            error(
                "E253",
                f"a row of '{table.id}' gives {given} outcome{'' if given == 1 else 's'}, "
                f"the table has {width} column{'' if width == 1 else 's'}",
                at,
                "give one outcome per column, in the order the columns are declared",
            )
        )


def _named_twice(
    rs: ir.Ruleset, trigger: ir.Trigger, where: Positions, out: list[Diagnostic]
) -> None:
    """A dice modifier named twice on one trigger (E258): each counts once per roll."""
    tables: list[ir.DiceTable | ir.ResultsTable] = [*rs.dice_tables, *rs.results_tables]
    mods = {m.id for t in tables if t.id == trigger.table for m in t.modifiers}
    named = [] if trigger.modifier is None else [trigger.modifier, *trigger.more_modifiers]
    for i, name in enumerate(named):
        if name in mods and name in named[:i]:
            out.append(
                error(
                    "E258",
                    f"'{name}' is named twice in trigger '{trigger.id}'",
                    where.of_field(trigger, item_field("modifiers", i), trigger),
                    "each modifier counts once per roll",
                )
            )


def _sight(rs: ir.Ruleset, rule: ir.Sight, where: Positions, out: list[Diagnostic]) -> None:
    above = rule.blocks_when == "above"
    if rule.blocks_at is not None and not (rule.blocks_at >= 0 if above else rule.blocks_at > 0):
        out.append(
            error(
                "E250",
                f"sight rule '{rule.id}' blocks {rule.blocks_when} {rule.blocks_at:g}: "
                "every line would be blocked",
                where.of_field(rule, "blocks_at"),
                "blocks above 0 or more, e.g. `blocks above 2`"
                if above
                else "blocks at a positive total, e.g. `blocks at 3`",
            )
        )
    _crossed(rs, rule, where, out)
    if not any(rule.id in layer.columns for layer in rs.layers):
        out.append(
            warning(
                "W251",
                f"no layer has a '{rule.id}' column: every line is clear",
                where.of(rule),
                f"add it to a layer: `columns cost, {rule.id}`",
            )
        )


def _crossed(rs: ir.Ruleset, rule: ir.Sight, where: Positions, out: list[Diagnostic]) -> None:
    """A step cell answers for the length of line inside its place: the rule says in which
    unit (``crossed``), a distance, and the step takes its input in that unit."""
    distance = rs.units.get("distance")
    if rule.crossed is not None and distance is not None and rule.crossed != distance:
        out.append(
            error(
                "E260",
                f"sight rule '{rule.id}' is crossed in '{rule.crossed}', but distances are in "
                f"'{distance}'",
                where.of_field(rule, "crossed"),
                f"write `crossed {distance}`: the length of line inside a place is a distance",
            )
        )
        return  # the steps' units are compared with the rule's once it is right
    steps = {st.id: st for st in rs.steps}
    for feature in rs.features:
        cell = feature.cells.get(rule.id)
        value = cell.default if cell is not None else None
        if not isinstance(value, ir.StepCost) or value.step not in steps:
            continue
        step = steps[value.step]
        if rule.crossed is None:
            out.append(
                error(
                    "E260",
                    f"'{feature.id}' gives the step '{step.id}' in sight rule '{rule.id}', "
                    "which does not say in what unit a place is crossed",
                    where.of(value, cell, feature),
                    f"add `crossed {distance or step.param_unit}` to `sight {rule.id}`: the "
                    "step answers for the length of line inside the place",
                )
            )
        elif step.param_unit != rule.crossed:
            out.append(
                error(
                    "E261",
                    f"the step '{step.id}' takes '{step.param}' in '{step.param_unit}', but "
                    f"sight rule '{rule.id}' is crossed in '{rule.crossed}'",
                    where.of(value, cell, feature),
                    f"declare the step's input in the same unit: `({step.param} {rule.crossed})`",
                )
            )


def _columns(table: ir.ResultsTable, where: Positions, out: list[Diagnostic]) -> None:
    if not table.columns:
        out.append(
            error(
                "E255",
                f"results table '{table.id}' has no column",
                where.of(table),
                'declare them: `column low "1:1" up to 1` ... `column high "3:1+" above 2`',
            )
        )
        return
    if any(words.is_category(c.bound) for c in table.columns):
        _categories(table, where, out)
        return
    _units(table, where, out)
    if any(_at(c) for c in table.columns) or table.rounding is not None:
        _points(table, where, out)
        return
    previous: ir.ResultColumn | None = None
    for column in table.columns:
        if previous is not None:
            _after(table, previous, column, where, out)
        previous = column
    last = table.columns[-1]
    if not _open(last):
        out.append(
            error(
                "E255",
                f"no column of '{table.id}' takes a {table.by} above {last.value:g}",
                where.of(last, table),
                f"make the last column open: `column {last.id} ... above "
                f"{table.columns[-2].value:g}`"
                if len(table.columns) > 1 and not _open(table.columns[-2])
                else f"add a column `above {last.value:g}`",
            )
        )


def _categories(table: ir.ResultsTable, where: Positions, out: list[Diagnostic]) -> None:
    """Columns that are categories (issue 40): all of them (E327), with no rounding (E327)
    and no column shift (E328): categories have no order to round or shift along."""
    bounded = next((c for c in table.columns if not words.is_category(c.bound)), None)
    if bounded is not None:
        out.append(
            error(
                "E327",
                f"column '{bounded.id}' is bounded `{_bound_word(bounded)}` among columns "
                "that are categories",
                where.of_field(bounded, "value", bounded, table),
                f"name every column of '{table.id}' with no bound (`column heavy \"Heavy\"`), "
                "or bound every one",
            )
        )
    if table.rounding is not None:
        out.append(
            error(
                "E327",
                f"'{table.id}' says how to round, but its columns are categories, not points",
                where.of_field(table, "rounding"),
                "remove the rounding: the caller names the column",
            )
        )
    for mod in table.modifiers:
        if mod.shift:
            out.append(
                error(
                    "E328",
                    f"'{mod.id}' shifts the column of '{table.id}', whose columns are "
                    "categories with no order to shift along",
                    where.of(mod, table),
                    f"make '{mod.id}' add to the roll (`modifier {mod.id} -1`), or bound the "
                    "columns",
                )
            )


def _units(table: ir.ResultsTable, where: Positions, out: list[Diagnostic]) -> None:
    """Every column's bound in one unit, or none in any (E322): `up to 6 in` then `up to 12`
    would compare inches with a bare number."""
    first = table.columns[0]
    if any(c.unit is not None and c.unit not in DIMENSIONS for c in table.columns):
        return  # an unknown unit, E104 from lowering: no follow-on
    for column in table.columns[1:]:
        if column.unit != first.unit:
            out.append(
                error(
                    "E322",
                    f"column '{column.id}' is bounded in {_unit_words(column.unit)}, but "
                    f"'{first.id}' in {_unit_words(first.unit)}",
                    where.of_field(column, "value", column, table),
                    f"write every bound of '{table.id}' in {_unit_words(first.unit)}",
                    [Related(where.of(first, table), f"'{first.id}' is here")],
                )
            )
            return


def _unit_words(unit: str | None) -> str:
    return f"'{unit}'" if unit is not None else "no unit"


def _points(table: ir.ResultsTable, where: Positions, out: list[Diagnostic]) -> None:
    """Columns `at` points (issue 25): all of them, in increasing order, with a rounding that
    says where a value between two points falls (E321); a rounding with no point (W320)."""
    at = [c for c in table.columns if _at(c)]
    if not at:
        out.append(
            warning(
                "W320",
                f"'{table.id}' says how to round, but its columns are bounded by `up to` and "
                "`above`: the rounding changes nothing",
                where.of_field(table, "rounding"),
                'bound the columns at points (`column odds_2_1 "2:1" at 2:1`), or remove '
                "the rounding",
            )
        )
        return
    for column in table.columns:
        if not _at(column):
            out.append(
                error(
                    "E321",
                    f"column '{column.id}' is bounded `{_bound_word(column)}` among columns "
                    "`at` points",
                    where.of_field(column, "value", column, table),
                    "bound every column of the table at its point, e.g. `at 3:1`",
                )
            )
            return
    if table.rounding is None:
        out.append(
            error(
                "E321",
                f"'{table.id}' does not say where a {table.by} between two columns falls",
                where.of_field(table, "by"),
                f"add `round down` (or `round up`) after `by {table.by}`",
            )
        )
    for previous, column in zip(table.columns, table.columns[1:], strict=False):
        if column.value <= previous.value:
            out.append(
                error(
                    "E255",
                    f"column '{column.id}' (at {_point(column)}) does not come after "
                    f"'{previous.id}' (at {_point(previous)})",
                    where.of_field(column, "value", column, table),
                    "give the columns increasing points, in order",
                    [Related(where.of(previous, table), f"'{previous.id}' is here")],
                )
            )


def _at(column: ir.ResultColumn) -> bool:
    """Whether the column sits at a point (``at 2:1``) rather than bounding a range."""
    match column.bound:
        case "at":
            return True
        case "up_to" | "above" | "category":
            return False
        case _:
            assert_never(column.bound)


def _point(column: ir.ResultColumn) -> str:
    if column.ratio is not None:
        return f"{column.ratio[0]}:{column.ratio[1]}"
    return f"{column.value:g}" + (f" {column.unit}" if column.unit else "")


def _bound_word(column: ir.ResultColumn) -> str:
    match column.bound:
        case "up_to":
            return "up to"
        case "above" | "at":
            return column.bound
        case "category":
            return "as a category"
        case _:
            assert_never(column.bound)


def _open(column: ir.ResultColumn) -> bool:
    """Whether the column takes every value above its bound."""
    match column.bound:
        case "above":
            return True
        case "up_to" | "at" | "category":
            return False
        case _:
            assert_never(column.bound)


def _after(
    table: ir.ResultsTable,
    previous: ir.ResultColumn,
    column: ir.ResultColumn,
    where: Positions,
    out: list[Diagnostic],
) -> None:
    """A column against the one before it: no column after an open one, no overlap, no gap."""
    pos = where.of_field(column, "value", column, table)
    seen = [Related(where.of(previous, table), f"'{previous.id}' is here")]
    if _open(previous):
        out.append(
            error(
                "E255",
                f"column '{column.id}' comes after '{previous.id}', which already takes "
                f"every {table.by} above {previous.value:g}",
                where.of(column, table),
                "the `above` column is the last one",
                seen,
            )
        )
        return
    match column.bound:
        case "up_to":
            if column.value <= previous.value:
                out.append(
                    error(
                        "E255",
                        f"column '{column.id}' (up to {column.value:g}) overlaps "
                        f"'{previous.id}' (up to {previous.value:g}): it would never be picked",
                        pos,
                        "give the columns increasing bounds, in order",
                        seen,
                    )
                )
        case "above":
            if column.value != previous.value:
                kind = "gap" if column.value > previous.value else "overlap"
                out.append(
                    error(
                        "E255",
                        f"column '{column.id}' starts above {column.value:g} but "
                        f"'{previous.id}' ends at {previous.value:g}: a {kind} between them",
                        pos,
                        f"write `above {previous.value:g}`",
                        seen,
                    )
                )
        case "at" | "category":  # checked by _points and _categories
            pass
        case _:
            assert_never(column.bound)


def _naturals(
    table: ir.ResultsTable | ir.DiceTable, where: Positions, out: list[Diagnostic]
) -> None:
    plain = set(semantics.plain_totals(table.dice))
    seen: dict[int, ir.NaturalRow] = {}
    width = len(table.columns) if isinstance(table, ir.ResultsTable) else 0
    for nat in table.naturals:
        pos = where.of(nat, table)
        if nat.by_column and len(nat.by_column) != width:
            given = len(nat.by_column)
            out.append(
                error(
                    "E253",
                    f"natural {nat.roll} of '{table.id}' gives {given} "
                    f"outcome{'' if given == 1 else 's'}, the table has {width} "
                    f"column{'' if width == 1 else 's'}",
                    where.of_field(nat, item_field("outcomes", width), nat, table)
                    if given > width
                    else pos,
                    "give one outcome per column, in the order the columns are declared",
                )
            )
        if nat.roll not in plain:
            out.append(
                error(
                    "E256",
                    f"{spelling.dice(table.dice)} never rolls a natural {nat.roll}",
                    pos,
                    f"the dice roll {min(plain)} to {max(plain)}",
                )
            )
        if nat.roll in seen:
            out.append(
                error(
                    "E259",
                    f"natural {nat.roll} is given twice in '{table.id}'",
                    pos,
                    "keep one outcome for each natural roll",
                    [Related(where.of(seen[nat.roll], table), "first given here")],
                )
            )
        seen.setdefault(nat.roll, nat)


def _scale(table: ir.ResultsTable, where: Positions, out: list[Diagnostic]) -> None:
    """E326: `natural N at least OUTCOME` counts the outcomes in the order they are declared,
    the later the worse; the rows must give them in that order as the total rises, in every
    column, or the scale is not the one the author meant (outcomes declared best-first gave
    "stunned" for "at least wounded", issue 39)."""
    nat = next((n for n in table.naturals if n.at_least), None)
    if nat is None:
        return
    order = {o.id: i for i, o in enumerate(table.outcomes)}
    rows = sorted(table.rows, key=lambda r: -math.inf if r.low is None else r.low)
    for index, column in enumerate(table.columns):
        given = [r.outcomes[index] for r in rows if index < len(r.outcomes)]
        for lower, higher in pairwise(given):
            if order.get(higher, math.inf) < order.get(lower, -math.inf):
                out.append(
                    error(
                        "E326",
                        f"'at least {nat.outcome}' counts the outcomes of '{table.id}' in "
                        f"the order they are declared, the later the worse, and in column "
                        f"'{column.id}' a higher total gives '{higher}', declared before "
                        f"'{lower}'",
                        where.of(nat, table),
                        "declare the outcomes in the order the rows give them as the total "
                        "rises, from the lowest total's to the highest's",
                    )
                )
                return


def _range(row: ir.ResultRow) -> str:
    return spelling.dice_range(row.low, row.high)


def _coverage(table: ir.ResultsTable, where: Positions, out: list[Diagnostic]) -> None:
    rows = dice.in_order(table.rows, _range, table, where, out)
    dice.overlaps(
        rows,
        lambda a, b, _, __: f"rows {_range(a)} and {_range(b)} of '{table.id}' share totals",
        lambda row: f"row {_range(row)}",
        table,
        where,
        out,
    )
    gaps: dict[int, list[str]] = {}
    pushed: dict[int, list[str]] = {}
    plain = semantics.plain_totals(table.dice)
    reach = semantics.reachable_totals(table.dice, (m.value for m in table.modifiers))
    for index, column in enumerate(table.columns):
        given = [r for r in rows if index < len(r.outcomes)]
        missing = [t for t in plain if not any(semantics.result_covers(r, t) for r in given)]
        for t in missing:
            gaps.setdefault(t, []).append(column.id)
        if not missing:
            for t in reach:
                if not any(semantics.result_covers(r, t) for r in given):
                    pushed.setdefault(t, []).append(column.id)
    width = len(table.columns)
    row_text = " | ".join(["OUTCOME"] * width)
    covered = [(r.low, r.high) for r in rows if len(r.outcomes) >= width]
    if gaps:  # once for the table, not once per column (issue 25)
        out.append(
            error(
                "E301",
                f"{_which_columns(table, gaps, 'in', ', ')}{dice.totals(sorted(gaps))} of "
                f"{spelling.dice(table.dice)} {'is' if len(gaps) == 1 else 'are'} in no row",
                where.of(table),
                dice.row_to_add(sorted(gaps), covered, lambda span: f"{span} | {row_text}"),
            )
        )
    elif pushed:
        out.append(
            error(
                "E303",
                f"with its modifiers the roll reaches {dice.totals(sorted(pushed))}, which no "
                f"row {_which_columns(table, pushed, 'of', ' ')}covers",
                where.of(table),
                dice.row_to_add(sorted(pushed), covered, lambda span: f"{span} | {row_text}"),
            )
        )


def _which_columns(
    table: ir.ResultsTable, missing: dict[int, list[str]], word: str, end: str
) -> str:
    """``in columns 'a', 'b', `` (``word`` and ``end`` as given) when only some columns lack
    the totals; nothing when all do."""
    named = sorted(
        {c for cs in missing.values() for c in cs}, key=[c.id for c in table.columns].index
    )
    if len(named) == len(table.columns):
        return ""
    return f"{word} column{'' if len(named) == 1 else 's'} {', '.join(repr(c) for c in named)}{end}"


def _unused(table: ir.ResultsTable, where: Positions, out: list[Diagnostic]) -> None:
    given = {o for r in table.rows for o in r.outcomes} | {
        o for n in table.naturals for o in (n.outcome, *n.by_column)
    }
    for outcome in table.outcomes:
        if outcome.id not in given:
            out.append(
                warning(
                    "W250",
                    f"no row of '{table.id}' gives the outcome '{outcome.id}'",
                    where.of(outcome, table),
                    "use it in a row or a `natural` line, or remove it",
                )
            )


def _trigger_reach(rs: ir.Ruleset, where: Positions, out: list[Diagnostic]) -> None:
    plain_tables = {t.id: t for t in rs.dice_tables}
    results = {t.id: t for t in rs.results_tables}
    for trigger in rs.triggers:
        if not trigger.more_modifiers:
            continue
        shift = semantics.trigger_shift(rs, trigger)
        dice_roll: ir.DiceRoll
        if trigger.table in plain_tables:
            dice_roll = plain_tables[trigger.table].dice
            covered = [(r.low, r.high) for r in plain_tables[trigger.table].rows]
        elif trigger.table in results:
            dice_roll = results[trigger.table].dice
            covered = [(r.low, r.high) for r in results[trigger.table].rows]
        else:
            continue
        if not dice.usable(dice_roll):
            continue
        reach = sorted({t + shift for t in semantics.plain_totals(dice_roll)})
        pushed = [
            t
            for t in reach
            if not any((lo is None or t >= lo) and (hi is None or t <= hi) for lo, hi in covered)
        ]
        if pushed:
            out.append(
                error(
                    "E313",
                    f"with {', '.join(m for m in (trigger.modifier, *trigger.more_modifiers) if m)}"
                    f" together, '{trigger.id}' reaches {dice.totals(pushed)}, which no row of "
                    f"'{trigger.table}' covers",
                    where.of(trigger),
                    "make the last row open-ended (`N+`) or the first (`N-`)",
                )
            )
