"""Checks on whole tables that the lowering pass calls while it still has positions.

Each check appends diagnostics to the list it is given and returns nothing: checks never stop
the run, so every problem of a file is reported together.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesdsl import ir, spelling
from rulesdsl import syntax as s
from rulesdsl.diagnostics import Diagnostic, Related, error
from rulesdsl.dice import MAX_COUNT, MAX_SIDES, Dice


def dice_expression(dice: ir.DiceValue, pos: s.Pos, out: list[Diagnostic]) -> None:
    if not 1 <= dice.count <= MAX_COUNT or not 1 <= dice.sides <= MAX_SIDES:
        out.append(error("E304", f"'{dice.count}d{dice.sides}' is not a usable roll", pos,
                         f"between 1 and {MAX_COUNT} dice of 1 to {MAX_SIDES} sides"))


def dice_coverage(decl: s.DiceDecl, dice: ir.DiceValue, modifiers: Sequence[int],
                  out: list[Diagnostic]) -> None:
    """Every total the dice and any one declared modifier can make falls in exactly one row."""
    if not 1 <= dice.count <= MAX_COUNT or not 1 <= dice.sides <= MAX_SIDES:
        return
    roll = Dice(dice.count, dice.sides, dice.bonus)
    plain = range(roll.minimum, roll.maximum + 1)
    reachable = sorted({t + m for t in plain for m in (0, *modifiers)})
    owner: dict[int, s.DiceRowNode] = {}
    for row in decl.rows:
        low = row.low if row.low is not None else min(reachable[0], row.high or 0)
        high = row.high if row.high is not None else max(reachable[-1], low)
        if low > high:
            out.append(error("E302", f"row '{row.item.name.text}' runs from {low} down to "
                             f"{high}", row.item.pos, "write the smaller total first"))
            continue
        clashes: dict[str, list[int]] = {}
        firsts: dict[str, s.DiceRowNode] = {}
        for total in range(low, high + 1):
            first = owner.get(total)
            if first is None:
                owner[total] = row
            else:
                clashes.setdefault(first.item.name.text, []).append(total)
                firsts[first.item.name.text] = first
        for name, totals in clashes.items():
            first = firsts[name]
            out.append(error(
                "E302", f"{_totals(totals)} in both '{name}' and '{row.item.name.text}'",
                row.item.pos, "each total belongs to one row",
                [Related(first.item.pos, f"'{name}' is here")]))
    gaps = [t for t in plain if t not in owner]
    if gaps:
        out.append(error("E301", f"{_totals(gaps)} of {spelling.dice(dice)} "
                         f"{'is' if len(gaps) == 1 else 'are'} in no row",
                         decl.item.name.pos, "add rows for them, or widen a neighbour"))
        return
    pushed = [t for t in reachable if t not in owner]
    if pushed:
        out.append(error("E303", f"with its modifiers the roll reaches {_totals(pushed)}, "
                         "which no row covers", decl.item.name.pos,
                         f"make the last row open-ended (`{max(owner)}+`) or the first "
                         f"(`{min(owner)}-`)"))


def _totals(totals: list[int]) -> str:
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


KIND_WORDS: dict[str, str] = {
    "number": "a number", "rate": "a rate (`1 per 2 in`)", "param_rate": "a rate per parameter",
    "impassable": "`impassable`", "prohibited": "`prohibited`", "blocked": "`blocked`",
    "same": "`as <feature>`", "symbol": "a word", "flag": "yes/no", "dice": "dice (`1d6+3`)",
    "text": "a quoted text", "span": "a range (`2-3 in`)",
    "trade": "a trade (`+90 deg for -1.5 m`)",
}
"""How diagnostics name each kind of value."""
