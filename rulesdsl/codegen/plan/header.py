"""The module plan's header section (issue 36): what a module says of its ruleset: identity,
title, books, remarks, units, the entry cost, unit types, groups and layers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import assert_never

from rulesdsl import ir
from rulesdsl.codegen.plan.info import book_title, label
from rulesdsl.ir.records import dataclass


@dataclass(frozen=True, slots=True)
class Identity:
    """A ruleset as it was when the module was built: the module's own (its worked examples
    name it) or one it extends."""

    id: str
    version: str
    digest: str


def identity(rs: ir.Ruleset | ir.Ancestor) -> Identity:
    """The id, version and digest of a ruleset or of one it extends."""
    return Identity(rs.id, rs.version, rs.digest)


@dataclass(frozen=True, slots=True)
class ModePlan:
    """A unit type: its labels by language and the keywords it has."""

    id: str
    labels: Mapping[str, str]
    keywords: tuple[str, ...]
    allowance: float | None = None
    """The unit type's own allowance (issue 40), None when it has none."""


@dataclass(frozen=True, slots=True)
class GroupPlan:
    """A group of unit types."""

    id: str
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LayerPlan:
    """A layer of features: its labels, its scope (place, edge ...) and its features."""

    id: str
    labels: Mapping[str, str]
    scope: ir.LayerScope
    features: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HeaderPlan:
    id: str
    version: str
    digest: str
    languages: tuple[str, ...]
    """The ruleset's languages, the first the module's own."""
    extends: tuple[Identity, ...]
    title: str
    """The ruleset's label in its first language (else any, else its id)."""
    books: tuple[tuple[str, str], ...]
    """(id, title) of each book its sources cite."""
    remarks: tuple[tuple[str, str], ...]
    """(item, remark): the ruleset's words for programmers."""
    distance_unit: str
    cost_unit: str
    entry_cost: float
    """What entering any place costs before its features (the stacking policy's base)."""
    minimum_move: bool
    modes: tuple[ModePlan, ...]
    groups: tuple[GroupPlan, ...]
    layers: tuple[LayerPlan, ...]


def build(rs: ir.Ruleset) -> HeaderPlan:
    return HeaderPlan(
        id=rs.id,
        version=rs.version,
        digest=rs.digest,
        languages=tuple(rs.languages),
        extends=tuple(identity(a) for a in rs.extends),
        title=label(rs.info, rs.languages[0], rs.id),
        books=tuple((b.id, book_title(b)) for b in rs.books),
        remarks=tuple(
            (item, remark)
            for item, info in (("ruleset", rs.info), *ir.infos_by_id(rs).items())
            for remark in info.remarks
        ),
        distance_unit=rs.units.get("distance", "distance unit"),
        cost_unit=rs.units.get("cost", "movement points"),
        entry_cost=_entry_cost(rs),
        minimum_move=rs.minimum_move is not None,
        modes=tuple(
            ModePlan(m.id, dict(m.info.labels), tuple(m.keywords), m.allowance) for m in rs.modes
        ),
        groups=tuple(GroupPlan(g.id, tuple(g.members)) for g in rs.groups),
        layers=tuple(
            LayerPlan(la.id, dict(la.info.labels), la.scope, tuple(la.features)) for la in rs.layers
        ),
    )


def _entry_cost(rs: ir.Ruleset) -> float:
    """The entry cost under the ruleset's stacking policy (``sum``: the entry cost plus the
    layers' costs, which the module's ``move_cost`` implements)."""
    match rs.stacking:
        case "sum":
            return rs.entry_cost
        case _:
            assert_never(rs.stacking)
