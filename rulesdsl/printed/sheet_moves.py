"""Sheet blocks for kinds of move and the rolls the map makes due (issue 24): the kinds as a
small table (allowance, what a unit making the move may not enter, the costs that differ), and
each roll as a sentence ("On entering: roll Bog-down roll (2d6), the highest value counts")
followed by each feature's value per unit, in the sheet's language."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from rulesdsl import ir, semantics, words
from rulesdsl.printed.sheet_view import Block, CellView, HeadCell, TableView, table_block
from rulesdsl.semantics.dice import Roll


class Builder(Protocol):
    """What these blocks use of the sheet builder."""

    rs: ir.Ruleset
    mode: str | None

    def w(self, key: str, **fields: str) -> str: ...
    def label(self, info: ir.Info | None, fallback: str) -> str: ...
    def name(self, ident: str) -> str: ...
    def num(self, value: float) -> str: ...
    def signed(self, value: float) -> str: ...
    def dice_text(self, dice: Roll) -> str: ...
    def note_texts(self, info: ir.Info) -> list[str]: ...
    def source(self, info: ir.Info, detail: bool = True) -> str: ...
    def changed(self, *paths: str) -> bool: ...
    def added(self, *paths: str) -> bool: ...
    def value(self, v: ir.Value | None) -> CellView: ...
    def unit_text(self, number: str, unit: str | None) -> str: ...
    def listed(self, parts: Iterable[str]) -> str: ...


def _allowance(b: Builder, kind: ir.MoveKind) -> str:
    parts = []
    if kind.factor != 1:
        parts.append(b.w("move_times", factor=b.num(kind.factor)))
    if kind.amount:
        parts.append(b.unit_text(b.signed(kind.amount), b.rs.units.get("cost")))
    if kind.only:  # issue 40: who may make the move
        parts.append(b.w("move_only", who=", ".join(b.name(n) for n in kind.only)))
    return ", ".join(parts) or b.w("move_same")


def move_blocks(b: Builder) -> list[Block]:
    """One table: a row per kind of move."""
    if not b.rs.moves:
        return []
    rows = []
    for kind in b.rs.moves:
        name = CellView(b.label(kind.info, kind.id), ("label",))
        name.changed = b.added(kind.id)
        allowance = CellView(_allowance(b, kind))
        allowance.changed = b.changed(f"{kind.id}.factor", f"{kind.id}.amount")
        barred = CellView(", ".join(b.name(f) for f in kind.barred) or "—")
        costs = []
        for feature, by_mode in kind.costs.items():
            value = next(
                iter(by_mode.values()), None
            )  # the kind's one entry, for all it applies to
            if value is not None:
                costs.append(f"{b.name(feature)} {b.value(value).text}")
        rows.append([name, allowance, barred, CellView(b.listed(costs) or "—")])
    heads = [b.w("move_kind"), b.w("move_allowance"), b.w("move_barred"), b.w("move_costs")]
    return [
        table_block("moves", heads, rows, [n for k in b.rs.moves for n in b.note_texts(k.info)])
    ]


_WHEN = words.total(
    ir.RollWhen,
    {
        "entering": "roll_when_entering",
        "crossing": "roll_when_crossing",
        "ending": "roll_when_ending",
        "first_entering": "roll_when_first_entering",
        "any_step": "roll_when_any_step",
        "first_step": "roll_when_first_step",
    },
)
"""The word of each time a roll is due."""


def whole_move_blocks(b: Builder) -> list[Block]:
    """One table: a row per whole-move rule (issue 40), its label and what it says ("At most
    1 per move: River"; "On crossing: Hedge"; "Allowance +4 in when the whole move is on: Road")."""
    rows = []
    for rule in b.rs.whole_moves:
        name = CellView(b.label(rule.info, rule.id), ("label",))
        name.changed = b.added(rule.id)
        features = ", ".join(b.name(f) for f in rule.features)
        says = (
            b.w("whole_move_crosses", features=features)
            if rule.most is None
            else b.w("whole_move_at_most", most=b.num(rule.most), features=features)
        )
        if rule.bonus is not None:
            bonus = b.unit_text(b.signed(rule.bonus), b.rs.units.get("cost"))
            says = b.w("whole_move_bonus", bonus=bonus, features=features)
        rows.append([name, CellView(says)])
    if not rows:
        return []
    heads = [b.w("whole_move_rule"), b.w("whole_move_when")]
    return [
        table_block(
            "whole_moves", heads, rows, [n for w in b.rs.whole_moves for n in b.note_texts(w.info)]
        )
    ]


_COMBINE = words.total(
    ir.RollCombine,
    {"sum": "roll_combine_sum", "highest": "roll_combine_highest", "lowest": "roll_combine_lowest"},
)
"""The word of each way two rolls due in one move combine."""


def _who(b: Builder, modes: list[str]) -> str:
    """Unit types by name, a keyword's name standing for all of its members."""
    left = list(modes)
    names = []
    for group in sorted(b.rs.groups, key=lambda g: -len(g.members)):
        if len(group.members) > 1 and set(group.members) <= set(left):
            names.append(b.name(group.id))
            left = [m for m in left if m not in group.members]
    return ", ".join([*(b.name(m) for m in left), *names])


def _resolved_words(b: Builder, by_mode: dict[str, float], modes: list[str]) -> str:
    """Who of ``modes`` rolls and at what, from the values resolved per mode, in the shorter
    of two forms: ``-1, except BattleMech`` or ``Large vehicle 0`` (``-1`` when all of them
    roll alike)."""
    values = sorted({by_mode[m] for m in modes if m in by_mode})
    parts = []
    for v in values:
        rolling = [m for m in modes if by_mode.get(m) == v]
        others = [m for m in modes if by_mode.get(m) != v]
        if not others:
            parts.append(b.signed(v))
        elif len(values) == 1 and len(_who(b, others)) < len(_who(b, rolling)):
            parts.append(b.w("roll_except", value=b.signed(v), who=_who(b, others)))
        else:
            parts.append(f"{_who(b, rolling)} {b.signed(v)}")
    return b.listed(parts)


def _band(b: Builder, rule: ir.RollRule) -> list[str]:
    """``when altitude below 4`` (issue 40) as the sheet says it; nothing without one."""
    if rule.state is None:
        return []
    state, op, bound = rule.state
    found = next((v for v in b.rs.states if v.id == state), None)
    name = b.label(found.info if found else None, state)
    return [b.w(f"roll_state_{op}", state=name, bound=b.num(bound))]


def roll_blocks(b: Builder) -> list[Block]:
    """Per roll: when it is due and on what, then each feature's value per unit."""
    tables: dict[str, ir.Info] = {t.id: t.info for t in b.rs.dice_tables}
    tables |= {t.id: t.info for t in b.rs.results_tables}
    blocks = []
    for rule in b.rs.rolls:
        label = b.label(rule.info, rule.id)
        rolled = (
            b.dice_text(semantics.roll_of(rule.dice))
            if rule.dice is not None
            else b.label(tables.get(rule.table or ""), rule.table or "")
        )
        line = b.w("roll_due", when=b.w(_WHEN[rule.when]), roll=label, dice=rolled)
        anywhere = rule.when in ("any_step", "first_step")  # issue 40: every unit, no combining
        combined = [] if anywhere else [b.w(_COMBINE[rule.combine])]
        line = b.listed([line, *combined, *_band(b, rule)]) + "."
        rows = []
        whole = {layer.id for layer in b.rs.layers if semantics.covers_map(layer)}
        whole_features = {f.id for f in b.rs.features if f.layer in whole}
        plain_and_kinds = [rule.values, *rule.by_move.values()]
        rolling = {  # a unit that rolls when making a kind of move rolls too
            m
            for values in plain_and_kinds
            for fid, by_mode in values.items()
            if fid not in whole_features
            for m in by_mode
        } | ({m.id for m in b.rs.modes} if anywhere else set())
        if b.mode is not None and b.mode not in rolling:
            continue  # a sheet for one unit type that never makes this roll
        never = [m.id for m in b.rs.modes if m.id not in rolling and b.mode is None]
        modes = [m.id for m in b.rs.modes if m.id in rolling and b.mode in (None, m.id)]
        if never:
            line += " " + b.w("roll_never", who=_who(b, never))
        for f in b.rs.features:
            cell = f.cells.get(rule.id)
            if cell is None or not any(
                m in values.get(f.id, {}) for values in plain_and_kinds for m in modes
            ):
                continue
            name = CellView(b.label(f.info, f.id), ("label",))
            words = _resolved_words(b, rule.values.get(f.id, {}), modes) or b.w("roll_none")
            by_move = [
                b.w("roll_by_move", move=b.label(k.info, k.id), value=kind_words or "—")
                for k in b.rs.moves
                if f.id in rule.by_move.get(k.id, {})
                and (kind_words := _resolved_words(b, rule.by_move[k.id][f.id], modes)) != words
            ]
            if by_move:  # a kind of move's own entries: "0 (Flank: +2)"
                words += f" ({'; '.join(by_move)})"
            if f.layer in whole:  # a condition: it feeds a roll, never calls for one
                words = b.w("roll_adds", value=words)
            value = CellView(words)
            value.changed = b.changed(f"{f.id}.{rule.id}")
            rows.append([name, value])
        heads = [b.w("sight_feature"), b.w("roll_modifier")]
        blocks.append(
            Block(
                rule.id,
                label,
                TableView([[HeadCell(h) for h in heads]], rows, heads, fold=len(rows) > 4)
                if rows
                else None,
                lines=[line],
                after=b.note_texts(rule.info),
                source=b.source(rule.info),
                changed=b.added(rule.id),
            )
        )
    return blocks
