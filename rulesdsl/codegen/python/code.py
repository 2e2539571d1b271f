"""Steps and decisions as Python functions: their bodies, guards and the table cells they read
(for :mod:`rulesdsl.codegen.python`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, assert_never

from rulesdsl import ir, units
from rulesdsl.codegen.python import layout as python_layout
from rulesdsl.codegen.python.values import Code, _plain, per_value, py, tidy
from rulesdsl.semantics import arith as semantics_arith

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


def minimum(unit: str) -> int | None:
    """The least value an input in ``unit`` may take: 0 for a distance, angle or time, else
    None (a count or a score may be negative)."""
    return units.least(unit)


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


def step_body(step: ir.Step) -> list[str]:
    x = step.param
    least = minimum(step.param_unit)
    guard = _guard(_number_test(x, least), _number_check(step.id, x, least))
    lines: list[str] = []
    value = _fresh("value", [x])
    stops: list[str] = []
    frees: list[str] = []
    rates: list[str] = []
    floors: list[str] = []
    for t in step.terms:
        match t:
            case ir.ImpassableTerm():
                stops += [
                    f"if {x} {'>' if t.strict else '>='} {py(t.at)}:",
                    "    return IMPASSABLE",
                ]
            case ir.FreeTerm():
                frees += [f"if {x} <= {py(t.at)}:", "    return 0"]
            case ir.RateTerm():
                part = x if t.above is None else f"_max(0, {x} - {py(t.above)})"
                count = f"_whole({part}, {py(t.every)})" if t.full else f"{part} / {py(t.every)}"
                if t.every == 1 and not t.full:
                    count = part
                rates.append(count if t.amount == 1 else f"{py(t.amount)} * {count}")
            case ir.FloorTerm():
                floors += [
                    f"if {x} {'>' if t.strict else '>='} {py(t.at)}:",
                    f"    {value} = _max({value}, {py(t.amount)})",
                ]
            case _:
                assert_never(t)
    lines += stops + frees
    lines.append(f"{value}: float = {' + '.join(rates) if rates else '0'}")
    lines += floors
    lines.append(f"return {value}")
    computes = any(rate != x for rate in rates)  # `rise` alone is no arithmetic
    return guard + _overflow_guard(step.id, [x] if computes else [], lines)


def _operand(op: ir.Operand, cells: CellNames) -> str:
    match op:
        case ir.InputOperand(input=name, scale_op=None):
            return name
        case ir.InputOperand(input=name, scale_op=scale_op, scale=scale):
            return f"{name} {scale_op} {py(scale)}"
        case ir.LiteralOperand(value=value):
            return py(tidy(value))
        case ir.CellOperand(cell=ref):
            return _cell(ref, cells)
        case ir.ArithOperand(expr=expr):
            return semantics_arith.python(expr, lambda v: py(tidy(v)))
        case _:
            assert_never(op)


def _cell(ref: ir.CellRef, cells: CellNames) -> str:
    name = cells[cell_key(ref)].name
    if ref.over is None:
        return f"{name}[{ref.input}]"
    full = ", full=True" if ref.full else ""
    return f"{name}[{ref.input}].over({ref.over}{full})"


def _condition(c: ir.Condition, cells: CellNames) -> str:
    match c:
        case ir.InputTruth(input=name, holds=holds):
            return name if holds else f"not {name}"
        case ir.CellTruth(cell=ref, holds=holds):
            return _cell(ref, cells) if holds else f"not {_cell(ref, cells)}"
        case ir.Comparison(left=left, op=op, right=right):
            return f"{_operand(left, cells)} {_python_op(op)} {_operand(right, cells)}"
        case _:
            assert_never(c)


def _python_op(op: ir.CompareOp) -> str:
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


CellNames = dict[tuple[str, str, str], CellBounds]


def cell_key(ref: ir.CellRef) -> tuple[str, str, str]:
    """Cell references that compile to the same constant: table, row or column, reading."""
    line = "" if ref.line is None else f"{_line_word(ref.axis)} {ref.line}"
    return (ref.table, line, ref.reading)


def _line_word(axis: ir.Axis) -> str:
    """What the fixed line of a cell reference is when its input names a ``column`` or a
    ``row``: the other one."""
    match axis:
        case "column":
            return "row"
        case "row":
            return "column"
        case _:
            assert_never(axis)


def cell_refs(d: ir.Decision) -> Iterator[ir.CellRef]:
    """The table cells that the conditions of ``d`` read, in order."""
    for row in d.rows:
        for c in row.conditions:
            match c:
                case ir.Comparison(left=left, right=right):
                    yield from (o.cell for o in (left, right) if isinstance(o, ir.CellOperand))
                case ir.CellTruth(cell=ref):
                    yield ref
                case ir.InputTruth():
                    pass
                case _:
                    assert_never(c)


def cell_constants(rs: ir.Ruleset) -> CellNames:
    """One constant per table row (or one-column table) that decisions compare with."""
    out: CellNames = {}
    used: set[str] = set()
    for d in rs.decisions:
        for ref in cell_refs(d):
            if cell_key(ref) in out:
                continue
            base = f"_{ref.table}_{ref.line}" if ref.line else f"_{ref.table}"
            name = base.upper()
            n = 1
            while name in used:
                n += 1
                name = f"{base.upper()}_{n}"
            used.add(name)
            numeric = any(lim.key_number is not None for lim in ref.limits)
            entries = {
                (tidy(lim.key_number) if lim.key_number is not None else lim.key): _bound(
                    lim.bound, ref.reading
                )
                for lim in ref.limits
            }
            where = (
                f"Table {ref.table!r}, per row"
                if ref.line is None
                else f"{_line_word(ref.axis).title()} {ref.line!r} of table {ref.table!r}, "
                f"per {ref.axis}"
            )
            meaning, value_type = _reading_doc(ref.reading)
            out[cell_key(ref)] = CellBounds(
                name,
                f"{where}: {meaning}.",
                "float" if numeric else "str",
                value_type,
                entries,
            )
    return out


def _bound(bound: ir.LimitValue, reading: ir.Reading) -> Any:
    """A cell's bound as the module holds it: a bool, a number, or (read as a rate) a Limit."""
    match bound:
        case ir.YesNo(value=value):
            return value
        case ir.Bound(value=value):
            number: Any = tidy(value)
        case ir.NoLimit():
            number = Code("math.inf")
        case ir.RateBound(value=value, per=per):
            return Code(f"Limit({py(tidy(value))}, per={py(per)})")
        case _:
            assert_never(bound)
    match reading:
        case "rate":
            return Code(f"Limit({py(number)})")
        case "number" | "yes_no":
            return number
        case _:
            assert_never(reading)


