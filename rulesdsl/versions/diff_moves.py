"""`rulesdsl diff` for kinds of move and the rolls the map makes due (issue 24).

Called by :class:`rulesdsl.versions.diff._Differ` with itself. A changed allowance or a
feature barred or let in changes what a move allows, so each is breaking, and so is a kind's
own cost that changes kind (a number becoming `impassable`, or the unit's own cost); a number
that changes is a rules change, as a cost cell's is. A change to how a roll is made (its dice
or table, when it is due, how a place's values combine) is breaking; who rolls and at what is
a rules change. A cell is one change, whatever the number of unit types it speaks for (issue
39: one cell was listed once per unit type). A new kind or roll is additive, a removed one
breaking.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulesdsl import ir, spelling
from rulesdsl.semantics.moves import may_make
from rulesdsl.versions.diff_sight import Differ, Level, breaking, named


def _amount(kind: ir.MoveKind) -> str:
    return f"times {kind.factor:g}" + (f", {kind.amount:+g}" if kind.amount else "")


def _costs(kind: ir.MoveKind) -> dict[str, dict[str, ir.Value]]:
    return {feature: dict(by_mode) for feature, by_mode in kind.costs.items()}


def _cells(
    d: Differ,
    name: str,
    prefix: str,
    old: Mapping[str, Mapping[str, ir.Value | float]],
    new: Mapping[str, Mapping[str, ir.Value | float]],
    absent: str,
    level_of_kind: bool = True,
) -> None:
    """One change per cell (``old``/``new``: cell -> unit type -> value) and per change of
    value in it: the unit types named only when the change is not the same for all of them.
    A number for a number is a rules change; with ``level_of_kind``, anything else (a number
    for ``impassable``, for the unit's own cost) is breaking."""
    modes = [m.id for m in d.new.modes]
    for cell in sorted(old.keys() | new.keys()):
        a, b = old.get(cell, {}), new.get(cell, {})
        groups: dict[tuple[str, str], list[str]] = {}
        numbers: dict[tuple[str, str], bool] = {}
        for mode in modes:
            was, now = a.get(mode), b.get(mode)
            if was == now:
                continue
            key = (_text(was, absent), _text(now, absent))
            groups.setdefault(key, []).append(mode)
            numbers[key] = numbers.get(key, True) and _number(was) and _number(now)
        for (before, after), changed in groups.items():
            every = len(groups) == 1 and len(changed) == len(modes)
            one = every or len(changed) > 1
            path = f"{prefix}.{cell}" if one else f"{prefix}.{cell}.{changed[0]}"
            whom = cell if every else f"{cell} ({', '.join(changed)})"
            breaks = level_of_kind and not numbers[before, after]
            level: Level = "breaking" if breaks else "rules"
            d.add(level, "changed", path, f"{name}, {whom}: {before} -> {after}", before, after)


def _text(value: ir.Value | float | None, absent: str) -> str:
    if value is None:
        return absent
    return f"{value:+g}" if isinstance(value, float) else spelling.value(value)


def _number(value: ir.Value | float | None) -> bool:
    return isinstance(value, float | ir.Number)


def moves(d: Differ) -> None:
    for a, b in named(d, "kind of move", d.old.moves, d.new.moves, lambda k: k.id):
        name = d.label(b.info, b.id)
        if (a.factor, a.amount) != (b.factor, b.amount):
            before, after = _amount(a), _amount(b)
            d.add(
                "breaking", "changed", b.id, f"{name}: allowance {before} -> {after}", before, after
            )
        if set(a.barred) != set(b.barred):
            before = ", ".join(sorted(a.barred)) or "nothing"
            after = ", ".join(sorted(b.barred)) or "nothing"
            d.add(
                "breaking",
                "changed",
                b.id,
                f"{name}: may not enter {before} -> {after}",
                before,
                after,
            )
        if set(a.only) != set(b.only):  # issue 40: who may make it
            _only(d, a, b, name)
        _cells(d, name, b.id, _costs(a), _costs(b), "the unit's")


def own_allowances(d: Differ) -> None:
    """A unit type's own allowance changed, given or taken away (issue 40): breaking, as the
    routes and reachable judge a move by it when the caller gives none."""
    old = {m.id: m.allowance for m in d.old.modes}
    unit = d.new.units.get("cost", "")
    for mode in d.new.modes:
        if mode.id in old and old[mode.id] != mode.allowance:
            before, after = (
                "none" if a is None else f"{spelling.number(a)} {unit}".rstrip()
                for a in (old[mode.id], mode.allowance)
            )
            d.add(
                "breaking",
                "changed",
                f"{mode.id}.allowance",
                f"{d.label(mode.info, mode.id)}: own allowance {before} -> {after}",
                before,
                after,
            )


def _only(d: Differ, a: ir.MoveKind, b: ir.MoveKind, name: str) -> None:
    """A change of who may make a move: breaking when a unit type that could make it no
    longer may (its calls now fail), additive when only unit types are let in."""
    modes = [m.id for m in d.new.modes if m.id in {o.id for o in d.old.modes}]
    lost = [m for m in modes if may_make(d.old, a, m) and not may_make(d.new, b, m)]
    before = ", ".join(a.only) or "every unit type"
    after = ", ".join(b.only) or "every unit type"
    level: Level = "breaking" if lost else "additive"
    d.add(level, "changed", f"{b.id}.only", f"{name}: only {before} -> {after}", before, after)


def _how(rule: ir.RollRule) -> str:
    roll = spelling.dice(rule.dice) if rule.dice is not None else rule.table or "?"
    band = f", when {rule.state[0]} {rule.state[1]} {rule.state[2]}" if rule.state else ""
    return f"{roll} on {rule.when.replace('_', ' ')}, combine {rule.combine}{band}"


def _values(rule: ir.RollRule) -> dict[str, dict[str, float]]:
    """The roll's cells: a feature's, and a feature's for a kind (``woods (run)``)."""
    out = {feature: dict(by_mode) for feature, by_mode in rule.values.items()}
    out |= {
        f"{feature} ({kind})": dict(by_mode)
        for kind, by_feature in rule.by_move.items()
        for feature, by_mode in by_feature.items()
    }
    return out


def rolls(d: Differ) -> None:
    for a, b in named(d, "roll", d.old.rolls, d.new.rolls, lambda r: r.id):
        name = d.label(b.info, b.id)
        if _how(a) != _how(b):
            d.add("breaking", "changed", b.id, f"{name}: {_how(a)} -> {_how(b)}", _how(a), _how(b))
        _cells(d, name, b.id, _values(a), _values(b), "no roll", level_of_kind=False)


def _says(rule: ir.WholeMove) -> str:
    features = " or ".join(rule.features)
    if rule.bonus is not None:
        return f"on {features}, allowance +{rule.bonus:g}"
    return f"crosses {features}" if rule.most is None else f"at most {rule.most} {features}"


def whole_moves(d: Differ) -> None:
    """A whole-move rule (issue 40) added, removed or changed changes which moves are legal or
    what follows them: breaking. A new label is a wording change (``_info``)."""
    breaking(d, "whole-move rule", d.old.whole_moves, d.new.whole_moves, _says)
