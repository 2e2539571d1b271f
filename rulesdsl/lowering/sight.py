"""Lowering of line-of-sight rules and results tables (issue 11, items 9 and 10).

Kept apart from :mod:`rulesdsl.lowering.lower`, which calls these functions with itself: they
use its error list, labels, value checks and position table. What the IR then means is in
:mod:`rulesdsl.semantics`; misuse that needs the whole IR (columns that overlap, a natural roll
the dice cannot make, coverage) is found by :mod:`rulesdsl.checks.results`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar, assert_never

from rulesdsl import ir, words
from rulesdsl.diagnostics import did_you_mean
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering import keywords, states
from rulesdsl.lowering.context import Context
from rulesdsl.positions import item_field
from rulesdsl.semantics import effects as semantics_effects

_T = TypeVar("_T")


COUNTS = words.SIGHT_COUNTS
"""Which places of a line a sight rule counts (see :class:`rulesdsl.ir.Sight`)."""


def sight(lw: Context, decl: s.SightDecl) -> ir.Sight:
    counts: ir.SightCounts = "between"
    if decl.counts is not None:
        written = next((c for c in COUNTS if c == decl.counts.text), None)
        if written is not None:
            counts = written
        else:
            lw.err(
                "E251",
                f"a sight rule counts between, target or both, not '{decl.counts.text}'",
                decl.counts.pos,
                did_you_mean(decl.counts.text, COUNTS)
                or "between: the places in between; target: and the target's; both: and both ends",
            )
    blocks_at = None
    if decl.blocks_at is not None:
        number = lw.number(decl.blocks_at, None)
        if number is not None:
            blocks_at = float(number.value)
    crossed = decl.crossed.text if decl.crossed is not None else None
    inside = decl.inside is not None
    if decl.inside is not None and _counts_target(counts):
        lw.err(
            "E263",
            f"sight rule '{decl.item.name.text}' counts the target's place already: "
            "`target inside` is for a rule that counts between",
            decl.inside,
            "write `counts between, target inside` (the target's place adds to the hindrance "
            "but not to what blocks), or `counts target` alone",
        )
        inside = False
    rule = ir.Sight(
        decl.item.name.text,
        lw.info(decl.item),
        blocks_at,
        counts,
        crossed,
        inside,
        "above" if decl.above else "at",
    )
    if decl.band is not None:
        rule = replace(rule, state=states.band(lw, *decl.band, code="E463"))
    lw.where.record(rule, decl.item.name.pos)
    if decl.inside is not None:
        lw.where.record(rule, decl.inside, "target_inside")
    if decl.blocks_at is not None:
        lw.where.record(rule, decl.blocks_at.pos, "blocks_at")
    if decl.crossed is not None:
        lw.where.record(rule, decl.crossed.pos, "crossed")
    return rule


def _counts_target(counts: ir.SightCounts) -> bool:
    """Whether a rule that counts so counts the target's place but not the firer's."""
    match counts:
        case "target":
            return True
        case "between" | "both":
            return False
        case _:
            assert_never(counts)


def sight_cell(lw: Context, column: str, cell: s.CellNode, feature: str = "") -> ir.Cell:
    """A layer cell of a sight column: a number, ``blocked`` or ``step NAME`` (the step's
    answer for the length of line inside the place), for everyone and keyed by the viewer's
    unit type or keyword (``2, fly 0``: a flyer sees over it), resolved as costs are: the
    unit's own value, else its first keyword's by ``precedence`` (E232 when two disagree with
    none between them; W262 where a lower keyword's value is taken)."""
    default: ir.Value | None = None
    exceptions: dict[str, ir.Value] = {}
    for entry in cell.entries:
        if entry.key is not None and entry.key2 is not None:
            lw.err(
                "E252",
                f"a '{column}' value is keyed by one unit type or keyword, not by "
                f"'{entry.key.text} & {entry.key2.text}'",
                entry.key.pos,
                "write `<unit type or keyword> <value>`, e.g. `2, fly 0`",
            )
            continue
        value = lw.value(
            entry.value, ("number", "blocked", "step_cost"), f"the sight column '{column}'"
        )
        if isinstance(value, ir.StepCost) and not lw.symbols.require(
            s.Name(value.step, entry.value.pos), ("step",), "step"
        ):
            value = None
        if value is None:
            continue
        if entry.key is None:
            default = value
        elif lw.symbols.require(entry.key, ("mode", "group"), "unit type or keyword"):
            if entry.key.text in exceptions:
                lw.err(
                    "E262",
                    f"'{entry.key.text}' has two values in the '{column}' cell of '{feature}'",
                    entry.key.pos,
                    "give each unit type or keyword one value",
                )
            exceptions[entry.key.text] = value
    everyone = default is not None
    _, ambiguous = keywords.expand_groups(
        exceptions, lw.modes, lw.group_list, lw.order_of(feature), everyone and lw.unnamed
    )
    where = f"the {column} value of '{feature}'"
    for mode, pair in ambiguous:
        message, hint = keywords.ambiguity_message(where, mode, pair, lw.notation(cell.pos.file))
        lw.err("E232", message, cell.pos, hint)
    for mode, pair in keywords.shadowed(
        exceptions, lw.modes, lw.group_list, lw.order_of(feature), everyone, lw.unnamed
    ):
        message, hint = keywords.shadow_message(where, mode, pair)
        lw.warn("W262", message, cell.pos, hint)
    return ir.Cell(default, exceptions)


def results_table(lw: Context, decl: s.DiceDecl) -> ir.ResultsTable:
    """A ``dice NAME : DICE by INPUT { column ...; outcome ...; natural ...; rows }``."""
    res = decl.results
    assert res is not None
    dice = decl.dice.value
    assert isinstance(dice, ir.DiceValue | ir.D66Value)  # the grammar's DICE token
    lw.where.record(dice, decl.dice.pos)
    name = decl.item.name
    if res.by is None:
        lw.err(
            "E257",
            f"results table '{name.text}' does not say what picks its column",
            name.pos,
            "add `by <input>` after the dice, e.g. `: 1d6 by odds`",
        )
    for row in decl.rows:
        lw.err(
            "E257",
            f"'{row.item.name.text}' is a plain dice row inside the results table '{name.text}'",
            row.item.name.pos,
            "a results row gives one outcome per column: `3-4 | ae | dr | de`",
        )
    modifiers = [dice_modifier(lw, mod, name.text, columns=True) for mod in decl.modifiers]
    _one_on_doubles(lw, decl.modifiers, name.text)
    columns = [_column(lw, col) for col in res.columns]
    rounding = _rounding(lw, res)
    seen: dict[str, s.Pos] = {}
    for named in [*(c.item.name for c in res.columns), *(o.name for o in res.outcomes)]:
        if named.text in seen:
            lw.err("E102", f"'{named.text}' is declared twice in '{name.text}'", named.pos)
        seen[named.text] = named.pos
    carried = dict(res.effects)
    outcomes = tuple(
        lw.at(
            _outcome(lw, o, carried.get(o.name.text)),
            o.name.pos,
        )
        for o in res.outcomes
    )
    declared = [o.id for o in outcomes]
    naturals = [_natural(lw, nat, name.text, declared) for nat in res.naturals]
    rows = [_result_row(lw, node, name.text, declared) for node in res.rows]
    table = ir.ResultsTable(
        name.text,
        lw.info(decl.item),
        dice,
        res.by.text if res.by is not None else "value",
        tuple(columns),
        outcomes,
        tuple(naturals),
        tuple(rows),
        tuple(modifiers),
        rounding,
    )
    lw.where.record(table, name.pos)
    if res.by is not None:
        lw.where.record(table, res.by.pos, "by")
    if res.rounding is not None:
        lw.where.record(table, res.rounding.pos, "rounding")
    return table


def _column(lw: Context, col: s.DiceColumnNode) -> ir.ResultColumn:
    """A results table's ``column``: its name and the value (odds, difference) it stands for."""
    number = lw.number(col.value, None)
    column = ir.ResultColumn(
        col.item.name.text,
        lw.info(col.item),
        col.bound,
        float(number.value) if number else 0,
        number.unit if number else None,
        col.ratio,
    )
    lw.where.record(column, col.item.name.pos)
    lw.where.record(column, col.value.pos, "value")
    return column


def _known_outcome(lw: Context, word: s.Name, table: str, declared: list[str]) -> None:
    """An outcome a row names is one the table declares (E254)."""
    if word.text not in declared:
        lw.err(
            "E254",
            f"'{word.text}' is not an outcome of '{table}'",
            word.pos,
            did_you_mean(word.text, declared) or f'declare it: `outcome {word.text} "..."`',
        )


def _natural(lw: Context, nat: s.NaturalNode, table: str, declared: list[str]) -> ir.NaturalRow:
    """``natural 12 ae``: a roll whose outcome the columns do not change (or change as said)."""
    for word in nat.by_column or (nat.outcome,):
        _known_outcome(lw, word, table, declared)
    natural = ir.NaturalRow(
        nat.roll,
        nat.outcome.text,
        lw.info_of({}, nat.extras),
        nat.at_least,
        tuple(w.text for w in nat.by_column),
    )
    lw.where.record(natural, nat.pos)
    for i, word in enumerate(nat.by_column):  # E253, a check, may point at one
        lw.where.record(natural, word.pos, item_field("outcomes", i))
    return natural


def _result_row(
    lw: Context, node: s.ResultRowNode, table: str, declared: list[str]
) -> ir.ResultRow:
    """``3-4 | ae | dr | de``: one outcome per column for the rolls ``low`` to ``high``."""
    for word in node.outcomes:
        _known_outcome(lw, word, table, declared)
    result_row = ir.ResultRow(
        node.low, node.high, tuple(o.text for o in node.outcomes), lw.info_of({}, node.extras)
    )
    lw.where.record(result_row, node.pos)
    for i, word in enumerate(node.outcomes):  # E253, a check, may point at one
        lw.where.record(result_row, word.pos, item_field("outcomes", i))
    return result_row


ROUNDINGS = words.ROUNDINGS


def _rounding(lw: Context, res: s.ResultsNode) -> ir.Rounding | None:
    """``round down`` or ``round up`` after ``by`` (issue 25); E320 for another word."""
    if res.rounding is None:
        return None
    written = next((r for r in ROUNDINGS if r == res.rounding.text), None)
    if written is None:
        lw.err(
            "E320",
            f"a value between two columns rounds down or up, not '{res.rounding.text}'",
            res.rounding.pos,
            did_you_mean(res.rounding.text, ROUNDINGS)
            or "`round down`: to the lower column (7:3 is 2:1); `round up`: to the higher",
        )
        return "down"  # the error is given; no follow-on for a table without a rounding
    return written


def dice_naturals(lw: Context, decl: s.DiceDecl) -> tuple[ir.NaturalRow, ...]:
    """``natural 12 major`` on a plain dice table (issue 25): the row a natural roll gives;
    E254 for a row the table does not have, E323 for outcomes per column (no columns here)."""
    rows = [r.item.name.text for r in decl.rows]
    out = []
    for nat in decl.naturals:
        if nat.by_column:
            lw.err(
                "E323",
                f"'{decl.item.name.text}' has no columns: a natural roll names one row",
                nat.by_column[0].pos,
                f"write `natural {nat.roll} ROW` or `natural {nat.roll} at least ROW`",
            )
            continue
        if nat.outcome.text not in rows:
            lw.err(
                "E254",
                f"'{nat.outcome.text}' is not a row of '{decl.item.name.text}'",
                nat.outcome.pos,
                did_you_mean(nat.outcome.text, rows) or "name one of the table's rows",
            )
            continue
        natural = ir.NaturalRow(
            nat.roll, nat.outcome.text, lw.info_of({}, nat.extras), nat.at_least
        )
        lw.where.record(natural, nat.pos)
        out.append(natural)
    return tuple(out)


def _outcome(lw: Context, o: s.Item, cell: s.CellNode | None) -> ir.Outcome:
    """A results table's outcome with its effects, some keyed by unit type (issue 40)."""
    plain = effects(lw, cell)
    return ir.Outcome(o.name.text, lw.info(o), None, plain, effects_by_unit(lw, cell, plain))


EFFECT_KINDS: tuple[words.ValueKind, ...] = (
    "number",
    "dice",
    "d66",
    "symbol",
    "flag",
    "text",
    "span",
)
"""What an effect of a dice row or of a results table's outcome may be."""


def effects(lw: Context, cell: s.CellNode | None) -> dict[str, ir.Value]:
    """A dice row's or an outcome's effects: ``name value`` pairs, or a name alone for a flag
    (``damage 1d6+3, ignites``); the entries keyed by unit type are :func:`effects_by_unit`'s."""
    out: dict[str, ir.Value] = {}
    for entry in cell.entries if cell else ():
        if entry.key2 is not None:
            continue
        if entry.key is None:
            word = entry.value.value
            if isinstance(word, s.Word):
                out[word.name.text] = ir.Flag(True)
            else:
                lw.err(
                    "E208",
                    "an effect is `name` or `name value`",
                    entry.value.pos,
                    "e.g. `damage 1d6+3` or `ignites`",
                )
            continue
        value = lw.value(entry.value, EFFECT_KINDS, "an effect")
        key = entry.key.text
        _near_feed(lw, entry.key)
        if key in out and (key == semantics_effects.COST or lw.symbols.kind_of(key) == "sight"):
            lw.err(  # an effect that feeds the cost or a sight rule, given twice (issue 24)
                "E352",
                f"'{key}' is given twice in these effects: the outcome adds to it once",
                entry.key.pos,
                f"give one value: `{key} +2`",
            )
        if value is not None:
            out[key] = value
    return out


def effects_by_unit(
    lw: Context, cell: s.CellNode | None, plain: dict[str, ir.Value]
) -> dict[str, dict[str, ir.Value]]:
    """The effects keyed by unit type or keyword (``damage 2, damage & infantry 3``): effect ->
    key -> value (issue 40). E473: the key is no unit type or keyword; E474: the effect has no
    value for everyone in the cell; E475: the same pair twice; E476: the effect feeds the cost,
    a sight rule or a modifier, which read no unit type."""
    out: dict[str, dict[str, ir.Value]] = {}
    for entry in cell.entries if cell else ():
        if entry.key is None or entry.key2 is None:
            continue
        name, unit = entry.key, entry.key2
        value = lw.value(entry.value, EFFECT_KINDS, "an effect")
        if lw.symbols.kind_of(unit.text) not in ("mode", "group"):
            units = lw.symbols.names("mode", "group")
            lw.err(
                "E473",
                f"'{unit.text}' is not a unit type or keyword: an effect is keyed by one",
                unit.pos,
                did_you_mean(unit.text, units)
                or f"e.g. `{name.text} & {units[0] if units else 'infantry'} 3`",
            )
        elif name.text not in plain:
            lw.err(
                "E474",
                f"the effect '{name.text}' is keyed by unit type but has no value for everyone",
                name.pos,
                f"give it first: `{name.text} 2, {name.text} & {unit.text} ...`",
            )
        elif unit.text in out.get(name.text, {}):
            lw.err(
                "E475",
                f"'{name.text} & {unit.text}' is given twice in these effects",
                unit.pos,
                "give one value",
            )
        elif name.text in _fed_names(lw):
            lw.err(
                "E476",
                f"the effect '{name.text}' feeds another rule, which reads it for every unit",
                unit.pos,
                f"give '{name.text}' one value; or rename the effect if it is only data",
            )
        elif value is not None:
            out.setdefault(name.text, {})[unit.text] = value
    return out


def _fed_names(lw: Context) -> tuple[str, ...]:
    """The effect names that feed another rule: the cost, a sight rule or a modifier."""
    return (semantics_effects.COST, *lw.symbols.names("sight", "modifier"))


def _near_feed(lw: Context, key: s.Name) -> None:
    """W350: an effect named nearly like ``cost``, a sight rule or a modifier (``cots +1``,
    ``defense +1``) feeds nothing; most likely a slip (issue 24). E355: one named after a roll
    (``bog_woods +1``), which an outcome cannot feed (issue 39)."""
    fed = [semantics_effects.COST, *lw.symbols.names("sight", "modifier")]
    if key.text in fed:
        return
    if lw.symbols.kind_of(key.text) == "roll rule":
        lw.err(
            "E355",
            f"the effect '{key.text}' names a roll: an outcome's effect feeds the cost, a "
            f"sight rule or a modifier (here: {', '.join(fed)}), never a roll",
            key.pos,
            f"a whole-map condition's value in the '{key.text}' column adds to the roll's "
            "modifier; or rename the effect if it is only data",
        )
        return
    import difflib  # only for this error: not part of every run's start-up (issue 44)

    near = difflib.get_close_matches(key.text, fed, n=1, cutoff=0.75)
    if near:
        lw.warn(
            "W350",
            f"the effect '{key.text}' feeds nothing: did you mean '{near[0]}'?",
            key.pos,
            f"write `{near[0]}` to feed it, or rename the effect if it is only data",
        )


def _one_on_doubles(lw: Context, mods: Sequence[s.DiceModifierNode], table: str) -> None:
    """E342 for a second modifier ``on doubles`` in a table (the dice show doubles or not:
    one shift is theirs); W342 for a column shift named ``doubles`` without it, which the dice
    applied by its name before ``on doubles`` was written (issue 25)."""
    first: s.DiceModifierNode | None = None
    for mod in mods:
        if mod.on_doubles is not None:
            if first is None:
                first = mod
                continue
            lw.err(
                "E342",
                f"'{table}' already applies '{first.item.name.text}' on doubles",
                mod.on_doubles.pos,
                "doubles shift the column once: keep one modifier `on doubles`",
            )
        elif mod.shift is not None and mod.item.name.text == "doubles":
            lw.warn(
                "W342",
                "a column shift named 'doubles' is not applied by the dice without `on doubles`",
                mod.item.name.pos,
                f"write `modifier doubles ... shift {mod.shift.text} <N> on doubles` for the "
                "dice as rolled to apply it",
            )


def dice_modifier(
    lw: Context, mod: s.DiceModifierNode, table: str, *, columns: bool
) -> ir.DiceModifier:
    """A dice modifier: a whole number added to the roll, or on a results table a shift of
    the column (``shift left 1`` is -1, issue 25), which ``on doubles`` lets the dice as rolled
    apply: E324 for a direction other than left or right, E325 for a shift on a table with no
    columns, E343 for a negative count (a variant's override of the number)."""
    number = lw.number(mod.amount, None)
    if number is not None and not float(number.value).is_integer():
        lw.err("E209", "a dice modifier is a whole number", mod.amount.pos)
    amount = int(number.value) if number else 0
    shift = 0
    if mod.shift is not None:
        if not columns:
            lw.err(
                "E325",
                f"'{table}' has no columns for '{mod.item.name.text}' to shift",
                mod.shift.pos,
                f"a plain dice table's modifier adds to the roll: `modifier "
                f"{mod.item.name.text} -1`",
            )
        elif mod.shift.text not in ("left", "right"):
            lw.err(
                "E324",
                f"a column shift goes left or right, not '{mod.shift.text}'",
                mod.shift.pos,
                did_you_mean(mod.shift.text, ("left", "right")) or "e.g. `shift left 1`",
            )
        if amount < 0:  # only an override can give one: `shift left N` takes a count
            lw.err(
                "E343",
                f"a column shift counts columns: {amount} is not a count",
                mod.amount.pos,
                f"the number is how many columns the shift goes {mod.shift.text}, as the "
                "modifier says: 0 or more",
            )
        shift = -amount if mod.shift.text == "left" else amount
        amount = 0
    modifier = ir.DiceModifier(
        mod.item.name.text, lw.info(mod.item), amount, shift, mod.on_doubles is not None
    )
    return lw.at(modifier, mod.item.name.pos)
