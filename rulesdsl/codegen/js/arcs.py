"""Named arcs in the JavaScript module (issue 40, for :mod:`rulesdsl.codegen.js`): the arcs
of the plan's movement section as the module's ``ARCS``, the arcs runtime
(``runtime_arcs.js``, included only when the ruleset has arcs) and their declarations."""

from __future__ import annotations

from rulesdsl.codegen.js.checks import runtime_part
from rulesdsl.codegen.js.data import dict_js
from rulesdsl.codegen.js.values import number_js, string_js, union
from rulesdsl.codegen.plan import movement as plan_movement


def arcs_js(plan: plan_movement.MovementPlan) -> list[str]:
    """The arcs runtime and ``ARCS``; nothing for a ruleset without arcs."""
    if not plan.arcs:
        return []
    blocks = {}
    for a in plan.arcs:
        rows = []
        for name, spans in a.arcs:
            pairs = ", ".join(f"[{number_js(lo)}, {number_js(hi)}]" for lo, hi in spans)
            rows.append(f"[{string_js(name)}, [{pairs}]]")
        blocks[a.id] = "[" + ", ".join(rows) + "]"
    return [
        "",
        runtime_part("runtime_arcs.js").rstrip("\n"),
        "",
        "/** Per arcs block, its arcs in the order a bearing tries them, each with its spans in",
        " * degrees: [start, end] clockwise from dead ahead. */",
        f"export const ARCS = {dict_js(blocks)};",
    ]


def arcs_dts(plan: plan_movement.MovementPlan) -> list[str]:
    """The declarations of ``ARCS``, ``arc`` and ``arcBetween``; nothing without arcs."""
    if not plan.arcs:
        return []
    return [
        f"export type ArcsName = {union(a.id for a in plan.arcs)};",
        "type ArcSpans = readonly (readonly [number, number])[];",
        "export declare const ARCS: Readonly<",
        "  Record<ArcsName, readonly (readonly [string, ArcSpans])[]>",
        ">;",
        "/** The arc of ``arcs`` that holds ``bearing`` for a unit facing ``heading``. */",
        "export declare function arc(",
        "  arcs: ArcsName,",
        "  bearing: number,",
        "  options?: { readonly heading?: number },",
        "): string;",
        "/** The arc of ``arcs`` of the unit at ``target`` facing ``heading`` where ``other``",
        " * stands: grid places and a grid heading, or [x, y] and degrees without ``grid``. */",
        "export declare function arcBetween(",
        "  arcs: ArcsName,",
        "  target: readonly [number, number],",
        "  heading: number,",
        "  other: readonly [number, number],",
        "  options?: { readonly grid?: GridName | null },",
        "): string;",
    ]
