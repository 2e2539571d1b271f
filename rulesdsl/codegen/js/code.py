"""Steps and decisions as JavaScript functions (for :mod:`rulesdsl.codegen.js`), written from
the plan's code section: one ``<node>_js`` function per node of
:mod:`rulesdsl.codegen.plan.code`, following the Python module's code piece by piece (the same
checks in the same order, the same arithmetic, the same answers)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from rulesdsl.codegen.js.values import comment, key_js, labels_js, literal_js, number_js, string_js
from rulesdsl.codegen.plan import code as plan


def local(name: str) -> str:
    """An input as a local variable: ``$name`` never meets a JavaScript reserved word nor a
    name of the module."""
    return f"${name}"


def function_name(name: str) -> str:
    """A step or decision as the module's own function: ``$$name``, exported as ``name``
    (an export name may be any word, ``switch`` or ``new`` included; a function's may not)."""
    return f"$${name}"


def export_js(name: str) -> str:
    return f"export {{ {function_name(name)} as {name} }};"


def _number_test(x: str, least: int | None) -> str:
    if least == 0:
        return f'typeof {x} === "number" && {x} >= 0 && {x} < _INF'
    return f'typeof {x} === "number" && Number.isFinite({x})'


def _number_check(function: str, name: str, least: int | None) -> str:
    minimum = "0" if least == 0 else "null"
    return f"_checkNumber({string_js(function)}, {string_js(name)}, {local(name)}, {minimum});"


def _guard(test: str, check: str) -> list[str]:
    return [f"if (!({test})) {{", f"  {check}", "}"]


def step_js(step: plan.Step) -> list[str]:
    """A step as an exported function: its argument checked, then its terms."""
    x = local(step.param)
    lines = [f"function {function_name(step.name)}({x}) {{"]
    body = _guard(_number_test(x, step.minimum), _number_check(step.name, step.param, step.minimum))
    rates: list[str] = []
    floors: list[str] = []
    for t in step.terms:
        match t:
            case plan.Impassable():
                body += impassable_js(t, x)
            case plan.Free():
                body += free_js(t, x)
            case plan.PerEvery():
                rates.append(per_every_js(t, x))
            case plan.AtLeast():
                floors += at_least_js(t, x)
            case _:
                assert_never(t)
    body += [f"let value = {' + '.join(rates) if rates else '0'};", *floors, "return value;"]
    return [*lines, *(f"  {line}" for line in body), "}", export_js(step.name)]


def _reached(x: str, at: float, strict: bool) -> str:
    return f"{x} {'>' if strict else '>='} {number_js(at)}"


def impassable_js(t: plan.Impassable, x: str) -> list[str]:
    return [f"if ({_reached(x, t.at, t.strict)}) return IMPASSABLE;"]


def free_js(t: plan.Free, x: str) -> list[str]:
    return [f"if ({x} <= {number_js(t.at)}) return 0;"]


def per_every_js(t: plan.PerEvery, x: str) -> str:
    part = x if t.above is None else f"Math.max(0, {x} - {number_js(t.above)})"
    count = f"_whole({part}, {number_js(t.every)})" if t.full else f"{part} / {number_js(t.every)}"
    if t.every == 1 and not t.full:
        count = part
    return count if t.amount == 1 else f"{number_js(t.amount)} * {count}"


def at_least_js(t: plan.AtLeast, x: str) -> list[str]:
    return [f"if ({_reached(x, t.at, t.strict)}) value = Math.max(value, {number_js(t.amount)});"]


# ---- decisions ----------------------------------------------------------------------------


def expr_js(e: plan.Expr, cells: Sequence[str]) -> str:
    """An expression, fully parenthesised where it combines (JavaScript's precedence of
    ``+ - * /`` is Python's, but parentheses cost nothing and read plainly)."""
    match e:
        case plan.Input(name=name):
            return local(name)
        case plan.Number(value=value):
            return number_js(value)
        case plan.CellRead():
            return cell_read_js(e, cells)
        case plan.Binary(op=op, left=left, right=right, rounding=rounding):
            a, b = expr_js(left, cells), expr_js(right, cells)
            return _rounded(binary_js(op, a, b, isinstance(right, plan.Number)), rounding)
        case plan.Call(function=function, args=args, rounding=rounding):
            return _rounded(call_js(function, [expr_js(a, cells) for a in args]), rounding)
        case plan.StepCall(step=step, arg=arg, rounding=rounding):
            return _rounded(f"{function_name(step)}({expr_js(arg, cells)})", rounding)
        case plan.DecisionCall(decision=name, args=args):
            given = ", ".join(f"{p}: {expr_js(a, cells)}" for p, a in args)
            return f"{function_name(name)}({{{given}}})"
        case _:
            assert_never(e)


def binary_js(op: plan.ArithOp, a: str, b: str, constant: bool) -> str:
    """``a op b``; a division by an input throws as Python's ZeroDivisionError where it is 0."""
    match op:
        case "/" if not constant:
            return f"_divide({a}, {b})"
        case "+" | "-" | "*" | "/":
            return f"({a} {op} {b})"
        case _:
            assert_never(op)


def call_js(function: plan.ArithFunction, args: list[str]) -> str:
    match function:
        case "abs":
            return f"Math.abs({args[0]})"
        case "half":
            return f"({args[0]} / 2)"
        case "min":
            return f"Math.min({', '.join(args)})"
        case "max":
            return f"Math.max({', '.join(args)})"
        case _:
            assert_never(function)


def _rounded(text: str, rounding: plan.Rounding | None) -> str:
    match rounding:
        case None:
            return text
        case "up":
            return f"_rounding(Math.ceil, {text})"
        case "down":
            return f"_rounding(Math.floor, {text})"
        case _:
            assert_never(rounding)


def cell_read_js(r: plan.CellRead, cells: Sequence[str]) -> str:
    read = f"{cells[r.cells]}.get({local(r.input)})"
    if r.over is None:
        return read
    return f"{read}.over({local(r.over)}{', true' if r.full else ''})"


def condition_js(c: plan.Test, cells: Sequence[str]) -> str:
    match c:
        case plan.Truth(of=of, holds=holds):
            text = expr_js(of, cells)
            return text if holds else f"!{text}"
        case plan.Compare(left=left, op=op, right=right):
            return f"{expr_js(left, cells)} {compare_js(op)} {expr_js(right, cells)}"
        case _:
            assert_never(c)


def compare_js(op: plan.CompareOp) -> str:
    match op:
        case "=":
            return "==="
        case "!=":
            return "!=="
        case "<" | "<=" | ">" | ">=":
            return op
        case _:
            assert_never(op)


def entry_js(entry: plan.Entry) -> str:
    match entry:
        case bool():
            return "true" if entry else "false"
        case float() | int():
            return number_js(entry)
        case plan.Limit(value=value, per=per):
            return f"new Limit({number_js(value)}{'' if per is None else ', ' + number_js(per)})"
        case _:
            assert_never(entry)


def cell_names(cells: Sequence[plan.Cells]) -> list[str]:
    return [f"_CELLS_{n}" for n in range(len(cells))]


def cells_js(c: plan.Cells, name: str) -> str:
    entries = ", ".join(f"[{key_js(k)}, {entry_js(v)}]" for k, v in c.entries)
    where = f"table {c.table}" + (f", {c.line}" if c.line else "")
    return f"{comment(f'{where}, per {c.axis}.')}\nconst {name} = new Map([{entries}]);"


def param_js(function: str, p: plan.Param) -> list[str]:
    """The lines that check one argument of a decision, as the Python module checks it."""
    x = local(p.name)
    match p:
        case plan.KeyParam(name=name, table=table, axis=axis, numeric=numeric):
            keys = f"_keys({string_js(table)}, {string_js(axis)})"
            kind = "number" if numeric else "string"
            check = (
                f"_checkKey({string_js(function)}, {string_js(name)}, {x}, {keys}, "
                f"{string_js(f'{axis} of {table!r}')});"
            )
            return _guard(f'typeof {x} === "{kind}" && {keys}.has({x})', check)
        case plan.FlagParam(name=name):
            return _guard(
                f"{x} === true || {x} === false",
                f"_checkFlag({string_js(function)}, {string_js(name)}, {x});",
            )
        case plan.NumberParam(name=name, minimum=least):
            return _guard(_number_test(x, least), _number_check(function, name, least))
        case plan.ModifierParam(name=name, modifier=modifier, total=total):
            args = ", ".join([string_js(function), string_js(name), string_js(modifier), x])
            return [f"const {local(total)} = _modifierTotal({args});"]
        case _:
            assert_never(p)


def _default_js(value: float | str | bool | None) -> str:
    match value:
        case None:
            return ""
        case bool():
            return " = true" if value else " = false"
        case str():
            return f" = {string_js(value)}"
        case float() | int():
            return f" = {number_js(value)}"
        case _:
            assert_never(value)


def outcome_names(d: plan.Decision) -> list[str]:
    """The constants of a decision's outcomes (none when it gives numbers)."""
    return [] if d.gives_number else [f"_{d.name}_{n}" for n in range(len(d.outcomes))]


def outcome_js(o: plan.Outcome) -> str:
    value = "" if o.value is None else f", {literal_js(o.value)}"
    return f"new Outcome({string_js(o.id)}, {string_js(o.label)}{value})"


TOTAL_JS = """\
/** Python's ``_modifier_total``: the total of the modifier ``name`` over ``items``, the
 * argument ``argument`` of the decision ``fn`` (issue 40); the checks (E432) leave it no
 * marker. */
function _modifierTotal(fn, argument, name, items) {
  if (!Array.isArray(items)) {
    throw new ArgumentTypeError(fn, argument, items, "must be a list of names");
  }
  try {
    return modifier(name, items);
  } catch (error) {
    if (!(error instanceof ArgumentError)) throw error;
    throw new error.constructor(fn, argument, error.value, error.reason);
  }
}"""
"""The helper of a decision that reads a modifier's total, in modules that have one."""


def decision_js(d: plan.Decision, cells: Sequence[str]) -> list[str]:
    """A decision as an exported function of one options object: its arguments checked in
    order, then its rows, each returning its outcome (made once, at load) or its number."""
    names = outcome_names(d)
    by_id = dict(zip((o.id for o in d.outcomes), names, strict=False))
    lines = [f"const {n} = {outcome_js(o)};" for o, n in zip(d.outcomes, names, strict=False)]
    params = ", ".join(f"{p.name}: {local(p.name)}{_default_js(p.default)}" for p in d.params)
    lines.append(f"function {function_name(d.name)}({{{params}}} = {{}}) {{")
    body = [line for p in d.params for line in param_js(d.name, p)]
    for row in d.rows:
        answer = by_id[row.outcome] if row.answer is None else expr_js(row.answer, cells)
        ret = f"return {answer};"
        if row.conditions:
            test = " && ".join(condition_js(c, cells) for c in row.conditions)
            body.append(f"if ({test}) {ret}")
        else:
            body.append(ret)
    return [*lines, *(f"  {line}" for line in body), "}", export_js(d.name)]


def outcome_labels_js(labels: Sequence[plan.OutcomeLabels]) -> str:
    entries = ", ".join(
        f"[{string_js(o.id + chr(0) + o.label)}, {labels_js(dict(o.labels))}]" for o in labels
    )
    return f"const _OUTCOME_LABELS = new Map([{entries}]);"
