"""The module plan's surface section (issue 36). A module's public surface: which parts of the
API it has, the functions its rules declare, the names callers give by kind (unit types,
features, modifiers, tables, dice tables), and the argument checks each public function makes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, assert_never, get_args

from rulesdsl import ir
from rulesdsl.ir.records import dataclass
from rulesdsl.semantics import effects

Part = Literal[
    "every module",
    "limits",
    "sight",
    "results tables",
    "facing",
    "arcs",
    "free facing",
    "state",
    "unit effects",
]
"""A part of the API: every module has the first, the others where its rules use them (the
code section says whether a module has ``limits``: a cost that is a ``Limit``)."""

NameKind = Literal["mode", "feature", "modifier", "table", "dice table"]
"""A kind of name the rules declare and callers give: unit types, features (and the dice
outcomes that feed costs or sight), modifiers, plain tables, dice tables (results tables
among them)."""


@dataclass(frozen=True, slots=True)
class NameType:
    """The names of one kind, in declaration order: what a typed caller may write."""

    kind: NameKind
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KnownName:
    """The argument must be a name of ``kind`` the module knows (the word its error uses)."""

    kind: Pool


@dataclass(frozen=True, slots=True)
class Number:
    """The argument must be a real, finite number, at least ``minimum`` (None: any)."""

    minimum: float | None = 0


@dataclass(frozen=True, slots=True)
class Key:
    """The argument must be a row or column key of the table (a name or a number)."""


@dataclass(frozen=True, slots=True)
class Faces:
    """The argument must be a tuple of whole numbers, one face per die of the table."""


@dataclass(frozen=True, slots=True)
class Made:
    """The argument must be an instance of the module's own class ``of`` (a ``Board``)."""

    of: Literal["Board"]


Check = KnownName | Number | Key | Faces | Made
"""What a public function checks of one argument before it answers."""

BuiltPool = Literal["whole-map condition", "grid", "step", "feature or factor"]
"""The pools of names each target builds in its own way (the others are one of the module's
tables: :func:`pool_source`)."""

Pool = Literal[
    "mode",
    "feature",
    "modifier",
    "table",
    "dice table",
    "results table",
    "parameter",
    "condition",
    "sight rule",
    "grid unit",
    "kind of move",
    "arcs",
    BuiltPool,
]
"""The names an argument may be checked against: the declared kinds and the module's other
named things."""


@dataclass(frozen=True, slots=True)
class PoolTable:
    """A pool of names that is one of the module's tables, named alike in every target."""

    name: str


def pool_source(kind: Pool) -> PoolTable | BuiltPool:
    """Where a check finds the names of ``kind``: the module's table (``MODES``), or the pool
    itself where each target builds it in its own way."""
    match kind:
        case "mode":
            return PoolTable("MODES")
        case "feature":
            return PoolTable("FEATURES")
        case "modifier":
            return PoolTable("MODIFIERS")
        case "table":
            return PoolTable("TABLES")
        case "dice table":
            return PoolTable("DICE_TABLES")
        case "results table":
            return PoolTable("RESULTS_TABLES")
        case "parameter":
            return PoolTable("PARAMS")
        case "condition":
            return PoolTable("EXCLUSIONS")
        case "sight rule":
            return PoolTable("SIGHTS")
        case "grid unit":
            return PoolTable("GRID_SIZES")
        case "kind of move":
            return PoolTable("MOVES")
        case "arcs":
            return PoolTable("ARCS")
        case "whole-map condition" | "grid" | "step" | "feature or factor":
            return kind
        case _:
            assert_never(kind)


@dataclass(frozen=True, slots=True)
class ArgumentCheck:
    """One check of one argument; ``each``: of every item the argument gives (``*features``)."""

    argument: str
    check: Check
    each: bool = False


@dataclass(frozen=True, slots=True)
class FunctionChecks:
    """The checks a public function makes of its arguments, in the order it makes them."""

    function: str
    arguments: tuple[ArgumentCheck, ...]


@dataclass(frozen=True, slots=True)
class SurfacePlan:
    parts: tuple[Part, ...]
    """The parts the rules decide (``limits``, decided by the code section, aside)."""
    declared: tuple[str, ...]
    """The functions the rules declare: a step or decision table each, named after it."""
    names: tuple[NameType, ...]
    checks: tuple[FunctionChecks, ...]
    """The argument checks of the public functions the module has."""


def _checks(
    function: str, *arguments: tuple[str, Check] | tuple[str, Check, bool]
) -> FunctionChecks:
    return FunctionChecks(function, tuple(ArgumentCheck(*a) for a in arguments))


_PLACE = (("mode", KnownName("mode")), ("features", KnownName("feature"), True))
_MOVE = ("move", KnownName("kind of move"))
_ROUTE = (("board", Made("Board")), ("mode", KnownName("mode")), ("allowance", Number()))
_ANY = Number(None)


