"""Lowering of kinds of move and of the rolls the map makes due (issue 24).

Kept apart from :mod:`rulesdsl.lowering.lower`, which calls these functions with itself (its
error list, labels, value checks and position table). Cost cells keyed by a kind are read by
:mod:`rulesdsl.lowering.costs` as written; this module gathers each kind's entries, and
resolves each roll column per unit type and kind. What the IR then means is in
:mod:`rulesdsl.semantics.moves`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal, assert_never, get_args

from rulesdsl import ir, semantics, words
from rulesdsl.diagnostics import did_you_mean, warning
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering import keywords
from rulesdsl.lowering.context import Context, role_dimension
from rulesdsl.semantics.moves import written_roll
from rulesdsl.units import DIMENSIONS

_ROLL_WORDS: words.Total[ir.RollWhen, str] = words.total(
    ir.RollWhen,
    {
        "entering": "entering",
        "crossing": "crossing",
        "ending": "ending",
        "first_entering": "first entering",
        "any_step": "any step",
    },
)
ROLL_WHEN: dict[str, ir.RollWhen] = {said: when for when, said in _ROLL_WORDS.items()}
"""The words of ``on ...`` and what they mean (see :class:`rulesdsl.ir.RollRule`)."""

ROLL_COMBINE: tuple[ir.RollCombine, ...] = get_args(ir.RollCombine)


def own_allowance(lw: Context, given: s.Located) -> float | None:
    """``mode NAME allowance 6 in``: the unit type's own allowance, above 0 (E386)."""
    number = _in_cost_unit(lw, given, "a unit type's allowance", "allowance 6")
    if number is None:
        return None
    if number.value <= 0:
        lw.err(
            "E386",
            f"a unit type's own allowance is more than 0, not {number.value:g}",
            given.pos,
            "write the allowance the unit moves in a turn (`allowance 6 in`), or leave it out "
            "and pass one to each route call",
        )
        return None
    return float(number.value)


def _in_cost_unit(lw: Context, given: s.Located, what: str, written: str) -> ir.Number | None:
    """An allowance or an amount added to one: a number in the ruleset's cost unit. One in
    another unit of the same dimension is E203: an allowance is not converted."""
    cost_unit = lw.header.units.get("cost")
    dimension = role_dimension("cost", cost_unit)
    number = lw.number(given, dimension)
    if number is None or number.unit in (None, cost_unit):
        return number
    if DIMENSIONS.get(number.unit) == dimension:  # else E104 or E203 said already
        lw.err(
            "E203",
            f"{what} is in the cost unit '{cost_unit}', not '{number.unit}'",
            given.pos,
            f"write it in the cost unit: `{written} {cost_unit}`",
        )
    return None


def move_kind(lw: Context, decl: s.MoveDecl) -> ir.MoveKind:
    """``move NAME labels : allowance times F, allowance +N, not FEATURE ...``."""
    factor: float = 1
    amount: float = 0
    if decl.factor is not None:
        number = lw.number(decl.factor, None)
        if number is not None:
            if number.value <= 0:
                lw.err(
                    "E290",
                    f"a kind of move multiplies the allowance by more than 0, not {number.value:g}",
                    decl.factor.pos,
                    "write `allowance times 2` (twice the move) or `allowance times 0.5` (half)",
                )
            else:
                factor = float(number.value)
    if decl.amount is not None:
        number = _in_cost_unit(lw, decl.amount, "an amount added to the allowance", "allowance +3")
        if number is not None:
            amount = float(number.value)
    barred = []
    for name in decl.barred:
        if lw.symbols.require(name, ("feature",), "feature"):
            if name.text in barred:
                lw.err("E102", f"'{name.text}' is barred twice", name.pos)
            barred.append(name.text)
    only: list[str] = []
    for name in decl.only or ():
        if lw.symbols.require(name, ("mode", "group"), "unit type or keyword"):
            if name.text in only:
                lw.err("E102", f"'{name.text}' is named twice after `only`", name.pos)
            only.append(name.text)
    kind = ir.MoveKind(decl.item.name.text, lw.info(decl.item), factor, amount, tuple(barred))
    kind = replace(kind, only=tuple(only)) if only else kind
    lw.move_only[kind.id] = kind.only
    lw.where.record(kind, decl.item.name.pos)
    return kind


def _as_kind(cell: ir.Cell, kind: str) -> ir.Cell:
    """``cell`` as a unit making the move ``kind`` reads it: the kind's entry for the value
    for all, the other kinds' entries left out."""
    return ir.Cell(cell.exceptions[kind], dict(cell.exceptions))


