"""What the rules mean: one home for the semantics of each construct, read from the IR.

The compiler's stages and tools all ask this module rather than re-deriving meaning:

- lowering resolves each feature's cost per mode with :func:`written_cost` (mode, then group,
  then the value for all);
- the Python backend precomputes the dice index with :func:`dice_index` and emits step
  bodies that compute :func:`step_value`;
- the sheet model draws step diagrams from :func:`step_value`;
- the checks compute dice coverage from :func:`reachable_totals`.

It also answers whole rules questions (:func:`move_cost`, :func:`modifier`, :func:`decide`,
:func:`roll`) as a reference: a test asks every bundled ruleset's generated module and this
module the same questions and requires the same answers, so the generated code cannot drift
from the meaning defined here. Answers that are not numbers are :class:`rulesdsl.ir.Marker`
values; a movement cost that depends on a parameter nobody filled in is :class:`Unfilled`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import assert_never

from rulesdsl import editions, ir
from rulesdsl.ir.records import dataclass
from rulesdsl.semantics import effects as semantics_effects
from rulesdsl.semantics import known
from rulesdsl.semantics.keywords import group_choice as group_choice
from rulesdsl.semantics.keywords import local_order as local_order
from rulesdsl.semantics.keywords import place_order as place_order
from rulesdsl.semantics.keywords import precedes as precedes
from rulesdsl.semantics.keywords import shadowing_keyword as shadowing_keyword
from rulesdsl.semantics.keywords import written_cost as written_cost
from rulesdsl.semantics.keywords import written_key as written_key
from rulesdsl.semantics.tables import BLOCKED as BLOCKED
from rulesdsl.semantics.tables import IMPASSABLE as IMPASSABLE
from rulesdsl.semantics.tables import PROHIBITED as PROHIBITED
from rulesdsl.semantics.tables import Answer as Answer
from rulesdsl.semantics.tables import Inputs as Inputs
from rulesdsl.semantics.tables import Rules as Rules
from rulesdsl.semantics.tables import SightLine as SightLine
from rulesdsl.semantics.tables import bound as bound
from rulesdsl.semantics.tables import cell_value as cell_value
from rulesdsl.semantics.tables import column_decision as column_decision
from rulesdsl.semantics.tables import column_holds as column_holds
from rulesdsl.semantics.tables import compare as compare
from rulesdsl.semantics.tables import counted_places as counted_places
from rulesdsl.semantics.tables import covers as covers
from rulesdsl.semantics.tables import covers_map as covers_map
from rulesdsl.semantics.tables import decide as decide
from rulesdsl.semantics.tables import decided_row as decided_row
from rulesdsl.semantics.tables import decision_answer as decision_answer
from rulesdsl.semantics.tables import dice_chances as dice_chances
from rulesdsl.semantics.tables import dice_index as dice_index
from rulesdsl.semantics.tables import divides as divides
from rulesdsl.semantics.tables import has_diagonals as has_diagonals
from rulesdsl.semantics.tables import holds as holds
from rulesdsl.semantics.tables import modifier_chances as modifier_chances
from rulesdsl.semantics.tables import on_edges as on_edges
from rulesdsl.semantics.tables import one_per_place as one_per_place
from rulesdsl.semantics.tables import operand as operand
from rulesdsl.semantics.tables import path_length as path_length
from rulesdsl.semantics.tables import plain_totals as plain_totals
from rulesdsl.semantics.tables import reachable_totals as reachable_totals
from rulesdsl.semantics.tables import reaches as reaches
from rulesdsl.semantics.tables import result as result
from rulesdsl.semantics.tables import result_chances as result_chances
from rulesdsl.semantics.tables import result_column as result_column
from rulesdsl.semantics.tables import result_covers as result_covers
from rulesdsl.semantics.tables import results_index as results_index
from rulesdsl.semantics.tables import roll as roll
from rulesdsl.semantics.tables import roll_of as roll_of
from rulesdsl.semantics.tables import scaled as scaled
from rulesdsl.semantics.tables import shifted_column as shifted_column
from rulesdsl.semantics.tables import step_value as step_value
from rulesdsl.semantics.tables import trigger_shift as trigger_shift
from rulesdsl.semantics.tables import trigger_shifts as trigger_shifts
from rulesdsl.semantics.tables import whole as whole


@dataclass(frozen=True, slots=False)
class Unfilled:
    """A cost that needs the scenario parameter ``param``, which the ruleset leaves open."""

    param: str


def per_distance(value: ir.Value, params: Mapping[str, float | None]) -> Answer | Unfilled:
    """A resolved cost per distance unit: a number, a marker, or the unfilled parameter."""
    match value:
        case ir.Number(value=v):
            return v
        case ir.Rate(amount=a, per=p):
            return a.value / p.value
        case ir.ParamRate(amount=a, param=name):
            filled = params.get(name)
            return Unfilled(name) if not filled else a.value / filled
        case ir.Same(resolved=resolved):
            return per_distance(resolved, params)
        case ir.Marker():
            return value
        case ir.OnceCost():
            return 0.0  # paid once per move: see once_cost
        case ir.NonCost():
            raise ValueError(f"not a movement cost: {value!r}")
        case _:
            assert_never(value)


def param_values(rs: ir.Ruleset) -> dict[str, float | None]:
    """Each scenario parameter's number, None while unfilled."""
    return {p.id: p.value.value if isinstance(p.value, ir.Number) else None for p in rs.params}


