"""The declared public surface of a generated module: every name it exports, listed once.

A module's ``__all__`` is :func:`exports`; docs/module-api.md documents each name of
:data:`PARTS` and README lists :data:`FUNCTIONS` (tests hold both to it). The names a ruleset
declares are types too: :func:`name_types` gives, per kind of name, the ``Literal`` alias a
module declares for type checkers, so that a caller's typo is an error in the caller's code.
"""

from __future__ import annotations

from typing import Any

from rulesdsl import ir
from rulesdsl.codegen.plan.surface import SurfacePlan
from rulesdsl.codegen.python import facing as python_facing
from rulesdsl.codegen.python import moves as python_moves
from rulesdsl.codegen.python import sight as python_sight
from rulesdsl.codegen.python.values import export_order
from rulesdsl.semantics import effects as semantics_effects

NAME_TYPES = ("ModeName", "FeatureName", "ModifierName", "TableName", "DiceTableName")
"""The aliases of declared names: unit types, features (and dice outcomes that feed costs),
modifiers, plain tables and dice tables (results tables among them)."""

MAP_EXPORTS = (
    "GRID_SHAPES",
    "Board",
    "Reach",
    "Route",
    "RouteStep",
    "can_end",
    "must_stop",
    "route_cost",
    "cheapest_route",
    "reachable",
)
"""The names the routes part of the module adds to ``__all__``."""

CORE = (
    "RULESET",
    "ENTRY_COST",
    "MINIMUM_MOVE",
    "MODES",
    "GROUPS",
    "LAYERS",
    "FEATURES",
    "CONTEXTS",
    "MODIFIERS",
    "COMBINE",
    "CLAMP",
    "PRECEDENCE",
    "TABLES",
    "DICE_TABLES",
    "TRIGGERS",
    "EXCLUSIONS",
    "PARAMS",
    "STEPS",
    "DECISIONS",
    "GRID_SIZES",
    "GRID_DIAGONALS",
    "IMPASSABLE",
    "PROHIBITED",
    "BLOCKED",
    "GIVEN",
    "Ancestor",
    "Ruleset",
    "Mode",
    "Layer",
    "Feature",
    "Table",
    "DiceTable",
    "DiceRow",
    "Trigger",
    "Marker",
    "Outcome",
    "Quantity",
    "Rate",
    "Trade",
    "Span",
    "Dice",
    "D66",
    "UnknownName",
    "UnfilledParameter",
    "InvalidPlace",
    "ArgumentError",
    "InvalidArgument",
    "ArgumentTypeError",
    "ConflictWarning",
    "Flat",
    "Share",
    "StepCost",
    "PER_MOVE_COSTS",
    "COST_INPUTS",
    *NAME_TYPES,
    "move_cost",
    "can_enter",
    "modifier",
    "roll",
    "lookup",
    "param",
    "path_cost",
    "conflicts",
)
"""What every module defines besides its maps and kinds of move."""

PARTS: dict[str, tuple[str, ...]] = {
    "every module": (*CORE, *MAP_EXPORTS, *python_moves.MOVE_EXPORTS),
    "limits": ("Limit",),
    "sight": python_sight.SIGHT_EXPORTS,
    "results tables": python_sight.RESULTS_EXPORTS,
    "facing": python_facing.FACING_EXPORTS,
}
"""Each part of the surface and its names; a module has the first and those its rules use.
Besides these, a module exports a function per step and decision table, named after it."""

FUNCTIONS = tuple(name for name in PARTS["every module"] if name.islower())
"""The functions every module has (README lists them)."""


def exports(rs: ir.Ruleset, limits: bool) -> list[str]:
    """The names a module of ``rs`` exports (its ``__all__``, unordered)."""
    return [
        *PARTS["every module"],
        *(s.id for s in rs.steps),
        *(d.id for d in rs.decisions),
        *(PARTS["limits"] if limits else ()),
        *(PARTS["sight"] if rs.sights else ()),
        *(PARTS["results tables"] if rs.results_tables else ()),
        *(PARTS["facing"] if rs.facings else ()),
    ]


def name_types(rs: ir.Ruleset) -> dict[str, tuple[str, ...]]:
    """Each alias of :data:`NAME_TYPES` and the names it admits, in declaration order."""
    fed = tuple(sorted(set(semantics_effects.fed_outcomes(rs)) - {f.id for f in rs.features}))
    return {
        "ModeName": tuple(m.id for m in rs.modes),
        "FeatureName": (*(f.id for f in rs.features), *fed),
        "ModifierName": tuple(m.id for m in rs.modifiers),
        "TableName": tuple(t.id for t in rs.tables),
        "DiceTableName": tuple(
            dict.fromkeys([*(t.id for t in rs.dice_tables), *(t.id for t in rs.results_tables)])
        ),
    }


def alias_imports(types: dict[str, tuple[str, ...]]) -> str:
    """What the aliases of ``types`` import from typing (only what they use)."""
    used = {"TypeAlias", *("Literal" if m else "Never" for m in types.values())}
    return ", ".join(sorted(used))


def alias(name: str, members: tuple[str, ...], indent: int = 4) -> str:
    """``name: TypeAlias = Literal[...]`` (``Never`` when there are none), laid out as ruff
    lays it out: on one line, else the members on one line of their own, else one a line."""
    pad = " " * indent
    head = f"{pad}{name}: TypeAlias = "
    if not members:
        return f"{head}Never"
    quoted = [f'"{m}"' for m in members]  # ids: letters, digits and _ only
    line = f"{head}Literal[{', '.join(quoted)}]"
    if len(line) <= 100:
        return line
    inner = f"{pad}    {', '.join(quoted)}"
    if len(inner) <= 100:
        return f"{head}Literal[\n{inner}\n{pad}]"
    rows = "".join(f"{pad}    {q},\n" for q in quoted)
    return f"{head}Literal[\n{rows}{pad}]"


def surface_context(plan: SurfacePlan, limits: bool) -> dict[str, Any]:
    """The template's variables for ``__all__`` and the name types."""
    types = name_types(plan.ruleset)
    return {
        "exports": sorted(exports(plan.ruleset, limits), key=export_order),
        "name_types": [(n, alias(n, m)) for n, m in types.items()],
        "name_type_imports": alias_imports(types),
    }
