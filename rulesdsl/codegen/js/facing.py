"""Facing in the JavaScript module (for :mod:`rulesdsl.codegen.js`): each facing rule of the
plan's movement section as the module's ``FacingRule``, and the constants the facing runtime
(``runtime_facing.js``, included only when the ruleset has facing rules) shares with the
plan: the once-per-move bit of each manoeuvre, whether a refused one is costed."""

from __future__ import annotations

from importlib import resources

from rulesdsl.codegen.js.data import dict_js
from rulesdsl.codegen.js.values import number_js, string_js
from rulesdsl.codegen.plan import movement as plan_movement


def _bound(value: float | None) -> str:
    return "Infinity" if value is None else number_js(value)


def manoeuvre_js(move: plan_movement.Manoeuvre | None) -> str:
    """A manoeuvre as ``[extra cost, up to speed, once per move]``; null: not allowed."""
    if move is None:
        return "null"
    once = "true" if move.once else "false"
    return f"Object.freeze([{number_js(move.cost)}, {_bound(move.up_to_speed)}, {once}])"


def facing_rule_js(f: plan_movement.FacingRule, moves: tuple[str, ...]) -> str:
    """A facing rule as the module's record; its manoeuvres named as the plan's facing moves."""
    modes = ", ".join(f"[{_bound(m.up_to_speed)}, {m.places}]" for m in f.turn_modes)
    by_move = ", ".join(f"[{string_js(kind)}, {places}]" for kind, places in f.turn_modes_by_move)
    fields = {
        "grid": string_js(f.grid),
        "headings": str(f.headings),
        "turnCost": number_js(f.turn_cost),
        "turnModes": f"Object.freeze([{modes}])",
        **{move: manoeuvre_js(f.manoeuvres.get(move)) for move in moves},
        "exactSpeed": "true" if f.exact_speed else "false",
        "turnModesByMove": f"Object.freeze([{by_move}])",
        "untilSpent": "true" if f.until_spent else "false",
    }
    return f"new FacingRule({dict_js(fields)})"


def runtime_facing() -> str:
    path = resources.files("rulesdsl.codegen.js").joinpath("runtime_facing.js")
    return path.read_text("utf-8").rstrip("\n")


def facing_js(plan: plan_movement.MovementPlan) -> list[str]:
    """The facing runtime and its data; nothing for a ruleset without facing rules."""
    if not plan.facings:
        return []
    bits = dict_js({move: str(bit) for move, bit in plan.once_bits.items()})
    rules = {f.mode: facing_rule_js(f, plan.facing_moves) for f in plan.facings}
    return [
        "",
        runtime_facing(),
        "",
        f"export const FACINGS = {dict_js(rules)};",
        f"const _ONCE_BITS = {bits};",
        f"const _REFUSED_COSTED = {'true' if plan.refused_costed else 'false'};",
    ]