def counted(rs: ir.Ruleset, names: Sequence[str]) -> tuple[str, ...]:
    """The names that count in a place: a feature that ignores others silences the other
    features there; whole-map conditions and modifier factors still count."""
    features = known.of(rs).features
    if not any(n in features and features[n].ignores_others for n in names):
        return tuple(names)
    whole_map = known.of(rs).whole_layers
    return tuple(
        n
        for n in names
        if n not in features or features[n].ignores_others or features[n].layer in whole_map
    )


def move_cost(
    rs: ir.Ruleset,
    mode: str,
    features: Sequence[str],
    distance: float = 1,
    allowance: float | None = None,
    inputs: Mapping[str, float] | None = None,
) -> Answer | Unfilled:
    """The stacking policy ``sum``: the entry cost plus every counted feature's cost per
    distance unit, times the distance; prohibited before impassable. Then the costs paid once
    per move (:func:`plus_once`): flat costs, shares of ``allowance``, steps' answers for
    ``inputs``. No ``allowance``: the unit type's own, if it has one (issue 40)."""
    if allowance is None:
        allowance = next((m.allowance for m in rs.modes if m.id == mode), None)
    match rs.stacking:
        case "sum":
            summed = summed_per_distance(rs, mode, counted(rs, features))
        case _:
            assert_never(rs.stacking)
    if not isinstance(summed, float | int):
        return summed
    total = (rs.entry_cost + summed) * distance
    return plus_once(rs, mode, features, total, allowance, inputs or {})


def summed_per_distance(rs: ir.Ruleset, mode: str, names: Iterable[str]) -> Answer | Unfilled:
    """The features' costs per distance unit added up: PROHIBITED as soon as one prohibits,
    else IMPASSABLE when one is impassable; an unfilled parameter stops the sum."""
    by_id = known.of(rs).features
    params = param_values(rs)
    total: float = 0
    impassable = False
    for name in names:
        if name not in by_id:  # a dice outcome whose effects feed the cost (issue 24)
            total += semantics_effects.outcome_values(rs, semantics_effects.COST).get(name, 0)
            continue
        cost = per_distance(by_id[name].costs[mode], params)
        match cost:
            case Unfilled():
                return cost
            case ir.Marker(marker="prohibited"):
                return PROHIBITED
            case ir.Marker():
                impassable = True
            case float() | int():
                total += cost
            case _:
                assert_never(cost)
    return IMPASSABLE if impassable else total


# ---- costs paid once per move (issue 11) ----------------------------------------------------


class MissingArgument(LookupError):
    """A cost needs an argument that the question did not give: ``allowance`` for a share,
    a step's input (``height``) for a step cost."""

    def __init__(self, argument: str) -> None:
        super().__init__(argument)
        self.argument = argument


def share_of(share: ir.Share, allowance: float) -> float:
    """``share N/D`` of an allowance, less ``but`` (never below 0)."""
    part = allowance * share.numerator / share.denominator
    return max(0.0, part - share.but.value) if share.but is not None else part


