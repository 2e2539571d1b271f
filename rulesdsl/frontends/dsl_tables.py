"""The DSL builder's methods for steps, decisions, tables, dice tables and sight rules: one per
grammar rule, each building that construct's syntax node (see :mod:`rulesdsl.frontends.dsl`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, get_args

from lark import Token
from lark.tree import Meta

from rulesdsl import ir
from rulesdsl.diagnostics import error
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.dsl_base import NO_EXTRAS, BuilderBase, parse_dice_token
from rulesdsl.semantics.arith import MAX_DEPTH

_SIGHT_TERMS = ("blocks", "counts", "crossed", "inside", "state")
"""The terms of a ``sight`` line; ``state``: ``when altitude below 5`` (issue 40)."""


class TableRules(BuilderBase):
    """Builds steps, decisions, tables, dice tables and sight rules."""

    extras: Callable[[Meta, list[Any]], s.Extras]
    """Gathers a source, notes and flags into an item's extras (the file builder's own)."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self._depths: dict[int, int] = {}
        """How deep each arithmetic node built so far nests (by the node's id)."""

    def reset(self, path: str) -> None:
        super().reset(path)
        self._depths = {}

    def param(self, meta: Meta, ch: list[Token]) -> s.ParamNode:
        return s.ParamNode(self._name(ch[0]), self._name(ch[1]))

    def signed_param(self, meta: Meta, ch: list[Token]) -> s.ParamNode:
        """``bearing signed deg`` (issue 40): an input that may be below 0."""
        return s.ParamNode(self._name(ch[0]), self._name(ch[-1]), signed=True)

    def decision_param(self, meta: Meta, ch: list[Any]) -> s.ParamNode:
        param: s.ParamNode = ch[0]
        return dataclasses.replace(param, default=ch[1])

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
        answer = next((c for c in ch[2:] if isinstance(c, s.OperandNode)), None)
        head = [c for c in ch[1:] if isinstance(c, Token | tuple | s.Extras)]
        if answer is not None:  # `-> x "X" [src] = n note "..."`: the extras around the `=`
            others = [c for c in ch[2:] if not isinstance(c, tuple | s.OperandNode)]
            head.append(self.extras(meta, others))
        return s.DecisionRowNode(conditions, self._item(meta, head), self._p(meta), answer)

    def decision_answer(self, meta: Meta, ch: list[s.OperandNode]) -> s.OperandNode:
        return ch[0]

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

    def literal(self, meta: Meta, ch: list[Any]) -> s.OperandNode:
        return s.OperandNode(None, None, None, ch[0], self._p(meta))

    # -- arithmetic in decisions (issue 25) ---------------------------------------------------

    def operand(self, meta: Meta, ch: list[s.OperandNode]) -> s.OperandNode:
        """A comparison's side. ``input * 2`` and ``input / 2`` stay an input scaled by a
        number, as they were before operands could compute; anything else that computes is
        arithmetic."""
        node = ch[0]
        arith = node.arith
        if (
            arith is not None
            and arith.op in get_args(ir.ScaleOp)
            and arith.rounding is None
            and arith.args[0].ref is not None
            and arith.args[0].arith is None
            and arith.args[1].literal is not None
        ):
            scale = arith.args[1].literal
            if isinstance(scale.value, ir.Number) and scale.value.unit is None:
                op = next(o for o in get_args(ir.ScaleOp) if o == arith.op)
                return s.OperandNode(
                    arith.args[0].ref, op, s.Located(scale.value, node.pos), None, node.pos
                )
        return node

    def arith_add(self, meta: Meta, ch: list[Any]) -> s.OperandNode:
        return self._arith(meta, ch[1], (ch[0], ch[2]), None, None)

    def arith_add_op(self, meta: Meta, ch: list[Token]) -> str:
        return str(ch[0])

    def arith_mul(self, meta: Meta, ch: list[Any]) -> s.OperandNode:
        rounding = ch[3] if len(ch) > 3 else None
        return self._arith(meta, str(ch[1]), (ch[0], ch[2]), None, rounding)

    def arith_call(self, meta: Meta, ch: list[Any]) -> s.OperandNode:
        rounding = ch[-1] if isinstance(ch[-1], s.Name) else None
        args = tuple(c for c in ch[1:] if isinstance(c, s.OperandNode))
        return self._arith(meta, "call", args, self._name(ch[0]), rounding)

    def arith_group(self, meta: Meta, ch: list[s.OperandNode]) -> s.OperandNode:
        return ch[0]

    def arith_rounding(self, meta: Meta, ch: list[Token]) -> s.Name:
        return s.Name(str(ch[1]), self._p(meta))

    def _arith(
        self,
        meta: Meta,
        op: str,
        args: tuple[s.OperandNode, ...],
        function: s.Name | None,
        rounding: s.Name | None,
    ) -> s.OperandNode:
        pos = self._p(meta)
        depth = 1 + max(self._depths.get(id(a.arith), 0) if a.arith else 0 for a in args)
        if depth > MAX_DEPTH:
            # The parser does not recurse, but every later walk of the tree would: the
            # expression stops growing here, and is reported once (E228).
            deepest = max(args, key=lambda a: self._depths.get(id(a.arith), 0) if a.arith else 0)
            if depth == MAX_DEPTH + 1:
                self.errors.append(
                    error(
                        "E228",
                        f"this expression nests more than {MAX_DEPTH} levels deep",
                        pos,
                        "split the rule into simpler rows",
                    )
                )
            if deepest.arith is not None:
                self._depths[id(deepest.arith)] = MAX_DEPTH + 1
            return deepest
        node = s.ArithNode(op, args, pos, function, rounding)
        self._depths[id(node)] = depth
        return s.OperandNode(None, None, None, None, pos, None, node)

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
        arcs = next((c for c in ch if isinstance(c, s.Name)), None)  # `: arcs NAME`
        return s.TableDecl(self._item(meta, ch), tuple(columns), rows, arcs)

    def dice_decl(self, meta: Meta, ch: list[Any]) -> s.DiceDecl:
        dice_token = next(c for c in ch if isinstance(c, Token) and c.type == "DICE")
        dice = s.Located(parse_dice_token(str(dice_token)), self._p(dice_token))
        mods = tuple(c for c in ch if isinstance(c, s.DiceModifierNode))
        rows = tuple(c for c in ch if isinstance(c, s.DiceRowNode))
        results = self._results(ch)
        naturals = tuple(c for c in ch if isinstance(c, s.NaturalNode)) if results is None else ()
        return s.DiceDecl(self._item(meta, ch), dice, mods, rows, results, naturals)

    def _results(self, ch: list[Any]) -> s.ResultsNode | None:
        by_clause = next((c for c in ch if isinstance(c, tuple) and c and c[0] == "by"), None)
        by: s.Name | None = by_clause[1] if by_clause else None
        rounding: s.Name | None = by_clause[2] if by_clause else None
        columns = tuple(c for c in ch if isinstance(c, s.DiceColumnNode))
        outcomes = tuple(c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "outcome")
        effects = tuple(
            (c[1].name.text, c[2])
            for c in ch
            if isinstance(c, tuple) and c and c[0] == "outcome" and c[2] is not None
        )
        naturals = tuple(c for c in ch if isinstance(c, s.NaturalNode))
        results = tuple(c for c in ch if isinstance(c, s.ResultRowNode))
        if by is None and not (columns or outcomes or results):
            return None  # a plain dice table, maybe with natural rolls (issue 25)
        return s.ResultsNode(by, columns, outcomes, naturals, results, rounding, effects)

    def dice_by(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Name, s.Name | None]:
        rounding = next((c for c in ch if isinstance(c, s.Name)), None)
        return ("by", self._name(ch[0]), rounding)

    def dice_round(self, meta: Meta, ch: list[Token]) -> s.Name:
        return self._name(ch[0])

    def dice_column(self, meta: Meta, ch: list[Any]) -> s.DiceColumnNode:
        item = self._item(meta, ch)
        category = ("category", s.Located(ir.Number(0.0), item.name.pos), None)
        bound, value, ratio = next(
            (c for c in ch if isinstance(c, tuple) and c and c[0] in get_args(ir.ColumnBound)),
            category,  # no bound: a category the caller names (issue 40)
        )
        return s.DiceColumnNode(item, bound, value, ratio)

    def column_up_to(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Located, Any]:
        return ("up_to", *self._bound(meta, ch[-1]))

    def column_above(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Located, Any]:
        return ("above", *self._bound(meta, ch[-1]))

    def column_at(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Located, Any]:
        return ("at", *self._bound(meta, ch[-1]))

    def _bound(
        self, meta: Meta, value: tuple[s.Located, tuple[int, int] | None]
    ) -> tuple[s.Located, tuple[int, int] | None]:
        """The bound's value placed over the whole bound (``up to 6 in``), as diagnostics
        point at it."""
        return (s.Located(value[0].value, self._p(meta)), value[1])

    def column_quantity(self, meta: Meta, ch: list[Any]) -> tuple[s.Located, None]:
        number: ir.Number = ch[0]
        unit = str(ch[1]) if len(ch) > 1 else None
        return (s.Located(ir.Number(number.value, unit, number.signed), self._p(meta)), None)

    def column_ratio(self, meta: Meta, ch: list[Token]) -> tuple[s.Located, tuple[int, int]]:
        """``2:1``: the ratio's value (2.0) and its two terms, as the sheet prints them."""
        a, b = int(ch[0]), int(ch[1])
        return (s.Located(ir.Number(a / b if b else 0.0), self._p(meta)), (a, b))

    def dice_outcome(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Item, s.CellNode | None]:
        cell = next((c for c in ch if isinstance(c, s.CellNode)), None)
        return ("outcome", self._item(meta, ch), cell)

    def dice_natural(self, meta: Meta, ch: list[Any]) -> s.NaturalNode:
        extras = next((c for c in ch if isinstance(c, s.Extras)), NO_EXTRAS)
        return s.NaturalNode(int(ch[0]), self._name(ch[1]), extras, self._p(meta))

    def natural_at_least(self, meta: Meta, ch: list[Any]) -> s.NaturalNode:
        extras = next((c for c in ch if isinstance(c, s.Extras)), NO_EXTRAS)
        return s.NaturalNode(int(ch[0]), self._name(ch[1]), extras, self._p(meta), True)

    def natural_by_column(self, meta: Meta, ch: list[Any]) -> s.NaturalNode:
        extras = next((c for c in ch if isinstance(c, s.Extras)), NO_EXTRAS)
        names = tuple(self._name(c) for c in ch[1:] if isinstance(c, Token) and c.type == "NAME")
        return s.NaturalNode(int(ch[0]), names[0], extras, self._p(meta), False, names)

    def result_row(self, meta: Meta, ch: list[Any]) -> s.ResultRowNode:
        low, high = ch[0]
        names = tuple(self._name(c) for c in ch[1:] if isinstance(c, Token) and c.type == "NAME")
        extras = next((c for c in ch if isinstance(c, s.Extras)), NO_EXTRAS)
        return s.ResultRowNode(low, high, names, extras, self._p(meta))

    def sight_decl(self, meta: Meta, ch: list[Any]) -> s.SightDecl:
        terms: dict[str, Any] = {}  # the first of a term given twice counts
        for c in ch:
            if (
                isinstance(c, tuple)
                and c
                and c[0] in ("blocks", "counts", "crossed", "inside", "state")
            ):
                terms.setdefault(c[0], c[1])
        blocks: tuple[s.Located, bool] | None = terms.get("blocks")
        return s.SightDecl(
            self._item(meta, ch),
            blocks[0] if blocks else None,
            terms.get("counts"),
            terms.get("crossed"),
            terms.get("inside"),
            above=True if blocks is not None and blocks[1] else None,
            band=terms.get("state"),
        )

    def sight_band(self, meta: Meta, ch: list[Any]) -> tuple[str, tuple[s.Name, str, s.Located]]:
        """``when altitude below 5`` (issue 40): the rule counts only while the viewer's state
        is in the band."""
        return ("state", ch[0][1:])

    def sight_blocks(self, meta: Meta, ch: list[Any]) -> tuple[str, tuple[s.Located, bool]]:
        return ("blocks", (self._located(meta, ch[-1]), False))

    def sight_blocks_above(self, meta: Meta, ch: list[Any]) -> tuple[str, tuple[s.Located, bool]]:
        """``blocks above N`` (issue 40): only a total greater than N blocks."""
        return ("blocks", (self._located(meta, ch[-1]), True))

    def sight_counts(self, meta: Meta, ch: list[Token]) -> tuple[str, s.Name]:
        return ("counts", self._name(ch[0]))

    def sight_crossed(self, meta: Meta, ch: list[Token]) -> tuple[str, s.Name]:
        return ("crossed", self._name(ch[0]))

    def sight_line(self, meta: Meta, ch: list[Any]) -> s.SightFactorNode:
        """``sight NAME labels : rule`` in a modifier's block (issue 40)."""
        rule = [c for c in ch if isinstance(c, Token) and c.type == "NAME"][-1]
        return s.SightFactorNode(self._item(meta, ch), self._name(rule))

    def sight_inside(self, meta: Meta, ch: list[Token]) -> tuple[str, s.Pos]:
        return ("inside", self._p(meta))

    def dice_modifier(self, meta: Meta, ch: list[Any]) -> s.DiceModifierNode:
        amount = next(c for c in ch if isinstance(c, ir.Number))
        return s.DiceModifierNode(self._item(meta, ch), s.Located(amount, self._p(meta)))

    def shift_modifier(self, meta: Meta, ch: list[Any]) -> s.DiceModifierNode:
        tokens = [c for c in ch if isinstance(c, Token)]
        direction, count = tokens[1], tokens[2]  # NAME, then `shift` NAME INT
        amount = s.Located(ir.Number(int(count)), self._p(count))
        on_doubles = next((c for c in ch if isinstance(c, s.OnDoubles)), None)
        item = self._item(meta, ch)
        return s.DiceModifierNode(item, amount, self._name(direction), on_doubles)

    def on_doubles(self, meta: Meta, ch: list[Any]) -> s.OnDoubles:
        return s.OnDoubles(self._p(meta))

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
