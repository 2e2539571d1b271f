"""Lower a decision input's default (`level_flown m = 0`, `hover bool = no`, `class flight =
average`): a number in the input's own unit and within what the input may take, yes or no for
a yes/no input, a key of the table for a key input (issue 39). The caller may then leave the
input out; an input with a default comes after every input without one, as in a Python call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

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
    word: str | None = None
    number: ir.Number | None = None
    match value:
        case s.Word():
            word = value.name.text
        case ir.Number():
            number = value
        case s.SameAs() | ir.Marker() | ir.Same() | ir.PerDistance() | ir.OnceCost() | ir.NonCost():
            pass  # neither a word nor a number: said below
        case _:
            assert_never(value)
    if table is not None:
        keys = {r.key: r.key for r in table.rows} | {c.id: c.id for c in table.columns}
        keys |= {
            spelling.number(r.key_number): r.key for r in table.rows if r.key_number is not None
        }
        given = word if number is None else spelling.number(number.value)
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
    if number is None:
        err("E201", f"the default of '{name}' is not a number", pos, f"expected a number in {unit}")
        return None
    if number.unit is not None and number.unit != unit:
        err(
            "E203",
            f"the default of '{name}' is in {number.unit}",
            pos,
            f"write it in {unit}, the input's unit",
        )
        return None
    least = None if p.signed else units.least(unit)
    if least is not None and number.value < least:
        err(
            "E214",
            f"the default of '{name}' is {number.value:g}, below the least a {unit} input takes",
            pos,
            f"a distance, angle or time input is at least {least}, unless it is `signed` "
            f"(`{name} signed {unit}`)",
        )
        return None
    return ir.Number(number.value, unit)


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