def once_cost(
    rs: ir.Ruleset,
    value: ir.Value,
    allowance: float | None,
    inputs: Mapping[str, float],
) -> Answer:
    """What a cost that is not per distance adds to a move, once: a flat amount, a share of
    the unit's ``allowance``, or a step's answer for its input in ``inputs``; 0 for a cost per
    distance (see :func:`per_distance`). Raises :class:`MissingArgument`."""
    match value:
        case ir.Flat(amount=amount):
            return amount.value
        case ir.Share():
            if allowance is None:
                raise MissingArgument("allowance")
            return share_of(value, allowance)
        case ir.StepCost(step=name):
            step = next(s for s in rs.steps if s.id == name)
            if step.param not in inputs:
                raise MissingArgument(step.param)
            return step_value(step, inputs[step.param])
        case ir.Same(resolved=resolved):
            return once_cost(rs, resolved, allowance, inputs)
        case ir.Number() | ir.Marker() | ir.PerDistance() | ir.NonCost():
            return 0.0
        case unknown:
            assert_never(unknown)


def is_once(value: ir.Value) -> bool:
    """Whether a cost is paid once per move (flat, share, step) rather than per distance."""
    match value:
        case ir.Same(resolved=resolved):
            return is_once(resolved)
        case ir.OnceCost():
            return True
        case ir.Number() | ir.Marker() | ir.PerDistance() | ir.NonCost():
            return False
        case _:
            assert_never(value)


def plus_once(
    rs: ir.Ruleset,
    mode: str,
    features: Sequence[str],
    per_distance_total: float,
    allowance: float | None,
    inputs: Mapping[str, float],
) -> Answer:
    """A move's per-distance total (entry and costs, times the distance) plus the costs paid
    once per move: flat costs, shares of ``allowance``, step answers for ``inputs``. A step
    that answers impassable makes the place impassable."""
    by_id = known.of(rs).features
    total = per_distance_total
    for name in counted(rs, features):
        if name not in by_id:  # a dice outcome: its cost is per distance
            continue
        once = once_cost(rs, by_id[name].costs[mode], allowance, inputs)
        if isinstance(once, ir.Marker):
            return once
        total += once
    return total


# ---- modifiers ------------------------------------------------------------------------------


def modifier(
    rs: ir.Ruleset,
    name: str,
    items: Sequence[str],
    context: str = "",
    given: Mapping[str, float] | None = None,
    context2: str = "",
    lines: Mapping[str, Sequence[Sequence[str]]] | None = None,
    state: Mapping[str, int] | None = None,
) -> Answer:
    """The modifier ``name`` over ``items``: combinations present first (a marker replaces the
    total), then the bands ``state`` is in (:func:`band_values`), then each counted item's
    value for the context values (:func:`context_value`); a ``given`` value is the one the
    caller gives for that item, and it counts whether or not the item is also named. A value
    that is a step (``step gravity_to_hit``) is the step's answer for its input, which
    ``given`` holds by the input's name (:class:`MissingArgument` when it does not). A factor
    read along a line of sight (``sight line : haze``) is the rule's hindrance along the
    places ``lines`` gives it, or ``blocked`` when that line is blocked; it counts once its
    line is given. The contributions combine by the modifier's policy and clamp
    (:func:`combined`)."""
    mod = next(m for m in rs.modifiers if m.id == name)
    present = counted(rs, items)
    present += tuple(  # a value the caller gives counts, its factor named or not
        f
        for f in (given or {})
        if f not in present and isinstance(context_value(mod, f, context, context2), ir.Given)
    )
    sights = {
        f.id: sight_factor(rs, f, (lines or {})[f.id]) for f in mod.sights if f.id in (lines or {})
    }
    missing = [i for i in present if i in {f.id for f in mod.sights} and i not in sights]
    if missing:
        raise MissingArgument(missing[0])
    present += tuple(f for f in sights if f not in present)
    match mod.combine:
        case "once":
            present = tuple(dict.fromkeys(present))
        case "sum" | "highest" | "lowest":
            pass
        case _:
            assert_never(mod.combine)
    parts: list[float] = []
    for combo in mod.combinations:
        if set(combo.members) <= set(present):
            value = _number_or_marker(combo.value)
            if isinstance(value, ir.Marker):
                return value
            parts.append(value)
    for band in band_values(mod, state):
        if isinstance(band, ir.Marker):
            return band
        parts.append(band)
    itemised: list[tuple[str, float]] = []  # each item's value, for its best group
    for item in present:
        if item in sights:
            seen = sights[item]
            if isinstance(seen, ir.Marker):
                return seen
            itemised.append((item, seen))
            continue
        chosen = context_value(mod, item, context, context2)
        match chosen:
            case None:
                continue
            case ir.Given():  # KeyError: the caller did not give it
                value = (given or {})[item]
            case ir.StepCost(step=name):  # the step's answer for its input, given by name
                step = next(s for s in rs.steps if s.id == name)
                if step.param not in (given or {}):
                    raise MissingArgument(step.param)
                value = step_value(step, (given or {})[step.param])
            case (
                ir.Number()
                | ir.Marker()
                | ir.Same()
                | ir.PerDistance()
                | ir.NonCost()
                | ir.OnceCost()
            ):
                value = _number_or_marker(chosen)
            case _:
                assert_never(chosen)
        if isinstance(value, ir.Marker):
            return value
        itemised.append((item, value))
    return combined(mod, parts + best_of(mod, itemised))


