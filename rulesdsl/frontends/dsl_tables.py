"""The DSL builder's methods for steps, decisions, tables, dice tables and sight rules: one per
grammar rule, each building that construct's syntax node (see :mod:`rulesdsl.frontends.dsl`).
"""

from __future__ import annotations

from typing import Any, Literal

from lark import Token
from lark.tree import Meta

from rulesdsl import ir
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.dsl_base import NO_EXTRAS, BuilderBase, parse_dice_token


class TableRules(BuilderBase):
    """Builds steps, decisions, tables, dice tables and sight rules."""

    def param(self, meta: Meta, ch: list[Token]) -> s.ParamNode:
        return s.ParamNode(self._name(ch[0]), self._name(ch[1]))

    def step_decl(self, meta: Meta, ch: list[Any]) -> s.StepDecl:
        param = next(c for c in ch if isinstance(c, s.ParamNode))
        after = ch[ch.index(param) + 1]
        result = self._name(after) if isinstance(after, Token) else None
        terms = tuple(c for c in ch if isinstance(c, s.StepTermNode))
        return s.StepDecl(self._item(meta, ch), param, result, terms)

    def step_rate(self, meta: Meta, ch: list[Any]) -> s.StepTermNode:
        full = any(isinstance(c, Token) and c.type == "FULL" for c in ch)
        amount = s.Located(ch[0], self._p(meta))
        located = [c for c in ch if isinstance(c, s.Located)]
        above = located[1] if len(located) > 1 else None
        return s.StepTermNode("rate", amount, located[0], full, False, self._p(meta), above)

    def step_free(self, meta: Meta, ch: list[Any]) -> s.StepTermNode:
        return s.StepTermNode("free", None, ch[0], False, False, self._p(meta))

    def step_above(self, meta: Meta, ch: list[Any]) -> s.Located:
        located: s.Located = ch[0]
        return located

    def step_floor(self, meta: Meta, ch: list[Any]) -> s.StepTermNode:
        amount = s.Located(ch[0], self._p(meta))
        return s.StepTermNode("floor", amount, ch[2], False, ch[1] == "above", self._p(meta))

    def step_impassable(self, meta: Meta, ch: list[Any]) -> s.StepTermNode:
        return s.StepTermNode("impassable", None, ch[1], False, ch[0] == "above", self._p(meta))

    def bound(self, meta: Meta, ch: list[Token]) -> str:
        return str(ch[0])

    def decision_decl(self, meta: Meta, ch: list[Any]) -> s.DecisionDecl:
        params = tuple(c for c in ch if isinstance(c, s.ParamNode))
        after = ch[ch.index(params[-1]) + 1]
        result = self._name(after) if isinstance(after, Token) else None
        rows = tuple(c for c in ch if isinstance(c, s.DecisionRowNode))
        return s.DecisionDecl(self._item(meta, ch), params, result, rows)

    def decision_row(self, meta: Meta, ch: list[Any]) -> s.DecisionRowNode:
        conditions: tuple[s.ComparisonNode, ...] = ch[0]
        return s.DecisionRowNode(conditions, self._item(meta, ch[1:]), self._p(meta))

    def all_of(self, meta: Meta, ch: list[s.ComparisonNode]) -> tuple[s.ComparisonNode, ...]:
        return tuple(ch)

    def otherwise(self, meta: Meta, ch: list[Any]) -> tuple[s.ComparisonNode, ...]:
        return ()

    def compare(self, meta: Meta, ch: list[Any]) -> s.ComparisonNode:
        return s.ComparisonNode(ch[0], str(ch[1]), ch[2], self._p(meta))

    def truth(self, meta: Meta, ch: list[Token]) -> s.ComparisonNode:
        return self._truth(meta, ch[0], True)

    def falsity(self, meta: Meta, ch: list[Token]) -> s.ComparisonNode:
        return self._truth(meta, ch[0], False)

    def _truth(self, meta: Meta, name: Token, value: bool) -> s.ComparisonNode:
        pos = self._p(meta)
        left = s.OperandNode(self._name(name), None, None, None, self._p(name))
        right = s.OperandNode(None, None, None, s.Located(ir.Flag(value), pos), pos)
        return s.ComparisonNode(left, "=", right, pos)

    def ref(self, meta: Meta, ch: list[Token]) -> s.OperandNode:
        return s.OperandNode(self._name(ch[0]), None, None, None, self._p(meta))

    def scaled_ref(self, meta: Meta, ch: list[Any]) -> s.OperandNode:
        op: Literal["*", "/"] = "*" if str(ch[1]) == "*" else "/"
        scale = s.Located(ch[2], self._p(meta))
        return s.OperandNode(self._name(ch[0]), op, scale, None, self._p(meta))

    def literal(self, meta: Meta, ch: list[Any]) -> s.OperandNode:
        return s.OperandNode(None, None, None, ch[0], self._p(meta))

    def cell_ref(self, meta: Meta, ch: list[Any]) -> s.CellRefNode:
        row = next((c[1] for c in ch[2:] if c[0] == "row"), None)
        over = next((c for c in ch[2:] if c[0] == "over"), None)
        return s.CellRefNode(
            self._name(ch[0]),
            self._name(ch[1]),
            row,
            over[1] if over else None,
            bool(over and over[2]),
            self._p(meta),
        )

    def column_cell_ref(self, meta: Meta, ch: list[Any]) -> s.CellRefNode:
        over = ch[3] if len(ch) > 3 else None
        return s.CellRefNode(
            self._name(ch[0]),
            self._name(ch[2]),
            None,
            over[1] if over else None,
            bool(over and over[2]),
            self._p(meta),
            self._name(ch[1]),
        )

    def cell_row(self, meta: Meta, ch: list[Token]) -> tuple[str, s.Name]:
        return ("row", self._name(ch[0]))

    def cell_over(self, meta: Meta, ch: list[Token]) -> tuple[str, s.Name, bool]:
        return ("over", self._name(ch[-1]), len(ch) == 2)

    def cell_operand(self, meta: Meta, ch: list[s.CellRefNode]) -> s.OperandNode:
        return s.OperandNode(None, None, None, None, self._p(meta), ch[0])

    def cell_truth(self, meta: Meta, ch: list[s.CellRefNode]) -> s.ComparisonNode:
        return self._cell_truth(meta, ch[0], True)

    def cell_falsity(self, meta: Meta, ch: list[s.CellRefNode]) -> s.ComparisonNode:
        return self._cell_truth(meta, ch[0], False)

    def _cell_truth(self, meta: Meta, cell: s.CellRefNode, value: bool) -> s.ComparisonNode:
        pos = self._p(meta)
        left = s.OperandNode(None, None, None, None, cell.pos, cell)
        right = s.OperandNode(None, None, None, s.Located(ir.Flag(value), pos), pos)
        return s.ComparisonNode(left, "=", right, pos)

    def column_line(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Item]:
        return ("column", self._item(meta, ch))

    def table_decl(self, meta: Meta, ch: list[Any]) -> s.TableDecl:
        columns: list[s.Item] = []
        for c in ch:
            if isinstance(c, tuple) and c and c[0] == "column":
                columns.append(c[1])
            elif isinstance(c, tuple) and c and c[0] == "columns":
                columns += [s.Item(n, (), NO_EXTRAS, n.pos) for n in c[1]]
        rows = tuple(c for c in ch if isinstance(c, s.RowNode))
        return s.TableDecl(self._item(meta, ch), tuple(columns), rows)

    def dice_decl(self, meta: Meta, ch: list[Any]) -> s.DiceDecl:
        dice_token = next(c for c in ch if isinstance(c, Token) and c.type == "DICE")
        dice = s.Located(parse_dice_token(str(dice_token)), self._p(dice_token))
        mods = tuple(c for c in ch if isinstance(c, s.DiceModifierNode))
        rows = tuple(c for c in ch if isinstance(c, s.DiceRowNode))
        return s.DiceDecl(self._item(meta, ch), dice, mods, rows, self._results(ch))

    def _results(self, ch: list[Any]) -> s.ResultsNode | None:
        by = next((c for c in ch if isinstance(c, s.Name)), None)
        columns = tuple(c for c in ch if isinstance(c, s.DiceColumnNode))
        outcomes = tuple(c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "outcome")
        naturals = tuple(c for c in ch if isinstance(c, s.NaturalNode))
        results = tuple(c for c in ch if isinstance(c, s.ResultRowNode))
        if by is None and not (columns or outcomes or naturals or results):
            return None
        return s.ResultsNode(by, columns, outcomes, naturals, results)

    def dice_by(self, meta: Meta, ch: list[Token]) -> s.Name:
        return self._name(ch[0])

    def dice_column(self, meta: Meta, ch: list[Any]) -> s.DiceColumnNode:
        bound, value = next(
            c for c in ch if isinstance(c, tuple) and c and c[0] in ("up_to", "above")
        )
        return s.DiceColumnNode(self._item(meta, ch), bound, value)

    def column_up_to(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Located]:
        return ("up_to", self._located(meta, ch[-1]))

    def column_above(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Located]:
        return ("above", self._located(meta, ch[-1]))

    def dice_outcome(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Item]:
        return ("outcome", self._item(meta, ch))

    def dice_natural(self, meta: Meta, ch: list[Any]) -> s.NaturalNode:
        extras = next((c for c in ch if isinstance(c, s.Extras)), NO_EXTRAS)
        return s.NaturalNode(int(ch[0]), self._name(ch[1]), extras, self._p(meta))

    def result_row(self, meta: Meta, ch: list[Any]) -> s.ResultRowNode:
        low, high = ch[0]
        names = tuple(self._name(c) for c in ch[1:] if isinstance(c, Token) and c.type == "NAME")
        extras = next((c for c in ch if isinstance(c, s.Extras)), NO_EXTRAS)
        return s.ResultRowNode(low, high, names, extras, self._p(meta))

    def sight_decl(self, meta: Meta, ch: list[Any]) -> s.SightDecl:
        terms: dict[str, Any] = {}  # the first of a term given twice counts
        for c in ch:
            if isinstance(c, tuple) and c and c[0] in ("blocks", "counts", "crossed", "inside"):
                terms.setdefault(c[0], c[1])
        return s.SightDecl(
            self._item(meta, ch),
            terms.get("blocks"),
            terms.get("counts"),
            terms.get("crossed"),
            terms.get("inside"),
        )

    def sight_blocks(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Located]:
        return ("blocks", self._located(meta, ch[-1]))

    def sight_counts(self, meta: Meta, ch: list[Token]) -> tuple[str, s.Name]:
        return ("counts", self._name(ch[0]))

    def sight_crossed(self, meta: Meta, ch: list[Token]) -> tuple[str, s.Name]:
        return ("crossed", self._name(ch[0]))

    def sight_inside(self, meta: Meta, ch: list[Token]) -> tuple[str, s.Pos]:
        return ("inside", self._p(meta))

    def dice_modifier(self, meta: Meta, ch: list[Any]) -> s.DiceModifierNode:
        amount = next(c for c in ch if isinstance(c, ir.Number))
        return s.DiceModifierNode(self._item(meta, ch), s.Located(amount, self._p(meta)))

    def dice_row(self, meta: Meta, ch: list[Any]) -> s.DiceRowNode:
        low, high = ch[0]
        effects = next((c for c in ch if isinstance(c, s.CellNode)), None)
        return s.DiceRowNode(self._item(meta, ch[1:]), low, high, effects)

    def range_one(self, meta: Meta, ch: list[Token]) -> tuple[int, int]:
        return int(ch[0]), int(ch[0])

    def range_span(self, meta: Meta, ch: list[Token]) -> tuple[int, int]:
        return int(ch[0]), int(ch[1])

    def range_up(self, meta: Meta, ch: list[Token]) -> tuple[int, None]:
        return int(ch[0]), None

    def range_down(self, meta: Meta, ch: list[Token]) -> tuple[None, int]:
        return None, int(ch[0])
