"""The Python backend: one standalone, typed module per ruleset, from the IR alone.

Like Jinja2's own compiler, it writes Python that reads as if written by hand: data as literal
mappings, step and decision tables as small functions. Safety rests on two rules: every string
from a ruleset reaches the module through ``repr`` (the ``py`` filter) or the docstring escaper
(the ``doc`` filter), and every name is an identifier the compiler has already checked.
"""

from __future__ import annotations

import pprint
import subprocess
import textwrap
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, ClassVar, assert_never

import jinja2

from rulesdsl import ir, semantics, spelling, units
from rulesdsl.dice import chance_at_least, chance_between
from rulesdsl.target import once_costs, python_sight

WIDTH = 100
"""The generated modules' line length (ruff's setting for the project)."""


class Code:
    """Python source built here from already-safe parts; emitted as is."""

    def __init__(self, source: str) -> None:
        self.source = source

    def __repr__(self) -> str:
        return self.source

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Code) and other.source == self.source

    def __hash__(self) -> int:
        return hash(self.source)


def _plain(value: Any) -> Any:
    if isinstance(value, float):
        return _tidy(value)
    if isinstance(value, list | tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if value is None or isinstance(value, str | int | Fraction | Code):
        return value
    raise TypeError(f"cannot emit {value!r}")  # pragma: no cover


STRING_PIECE = 60
"""Longest piece of a long string: a longer one is written as adjacent pieces, which the
formatter puts one per line, so no line of a module runs past WIDTH however deep it sits."""


def string_literal(text: str) -> str:
    """``text`` as Python source: repr's escapes, in double quotes as ruff format writes them,
    in pieces of at most STRING_PIECE characters (split after a space where there is one)."""
    pieces: list[str] = []
    while len(text) > STRING_PIECE:
        cut = text.rfind(" ", STRING_PIECE // 2, STRING_PIECE) + 1 or STRING_PIECE
        pieces.append(text[:cut])
        text = text[cut:]
    return " ".join(_quoted(piece) for piece in [*pieces, text])


def _quoted(text: str) -> str:
    literal = repr(text)
    if literal.startswith("'") and '"' not in text:
        literal = '"' + literal[1:-1].replace("\\'", "'") + '"'
    return literal


class _Printer(pprint.PrettyPrinter):
    """pprint, with strings written by :func:`string_literal` (never split by pprint)."""

    _dispatch: ClassVar[dict[Any, Any]] = {
        k: v
        for k, v in pprint.PrettyPrinter._dispatch.items()  # type: ignore[attr-defined]
        if k is not str.__repr__
    }

    def format(
        self, obj: object, context: dict[int, int], maxlevels: int, level: int
    ) -> tuple[str, bool, bool]:
        if isinstance(obj, str):
            return string_literal(obj), True, False
        return super().format(obj, context, maxlevels, level)


def py(value: Any, column: int = 0) -> str:
    """A Python literal for plain data; the module is laid out by the formatter afterwards
    (:func:`formatted`), so ``column`` only keeps pprint's first draft near its final shape."""
    printer = _Printer(width=max(40, WIDTH - column - 1), sort_dicts=False)
    return printer.pformat(_plain(value)).replace("\n", "\n" + " " * column)


def formatted(source: str) -> str:
    """``source`` laid out by ruff's formatter (black's style), at the pinned version the
    package depends on, so the same IR always gives the same bytes and every generated module
    passes `ruff format --check` as the project's own code does."""
    from ruff.__main__ import find_ruff_bin

    done = subprocess.run(
        [find_ruff_bin(), "format", "--isolated", "--line-length", str(WIDTH), "-"],
        input=source,
        capture_output=True,
        encoding="utf-8",  # whatever the locale: a module holds labels in every language
        check=False,
    )
    if done.returncode != 0:  # pragma: no cover - the backend writes valid Python
        raise RuntimeError(f"ruff format refused a generated module: {done.stderr}")
    return done.stdout


def doc(text: str) -> str:
    """Text made safe inside a triple-quoted docstring, on one line."""
    flat = " ".join(str(text).split())
    flat = "".join(ch for ch in flat if ch.isprintable())
    flat = flat.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return flat + " " if flat.endswith('"') else flat


def _tidy(number: float) -> float:
    return int(number) if isinstance(number, float) and number.is_integer() else number


def export_order(name: str) -> tuple[int, str]:
    """isort's order for ``__all__``: CONSTANTS, then Classes, then functions."""
    return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)


def docstring(text: str, indent: int) -> str:
    """Docstring body text wrapped to WIDTH at ``indent`` (the opening quotes count)."""
    return textwrap.fill(
        doc(text),
        width=WIDTH - indent,
        initial_indent="",
        subsequent_indent=" " * indent,
        break_on_hyphens=False,
    )


def runtime(value: ir.Value | None) -> Any:
    """How an IR value looks in the generated module."""
    match value:
        case None:
            return None
        case ir.Number(value=v, unit=None):
            return _tidy(v)
        case ir.Number(value=v, unit=unit):
            return Code(f"Quantity({py(v)}, {py(unit)})")
        case ir.Rate(amount=a, per=p):
            return Code(f"Rate({py(runtime(a))}, {py(runtime(p))})")
        case ir.Trade(gain=g, cost=c):
            return Code(f"Trade({py(runtime(g))}, {py(runtime(c))})")
        case ir.Span(low=lo, high=hi, unit=u):
            return Code(f"Span({py(lo)}, {py(hi)}, {py(u)})")
        case ir.Marker(marker=m):
            return Code(m.upper())
        case ir.Symbol(name=n):
            return n
        case ir.Flag(value=b):
            return b
        case ir.DiceValue(count=c, sides=s, bonus=b):
            return Code(f"Dice({c}, {s}, {b})")
        case ir.D66Value(bonus=b):
            return Code(f"D66({b})")
        case ir.Text(text=t):
            return t
        case ir.Same(resolved=r):
            return runtime(r)
        case ir.ParamRate(param=p):
            return p
        case ir.Given():
            return Code("GIVEN")
        case ir.Flat() | ir.Share() | ir.StepCost():
            raise ValueError(f"a cost paid once per move is not a cell value: {value!r}")
        case _:
            assert_never(value)


def per_distance(value: ir.Value, params: dict[str, float | None]) -> Any:
    """A movement cost per distance unit: a number, a marker, or an unfilled parameter's name."""
    cost = semantics.per_distance(value, params)
    match cost:
        case semantics.Unfilled(param=name):
            return name
        case ir.Marker(marker=m):
            return Code(m.upper())
        case float() | int():
            return _tidy(cost)
        case _:
            assert_never(cost)


def source_text(rs: ir.Ruleset, info: ir.Info) -> str:
    src = info.source
    if src is None:
        return ""
    book = next((b for b in rs.books if b.id == src.book), None)
    title = next(iter(book.info.labels.values()), src.book) if book else src.book
    parts = [title, src.page or "", src.detail or ""]
    return ", ".join(p for p in parts if p)


# ---- steps and decisions as code --------------------------------------------------------------


@dataclass(frozen=True)
class _Function:
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


NONNEGATIVE = frozenset({"length", "angle", "time", "gravity"})
"""Dimensions whose inputs cannot be negative: a distance, an angle turned, a time."""


def minimum(unit: str) -> int | None:
    """The least value an input in ``unit`` may take: 0 for a distance, angle or time, else
    None (a count or a score may be negative)."""
    return 0 if units.dimension(unit) in NONNEGATIVE else None


def _fresh(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name_`` (and so on) if an input of the function already has it."""
    taken = set(taken)
    while name in taken:
        name += "_"
    return name


def _guard(test: str, check: str) -> list[str]:
    """Lines that let a valid argument through at the cost of ``test`` alone (no call, no
    exception handling); when it fails, ``check`` finds what is wrong and raises, or lets an
    unusual but valid argument (a Fraction, a float subclass) through."""
    first = f"if not ({test}):"
    if len(first) + 4 > WIDTH and " or " in test:
        head, _, tail = test.partition(" or ")
        first = f"if not ({head}\n        or {tail}):"
    return [*first.splitlines(), *(f"    {line}" for line in check.splitlines())]


def _number_test(name: str, least: int | None) -> str:
    """True for an int or a float that is finite (and at least ``least``), with no call: what
    nearly every caller passes, tested in a few bytecodes."""
    if least == 0:
        return (
            f"({name}.__class__ is _int and {name} >= 0)"
            f" or ({name}.__class__ is _float and 0.0 <= {name} < _INF)"
        )
    return f"{name}.__class__ is _int or ({name}.__class__ is _float and -_INF < {name} < _INF)"


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
    named = ", ".join(f"{py(n)}: {n}" for n in numbers)
    caught = "(_OverflowError, InvalidArgument)" if over else "_OverflowError"
    return [
        "try:",
        *(f"    {line}" for line in body),
        f"except {caught}:  # an int beyond the largest float",
        f"    {_call('_too_large', [py(function), '{' + named + '}'], 4)}",
        "    raise",
    ]


def _number_check(function: str, name: str, least: int | None) -> str:
    args = [py(function), py(name), name] + ([] if least == 0 else ["None"])
    return _call("_number", args, 4)


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
            return py(_tidy(value))
        case ir.CellOperand(cell=ref):
            return _cell(ref, cells)
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
                (_tidy(lim.key_number) if lim.key_number is not None else lim.key): _bound(
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
            number: Any = _tidy(value)
        case ir.NoLimit():
            number = Code("math.inf")
        case ir.RateBound(value=value, per=per):
            return Code(f"Limit({py(_tidy(value))}, per={py(per)})")
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
            mine[o.id] = (name, _outcome(o, lang, len(f"{name}: Final = ")))
    return out


def _outcome(o: ir.Outcome, lang: str, indent: int = 0) -> str:
    label = o.info.labels.get(lang) or next(iter(o.info.labels.values()), o.id)
    value = per_value(o.value)
    args = [py(o.id), py(label, 4)] + ([] if value is None else [py(value)])
    return _call("Outcome", args, indent)


def _call(function: str, args: list[str], indent: int) -> str:
    """A call on one line if it fits at ``indent``, else one argument a line."""
    one_line = f"{function}({', '.join(args)})"
    if indent + len(one_line) <= WIDTH:
        return one_line
    return f"{function}(\n" + "".join(f"    {a},\n" for a in args) + ")"


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
            by_name = _key_type(p, table) == "str"
            test = (
                f"{p.name}.__class__ is _str"
                if by_name
                else f"({p.name}.__class__ is _int or {p.name}.__class__ is _float)"
            )
            lines += _guard(
                f"{test} and {p.name} in {keys}",
                _call(
                    "_key", [py(d.id), py(p.name), p.name, keys, py(f"{axis} of {table.id!r}")], 4
                ),
            )
        elif p.unit == units.BOOL_UNIT:
            lines += _guard(
                f"{p.name} is True or {p.name} is False",
                _call("_flag", [py(d.id), py(p.name), p.name], 4),
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
            rows += [f"if {test}:", f"    {ret}"]
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
                for op in (left, right)
            )
        case ir.InputTruth() | ir.CellTruth():
            return False
        case _:
            assert_never(c)


def per_value(value: ir.Value | None) -> Any:
    """A modifier's value in the module: a number or a marker."""
    if value is None:
        return None
    if isinstance(value, ir.Marker):
        return Code(value.marker.upper())
    if isinstance(value, ir.Number):
        return _tidy(value.value)
    return runtime(value)


def _policy_entries(m: ir.Modifier) -> dict[str, Any]:
    """A modifier's policy, clamp, second context and combinations of two context values."""
    return {
        "combine": m.combine,
        "clamp": (_tidy(m.clamp.low), _tidy(m.clamp.high)) if m.clamp is not None else None,
        "context2": m.context2,
        "pairs": [
            (item, {(p.first, p.second): per_value(p.value) for p in pairs})
            for item, pairs in m.pairs.items()
        ],
    }


# ---- the whole module -------------------------------------------------------------------------


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("rulesdsl", "templates"),
        autoescape=False,  # Python, not markup: safety comes from `py` and `doc`
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["py"] = py
    env.filters["doc"] = doc
    env.filters["tuple"] = tuple
    env.filters["wrap"] = docstring
    return env


# ---- maps (issue 11): what module_routes.py.j2 needs -----------------------------------------

MAP_EXPORTS = (
    "GRID_SHAPES",
    "Board",
    "Route",
    "RouteStep",
    "can_end",
    "must_stop",
    "route_cost",
    "cheapest_route",
    "reachable",
)
"""The names the routes part of the module adds to ``__all__``."""


def map_context(rs: ir.Ruleset) -> dict[str, Any]:
    """Place states and ``along`` costs by feature, the edge features, the grids' shapes and
    how many cells a diagonal step counts on each square grid with diagonals."""
    edge_layers = {layer.id for layer in rs.layers if semantics.on_edges(layer)}
    return {
        "place_states": [(f.id, dict(f.states)) for f in rs.features if f.states],
        "along": [
            (f.id, {m: _tidy(v) for m, v in f.along.items()}) for f in rs.features if f.along
        ],
        "edge_features": tuple(f.id for f in rs.features if f.layer in edge_layers),
        "grid_shapes": {g.id: g.shape for g in rs.grids},
        "grid_diagonal": {
            g.id: _tidy(sum(g.diagonals) / len(g.diagonals))
            for g in rs.grids
            if semantics.has_diagonals(g)
        },
    }


def render(rs: ir.Ruleset) -> str:
    """The module's source text for one ruleset."""
    lang = rs.languages[0]

    def label(info: ir.Info, fallback: str) -> str:
        return info.labels.get(lang) or next(iter(info.labels.values()), fallback)

    params = semantics.param_values(rs)
    features = []
    unfilled: list[tuple[tuple[str, str], str]] = []
    for f in rs.features:
        costs = {mode: per_distance(v, params) for mode, v in f.costs.items()}
        unfilled += [
            ((mode, f.id), c)
            for mode, c in costs.items()
            if isinstance(c, str) and not isinstance(c, Code)
        ]
        features.append(
            {
                "id": f.id,
                "layer": f.layer,
                "labels": f.info.labels,
                "costs": costs,
                "notes": tuple(f.info.notes),
                "source": source_text(rs, f.info),
            }
        )
    modifiers = [
        {
            "id": m.id,
            "context": m.context,
            "entries": [
                (item, {k: per_value(v) for k, v in vals.items()})
                for item, vals in m.values.items()
            ],
            "combinations": [(tuple(c.members), per_value(c.value)) for c in m.combinations],
            **_policy_entries(m),
        }
        for m in rs.modifiers
    ]
    tables = [
        {
            "id": t.id,
            "labels": t.info.labels,
            "columns": tuple(c.id for c in t.columns),
            "column_labels": {c.id: c.info.labels for c in t.columns if c.info.labels},
            "column_notes": {c.id: tuple(c.info.notes) for c in t.columns if c.info.notes},
            "rows": [
                (
                    _tidy(r.key_number) if r.key_number is not None else r.key,
                    tuple(runtime(c) for c in r.cells),
                )
                for r in t.rows
            ],
        }
        for t in rs.tables
    ]
    dice_tables = [_dice_table(t) for t in rs.dice_tables]
    contexts = [(c.id, tuple(v.id for v in c.values)) for c in rs.contexts]
    triggers = [
        {
            "id": t.id,
            "labels": t.info.labels,
            "table": t.table,
            "check": runtime(t.check) if t.check else None,
            "at_least": t.at_least,
            "check_chance": (
                chance_at_least(semantics.roll_of(t.check), t.at_least or 0)
                if t.check
                else Fraction(1)
            ),
            "modifier": t.modifier,
            "times": t.times,
            "more_modifiers": t.more_modifiers,
        }
        for t in rs.triggers
    ]
    exclusions: dict[str, set[str]] = {}
    for ex in rs.exclusions:
        for other in ex.others:
            exclusions.setdefault(ex.subject, set()).add(other)
            exclusions.setdefault(other, set()).add(ex.subject)
    steps = [
        _Function(
            st.id,
            label(st.info, st.id),
            source_text(rs, st.info),
            step_body(st),
            spelling.step_rule(st),
            st.param,
            st.param_unit,
            st.result_unit,
            any(isinstance(t, ir.ImpassableTerm) for t in st.terms),
            minimum=minimum(st.param_unit),
        )
        for st in rs.steps
    ]
    cells = cell_constants(rs)
    table_ids = {t.id: t for t in rs.tables}
    outcomes = outcome_constants(rs, lang, (c.name for c in cells.values()))
    decisions = [
        _Function(
            d.id,
            label(d.info, d.id),
            source_text(rs, d.info),
            decision_body(d, lang, cells, table_ids, outcomes[d.id]),
            signature=_signature(d, table_ids),
            outcomes=tuple(outcomes[d.id].values()),
        )
        for d in rs.decisions
    ]
    grid = rs.grids[0] if rs.grids else None
    exports = [
        "RULESET",
        "MODES",
        "GROUPS",
        "LAYERS",
        "FEATURES",
        "CONTEXTS",
        "MODIFIERS",
        "COMBINE",
        "CLAMP",
        "PRECEDENCE",
        "TABLES",
        "DICE_TABLES",
        "TRIGGERS",
        "EXCLUSIONS",
        "PARAMS",
        "STEPS",
        "DECISIONS",
        "IMPASSABLE",
        "PROHIBITED",
        "BLOCKED",
        "GIVEN",
        "Marker",
        "Outcome",
        "Quantity",
        "Rate",
        "Trade",
        "Span",
        "Dice",
        "D66",
        "UnknownName",
        "UnfilledParameter",
        "InvalidPlace",
        "ArgumentError",
        "InvalidArgument",
        "ArgumentTypeError",
        "ConflictWarning",
        "Flat",
        "Share",
        "StepCost",
        "PER_MOVE_COSTS",
        "COST_INPUTS",
        "move_cost",
        "can_enter",
        "modifier",
        "roll",
        "lookup",
        "param",
        "path_cost",
        "conflicts",
        *MAP_EXPORTS,
        *(s.id for s in steps),
        *(d.id for d in decisions),
        *(["Limit"] if any(c.value_type == "Limit" for c in cells.values()) else []),
        *(python_sight.SIGHT_EXPORTS if rs.sights else ()),
        *(python_sight.RESULTS_EXPORTS if rs.results_tables else ()),
    ]
    text = (
        _environment()
        .get_template("module.py.j2")
        .render(
            rs=rs,
            lang=lang,
            title=label(rs.info, rs.id),
            exports=sorted(exports, key=export_order),
            intro=_intro(rs),
            distance_unit=rs.units.get("distance", "distance unit"),
            cost_unit=rs.units.get("cost", "movement points"),
            entry_cost=_tidy(_summed(rs).entry_cost),
            minimum_move=rs.minimum_move is not None,
            features=features,
            contexts=contexts,
            modifiers=modifiers,
            precedence=tuple(p.groups for p in rs.precedence),
            tables=tables,
            dice_tables=dice_tables,
            triggers=triggers,
            steps=steps,
            decisions=decisions,
            params=params,
            unfilled=unfilled,
            exclusions=[(k, tuple(sorted(v))) for k, v in sorted(exclusions.items())],
            ignores_others=tuple(f.id for f in rs.features if f.ignores_others),
            whole_map=tuple(
                f.id
                for f in rs.features
                if any(x.id == f.layer and semantics.covers_map(x) for x in rs.layers)
            ),
            one_per_place=tuple(layer.id for layer in rs.layers if semantics.one_per_place(layer)),
            **map_context(rs),
            grid_sizes={n.unit: _tidy(n.value) for n in grid.size if n.unit} if grid else {},
            grid_diagonals=grid.diagonals if grid else (),
            **once_costs.context(rs),
            needs_floor=any(
                isinstance(t, ir.RateTerm) and t.full for st in rs.steps for t in st.terms
            ),
            needs_max=any(isinstance(t, ir.FloorTerm) for st in rs.steps for t in st.terms),
            needs_math=any(
                isinstance(v, Code) and "math." in v.source
                for c in cells.values()
                for v in c.entries.values()
            ),
            cells=list(cells.values()),
            limits=any(c.value_type == "Limit" for c in cells.values()),
            sights=python_sight.sights(rs, runtime, Code),
            results_tables=python_sight.results_tables(rs, runtime),
        )
    )
    return formatted(_LOOKALIKES_WAIVER + text if _has_lookalike_script(text) else text)


_LOOKALIKES_WAIVER = (
    "# Labels in Cyrillic or Greek script: their look-alike letters are meant.\n"
    "# ruff: noqa: RUF001\n"
)
"""Ruff's RUF001 flags letters that look like Latin ones; a Russian label is full of them."""


def _has_lookalike_script(text: str) -> bool:
    if text.isascii():  # most modules: one pass in C
        return False
    return any(
        ch.isalpha() and unicodedata.name(ch, "").startswith(("CYRILLIC", "GREEK"))
        for ch in set(text) - _ASCII
    )


_ASCII = frozenset(map(chr, range(128)))


def _intro(rs: ir.Ruleset) -> str:
    chain = ", ".join(f"``{a.id}`` {a.version}" for a in rs.extends)
    extends = f", extending {chain}" if chain else ""
    return (
        f"Ruleset ``{rs.id}`` version {rs.version} ({rs.digest}){extends}. Generated from "
        f"rulesets/{rs.id}.terrain: edit that file and run ``rulesdsl build`` rather than "
        "this one. It needs nothing but the Python standard library."
    )


def _signature(d: ir.Decision, tables: dict[str, ir.Table] | None = None) -> str:
    def kind(p: ir.Param) -> str:
        table = (tables or {}).get(p.key_of or "")
        if table is not None:
            return _key_type(p, table)
        return "bool" if p.unit == "bool" else "float"

    params = [f"{p.name}: {kind(p)}" for p in d.params]
    one_line = ", ".join(params)
    if len(f"def {d.id}({one_line}) -> Outcome:") <= WIDTH:
        return one_line
    return "\n" + "".join(f"    {p},\n" for p in params)


def _key_type(p: ir.Param, table: ir.Table) -> str:
    """``float`` for an input naming a row of a table keyed by numbers, else ``str``."""
    numeric = _names_row(p) and any(r.key_number is not None for r in table.rows)
    return "float" if numeric else "str"


def _dice_table(t: ir.DiceTable) -> dict[str, Any]:
    dice = semantics.roll_of(t.dice)
    index = semantics.dice_index(t)

    def chance(row: ir.DiceRow, shift: int) -> Fraction:
        low = row.low - shift if row.low is not None else dice.minimum
        high = row.high - shift if row.high is not None else None
        return chance_between(dice, low, high)

    rows = [
        {
            "id": r.id,
            "labels": r.info.labels,
            "low": r.low,
            "high": r.high,
            "effects": {k: runtime(v) for k, v in r.effects.items()},
            "chance": chance(r, 0),
            "chance_with": {m.id: chance(r, m.value) for m in t.modifiers},
        }
        for r in t.rows
    ]
    return {
        "id": t.id,
        "labels": t.info.labels,
        "dice": runtime(t.dice),
        "modifiers": {m.id: m.value for m in t.modifiers},
        "rows": rows,
        "index": index,
    }


def _names_row(p: ir.Param) -> bool:
    """Whether the input names a row of its table (rather than a column, or no key)."""
    match p.axis:
        case "row":
            return True
        case "column" | None:
            return False
        case _:
            assert_never(p.axis)


def _summed(rs: ir.Ruleset) -> ir.Ruleset:
    """``rs``, whose stacking policy the module's ``move_cost`` implements (``sum``: the
    entry cost plus the layers' costs)."""
    match rs.stacking:
        case "sum":
            return rs
        case _:
            assert_never(rs.stacking)