def sight_factor(rs: ir.Ruleset, factor: ir.SightFactor, line: Sequence[Sequence[str]]) -> Answer:
    """A factor read along a line of sight: its rule's hindrance along ``line`` (the firer's
    place first), or ``blocked`` when the line is blocked (issue 40, item 7)."""
    rule = next(r for r in rs.sights if r.id == factor.rule)
    seen = line_of_sight(rs, rule, line)
    return BLOCKED if seen.blocked else seen.hindrance


def band_values(mod: ir.Modifier, state: Mapping[str, int] | None) -> list[float | ir.Marker]:
    """The values of ``mod``'s bands (``when altitude above 6 | +1``, issue 40) that ``state``
    is in: strictly below or above the bound. A modifier with bands needs the state
    (:class:`MissingArgument`)."""
    if not mod.bands:
        return []
    if state is None:
        raise MissingArgument("state")
    return [
        _number_or_marker(b.value)
        for b in mod.bands
        if (state[b.state] < b.bound if b.side == "below" else state[b.state] > b.bound)
    ]


def with_totals(
    rs: ir.Ruleset, decision: ir.Decision, given: Mapping[str, float | bool | str | Sequence[str]]
) -> dict[str, float | bool | str]:
    """The inputs of ``decision`` as its rows read them: each input typed by a modifier's
    name (``mods to_hit``, issue 40) is given as that modifier's items and read as their total
    (:func:`modifier`; E432 leaves such a modifier no marker); the others as given."""
    out: dict[str, float | bool | str] = {}
    for p in decision.params:
        match given.get(p.name):
            case None:
                continue
            case float() | int() | bool() | str() as value if p.total_of is None:
                out[p.name] = value
            case (list() | tuple()) as items if p.total_of is not None:
                total = modifier(rs, p.total_of, tuple(items))
                if isinstance(total, ir.Marker):
                    raise ValueError(f"{p.total_of!r} gives {total.marker!r}, not a number")
                out[p.name] = total
            case value:
                raise TypeError(f"input {p.name!r} cannot be {value!r}")
    return out


def best_of(mod: ir.Modifier, itemised: Sequence[tuple[str, float]]) -> list[float]:
    """The values to combine: an item outside every best group gives its own; of the items
    of a best group present, only the best (highest or lowest) counts, once (issue 25)."""
    group_of = {m: g for g in mod.best for m in g.members}
    out: list[float] = []
    kept: dict[str, float] = {}
    for item, value in itemised:
        group = group_of.get(item)
        if group is None:
            out.append(value)
            continue
        match group.combine:
            case "highest":
                kept[group.id] = max(kept.get(group.id, value), value)
            case "lowest":
                kept[group.id] = min(kept.get(group.id, value), value)
            case _:
                assert_never(group.combine)
    return out + list(kept.values())


def step_inputs(rs: ir.Ruleset, mod: ir.Modifier) -> dict[str, tuple[str, ...]]:
    """The inputs of the steps that values of ``mod`` are (``step gravity_to_hit``), each
    with the items whose value is such a step: a caller gives the input by name."""
    params = {s.id: s.param for s in rs.steps}
    out: dict[str, list[str]] = {}
    for item, by_key in mod.values.items():
        for value in by_key.values():
            if isinstance(value, ir.StepCost) and value.step in params:
                users = out.setdefault(params[value.step], [])
                if item not in users:
                    users.append(item)
    return {k: tuple(v) for k, v in out.items()}


