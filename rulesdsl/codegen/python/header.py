"""The header of the generated module: what it says of its ruleset (the plan's header section)."""

from __future__ import annotations

from typing import Any

from rulesdsl.codegen.plan.header import HeaderPlan
from rulesdsl.codegen.python.values import tidy


def header_context(plan: HeaderPlan) -> dict[str, Any]:
    """The template's variables for the module's docstring, RULESET, MODES, GROUPS and LAYERS."""
    return {
        "header": plan,
        "lang": plan.languages[0],
        "title": plan.title,
        "books": plan.books,
        "remarks": plan.remarks,
        "intro": _intro(plan),
        "distance_unit": plan.distance_unit,
        "cost_unit": plan.cost_unit,
        "entry_cost": tidy(plan.entry_cost),
        "minimum_move": plan.minimum_move,
    }


def _intro(plan: HeaderPlan) -> str:
    chain = ", ".join(f"``{a.id}`` {a.version}" for a in plan.extends)
    extends = f", extending {chain}" if chain else ""
    return (
        f"Ruleset ``{plan.id}`` version {plan.version} ({plan.digest}){extends}. Generated from "
        f"rulesets/{plan.id}.terrain: edit that file and run ``rulesdsl build`` rather than "
        "this one. It needs nothing but the Python standard library."
    )