def _reading_doc(reading: ir.Reading) -> tuple[str, str]:
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


def outcome_constants(
    rs: ir.Ruleset, lang: str, taken: Iterable[str] = ()
) -> dict[str, dict[str, tuple[str, str]]]:
    """Per decision, per outcome: the name and the value of a module constant holding its
    Outcome, so that a decision returns a record made once at import."""
    used = set(taken)
    out: dict[str, dict[str, tuple[str, str]]] = {}
    for d in rs.decisions:
        mine = out.setdefault(d.id, {})
        for o in d.outcomes:
            base = f"_{d.id}_{o.id}".upper()
            name, n = base, 1
            while name in used:
                n += 1
                name = f"{base}_{n}"
            used.add(name)
            mine[o.id] = (name, _outcome(o, lang, 0, len(f"{name}: Final = ")))
    return out


def _outcome(o: ir.Outcome, lang: str, indent: int = _BODY, column: int | None = None) -> str:
    label = o.info.labels.get(lang) or next(iter(o.info.labels.values()), o.id)
    value = per_value(o.value)
    args = (o.id, label) if value is None else (o.id, label, value)
    node = python_layout.Call(
        "Outcome", tuple(python_layout.tree(_plain(a)) for a in args), exploded=True
    )
    laid = python_layout.layout(node, indent, indent if column is None else column)
    return "\n".join(_relative(laid, indent))


