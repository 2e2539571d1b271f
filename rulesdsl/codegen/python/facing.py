"""What ``module_facing.py.j2`` needs (issue 24): each facing rule as Python source."""

from __future__ import annotations

from typing import Any

from rulesdsl import ir

FACING_EXPORTS = ("FACINGS", "FacingRule", "FacingRoute", "FacingStep")
"""The names the facing part of the module adds to ``__all__``."""


def _number(value: float) -> str:
    return repr(float(value))


def _bound(value: float | None) -> str:
    return "_INF" if value is None else _number(value)


def _move(rule: ir.Facing, kind: ir.FacingMove) -> str:
    move = next((m for m in rule.manoeuvres if m.kind == kind), None)
    if move is None:
        return "None"
    return f"({_number(move.cost)}, {_bound(move.up_to_speed)}, {move.once})"


def _rows(rows: list[str]) -> str:
    return f"({rows[0]},)" if len(rows) == 1 else f"({', '.join(rows)})"


def facings(rs: ir.Ruleset) -> list[dict[str, Any]]:
    """The template's view of each facing rule: its fields as source text."""
    return [
        {
            "mode": f.mode,
            "grid": f.grid,
            "headings": f.headings,
            "turn_cost": _number(f.turn_cost),
            "turn_modes": _rows(
                [f"({_bound(m.up_to_speed)}, {m.places})" for m in f.turn_modes if m.move is None]
            ),
            "by_move": _rows([f'("{m.move}", {m.places})' for m in f.turn_modes if m.move])
            if any(m.move for m in f.turn_modes)
            else "",
            "backward": _move(f, "backward"),
            "sideslip": _move(f, "sideslip"),
            "pivot": _move(f, "pivot"),
            "exact_speed": f.exact_speed,
            "until_spent": f.until_spent,
        }
        for f in rs.facings
    ]
