"""What the generated module needs for costs paid once per move (issue 11).

A flat cost (``flat 2 in``), a share of the unit's allowance (``share 1/2``, ``share all but
1 in``) and a step's answer (``step climb``) are not per distance: the module keeps them in
``PER_MOVE_COSTS`` by (mode, feature) and ``move_cost`` adds them once, after multiplying the
per-distance costs by the distance. Read only from the IR; the meaning is
:func:`rulesdsl.semantics.move_cost`.
"""

from __future__ import annotations

from typing import Any, assert_never

from rulesdsl import ir
from rulesdsl.codegen.python.layout import quoted


def _number(value: float) -> str:
    return repr(int(value)) if float(value).is_integer() else repr(float(value))


def _resolved(value: ir.Value) -> ir.Value:
    return _resolved(value.resolved) if isinstance(value, ir.Same) else value


def record(rs: ir.Ruleset, value: ir.Value) -> str | None:
    """The module's record for a cost paid once per move, as Python source; None for a cost
    per distance."""
    match _resolved(value):
        case ir.Flat(amount=amount):
            return f"Flat({_number(amount.value)})"
        case ir.Share(numerator=n, denominator=d, but=but):
            return f"Share({n!r}, {d!r}, {_number(but.value if but is not None else 0)})"
        case ir.StepCost(step=name):
            step = next(s for s in rs.steps if s.id == name)
            return f"StepCost({quoted(name)}, {quoted(step.param)})"
        case (
            ir.Number()
            | ir.Rate()
            | ir.ParamRate()
            | ir.Trade()
            | ir.Span()
            | ir.Marker()
            | ir.Symbol()
            | ir.Flag()
            | ir.DiceValue()
            | ir.D66Value()
            | ir.Given()
            | ir.Text()
            | ir.Same()
        ):
            return None
        case unknown:
            assert_never(unknown)


def context(rs: ir.Ruleset) -> dict[str, Any]:
    """The template's variables: ``once_costs`` ((mode, feature) -> record source) and
    ``once_inputs`` (the step inputs that ``move_cost`` takes as keyword arguments)."""
    costs: list[tuple[tuple[str, str], str]] = []
    inputs: dict[str, None] = {}
    for f in rs.features:
        for mode, value in f.costs.items():
            source = record(rs, value)
            if source is not None:
                costs.append(((mode, f.id), source))
            resolved = _resolved(value)
            if isinstance(resolved, ir.StepCost):
                step = next(s for s in rs.steps if s.id == resolved.step)
                inputs[step.param] = None
    return {"once_costs": costs, "once_inputs": tuple(inputs)}
