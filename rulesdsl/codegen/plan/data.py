"""The module plan's data section (issue 36). The data a module carries: features and their costs,
parameters, contexts, modifiers and their policies, precedence, tables, dice tables, triggers,
results tables, exclusions, and the features and layers the cost functions treat apart.

Every node is plain typed data: names as str, labels by language as the module prints them,
cell values as the plan's literals (:mod:`rulesdsl.codegen.plan.values`), chances as exact
Fractions. The IR is read here, once per union, with ``match`` and ``assert_never``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from fractions import Fraction
from typing import assert_never

from rulesdsl import ir, semantics, words
from rulesdsl.codegen.plan import info, values
from rulesdsl.ir.records import dataclass
from rulesdsl.semantics import effects as semantics_effects
from rulesdsl.semantics.dice import chance_at_least, chance_between

Combine = ir.Combine
"""How a modifier's values combine (sum, highest, lowest, once)."""

Labels = Mapping[str, str]
"""A text by language code, as the module prints it."""


# ---- costs --------------------------------------------------------------------------------


def dice_of(roll: ir.DiceRoll) -> values.Dice | values.D66:
    """The dice a table or a check rolls."""
    match roll:
        case ir.DiceValue(count=c, sides=sides, bonus=b):
            return values.Dice(c, sides, b)
        case ir.D66Value(bonus=b):
            return values.D66(b)
        case _:
            assert_never(roll)


# ---- features, parameters, contexts -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Feature:
    """A feature: its layer, labels, cost per distance by unit type, notes and source text."""

    id: str
    layer: str
    labels: Labels
    costs: Mapping[str, values.PerDistance]
    notes: tuple[Labels, ...]
    source: str


@dataclass(frozen=True, slots=True)
class Param:
    """A scenario parameter: its number, None while the ruleset leaves it open."""

    id: str
    value: float | None


@dataclass(frozen=True, slots=True)
class Context:
    """A context and its values, in order."""

    id: str
    values: tuple[str, ...]


# ---- modifiers ----------------------------------------------------------------------------

ModifierValue = values.Literal | values.OnceCost
"""A modifier's value for an item: a number (its unit left out), a marker, another literal,
or a step whose answer it is."""


@dataclass(frozen=True, slots=True)
class Combination:
    """``when a, b``: the value when all ``members`` are present."""

    members: tuple[str, ...]
    value: values.Literal


@dataclass(frozen=True, slots=True)
class ModifierBand:
    """``when altitude above 6 | +1`` (issue 40): ``value`` while the state at ``index`` (in
    the order of the states) is below (or above) ``bound``."""

    index: int
    side: str
    bound: int
    value: values.Literal


@dataclass(frozen=True, slots=True)
class Pair:
    """The value for a combination of two context values (``a & b``)."""

    first: str
    second: str
    value: values.Literal


@dataclass(frozen=True, slots=True)
class BestOf:
    """An item's best group: of the group's items present, only the highest (or lowest) counts."""

    group: str
    highest: bool


@dataclass(frozen=True, slots=True)
class Modifier:
    """A modifier: per item, its value by context value (``""`` for any); its policy."""

    id: str
    context: str | None
    entries: tuple[tuple[str, Mapping[str, ModifierValue]], ...]
    combinations: tuple[Combination, ...]
    combine: ir.Combine
    clamp: tuple[float, float] | None
    context2: str | None
    pairs: tuple[tuple[str, tuple[Pair, ...]], ...]
    best: Mapping[str, BestOf]
    """Per item of a best group, its group."""
    step_inputs: Mapping[str, tuple[str, ...]]
    """Per input of a step that values are, the items whose value it is."""
    simply_added: bool
    """Whether its values are numbers simply added up: combine "sum", no clamp, no
    combination, no second context, no pairs, no best group, no factor read along a line and
    no band."""
    sights: Mapping[str, str] = field(default_factory=dict)
    """Per factor read along a line of sight (``sight NAME : rule``), its sight rule."""
    bands: tuple[ModifierBand, ...] = ()


# ---- tables -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Column:
    id: str
    labels: Labels
    notes: tuple[Labels, ...]


