"""`rulesdsl diff` for line-of-sight rules and results tables (issue 11, items 9 and 10).

Called by :class:`rulesdsl.versions.diff._Differ` with itself. A line that was clear may now be
blocked (or the other way round) after any change to a sight rule's threshold, which places it
counts, or a feature's value in its column, so all of these are breaking; so is any change to
what a results table gives for a roll: a cell, a row's range, a column's bounds, a natural
roll, the dice. A new outcome, column or rule is additive; a changed modifier is a rules change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol, TypeVar, assert_never

from rulesdsl import ir, semantics, spelling
from rulesdsl.versions import diff_effects

_T = TypeVar("_T")
Level = diff_effects.Level


class _Named(Protocol):
    """An item a ruleset declares: its id and its labels."""

    @property
    def id(self) -> str: ...

    @property
    def info(self) -> ir.Info: ...


_N = TypeVar("_N", bound=_Named)


class Differ(diff_effects.Differ, Protocol):
    """What this module uses of :class:`rulesdsl.versions.diff._Differ`: what the diff of
    effects does, and its diff of an item's labels and notes (for :func:`named`)."""

    def _info(self, path: str, old: ir.Info, new: ir.Info, fallback: str) -> None: ...


def matched(
    old: Iterable[_T], new: Iterable[_T], key: Callable[[_T], str]
) -> tuple[list[_T], list[_T], list[tuple[_T, _T]]]:
    """(removed, added, kept pairs), in the order of ``old`` for removals, ``new`` otherwise."""
    old_by = {key(x): x for x in old}
    new_by = {key(x): x for x in new}
    removed = [x for k, x in old_by.items() if k not in new_by]
    added = [x for k, x in new_by.items() if k not in old_by]
    kept = [(old_by[k], x) for k, x in new_by.items() if k in old_by]
    return removed, added, kept


def named(
    d: Differ,
    what: str,
    old: Sequence[_T],
    new: Sequence[_T],
    key: Callable[[_T], str],
    *,
    removed_level: Level = "breaking",
    added_level: Level = "additive",
    prefix: str | None = None,
) -> list[tuple[_T, _T]]:
    """Report removed and added items; return the pairs present in both."""
    removed, added, kept = matched(old, new, key)

    def at(k: str) -> str:
        return f"{prefix}.{k}" if prefix else k

    for item in removed:
        info: ir.Info = getattr(item, "info", ir.Info())
        d.add(
            removed_level,
            "removed",
            at(key(item)),
            f"{what} removed: {d.label(info, key(item), d.old)}",
        )
    for item in added:
        info = getattr(item, "info", ir.Info())
        d.add(added_level, "added", at(key(item)), f"{what} added: {d.label(info, key(item))}")
    for a, b in kept:
        d._info(at(key(b)), getattr(a, "info", ir.Info()), getattr(b, "info", ir.Info()), key(b))
    return kept


def worded(
    d: Differ,
    what: str,
    old: Sequence[_T],
    new: Sequence[_T],
    key: Callable[[_T], str],
    prefix: str | None = None,
) -> list[tuple[_T, _T]]:
    """:func:`named` for items the rules do not read (books, worked examples): one added or
    removed is a wording change."""
    return named(
        d, what, old, new, key, removed_level="wording", added_level="wording", prefix=prefix
    )


def breaking(
    d: Differ, what: str, old: Sequence[_N], new: Sequence[_N], says: Callable[[_N], str]
) -> None:
    """:func:`named` for items every change of which is breaking (states, drift, whole-move
    rules): one added or removed, or one whose line (as ``says`` writes it) changed."""
    for a, b in named(d, what, old, new, lambda v: v.id, added_level="breaking"):
        before, after = says(a), says(b)
        if before != after:
            name = d.label(b.info, b.id)
            d.add("breaking", "changed", b.id, f"{name}: {before} -> {after}", before, after)


def _num(value: float | None) -> str:
    return "never" if value is None else f"{value:g}"


def _cell(value: ir.Value | None) -> str:
    return "nothing" if value is None else spelling.value(value)


