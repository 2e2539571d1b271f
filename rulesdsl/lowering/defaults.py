"""Lower a decision input's default (`level_flown m = 0`, `hover bool = no`, `class flight =
average`): a number in the input's own unit and within what the input may take, yes or no for
a yes/no input, a key of the table for a key input (issue 39). The caller may then leave the
input out; an input with a default comes after every input without one, as in a Python call.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import ir, spelling, units
from rulesdsl.diagnostics import did_you_mean
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering.context import FLAGS

Err = Callable[..., None]
Default = ir.Number | ir.Flag | ir.Symbol


def default(err: Err, p: s.ParamNode, unit: str, table: ir.Table | None) -> Default | None:
    """The input's default as the IR holds it, or None (none given, or an error said why)."""
    if p.default is None:
        return None
    value, pos, name = p.default.value, p.default.pos, p.name.text
    word = value.name.text if isinstance(value, s.Word) else None
    if table is not None:
        keys = {r.key: r.key for r in table.rows} | {c.id: c.id for c in table.columns}
        keys |= {
            spelling.number(r.key_number): r.key for r in table.rows if r.key_number is not None
        }
        given = word if word is not None else _number_text(value)
        if given is not None and given in keys:
            return ir.Symbol(keys[given])
        err(
            "E214",
            f"the default of '{name}' is not a key of table '{table.id}'",
            pos,
            did_you_mean(given or "", keys) or f"give a row or column of '{table.id}'",
        )
        return None
    if unit == units.BOOL_UNIT:
        if word in FLAGS:
            return ir.Flag(FLAGS[word])
        err(
            "E201",
            f"the default of yes/no input '{name}' is not yes or no",
            pos,
            "expected yes or no",
        )
        return None
    if not isinstance(value, ir.Number):
        err("E201", f"the default of '{name}' is not a number", pos, f"expected a number in {unit}")
        return None
    if value.unit is not None and value.unit != unit:
        err(
            "E203",
            f"the default of '{name}' is in {value.unit}",
            pos,
            f"write it in {unit}, the input's unit",
        )
        return None
    least = units.least(unit)
    if least is not None and value.value < least:
        err(
            "E214",
            f"the default of '{name}' is {value.value:g}, below the least a {unit} input takes",
            pos,
            f"a distance, angle or time input is at least {least}",
        )
        return None
    return ir.Number(value.value, unit)


def check_order(err: Err, params: tuple[s.ParamNode, ...]) -> None:
    """E215 at each input without a default that follows one with a default."""
    first: s.ParamNode | None = None
    for p in params:
        if p.default is not None:
            first = first or p
        elif first is not None:
            err(
                "E215",
                f"input '{p.name.text}' has no default but follows '{first.name.text}'",
                p.name.pos,
                "put the inputs with defaults last, or give this one a default too",
            )


def _number_text(value: object) -> str | None:
    return spelling.number(value.value) if isinstance(value, ir.Number) else None
