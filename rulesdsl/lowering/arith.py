"""Lower arithmetic in a decision's operand (issue 25): ``abs(new_speed - speed)``,
``sensor_range / 2 rounded down - 2``, with the units of every part checked.

A part's unit is the unit of the input or number it is (None for a plain number, which takes
the unit of what it meets). ``+``, ``-``, ``min`` and ``max`` join parts of one unit; a
product has one unit at most; a quotient divides by a number written in the rule (an input
could be 0 at run time), and a quotient of one unit by the same unit is a plain number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import get_args

from rulesdsl import ir
from rulesdsl.diagnostics import did_you_mean
from rulesdsl.frontends import syntax as s
from rulesdsl.positions import Positions
from rulesdsl.semantics import arith as semantics_arith
from rulesdsl.units import BOOL_UNIT
from rulesdsl.words import Total, total

Err = Callable[..., None]
"""The lowerer's error reporter: (code, message, position, hint)."""

Lowered = tuple[ir.Arith, str | None]
"""An expression and the unit of its result."""

_SAME = "add and subtract numbers in one unit"
_OP_WORDS: Total[ir.ArithOp, tuple[str, str, str]] = total(
    ir.ArithOp,
    {
        "+": ("add", "to", _SAME),
        "-": ("subtract", "from", _SAME),
        "*": ("multiply", "by", "a product has one unit at most: write one factor as a number"),
        "/": ("divide", "by", "divide by a plain number or by a number in '{a}'"),
    },
)
"""Each operation's verb, preposition and hint, for E225."""


def _ops(text: str) -> ir.ArithOp:
    return next(op for op in get_args(ir.ArithOp) if op == text)


