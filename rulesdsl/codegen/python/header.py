"""The header of the generated module: what it says of its ruleset (the plan's header section)."""

from __future__ import annotations

from typing import Any, assert_never

from rulesdsl import ir
from rulesdsl.codegen.plan.header import HeaderPlan
from rulesdsl.codegen.python.values import book_title, tidy


def header_context(plan: HeaderPlan) -> dict[str, Any]:
    """The template's variables for the module's docstring, RULESET, MODES, GROUPS, LAYERS and
    PARAMS."""
    rs = plan.ruleset
    lang = rs.languages[0]
    return {
        "rs": rs,
        "lang": lang,
        "title": rs.info.labels.get(lang) or next(iter(rs.info.labels.values()), rs.id),
        "books": [(b.id, book_title(b)) for b in rs.books],
        "remarks": [
            (item, remark)
            for item, info in (("ruleset", rs.info), *ir.infos_by_id(rs).items())
            for remark in info.remarks
        ],
        "intro": _intro(rs),
        "distance_unit": rs.units.get("distance", "distance unit"),
        "cost_unit": rs.units.get("cost", "movement points"),
        "entry_cost": tidy(_summed(rs).entry_cost),
        "minimum_move": rs.minimum_move is not None,
    }


def _intro(rs: ir.Ruleset) -> str:
    chain = ", ".join(f"``{a.id}`` {a.version}" for a in rs.extends)
    extends = f", extending {chain}" if chain else ""
    return (
        f"Ruleset ``{rs.id}`` version {rs.version} ({rs.digest}){extends}. Generated from "
        f"rulesets/{rs.id}.terrain: edit that file and run ``rulesdsl build`` rather than "
        "this one. It needs nothing but the Python standard library."
    )


def _summed(rs: ir.Ruleset) -> ir.Ruleset:
    """``rs``, whose stacking policy the module's ``move_cost`` implements (``sum``: the
    entry cost plus the layers' costs)."""
    match rs.stacking:
        case "sum":
            return rs
        case _:
            assert_never(rs.stacking)
