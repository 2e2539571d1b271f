"""Steps and decisions as Python functions: their bodies, guards and the table cells they read
(for :mod:`rulesdsl.codegen.python`), written from the plan's code section: one ``<node>_py``
function per node of :mod:`rulesdsl.codegen.plan.code`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, assert_never

from rulesdsl.codegen.plan import code as plan
from rulesdsl.codegen.python import layout as python_layout
from rulesdsl.codegen.python.values import Code, literal_py, py, tidy

# ---- steps and decisions as code --------------------------------------------------------------


@dataclass(frozen=True)
class Function:
    id: str
    label: str
    source: str
    body: list[str]
    summary: str = ""
    param: str = ""
    param_unit: str = ""
    result_unit: str | None = None
    impassable: bool = False
    signature: str = ""
    minimum: int | None = None
    outcomes: tuple[tuple[str, str], ...] = ()


def _fresh(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name_`` (and so on) if an input of the function already has it."""
    taken = set(taken)
    while name in taken:
        name += "_"
    return name


def _guard(test: str, check: str, operator: str = "or") -> list[str]:
    """Lines that let a valid argument through at the cost of ``test`` alone (no call, no
    exception handling); when it fails, ``check`` finds what is wrong and raises, or lets an
    unusual but valid argument (a Fraction, a float subclass) through. The lines are relative
    to the function's body (indented by 4); ``operator`` joins the test's operands."""
    first = python_layout.condition("if not", test, operator, _BODY)
    return [*_relative(first, _BODY), *(f"    {line}" for line in check.splitlines())]


_BODY = 4
"""The indentation of a function's body in the module."""


def _relative(text: str, indent: int) -> list[str]:
    """The lines of ``text``, laid out at ``indent``, without that indentation."""
    first, *rest = text.split("\n")
    return [first, *(line[indent:] for line in rest)]


def _number_test(name: str, least: int | None) -> str:
    """True for an int or a float that is finite (and at least ``least``), with no call: what
    nearly every caller passes, tested in a few bytecodes. An int is held to the largest
    float on both sides (``10**400`` is refused as ``-10**400`` is)."""
    if least == 0:
        return (
            f"({name}.__class__ is _int and 0 <= {name} <= _MOST)"
            f" or ({name}.__class__ is _float and 0.0 <= {name} < _INF)"
        )
    return (
        f"({name}.__class__ is _int and -_MOST <= {name} <= _MOST)"
        f" or ({name}.__class__ is _float and -_INF < {name} < _INF)"
    )


def _overflow_guard(
    function: str, numbers: list[str], body: list[str], over: bool = False
) -> list[str]:
    """``body`` in ``try``, for a function that computes with its numbers as floats: the
    checks before it let any int through untested (testing its size would cost every call),
    so an int beyond the largest float raises OverflowError here (or InvalidArgument from
    ``Limit.over``, with ``over``), and the handler turns that into InvalidArgument naming the
    function's own argument. At no cost to a call that raises nothing."""
    if not numbers:
        return body
    named = python_layout.Group(
        "{", tuple(python_layout.Entry(py(n), python_layout.Atom(n)) for n in numbers), "}"
    )
    call = python_layout.Call("_too_large", (python_layout.Atom(py(function)), named), True)
    caught = "(_OverflowError, InvalidArgument)" if over else "_OverflowError"
    return [
        "try:",
        *(f"    {line}" for line in body),
        f"except {caught}:  # an int beyond the largest float",
        *(f"    {line}" for line in _relative(python_layout.layout(call, 8, 8), 8)),
        "    raise",
    ]


def _number_check(function: str, name: str, least: int | None) -> str:
    args = [py(function), py(name), name] + ([] if least == 0 else ["None"])
    return _call("_number", args, _BODY + 4)


def step_py(step: plan.Step) -> list[str]:
    """The lines of a step's body: its argument checked, then its terms."""
    x = step.param
    guard = _guard(_number_test(x, step.minimum), _number_check(step.name, x, step.minimum))
    value = _fresh("value", [x])
    stops: list[str] = []
    frees: list[str] = []
    rates: list[str] = []
    floors: list[str] = []
    for t in step.terms:
        match t:
            case plan.Impassable():
                stops += impassable_py(t, x)
            case plan.Free():
                frees += free_py(t, x)
            case plan.PerEvery():
                rates.append(per_every_py(t, x))
            case plan.AtLeast():
                floors += at_least_py(t, x, value)
            case _:
                assert_never(t)
    lines = [*stops, *frees, f"{value}: float = {' + '.join(rates) if rates else '0'}"]
    lines += [*floors, f"return {value}"]
    computes = any(rate != x for rate in rates)  # `rise` alone is no arithmetic
    return guard + _overflow_guard(step.name, [x] if computes else [], lines)


