"""A worked example that asks ``effect(table, outcome, name, mode)`` (issue 40): the value an
effect of a dice row or a results table's outcome has for a unit type ("Effects by unit type"
in docs/language.md), read through :func:`rulesdsl.semantics.effects.unit_effect` as the
generated module's ``effect()`` answers it. The module has that function only when some
outcome keys an effect by unit type; asking it of other rules is E488.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rulesdsl import ir, spelling
from rulesdsl.examples.statements import Answered, Unanswerable, plain
from rulesdsl.semantics import effects as semantics_effects

Found = tuple[int, ir.ExampleArg]
"""An argument and its index among the question's arguments."""

Name = Callable[[Found, Sequence[str], str], str]
"""How the examples read a name from a pool (:func:`rulesdsl.examples._name`)."""


def answer(rs: ir.Ruleset, found: list[Found], name: Name) -> Answered:
    """``effect(fall, long, damage, infantry) = 4``: the table, the outcome, the effect and the
    unit type, in the module's order; the value the unit type gets, with the cells behind it."""
    if not semantics_effects.uses_unit_effects(rs):
        raise Unanswerable(
            "no effect of the rules is keyed by unit type (`damage & infantry 3`), so the "
            "module has no effect(): ask roll() for the effects everyone gets",
            code="E488",
        )
    if len(found) != 4:
        raise Unanswerable(
            "effect() takes a table, an outcome, an effect and a unit type, in that order",
            found[4][0] if len(found) > 4 else None,
        )
    outcomes = {(t, o): (p, k) for t, o, p, k in semantics_effects.keyed_outcomes(rs)}
    table = name(found[0], sorted({t for t, _ in outcomes}), "dice or results table")
    outcome = name(found[1], [o for t, o in outcomes if t == table], f"outcome of {table}")
    everyone, keyed = outcomes[table, outcome]
    effect = name(found[2], list(everyone), f"name of an effect of {outcome}")
    mode = name(found[3], [m.id for m in rs.modes], "unit type")
    value = semantics_effects.value_for(rs, everyone, keyed, effect, mode)
    entries = [f"{effect} & {k} {spelling.value(v)}" for k, v in keyed.get(effect, {}).items()]
    cell = ", ".join([f"{effect} {spelling.value(everyone[effect])}", *entries])
    unit = value.unit if isinstance(value, ir.Number) else None
    return Answered((plain(value),), unit, (f"{table}.{outcome}: {cell}",), value=value)
