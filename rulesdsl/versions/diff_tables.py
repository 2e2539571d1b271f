"""`rulesdsl diff` for decisions, tables and dice tables: their inputs, columns, rows and cells.

Called by :class:`rulesdsl.versions.diff._Differ` with itself. A renamed input, a removed
column or row is breaking; a changed cell or effect is a rules change (breaking when its value
changes kind); a new row or column is additive.
"""

from __future__ import annotations

import difflib
from typing import Protocol

from rulesdsl import ir, spelling
from rulesdsl.versions import diff_effects, diff_inputs
from rulesdsl.versions.diff_sight import Differ as _Parts
from rulesdsl.versions.diff_sight import named, naturals


class Differ(_Parts, Protocol):
    """What this module uses of :class:`rulesdsl.versions.diff._Differ`: what the sight diff
    uses, and the comparison of two cell values."""

    def _value(
        self, path: str, what: str, old: ir.Value | None, new: ir.Value | None, unit: str = ""
    ) -> None: ...


def decisions(differ: Differ) -> None:
    for a, b in named(
        differ, "decision", differ.old.decisions, differ.new.decisions, lambda d: d.id
    ):
        name = differ.label(b.info, b.id)
        diff_inputs.inputs(differ, a, b, name)
        if a.result != b.result:
            differ.add(
                "breaking",
                "changed",
                b.id,
                f"{name}: result {a.result} -> {b.result}",
                a.result,
                b.result,
            )
        gave, gives = (any(r.answer for r in d.rows) for d in (a, b))
        if gave != gives:  # its callers get a number instead of an outcome, or the reverse
            was, now = ("a number", "an outcome") if gave else ("an outcome", "a number")
            differ.add("breaking", "changed", b.id, f"{name}: gives {was} -> {now}", was, now)
        outcomes = named(
            differ, f"{name} outcome", a.outcomes, b.outcomes, lambda o: o.id, prefix=b.id
        )
        for o_old, o_new in outcomes:
            differ._value(
                f"{b.id}.{o_new.id}",
                f"{name}, {differ.label(o_new.info, o_new.id)}",
                o_old.value,
                o_new.value,
            )
        rows_a = [spelling.decision_row(r) for r in a.rows]
        rows_b = [spelling.decision_row(r) for r in b.rows]
        if rows_a != rows_b:
            _decision_rows(differ, a, b, name, rows_a, rows_b)


def _decision_rows(
    differ: Differ,
    a: ir.Decision,
    d: ir.Decision,
    name: str,
    text_a: list[str],
    text_b: list[str],
) -> None:
    """The rows that changed, each once: named by its outcome (as a variant names them) when
    outcomes are unique on both sides, else by its place (`row 4`); written with the
    outcomes' labels (issue 40: a 7-row decision was printed whole, twice, in ids)."""
    old, new = a.rows, d.rows
    keys_a = [r.outcome for r in old]
    keys_b = [r.outcome for r in new]
    outcome = {o.id: differ.label(o.info, o.id) for o in (*a.outcomes, *d.outcomes)}

    def shown(row: ir.DecisionRow) -> str:
        return f"{_said(row)} -> {outcome.get(row.outcome, row.outcome)}"

    if len(set(keys_a)) != len(keys_a) or len(set(keys_b)) != len(keys_b):
        _rows_by_place(differ, d, name, [shown(r) for r in old], [shown(r) for r in new])
        return
    was = dict(zip(keys_a, text_a, strict=True))
    now = dict(zip(keys_b, text_b, strict=True))
    for i, row in enumerate(new):
        key = row.outcome
        label = outcome.get(key, key)
        if key not in was:
            after = f" after '{outcome.get(keys_b[i - 1], keys_b[i - 1])}'" if i else " first"
            differ.add(
                "rules",
                "added",
                f"{d.id}.{key}",
                f"{name}: row added{after}: {shown(row)}",
                None,
                now[key],
            )
        elif was[key] != now[key]:
            before, after_ = _said(old[keys_a.index(key)]), _said(row)
            differ.add(
                "rules",
                "changed",
                f"{d.id}.{key}",
                f"{name}, row {label}: {before} -> {after_}",
                before,
                after_,
            )
    for row in old:
        if row.outcome not in now:
            differ.add(
                "rules",
                "removed",
                f"{d.id}.{row.outcome}",
                f"{name}: row removed: {shown(row)}",
                was[row.outcome],
                None,
            )
    common_a = [k for k in keys_a if k in now]
    common_b = [k for k in keys_b if k in was]
    if common_a != common_b:
        differ.add(
            "rules",
            "changed",
            d.id,
            f"{name}: rows reordered: {', '.join(outcome.get(k, k) for k in common_a)} -> "
            + ", ".join(outcome.get(k, k) for k in common_b),
        )


