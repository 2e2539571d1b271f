"""What the generated module needs for costs paid once per move (issue 11).

A flat cost (``flat 2 in``), a share of the unit's allowance (``share 1/2``, ``share all but
1 in``) and a step's answer (``step climb``) are not per distance: the module keeps them in
``PER_MOVE_COSTS`` by (mode, feature) and ``move_cost`` adds them once, after multiplying the
per-distance costs by the distance. Read from the plan (:mod:`rulesdsl.codegen.plan.values`);
the meaning is :func:`rulesdsl.semantics.move_cost`.
"""

from __future__ import annotations

from rulesdsl.codegen.plan import values as plan_values
from rulesdsl.codegen.python.layout import quoted


def _number(value: float) -> str:
    return repr(int(value)) if float(value).is_integer() else repr(float(value))


def once_py(cost: plan_values.OnceCost) -> str:
    """A cost paid once per move as the module's record (``Flat``, ``Share``, ``StepCost``)."""
    name, args = plan_values.once_record(cost)
    return f"{name}({', '.join(quoted(a) if isinstance(a, str) else _number(a) for a in args)})"