def _reached(x: str, at: float, strict: bool) -> str:
    return f"if {x} {'>' if strict else '>='} {py(at)}:"


def impassable_py(t: plan.Impassable, x: str) -> list[str]:
    return [_reached(x, t.at, t.strict), "    return IMPASSABLE"]


def free_py(t: plan.Free, x: str) -> list[str]:
    return [f"if {x} <= {py(t.at)}:", "    return 0"]


def per_every_py(t: plan.PerEvery, x: str) -> str:
    """The term's share of the answer, as an expression."""
    part = x if t.above is None else f"_max(0, {x} - {py(t.above)})"
    count = f"_whole({part}, {py(t.every)})" if t.full else f"{part} / {py(t.every)}"
    if t.every == 1 and not t.full:
        count = part
    return count if t.amount == 1 else f"{py(t.amount)} * {count}"


def at_least_py(t: plan.AtLeast, x: str, value: str) -> list[str]:
    return [_reached(x, t.at, t.strict), f"    {value} = _max({value}, {py(t.amount)})"]


def expr_py(e: plan.Expr, cells: Sequence[str]) -> str:
    """An expression as Python, with parentheses where the precedence of ``+ - * /`` needs
    them (``_abs``, ``_min``, ``_max`` and ``math.ceil``/``math.floor`` are the module's own
    names); ``cells`` names the module's cell constants."""
    match e:
        case plan.Input(name=name):
            return name
        case plan.Number(value=value):
            return py(tidy(value))
        case plan.CellRead():
            return cell_read_py(e, cells)
        case plan.Binary(op=op, left=left, right=right, rounding=rounding):
            a, b = expr_py(left, cells), expr_py(right, cells)
            if isinstance(left, plan.Binary) and _precedence(left.op) < _precedence(op):
                a = f"({a})"
            if isinstance(right, plan.Binary) and _precedence(right.op) <= _precedence(op):
                b = f"({b})"
            return _rounded(f"{a} {op} {b}", rounding)
        case plan.Call(function=function, args=args, rounding=rounding):
            return _rounded(call_py(function, [expr_py(a, cells) for a in args]), rounding)
        case plan.StepCall(step=step, arg=arg, rounding=rounding):
            return _rounded(f"{step}({expr_py(arg, cells)})", rounding)
        case plan.DecisionCall(decision=name, args=args):
            given = ", ".join(f"{p}={expr_py(a, cells)}" for p, a in args)
            return f"{name}({given})"
        case _:
            assert_never(e)


def _precedence(op: plan.ArithOp) -> int:
    match op:
        case "+" | "-":
            return 1
        case "*" | "/":
            return 2
        case _:
            assert_never(op)


def call_py(function: plan.ArithFunction, args: list[str]) -> str:
    match function:
        case "abs":
            return f"_abs({args[0]})"
        case "half":
            return f"({args[0]}) / 2" if " " in args[0] else f"{args[0]} / 2"
        case "min":
            return f"_min({', '.join(args)})"
        case "max":
            return f"_max({', '.join(args)})"
        case _:
            assert_never(function)


def _rounded(text: str, rounding: plan.Rounding | None) -> str:
    match rounding:
        case None:
            return text
        case "up":
            return f"math.ceil({text})"
        case "down":
            return f"math.floor({text})"
        case _:
            assert_never(rounding)


def cell_read_py(r: plan.CellRead, cells: Sequence[str]) -> str:
    name = cells[r.cells]
    if r.over is None:
        return f"{name}[{r.input}]"
    full = ", full=True" if r.full else ""
    return f"{name}[{r.input}].over({r.over}{full})"


def condition_py(c: plan.Test, cells: Sequence[str]) -> str:
    match c:
        case plan.Truth(of=of, holds=holds):
            text = expr_py(of, cells)
            return text if holds else f"not {text}"
        case plan.Compare(left=left, op=op, right=right):
            return f"{expr_py(left, cells)} {compare_py(op)} {expr_py(right, cells)}"
        case _:
            assert_never(c)


