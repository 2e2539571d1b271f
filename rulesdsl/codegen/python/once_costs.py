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
from rulesdsl.codegen.plan import values as plan_values
from rulesdsl.codegen.python.layout import quoted


def _number(value: float) -> str:
    return repr(int(value)) if float(value).is_integer() else repr(float(value))


def record(rs: ir.Ruleset, value: ir.Value) -> str | None:
    """The module's record for a cost paid once per move, as Python source; None for a cost
    per distance."""
    cost = plan_values.once_cost(rs, value)
    return once_py(cost) if cost is not None else None


def once_py(cost: plan_values.OnceCost) -> str:
    """A cost paid once per move as the module's record (``Flat``, ``Share``, ``StepCost``)."""
    match cost:
        case plan_values.Flat(amount=amount):
            return f"Flat({_number(amount)})"
        case plan_values.Share(numerator=n, denominator=d, but=but):
            return f"Share({n!r}, {d!r}, {_number(but)})"
        case plan_values.StepCost(step=name, param=param):
            return f"StepCost({quoted(name)}, {quoted(param)})"
        case _:
            assert_never(cost)


def context(rs: ir.Ruleset) -> dict[str, Any]:
    """The template's variables: ``once_costs`` ((mode, feature) -> record source) and
    ``once_inputs`` (the step inputs that ``move_cost`` takes as keyword arguments)."""
    costs: list[tuple[tuple[str, str], str]] = []
    inputs: dict[str, None] = {}
    for f in rs.features:
        for mode, value in f.costs.items():
            cost = plan_values.once_cost(rs, value)
            if cost is not None:
                costs.append(((mode, f.id), once_py(cost)))
            if isinstance(cost, plan_values.StepCost):
                inputs[cost.param] = None
    return {"once_costs": costs, "once_inputs": tuple(inputs), "outcome_labels": outcomes(rs)}


def outcomes(rs: ir.Ruleset) -> list[tuple[tuple[str, str], dict[str, str]]]:
    """Each decision outcome's labels in every language, keyed as ``Outcome.labels`` looks
    them up: by id and label in the first language (item 11 of issue 11)."""
    lang = rs.languages[0]
    out: dict[tuple[str, str], dict[str, str]] = {}
    for d in rs.decisions:
        for o in d.outcomes:
            if o.info.labels:
                label = o.info.labels.get(lang) or next(iter(o.info.labels.values()))
                out.setdefault((o.id, label), dict(o.info.labels))
    return list(out.items())