def sights(d: Differ) -> None:
    for a, b in named(d, "sight rule", d.old.sights, d.new.sights, lambda r: r.id):
        name = d.label(b.info, b.id)
        if (a.blocks_when, a.blocks_at) != (b.blocks_when, b.blocks_at):
            before, after = _num(a.blocks_at), _num(b.blocks_at)
            said = f"blocks {b.blocks_when} {before} -> {after}"
            if a.blocks_when != b.blocks_when:  # `at` -> `above` changes the meaning (issue 40)
                before, after = f"{a.blocks_when} {before}", f"{b.blocks_when} {after}"
                said = f"blocks {before} -> blocks {after}"
            d.add("breaking", "changed", b.id, f"{name}: {said}", before, after)
        if a.crossed != b.crossed:
            before, after = a.crossed or "nothing", b.crossed or "nothing"
            d.add(
                "breaking",
                "changed",
                b.id,
                f"{name}: crossed in {before} -> {after}",
                before,
                after,
            )
        if a.counts != b.counts:
            d.add(
                "breaking",
                "changed",
                b.id,
                f"{name}: counts {a.counts} -> {b.counts}",
                a.counts,
                b.counts,
            )
        if a.target_inside != b.target_inside:
            before = "target inside" if a.target_inside else "target not counted inside"
            after = "target inside" if b.target_inside else "target not counted inside"
            d.add("breaking", "changed", b.id, f"{name}: {before} -> {after}", before, after)
    rules = {r.id for r in d.old.sights} & {r.id for r in d.new.sights}
    shown = {r.id: d.label(r.info, r.id) for r in d.new.sights}
    old_features = {f.id: f for f in d.old.features}
    for f in d.new.features:
        before_feature = old_features.get(f.id)
        if before_feature is None:
            continue
        for rule in sorted(rules):
            old_cell = before_feature.cells.get(rule)
            new_cell = f.cells.get(rule)
            before = _cell(old_cell.default if old_cell else None)
            after = _cell(new_cell.default if new_cell else None)
            if before != after:
                d.add(
                    "breaking",
                    "changed",
                    f"{f.id}.{rule}",
                    f"{d.label(f.info, f.id)}, {shown[rule]}: {before} -> {after}",
                    before,
                    after,
                )
            _keyed(d, f, (rule, shown[rule]), old_cell, new_cell)


def _keyed(
    d: Differ, f: ir.Feature, named: tuple[str, str], old: ir.Cell | None, new: ir.Cell | None
) -> None:
    """A sight value keyed by unit type or keyword (``fly 0``) changed, added or removed: a
    line that unit type saw through may now be blocked, so breaking. ``named``: the rule's id
    and its label."""
    rule, rule_name = named
    was = dict(old.exceptions) if old else {}
    now = dict(new.exceptions) if new else {}
    keys = {m.id: d.label(m.info, m.id) for m in d.new.modes}
    keys.update({g.id: d.label(g.info, g.id) for g in d.new.groups})
    for key in sorted({*was, *now}):
        before, after = _cell(was.get(key)), _cell(now.get(key))
        if before != after:
            d.add(
                "breaking",
                "changed",
                f"{f.id}.{rule}.{key}",
                f"{d.label(f.info, f.id)}, {rule_name} for {keys.get(key, key)}: "
                f"{before} -> {after}",
                before,
                after,
            )


def _bound(c: ir.ResultColumn) -> str:
    value = f"{c.ratio[0]}:{c.ratio[1]}" if c.ratio else f"{c.value:g}"
    value += f" {c.unit}" if c.unit else ""
    match c.bound:
        case "up_to":
            return f"up to {value}"
        case "above":
            return f"above {value}"
        case "at":
            return f"at {value}"
        case "category":
            return "a category"
        case _:
            assert_never(c.bound)


def _rounding(rounding: ir.Rounding | None) -> str:
    return f"round {rounding}" if rounding else "no rounding"


def _natural(n: ir.NaturalRow, shown: Mapping[str, str]) -> str:
    if n.by_column:
        return " | ".join(shown.get(o, o) for o in n.by_column)
    outcome = shown.get(n.outcome, n.outcome)
    return f"at least {outcome}" if n.at_least else outcome


def naturals(
    d: Differ,
    level: Level,
    name: str,
    table: str,
    old: Sequence[ir.NaturalRow],
    new: Sequence[ir.NaturalRow],
) -> None:
    """Natural rolls added, removed or changed (``at least``, per column: issue 25)."""
    shown = diff_effects.labels(d)  # the message names outcomes by their labels (issue 40)
    old_naturals = {n.roll: n for n in old}
    new_naturals = {n.roll: n for n in new}
    for roll in sorted(old_naturals.keys() | new_naturals.keys()):
        was, now = old_naturals.get(roll), new_naturals.get(roll)
        before, after = (_natural(n, {}) if n else "nothing" for n in (was, now))
        if before != after:
            said = " -> ".join(_natural(n, shown) if n else "nothing" for n in (was, now))
            d.add(
                level,
                "changed"
                if roll in old_naturals and roll in new_naturals
                else "added"
                if roll in new_naturals
                else "removed",
                f"{table}.natural.{roll}",
                f"{name}, natural {roll}: {said}",
                before,
                after,
            )


def _picked(d: Differ, a: ir.ResultsTable, b: ir.ResultsTable, name: str) -> None:
    """A decision whose outcome names the column (issue 40): one that starts to pick it is
    additive (a caller may pass its answer as well as the column's name), one that stops
    is breaking (its answer is refused)."""
    was, now = semantics.column_decision(d.old, a), semantics.column_decision(d.new, b)
    if a.by != b.by or (was is None) == (now is None):  # a new `by` is graded as such
        return
    before, after = (d.label(x.info, x.id) if x else "the caller" for x in (was, now))
    level: Level = "additive" if was is None else "breaking"
    said = f"{name}: column named by {before} -> {after}"
    d.add(level, "changed", f"{b.id}.column", said, before, after)


