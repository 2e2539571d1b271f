"""Modifier policies and group precedence (issue 11).

- a ``clamp`` whose low bound is above its high bound (E231);
- ``precedence`` lines that list a group twice, order two groups both ways, or (through their
  transitive closure) put a group before itself (E235); so do a layer's or a feature's own
  ``precedence`` (issue 40) of one group, with a group twice, or whose order with the pairs
  of the ruleset's lines it keeps puts a group before itself.
"""

from __future__ import annotations

from rulesdsl import ir, semantics
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.positions import Positions, item_field


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for mod in rs.modifiers:
        if mod.clamp is not None and mod.clamp.low > mod.clamp.high:
            out.append(
                error(
                    "E231",
                    f"the clamp's low bound {mod.clamp.low:g} is above its high bound "
                    f"{mod.clamp.high:g}",
                    where.of(mod.clamp, mod),
                    "write the lower bound first: `clamp -1 to +1`",
                )
            )
        _step_inputs(rs, mod, where, out)
    _precedence(rs.precedence, where, out)
    _place_precedence(rs, where, out)
    return out


def _step_inputs(rs: ir.Ruleset, mod: ir.Modifier, where: Positions, out: list[Diagnostic]) -> None:
    """E264: a value of ``mod`` is a step whose input is named like one of ``modifier()``'s own
    arguments, a context of ``mod`` or an item of it: the caller could not give it by name."""
    taken = {"name", "items", *(c for c in (mod.context, mod.context2) if c), *mod.values}
    for argument, users in semantics.step_inputs(rs, mod).items():
        if argument in taken:
            out.append(
                error(
                    "E264",
                    f"the {mod.id} value of '{users[0]}' is a step whose input '{argument}' is "
                    f"named like an argument, a context or an item of the modifier '{mod.id}'",
                    where.of(mod),
                    "rename the step's input: modifier() takes it by that name",
                )
            )


def _precedence(lines: tuple[ir.Precedence, ...], where: Positions, out: list[Diagnostic]) -> None:
    seen: set[tuple[str, str]] = set()
    for line in lines:
        groups = line.groups
        for i, name in enumerate(groups):
            if name in groups[:i]:
                out.append(
                    error(
                        "E235",
                        f"'{name}' is listed twice in a precedence",
                        where.of_field(line, item_field("groups", i), line),
                    )
                )
        for i, a in enumerate(groups):
            for b in groups[i + 1 :]:
                if (b, a) in seen and a != b:
                    out.append(
                        error(
                            "E235",
                            f"the precedence of '{a}' over '{b}' contradicts an earlier one",
                            where.of_field(line, item_field("groups", i), line),
                            "keep one order between two groups",
                        )
                    )
                seen.add((a, b))
    order = semantics.precedes([line.groups for line in lines])
    for line in lines:
        for i, name in enumerate(line.groups):
            if (name, name) in order:
                out.append(
                    error(
                        "E235",
                        f"the precedence lines put '{name}' before itself",
                        where.of_field(line, item_field("groups", i), line),
                        "keep one order between two groups",
                    )
                )
                return


def _place_precedence(rs: ir.Ruleset, where: Positions, out: list[Diagnostic]) -> None:
    """E235 on a layer's or a feature's own ``precedence`` line (issue 40)."""
    lines = [p.groups for p in rs.precedence]
    layers = {x.id: semantics.local_order(x.precedence, lines) for x in rs.layers}
    nodes: list[ir.Layer | ir.Feature] = [*rs.layers, *rs.features]
    for node in nodes:
        line = node.precedence
        if not line:
            continue
        at = where.of_field(node, item_field("precedence", 0), node)
        if len(line) == 1:
            out.append(
                error(
                    "E235",
                    f"the precedence of '{node.id}' names one keyword: it orders nothing",
                    at,
                    f"name the keywords it comes before: `precedence {line[0]}, <keyword>`",
                )
            )
        twice = next((i for i, g in enumerate(line) if g in line[:i]), None)
        if twice is not None:
            out.append(
                error(
                    "E235",
                    f"'{line[twice]}' is listed twice in the precedence of '{node.id}'",
                    where.of_field(node, item_field("precedence", twice), node),
                )
            )
            continue
        outer = layers[node.layer] if isinstance(node, ir.Feature) else lines
        if isinstance(node, ir.Feature) and _loops(outer):
            continue  # its layer's line is reported
        if _loops(semantics.local_order(line, outer)):
            out.append(
                error(
                    "E235",
                    f"the precedence of '{node.id}' with the ruleset's `precedence` lines puts "
                    "a group before itself",
                    at,
                    f"name every keyword of the chain on the line of '{node.id}', in the order "
                    "that holds there",
                )
            )


def _loops(order: list[tuple[str, ...]]) -> bool:
    pairs = semantics.precedes(order)
    return any((b, a) in pairs for a, b in pairs)