@dataclass(frozen=True, slots=True)
class Row:
    """A row of a plain table: its key (a number where the key is one) and cells."""

    key: str | float
    cells: tuple[values.Literal, ...]


@dataclass(frozen=True, slots=True)
class Table:
    id: str
    labels: Labels
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]


@dataclass(frozen=True, slots=True)
class DiceRow:
    """A row of a dice table: its totals (None: open-ended), effects, and its exact chance
    alone and with each modifier (natural rolls counted)."""

    id: str
    labels: Labels
    low: int | None
    high: int | None
    effects: Mapping[str, values.Literal]
    chance: Fraction
    chance_with: Mapping[str, Fraction]


@dataclass(frozen=True, slots=True)
class DiceTable:
    id: str
    labels: Labels
    dice: values.Dice | values.D66
    modifiers: Mapping[str, int]
    rows: tuple[DiceRow, ...]
    index: Mapping[int, int]
    """Every total the dice and modifiers reach -> the index of its row."""
    naturals: Mapping[int, str]
    """A natural roll -> the row it gives whatever the total."""
    natural_at_least: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Trigger:
    id: str
    labels: Labels
    table: str
    check: values.Dice | values.D66 | None
    at_least: int | None
    check_chance: Fraction
    modifier: str | None
    times: int
    more_modifiers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ResultColumn:
    id: str
    labels: Labels
    bound: ir.ColumnBound
    value: float
    unit: str | None


@dataclass(frozen=True, slots=True)
class ResultRow:
    low: int | None
    high: int | None
    outcomes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ResultsTable:
    """A results table: the column by ``by``, the row by the total; the exact chances of each
    outcome per column, alone and per modifier; the row index of every total the dice reach
    (alone, with one modifier, or with a trigger's modifiers together)."""

    id: str
    labels: Labels
    dice: values.Dice | values.D66
    by: str
    columns: tuple[ResultColumn, ...]
    rounding: str | None
    outcomes: Mapping[str, Labels]
    outcome_effects: Mapping[str, Mapping[str, values.Literal]]
    naturals: Mapping[int, str]
    natural_at_least: tuple[int, ...]
    natural_by_column: Mapping[int, tuple[str, ...]]
    rows: tuple[ResultRow, ...]
    modifiers: Mapping[str, int]
    chances: Mapping[str, Mapping[str, Fraction]]
    chances_with: Mapping[str, Mapping[str, Mapping[str, Fraction]]]
    shifts: Mapping[str, int]
    on_doubles: str | None
    index: Mapping[int, int]
    categories: bool = False
    """Whether its columns are categories the caller names (issue 40), not bounds."""
    picked_by: str | None = None
    """The decision whose outcome names the column (``by gun_class``), if one does (issue 40)."""


@dataclass(frozen=True, slots=True)
class Exclusion:
    """A condition and the others it cannot be combined with (both ways round)."""

    subject: str
    others: tuple[str, ...]


# ---- the section --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DataPlan:
    features: tuple[Feature, ...]
    params: tuple[Param, ...]
    contexts: tuple[Context, ...]
    modifiers: tuple[Modifier, ...]
    precedence: tuple[tuple[str, ...], ...]
    tables: tuple[Table, ...]
    dice_tables: tuple[DiceTable, ...]
    triggers: tuple[Trigger, ...]
    results_tables: tuple[ResultsTable, ...]
    exclusions: tuple[Exclusion, ...]
    ignores_others: tuple[str, ...]
    """Features whose cost ignores the other features of the place."""
    whole_map: tuple[str, ...]
    """Features that hold over the whole map."""
    one_per_place: tuple[str, ...]
    """Layers of which a place has at most one feature."""
    unit_effects: Mapping[str, Mapping[str, Mapping[str, Mapping[str, values.Literal]]]] = field(
        default_factory=dict
    )
    """Where an outcome has an effect keyed by unit type (issue 40): per dice or results table,
    outcome and effect, the value each unit type gets; empty in a ruleset without one."""