class ArithLowering:
    """Lowers one decision's arithmetic, reporting faults through the decision's lowerer."""

    def __init__(
        self,
        err: Err,
        where: Positions,
        number: Callable[[s.Located, str | None], ir.Number | None],
        keys: Mapping[str, str],
        steps: Mapping[str, ir.Step],
        decisions: Mapping[str, ir.Decision],
    ) -> None:
        self.err = err
        self.where = where
        self.number = number
        self.keys = keys
        """Inputs that hold a key of a table: input -> table."""
        self.absolute: list[tuple[str, s.Pos]] = []
        """The inputs read as ``abs(input)``, each with the call's place (issue 40)."""
        self.steps = steps
        """The ruleset's steps, which an expression may call by name (issue 40)."""
        self.decisions = decisions
        """The decisions declared above this one, which it may call if they give numbers."""

    def operand(self, node: s.ArithNode, params: Mapping[str, str]) -> ir.ArithOperand | None:
        lowered = self._lower(node, params)
        if lowered is None:
            return None
        expr, unit = lowered
        operand = ir.ArithOperand(expr, unit)
        self.where.record(operand, node.pos)
        return operand

    def answer(self, node: s.OperandNode, params: Mapping[str, str]) -> ir.ArithOperand | None:
        """A decision row's number (``= top``, ``= speed / 2``, ``= speed + levels``)."""
        lowered = self._lower(node, params)
        if lowered is None:
            return None
        expr, unit = lowered
        if node.scale_op is not None and node.scale is not None:
            scale = self.number(node.scale, None)
            if scale is None:
                return None
            expr = ir.ArithBinary(node.scale_op, expr, ir.ArithNumber(scale.value))
        operand = ir.ArithOperand(expr, unit)
        self.where.record(operand, node.pos)
        return operand

    def compared(self, operand: ir.ArithOperand, other: str | None, op: str, pos: s.Pos) -> bool:
        """Whether an arithmetic side compares with a side in ``other`` unit (E225 if not)."""
        if operand.unit is not None and other is not None and operand.unit != other:
            self.err(
                "E225",
                f"'{operand.unit}' is compared ({op}) with '{other}'",
                pos,
                "both sides of a comparison are in one unit",
            )
            return False
        return True

    def _lower(
        self, node: s.OperandNode | s.ArithNode, params: Mapping[str, str]
    ) -> Lowered | None:
        """An expression's IR and unit (the front end has bounded how deep it nests, E228)."""
        if isinstance(node, s.OperandNode):
            if node.arith is not None:
                return self._lower(node.arith, params)
            return self._leaf(node, params)
        if node.function is not None:
            return self._call(node, params)
        left = self._lower(node.args[0], params)
        right = self._lower(node.args[1], params)
        if left is None or right is None:
            return None
        op = _ops(node.op)
        if semantics_arith.divides(op) and not isinstance(right[0], ir.ArithNumber):
            self.err(
                "E227",
                "divide by a number written in the rule, not by an input",
                node.args[1].pos,
                "an input may be 0; compare a product instead (`a > 2 * b`, not `a / b > 2`)",
            )
            return None
        joined, unit = self._joined(op, left[1], right[1], node.pos)
        if not joined:
            return None
        rounding = self._rounding(node.rounding)
        expr = ir.ArithBinary(op, left[0], right[0], rounding)
        self.where.record(expr, node.pos)
        return expr, unit

    def _joined(
        self, op: ir.ArithOp, a: str | None, b: str | None, pos: s.Pos
    ) -> tuple[bool, str | None]:
        """Whether the units of ``a op b`` join (E225 if not), and the unit of the result."""
        if a is None or b is None:
            if semantics_arith.divides(op) and b is not None:
                self.err(
                    "E225",
                    f"a plain number is divided by '{b}'",
                    pos,
                    f"divide by a plain number, or write the left side in {b}",
                )
                return False, None
            return True, a if a is not None else b
        if semantics_arith.adds(op) and a == b:
            return True, a
        if semantics_arith.divides(op) and a == b:
            return True, None  # a ratio: a plain number
        verb, into, hint = _OP_WORDS[op]
        first, second = (b, a) if semantics_arith.adds(op) else (a, b)
        self.err("E225", f"cannot {verb} '{first}' {into} '{second}'", pos, hint.format(a=a))
        return False, None

    def _call(self, node: s.ArithNode, params: Mapping[str, str]) -> Lowered | None:
        assert node.function is not None
        name = node.function.text
        functions = get_args(ir.ArithFunction)
        function = next((f for f in functions if f == name), None)
        if function is None and name in self.steps:
            return self._step(node, self.steps[name], params)
        if function is None and name in self.decisions:
            return self._decision(node, self.decisions[name], params)
        if function is None:
            self.err(
                "E226",
                f"unknown function '{name}'",
                node.function.pos,
                did_you_mean(name, [*functions, *self.steps])
                or "functions: " + ", ".join(functions),
            )
            return None
        least, most = semantics_arith.ARITY[function]
        if len(node.args) < least or (most is not None and len(node.args) > most):
            wanted = f"{least}" if least == most else f"at least {least}"
            self.err(
                "E226",
                f"{name}() takes {wanted} argument{'s' if least > 1 or most is None else ''}, "
                f"not {len(node.args)}",
                node.pos,
                f"e.g. `{name}(a)`" if most == 1 else f"e.g. `{name}(a, b)`",
            )
            return None
        args = [self._lower(a, params) for a in node.args]
        if any(a is None for a in args):
            return None
        lowered = [a for a in args if a is not None]
        units = sorted({u for _, u in lowered if u is not None})
        if len(units) > 1:
            self.err(
                "E225",
                f"{name}() mixes '{units[0]}' and '{units[1]}'",
                node.pos,
                "the values a function compares are in one unit",
            )
            return None
        rounding = self._rounding(node.rounding)
        expr = ir.ArithCall(function, tuple(e for e, _ in lowered), rounding)
        self.where.record(expr, node.pos)
        if function == "abs" and isinstance(expr.args[0], ir.ArithInput):
            self.absolute.append((expr.args[0].input, node.pos))
        return expr, units[0] if units else None

    def _step(self, node: s.ArithNode, step: ir.Step, params: Mapping[str, str]) -> Lowered | None:
        """``climb_cost(levels)``: the step's answer for one value in its input's unit (E225),
        from a step that never answers impassable (E226)."""
        assert node.function is not None
        if step.id in params:  # the generated function's argument would hide the step
            self.err(
                "E226",
                f"input '{step.id}' has the name of the step it calls",
                node.function.pos,
                "rename the input",
            )
            return None
        if len(node.args) != 1:
            self.err(
                "E226",
                f"step '{step.id}' takes one value, in {step.param_unit}",
                node.pos,
                f"e.g. `{step.id}({step.param})`",
            )
            return None
        if any(isinstance(t, ir.ImpassableTerm) for t in step.terms):
            self.err(
                "E226",
                f"step '{step.id}' may answer impassable, which cannot be computed with",
                node.function.pos,
                "compare the input with the step's threshold in the row's conditions instead",
            )
            return None
        arg = self._lower(node.args[0], params)
        if arg is None:
            return None
        if arg[1] is not None and arg[1] != step.param_unit:
            self.err(
                "E225",
                f"step '{step.id}' takes '{step.param_unit}', not '{arg[1]}'",
                node.args[0].pos,
                f"give it a value in {step.param_unit}",
            )
            return None
        expr = ir.ArithStep(step.id, arg[0], self._rounding(node.rounding))
        self.where.record(expr, node.pos)
        return expr, step.result_unit

    def _decision(
        self, node: s.ArithNode, callee: ir.Decision, params: Mapping[str, str]
    ) -> Lowered | None:
        """``capped(kind, speed + 1)``: the number a decision declared above gives, its first
        inputs given in order (E226: one that gives outcomes, a wrong count, a yes/no input
        given, rounding after it; E225: a value in another unit; E211: a key input given
        anything but a key input of this decision of the same table)."""
        assert node.function is not None
        required = sum(p.default is None for p in callee.params)
        fault = (
            "gives outcomes, not a number"
            if not any(r.answer for r in callee.rows)
            else f"takes {required} to {len(callee.params)} values"
            if not required <= len(node.args) <= len(callee.params)
            else "cannot be rounded (round what you compute with it)"
            if node.rounding is not None
            else "takes a yes/no input, which arithmetic cannot give"
            if any(p.unit == BOOL_UNIT for p in callee.params[: len(node.args)])
            else "takes a modifier's items, which arithmetic cannot give"
            if any(p.total_of is not None for p in callee.params)
            else None
        )
        if fault is not None or callee.id in params:
            self.err(
                "E226",
                f"decision '{callee.id}' {fault or 'has the name of an input'}",
                node.function.pos,
                "its inputs: "
                + ", ".join(f"{p.name} {p.key_of or p.total_of or p.unit}" for p in callee.params),
            )
            return None
        args: list[ir.Arith] = []
        for p, arg in zip(callee.params, node.args, strict=False):
            lowered = self._argument(p, arg, params)
            if lowered is None:
                return None
            args.append(lowered)
        names = tuple(p.name for p in callee.params[: len(args)])
        expr = ir.ArithDecision(callee.id, tuple(args), names)
        self.where.record(expr, node.pos)
        return expr, _given_unit(callee)

    def _argument(
        self, p: ir.Param, arg: s.OperandNode | s.ArithNode, params: Mapping[str, str]
    ) -> ir.Arith | None:
        """One value given to a decision's input ``p``, checked against it."""
        if p.key_of is not None:
            plain = isinstance(arg, s.OperandNode) and not arg.arith and not arg.scale_op
            name = arg.ref.text if isinstance(arg, s.OperandNode) and arg.ref and plain else None
            if name is None or self.keys.get(name) != p.key_of:
                self.err(
                    "E211",
                    f"input '{p.name}' takes a key of table '{p.key_of}'",
                    arg.pos,
                    f"pass on an input of this decision declared `({p.name} {p.key_of})`",
                )
                return None
            expr: ir.Arith = ir.ArithInput(name)
            self.where.record(expr, arg.pos)
            return expr
        lowered = self._lower(arg, params)
        if lowered is not None and lowered[1] not in (None, p.unit):
            self.err(
                "E225",
                f"input '{p.name}' takes '{p.unit}', not '{lowered[1]}'",
                arg.pos,
                f"give it a value in {p.unit}",
            )
            return None
        return None if lowered is None else lowered[0]

    def _leaf(self, node: s.OperandNode, params: Mapping[str, str]) -> Lowered | None:
        if node.cell is not None:
            self.err(
                "E227",
                "a table cell cannot be computed with",
                node.pos,
                "compare the cell on its own side: `speed - 2 > table[key].row`",
            )
            return None
        if node.ref is not None:
            name = node.ref.text
            if name not in params:
                self.err(
                    "E101", f"unknown input '{name}'", node.ref.pos, did_you_mean(name, params)
                )
                return None
            if name in self.keys:
                self.err(
                    "E211",
                    f"input '{name}' names a key of table '{self.keys[name]}' and is not a number",
                    node.ref.pos,
                    f"compute with the cell it picks: `{self.keys[name]}[{name}]...`",
                )
                return None
            if params[name] == BOOL_UNIT:
                self.err(
                    "E210",
                    f"input '{name}' is yes/no, not a number",
                    node.ref.pos,
                    f"test it alone: `{name}` or `not {name}`",
                )
                return None
            expr: ir.Arith = ir.ArithInput(name)
            self.where.record(expr, node.ref.pos)
            return expr, params[name]
        assert node.literal is not None
        number = self.number(node.literal, None)
        if number is None:
            return None
        expr = ir.ArithNumber(number.value, number.unit)
        self.where.record(expr, node.literal.pos)
        return expr, number.unit

    @staticmethod
    def _rounding(name: s.Name | None) -> ir.Rounding | None:
        if name is None:
            return None
        return next(r for r in get_args(ir.Rounding) if r == name.text)


def _given_unit(d: ir.Decision) -> str | None:
    """The unit of the numbers a decision gives: its rows' computed numbers' unit (a row
    that gives a cell or a plain number says none)."""
    units = {r.answer.unit for r in d.rows if isinstance(r.answer, ir.ArithOperand)}
    return next(iter(sorted(u for u in units if u)), None)
