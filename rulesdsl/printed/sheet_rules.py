"""The rules sections of a sheet: steps (with their curve), decisions, plain tables and
dice tables."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import assert_never

from rulesdsl import ir, semantics, spelling
from rulesdsl.printed import svg
from rulesdsl.printed.sheet_base import BuilderBase
from rulesdsl.printed.sheet_view import (
    UNITLESS,
    Block,
    CellView,
    HeadCell,
    TableView,
    marker_sign,
)
from rulesdsl.semantics import arith as semantics_arith
from rulesdsl.semantics import effects as semantics_effects
from rulesdsl.semantics.dice import Roll, chance_between
from rulesdsl.words import Total, total


class RuleBlocks(BuilderBase):
    """Steps, decisions, plain tables and dice tables."""

    def step_rule(self, step: ir.Step) -> str:
        unit = step.param_unit
        parts = []
        for t in step.terms:
            match t:
                case ir.RateTerm():
                    key = "rate_full" if t.full else "rate"
                    parts.append(
                        self.w(
                            key,
                            amount=self.signed(t.amount),
                            every=self.unit_text(self.num(t.every), unit),
                        )
                    )
                    if t.above is not None:
                        above = self.unit_text(self.num(t.above), unit)
                        parts[-1] = self.w("rate_above", rate=parts[-1], at=above)
                case ir.FloorTerm():
                    key = "floor_above" if t.strict else "floor_from"
                    at = self.unit_text(self.num(t.at), unit)
                    parts.append(self.w(key, amount=self.num(t.amount), at=at))
                case ir.FreeTerm():
                    parts.append(self.w("free_up_to", at=self.unit_text(self.num(t.at), unit)))
                case ir.ImpassableTerm():
                    key = "impassable_above" if t.strict else "impassable_from"
                    parts.append(self.w(key, at=self.unit_text(self.num(t.at), unit)))
                case _:
                    assert_never(t)
        return ", ".join(parts)

    @staticmethod
    def step_value(step: ir.Step, x: float) -> float | None:
        """The step's result for input ``x``; None for impassable."""
        value = semantics.step_value(step, x)
        return None if isinstance(value, ir.Marker) else value

    @staticmethod
    def scale_inputs(marks: Sequence[float]) -> list[float]:
        """The inputs a step's scale shows, chosen from the values the rule uses: whole
        numbers 0 to 12 (further if a threshold needs it) for a rule in whole units; for a
        rule in fractions (``+1 per full 0.2 g``) its own step, twelve of them or as many as
        reach twice its largest value, so every step the rule counts appears."""
        positive = [m for m in marks if m > 0]
        unit = min(positive, default=1.0)
        if unit >= 1 or not positive:
            top = max(12, math.ceil(2 * max(marks, default=0)))
            stride = max(1, math.ceil(top / 16))
            return [float(x) for x in range(0, top + 1, stride)]
        count = max(12, math.ceil(2 * max(positive) / unit))
        stride = max(1, math.ceil(count / 16))
        return [round(i * unit, 6) for i in range(0, count + 1, stride)]

    def step(self, step: ir.Step) -> Block:
        title = self.label(step.info, step.id)
        marks = [t.at for t in step.terms if not isinstance(t, ir.RateTerm)]
        marks += [t.every for t in step.terms if isinstance(t, ir.RateTerm)]
        xs = self.scale_inputs(marks)
        results = [self.step_value(step, x) for x in xs]
        finite = [r for r in results if r is not None]
        high = max(finite, default=0) or 1
        impassable = self.w("impassable")
        points = [
            svg.ScalePoint(
                self.num(x),
                "✕" if r is None else self.num(r),
                1.0 if r is None else r / high,
                r is None,
            )
            for x, r in zip(xs, results, strict=True)
        ]
        x_label = self.input_text(ir.Param(step.param, step.param_unit))
        r_label = self.c.unit(step.result_unit) if step.result_unit else self.w("result")
        diagram = svg.step_scale(
            points, x_label, r_label, f"{title}: {self.step_rule(step)}", step.id
        )
        head = [[HeadCell(x_label)] + [HeadCell(p.x) for p in points]]
        row = [CellView(r_label, ("label",))] + [
            CellView(
                f"{marker_sign('impassable')} {impassable}" if r is None else self.num(r),
                ("impassable",) if r is None else (),
            )
            for r in results
        ]
        table = TableView(head, [row], [h.text for h in head[0]])
        return Block(
            step.id,
            title,
            table,
            lines=[self.step_rule(step)],
            after=self.note_texts(step.info),
            svg=diagram,
            source=self.source(step.info),
            changed=self.added(step.id),
            kind="step",
        )

    def cell_ref(self, ref: ir.CellRef) -> str:
        """``flight[class].turn`` as a player reads it: "Turn (Flight manoeuvrability)"."""
        table = next((t for t in self.rs.tables if t.id == ref.table), None)
        picked = ref.line
        info = None
        if table is not None and picked is not None:
            info = next((r.info for r in table.rows if r.key == picked), None) or next(
                (c.info for c in table.columns if c.id == picked), None
            )
        text = (
            self.name(ref.table)
            if picked is None
            else (f"{self.label(info, picked)} ({self.name(ref.table)})")
        )
        if ref.over is not None:
            text += f" × {self.input_name(ref.over)}"  # noqa: RUF001
        return text

    def operand(self, op: ir.Operand) -> str:
        match op:
            case ir.CellOperand(cell=ref):
                return self.cell_ref(ref)
            case ir.LiteralOperand(value=value):
                return self.num(value)
            case ir.InputOperand(input=name, scale_op=scale_op, scale=scale):
                text = self.input_name(name)
                match scale_op:
                    case "*":
                        text += f" × {self.num(scale)}"  # noqa: RUF001
                    case "/":
                        text += f" / {self.num(scale)}"
                    case None:
                        pass
                    case _:
                        assert_never(scale_op)
                return text
            case ir.ArithOperand(expr=expr):
                return self.arith(expr)
            case _:
                assert_never(op)

    def answer(self, given: ir.ArithOperand | ir.CellOperand) -> str:
        """The number a decision row gives, with its unit when it measures one (a cell's
        unit is printed in its table)."""
        text = self.operand(given)
        if isinstance(given, ir.CellOperand) or not given.unit or not self.measures(given.unit):
            return text
        return self.w("input_unit", name=text, unit=self.c.unit(given.unit))

    def arith(self, expr: ir.Arith) -> str:
        """Arithmetic in words (issue 25): ``|new speed - speed|`` (with a minus sign), "half
        of range, rounded down", "the lower of a, b"; the operators as signs, the functions
        and the rounding in the sheet's language."""

        def leaf(e: ir.ArithInput | ir.ArithNumber) -> str:
            if isinstance(e, ir.ArithInput):
                return self.input_name(e.input)
            text = self.num(e.value)
            if e.unit is not None and self.measures(e.unit):
                text += f" {self.c.unit(e.unit)}"
            return text

        def binary(op: ir.ArithOp, a: str, b: str) -> str:
            return f"{a} {_ARITH_SIGNS[op]} {b}"

        def call(function: ir.ArithFunction, args: list[str]) -> str:
            match function:
                case "abs":
                    return f"|{args[0]}|"
                case "half" | "min" | "max":
                    return self.w(f"arith_{function}", value=", ".join(args))
                case _:
                    assert_never(function)

        def rounding(text: str, r: ir.Rounding) -> str:
            return self.w(f"arith_rounded_{r}", value=text)

        def step(name: str, arg: str) -> str:  # a step's or decision's answer, by its label
            rules: list[ir.Step | ir.Decision] = [*self.rs.steps, *self.rs.decisions]
            info = next((r.info for r in rules if r.id == name), None)
            return f"{self.label(info, name)} ({arg})"

        group = "({})".format
        return semantics_arith.spell(expr, leaf, binary, call, rounding, group, step=step)

    def condition(self, c: ir.Condition) -> str:
        match c:
            case ir.CellTruth(cell=ref, holds=holds):
                name = self.cell_ref(ref)
                return name if holds else self.w("not", name=name)
            case ir.InputTruth(input=input_name, holds=holds):
                name = self.input_name(input_name)
                return name if holds else self.w("not", name=name)
            case ir.Comparison(left=left, op=op, right=right):
                return f"{self.operand(left)} {_sign(op)} {self.operand(right)}"
            case _:
                assert_never(c)

    def input_text(self, p: ir.Param) -> str:
        """An input with what it is measured in, "distance (po)", "cover (Visibility)", and
        its default if it has one: "level flown (m) [default 0 m]"."""
        text = self.input_measured(p)
        match p.default:
            case None:
                return text
            case ir.Symbol(name=key) if p.key_of:
                table = next(t for t in self.rs.tables if t.id == p.key_of)
                infos = {c.id: c.info for c in table.columns} | {r.key: r.info for r in table.rows}
                default = self.label(infos[key], key)
            case _:
                default = self.text(p.default)
        return self.w("input_default", input=text, default=default)

    def input_measured(self, p: ir.Param) -> str:
        name = self.input_name(p.name)
        if p.key_of:
            return self.w("input_unit", name=name, unit=self.name(p.key_of))
        if p.total_of:
            return self.w("input_total", name=name, modifier=self.name(p.total_of))
        if p.unit in UNITLESS or not self.measures(p.unit):
            return name
        return self.w("input_unit", name=name, unit=self.c.unit(p.unit))

    def measures(self, unit: str) -> bool:
        """Whether ``unit`` is a unit of measure a player needs to see (``in``, ``points``):
        one the catalog names or the ruleset declares. Anything else (a size class, a plain
        number) is printed without a unit, so nobody measures what is a count."""
        return self.c.get(f"unit:{unit}") is not None or unit in self.rs.units.values()

    def decision(self, d: ir.Decision) -> Block:
        title = self.label(d.info, d.id)
        outcomes = {o.id: o for o in d.outcomes}
        head = [[HeadCell(self.w("condition")), HeadCell(self.w("outcome"))]]
        if any(r.answer is not None for r in d.rows):  # a decision that gives numbers
            head[0].append(HeadCell(self.w("outcome_number")))
        rows = []
        notes: list[tuple[str, str]] = []
        for r in d.rows:
            cond = (
                f" {self.w('and')} ".join(self.condition(c) for c in r.conditions)
                if r.conditions
                else self.w("otherwise")
            )
            outcome = outcomes.get(r.outcome)
            text = self.label(outcome.info if outcome else None, r.outcome)
            classes: tuple[str, ...] = ()
            if outcome is not None and outcome.value is not None:
                value = self.value(outcome.value)
                text = f"{text} ({value.text})"
                classes = value.classes
            marks = []
            for note in self.note_texts(r.info):
                marks.append(self.add_note(notes, note))
            row = [CellView(cond, ("label",)), CellView(text, classes, tuple(marks))]
            if r.answer is not None:
                row.append(CellView(self.answer(r.answer)))
            rows.append(row)
        # Notes on outcomes: once, after the table, the first time the outcome appears.
        for o in d.outcomes:
            for note in self.note_texts(o.info):
                mark = self.add_note(notes, note)
                for row, r in zip(rows, d.rows, strict=True):
                    if r.outcome == o.id:
                        if mark not in row[1].notes:
                            row[1].notes = (*row[1].notes, mark)
                        break
        inputs = ", ".join(self.input_text(p) for p in d.params)
        lines = [f"{self.w('rule_inputs', inputs=inputs)} {self.w('first_wins')}"]
        return Block(
            d.id,
            title,
            TableView(head, rows, [h.text for h in head[0]]),
            lines=lines,
            notes=notes,
            after=self.note_texts(d.info),
            source=self.source(d.info),
            changed=self.added(d.id),
        )

    def table(self, t: ir.Table) -> Block:
        title = self.label(t.info, t.id)
        single = len(t.columns) <= 1
        notes: list[tuple[str, str]] = []
        columns = [
            HeadCell(
                self.label(c.info, c.id),
                notes=tuple(self.add_note(notes, text) for text in self.note_texts(c.info)),
            )
            for c in t.columns
        ] or [HeadCell(self.w("value"))]
        head = [[HeadCell(""), *columns]]
        rows = []
        for r in t.rows:
            if r.key_number is not None:
                key = self.unit_text(self.num(r.key_number), r.key_unit)
            else:
                key = self.label(r.info, r.key)
            marks = []
            for note in self.note_texts(r.info):
                marks.append(self.add_note(notes, note))
            added = self.added(f"{t.id}.{r.key}")
            row = [
                CellView(key, ("label",), tuple(marks), added, self.source(r.info, detail=False))
            ]
            for i, value in enumerate(r.cells):
                cell = self.value(value)
                column = t.columns[i].id if i < len(t.columns) else ""
                cell.changed = self.changed(f"{t.id}.{column}.{r.key}") or (
                    single and self.changed(f"{t.id}.{r.key}")
                )
                row.append(cell)
            rows.append(row)
        fold = single and len(rows) >= 8
        return Block(
            t.id,
            title,
            TableView(head, rows, [h.plain for h in head[0]], fold=fold),
            notes=notes,
            after=self.note_texts(t.info),
            source=self.source(t.info),
            changed=self.added(t.id),
        )

    def effects(
        self, effects: dict[str, ir.Value], by_unit: dict[str, dict[str, ir.Value]] | None = None
    ) -> CellView:
        """An outcome's effects in words; ``by_unit``: the values keyed by unit type or
        keyword, after the value for everyone (``Falls 2d6 (Infantry: 4)``, issue 40)."""
        parts = []
        classes: tuple[str, ...] = ()
        for key, value in effects.items():
            name = self.c.get(f"effect:{key}") or self.c.label(key.replace("_", " "))
            if any(m.id == key for m in self.rs.modifiers):  # an outcome that feeds a modifier
                name = self.name(key)
            fed = self.fed_effect(key, value)  # it feeds the cost or a sight rule (issue 24)
            if fed is not None:
                parts.append(fed)
            elif isinstance(value, ir.Flag):
                parts.append(name if value.value else self.w("not", name=name))
            else:
                cell = self.value(value)
                classes = classes or cell.classes
                parts.append(self.w("effect_value", name=name, value=cell.text))
            if by_unit and key in by_unit:
                entries = ", ".join(
                    self.w("effect_unit_value", unit=self.name(k), value=self.value(v).text)
                    for k, v in by_unit[key].items()
                )
                parts[-1] = self.w("effect_by_unit", value=parts[-1], entries=entries)
        return CellView(", ".join(parts), classes)

    def fed_effect(self, key: str, value: ir.Value) -> str | None:
        """An effect that adds to the movement cost or to a sight rule's count, in words
        (``+1 to the move cost per hex``), or None for any other effect."""
        if not isinstance(value, ir.Number):
            return None
        if key == semantics_effects.COST:
            unit = self.rs.units.get("cost")
            amount = self.unit_text(self.signed(value.value), value.unit or unit)
            distance = self.rs.units.get("distance")
            if distance is None:
                return self.w("effect_cost_plain", value=amount)
            return self.w("effect_cost", value=amount, distance=self.c.unit(distance))
        rule = next((r for r in self.rs.sights if r.id == key), None)
        if rule is None:
            return None
        return self.w(
            "effect_sight", value=self.signed(value.value), rule=self.label(rule.info, rule.id)
        )

    def dice(self, d: ir.DiceTable) -> Block:
        dice = semantics.roll_of(d.dice)
        title = f"{self.label(d.info, d.id)} ({self.dice_text(dice)})"
        chance = self.w("chance")
        head = [
            [
                HeadCell(self.w("roll")),
                HeadCell(self.w("result")),
                HeadCell(self.w("effects")),
                HeadCell(chance),
            ]
        ]
        for m in d.modifiers:
            head[0].append(
                HeadCell(
                    self.w("with_mod", label=self.label(m.info, m.id), value=self.modifier_value(m))
                )
            )
        notes: list[tuple[str, str]] = []
        rows = []
        for r in d.rows:
            span = spelling.dice_range(r.low, r.high)
            marks = []
            for note in self.note_texts(r.info):
                marks.append(self.add_note(notes, note))
            effects = self.effects(r.effects, r.by_unit)
            effects.changed = self.changed(f"{d.id}.{r.id}")
            row = [
                CellView(span, ("label", "roll")),
                CellView(
                    self.label(r.info, r.id),
                    (),
                    tuple(marks),
                    self.added(f"{d.id}.{r.id}"),
                    self.source(r.info, detail=False),
                ),
                effects,
                CellView(self.row_chance(d, r, 0, fraction=True), ("chance",)),
            ]
            for m in d.modifiers:
                row.append(CellView(self.row_chance(d, r, m.value), ("chance",)))
            rows.append(row)
        by_id = {r.id: r for r in d.rows}
        naturals = [
            self.w(
                "natural_row_at_least" if n.at_least else "natural_row",
                roll=self.num(n.roll),
                row=self.label(by_id[n.outcome].info if n.outcome in by_id else None, n.outcome),
            )
            + "".join(f" {text}" for text in self.note_texts(n.info))
            for n in d.naturals
        ]
        return Block(
            d.id,
            title,
            TableView(head, rows, [h.text for h in head[0]]),
            notes=notes,
            after=naturals + self.note_texts(d.info),
            source=self.source(d.info),
            changed=self.added(d.id),
            kind="dice",
        )

    def modifier_value(self, m: ir.DiceModifier) -> str:
        """A dice modifier's amount (``+4``), or its column shift (``shift left 1``, ``shift
        left 1 on doubles``)."""
        if m.shift:
            word = "shift_left" if m.shift < 0 else "shift_right"
            word += "_on_doubles" if m.on_doubles else ""
            return self.w(word, count=self.num(abs(m.shift)))
        return self.signed(m.value)

    def row_chance(self, d: ir.DiceTable, r: ir.DiceRow, shift: int, fraction: bool = False) -> str:
        """A row's chance with ``shift`` added; natural rolls counted where the table has them
        (issue 25)."""
        dice = semantics.roll_of(d.dice)
        if not d.naturals:
            return self.chance(dice, r.low, r.high, shift, fraction)
        p = semantics.dice_chances(d, shift)[r.id]
        ways = p * dice.outcomes
        if not fraction or ways.denominator != 1:
            return self.c.percent(p)
        return f"{ways.numerator}/{dice.outcomes} · {self.c.percent(p)}"

    def chance(
        self, dice: Roll, low: int | None, high: int | None, shift: int, fraction: bool = False
    ) -> str:
        """The chance that the roll plus ``shift`` falls in ``low``..``high``."""
        lo = dice.minimum if low is None else low - shift
        hi = None if high is None else high - shift
        p = chance_between(dice, lo, hi)
        if not fraction:
            return self.c.percent(p)
        ways = p * dice.outcomes
        assert ways.denominator == 1
        return f"{ways.numerator}/{dice.outcomes} · {self.c.percent(p)}"


_ARITH_SIGNS: Total[ir.ArithOp, str] = total(
    ir.ArithOp, {"+": "+", "-": "\u2212", "*": "\u00d7", "/": "/"}
)
"""The operators as a sheet prints them: a minus sign, a multiplication sign."""


def _sign(op: ir.CompareOp) -> str:
    """A comparison as a sheet prints it."""
    match op:
        case "<=":
            return "≤"
        case ">=":
            return "≥"
        case "!=":
            return "≠"
        case "<" | ">" | "=":
            return op
        case _:
            assert_never(op)
