"""The declared public surface of a generated module: every name it exports, listed once.

A module's ``__all__`` is :func:`exports`; docs/module-api.md documents each name of
:data:`PARTS` and README lists :data:`FUNCTIONS` (tests hold both to it). The names a ruleset
declares are types too: :func:`name_types` gives, per kind of name, the ``Literal`` alias a
module declares for type checkers, so that a caller's typo is an error in the caller's code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, assert_never, get_args

from rulesdsl.codegen.plan import surface as plan_surface
from rulesdsl.codegen.plan.surface import (
    KnownName,
    Made,
    NameKind,
    Number,
    Part,
    Pool,
    SurfacePlan,
)
from rulesdsl.codegen.python import facing as python_facing
from rulesdsl.codegen.python import free_facing as python_free_facing
from rulesdsl.codegen.python import moves as python_moves
from rulesdsl.codegen.python import sight as python_sight
from rulesdsl.codegen.python.layout import quoted
from rulesdsl.codegen.python.values import export_order


def alias_name(kind: NameKind) -> str:
    """The ``Literal`` alias of a kind of name (one of :data:`NAME_TYPES`)."""
    match kind:
        case "mode":
            return "ModeName"
        case "feature":
            return "FeatureName"
        case "modifier":
            return "ModifierName"
        case "table":
            return "TableName"
        case "dice table":
            return "DiceTableName"
        case _:
            assert_never(kind)


NAME_TYPES = tuple(alias_name(kind) for kind in get_args(NameKind))
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


def part_names(part: Part) -> tuple[str, ...]:
    """The names ``part`` of the surface adds to a module's ``__all__``."""
    match part:
        case "every module":
            return (*CORE, *MAP_EXPORTS, *python_moves.MOVE_EXPORTS)
        case "limits":
            return ("Limit",)
        case "sight":
            return python_sight.SIGHT_EXPORTS
        case "results tables":
            return python_sight.RESULTS_EXPORTS
        case "facing":
            return python_facing.FACING_EXPORTS
        case "arcs":
            return python_facing.ARC_EXPORTS
        case "free facing":
            return python_free_facing.FREE_FACING_EXPORTS
        case "state":
            return ("STATES",)
        case "unit effects":
            return ("effect",)
        case _:
            assert_never(part)


PARTS: dict[Part, tuple[str, ...]] = {part: part_names(part) for part in get_args(Part)}
"""Each part of the surface and its names; a module has the first and those its rules use.
Besides these, a module exports a function per step and decision table, named after it."""

FUNCTIONS = tuple(name for name in PARTS["every module"] if name.islower())
"""The functions every module has (README lists them)."""


def exports(plan: SurfacePlan, limits: bool) -> list[str]:
    """The names a module exports (its ``__all__``, unordered)."""
    parts: tuple[Part, ...] = (*plan.parts, *(("limits",) if limits else ()))
    return [*plan.declared, *(name for part in parts for name in part_names(part))]


def name_types(plan: SurfacePlan) -> dict[str, tuple[str, ...]]:
    """Each alias of :data:`NAME_TYPES` and the names it admits, in declaration order."""
    return {alias_name(t.kind): t.members for t in plan.names}


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


def pool_py(kind: Pool) -> str:
    """The module's collection of the names of ``kind``, as Python source."""
    source = plan_surface.pool_source(kind)
    match source:
        case plan_surface.PoolTable(name=name):
            return name
        case "whole-map condition":
            return "_WHOLE_MAP"
        case "grid":
            return '[*GRID_SHAPES, "hex", "square"]'
        case "step":
            return '["straight", "diagonal", "s", "d"]'
        case "feature or factor":
            return "[*FEATURES, *values]"  # the modifier's own factors, in _modifier
        case _:
            assert_never(source)


def check_py(function: str, argument: str, check: KnownName | Number | Made, value: str) -> str:
    """The statement that makes a check of the plan, of ``value``: ``_name(...)`` for a known
    name, ``_number(...)`` for a number (its minimum left out when it is 0), an ``isinstance``
    test for one of the module's classes. ``function`` is Python source: the function's name
    quoted, or the variable of a helper that checks for several functions."""
    head = f"{function}, {quoted(argument)}, {value}"
    match check:
        case KnownName(kind=kind):
            return f"_name({head}, {pool_py(kind)}, {quoted(kind)})"
        case Number(minimum=None):
            return f"_number({head}, None)"
        case Number(minimum=0):
            return f"_number({head})"
        case Number(minimum=minimum):
            return f"_number({head}, {minimum!r})"
        case Made(of=of):
            return (
                f"if not _isinstance({value}, {of}):\n"
                f'    raise ArgumentTypeError({head}, "must be a {of}")'
            )
        case _:
            assert_never(check)


def checks(plan: SurfacePlan, limits: bool) -> Callable[[str, str, str, str | None], str]:
    """The template's ``argument_check(function, argument, value, by=None)``: the plan's check
    of ``function``'s ``argument`` (:func:`~rulesdsl.codegen.plan.surface.argument_checks`),
    made of ``value``, in the name of ``function`` or of the variable ``by`` (a helper's). The
    checks of a table's keys and of a roll's faces are written in the templates."""
    limit = plan_surface.CHECKS["limits"] if limits else ()
    found = plan_surface.argument_checks((*plan.checks, *limit))

    def check(function: str, argument: str, value: str, by: str | None = None) -> str:
        return check_py(by or quoted(function), argument, found[function, argument], value)

    return check


def surface_context(plan: SurfacePlan, limits: bool) -> dict[str, Any]:
    """The template's variables for ``__all__``, the name types and the argument checks."""
    types = name_types(plan)
    return {
        "exports": sorted(exports(plan, limits), key=export_order),
        "name_types": [(n, alias(n, m)) for n, m in types.items()],
        "name_type_imports": alias_imports(types),
        "argument_check": checks(plan, limits),
    }