def _said(row: ir.DecisionRow) -> str:
    """A row's conditions, with the number it gives when it gives one (issue 40)."""
    test = " and ".join(spelling.condition(c) for c in row.conditions) or "otherwise"
    return test if row.answer is None else f"{test}, gives {spelling.operand(row.answer)}"


def _rows_by_place(
    differ: Differ, d: ir.Decision, name: str, text_a: list[str], text_b: list[str]
) -> None:
    """Rows whose outcomes repeat: matched by their text (difflib), so that one changed
    bound shows as that row alone, named by its place in the new decision."""
    matcher = difflib.SequenceMatcher(a=text_a, b=text_b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        paired = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        for k in range(paired):
            before, after = text_a[i1 + k], text_b[j1 + k]
            test_a, then_a = before.rsplit(" -> ", 1)
            test_b, then_b = after.rsplit(" -> ", 1)
            row = f"row {j1 + k + 1}" + (f" ({then_b})" if then_a == then_b else "")
            said = f"{test_a} -> {test_b}" if then_a == then_b else f"{before}; now {after}"
            differ.add(
                "rules", "changed", f"{d.id}.{j1 + k + 1}", f"{name}, {row}: {said}", before, after
            )
        for k in range(j1 + paired, j2):
            differ.add(
                "rules",
                "added",
                f"{d.id}.{k + 1}",
                f"{name}: row {k + 1} added: {text_b[k]}",
                None,
                text_b[k],
            )
        for k in range(i1 + paired, i2):
            differ.add(
                "rules",
                "removed",
                f"{d.id}.{k + 1}",
                f"{name}: row removed (was row {k + 1}): {text_a[k]}",
                text_a[k],
                None,
            )


# -- tables -----------------------------------------------------------------------------


def tables(differ: Differ) -> None:
    for a, b in named(differ, "table", differ.old.tables, differ.new.tables, lambda t: t.id):
        name = differ.label(b.info, b.id)
        named(differ, f"{name} column", a.columns, b.columns, lambda c: c.id, prefix=b.id)
        rows = named(differ, f"{name} row", a.rows, b.rows, lambda r: r.key, prefix=b.id)
        for r_old, r_new in rows:
            row_name = differ.label(r_new.info, r_new.key)
            if not b.columns:
                differ._value(
                    f"{b.id}.{r_new.key}",
                    f"{name}, {row_name}",
                    r_old.cells[0] if r_old.cells else None,
                    r_new.cells[0] if r_new.cells else None,
                )
                continue
            old_index = {c.id: i for i, c in enumerate(a.columns)}
            for col in b.columns:
                if col.id not in old_index:
                    continue
                j = old_index[col.id]
                k = [c.id for c in b.columns].index(col.id)
                before = r_old.cells[j] if j < len(r_old.cells) else None
                after = r_new.cells[k] if k < len(r_new.cells) else None
                differ._value(
                    f"{b.id}.{col.id}.{r_new.key}",
                    f"{name}, {row_name} ({differ.label(col.info, col.id)})",
                    before,
                    after,
                )


# -- dice tables -----------------------------------------------------------------------


def dice(differ: Differ) -> None:
    for a, b in named(
        differ, "dice table", differ.old.dice_tables, differ.new.dice_tables, lambda t: t.id
    ):
        name = differ.label(b.info, b.id)
        if a.dice != b.dice:
            differ._value(b.id, f"{name}, dice", a.dice, b.dice)
        mods = named(differ, f"{name} modifier", a.modifiers, b.modifiers, lambda m: m.id)
        for m_old, m_new in mods:
            if m_old.value != m_new.value:
                differ.add(
                    "rules",
                    "changed",
                    m_new.id,
                    f"{name}, "
                    f"{differ.label(m_new.info, m_new.id)}: {m_old.value:+d} -> "
                    f"{m_new.value:+d}",
                    f"{m_old.value:+d}",
                    f"{m_new.value:+d}",
                )
        naturals(differ, "rules", name, b.id, a.naturals, b.naturals)
        rows = named(differ, f"{name} row", a.rows, b.rows, lambda r: r.id, prefix=b.id)
        for r_old, r_new in rows:
            row_name = differ.label(r_new.info, r_new.id)
            path = f"{b.id}.{r_new.id}"
            before = spelling.dice_range(r_old.low, r_old.high)
            after = spelling.dice_range(r_new.low, r_new.high)
            if before != after:
                differ.add(
                    "rules",
                    "changed",
                    path,
                    f"{name}, {row_name}: rolled on {before} -> {after}",
                    before,
                    after,
                )
            for effect in dict.fromkeys([*r_old.effects, *r_new.effects]):
                if effect in diff_effects.fed(differ):
                    continue  # graded as a cost or sight value (issue 24)
                old_value = r_old.effects.get(effect)
                new_value = r_new.effects.get(effect)
                differ._value(path, f"{name}, {row_name}, {effect}", old_value, new_value)
            diff_effects.by_unit(differ, path, f"{name}, {row_name}", r_old.by_unit, r_new.by_unit)
