"""What kinds of move and the rolls the map makes due mean (issue 24): one home, read from
the IR, shared by the examples' checks, the Python backend's cross-check and the sheets.

A kind of move is a view of the rules: :func:`kind_view` gives the ruleset as a unit making
that move sees it (its barred features prohibited, its own cost entries in place), so every
question of :mod:`rulesdsl.semantics` (``move_cost``, ``route``, ``reachable``) answers for the
kind unchanged; :func:`kind_allowance` scales the unit's allowance.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import assert_never

from rulesdsl import ir, words
from rulesdsl.ir.records import dataclass
from rulesdsl.semantics import known
from rulesdsl.semantics.effects import whole_map
from rulesdsl.semantics.keywords import written_cost, written_key

_ROLL_RANK: words.Total[ir.RollWhen, int] = words.total(
    ir.RollWhen,
    {
        "crossing": 0,
        "entering": 1,
        "first_entering": 2,
        "ending": 3,
        "any_step": 4,
        "first_step": 5,
    },
)
_STEPPED: tuple[ir.RollWhen, ...] = ("any_step", "first_step")
"""The times a roll is due by a band of a state wherever the unit is, not by a place."""
ROLL_ORDER: tuple[ir.RollWhen, ...] = tuple(
    w for w in sorted(_ROLL_RANK, key=_ROLL_RANK.__getitem__) if w not in _STEPPED
)
"""The times a place makes a roll due, in the order a step makes them due; a roll ``on any
step``, then one ``on first step`` (issue 40), come after them, in the rules that have one
(:func:`roll_order`)."""


def roll_order(rs: ir.Ruleset) -> tuple[ir.RollWhen, ...]:
    """ROLL_ORDER, then ``any_step`` and ``first_step`` when a roll of ``rs`` is due so."""
    return ROLL_ORDER + tuple(w for w in _STEPPED if any(r.when == w for r in rs.rolls))


def kind_of(rs: ir.Ruleset, move: str) -> ir.MoveKind:
    """The kind of move ``move``; raises KeyError naming it."""
    for kind in rs.moves:
        if kind.id == move:
            return kind
    raise KeyError(f"'{move}' is not a kind of move")


def may_make(rs: ir.Ruleset, kind: ir.MoveKind, mode: str) -> bool:
    """Whether a unit of type ``mode`` may make the move ``kind`` (issue 40): every unit type
    when the kind names none after ``only``, else those it names and those with a keyword it
    names."""
    members = {g.id: g.members for g in rs.groups}
    return not kind.only or any(n == mode or mode in members.get(n, ()) for n in kind.only)


def kind_allowance(kind: ir.MoveKind, allowance: float | None) -> float | None:
    """The allowance of a unit making this move: its own times the factor, plus the amount."""
    return None if allowance is None else allowance * kind.factor + kind.amount


def kind_view(rs: ir.Ruleset, move: str) -> ir.Ruleset:
    """``rs`` as a unit making the move ``move`` sees it: each barred feature prohibits every
    unit; a feature with an entry for the kind costs that, unless the unit type or one of its
    keywords has its own entry (the unit keeps its keywords' values)."""
    kind = kind_of(rs, move)
    prohibited = ir.Marker("prohibited")
    features = []
    for f in rs.features:
        if f.id in kind.barred:
            f = replace(f, costs=dict.fromkeys(f.costs, prohibited))
        elif f.id in kind.costs:
            f = replace(f, costs={**f.costs, **kind.costs[f.id]})
        features.append(f)
    return replace(rs, features=tuple(features))


@dataclass(frozen=True, slots=False)
class Due:
    """A roll the map makes due: at ``step`` (1 for the first place entered), ``on`` (entering,
    crossing, ending, first_entering), the rule ``roll`` with its ``modifier`` and the
    ``features`` that call for it or add to it."""

    step: int
    on: ir.RollWhen
    roll: str
    modifier: float
    features: tuple[str, ...]


def _value(rule: ir.RollRule, feature: str, mode: str, move: str | None) -> float | None:
    if move is not None and feature in rule.by_move.get(move, {}):
        return rule.by_move[move][feature].get(mode)
    return rule.values.get(feature, {}).get(mode)


def written_roll(
    cell: ir.Cell,
    mode: str,
    move: str | None,
    groups: Sequence[ir.Group],
    precedence: Sequence[Sequence[str]] = (),
    unnamed: bool = True,
) -> ir.Value | None:
    """The value a roll cell as written gives ``mode`` making the move ``move`` (None: no kind
    of move): the more specific wins. A pair of the kind and the unit type (``low & bomber``),
    else of the kind and the unit's keyword that wins by precedence; else the unit's own entry
    or its keyword's; else the kind's entry; else the value for all (issue 40)."""
    if move is not None:
        paired = {p.second: p.value for p in cell.pairs if p.first == move}
        key = written_key(paired, mode, groups, precedence, False)
        if key is not None:
            return paired[key]
        if move in cell.exceptions:
            cell = ir.Cell(cell.exceptions[move], dict(cell.exceptions))
    return written_cost(cell, mode, groups, precedence, unnamed)


def place_roll(
    rs: ir.Ruleset, rule: ir.RollRule, mode: str, names: Sequence[str], move: str | None = None
) -> tuple[float, tuple[str, ...]] | None:
    """The roll ``rule`` for ``mode`` in a place (or on an edge) with ``names``: None when no
    feature there calls for it; else its modifier (the callers' values combined by the rule's
    policy, plus every whole-map condition's value) and the features that gave it. Features
    silenced by one that ignores the others do not count."""
    from rulesdsl.semantics import counted

    kept = known.of(rs)
    by_id, whole = kept.features, kept.whole_layers
    callers: list[tuple[str, float]] = []
    extra: list[tuple[str, float]] = []
    for name in counted(rs, names):
        if name not in by_id:
            continue
        value = _value(rule, name, mode, move)
        if value is None:
            continue
        (extra if by_id[name].layer in whole else callers).append((name, value))
    if not callers:
        return None
    values = [v for _, v in callers]
    match rule.combine:
        case "sum":
            total = sum(values)
        case "highest":
            total = max(values)
        case "lowest":
            total = min(values)
        case _:
            assert_never(rule.combine)
    total += sum(v for _, v in extra)
    return total, tuple(n for n, _ in (*callers, *extra))


def route_rolls(
    rs: ir.Ruleset,
    mode: str,
    steps: Sequence[tuple[Sequence[str], Sequence[str]]],
    move: str | None = None,
    places: Sequence[object] | None = None,
    conditions: Sequence[str] = (),
    entered: Iterable[object] = (),
) -> tuple[Due, ...]:
    """The rolls due along a route given as its steps (features of the place entered, of the
    edge crossed), in order: at each step the rolls on crossing, then on entering (and on
    first entering, when the place, by ``places`` (the start first) or else by index, was not
    entered before; the start counts as entered), then at the last step those on ending.
    ``conditions``: whole-map features that hold on every place; ``entered``: the places
    (as ``places`` names them) entered earlier in the game, so not first entered again."""
    whole = whole_map(rs)
    out: list[Due] = []
    seen: set[object] = {places[0], *entered} if places else set()
    last = len(steps)
    for i, (entered, crossed) in enumerate(steps, 1):
        key = places[i] if places is not None else i
        first = key not in seen
        seen.add(key)
        for when, names in (
            ("crossing", (*crossed, *conditions, *(n for n in entered if n in whole))),
            ("entering", (*entered, *conditions)),
            ("first_entering", (*entered, *conditions)),
            ("ending", (*entered, *conditions)),
            ("any_step", ()),
            ("first_step", ()),
        ):
            if when == "first_entering" and not first:
                continue
            if when == "ending" and i != last:
                continue
            for rule in rs.rolls:
                if rule.when != when:
                    continue
                if when in _STEPPED:  # issue 40: due wherever the unit is
                    out.append(Due(i, when, rule.id, 0.0, ()))
                    continue
                found = place_roll(rs, rule, mode, names, move)
                if found is not None:
                    out.append(Due(i, rule.when, rule.id, found[0], found[1]))
    return tuple(out)


__all__ = [
    "Due",
    "kind_allowance",
    "kind_of",
    "kind_view",
    "place_roll",
    "route_rolls",
    "written_roll",
]