def part_checks(part: Part) -> tuple[FunctionChecks, ...]:
    """The argument checks of the public functions of ``part``, in the order each makes them
    (a function a part adds to, as ``roll`` for results tables, has an entry in each)."""
    match part:
        case "every module":
            return (
                _checks("conflicts", ("names", KnownName("condition"), True)),
                _checks(
                    "move_cost", *_PLACE, ("distance", Number()), ("allowance", Number()), _MOVE
                ),
                _checks(
                    "can_enter", *_PLACE, ("available", Number()), ("allowance", Number()), _MOVE
                ),
                _checks(
                    "modifier",
                    ("name", KnownName("modifier")),
                    ("items", KnownName("feature or factor"), True),
                ),
                _checks(
                    "roll",
                    ("table", KnownName("dice table")),
                    ("dice", Faces()),
                    ("natural", _ANY),
                    ("total", _ANY),
                ),
                _checks("lookup", ("table", KnownName("table")), ("keys", Key(), True)),
                _checks("param", ("name", KnownName("parameter"))),
                _checks(
                    "path_cost",
                    ("unit", KnownName("grid unit")),
                    ("steps", KnownName("step"), True),
                ),
                _checks("can_end", *_PLACE),
                _checks("must_stop", *_PLACE),
                _checks("rolls_due", *_PLACE, _MOVE),
                _checks("route_cost", *_ROUTE),
                _checks("cheapest_route", *_ROUTE),
                _checks("reachable", *_ROUTE, ("budget", Number())),
                _checks(
                    "Board",
                    ("grid", KnownName("grid")),
                    ("places", KnownName("feature"), True),
                    ("edges", KnownName("feature"), True),
                ),
                _checks("Share.of", ("allowance", Number())),
                _checks("Quantity", ("value", _ANY)),
            )
        case "limits":
            return (_checks("Limit.over", ("distance", Number())),)
        case "sight":
            return (
                _checks(
                    "line_of_sight",
                    ("name", KnownName("sight rule")),
                    ("mode", KnownName("mode")),
                    ("crossed", Number(), True),
                    ("conditions", KnownName("whole-map condition"), True),
                    ("places", KnownName("feature"), True),
                ),
            )
        case "results tables":
            return (
                _checks(
                    "roll",
                    ("table", KnownName("results table")),
                    ("shift", _ANY),
                    ("natural", _ANY),
                    ("total", _ANY),
                    ("column", _ANY),
                ),
            )
        case "facing":
            return ()
        case "free facing":
            return (_checks("free_move", ("allowance", Number())),)
        case "state":
            return ()
        case "unit effects":
            return (_checks("effect", ("mode", KnownName("mode"))),)
        case "arcs":
            return (
                _checks("arc", ("arcs", KnownName("arcs")), ("bearing", _ANY), ("heading", _ANY)),
                _checks(
                    "arc_between",
                    ("arcs", KnownName("arcs")),
                    ("grid", KnownName("grid")),
                    ("heading", _ANY),
                ),
            )
        case _:
            assert_never(part)


CHECKS: dict[Part, tuple[FunctionChecks, ...]] = {p: part_checks(p) for p in get_args(Part)}
"""Each part's argument checks (:func:`part_checks`)."""


def argument_checks(
    checks: Iterable[FunctionChecks],
) -> dict[tuple[str, str], KnownName | Number | Made]:
    """Each check an emitter writes from the plan, by function and argument: the first of
    ``checks`` (a module's: its parts', and ``limits``' when it has them). A table's keys and
    a roll's faces, checked against the table given, are written in each target's runtime."""
    found: dict[tuple[str, str], KnownName | Number | Made] = {}
    for function in checks:
        for a in function.arguments:
            match a.check:
                case KnownName() | Number() | Made():
                    found.setdefault((function.function, a.argument), a.check)
                case Key() | Faces():
                    pass
                case _:
                    assert_never(a.check)
    return found


def name_types(rs: ir.Ruleset) -> tuple[NameType, ...]:
    fed = tuple(sorted(set(effects.fed_outcomes(rs)) - {f.id for f in rs.features}))
    results = (t.id for t in rs.results_tables)
    return (
        NameType("mode", tuple(m.id for m in rs.modes)),
        NameType("feature", (*(f.id for f in rs.features), *fed)),
        NameType("modifier", tuple(m.id for m in rs.modifiers)),
        NameType("table", tuple(t.id for t in rs.tables)),
        NameType("dice table", tuple(dict.fromkeys([*(t.id for t in rs.dice_tables), *results]))),
    )


def has_part(rs: ir.Ruleset, part: Part) -> bool:
    """Whether the rules of ``rs`` use ``part`` (``limits``: the code section says)."""
    match part:
        case "every module":
            return True
        case "limits":
            return False
        case "sight":
            return bool(rs.sights)
        case "results tables":
            return bool(rs.results_tables)
        case "facing":
            return bool(rs.facings)
        case "arcs":
            return bool(rs.arcs)
        case "free facing":
            return bool(rs.free_facings)
        case "state":
            return bool(rs.states)
        case "unit effects":
            return effects.uses_unit_effects(rs)
        case _:
            assert_never(part)


def build(rs: ir.Ruleset) -> SurfacePlan:
    has = tuple(p for p in get_args(Part) if has_part(rs, p))
    return SurfacePlan(
        parts=has,
        declared=(*(s.id for s in rs.steps), *(d.id for d in rs.decisions)),
        names=name_types(rs),
        checks=tuple(c for part in has for c in CHECKS[part]),
    )