def kind_costs(
    lw: Context, kinds: Sequence[ir.MoveKind], features: Sequence[ir.Feature]
) -> list[ir.MoveKind]:
    """Each kind with the costs per mode of the features whose cost cell has an entry for
    it: the kind's entry, for each mode that has no entry of its own or of a keyword (those
    keep theirs, and are left out)."""
    out = []
    for kind in kinds:
        costs: dict[str, dict[str, ir.Value]] = {}
        for feature in features:
            cell = lw.raw_costs.get(feature.id)
            if cell is None or kind.id not in cell.exceptions:
                continue
            value = cell.exceptions[kind.id]
            if isinstance(value, ir.OnceCost | ir.Same):
                lw.err(
                    "E294",
                    f"the cost of '{feature.id}' for the move '{kind.id}' is paid per "
                    "distance: a number, `impassable` or `prohibited`",
                    lw.cost_pos.get(feature.id),
                    "a kind of move changes what a place costs per distance; a flat or "
                    "share cost stays the unit's",
                )
                continue
            read = _as_kind(cell, kind.id)
            costs[feature.id] = {
                mode: value
                for mode in lw.modes
                if semantics.written_key(
                    {**read.exceptions, "": value},
                    mode,
                    lw.group_list,
                    lw.order_of(feature.id),
                    lw.unnamed,
                )
                == ""
            }
        node = replace(kind, costs=costs)
        lw.where.record(node, lw.where.of(kind))
        out.append(node)
    return out


def roll_rule(lw: Context, decl: s.RollDecl) -> ir.RollRule:
    """``roll NAME labels : DICE|TABLE on WHEN [combine POLICY]``, its values still empty."""
    said = " ".join(w.text for w in decl.when)
    when = ROLL_WHEN.get(said)
    if when is None:
        lw.err(
            "E291",
            f"a roll is due on entering, crossing, ending or first entering, not '{said}'",
            decl.when[0].pos if decl.when else decl.item.name.pos,
            did_you_mean(said, list(ROLL_WHEN))
            or "entering: a place; crossing: an edge; ending: the last place; "
            "first entering: a place the unit has not entered before",
        )
        when = "entering"
    combine: ir.RollCombine = "sum"
    if decl.combine is not None:
        chosen = next((c for c in ROLL_COMBINE if c == decl.combine.text), None)
        if chosen is None:
            lw.err(
                "E295",
                f"the values of a roll combine by sum, highest or lowest, not "
                f"'{decl.combine.text}'",
                decl.combine.pos,
                did_you_mean(decl.combine.text, ROLL_COMBINE)
                or "sum: every feature's value; highest or lowest: only one counts",
            )
        else:
            combine = chosen
    dice: ir.DiceRoll | None = None
    table: str | None = None
    if decl.dice is not None:
        value = decl.dice.value
        if isinstance(value, ir.DiceValue | ir.D66Value):
            dice = value
            lw.where.record(dice, decl.dice.pos)
    elif decl.table is not None and lw.symbols.require(decl.table, ("dice table",), "dice table"):
        table = decl.table.text
    rule = ir.RollRule(decl.item.name.text, lw.info(decl.item), when, dice, table, combine)
    if when == "any_step":
        _any_step(lw, decl)
    if decl.state is not None:
        rule = replace(rule, state=_roll_state(lw, *decl.state))
    lw.where.record(rule, decl.item.name.pos)
    lw.roll_when[rule.id] = when
    return rule


def _any_step(lw: Context, decl: s.RollDecl) -> None:
    """A roll ``on any step`` (issue 40) is due by a band of a state, not by the map: it needs
    ``when STATE below N`` (E480) and has no values to combine (E481)."""
    if decl.state is None:
        lw.err(
            "E480",
            f"the roll '{decl.item.name.text}' is due on any step, so only in a band of a state",
            decl.when[0].pos,
            "add the band after it: `on any step when speed below 2`",
        )
    if decl.combine is not None:
        lw.err(
            "E481",
            "a roll due on any step has no values from the map to combine",
            decl.combine.pos,
            "leave out `combine ...`",
        )


def _roll_state(
    lw: Context, name: s.Name, side: str, bound: s.Located
) -> tuple[str, Literal["below", "above"], int] | None:
    """``when STATE below N`` on a roll (issue 40): a declared state (E101) and a whole bound
    (E404)."""
    value = bound.value
    whole = isinstance(value, ir.Number) and value.value == int(value.value)
    if not whole:
        lw.err(
            "E404",
            "a roll's state bound is a whole number",
            bound.pos,
            "write `when altitude below 4`",
        )
    declared = lw.symbols.require(name, ("state",), "state")
    if not whole or declared is None or not isinstance(value, ir.Number):
        return None
    return (name.text, "below" if side == "below" else "above", int(value.value))


