"""Roll reach pass (issue 24): a roll the map makes due on a dice table must land in a row
whatever modifier its column cells and whole-map conditions can give (W340).

For each roll rule on a dice table, for each unit type and kind of move, the modifiers a
place can give are listed: one value from each layer of one feature a place, any of the values
of a layer of many (or of an edge layer), combined by the rule's policy (sum, highest, lowest),
at least one feature calling for the roll, then any of the whole-map conditions' values added
(what :func:`rulesdsl.semantics.moves.place_roll` computes for one place). Each total the dice
can roll plus each such modifier must fall in a row; an open-ended row covers everything
beyond it. The first total that none covers is reported, with the unit, the kind and the
features that give it. The lists are bounded (:data:`MAX_MODIFIERS`): exclusions between
conditions are not read, so the check errs on the side of a warning.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from rulesdsl import ir, semantics, spelling, words
from rulesdsl.checks import walk
from rulesdsl.checks.dice import usable
from rulesdsl.diagnostics import Diagnostic, Related
from rulesdsl.positions import Positions

MAX_MODIFIERS = 4096
"""The most distinct modifiers listed for one roll, unit type and kind (the rest unchecked)."""

_WHEN: words.Total[ir.RollWhen, str] = words.total(
    ir.RollWhen,
    {
        "entering": "entering",
        "crossing": "crossing",
        "ending": "ending its move in",
        "first_entering": "first entering",
        "any_step": "any step",
        "first_step": "first step",
    },
)

Found = dict[float, tuple[str, ...]]
"""Each modifier reached -> the features that first gave it."""


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    tables = {t.id: t for t in rs.dice_tables}
    for rule in rs.rolls:
        table = tables.get(rule.table) if rule.table is not None else None
        if table is None or not usable(table.dice) or not table.rows:
            continue
        found = _first_gap(rs, rule, table)
        if found is None:
            continue
        total, mode, move, features = found
        unit = f"'{mode}'" + (f" making a '{move}' move" if move else "")
        places = " + ".join(f"'{f}'" for f in features)
        by_id = {f.id: f for f in rs.features}
        related = tuple(
            Related(where.of(by_id[f]), f"'{f}' gives the roll its modifier here")
            for f in features[:1]
            if f in by_id
        )
        out.append(
            Diagnostic(
                "W340",
                f"roll '{rule.id}' on '{table.id}': {unit} {_WHEN[rule.when]} {places} can "
                f"roll a total of {total:g}, which no row covers",
                where.of(rule),
                f"open the table's end row (`{_end(table, total)}`), add a row for it, or "
                "give the cell a smaller modifier",
                "warning",
                related,
            )
        )
    return out


def _end(table: ir.DiceTable, total: float) -> str:
    """The end row to open for ``total``: the highest row as ``N+``, or the lowest as ``N-``."""
    rows = [r for r in table.rows if r.low is not None and r.high is not None]
    if not rows:
        return "N+"
    low = min(rows, key=lambda r: r.low or 0)
    high = max(rows, key=lambda r: r.high or 0)
    if total > (high.high or 0):
        return spelling.dice_range(high.low, None)
    return spelling.dice_range(None, low.high)


def _first_gap(
    rs: ir.Ruleset, rule: ir.RollRule, table: ir.DiceTable
) -> tuple[float, str, str | None, tuple[str, ...]] | None:
    plain = semantics.plain_totals(table.dice)
    layers = [layer for layer in rs.layers if rule.id in layer.columns]
    for move in (None, *(k.id for k in rs.moves)):
        for mode in (m.id for m in rs.modes):
            reached = modifiers(rs, rule, layers, mode, move)
            for modifier, features in sorted(reached.items()):
                for total in plain:
                    if not any(_covers(r, total + modifier) for r in table.rows):
                        return total + modifier, mode, move, features
    return None


def _covers(row: ir.DiceRow, total: float) -> bool:
    return (row.low is None or total >= row.low) and (row.high is None or total <= row.high)


def _value(rule: ir.RollRule, feature: str, mode: str, move: str | None) -> float | None:
    if move is not None and feature in rule.by_move.get(move, {}):
        return rule.by_move[move][feature].get(mode)
    return rule.values.get(feature, {}).get(mode)


def modifiers(
    rs: ir.Ruleset, rule: ir.RollRule, layers: Iterable[ir.Layer], mode: str, move: str | None
) -> Found:
    """Every modifier a place (or an edge) can give ``rule`` for ``mode`` making ``move``,
    with the features that give it; empty when no feature calls for the roll."""
    callers: list[tuple[bool, list[tuple[str, float]]]] = []
    extras: list[tuple[str, float]] = []
    for layer in layers:
        values = [(f, v) for f in layer.features if (v := _value(rule, f, mode, move)) is not None]
        if semantics.covers_map(layer):
            extras += values
        elif values:
            callers.append((semantics.one_per_place(layer), values))
    combos = _combine(rule.combine, callers)
    for feature, value in extras:  # conditions: any of them, added
        for modifier, features in list(combos.items()):
            if len(combos) >= MAX_MODIFIERS:
                break
            combos.setdefault(modifier + value, (*features, feature))
    return combos


def _combine(combine: ir.RollCombine, layers: list[tuple[bool, list[tuple[str, float]]]]) -> Found:
    """The values a place's callers give, combined: each layer of one feature adds one of its
    values or none, a layer of many any of them; at least one caller."""
    match combine:
        case "highest" | "lowest":  # the highest (lowest) of several callers is one of them
            return {v: (f,) for _, values in layers for f, v in values}
        case "sum":
            pass
        case _:
            assert_never(combine)
    states: dict[tuple[float, bool], tuple[str, ...]] = {(0.0, False): ()}
    for one, values in layers:
        nexts = dict(states)
        for (total, _), features in states.items():
            for feature, value in values:
                if len(nexts) >= MAX_MODIFIERS:
                    break
                nexts.setdefault((total + value, True), (*features, feature))
        if not one:  # a layer of many: its features may stand together
            for _ in range(len(values) - 1):
                again = dict(nexts)
                for (total, _), features in nexts.items():
                    for feature, value in values:
                        if feature not in features and len(again) < MAX_MODIFIERS:
                            again.setdefault((total + value, True), (*features, feature))
                nexts = again
        states = nexts
    return {total: features for (total, called), features in sorted(states.items()) if called}


__all__ = ["check", "modifiers"]