def build(rs: ir.Ruleset) -> DataPlan:
    params = semantics.param_values(rs)
    whole = semantics_effects.whole_map(rs)
    return DataPlan(
        features=tuple(_feature(rs, f, params) for f in rs.features),
        params=tuple(Param(p.id, params[p.id]) for p in rs.params),
        contexts=tuple(Context(c.id, tuple(v.id for v in c.values)) for c in rs.contexts),
        modifiers=tuple(_modifier(rs, m) for m in rs.modifiers),
        precedence=tuple(p.groups for p in rs.precedence),
        tables=tuple(_table(t) for t in rs.tables),
        dice_tables=tuple(_dice_table(t) for t in rs.dice_tables),
        triggers=tuple(_trigger(t) for t in rs.triggers),
        results_tables=tuple(_results_table(rs, t) for t in rs.results_tables),
        exclusions=_exclusions(rs),
        ignores_others=tuple(f.id for f in rs.features if f.ignores_others),
        whole_map=tuple(f.id for f in rs.features if f.id in whole),
        one_per_place=tuple(la.id for la in rs.layers if semantics.one_per_place(la)),
        unit_effects=_unit_effects(rs),
    )


def _unit_effects(
    rs: ir.Ruleset,
) -> dict[str, dict[str, dict[str, dict[str, values.Literal]]]]:
    """Every outcome's effects per unit type, when some outcome has an effect keyed by one."""
    if not semantics_effects.uses_unit_effects(rs):
        return {}
    out: dict[str, dict[str, dict[str, dict[str, values.Literal]]]] = {}
    for table, outcome, plain, keyed in semantics_effects.keyed_outcomes(rs):
        out.setdefault(table, {})[outcome] = {
            name: {
                m.id: values.literal(semantics_effects.value_for(rs, plain, keyed, name, m.id))
                for m in rs.modes
            }
            for name in plain
        }
    return out


def _feature(rs: ir.Ruleset, f: ir.Feature, params: Mapping[str, float | None]) -> Feature:
    return Feature(
        id=f.id,
        layer=f.layer,
        labels=f.info.labels,
        costs={mode: values.per_distance(v, params) for mode, v in f.costs.items()},
        notes=tuple(f.info.notes),
        source=info.source(rs, f.info),
    )


def cell(value: ir.Value | None) -> values.Literal:
    """A modifier's value as the module carries it: a number without its unit, else the
    value's literal."""
    return value.value if isinstance(value, ir.Number) else values.literal(value)


def _modifier_value(rs: ir.Ruleset, value: ir.Value) -> ModifierValue:
    step = values.once_cost(rs, value) if isinstance(value, ir.StepCost) else None
    return step if step is not None else cell(value)


def _modifier(rs: ir.Ruleset, m: ir.Modifier) -> Modifier:
    return Modifier(
        id=m.id,
        context=m.context,
        entries=tuple(
            (item, {k: _modifier_value(rs, v) for k, v in vals.items()})
            for item, vals in m.values.items()
        ),
        combinations=tuple(Combination(tuple(c.members), cell(c.value)) for c in m.combinations),
        combine=m.combine,
        clamp=(m.clamp.low, m.clamp.high) if m.clamp is not None else None,
        context2=m.context2,
        pairs=tuple(
            (item, tuple(Pair(p.first, p.second, cell(p.value)) for p in pairs))
            for item, pairs in m.pairs.items()
        ),
        best={i: BestOf(g.id, _highest(g)) for g in m.best for i in g.members},
        step_inputs=semantics.step_inputs(rs, m),
        simply_added=_simply_added(m),
        sights={f.id: f.rule for f in m.sights},
        bands=tuple(
            ModifierBand([v.id for v in rs.states].index(b.state), b.side, b.bound, cell(b.value))
            for b in m.bands
        ),
    )


def _highest(group: ir.BestGroup) -> bool:
    match group.combine:
        case "highest":
            return True
        case "lowest":
            return False
        case _:
            assert_never(group.combine)


def _simply_added(m: ir.Modifier) -> bool:
    match m.combine:
        case "sum":
            return (
                m.clamp is None
                and not m.combinations
                and m.context2 is None
                and not m.pairs
                and not m.best
                and not m.sights
                and not m.bands
            )
        case "highest" | "lowest" | "once":
            return False
        case _:
            assert_never(m.combine)


