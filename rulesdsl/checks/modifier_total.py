"""A decision that reads a modifier's total (issue 40, rules that feed rules).

``decision shot (mods to_hit, skill points)``: the caller gives the items of ``to_hit`` and
the decision reads their total. The decision asks the modifier with nothing but the items, so
the modifier may need no context value, no value the caller gives, no step's input, and may
give no marker in place of a number (E432, at the input).
"""

from __future__ import annotations

from typing import assert_never

from rulesdsl import ir
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.positions import Positions


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    modifiers = {m.id: m for m in rs.modifiers}
    for decision in rs.decisions:
        for p in decision.params:
            mod = modifiers.get(p.total_of or "")
            why = None if mod is None else _unfit(mod)
            if why is None:
                continue
            out.append(
                error(
                    "E432",
                    f"input '{p.name}' of '{decision.id}' reads the total of '{p.total_of}', "
                    f"which {why}: a decision asks it with the items alone",
                    where.of(p, decision),
                    f"give the total as a number (`{p.name} {p.unit}`), worked out by "
                    "modifier() with what it needs",
                )
            )
    return out


def _unfit(mod: ir.Modifier) -> str | None:
    """What the modifier needs besides its items, or gives besides a number (None: nothing)."""
    if mod.context is not None or mod.context2 is not None:
        return f"is keyed by '{mod.context}'"
    if mod.sights:
        return f"has a factor read along a line of sight ('{mod.sights[0].id}')"
    if mod.bands:  # issue 40: `when altitude above 6 | +1` needs the unit's state
        return f"has values in bands of the state '{mod.bands[0].state}'"
    values = [v for by_key in mod.values.values() for v in by_key.values()]
    values += [pair.value for pairs in mod.pairs.values() for pair in pairs]
    values += [c.value for c in mod.combinations]
    for value in values:
        match value:
            case ir.Given():
                return "has a value each model gives (`given`)"
            case ir.StepCost(step=step):
                return f"has a value the step '{step}' works out from an input"
            case ir.Marker(marker=marker):
                return f"may give '{marker}' instead of a number"
            case ir.Number() | ir.Same() | ir.PerDistance() | ir.NonCost() | ir.OnceCost():
                pass  # a number, or what the modifier reads as 0 (as semantics.modifier does)
            case _:
                assert_never(value)
    return None
