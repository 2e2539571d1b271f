"""A modifier's factor read along a line of sight (issue 40, item 7, rules that feed rules).

``sight line : haze`` inside a modifier: ``modifier()`` takes the line by the factor's name and
asks the sight rule along it, with the places alone. So the rule may need no length of line
(E470: its values are steps of ``crossed``) and no viewer (E471: a cell keyed by unit type or
keyword), and the factor's name may be no other argument of ``modifier()`` (E472).
"""

from __future__ import annotations

from rulesdsl import ir, semantics
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.positions import Positions


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    rules = {r.id: r for r in rs.sights}
    for mod in rs.modifiers:
        for factor in mod.sights:
            rule = rules.get(factor.rule)
            if rule is None:  # not a sight rule: lowering said so
                continue
            at = where.of(factor, mod)
            said = f"factor '{factor.id}' of '{mod.id}' reads the line of sight '{rule.id}'"
            if rule.crossed is not None:
                out.append(
                    error(
                        "E470",
                        f"{said}, whose values are steps of the length crossed: "
                        "modifier() is given the places alone",
                        at,
                        "read a rule without `crossed`, or give the factor's value as a number "
                        "(`given`)",
                    )
                )
            keyed = next((f.id for f in rs.features if _keyed(f, rule.id)), None)
            if keyed is not None:
                out.append(
                    error(
                        "E471",
                        f"{said}, whose value for '{keyed}' depends on the viewer's unit type: "
                        "modifier() asks the line for no viewer",
                        at,
                        f"give '{keyed}' one value in '{rule.id}', or read another rule",
                    )
                )
            taken = _arguments(rs, mod)
            if factor.id in taken:
                out.append(
                    error(
                        "E472",
                        f"factor '{factor.id}' of '{mod.id}' takes its line by its name, which "
                        f"modifier() already takes as {taken[factor.id]}",
                        at,
                        "rename the factor",
                    )
                )
    return out


def _keyed(feature: ir.Feature, rule: str) -> bool:
    """Whether the feature's cell in the sight column has values by unit type or keyword."""
    cell = feature.cells.get(rule)
    return cell is not None and bool(cell.exceptions)


def _arguments(rs: ir.Ruleset, mod: ir.Modifier) -> dict[str, str]:
    """The names modifier() takes for ``mod`` besides its factors' lines, and what they are."""
    taken = {"name": "the modifier's name"}  # a context's name is declared already (E102)
    for step_input in semantics.step_inputs(rs, mod):
        taken[step_input] = "a step's input"
    return taken