def _call(function: str, args: list[str], indent: int, column: int | None = None) -> str:
    """A call laid out at ``indent`` (starting at ``column``), its arguments already source;
    the lines after the first relative to ``indent``."""
    node = python_layout.Call(function, tuple(map(python_layout.Atom, args)), exploded=True)
    laid = python_layout.layout(node, indent, indent if column is None else column)
    return "\n".join(_relative(laid, indent))


def decision_body(
    d: ir.Decision,
    lang: str,
    cells: CellNames | None = None,
    tables: dict[str, ir.Table] | None = None,
    outcomes: dict[str, tuple[str, str]] | None = None,
) -> list[str]:
    """The lines of a decision: its arguments checked, then its rows in order. ``outcomes``
    names the constants to return (else each row builds its Outcome)."""
    by_id = {o.id: o for o in d.outcomes}
    lines: list[str] = []
    numbers: list[str] = []
    for p in d.params:
        table = (tables or {}).get(p.key_of or "")
        if table is not None:
            axis = p.axis or "row"
            keys = f"TABLES[{py(table.id)}].{axis}s"
            by_name = key_type(p, table) == "str"
            test = (
                f"{p.name}.__class__ is _str"
                if by_name
                else f"({p.name}.__class__ is _int or {p.name}.__class__ is _float)"
            )
            key_args = [py(d.id), py(p.name), p.name, keys, py(f"{axis} of {table.id!r}")]
            lines += _guard(
                f"{test} and {p.name} in {keys}", _call("_key", key_args, _BODY + 4), "and"
            )
        elif p.unit == units.BOOL_UNIT:
            lines += _guard(
                f"{p.name} is True or {p.name} is False",
                _call("_flag", [py(d.id), py(p.name), p.name], _BODY + 4),
            )
        else:
            least = minimum(p.unit)
            lines += _guard(_number_test(p.name, least), _number_check(d.id, p.name, least))
            numbers.append(p.name)
    rows: list[str] = []
    for row in d.rows:
        o = by_id[row.outcome]
        ret = f"return {outcomes[o.id][0] if outcomes else _outcome(o, lang)}"
        if row.conditions:
            test = " and ".join(_condition(c, cells or {}) for c in row.conditions)
            first = f"if {test}:"
            if _BODY + len(first) > python_layout.WIDTH:
                first = python_layout.condition("if", test, "and", _BODY)
            rows += [*_relative(first, _BODY), f"    {ret}"]
        else:
            rows.append(ret)
    computes = any(_computes(c) for row in d.rows for c in row.conditions)
    over = any(
        isinstance(op, ir.CellOperand) and op.cell.over is not None
        for row in d.rows
        for c in row.conditions
        if isinstance(c, ir.Comparison)
        for op in (c.left, c.right)
    )
    return lines + _overflow_guard(d.id, numbers if computes else [], rows, over)


def _computes(c: ir.Condition) -> bool:
    """Whether a condition does arithmetic on an input (a comparison alone never overflows:
    Python compares an int with a float exactly)."""
    match c:
        case ir.Comparison(left=left, right=right):
            return any(
                (isinstance(op, ir.InputOperand) and op.scale_op is not None)
                or (isinstance(op, ir.CellOperand) and op.cell.over is not None)
                or isinstance(op, ir.ArithOperand)
                for op in (left, right)
            )
        case ir.InputTruth() | ir.CellTruth():
            return False
        case _:
            assert_never(c)


def key_type(p: ir.Param, table: ir.Table) -> str:
    """``float`` for an input naming a row of a table keyed by numbers, else ``str``."""
    numeric = names_row(p) and any(r.key_number is not None for r in table.rows)
    return "float" if numeric else "str"


def names_row(p: ir.Param) -> bool:
    """Whether the input names a row of its table (rather than a column, or no key)."""
    match p.axis:
        case "row":
            return True
        case "column" | None:
            return False
        case _:
            assert_never(p.axis)
