"""Facing off the grid in the JavaScript module (issue 40): the runtime ``freeMove`` reads
(``runtime_free_facing.js``, included only when the ruleset has such rules), the rules as
``FREE_FACINGS`` and their declarations. Reads only the plan."""

from __future__ import annotations

from rulesdsl.codegen.js.checks import runtime_part
from rulesdsl.codegen.js.data import dict_js, fields_js
from rulesdsl.codegen.js.routes import BONUS, marked
from rulesdsl.codegen.js.values import number_js, union
from rulesdsl.codegen.plan import movement as plan_movement

WHOLE = (" // [free whole]", " // [free not whole]")
"""The runtime's lines for rules with ``whole move`` lines (a leg may name features) or without."""
RULES = (" // [free rules]", " // [free no rules]")
"""Its lines for whole-move limits and ``crosses`` rules (counted, FreeMove.marks) or none."""


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
    bonuses = any(w.bonus is not None for w in plan.whole_moves)
    counted = any(w.bonus is None for w in plan.whole_moves)
    runtime = marked(runtime_part("runtime_free_facing.js"), counted, *RULES)
    runtime = marked(marked(runtime, bool(plan.whole_moves), *WHOLE), bonuses, *BONUS)
    return [
        "",
        runtime.rstrip("\n"),
        "",
        f"export const FREE_FACINGS = {dict_js(rules)};",
    ]


def free_facing_dts(plan: plan_movement.MovementPlan) -> list[str]:
    """The declarations of the records, FREE_FACINGS and freeMove; nothing without rules."""
    if not plan.free_facings:
        return []
    counted = any(w.bonus is None for w in plan.whole_moves)
    kinds = '"straight" | "reverse" | "turn" | "pivot"'
    named = f" | readonly [{kinds}, number, readonly FeatureName[]]" if plan.whole_moves else ""
    return [
        "export declare class FreeFacingRule {",
        "  readonly turnCost: number; readonly turnStep: number; readonly pivot: number | null;",
        "  readonly straight: number; readonly endsAbove: number | null;",
        "  readonly reverseHalf: boolean;",
        "}",
        "export declare class FreeMove {",
        "  readonly used: number; readonly left: number; readonly ends: boolean;",
        "  readonly reason: string;",
        *(["  readonly marks: readonly string[];"] if counted else []),
        "}",
        "export declare class IllegalMove extends Error {",
        '  readonly code: "IllegalMove";',
        "}",
        f"export type FreeFacingModeName = {union(f.mode for f in plan.free_facings)};",
        "export declare const FREE_FACINGS: Readonly<Record<FreeFacingModeName, FreeFacingRule>>;",
        "/** A leg of a free move: a length straight or reversed, a turn or pivot in deg. */",
        f"export type FreeLeg = readonly [{kinds}, number]{named};",
        "/** The cost of a free move off the grid, leg by leg. */",
        "export declare function freeMove(",
        "  mode: FreeFacingModeName,",
        "  legs: readonly FreeLeg[],",
        "  allowance?: number | null,",
        "): FreeMove;",
    ]