def results(d: Differ) -> None:
    pairs = named(d, "results table", d.old.results_tables, d.new.results_tables, lambda t: t.id)
    for a, b in pairs:
        name = d.label(b.info, b.id)
        if a.dice != b.dice or a.by != b.by:
            before = f"{spelling.dice(a.dice)} by {a.by}"
            after = f"{spelling.dice(b.dice)} by {b.by}"
            d.add("breaking", "changed", b.id, f"{name}: {before} -> {after}", before, after)
        _picked(d, a, b, name)
        if a.rounding != b.rounding:  # a value between columns now falls elsewhere
            before, after = _rounding(a.rounding), _rounding(b.rounding)
            d.add(
                "breaking",
                "changed",
                f"{b.id}.rounding",
                f"{name}, rounding: {before} -> {after}",
                before,
                after,
            )
        for c_old, c_new in named(
            d, f"{name} column", a.columns, b.columns, lambda c: c.id, prefix=b.id
        ):
            if _bound(c_old) != _bound(c_new):
                d.add(
                    "breaking",
                    "changed",
                    f"{b.id}.{c_new.id}",
                    f"{name}, column {d.label(c_new.info, c_new.id)}: "
                    f"{_bound(c_old)} -> {_bound(c_new)}",
                    _bound(c_old),
                    _bound(c_new),
                )
        for o_old, o_new in named(
            d, f"{name} outcome", a.outcomes, b.outcomes, lambda o: o.id, prefix=b.id
        ):
            for effect in dict.fromkeys([*o_old.effects, *o_new.effects]):  # issue 25
                if effect in diff_effects.fed(d):
                    continue  # graded as a cost or sight value (issue 24)
                before = _cell(o_old.effects.get(effect))
                after = _cell(o_new.effects.get(effect))
                if before != after:
                    d.add(
                        "rules",
                        "changed",
                        f"{b.id}.{o_new.id}.{effect}",
                        f"{name}, {d.label(o_new.info, o_new.id)}, {effect}: {before} -> {after}",
                        before,
                        after,
                    )
            what = f"{name}, {d.label(o_new.info, o_new.id)}"
            diff_effects.by_unit(d, f"{b.id}.{o_new.id}", what, o_old.by_unit, o_new.by_unit)
        naturals(d, "breaking", name, b.id, a.naturals, b.naturals)
        _rows(d, name, a, b)
        for m_old, m_new in named(
            d, f"{name} modifier", a.modifiers, b.modifiers, lambda m: m.id, prefix=b.id
        ):
            if m_old.shift != m_new.shift:  # a column shift (issue 25)
                d.add(
                    "rules",
                    "changed",
                    f"{b.id}.{m_new.id}.shift",
                    f"{name}, {d.label(m_new.info, m_new.id)}: column shift {m_old.shift:+d} -> "
                    f"{m_new.shift:+d}",
                    f"{m_old.shift:+d}",
                    f"{m_new.shift:+d}",
                )
            if m_old.on_doubles != m_new.on_doubles:  # whether the dice as rolled apply it
                before, after = (_doubles(m) for m in (m_old, m_new))
                d.add(
                    "rules",
                    "changed",
                    f"{b.id}.{m_new.id}.on_doubles",
                    f"{name}, {d.label(m_new.info, m_new.id)}: {before} -> {after}",
                    before,
                    after,
                )
            if m_old.value != m_new.value:
                d.add(
                    "rules",
                    "changed",
                    f"{b.id}.{m_new.id}",
                    f"{name}, {d.label(m_new.info, m_new.id)}: {m_old.value:+d} -> "
                    f"{m_new.value:+d}",
                    f"{m_old.value:+d}",
                    f"{m_new.value:+d}",
                )


def _doubles(m: ir.DiceModifier) -> str:
    return "on doubles" if m.on_doubles else "not on doubles"


def _rows(d: Differ, name: str, a: ir.ResultsTable, b: ir.ResultsTable) -> None:
    """Each cell compared by the range of totals and the column it answers for."""

    def cells(t: ir.ResultsTable) -> dict[tuple[str, str], str]:
        return {
            (spelling.dice_range(r.low, r.high), c.id): r.outcomes[i]
            for r in t.rows
            for i, c in enumerate(t.columns)
            if i < len(r.outcomes)
        }

    before, after = cells(a), cells(b)
    columns = {c.id for c in a.columns} & {c.id for c in b.columns}
    shown = diff_effects.labels(d)
    column_names = {c.id: d.label(c.info, c.id) for c in b.columns}
    for key in dict.fromkeys([*before, *after]):
        span, column = key
        if column not in columns:
            continue  # the column itself was added or removed
        was, now = before.get(key, "nothing"), after.get(key, "nothing")
        if was != now:
            d.add(
                "breaking",
                "changed",
                f"{b.id}.{span}.{column}",
                f"{name}, {span} in column {column_names[column]}: "
                f"{shown.get(was, was)} -> {shown.get(now, now)}",
                was,
                now,
            )