def context_value(mod: ir.Modifier, item: str, first: str, second: str = "") -> ir.Value | None:
    """What ``item`` gives the modifier for these context values: the combination of both
    (``a & b``), else a single value of either (checks make two that disagree an error),
    else the value for all."""
    for pair in mod.pairs.get(item, ()):
        if pair.first == first and pair.second == second:
            return pair.value
    by_context = mod.values.get(item, {})
    if first and first in by_context:
        return by_context[first]
    if second and second in by_context:
        return by_context[second]
    return by_context.get("")


def combined(mod: ir.Modifier, parts: Sequence[float]) -> float:
    """The contributions under the modifier's policy, then clamped: ``sum`` and ``once`` add
    them up (``once`` has already dropped repeated sources), ``highest`` and ``lowest`` keep
    one (0 when there is none)."""
    total: float
    match mod.combine:
        case "sum" | "once":
            total = sum(parts, 0.0)
        case "highest":
            total = max(parts, default=0.0)
        case "lowest":
            total = min(parts, default=0.0)
        case _:
            assert_never(mod.combine)
    if mod.clamp is not None:
        total = max(mod.clamp.low, min(mod.clamp.high, total))
    return total


def _number_or_marker(value: ir.Value) -> Answer:
    match value:
        case ir.Number(value=v):
            return v
        case ir.Marker():
            return value
        case ir.Same(resolved=resolved):
            return _number_or_marker(resolved)
        case ir.PerDistance() | ir.OnceCost() | ir.NonCost():
            raise ValueError(f"not a modifier value: {value!r}")
        case unknown:
            assert_never(unknown)


# ---- steps ----------------------------------------------------------------------------------


# ---- decisions ------------------------------------------------------------------------------


# ---- dice -----------------------------------------------------------------------------------


# ---- line of sight and results tables (issue 11, items 9 and 10) ----------------------------


def sight_value(
    rs: ir.Ruleset, feature: ir.Feature, cell: ir.Cell, mode: str | None
) -> ir.Value | None:
    """What ``feature``'s sight cell gives a viewer of unit type ``mode``: as for costs
    (:func:`written_cost`: its own value, else its first keyword's by the feature's order,
    :func:`place_order`, else the value for everyone); the value for everyone when no unit type
    is given."""
    if mode is None:
        return cell.default
    lines = known.of(rs).order(feature)
    return written_cost(cell, mode, rs.groups, lines, editions.unnamed_keyword_counts(rs.edition))


def place_hindrance(
    rs: ir.Ruleset,
    rule: ir.Sight,
    features: Sequence[str],
    crossed: float | None = None,
    mode: str | None = None,
) -> Answer:
    """One place's hindrance: its features' values added up (``counted`` applies, so a
    feature that ignores the others stands alone), a dice outcome given among them adding
    the value its effects feed the rule, or BLOCKED if one of them blocks. A whole-map
    condition adds nothing here: it counts once for the line (:func:`line_hindrance`). A step
    cell answers for ``crossed``, the length of line inside the place (a step answer that is
    a marker blocks too). Raises :class:`MissingArgument` for a step cell without it. A cell
    keyed by unit type or keyword gives the viewer ``mode`` its value (:func:`sight_value`)."""
    by_id = known.of(rs).features
    conditions = semantics_effects.whole_map(rs)
    total: float = 0
    for name in counted(rs, features):
        if name in conditions:  # a whole-map condition counts once per line (issue 24)
            continue
        if name not in by_id:  # a dice outcome whose effects feed the rule
            total += semantics_effects.outcome_values(rs, rule.id).get(name, 0)
            continue
        cell = by_id[name].cells.get(rule.id)
        value: Answer | ir.Value | None = sight_value(rs, by_id[name], cell, mode) if cell else None
        if isinstance(value, ir.StepCost):
            if crossed is None:
                raise MissingArgument("crossed")
            value = step_value(next(s for s in rs.steps if s.id == value.step), crossed)
        amount = _hindrance(value)
        if amount is None:
            return BLOCKED
        total += amount
    return total


