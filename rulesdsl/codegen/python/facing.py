"""What ``module_facing.py.j2`` needs (issue 24): each facing rule of the plan's movement
section as Python source."""

from __future__ import annotations

from typing import Any

from rulesdsl.codegen.plan import movement as plan_movement
from rulesdsl.codegen.python.layout import Atom

FACING_EXPORTS = ("FACINGS", "FacingRule", "FacingRoute", "FacingStep")
"""The names the facing part of the module adds to ``__all__``."""

ARC_EXPORTS = ("ARCS", "arc", "arc_between")
"""The names the arcs part of the module adds to ``__all__`` (issue 40)."""


_INF = float("inf")


def _number(value: float) -> str:
    return repr(float(value))


def _bound(value: float | None) -> str:
    return "_INF" if value is None else _number(value)


def manoeuvre_py(move: plan_movement.Manoeuvre | None) -> str:
    """A manoeuvre as ``(extra cost, up to speed, once per move)``; None: not allowed."""
    if move is None:
        return "None"
    return f"({_number(move.cost)}, {_bound(move.up_to_speed)}, {move.once})"


def turn_mode_py(mode: plan_movement.TurnMode) -> str:
    """A turn mode by speed as ``(up to speed, places straight)``."""
    return f"({_bound(mode.up_to_speed)}, {mode.places})"


def _wind(f: plan_movement.FacingRule) -> dict[str, float]:
    """The rule's extra costs by the wind (issue 40), ``tack`` and ``wear``, inf: refused."""
    return {k: v for k, v in (("tack", f.tack), ("wear", f.wear)) if v is not None}


def _rows(rows: list[str]) -> str:
    return f"({rows[0]},)" if len(rows) == 1 else f"({', '.join(rows)})"


def facing_rule_py(f: plan_movement.FacingRule, moves: tuple[str, ...]) -> dict[str, Any]:
    """The template's view of a facing rule: its fields as source text, its manoeuvres in
    the order of ``moves`` (the plan's facing moves)."""
    return {
        "mode": f.mode,
        "grid": f.grid,
        "headings": f.headings,
        "turn_cost": _number(f.turn_cost),
        "turn_modes": _rows([turn_mode_py(m) for m in f.turn_modes]),
        "by_move": _rows([f'("{move}", {places})' for move, places in f.turn_modes_by_move])
        if f.turn_modes_by_move
        else "",
        "manoeuvres": [manoeuvre_py(f.manoeuvres.get(move)) for move in moves],
        "exact_speed": f.exact_speed,
        "until_spent": f.until_spent,
        "turn_limit": f.turn_limit,
        "wind": {k: _bound(v if v != float("inf") else None) for k, v in _wind(f).items()},
        "sail": [f'("{a}", {_bound(None if c == _INF else c)})' for a, c in f.sail],
        "speeds": [f'("{a}", {_number(v)})' for a, v in f.speeds],
        "strengths": [f'("{n}", {_bound(None if c == _INF else c)})' for n, c in f.strengths],
        "strength_speeds": [f'("{n}", {_number(v)})' for n, v in f.strength_speeds],
        "turn_costs": _rows([f"({_number(up)}, {_number(c)})" for up, c in f.turn_costs])
        if f.turn_costs
        else "",
    }


def arcs_py(arcs: plan_movement.Arcs) -> tuple[tuple[str, tuple[tuple[Atom, Atom], ...]], ...]:
    """Named arcs as ``((arc, ((start, end), ...)), ...)`` in degrees, for the layout."""
    return tuple(
        (name, tuple((Atom(_number(a)), Atom(_number(b))) for a, b in spans))
        for name, spans in arcs.arcs
    )
