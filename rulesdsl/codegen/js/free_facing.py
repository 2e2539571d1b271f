"""Facing off the grid in the JavaScript module (issue 40): the runtime ``freeMove`` reads
(``runtime_free_facing.js``, included only when the ruleset has such rules), the rules as
``FREE_FACINGS`` and their declarations. Reads only the plan."""

from __future__ import annotations

from rulesdsl.codegen.js.checks import runtime_part
from rulesdsl.codegen.js.data import dict_js, fields_js
from rulesdsl.codegen.js.values import number_js, union
from rulesdsl.codegen.plan import movement as plan_movement


def _maybe(value: float | None) -> str:
    return "null" if value is None else number_js(value)


def rule_js(f: plan_movement.FreeFacingRule) -> str:
    fields = {
        "turnCost": number_js(f.turn_cost),
        "turnStep": number_js(f.turn_step),
        "pivot": _maybe(f.pivot),
        "straight": number_js(f.straight),
        "endsAbove": _maybe(f.ends_above),
        "reverseHalf": "true" if f.reverse_half else "false",
    }
    return f"new FreeFacingRule({fields_js(fields)})"


def free_facing_js(plan: plan_movement.MovementPlan) -> list[str]:
    """The runtime and the rules; nothing for a ruleset without facing off the grid."""
    if not plan.free_facings:
        return []
    rules = {f.mode: rule_js(f) for f in plan.free_facings}
    return [
        "",
        runtime_part("runtime_free_facing.js").rstrip("\n"),
        "",
        f"export const FREE_FACINGS = {dict_js(rules)};",
    ]


def free_facing_dts(plan: plan_movement.MovementPlan) -> list[str]:
    """The declarations of the records, FREE_FACINGS and freeMove; nothing without rules."""
    if not plan.free_facings:
        return []
    return [
        "export declare class FreeFacingRule {",
        "  readonly turnCost: number; readonly turnStep: number; readonly pivot: number | null;",
        "  readonly straight: number; readonly endsAbove: number | null;",
        "  readonly reverseHalf: boolean;",
        "}",
        "export declare class FreeMove {",
        "  readonly used: number; readonly left: number; readonly ends: boolean;",
        "  readonly reason: string;",
        "}",
        "export declare class IllegalMove extends Error {",
        '  readonly code: "IllegalMove";',
        "}",
        f"export type FreeFacingModeName = {union(f.mode for f in plan.free_facings)};",
        "export declare const FREE_FACINGS: Readonly<Record<FreeFacingModeName, FreeFacingRule>>;",
        "/** A leg of a free move: a length straight or reversed, a turn or pivot in deg. */",
        'export type FreeLeg = readonly ["straight" | "reverse" | "turn" | "pivot", number];',
        "/** The cost of a free move off the grid, leg by leg. */",
        "export declare function freeMove(",
        "  mode: FreeFacingModeName,",
        "  legs: readonly FreeLeg[],",
        "  allowance?: number | null,",
        "): FreeMove;",
    ]