def _hindrance(value: Answer | ir.Value | None) -> float | None:
    """What a sight cell's value (or its step's answer) adds to a line: None when it blocks;
    a value that is not a number adds nothing."""
    match value:
        case ir.Marker():
            return None
        case ir.Number(value=number):
            return number
        case float() | int():
            return value
        case None | ir.Same() | ir.PerDistance() | ir.NonCost() | ir.OnceCost():
            return 0
        case _:
            assert_never(value)


def line_hindrance(
    rs: ir.Ruleset, rule: ir.Sight, conditions: Sequence[str], mode: str | None = None
) -> Answer:
    """What the conditions of a line (whole-map conditions, or dice outcomes given for the
    line) add to it once: their values added up, or BLOCKED if one blocks (issue 24)."""
    by_id = known.of(rs).features
    outcomes = semantics_effects.outcome_values(rs, rule.id)
    total: float = 0
    for name in conditions:
        if name not in by_id:  # an outcome given as a condition of the line
            total += outcomes.get(name, 0)
            continue
        cell = by_id[name].cells.get(rule.id)
        amount = _hindrance(sight_value(rs, by_id[name], cell, mode) if cell else None)
        if amount is None:
            return BLOCKED
        total += amount
    return total


def line_of_sight(
    rs: ir.Ruleset,
    rule: ir.Sight,
    places: Sequence[Sequence[str]],
    crossed: Sequence[float] | None = None,
    mode: str | None = None,
    conditions: Sequence[str] = (),
    state: Mapping[str, int] | None = None,
) -> SightLine:
    """The line from the firer's place (first) to the target's (last): the counted places'
    hindrance adds up; the line is blocked once it reaches ``blocks_at`` (passes it, for a
    rule that ``blocks above``) or when a counted place blocks by itself. ``crossed``: the
    length of line inside each place, for the step cells of a rule with ``crossed``.
    ``mode``: the viewer's unit type, for cells keyed by unit type or keyword. With
    ``target_inside``, the target's place adds to the hindrance (and blocks when it is
    ``blocked``) but not to the total ``blocks_at`` tests. A whole-map condition, given in
    ``conditions`` or in any place, adds its value once to the line (to the hindrance and to
    what ``blocks_at`` tests), in no place's own value (issue 24). A rule with a band of a
    state counts only while the viewer's ``state`` is in it (:func:`sight_in_band`)."""
    if not sight_in_band(rule, state):
        return SightLine(0, False, tuple(0 for _ in places))
    counted_at = set(counted_places(rule, len(places)))
    inside = len(places) - 1 if rule.target_inside and len(places) > 1 else None
    by_place: list[float | ir.Marker] = []
    total: float = 0
    through: float = 0
    blocked = False
    once = line_hindrance(rs, rule, semantics_effects.line_conditions(rs, places, conditions), mode)
    if isinstance(once, ir.Marker):
        blocked = True
    else:
        total = through = once
    for i, place in enumerate(places):
        if i not in counted_at and i != inside:
            by_place.append(0)
            continue
        length = crossed[i] if crossed is not None else None
        value = place_hindrance(rs, rule, place, length, mode)
        by_place.append(value)
        if isinstance(value, ir.Marker):
            blocked = True
        else:
            total += value
            if i != inside:
                through += value
    if rule.blocks_at is not None and _past(rule, through, rule.blocks_at):
        blocked = True
    return SightLine(total, blocked, tuple(by_place))


def sight_in_band(rule: ir.Sight, state: Mapping[str, int] | None) -> bool:
    """Whether ``rule`` counts for a viewer in ``state``: always without a band (``when
    altitude below 5``, issue 40); with one, while the state is strictly below or above the
    bound (:class:`MissingArgument` without a state)."""
    if rule.state is None:
        return True
    if state is None:
        raise MissingArgument("state")
    name, side, bound = rule.state
    return state[name] < bound if side == "below" else state[name] > bound


def _past(rule: ir.Sight, through: float, threshold: float) -> bool:
    """Whether a line seen through ``through`` of hindrance is blocked by the threshold:
    reaching it (``blocks at``) or passing it (``blocks above``, issue 40)."""
    match rule.blocks_when:
        case "at":
            return through >= threshold
        case "above":
            return through > threshold
        case _:
            assert_never(rule.blocks_when)