def check_roll_column(lw: Context, decl: s.LayerDecl, column: s.Name) -> None:
    """E292: a roll due on crossing in a layer of places, or on entering or ending in a layer
    of edges. A whole-map layer (weather) feeds a roll whenever it is due (issue 40)."""
    when = lw.roll_when.get(column.text)
    if when is None:
        return
    if when == "any_step":
        lw.err(
            "E482",
            f"the roll '{column.text}' is due on any step, wherever the unit is: no layer "
            "column makes it due",
            column.pos,
            f"leave '{column.text}' out of the layer's columns",
        )
        return
    edges = words.scope_on_edges(decl.scope)
    if edges != words.roll_on_edges(when) and not words.scope_whole_map(decl.scope):
        lw.err(
            "E292",
            f"the roll '{column.text}' is due on {when.replace('_', ' ')}, and "
            f"'{decl.item.name.text}' is a layer of {'edges' if edges else 'places'}",
            column.pos,
            "a roll on crossing belongs to an edge layer; on entering, ending or first "
            "entering, to a layer of places",
        )


def roll_cell(lw: Context, column: str, cell: s.CellNode, feature: str) -> ir.Cell:
    """A layer cell of a roll column of ``feature``: the roll's modifier for everyone (a
    number; ``no``: no roll; empty: no roll), then entries keyed by unit type, keyword or kind
    of move."""
    default: ir.Value | None = None
    exceptions: dict[str, ir.Value] = {}
    keys: dict[str, s.Name] = {}
    pairs: dict[tuple[str, str], ir.PairValue] = {}
    for entry in cell.entries:
        if entry.key is not None and entry.key2 is not None:  # the grammar gives it no state
            if (pair := _roll_pair(lw, column, entry)) is not None:
                if (pair.first, pair.second) in pairs:
                    lw.err(
                        "E434",
                        f"'{pair.first} & {pair.second}' is given twice in this cell",
                        entry.value.pos,
                        "keep one value for the pair",
                    )
                pairs[pair.first, pair.second] = pair
            continue
        if entry.state is not None or entry.along:
            lw.err(
                "E293",
                f"a '{column}' value is a roll's modifier or `no`, keyed by a unit type, "
                "keyword or kind of move, with no place state or `along`",
                entry.value.pos,
                "write `+1, wheeled +2, hover no, low & bomber +2`",
            )
            continue
        value = lw.value(entry.value, ("number", "flag"), f"the roll column '{column}'")
        if value is None:
            continue
        if entry.key is None:
            if default is not None:
                lw.err("E102", "a cell has one value for every unit", entry.value.pos)
            default = value
        elif lw.symbols.require(
            entry.key, ("mode", "group", "kind of move"), "mode, group or kind of move"
        ):
            if entry.key.text in exceptions:
                lw.err("E102", f"'{entry.key.text}' is given twice in this cell", entry.key.pos)
            exceptions[entry.key.text] = value
            keys[entry.key.text] = entry.key
    _check_roll_keys(lw, column, cell, default, exceptions, keys, lw.order_of(feature))
    for kind in dict.fromkeys(first for first, _ in pairs):
        paired = {second: p.value for (first, second), p in pairs.items() if first == kind}
        _check_roll_keys(lw, f"{column} ({kind})", cell, None, paired, {}, lw.order_of(feature))
    return ir.Cell(default, exceptions, tuple(pairs.values()))


def _roll_pair(lw: Context, column: str, entry: s.Entry) -> ir.PairValue | None:
    """``low & bomber +2`` in a roll cell (issue 40): the modifier of a unit of that type (or
    with that keyword) making that kind of move, in either order; E433 when the two keys are
    not one kind of move and one unit type or keyword."""
    assert entry.key is not None and entry.key2 is not None
    names = (entry.key, entry.key2)
    found = [
        lw.symbols.require(n, ("mode", "group", "kind of move"), "mode, group or kind of move")
        for n in names
    ]
    if not all(found):
        return None
    kinds = [n for n in names if lw.symbols.kind_of(n.text) == "kind of move"]
    if len(kinds) != 1:
        lw.err(
            "E433",
            f"a pair in the roll column '{column}' names one kind of move and one unit type or "
            f"keyword; '{names[0].text} & {names[1].text}' names "
            f"{'two kinds of move' if kinds else 'no kind of move'}",
            entry.key.pos,
            "write the kind of move and the unit: `low & bomber +2`",
        )
        return None
    unit = names[1] if kinds[0] is names[0] else names[0]
    if not _may_make(lw, kinds[0].text, unit.text):
        only = ", ".join(lw.move_only[kinds[0].text])
        lw.err(
            "E435",
            f"no unit of '{unit.text}' may make the move '{kinds[0].text}' (only {only}): "
            f"the pair '{names[0].text} & {names[1].text}' never applies",
            unit.pos,
            f"pair '{kinds[0].text}' with a unit that may make it, or leave the pair out",
        )
        return None
    value = lw.value(entry.value, ("number", "flag"), f"the roll column '{column}'")
    return None if value is None else ir.PairValue(kinds[0].text, unit.text, value)


