"""Effects that feed other rules (issue 24, item 4): what a dice outcome gives a sight rule or
the movement cost, and how a whole-map condition counts on a line of sight.

A dice row (or a results table's outcome) whose effects name a sight rule (``| los +1``) or
``cost`` (``| cost +1``) makes its outcome usable where a feature is: given among a place's
features, ``move_cost`` adds the value to the cost per distance unit and ``line_of_sight`` to
that place's count. A whole-map condition (a feature of a ``whole map`` layer) with a value in a
sight column counts once per line, however many places it is given in ("fog: +1 to the
hindrance of the line"); a per-place reading is a place feature listed in each place.

The lowering checks the misuse (E350-E354, :mod:`rulesdsl.lowering.effects`; W350, an effect
that feeds nothing, :mod:`rulesdsl.lowering.sight`); the module's data is made from
:func:`outcome_values` (:mod:`rulesdsl.codegen.python.sight`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rulesdsl import ir
from rulesdsl.semantics import known
from rulesdsl.semantics.keywords import written_cost

COST = "cost"
"""The effect that adds to the movement cost per distance unit."""


def fed_columns(rs: ir.Ruleset) -> tuple[str, ...]:
    """The effects an outcome may feed besides modifiers: ``cost`` and each sight rule."""
    return (COST, *(r.id for r in rs.sights))


def outcomes(rs: ir.Ruleset) -> Iterator[tuple[str, str, dict[str, ir.Value]]]:
    """Every dice outcome with its table and effects: the rows of plain dice tables, then the
    outcomes of results tables, in the order written."""
    for table in rs.dice_tables:
        for row in table.rows:
            yield table.id, row.id, row.effects
    for results in rs.results_tables:
        for outcome in results.outcomes:
            yield results.id, outcome.id, outcome.effects


def outcome_values(rs: ir.Ruleset, column: str) -> dict[str, float]:
    """``{outcome: value}`` for each outcome whose effects give ``column`` (``cost`` or a sight
    rule) a number; the first outcome of a name wins (a second is E352). A new dict each time,
    made once per ruleset and column (:mod:`rulesdsl.semantics.known`)."""
    kept = known.of(rs).outcome_values
    if column not in kept:
        out: dict[str, float] = {}
        for _, outcome, effects in outcomes(rs):
            value = effects.get(column)
            if isinstance(value, ir.Number):
                out.setdefault(outcome, value.value)
        kept[column] = out
    return dict(kept[column])


def fed_outcomes(rs: ir.Ruleset) -> tuple[str, ...]:
    """The outcomes that give ``cost`` or a sight rule a value, each once, in order: the names
    ``move_cost`` and ``line_of_sight`` take beside features (made once per ruleset)."""
    kept = known.of(rs)
    if kept.fed_outcomes is None:
        columns = fed_columns(rs)
        found = [o for _, o, effects in outcomes(rs) if any(c in effects for c in columns)]
        kept.fed_outcomes = tuple(dict.fromkeys(found))
    return kept.fed_outcomes


def whole_map(rs: ir.Ruleset) -> frozenset[str]:
    """The features of ``whole map`` layers: the conditions (made once per ruleset)."""
    return known.of(rs).whole_map


def line_conditions(
    rs: ir.Ruleset, places: Sequence[Sequence[str]], conditions: Sequence[str] = ()
) -> tuple[str, ...]:
    """The conditions that count once for a line: those given in ``conditions`` and the
    whole-map features given in any place (the firer's and the target's too), each once, in
    the order first given."""
    conditions_here = whole_map(rs)
    found = [*conditions, *(n for place in places for n in place if n in conditions_here)]
    return tuple(dict.fromkeys(found))


# ---- effects keyed by unit type (issue 40, item 7) --------------------------------------------


def keyed_outcomes(rs: ir.Ruleset) -> Iterator[tuple[str, str, dict[str, ir.Value], KeyedEffects]]:
    """Every dice outcome with its table, its effects and its effects keyed by unit type or
    keyword, as :func:`outcomes` gives them."""
    for table in rs.dice_tables:
        for row in table.rows:
            yield table.id, row.id, row.effects, row.by_unit
    for results in rs.results_tables:
        for outcome in results.outcomes:
            yield results.id, outcome.id, outcome.effects, outcome.by_unit


KeyedEffects = dict[str, dict[str, ir.Value]]
"""An outcome's effects keyed by unit type or keyword: effect -> key -> value."""


def unit_effect(rs: ir.Ruleset, table: str, outcome: str, effect: str, mode: str) -> ir.Value:
    """The value the effect ``effect`` of ``outcome`` (a dice row or a results table's outcome)
    of ``table`` has for unit type ``mode``: its own entry, else its keyword's as a cost cell
    reads keywords (precedence included), else the value for everyone (``damage 2, damage &
    infantry 3``: 3 for infantry, 2 for a mech). KeyError for a name the table lacks."""
    for t, o, plain, keyed in keyed_outcomes(rs):
        if (t, o) == (table, outcome):
            return value_for(rs, plain, keyed, effect, mode)
    raise KeyError((table, outcome))


def value_for(
    rs: ir.Ruleset, plain: dict[str, ir.Value], keyed: KeyedEffects, effect: str, mode: str
) -> ir.Value:
    """:func:`unit_effect` for one outcome's ``plain`` and ``keyed`` effects."""
    cell = ir.Cell(plain[effect], dict(keyed.get(effect, {})))
    value = written_cost(cell, mode, rs.groups, [p.groups for p in rs.precedence])
    assert value is not None  # the cell has a value for everyone
    return value


def uses_unit_effects(rs: ir.Ruleset) -> bool:
    """Whether some outcome has an effect keyed by unit type (the module then answers
    ``effect(table, outcome, name, mode)``)."""
    return any(keyed for *_, keyed in keyed_outcomes(rs))
