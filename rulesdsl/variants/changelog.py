"""A variant's changelog as data: the canonical text of each change's path, and the labels and
old -> new values the sheets print in the players' words.

:func:`path_text` spells an :class:`rulesdsl.ir.ChangePath` the way `rulesdsl diff` names the
same thing; :func:`annotate` fills each change's ``subject`` (labels), ``was`` and ``now`` from
the base's IR and the variant's, once both are compiled.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import assert_never

from rulesdsl import ir, spelling, words
from rulesdsl.examples import statements as examples_stated


def sight_threshold(when: ir.SightBound, at: float) -> ir.Text:
    """A sight rule's threshold as a change's value: ``blocks at 3``, ``blocks above 2`` (the
    override's spelling; a sheet words it with :func:`read_sight_threshold`)."""
    return ir.Text(f"blocks {when} {at:g}")


def read_sight_threshold(value: ir.Value | None) -> tuple[ir.SightBound, float] | None:
    """How and at what total a :func:`sight_threshold` value blocks (None for another value)."""
    found = _THRESHOLD.fullmatch(value.text) if isinstance(value, ir.Text) else None
    if found is None:
        return None
    return ("above" if found[1] == "above" else "at"), float(found[2])


_THRESHOLD = re.compile(r"blocks (at|above) (-?[0-9.]+(?:e[-+]?[0-9]+)?)")


def path_text(path: ir.ChangePath) -> str:
    """``soft.walker``, ``soft.cost``, ``effects.fire.range``, ``to_hit.when.woods+fog`` ..."""
    match path:
        case (
            ir.NamePath(name=name)
            | ir.HeaderPath(line=name)
            | ir.DiceModifierPath(modifier=name)  # a declared name, like a factor
            | ir.ParamPath(param=name)
        ):
            return name
        case ir.CostPath(feature=feature, mode=mode):
            return f"{feature}.{mode or 'cost'}"
        case ir.ColumnPath(feature=feature, column=column, value=value):
            return f"{feature}.{column}" + (f".{value}" if value else "")
        case ir.FactorPath(factor=factor, value=value):
            return factor + (f".{value}" if value else "")
        case ir.CombinationPath(modifier=modifier, members=members):
            return f"{modifier}.when." + "+".join(members)
        case ir.TableCellPath(table=table, column=column, row=row):
            return f"{table}.{column}.{row}" if column else f"{table}.{row}"
        case (
            ir.TableRowPath(table=head, row=tail)
            | ir.TableColumnPath(table=head, column=tail)
            | ir.DiceRowPath(table=head, row=tail)
            | ir.DecisionRowPath(decision=head, row=tail)
            | ir.TriggerPath(trigger=head, field=tail)
            | ir.MovePath(move=head, field=tail)
            | ir.SightPath(sight=head, field=tail)
            | ir.PolicyPath(modifier=head, part=tail)
        ):
            return f"{head}.{tail}"
        case ir.DiceRangePath(table=table, row=row):
            return f"{table}.{row}.range"
        case ir.StepPath(step=step, term=term, field=field):
            return f"{step}.{term}.{field}"
        case ir.AllowancePath(mode=mode):
            return f"{mode}.allowance"
        case ir.LabelPath(item=item, lang=lang):
            return f"{item}.label.{lang}"
        case ir.NotePath(item=item, lang=lang, index=index):
            return f"{item}.note." + (f"{index}." if index > 1 else "") + lang
        case ir.ExamplePath(example=example, question=question):
            return f"example.{example}" + (f".{question}" if question else "")
        case _:
            assert_never(path)


# ---- labels and old -> new values -----------------------------------------------------------


def annotate(
    changes: tuple[ir.Change, ...], base: ir.Ruleset, variant: ir.Ruleset
) -> tuple[ir.Change, ...]:
    """``changes`` with their ``subject`` (labels of what each path names, from the base for
    what was removed) and ``was`` / ``now`` values (the base's and the variant's)."""
    old, new = _Index(base), _Index(variant)
    out = []
    for change in changes:
        was_in: _Index | None
        now_in: _Index | None
        match change.action:
            case "override":
                names, was_in, now_in = new, old, new
            case "add":
                names, was_in, now_in = new, None, new
            case "remove":
                names, was_in, now_in = old, None, None
            case _:
                assert_never(change.action)
        subject = tuple(
            labels
            for labels in ((names.labels(part) or old.labels(part)) for part in _parts(change.path))
            if labels
        )
        if isinstance(change.path, ir.CombinationPath) and len(subject) > 1:
            together = {
                lang: " + ".join(m.get(lang, "") for m in subject[1:]) for lang in subject[1]
            }
            subject = (subject[0], together)
        was = was_in.value(change.path) if was_in is not None else None
        now = now_in.value(change.path) if now_in is not None else None
        out.append(replace(change, subject=subject, was=was, now=now))
    return tuple(out)


def _parts(path: ir.ChangePath) -> tuple[str, ...]:
    """The names along a path whose labels a reader needs (the item, then the key)."""
    match path:
        case ir.NamePath(name=name):
            return (name,)
        case ir.HeaderPath():
            return ()
        case ir.CostPath(feature=feature, mode=mode):
            return (feature, mode) if mode else (feature,)
        case ir.ColumnPath(feature=feature, column=column, value=value):
            return (feature, column, value) if value else (feature, column)
        case ir.FactorPath(factor=factor, value=value):
            return (factor, value) if value else (factor,)
        case ir.CombinationPath(modifier=modifier, members=members):
            return (modifier, *members)
        case ir.TableCellPath(table=table, column=column, row=row):
            return (
                (table, f"{table}.{column}", f"{table}.{row}")
                if column
                else (table, f"{table}.{row}")
            )
        case (
            ir.TableRowPath(table=table, row=row)
            | ir.DiceRowPath(table=table, row=row)
            | (ir.DiceRangePath(table=table, row=row))
        ):
            return (table, f"{table}.{row}")
        case ir.TableColumnPath(table=table, column=column):
            return (table, f"{table}.{column}")
        case ir.DiceModifierPath(table=table, modifier=modifier):
            return (table, f"{table}.{modifier}")
        case ir.StepPath(step=step):
            return (step,)
        case ir.DecisionRowPath(decision=decision, row=row):
            return (decision, f"{decision}.{row}")
        case ir.TriggerPath(trigger=trigger):
            return (trigger,)
        case ir.MovePath(move=move):
            return (move,)
        case ir.SightPath(sight=sight):
            return (sight,)
        case ir.AllowancePath(mode=mode):
            return (mode,)
        case ir.ParamPath(param=param):
            return (param,)
        case ir.LabelPath(item=item) | ir.NotePath(item=item):
            return (item,)
        case ir.PolicyPath(modifier=modifier):
            return (modifier,)
        case ir.ExamplePath(example=example):
            return (example_key(example),)
        case _:
            assert_never(path)


def example_key(example: str) -> str:
    """Where an example's labels are indexed (examples have a namespace of their own)."""
    return f"example:{example}"


class _Index:
    """Labels and values of one ruleset's items, by the names paths use."""

    def __init__(self, rs: ir.Ruleset) -> None:
        self.rs = rs
        self.infos: dict[str, ir.Info] = ir.infos_by_id(rs)
        for table in rs.tables:
            for column in table.columns:
                self.infos[f"{table.id}.{column.id}"] = column.info
            for row in table.rows:
                self.infos[f"{table.id}.{row.key}"] = row.info
        for example in rs.examples:
            self.infos[example_key(example.id)] = example.info
        for dice in rs.dice_tables:
            for drow in dice.rows:
                self.infos[f"{dice.id}.{drow.id}"] = drow.info
            for mod in dice.modifiers:
                self.infos[f"{dice.id}.{mod.id}"] = mod.info
        for decision in rs.decisions:
            for outcome in decision.outcomes:
                self.infos[f"{decision.id}.{outcome.id}"] = outcome.info

    def labels(self, name: str) -> ir.Labels:
        info = self.infos.get(name)
        return dict(info.labels) if info else {}

    def value(self, path: ir.ChangePath) -> ir.Cell | None:
        """The value at ``path`` in this ruleset (None where a path names no value)."""
        rs = self.rs
        match path:
            case ir.NamePath() | ir.HeaderPath() | ir.TableRowPath() | ir.TableColumnPath():
                return None
            case ir.CostPath(feature=feature, mode=mode):
                return self._cell(feature, "cost", mode)
            case ir.ColumnPath(feature=feature, column=column, value=value):
                return self._cell(feature, column, value)
            case ir.FactorPath(factor=factor, value=value):
                found = next((f for m in rs.modifiers for f in m.factors if f.id == factor), None)
                return None if found is None else _pick(found.cell, value)
            case ir.CombinationPath():
                return self._combination(path)
            case ir.TableCellPath():
                return self._table_cell(path)
            case ir.DiceRowPath(table=table, row=row):
                drow = self._dice_row(table, row)
                return None if drow is None else ir.Cell(None, dict(drow.effects))
            case ir.DiceRangePath(table=table, row=row):
                drow = self._dice_row(table, row)
                return (
                    None
                    if drow is None
                    else ir.Cell(ir.Text(spelling.dice_range(drow.low, drow.high)))
                )
            case ir.DiceModifierPath():
                return self._dice_modifier(path)
            case ir.StepPath():
                return self._step(path)
            case ir.DecisionRowPath():
                return None
            case ir.TriggerPath():
                return self._trigger(path)
            case ir.MovePath():
                return self._move(path)
            case ir.AllowancePath(mode=mode):
                own = next((m.allowance for m in self.rs.modes if m.id == mode), None)
                unit = self.rs.units.get("cost")
                return None if own is None else ir.Cell(ir.Number(own, unit))
            case ir.SightPath(sight=sight, field="band"):  # issue 40
                rule = next((r for r in self.rs.sights if r.id == sight), None)
                band = None if rule is None else rule.state
                return (
                    None if band is None else ir.Cell(ir.Text("when " + " ".join(map(str, band))))
                )
            case ir.SightPath(sight=sight):
                rule = next((r for r in self.rs.sights if r.id == sight), None)
                return (
                    None
                    if rule is None or rule.blocks_at is None
                    else ir.Cell(sight_threshold(rule.blocks_when, rule.blocks_at))
                )
            case ir.ParamPath(param=param):
                found_param = next((p for p in rs.params if p.id == param), None)
                return (
                    None
                    if found_param is None or found_param.value is None
                    else ir.Cell(found_param.value)
                )
            case ir.LabelPath(item=item, lang=lang):
                text = self.labels(item).get(lang)
                return None if text is None else ir.Cell(ir.Text(text))
            case ir.NotePath(item=item, lang=lang, index=index):
                info = self.infos.get(item)
                notes = info.notes if info else ()
                note = notes[index - 1].get(lang) if index <= len(notes) else None
                return None if note is None else ir.Cell(ir.Text(note))
            case ir.PolicyPath():
                return self._policy(path)
            case ir.ExamplePath():
                return self._example(path)
            case _:
                assert_never(path)

    def _combination(self, path: ir.CombinationPath) -> ir.Cell | None:
        combo = next(
            (
                c
                for m in self.rs.modifiers
                if m.id == path.modifier
                for c in m.combinations
                if sorted(c.members) == sorted(path.members)
            ),
            None,
        )
        return None if combo is None else ir.Cell(combo.value)

    def _table_cell(self, path: ir.TableCellPath) -> ir.Cell | None:
        column = path.column
        found_table = next((t for t in self.rs.tables if t.id == path.table), None)
        if found_table is None:
            return None
        slot = (
            [c.id for c in found_table.columns].index(column)
            if column and (column in [c.id for c in found_table.columns])
            else 0
        )
        cell = next(
            (r.cells[slot] for r in found_table.rows if r.key == path.row and slot < len(r.cells)),
            None,
        )
        return None if cell is None else ir.Cell(cell)

    def _dice_modifier(self, path: ir.DiceModifierPath) -> ir.Cell | None:
        mod = next(
            (
                m
                for d in self.rs.dice_tables
                if d.id == path.table
                for m in d.modifiers
                if m.id == path.modifier
            ),
            None,
        )
        return None if mod is None else ir.Cell(ir.Number(mod.value, signed=True))

    def _step(self, path: ir.StepPath) -> ir.Cell | None:
        field = path.field
        found_step = next((x for x in self.rs.steps if x.id == path.step), None)
        found_term = None if found_step is None else words.find_term(found_step.terms, path.term)
        if found_step is None or found_term is None:
            return None
        number = words.term_number(found_term, field)
        if number is None:
            return None
        match field:
            case "amount":
                rate = isinstance(found_term, ir.RateTerm)
                return ir.Cell(ir.Number(number, found_step.result_unit, rate))
            case "per" | "at":
                return ir.Cell(ir.Number(number, found_step.param_unit))
            case _:
                assert_never(field)

    def _trigger(self, path: ir.TriggerPath) -> ir.Cell | None:
        found_trigger = next((x for x in self.rs.triggers if x.id == path.trigger), None)
        if found_trigger is None:
            return None
        match path.field:
            case "table":
                return ir.Cell(ir.Symbol(found_trigger.table))
            case "modifier":
                name = found_trigger.modifier
                return None if name is None else ir.Cell(ir.Symbol(name))
            case "times":
                return ir.Cell(ir.Number(found_trigger.times))
            case "at_least":
                count = found_trigger.at_least
                return None if count is None else ir.Cell(ir.Number(count))
            case _:
                assert_never(path.field)

    def _move(self, path: ir.MovePath) -> ir.Cell | None:
        found_move = next((k for k in self.rs.moves if k.id == path.move), None)
        if found_move is None:
            return None
        match path.field:
            case "factor":
                return ir.Cell(ir.Number(found_move.factor))
            case "amount":
                unit = self.rs.units.get("cost")
                return ir.Cell(ir.Number(found_move.amount, unit, True))
            case "only":
                return ir.Cell(ir.Text(" or ".join(found_move.only) or "every unit type"))
            case _:
                assert_never(path.field)

    def _policy(self, path: ir.PolicyPath) -> ir.Cell | None:
        policy = next((m for m in self.rs.modifiers if m.id == path.modifier), None)
        if policy is None:
            return None
        match path.part:
            case "combine":
                return ir.Cell(ir.Symbol(policy.combine))
            case "clamp":
                clamp = policy.clamp
                return None if clamp is None else ir.Cell(ir.Span(clamp.low, clamp.high))
            case "best":  # best groups, as the language writes them
                shown = "; ".join(
                    f"{g.id} combine {g.combine}: {', '.join(g.members)}" for g in policy.best
                )
                return ir.Cell(ir.Text(shown)) if shown else None
            case "sight":  # factors read along a line of sight, as the language writes them
                lines = "; ".join(f"sight {f.id} : {f.rule}" for f in policy.sights)
                return ir.Cell(ir.Text(lines)) if lines else None
            case "bands":  # values in bands of a state, as the `when` lines write them
                shown = "; ".join(
                    f"when {b.state} {b.side} {b.bound} | {spelling.value(b.value)}"
                    for b in policy.bands
                )
                return ir.Cell(ir.Text(shown)) if shown else None
            case _:
                assert_never(path.part)

    def _example(self, path: ir.ExamplePath) -> ir.Cell | None:
        question = path.question
        stated = next((e for e in self.rs.examples if e.id == path.example), None)
        if stated is None:
            return None
        asked = stated.questions[question - 1 :][:1] if question else stated.questions
        if len(asked) == 1 and len(asked[0].answer) == 1:  # one value: as a cell's
            return ir.Cell(asked[0].answer[0])
        return ir.Cell(
            ir.Text(
                "; ".join(
                    examples_stated.answer_text(
                        examples_stated.stated(q), examples_stated.unit_of(q)
                    )
                    for q in asked
                )
            )
        )

    def _cell(self, feature: str, column: str, key: str | None) -> ir.Cell | None:
        found = next((f for f in self.rs.features if f.id == feature), None)
        if found is None:
            return None
        if key is not None and column == "cost" and key in found.costs:
            return ir.Cell(found.costs[key])
        cell = found.cells.get(column)
        return None if cell is None else _pick(cell, key)

    def _dice_row(self, table: str, row: str) -> ir.DiceRow | None:
        return next(
            (r for d in self.rs.dice_tables if d.id == table for r in d.rows if r.id == row), None
        )


def _pick(cell: ir.Cell, key: str | None) -> ir.Cell | None:
    if key is None:
        return cell
    value = cell.exceptions.get(key, cell.default)
    return None if value is None else ir.Cell(value)