def compare_py(op: plan.CompareOp) -> str:
    match op:
        case "=":
            return "=="
        case "!=" | "<" | "<=" | ">" | ">=":
            return op
        case _:
            assert_never(op)


# ---- table cells used by decisions --------------------------------------------------------


@dataclass(frozen=True)
class CellBounds:
    """A module constant: per key of a decision input, what a table cell allows."""

    name: str
    doc: str
    key_type: str
    value_type: str
    entries: dict[Any, Any]


def cell_names(cells: Iterable[plan.Cells]) -> list[str]:
    """The module constant of each line of cells: ``_TABLE_LINE`` (numbered when taken)."""
    used: set[str] = set()
    return [
        _unique((f"_{c.table}_{c.line}" if c.line else f"_{c.table}").upper(), used) for c in cells
    ]


def _unique(base: str, used: set[str]) -> str:
    """``base``, or ``base_2`` (and so on) if a constant already has it; then taken."""
    name, n = base, 1
    while name in used:
        n += 1
        name = f"{base}_{n}"
    used.add(name)
    return name


def cells_py(c: plan.Cells, name: str) -> CellBounds:
    """The constant holding a line of cells as decisions read it."""
    where = (
        f"Table {c.table!r}, per row"
        if c.line is None
        else f"{_line_word(c.axis).title()} {c.line!r} of table {c.table!r}, per {c.axis}"
    )
    meaning, value_type = _reading_doc(c.reading)
    entries = {(tidy(k) if isinstance(k, float) else k): entry_py(v) for k, v in c.entries}
    return CellBounds(
        name, f"{where}: {meaning}.", "float" if c.numeric else "str", value_type, entries
    )


def entry_py(entry: plan.Entry) -> Any:
    """A cell as the module holds it: a bool, a number, or a Limit."""
    match entry:
        case bool():
            return entry
        case float() | int():
            return Code("math.inf") if entry == math.inf else tidy(entry)
        case plan.Limit(value=value, per=None):
            return Code(f"Limit({py(entry_py(value))})")
        case plan.Limit(value=value, per=per):
            return Code(f"Limit({py(tidy(value))}, per={py(per)})")
        case _:
            assert_never(entry)


def _line_word(axis: plan.Axis) -> str:
    """What the fixed line of a cell reference is when its input names a ``column`` or a
    ``row``: the other one."""
    match axis:
        case "column":
            return "row"
        case "row":
            return "column"
        case _:
            assert_never(axis)


def _reading_doc(reading: plan.Reading) -> tuple[str, str]:
    """What a cell constant read this way holds, and its Python type."""
    match reading:
        case "yes_no":
            return "yes or no", "bool"
        case "number":
            return "the bound (math.inf: no limit)", "float"
        case "rate":
            return "the bound (Limit.over scales a rate)", "Limit"
        case _:
            assert_never(reading)


def outcome_names(decisions: Iterable[plan.Decision], taken: Iterable[str]) -> dict[str, list[str]]:
    """Per decision, the name of the module constant holding each of its outcomes (in
    order), so that a decision returns a record made once at import."""
    used = set(taken)
    return {
        d.name: []
        if d.gives_number
        else [_unique(f"_{d.name}_{o.id}".upper(), used) for o in d.outcomes]
        for d in decisions
    }


def outcome_py(o: plan.Outcome, indent: int = _BODY, column: int | None = None) -> str:
    """``Outcome(id, label[, value])`` laid out at ``indent`` (starting at ``column``)."""
    value = literal_py(o.value)
    args = (o.id, o.label) if value is None else (o.id, o.label, value)
    node = python_layout.call("Outcome", *args, exploded=True)
    laid = python_layout.layout(node, indent, indent if column is None else column)
    return "\n".join(_relative(laid, indent))


def _call(function: str, args: list[str], indent: int, column: int | None = None) -> str:
    """A call laid out at ``indent`` (starting at ``column``), its arguments already source;
    the lines after the first relative to ``indent``."""
    node = python_layout.Call(function, tuple(map(python_layout.Atom, args)), exploded=True)
    laid = python_layout.layout(node, indent, indent if column is None else column)
    return "\n".join(_relative(laid, indent))


