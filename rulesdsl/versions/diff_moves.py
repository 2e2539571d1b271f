"""`rulesdsl diff` for kinds of move and the rolls the map makes due (issue 24).

Called by :class:`rulesdsl.versions.diff._Differ` with itself. A changed allowance, a feature
barred or let in, or a kind's own cost changes what a move costs or allows, so each is
breaking; so is any change to a roll (its dice or table, when it is due, how a place's values
combine, who rolls and at what). A new kind or roll is additive, a removed one breaking.
"""

from __future__ import annotations

from rulesdsl import ir, spelling
from rulesdsl.versions.diff_sight import Differ


def _amount(kind: ir.MoveKind) -> str:
    return f"times {kind.factor:g}" + (f", {kind.amount:+g}" if kind.amount else "")


def _costs(kind: ir.MoveKind) -> dict[str, str]:
    return {
        f"{feature}.{mode}": spelling.value(value)
        for feature, by_mode in sorted(kind.costs.items())
        for mode, value in sorted(by_mode.items())
    }


def moves(d: Differ) -> None:
    for a, b in d._named("kind of move", d.old.moves, d.new.moves, lambda k: k.id):
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
        old, new = _costs(a), _costs(b)
        for key in sorted(old.keys() | new.keys()):
            if old.get(key) != new.get(key):
                before, after = old.get(key, "the unit's"), new.get(key, "the unit's")
                d.add(
                    "breaking",
                    "changed",
                    f"{b.id}.{key}",
                    f"{name}, {key}: {before} -> {after}",
                    before,
                    after,
                )


def _how(rule: ir.RollRule) -> str:
    roll = spelling.dice(rule.dice) if rule.dice is not None else rule.table or "?"
    return f"{roll} on {rule.when.replace('_', ' ')}, combine {rule.combine}"


def _values(rule: ir.RollRule) -> dict[str, str]:
    out = {
        f"{feature}.{mode}": f"{value:+g}"
        for feature, by_mode in rule.values.items()
        for mode, value in by_mode.items()
    }
    out |= {
        f"{feature}.{mode} ({kind})": f"{value:+g}"
        for kind, by_feature in rule.by_move.items()
        for feature, by_mode in by_feature.items()
        for mode, value in by_mode.items()
    }
    return out


def rolls(d: Differ) -> None:
    for a, b in d._named("roll", d.old.rolls, d.new.rolls, lambda r: r.id):
        name = d.label(b.info, b.id)
        if _how(a) != _how(b):
            d.add("breaking", "changed", b.id, f"{name}: {_how(a)} -> {_how(b)}", _how(a), _how(b))
        old, new = _values(a), _values(b)
        for key in sorted(old.keys() | new.keys()):
            if old.get(key) != new.get(key):
                before, after = old.get(key, "no roll"), new.get(key, "no roll")
                d.add(
                    "breaking",
                    "changed",
                    f"{b.id}.{key}",
                    f"{name}, {key}: {before} -> {after}",
                    before,
                    after,
                )
