"""IR values spelled the way the terrain DSL writes them: ``+1``, ``1 per 2 in``, ``1d6+3``.

One place for this text, used by diagnostics, the semantic diff and the generated modules'
docstrings. (Sheets have their own, translated wording in rulesdsl.printed.sheet_model.)
"""

from __future__ import annotations

from typing import assert_never

from rulesdsl import ir
from rulesdsl.semantics import arith as semantics_arith


def number(value: float, signed: bool = False) -> str:
    """``3`` for 3.0, ``1.5`` for 1.5; a leading ``+`` when ``signed`` and not negative."""
    text = str(int(value)) if float(value).is_integer() else str(value)
    return f"+{text}" if signed and value >= 0 else text


def dice(value: ir.DiceRoll) -> str:
    """``2d6``, ``1d6+3``, ``d66``."""
    match value:
        case ir.DiceValue(count=count, sides=sides, bonus=bonus):
            return f"{count}d{sides}" + (f"{bonus:+d}" if bonus else "")
        case ir.D66Value(bonus=bonus):
            return "d66" + (f"{bonus:+d}" if bonus else "")
        case _:
            assert_never(value)


def value(v: ir.Value) -> str:
    """A value as the DSL writes it in a cell: ``+1``, ``1 per 2 in``, ``as clear``."""
    match v:
        case ir.Number(value=n, unit=unit, signed=signed):
            return number(n, signed) + (f" {unit}" if unit else "")
        case ir.Rate(amount=amount, per=per):
            return f"{value(amount)} per {value(per)}"
        case ir.ParamRate(amount=amount, param=param):
            return f"{value(amount)} per {param}"
        case ir.Trade(gain=gain, cost=cost):
            return f"{value(gain)} for {value(cost)}"
        case ir.Span(low=low, high=high, unit=unit):
            return f"{number(low)}-{number(high)}" + (f" {unit}" if unit else "")
        case ir.Marker(marker=marker):
            return marker
        case ir.Symbol(name=name):
            return name
        case ir.Flag(value=flag):
            return "yes" if flag else "no"
        case ir.DiceValue() | ir.D66Value():
            return dice(v)
        case ir.Text(text=text):
            return string(text)
        case ir.Same(feature=feature):
            return f"as {feature}"
        case ir.Given():
            return "given"
        case ir.Flat(amount=amount):
            return f"flat {value(amount)}"
        case ir.Share():
            return f"share {share(v)}"
        case ir.StepCost(step=step):
            return f"step {step}"
        case _:
            assert_never(v)


def share(v: ir.Share) -> str:
    """``1/2``, ``all``, ``all but 1 in``."""
    if v.numerator != v.denominator:
        return f"{v.numerator}/{v.denominator}"
    return "all" + (f" but {value(v.but)}" if v.but is not None else "")


def dice_range(low: int | None, high: int | None) -> str:
    """A dice row's totals: ``8``, ``2-7``, ``12+`` or ``2-``."""
    if low is None:
        return f"{high}-"
    if high is None:
        return f"{low}+"
    return str(low) if low == high else f"{low}-{high}"


def step_term(term: ir.StepTerm, unit: str) -> str:
    match term:
        case ir.RateTerm():
            full = "full " if term.full else ""
            above = f" above {number(term.above)} {unit}" if term.above is not None else ""
            return f"{number(term.amount, True)} per {full}{number(term.every)} {unit}{above}"
        case ir.FloorTerm():
            bound = "above" if term.strict else "from"
            return f"at least {number(term.amount)} {bound} {number(term.at)} {unit}"
        case ir.FreeTerm():
            return f"free up to {number(term.at)} {unit}"
        case ir.ImpassableTerm():
            bound = "above" if term.strict else "from"
            return f"impassable {bound} {number(term.at)} {unit}"
        case _:
            assert_never(term)


def step_rule(step: ir.Step) -> str:
    """A step's terms as written: ``+1 per full 4 in, at least 1 from 2 in``."""
    return ", ".join(step_term(t, step.param_unit) for t in step.terms)


def cell_ref(ref: ir.CellRef) -> str:
    """``flight[class].turn over full after``, ``table.column[key]`` or ``table[key]``."""
    match ref.axis:
        case _ if ref.line is None:
            text = f"{ref.table}[{ref.input}]"
        case "column":
            text = f"{ref.table}[{ref.input}].{ref.line}"
        case "row":
            text = f"{ref.table}.{ref.line}[{ref.input}]"
        case _:
            assert_never(ref.axis)
    if ref.over is not None:
        text += f" over {'full ' if ref.full else ''}{ref.over}"
    return text


def operand(op: ir.Operand) -> str:
    match op:
        case ir.InputOperand(input=name, scale_op=None):
            return name
        case ir.InputOperand(input=name, scale_op=scale_op, scale=scale):
            return f"{name} {scale_op} {number(scale)}"
        case ir.LiteralOperand(value=value, unit=unit):
            return number(value) + (f" {unit}" if unit else "")
        case ir.CellOperand(cell=ref):
            return cell_ref(ref)
        case ir.ArithOperand(expr=expr):
            return semantics_arith.source(expr, number)
        case _:
            assert_never(op)


def condition(c: ir.Condition) -> str:
    """A condition as the DSL writes it: ``distance <= size``, ``not hidden``."""
    match c:
        case ir.Comparison(left=left, op=op, right=right):
            return f"{operand(left)} {op} {operand(right)}"
        case ir.InputTruth(input=name, holds=holds):
            return name if holds else f"not {name}"
        case ir.CellTruth(cell=ref, holds=holds):
            return cell_ref(ref) if holds else f"not {cell_ref(ref)}"
        case _:
            assert_never(c)


def decision_row(row: ir.DecisionRow) -> str:
    """``distance <= size -> passive``; ``otherwise -> active``; ``otherwise -> gained =
    speed + dived`` in a decision that gives numbers."""
    test = " and ".join(condition(c) for c in row.conditions) or "otherwise"
    answer = "" if row.answer is None else f" = {operand(row.answer)}"
    return f"{test} -> {row.outcome}{answer}"


def string(text: str) -> str:
    """``text`` as a DSL string literal: the escapes the grammar reads (\\" \\\\ \\n \\t
    \\uXXXX), every other control character as \\uXXXX."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 or ch in "\u2028\u2029":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'
