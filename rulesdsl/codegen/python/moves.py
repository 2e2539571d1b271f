"""What the moves part of the generated module (``module_moves.py.j2``) needs: kinds of move
and the rolls the map makes due (issue 24). The meaning is :mod:`rulesdsl.semantics.moves`;
a test asks both the same questions."""

from __future__ import annotations

from typing import Any

from rulesdsl import ir, semantics, spelling
from rulesdsl.codegen.python import layout as python_layout
from rulesdsl.codegen.python.values import _plain, per_distance, tidy

MOVE_EXPORTS = ("MOVES", "ROLLS", "MoveKind", "RollRule", "RollDue", "rolls_due")
"""The names the moves part of the module adds to ``__all__``."""


def _dice_text(rule: ir.RollRule) -> str | None:
    return spelling.dice(rule.dice) if rule.dice is not None else None


def _call(function: str, *args: Any) -> python_layout.Call:
    return python_layout.Call(function, tuple(python_layout.tree(_plain(a)) for a in args))


def context(rs: ir.Ruleset, label: Any) -> dict[str, Any]:
    """Kinds of move and roll rules as the template writes them."""
    params = semantics.param_values(rs)
    moves = {
        k.id: _call(
            "MoveKind",
            k.id,
            label(k.info, k.id),
            tidy(k.factor),
            tidy(k.amount),
            _call("frozenset", tuple(k.barred)),
        )
        for k in rs.moves
    }
    kind_costs = {
        (k.id, fid): {mode: per_distance(v, params) for mode, v in by_mode.items()}
        for k in rs.moves
        for fid, by_mode in k.costs.items()
    }
    kind_barred = {k.id: tuple(k.barred) for k in rs.moves}
    rolls = {
        r.id: _call(
            "RollRule", r.id, label(r.info, r.id), r.when, _dice_text(r), r.table, r.combine
        )
        for r in rs.rolls
    }
    roll_values = {
        r.id: {f: {m: tidy(v) for m, v in by.items()} for f, by in r.values.items() if by}
        for r in rs.rolls
    }
    roll_moves = {
        (r.id, k): {f: {m: tidy(v) for m, v in by_mode.items()} for f, by_mode in by.items()}
        for r in rs.rolls
        for k, by in r.by_move.items()
    }
    return {
        "moves": moves,
        "kind_costs": kind_costs,
        "kind_barred": kind_barred,
        "rolls": rolls,
        "roll_values": roll_values,
        "roll_moves": roll_moves,
    }
