"""Dice pass: usable dice expressions (E304), rows in order (E207), and coverage: every total
the dice can roll falls in exactly one row (E301, E302), and so does every total that one
declared modifier can push a roll to (E303).

Rows are compared as intervals, never enumerated, so an open row (`3-`) or a huge modifier
costs nothing; only totals the dice can actually reach are ever listed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from typing import TypeVar, assert_never, cast

from rulesdsl import ir, semantics, spelling
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, Related, error
from rulesdsl.frontends.syntax import Pos
from rulesdsl.positions import Positions
from rulesdsl.semantics.dice import MAX_COUNT, MAX_SIDES


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for table in rs.dice_tables:
        if _usable(table.dice, where.of(table.dice, table), out):
            _coverage(table, where, out)
    for trigger in rs.triggers:
        if trigger.check is not None:
            _usable(trigger.check, where.of(trigger.check, trigger), out)
    for results in rs.results_tables:  # coverage is the results pass's (checks/results.py)
        _usable(results.dice, where.of(results.dice, results), out)
    done = {id(t.dice) for t in rs.dice_tables} | {id(t.dice) for t in rs.results_tables}
    done |= {id(t.check) for t in rs.triggers}
    listed = walk.nodes(rs) if nodes is None else nodes
    for i in listed.positions(lambda kind: issubclass(kind, ir.DiceValue | ir.D66Value)):
        node, owners = listed[i]  # dice in effects and cells (`damage 1d6+3`)
        if id(node) not in done:
            _usable(cast(ir.DiceValue | ir.D66Value, node), where.of(*owners), out)
    return out


def usable(dice: ir.DiceRoll) -> bool:
    """Whether the totals of ``dice`` can be listed: at most MAX_COUNT dice of MAX_SIDES."""
    match dice:
        case ir.DiceValue(count=count, sides=sides):
            return 1 <= count <= MAX_COUNT and 1 <= sides <= MAX_SIDES
        case ir.D66Value():
            return True
        case _:
            assert_never(dice)


def _usable(dice: ir.DiceRoll, pos: Pos, out: list[Diagnostic]) -> bool:
    if usable(dice):
        return True
    out.append(
        error(
            "E304",
            f"'{spelling.dice(dice)}' is not a usable roll",
            pos,
            f"between 1 and {MAX_COUNT} dice of 1 to {MAX_SIDES} sides",
        )
    )
    return False


def bounds(row: ir.DiceRow | ir.ResultRow) -> tuple[float, float]:
    """A row's totals as an interval (an open end is infinite)."""
    return (-math.inf if row.low is None else row.low, math.inf if row.high is None else row.high)


Row = TypeVar("Row", ir.DiceRow, ir.ResultRow)


def overlaps(
    rows: Sequence[Row],
    said: Callable[[Row, Row, float, float], str],
    here: Callable[[Row], str],
    owner: object,
    where: Positions,
    out: list[Diagnostic],
) -> None:
    """E302 at the later of each two rows whose ranges share totals: ``said`` words it from
    the two rows and the lowest and highest total they share, ``here`` names the earlier."""
    for first, later in combinations(rows, 2):
        low = max(bounds(first)[0], bounds(later)[0])
        high = min(bounds(first)[1], bounds(later)[1])
        if low <= high:
            out.append(
                error(
                    "E302",
                    said(first, later, low, high),
                    where.of(later, owner),
                    "each total belongs to one row",
                    [Related(where.of(first, owner), f"{here(first)} is here")],
                )
            )


def in_order(
    rows: Iterable[Row],
    named: Callable[[Row], str],
    owner: object,
    where: Positions,
    out: list[Diagnostic],
) -> list[Row]:
    """The rows whose range runs upwards; E207 for each that runs from high to low."""
    kept = []
    for row in rows:
        low, high = bounds(row)
        if low > high:
            out.append(
                error(
                    "E207",
                    f"row {named(row)} runs from {row.low} down to {row.high}",
                    where.of(row, owner),
                    "write the smaller total first",
                )
            )
        else:
            kept.append(row)
    return kept


def _coverage(table: ir.DiceTable, where: Positions, out: list[Diagnostic]) -> None:
    rows = in_order(table.rows, lambda row: f"'{row.id}'", table, where, out)
    reach = semantics.reachable_totals(table.dice, (m.value for m in table.modifiers))
    overlaps(
        rows,
        lambda a, b, low, high: f"{_overlap(low, high, reach)} in both '{a.id}' and '{b.id}'",
        lambda row: f"'{row.id}'",
        table,
        where,
        out,
    )
    plain = semantics.plain_totals(table.dice)
    gaps = [t for t in plain if not any(semantics.covers(r, t) for r in rows)]
    name_pos = where.of(table)
    if gaps:
        out.append(
            error(
                "E301",
                f"{totals(gaps)} of {spelling.dice(table.dice)} "
                f"{'is' if len(gaps) == 1 else 'are'} in no row",
                name_pos,
                "add rows for them, or widen a neighbour",
            )
        )
        return
    pushed = [t for t in reach if not any(semantics.covers(r, t) for r in rows)]
    if pushed:
        out.append(
            error(
                "E303",
                f"with its modifiers the roll reaches {totals(pushed)}, which no row covers",
                name_pos,
                row_to_add(pushed, [(r.low, r.high) for r in rows], lambda span: f"{span} NAME"),
            )
        )


def _overlap(low: float, high: float, reach: list[int]) -> str:
    """The totals two rows share, listed where the dice reach them."""
    shared = [t for t in reach if low <= t <= high]
    if shared:
        return totals(shared)
    if math.isinf(high):
        return f"totals {int(low)} and above"
    if math.isinf(low):
        return f"totals {int(high)} and below"
    return totals(list(range(int(low), int(high) + 1))[:50])


def totals(totals: list[int]) -> str:
    """``total 7``, ``totals 2-6, 8``: runs of consecutive totals."""
    runs: list[str] = []
    start = prev = totals[0]
    for t in [*totals[1:], None]:
        if t is not None and t == prev + 1:
            prev = t
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        if t is not None:
            start = prev = t
    return ("total " if len(totals) == 1 else "totals ") + ", ".join(runs)


def row_to_add(
    missing: list[int],
    rows: list[tuple[int | None, int | None]],
    written: Callable[[str], str],
) -> str:
    """The hint of E303: the row to add for the totals no row covers (``written`` spells a
    row for a range), or the row to open-end when the missing totals run off its end and it is
    not open-ended yet."""
    runs: list[tuple[int, int]] = []
    for t in missing:
        if runs and runs[-1][1] == t - 1:
            runs[-1] = (runs[-1][0], t)
        else:
            runs.append((t, t))
    lows = [lo for lo, _ in rows if lo is not None]
    highs = [hi for _, hi in rows if hi is not None]
    first = min(lows) if lows and all(lo is not None for lo, _ in rows) else None
    last = max(highs) if highs and all(hi is not None for _, hi in rows) else None
    hints = []
    for lo, hi in runs:
        span = str(lo) if lo == hi else f"{lo}-{hi}"
        if first is not None and hi == first - 1:
            span = f"{hi}-"
            edge = next(r for r in rows if r[0] == first)
            if edge[0] == edge[1]:
                hints.append(f"write the row `{first}` as `{first}-`, or add `{written(span)}`")
                continue
        elif last is not None and lo == last + 1:
            span = f"{lo}+"
            edge = next(r for r in rows if r[1] == last)
            if edge[0] == edge[1]:
                hints.append(f"write the row `{last}` as `{last}+`, or add `{written(span)}`")
                continue
        hints.append(f"add the row `{written(span)}`")
    return "; ".join(hints)
