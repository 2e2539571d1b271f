"""The generated module's steps and decisions (the plan's code section): each as a function,
with the table cells and outcomes they read as module constants."""

from __future__ import annotations

from typing import Any

from rulesdsl.codegen.plan.code import CodePlan, ModifierParam
from rulesdsl.codegen.python.code import (
    Function,
    cell_names,
    cells_py,
    decision_py,
    outcome_names,
    outcome_py,
    signature_py,
    step_py,
)


def code_context(plan: CodePlan) -> dict[str, Any]:
    """The template's variables for the steps, the decisions and the constants they read."""
    steps = [
        Function(
            st.name,
            st.label,
            st.source,
            step_py(st),
            st.rule,
            st.param,
            st.param_unit,
            st.result_unit,
            st.impassable,
            minimum=st.minimum,
        )
        for st in plan.steps
    ]
    names = cell_names(plan.cells)
    outcomes = outcome_names(plan.decisions, names)
    decisions = [
        Function(
            d.name,
            d.label,
            d.source,
            decision_py(d, names, outcomes[d.name]),
            signature=signature_py(d),
            outcomes=tuple(
                (name, outcome_py(o, 0, len(f"{name}: Final = ")))
                for o, name in zip(d.outcomes, outcomes[d.name], strict=not d.gives_number)
            ),
        )
        for d in plan.decisions
    ]
    return {
        "steps": steps,
        "decisions": decisions,
        "cells": [cells_py(c, name) for c, name in zip(plan.cells, names, strict=True)],
        "limits": plan.limits,
        "outcome_labels": [((o.id, o.label), dict(o.labels)) for o in plan.outcome_labels],
        "totals": any(isinstance(p, ModifierParam) for d in plan.decisions for p in d.params),
        "decision_answer": (
            "Outcome | float" if any(d.gives_number for d in plan.decisions) else "Outcome"
        ),
    }
