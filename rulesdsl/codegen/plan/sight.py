"""The module plan's sight section (issue 36). Line of sight: sight rules and their values per
feature and per viewer's unit type, and the dice outcomes fed to costs and sight."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import assert_never

from rulesdsl import ir, semantics
from rulesdsl.codegen.plan import values
from rulesdsl.ir.records import dataclass
from rulesdsl.semantics import effects

SightValue = values.Literal | values.OnceCost
"""A place's value under a sight rule: a number, a marker, or a step's answer for the length
of line inside the place (a :class:`~rulesdsl.codegen.plan.values.StepCost`)."""


@dataclass(frozen=True, slots=True)
class SightRule:
    """A line-of-sight rule: which places count (``between``, ``target``, ``both``), the total
    that blocks (None: only a blocking value blocks), the unit of the length of line the
    caller gives (None: no value is a step), whether the target's place adds to the hindrance
    only, and the values: by feature (a dice outcome fed to the rule among them), and by
    viewer's unit type where a unit type's value differs (precedence already applied)."""

    id: str
    labels: Mapping[str, str]
    blocks_at: float | None
    blocks_above: bool
    """Whether the total must pass ``blocks_at`` (``blocks above``, issue 40), not reach it."""
    counts: ir.SightCounts
    crossed: str | None
    target_inside: bool
    by_feature: Mapping[str, SightValue]
    by_mode: Mapping[str, Mapping[str, SightValue]]


@dataclass(frozen=True, slots=True)
class SightPlan:
    rules: tuple[SightRule, ...]
    fed_outcomes: tuple[str, ...]
    """The dice outcomes ``move_cost`` and ``line_of_sight`` take beside features (issue 24)."""
    outcome_costs: Mapping[str, float]
    """What each dice outcome adds to the movement cost per distance unit."""
    state_bands: Mapping[str, tuple[int, str, int]] = field(default_factory=dict)
    """Per rule that counts only while the viewer's state is in a band (``when altitude below
    5``, issue 40): the state's index (in the order of the states), below or above, the bound."""


def value(rs: ir.Ruleset, cell: ir.Value) -> SightValue:
    """A sight cell's value as the module carries it."""
    once = values.once_cost(rs, cell)
    return once if once is not None else values.literal(cell)


def rule(rs: ir.Ruleset, sight: ir.Sight) -> SightRule:
    by_feature: dict[str, SightValue] = {}
    by_mode: dict[str, dict[str, SightValue]] = {}
    for f in rs.features:
        cell = f.cells.get(sight.id)
        if cell is None:
            continue
        if cell.default is not None:
            by_feature[f.id] = value(rs, cell.default)
        if not cell.exceptions:
            continue
        for mode in rs.modes:
            seen = semantics.sight_value(rs, f, cell, mode.id)
            if seen is not None and seen != cell.default:
                by_mode.setdefault(mode.id, {})[f.id] = value(rs, seen)
    by_feature.update(effects.outcome_values(rs, sight.id))  # dice outcomes (issue 24)
    return SightRule(
        id=sight.id,
        labels=dict(sight.info.labels),
        blocks_at=sight.blocks_at,
        blocks_above=_above(sight.blocks_when),
        counts=sight.counts,
        crossed=sight.crossed,
        target_inside=sight.target_inside,
        by_feature=by_feature,
        by_mode=by_mode,
    )


def _above(bound: ir.SightBound) -> bool:
    match bound:
        case "at":
            return False
        case "above":
            return True
        case _:
            assert_never(bound)


def build(rs: ir.Ruleset) -> SightPlan:
    return SightPlan(
        rules=tuple(rule(rs, s) for s in rs.sights),
        fed_outcomes=effects.fed_outcomes(rs),
        outcome_costs=effects.outcome_values(rs, effects.COST),
        state_bands={
            s.id: ([v.id for v in rs.states].index(s.state[0]), s.state[1], s.state[2])
            for s in rs.sights
            if s.state is not None
        },
    )