def param_py(function: str, p: plan.Param) -> list[str]:
    """The lines that check one argument of a decision."""
    match p:
        case plan.KeyParam(name=name, table=table, axis=axis, numeric=numeric):
            keys = f"TABLES[{py(table)}].{axis}s"
            test = (
                f"({name}.__class__ is _int or {name}.__class__ is _float)"
                if numeric
                else f"{name}.__class__ is _str"
            )
            key_args = [py(function), py(name), name, keys, py(f"{axis} of {table!r}")]
            return _guard(f"{test} and {name} in {keys}", _call("_key", key_args, _BODY + 4), "and")
        case plan.FlagParam(name=name):
            return _guard(
                f"{name} is True or {name} is False",
                _call("_flag", [py(function), py(name), name], _BODY + 4),
            )
        case plan.NumberParam(name=name, minimum=least):
            return _guard(_number_test(name, least), _number_check(function, name, least))
        case plan.ModifierParam(name=name, modifier=modifier, total=total):
            args = [py(function), py(name), py(modifier), name]
            return [f"{total} = {_call('_modifier_total', args, _BODY, _BODY + len(total) + 3)}"]
        case _:
            assert_never(p)


def decision_py(d: plan.Decision, cells: Sequence[str], outcomes: Sequence[str]) -> list[str]:
    """The lines of a decision: its arguments checked, then its rows in order, each returning
    the constant of its outcome (``outcomes``, in the order of ``d.outcomes``), or the number
    it gives (issue 40)."""
    lines = [line for p in d.params for line in param_py(d.name, p)]
    numbers = [p.name for p in d.params if isinstance(p, plan.NumberParam)]
    by_id = dict(zip((o.id for o in d.outcomes), outcomes, strict=False))
    rows: list[str] = []
    for row in d.rows:
        answer = by_id[row.outcome] if row.answer is None else expr_py(row.answer, cells)
        ret = f"return {answer}"
        if row.conditions:
            test = " and ".join(condition_py(c, cells) for c in row.conditions)
            first = f"if {test}:"
            if _BODY + len(first) > python_layout.WIDTH:
                first = python_layout.condition("if", test, "and", _BODY)
            rows += [*_relative(first, _BODY), f"    {ret}"]
        else:
            rows.append(ret)
    exprs = [e for row in d.rows for c in row.conditions for e in _operands(c)]
    exprs += [row.answer for row in d.rows if row.answer is not None]
    computes = any(_computes(e) for e in exprs)
    over = any(isinstance(e, plan.CellRead) and e.over is not None for e in exprs)
    return lines + _overflow_guard(d.name, numbers if computes else [], rows, over)


def _operands(c: plan.Test) -> tuple[plan.Expr, ...]:
    match c:
        case plan.Compare(left=left, right=right):
            return (left, right)
        case plan.Truth():
            return ()
        case _:
            assert_never(c)


def _computes(e: plan.Expr) -> bool:
    """Whether a side of a comparison does arithmetic on an input (a comparison alone never
    overflows: Python compares an int with a float exactly)."""
    match e:
        case plan.Input() | plan.Number():
            return False
        case plan.CellRead(over=over):
            return over is not None
        case plan.Binary() | plan.Call() | plan.StepCall() | plan.DecisionCall():
            return True
        case _:
            assert_never(e)


def signature_py(d: plan.Decision) -> str:
    """``def name(params) -> Outcome:`` (``-> float`` when it gives a number), each parameter
    typed, with its default if any."""
    returns = "float" if d.gives_number else "Outcome"
    return python_layout.def_line(d.name, [_param_py(p) for p in d.params], returns, exploded=True)


def _param_py(p: plan.Param) -> str:
    """``name: type`` with `` = default`` when the caller may leave the input out (issue 39)."""
    match p:
        case plan.KeyParam(numeric=numeric):
            kind = "float" if numeric else "str"
        case plan.FlagParam():
            kind = "bool"
        case plan.NumberParam():
            kind = "float"
        case plan.ModifierParam():
            kind = "list[str] | tuple[str, ...]"
        case _:
            assert_never(p)
    default = "" if p.default is None else f" = {_default_py(p.default)}"
    return f"{p.name}: {kind}{default}"


def _default_py(value: float | str | bool) -> str:
    match value:
        case bool():
            return str(value)
        case str():
            return py(value, tail=0)
        case float() | int():
            return py(tidy(value), tail=0)
        case _:
            assert_never(value)