def _may_make(lw: Context, kind: str, unit: str) -> bool:
    """Whether some unit type of ``unit`` (a unit type, or a keyword's members) may make the
    move ``kind``, as ``semantics.moves.may_make`` says of one unit type."""
    only = lw.move_only.get(kind, ())
    members = {g.id: g.members for g in lw.group_list}
    modes = members.get(unit, (unit,))
    return not only or any(n == m or m in members.get(n, ()) for m in modes for n in only)


def _check_roll_keys(
    lw: Context,
    column: str,
    cell: s.CellNode,
    default: ir.Value | None,
    exceptions: dict[str, ir.Value],
    keys: dict[str, s.Name],
    order: Sequence[Sequence[str]],
) -> None:
    """E232: two keywords of a unit that give it different values with no precedence between
    them, as in a cost cell. W291: in a cell that calls for no roll but on a kind of move's
    entry, a unit type's or keyword's entry that makes the roll due on every move (``no, low 0,
    bomber +1``: a bomber rolls at any height, its entry winning over the kind's)."""
    _, ambiguous = keywords.expand_groups(
        exceptions, lw.modes, lw.group_list, order, default is not None
    )
    for mode, pair in ambiguous:
        message, hint = keywords.ambiguity_message(
            f"the {column} value", mode, pair, lw.notation(cell.pos.file)
        )
        lw.err("E232", message, cell.pos, hint)
    kinds = [k for k in exceptions if _modifier_of(exceptions[k]) is not None]
    kinds = [k for k in kinds if lw.symbols.kind_of(k) == "kind of move"]
    if _modifier_of(default) is not None or not kinds:
        return
    units = {k: v for k, v in exceptions.items() if lw.symbols.kind_of(k) != "kind of move"}
    for mode in lw.modes:
        key = semantics.written_key(units, mode, lw.group_list, order)
        if key and _modifier_of(units[key]) is not None:
            lw.warn(
                "W291",
                f"'{key}' makes a {mode} roll {column} on every move, where the cell makes "
                f"it due for '{kinds[0]}' only: a unit type's or keyword's entry wins over a "
                "kind of move's",
                keys[key].pos,
                f"if a {mode} rolls on '{kinds[0]}' only, leave '{key}' out of the cell "
                f"(or give it `no`, and give '{kinds[0]}' its value)",
            )


def _modifier_of(value: ir.Value | None) -> float | None:
    """A roll cell's value as the roll's modifier: None for no roll (`no`, or nothing)."""
    match value:
        case ir.Number(value=number):
            return float(number)
        case ir.Flag(value=True):
            return 0.0
        case None | ir.Marker() | ir.Same() | ir.PerDistance() | ir.OnceCost() | ir.NonCost():
            return None
        case _:
            assert_never(value)


def resolved_rolls(
    lw: Context,
    rules: Sequence[ir.RollRule],
    features: Sequence[ir.Feature],
    kinds: Sequence[str],
) -> list[ir.RollRule]:
    """Each roll rule with its values per feature and mode (a mode's own entry, else its
    keyword's by precedence, else the value for all) and per kind of move."""
    out = []
    for rule in rules:
        values: dict[str, dict[str, float]] = {}
        by_move: dict[str, dict[str, dict[str, float]]] = {}
        for feature in features:
            cell = feature.cells.get(rule.id)
            if cell is None:
                continue
            per_mode = {}
            order = lw.order_of(feature.id)
            for mode in lw.modes:
                found = _modifier_of(
                    semantics.written_cost(cell, mode, lw.group_list, order, lw.unnamed)
                )
                if found is not None:
                    per_mode[mode] = found
            values[feature.id] = per_mode
            for kind in kinds:
                if kind in cell.exceptions or any(p.first == kind for p in cell.pairs):
                    moved = {}
                    for mode in lw.modes:
                        value = written_roll(cell, mode, kind, lw.group_list, order, lw.unnamed)
                        if (found := _modifier_of(value)) is not None:
                            moved[mode] = found
                    by_move.setdefault(kind, {})[feature.id] = moved
        node = replace(rule, values=values, by_move=by_move)
        lw.where.record(node, lw.where.of(rule))
        unused = not any(rule.id in f.cells for f in features) and rule.when != "any_step"
        if unused and lw.cap.admits("W290", None):
            lw.diags.append(
                warning(
                    "W290",
                    f"no layer has a '{rule.id}' column: the roll is never due",
                    lw.where.of(rule),
                    f"add it to a layer: `columns cost, {rule.id}`",
                )
            )
        out.append(node)
    return out


