"""The generated module's steps and decisions (the plan's code section): each as a function,
with the table cells and outcomes they read as module constants."""

from __future__ import annotations

from typing import Any, assert_never

from rulesdsl import ir, spelling
from rulesdsl.codegen.plan.code import CodePlan
from rulesdsl.codegen.python import layout as python_layout
from rulesdsl.codegen.python import once_costs
from rulesdsl.codegen.python.code import (
    Function,
    cell_constants,
    decision_body,
    key_type,
    minimum,
    outcome_constants,
    step_body,
)
from rulesdsl.codegen.python.values import Code, py, source_text


def code_context(plan: CodePlan) -> dict[str, Any]:
    """The template's variables for the steps, the decisions and the constants they read."""
    rs = plan.ruleset
    lang = rs.languages[0]

    def label(info: ir.Info, fallback: str) -> str:
        return info.labels.get(lang) or next(iter(info.labels.values()), fallback)

    steps = [
        Function(
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
        Function(
            d.id,
            label(d.info, d.id),
            source_text(rs, d.info),
            decision_body(d, lang, cells, table_ids, outcomes[d.id]),
            signature=_signature(d, table_ids),
            outcomes=tuple(outcomes[d.id].values()),
        )
        for d in rs.decisions
    ]
    return {
        "steps": steps,
        "decisions": decisions,
        "cells": list(cells.values()),
        "limits": any(c.value_type == "Limit" for c in cells.values()),
        "needs_floor": any(
            isinstance(t, ir.RateTerm) and t.full for st in rs.steps for t in st.terms
        ),
        "needs_max": any(isinstance(t, ir.FloorTerm) for st in rs.steps for t in st.terms),
        "needs_math": any(
            isinstance(v, Code) and "math." in v.source
            for c in cells.values()
            for v in c.entries.values()
        ),
        "outcome_labels": once_costs.outcomes(rs),
    }


def _signature(d: ir.Decision, tables: dict[str, ir.Table] | None = None) -> str:
    def kind(p: ir.Param) -> str:
        table = (tables or {}).get(p.key_of or "")
        if table is not None:
            return key_type(p, table)
        return "bool" if p.unit == "bool" else "float"

    def given(p: ir.Param) -> str:
        """`` = default`` when the caller may leave the input out (issue 39)."""
        match p.default:
            case None:
                return ""
            case ir.Number(value=value):
                return f" = {spelling.number(value)}"
            case ir.Flag(value=flag):
                return f" = {flag}"
            case ir.Symbol(name=key):
                return f" = {_key_literal(p, key, (tables or {}).get(p.key_of or ''))}"
            case _:
                assert_never(p.default)

    params = [f"{p.name}: {kind(p)}{given(p)}" for p in d.params]
    return python_layout.def_line(d.id, params, "Outcome", exploded=True)


def _key_literal(p: ir.Param, key: str, table: ir.Table | None) -> str:
    """A key default as the function takes it: the row's number when the key is numeric."""
    if table is not None and key_type(p, table) == "float":
        number = next((r.key_number for r in table.rows if r.key == key), None)
        if number is not None:
            return spelling.number(number)
    return py(key, tail=0)
