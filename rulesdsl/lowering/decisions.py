"""Lower one decision table: its inputs, its ordered rows, and comparisons with table cells.

A decision's inputs have units, are yes/no (`bool`), or hold a key of a plain table (an input
typed with the table's name). Conditions compare inputs and numbers, or an input with the cells
that a key input picks (`flight[class].turn over distance`); each such cell is resolved here,
per key, into an :class:`rulesdsl.ir.Limit`, so the generated code only looks numbers up.
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from rulesdsl import ir, words
from rulesdsl.diagnostics import did_you_mean
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering import defaults
from rulesdsl.lowering.arith import ArithLowering
from rulesdsl.lowering.context import Context
from rulesdsl.units import BOOL_UNIT, DIMENSIONS, least

KEY_UNIT = "key"
"""The unit of an input that holds a key of a table."""

Reading = ir.Reading
_Cell = tuple[str, float | None, ir.Value | None]
"""A cell a decision's condition may pick: its key, the key's number, and its value."""


def _op(text: str) -> ir.CompareOp:
    # the grammar's COMPARE token admits only these
    return next(op for op in words.COMPARE_OPS if op == text)


def _reads_numbers(reading: ir.Reading) -> bool:
    """Whether the cells are read as numbers (or rates), rather than as yes/no."""
    match reading:
        case "number" | "rate":
            return True
        case "yes_no":
            return False
        case _:
            assert_never(reading)


class DecisionLowering:
    """One decision's lowering, through the ruleset's lowering context ``lw`` (its names,
    errors and tables)."""

    def __init__(self, host: Context, decl: s.DecisionDecl) -> None:
        self.decl = decl
        self.lw = host
        self.decision_keys: dict[str, str] = {}
        """Inputs that hold a key: input name -> table id."""
        self.totals: dict[str, str] = {}
        """Inputs that hold a modifier's items, read as its total: input name -> modifier."""
        self.key_axis: dict[str, ir.Axis] = {}
        """Whether each key input names a row or a column of its table."""
        self.arith = ArithLowering(
            host.err, host.where, host.number, self.decision_keys, host.steps, host.decisions
        )

    def run(self) -> ir.Decision:
        decl = self.decl
        params: dict[str, str] = {}
        for p in decl.params:
            unit = p.unit.text
            if unit not in DIMENSIONS and self.lw.symbols.kind_of(unit) == "table":
                self.decision_keys[p.name.text] = unit  # the input is a key of that table
                unit = KEY_UNIT
            elif unit not in DIMENSIONS and self.lw.symbols.kind_of(unit) == "modifier":
                self.totals[p.name.text] = unit  # the input is that modifier's items, summed
                unit = self.lw.header.units.get("modifier", "points")
            elif unit != BOOL_UNIT:
                self.lw.unit(p.unit, None)
            if p.name.text in params:
                self.lw.err("E102", f"input '{p.name.text}' is declared twice", p.name.pos)
            params[p.name.text] = unit
        result_values: dict[str, dict[str, ir.Value]] = {}
        if decl.result is not None and self.lw.symbols.require(
            decl.result, ("modifier",), "modifier"
        ):
            result_values = self.lw.modifier_values.get(decl.result.text, {})
        outcomes: dict[str, ir.Outcome] = {}
        rows = []
        units: set[str] = set()  # of the numbers the rows give
        for row in decl.rows:
            conditions = tuple(
                c for c in (self._comparison(c, params) for c in row.conditions) if c is not None
            )
            oid = row.outcome.name.text
            if oid not in outcomes or row.outcome.labels:
                value = None
                if decl.result is not None:
                    if oid not in result_values:
                        self.lw.err(
                            "E101",
                            f"'{oid}' is not a factor of '{decl.result.text}'",
                            row.outcome.name.pos,
                            did_you_mean(oid, result_values),
                        )
                    else:
                        value = result_values[oid].get("")
                info = self.lw.info(row.outcome)
                if not row.outcome.labels and oid in self.lw.factor_info:
                    info = self.lw.factor_info[oid]
                outcomes[oid] = ir.Outcome(oid, info, value)
                self.lw.where.record(outcomes[oid], row.outcome.name.pos)
            answer = None if row.answer is None else self._answer(row.answer, params, units)
            if len(conditions) != len(row.conditions) or (row.answer and not answer):
                continue  # a condition failed (and said why): the row is not an `otherwise`
            info = self.lw.info_of({}, row.outcome.extras)
            rows.append(ir.DecisionRow(conditions, oid, info, answer))
            self.lw.where.record(rows[-1], row.pos)
        self._never_negative(params)
        self._check_answers(units)
        defaults.check_order(self.lw.err, decl.params)
        inputs: list[ir.Param] = []
        for p in decl.params:
            name = p.name.text
            if name in params and name not in (i.name for i in inputs):
                key_of = self.decision_keys.get(name)
                table = self.lw.tables.get(key_of) if key_of is not None else None
                given = defaults.default(self.lw.err, p, params[name], table)
                param = ir.Param(
                    name, params[name], key_of, self._axis(name), given, self._signed(p, name)
                )
                if name in self.totals:
                    param = replace(param, total_of=self.totals[name])
                self.lw.where.record(param, p.name.pos)
                inputs.append(param)
        decision = ir.Decision(
            decl.item.name.text,
            self.lw.info(decl.item),
            tuple(inputs),
            decl.result.text if decl.result else None,
            tuple(rows),
            tuple(outcomes.values()),
        )
        self.lw.where.record(decision, decl.item.name.pos)
        return decision

    def _never_negative(self, params: dict[str, str]) -> None:
        """W375 for ``abs(input)`` of an input that the module refuses below 0 (a bearing
        in deg that is not ``signed``): the rule means it may be negative (issue 40)."""
        signed = {p.name.text for p in self.decl.params if p.signed}
        for name, pos in self.arith.absolute:
            if name not in signed and least(params[name]) is not None:
                unit = params[name]
                self.lw.warn(
                    "W375",
                    f"abs({name}): '{name}' in {unit} is never below 0, the module refuses it",
                    pos,
                    f"if it may be below 0, declare it `{name} signed {unit}`",
                )

    def _signed(self, p: s.ParamNode, name: str) -> bool:
        """Whether the input is ``signed``: only a number's may be (E375)."""
        if not p.signed:
            return False
        if name in self.decision_keys or p.unit.text == BOOL_UNIT:
            self.lw.err(
                "E375",
                f"input '{name}' is not a number: only a number may be `signed`",
                p.unit.pos,
                f"write `{name} {p.unit.text}`",
            )
            return False
        return True

    def _answer(
        self, node: s.OperandNode, params: dict[str, str], units: set[str]
    ) -> ir.ArithOperand | ir.CellOperand | None:
        """The number a row gives: arithmetic of its inputs and numbers, or a table cell a key
        input picks (``dive_limit[class]``); its unit joins ``units``."""
        if node.cell is None:
            answer = self.arith.answer(node, params)
            units.update([answer.unit] if answer is not None and answer.unit else [])
            return answer
        reading: Reading = "rate" if node.cell.over is not None else "number"
        ref = self._cell_ref(node.cell, params, reading, None)
        if ref is None:
            return None
        for _, _, value in self._cells(node.cell, self.lw.tables[ref.table], ref.input) or ():
            match value:
                case ir.Number(unit=unit) | ir.Rate(amount=ir.Number(unit=unit)):
                    units.update([unit] if unit else [])
                case None | ir.ParamRate() | ir.Marker() | ir.Same() | ir.OnceCost() | ir.NonCost():
                    pass  # no unit a number of the decision's could have
                case unknown:
                    assert_never(unknown)
        return ir.CellOperand(ref)

    def _check_answers(self, units: set[str]) -> None:
        """A decision gives a number on every row or on none (E229), not with ``-> MODIFIER``
        (whose factors are the outcomes' values), and all its numbers are in one unit (E225)."""
        given = [r.answer for r in self.decl.rows if r.answer is not None]
        if not given:
            return
        if self.decl.result is not None:
            self.lw.err(
                "E229",
                f"a decision whose outcomes are the factors of '{self.decl.result.text}' "
                "gives no number of its own",
                given[0].pos,
                f"remove `= ...`, or remove `-> {self.decl.result.text}` from the decision",
            )
        for row in self.decl.rows:
            if row.answer is None:
                self.lw.err(
                    "E229",
                    f"row '{row.outcome.name.text}' gives no number, and other rows do",
                    row.outcome.name.pos,
                    f"give it one: `-> {row.outcome.name.text} = 0`",
                )
        if len(units) > 1:
            first, second = sorted(units)[:2]
            self.lw.err(
                "E225",
                f"the decision gives numbers in '{first}' and in '{second}'",
                self.decl.item.name.pos,
                "every row gives its number in one unit",
            )

    def _axis(self, name: str) -> ir.Axis | None:
        """What a key input names in its table: a row unless a condition reads a column."""
        if name not in self.decision_keys:
            return None
        return self.key_axis.get(name, "row")

    def _comparison(self, node: s.ComparisonNode, params: dict[str, str]) -> ir.Condition | None:
        """A comparison of numbers, or a yes/no input or cell that holds or does not."""
        flags = [self._is_flag(o, params) for o in (node.left, node.right)]
        if any(flags):
            return self._truth(node, params)
        if node.left.arith is not None or node.right.arith is not None:
            return self._arith_comparison(node, params)
        if node.left.cell is not None or node.right.cell is not None:
            return self._cell_comparison(node, params)
        left = self._operand(node.left, params)
        right = self._operand(node.right, params)
        if left is None or right is None:
            return None
        return ir.Comparison(left, _op(node.op), right)

    def _truth(self, node: s.ComparisonNode, params: dict[str, str]) -> ir.Condition | None:
        """``hidden``, ``not hidden``, ``hidden = no``, ``not table[input].row``..."""
        literal, other = node.right, node.left
        if node.left.literal is not None and isinstance(node.left.literal.value, ir.Flag):
            literal, other = node.left, node.right
        value = literal.literal.value if literal.literal is not None else None
        holds: bool | None = None
        if isinstance(value, ir.Flag):
            match _op(node.op):
                case "=":
                    holds = value.value
                case "!=":
                    holds = not value.value
                case "<" | "<=" | ">" | ">=":
                    holds = None
                case unknown:
                    assert_never(unknown)
        if holds is None:
            self.lw.err(
                "E210",
                "yes/no values compare only with yes or no, by = or !=",
                node.pos,
                "write `input` alone, or `not input`",
            )
            return None
        if other.cell is not None:
            ref = self._cell_ref(other.cell, params, "yes_no", None)
            return None if ref is None else ir.CellTruth(ref, holds)
        if other.ref is not None and params.get(other.ref.text) == BOOL_UNIT:
            return ir.InputTruth(other.ref.text, holds)
        if other.ref is not None and other.ref.text not in params:
            self._unknown_input(other.ref, params)
            return None
        self.lw.err(
            "E210",
            "yes or no compares with a yes/no input or table cell",
            node.pos,
            "declare the input as `bool`, or compare a number",
        )
        return None

    def _operand(self, node: s.OperandNode, params: dict[str, str]) -> ir.Operand | None:
        if node.ref is not None:
            if node.ref.text not in params:
                self._unknown_input(node.ref, params)
                return None
            if params[node.ref.text] == KEY_UNIT:
                table = self.decision_keys[node.ref.text]
                self.lw.err(
                    "E211",
                    f"input '{node.ref.text}' names a key of table '{table}' and is not a number",
                    node.ref.pos,
                    f"compare with the cell it picks: `{table}[{node.ref.text}]...`",
                )
                return None
            if params[node.ref.text] == BOOL_UNIT:
                self.lw.err(
                    "E210",
                    f"input '{node.ref.text}' is yes/no, not a number",
                    node.ref.pos,
                    f"test it alone: `{node.ref.text}` or `not {node.ref.text}`",
                )
                return None
            scale = 1.0
            if node.scale is not None:
                number = self.lw.number(node.scale, None)
                scale = number.value if number else 1.0
            operand = ir.InputOperand(node.ref.text, node.scale_op, scale)
            self.lw.where.record(operand, node.scale.pos if node.scale else node.pos)
            return operand
        assert node.literal is not None
        number = self.lw.number(node.literal, None)
        return ir.LiteralOperand(number.value, number.unit) if number else None

    def _arith_comparison(
        self, node: s.ComparisonNode, params: dict[str, str]
    ) -> ir.Comparison | None:
        """A comparison with arithmetic on one side (or both): units checked (E225)."""
        sides: dict[int, ir.ArithOperand] = {}
        for i, this in enumerate((node.left, node.right)):
            if this.arith is not None:
                lowered = self.arith.operand(this.arith, params)
                if lowered is None:
                    return None
                sides[i] = lowered
        operands: list[ir.Operand] = []
        for i, this in enumerate((node.left, node.right)):
            operand: ir.Operand | None
            if i in sides:
                operand = sides[i]
            elif this.cell is not None:
                reading: Reading = "rate" if this.cell.over is not None else "number"
                ref = self._cell_ref(this.cell, params, reading, sides[1 - i].unit)
                operand = None if ref is None else ir.CellOperand(ref)
            else:
                operand = self._operand(this, params)
                unit = self._unit_of(this, params)
                if operand is not None and not self.arith.compared(
                    sides[1 - i], unit, node.op, node.pos
                ):
                    return None
            if operand is None:
                return None
            operands.append(operand)
        if len(sides) == 2 and not self.arith.compared(sides[0], sides[1].unit, node.op, node.pos):
            return None
        return ir.Comparison(operands[0], _op(node.op), operands[1])

    # ---- table cells in decisions ---------------------------------------------------------

    def _cell_comparison(
        self, node: s.ComparisonNode, params: dict[str, str]
    ) -> ir.Comparison | None:
        """A comparison with ``table[input].row`` on one side (or both)."""
        operands: list[ir.Operand] = []
        for this, other in ((node.left, node.right), (node.right, node.left)):
            operand: ir.Operand | None
            if this.cell is not None:
                reading: Reading = "rate" if this.cell.over is not None else "number"
                ref = self._cell_ref(this.cell, params, reading, self._unit_of(other, params))
                operand = None if ref is None else ir.CellOperand(ref)
            else:
                operand = self._operand(this, params)
            if operand is None:
                return None
            operands.append(operand)
        return ir.Comparison(operands[0], _op(node.op), operands[1])

    def _unknown_input(self, name: s.Name, params: dict[str, str]) -> None:
        """E101: ``name`` is no input of the decision."""
        self.lw.unknown(f"unknown input '{name.text}'", name, params)

    @staticmethod
    def _is_flag(node: s.OperandNode, params: dict[str, str]) -> bool:
        if node.literal is not None:
            return isinstance(node.literal.value, ir.Flag)
        return node.ref is not None and params.get(node.ref.text) == BOOL_UNIT

    @staticmethod
    def _unit_of(node: s.OperandNode, params: dict[str, str]) -> str | None:
        if node.ref is not None:
            unit = params.get(node.ref.text)
            return unit if unit in DIMENSIONS else None
        if node.literal is not None and isinstance(node.literal.value, ir.Number):
            return node.literal.value.unit
        return None

    def _cell_ref(
        self, node: s.CellRefNode, params: dict[str, str], reading: Reading, unit: str | None
    ) -> ir.CellRef | None:
        """The cells ``node`` may pick, one per key of its input, resolved into bounds."""
        if not self.lw.symbols.require(node.table, ("table",), "table"):
            return None
        table = self.lw.tables[node.table.text]
        key = node.key.text
        if key not in params:
            self._unknown_input(node.key, params)
            return None
        if self.decision_keys.get(key) != table.id:
            self.lw.err(
                "E211",
                f"input '{key}' is not a key of table '{table.id}'",
                node.key.pos,
                f"declare it as `({key} {table.id})` in the decision's inputs",
            )
            return None
        cells = self._cells(node, table, key)
        if cells is None:
            return None
        axis: ir.Axis = "column" if node.row is not None else "row"
        if self.key_axis.setdefault(key, axis) != axis:
            self.lw.err(
                "E211",
                f"input '{key}' names a row of '{table.id}' in one condition and "
                "a column in another",
                node.key.pos,
                "use a separate input for each",
            )
            return None
        if not self._over_ok(node, params, reading):
            return None
        over_unit = None if node.over is None else params[node.over.text]
        limits = []
        for k, number, value in cells:
            where = (
                f"{table.id}.{k}.{node.row.text}"
                if node.row
                else f"{table.id}.{node.column.text}.{k}"
                if node.column
                else f"{table.id}.{k}"
            )
            bound = self._bound(value, reading, unit, over_unit, where, node.pos)
            if bound is None:
                return None
            limits.append(ir.Limit(k, bound, number))
        line = node.row or node.column
        return ir.CellRef(
            table.id,
            key,
            axis,
            line.text if line else None,
            reading,
            tuple(limits),
            node.over.text if node.over else None,
            node.full,
        )

    def _cells(self, node: s.CellRefNode, table: ir.Table, key: str) -> list[_Cell] | None:
        """The cells ``node`` picks, each with its key and the key's number, or None (said)."""
        if node.column is not None:
            return self._column_cells(node.column, table)
        if len(table.columns) > 1:
            return self._row_cells(node, table, key)
        if node.row is not None:
            self.lw.err(
                "E211",
                f"table '{table.id}' has one column: its rows are the keys",
                node.row.pos,
                f"write `{table.id}[{key}]`",
            )
            return None
        return [(r.key, r.key_number, r.cells[0] if r.cells else None) for r in table.rows]

    def _column_cells(self, column: s.Name, table: ir.Table) -> list[_Cell] | None:
        """``table.<column>[key]``: the column's cell in each row."""
        index = next((i for i, c in enumerate(table.columns) if c.id == column.text), None)
        if index is None:
            self.lw.unknown(
                f"unknown column '{column.text}' of table '{table.id}'",
                column,
                [c.id for c in table.columns],
            )
            return None
        return [
            (r.key, r.key_number, r.cells[index] if index < len(r.cells) else None)
            for r in table.rows
        ]

    def _row_cells(self, node: s.CellRefNode, table: ir.Table, key: str) -> list[_Cell] | None:
        """``table[key].<row>`` of a table with several columns: the row's cell in each column."""
        if node.row is None:
            self.lw.err(
                "E211",
                f"table '{table.id}' has several columns: name the row or the column",
                node.pos,
                f"write `{table.id}[{key}].<row>` or `{table.id}.<column>[{key}]`",
            )
            return None
        row = next((r for r in table.rows if r.key == node.row.text), None)
        if row is None:
            self.lw.unknown(
                f"unknown row '{node.row.text}' of table '{table.id}'",
                node.row,
                [r.key for r in table.rows],
            )
            return None
        return [
            (c.id, None, row.cells[i] if i < len(row.cells) else None)
            for i, c in enumerate(table.columns)
        ]

    def _over_ok(self, node: s.CellRefNode, params: dict[str, str], reading: Reading) -> bool:
        """Whether ``over <input>`` (if written) names an input with a unit, for a rate cell."""
        if node.over is None:
            return True
        over_unit = params.get(node.over.text)
        if over_unit is None:
            self._unknown_input(node.over, params)
            return False
        if not _reads_numbers(reading) or over_unit not in DIMENSIONS:
            self.lw.err(
                "E211",
                "`over` takes an input with a unit, to scale a rate cell",
                node.over.pos,
                "e.g. `turn > flight[class].turn over distance`",
            )
            return False
        return True

    def _bound(
        self,
        value: ir.Value | None,
        reading: Reading,
        unit: str | None,
        over_unit: str | None,
        where: str,
        pos: s.Pos,
    ) -> ir.LimitValue | None:
        """One cell as a bound: numbers, rates (with `over`), trades (their gain), `any`
        (no limit), `none` (0), yes (no limit) and no (nothing allowed); as yes/no: flags."""

        def same(cell_unit: str | None, other: str | None) -> bool:
            if cell_unit is not None and other is not None and cell_unit != other:
                self.lw.err(
                    "E203",
                    f"cell {where} is in '{cell_unit}', compared with '{other}'",
                    pos,
                    f"write the cell in {other}, or compare an input in {cell_unit}",
                )
                return False
            return True

        if not _reads_numbers(reading):
            if isinstance(value, ir.Flag):
                return ir.YesNo(value.value)
        else:
            match value:
                case ir.Number(value=v, unit=u) if same(u, unit):
                    return ir.Bound(v)
                case ir.Rate() if over_unit is None:
                    self.lw.err(
                        "E211",
                        f"cell {where} is a rate: the bound needs a distance",
                        pos,
                        "add `over <input>` after the cell, e.g. `over distance`",
                    )
                    return None
                case ir.Rate(amount=a, per=per) if same(a.unit, unit) and same(per.unit, over_unit):
                    return ir.RateBound(a.value, per.value)
                case ir.Trade(gain=g) if same(g.unit, unit):
                    return ir.Bound(g.value)
                case ir.Flag(value=True) | ir.Symbol(name="any"):
                    return ir.NoLimit()
                case ir.Flag(value=False) | ir.Symbol(name="none"):
                    return ir.Bound(0)
                case ir.Number() | ir.Rate() | ir.Trade():
                    return None  # a unit error, already reported
                case (
                    None | ir.Marker() | ir.Same() | ir.PerDistance() | ir.OnceCost() | ir.NonCost()
                ):
                    pass  # not a bound: said below
                case _:
                    assert_never(value)
        what = (
            "empty"
            if value is None
            else f"the word '{value.name}'"
            if isinstance(value, ir.Symbol)
            else words.kind_words(words.value_kind(value))
        )
        need = (
            "yes or no"
            if not _reads_numbers(reading)
            else "a number, a rate, a trade, `any`, `none`, yes or no"
        )
        self.lw.err("E201", f"cell {where} is {what}; a comparison needs {need}", pos)
        return None