def _table(t: ir.Table) -> Table:
    return Table(
        id=t.id,
        labels=t.info.labels,
        columns=tuple(Column(c.id, c.info.labels, tuple(c.info.notes)) for c in t.columns),
        rows=tuple(
            Row(
                r.key_number if r.key_number is not None else r.key,
                tuple(values.literal(c) for c in r.cells),
            )
            for r in t.rows
        ),
    )


def _dice_table(t: ir.DiceTable) -> DiceTable:
    dice = semantics.roll_of(t.dice)
    with_naturals = (
        {0: semantics.dice_chances(t)}
        | {m.value: semantics.dice_chances(t, m.value) for m in t.modifiers}
        if t.naturals
        else {}
    )

    def chance(row: ir.DiceRow, shift: int) -> Fraction:
        if with_naturals:  # a natural roll gives its row whatever the total (issue 25)
            return with_naturals[shift][row.id]
        low = row.low - shift if row.low is not None else dice.minimum
        high = row.high - shift if row.high is not None else None
        return chance_between(dice, low, high)

    return DiceTable(
        id=t.id,
        labels=t.info.labels,
        dice=dice_of(t.dice),
        modifiers={m.id: m.value for m in t.modifiers},
        rows=tuple(
            DiceRow(
                id=r.id,
                labels=r.info.labels,
                low=r.low,
                high=r.high,
                effects={k: values.literal(v) for k, v in r.effects.items()},
                chance=chance(r, 0),
                chance_with={m.id: chance(r, m.value) for m in t.modifiers},
            )
            for r in t.rows
        ),
        index=semantics.dice_index(t),
        naturals={n.roll: n.outcome for n in t.naturals},
        natural_at_least=tuple(sorted(n.roll for n in t.naturals if n.at_least)),
    )


def _trigger(t: ir.Trigger) -> Trigger:
    return Trigger(
        id=t.id,
        labels=t.info.labels,
        table=t.table,
        check=dice_of(t.check) if t.check else None,
        at_least=t.at_least,
        check_chance=(
            chance_at_least(semantics.roll_of(t.check), t.at_least or 0) if t.check else Fraction(1)
        ),
        modifier=t.modifier,
        times=t.times,
        more_modifiers=t.more_modifiers,
    )


def _results_table(rs: ir.Ruleset, t: ir.ResultsTable) -> ResultsTable:
    return ResultsTable(
        id=t.id,
        labels=t.info.labels,
        dice=dice_of(t.dice),
        by=t.by,
        columns=tuple(
            ResultColumn(c.id, c.info.labels, c.bound, c.value, c.unit) for c in t.columns
        ),
        rounding=t.rounding,
        outcomes={o.id: o.info.labels for o in t.outcomes},
        outcome_effects={
            o.id: {k: values.literal(v) for k, v in o.effects.items()}
            for o in t.outcomes
            if o.effects
        },
        naturals={n.roll: n.outcome for n in t.naturals},
        natural_at_least=tuple(sorted(n.roll for n in t.naturals if n.at_least)),
        natural_by_column={n.roll: n.by_column for n in t.naturals if n.by_column},
        rows=tuple(ResultRow(r.low, r.high, r.outcomes) for r in t.rows),
        modifiers={m.id: m.value for m in t.modifiers},
        chances={c.id: semantics.result_chances(t, c.id) for c in t.columns},
        chances_with={
            m.id: {c.id: semantics.modifier_chances(t, c.id, m) for c in t.columns}
            for m in t.modifiers
        },
        shifts={m.id: m.shift for m in t.modifiers if m.shift},
        on_doubles=next((m.id for m in t.modifiers if m.on_doubles), None),
        index=semantics.results_index(t, semantics.trigger_shifts(rs, t.id)),
        categories=any(words.is_category(c.bound) for c in t.columns),
        picked_by=picked.id if (picked := semantics.column_decision(rs, t)) else None,
    )


def _exclusions(rs: ir.Ruleset) -> tuple[Exclusion, ...]:
    exclusions: dict[str, set[str]] = {}
    for ex in rs.exclusions:
        for other in ex.others:
            exclusions.setdefault(ex.subject, set()).add(other)
            exclusions.setdefault(other, set()).add(ex.subject)
    return tuple(Exclusion(k, tuple(sorted(v))) for k, v in sorted(exclusions.items()))