def outcome_effects(
    lw: Context, modifiers: Sequence[ir.Modifier], dice_tables: Sequence[ir.DiceTable]
) -> list[ir.Modifier]:
    """Effects that feed other rules (issue 24): a dice row whose effects name a declared
    modifier (``1- bogged "Bogged down" | defence +1``) makes its outcome an item of that
    modifier, worth that value, so ``modifier("defence", "clear", "bogged")`` counts it. The
    value is a number (E296), and the outcome's name is not already an item of the modifier
    (E296)."""
    by_id = {m.id: m for m in modifiers}
    added: dict[str, dict[str, dict[str, ir.Value]]] = {}
    for table in dice_tables:
        for row in table.rows:
            for key, value in row.effects.items():
                if key not in by_id:
                    continue
                pos = lw.where.of(row, table)
                if not isinstance(value, ir.Number):
                    lw.err(
                        "E296",
                        f"the outcome '{row.id}' adds to the modifier '{key}': that takes a number",
                        pos,
                        f"write `| {key} +1`",
                    )
                elif row.id in by_id[key].values or row.id in added.get(key, {}):
                    lw.err(
                        "E296",
                        f"'{row.id}' already gives the modifier '{key}' a value",
                        pos,
                        "rename the outcome, or give its value in one place only",
                    )
                else:
                    added.setdefault(key, {})[row.id] = {"": value}
    out = []
    for mod in modifiers:
        if mod.id in added:
            new = replace(mod, values={**mod.values, **added[mod.id]})
            lw.where.record(new, lw.where.of(mod))
            out.append(new)
        else:
            out.append(mod)
    return out


def _whole_bonus(lw: Context, given: s.Located) -> float:
    """The amount ``on road, allowance +4 in`` adds: in the cost unit (E203), above 0 (E421)."""
    number = _in_cost_unit(lw, given, "a whole-move bonus", "allowance +4")
    if number is not None and number.value <= 0:
        lw.err(
            "E421",
            f"a whole-move bonus adds more than 0 to the allowance, not {number.value:g}",
            given.pos,
            "write `on road, allowance +4 in`; a move that goes less far is a kind of move",
        )
    return float(number.value) if number is not None and number.value > 0 else 0.0


def whole_move(lw: Context, decl: s.WholeMoveDecl, facings: Sequence[ir.Facing]) -> ir.WholeMove:
    """``whole move NAME labels : crosses F [or G]``, ``... : at most N F [or G]`` or ``... : on
    F [or G], allowance +N``."""
    named: list[str] = []
    for name in decl.features:
        if lw.symbols.require(name, ("feature",), "feature"):
            if name.text in named:
                lw.err(
                    "E297",
                    f"'{name.text}' is named twice in one whole-move rule",
                    name.pos,
                    "name each feature once: a step that crosses any of them counts once",
                )
            named.append(name.text)
    found = decl.most.value if decl.most is not None else None
    number = found.value if isinstance(found, ir.Number) else -1.0
    most = int(number) if found is not None else None
    if decl.most is not None and not number == int(number) >= 0:
        most = 0  # one error, and the rule read as a limit still
        lw.err(
            "E299",
            "a whole-move limit is a whole number of steps, 0 or more",
            decl.most.pos,
            "write `at most 1 river` (YAML: `most: 1`)",
        )
    exact = [f.mode for f in facings if f.exact_speed]
    if decl.bonus is not None and exact:
        lw.err(
            "E493",
            f"a whole-move bonus beside a unit type that spends its speed exactly ({exact[0]})",
            decl.bonus.pos,
            "a unit with `exact speed` has no allowance to raise: give it a kind of move instead",
        )
    rule = ir.WholeMove(decl.item.name.text, lw.info(decl.item), tuple(named), most)
    if decl.bonus is not None:
        rule = replace(rule, bonus=_whole_bonus(lw, decl.bonus))
    lw.where.record(rule, decl.item.name.pos)
    return rule
