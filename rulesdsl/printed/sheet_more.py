"""The remaining sections of a sheet: triggers, exclusions, grids, scenario parameters,
the changelog of a house rule, sources, line of sight and results tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import assert_never

from rulesdsl import ir, semantics, spelling
from rulesdsl.printed import svg
from rulesdsl.printed.sheet_movement import MovementBlocks
from rulesdsl.printed.sheet_view import (
    MAP_CELLS,
    Block,
    CellView,
    HeadCell,
    TableView,
    marker_sign,
)
from rulesdsl.semantics import effects as semantics_effects
from rulesdsl.semantics.dice import chance_at_least
from rulesdsl.variants.changelog import path_text, read_sight_threshold
from rulesdsl.words import Total, total


class MoreBlocks(MovementBlocks):
    """Triggers, exclusions, grids, parameters, the changelog, sources, sight and results."""

    def triggers(self) -> list[Block]:
        if not self.rs.triggers:
            return []
        both: list[ir.DiceTable | ir.ResultsTable] = [*self.rs.dice_tables, *self.rs.results_tables]
        tables = {d.id: d for d in both}
        lines = []
        for t in self.rs.triggers:
            parts = []
            if t.check is not None and t.at_least is not None:
                dice = semantics.roll_of(t.check)
                parts.append(
                    self.w(
                        "check",
                        dice=self.dice_text(dice),
                        at=self.num(t.at_least),
                        chance=self.c.percent(chance_at_least(dice, t.at_least)),
                    )
                )
            table = tables.get(t.table)
            action = self.w("roll_on", table=self.label(table.info if table else None, t.table))
            for named in (t.modifier, *t.more_modifiers):
                mod = next((m for m in table.modifiers if m.id == named), None) if table else None
                if mod is not None:
                    action += ", " + self.w(
                        "with_mod",
                        label=self.label(mod.info, mod.id),
                        value=self.modifier_value(mod),
                    )
            if t.times != 1:
                action += ", " + self.c.plural("times", t.times)
            parts.append(action)
            src = self.source(t.info)
            line = self.w("label_colon", label=self.label(t.info, t.id), text=" → ".join(parts))
            notes = " ".join(self.note_texts(t.info))
            line += f". {notes}" if notes else ""
            lines.append(line + (f" [{src}]" if src else ""))
        return [Block("triggers", "", lines=lines, kind="text")]

    def exclusions(self) -> list[Block]:
        lines = []
        excl = list(self.rs.exclusions)
        i = 0
        while i < len(excl):
            e = excl[i]
            if _each_other(excl[i:]):
                names = ", ".join(self.name(x) for x in (e.subject, *e.others))
                line = self.w("excludes_each_other", items=names)
                i += len(e.others)
            else:
                others = ", ".join(self.name(o) for o in e.others)
                text = self.w("excludes", others=others)
                line = self.w("label_colon", label=self.name(e.subject), text=text)
                i += 1
            notes = self.note_texts(e.info)
            if notes:
                line += ". " + " ".join(notes)
            src = self.source(e.info)
            lines.append(line + (f" [{src}]" if src else ""))
        return [Block("exclusions", "", lines=lines, kind="text")] if lines else []

    def grid(self, g: ir.Grid) -> Block:
        return self.square_grid(g) if semantics.has_diagonals(g) else self.shaped_grid(g)

    def shaped_grid(self, g: ir.Grid) -> Block:
        """A hex grid, or a square grid with no diagonals (maps, issue 11): its size and its
        neighbourhood in words."""
        title = self.label(g.info, g.id)
        size = " = ".join(self.number(n) for n in g.size)
        return Block(
            g.id,
            title,
            lines=[f"{size}.", self.w(_grid_word(g.shape))],
            after=self.note_texts(g.info),
            source=self.source(g.info),
            kind="grid",
        )

    def square_grid(self, g: ir.Grid) -> Block:
        title = self.label(g.info, g.id)
        size = " = ".join(self.number(n) for n in g.size)
        # The path is measured in the first unit that is not the map cell itself.
        measured = [n for n in g.size if n.unit not in MAP_CELLS]
        first = (measured or list(g.size) or [ir.Number(1)])[0]
        cycle = list(g.diagonals) or [1]
        count = max(4, 2 * len(cycle))
        steps = [cycle[i % len(cycle)] * first.value for i in range(count)]
        labels = [self.num(s) for s in steps]
        lengths = ", ".join(
            self.unit_text(self.num(cycle[i % len(cycle)] * first.value), first.unit)
            for i in range(len(cycle) * 2)
        )
        total = " + ".join(labels) + " = " + self.unit_text(self.num(sum(steps)), first.unit)
        cell_given = any(n.unit in MAP_CELLS for n in g.size)
        lines = [
            f"{size}." if cell_given else f"{self.w('square')} = {size}.",
            self.w("diagonals", cycle=", ".join(self.num(c) for c in cycle), lengths=lengths),
        ]
        diagram = svg.grid_diagonals(labels, total, title)
        return Block(
            g.id,
            title,
            lines=lines,
            after=self.note_texts(g.info),
            svg=diagram,
            text_alt=[total],
            source=self.source(g.info),
            kind="grid",
        )

    def params(self) -> list[Block]:
        if not self.rs.params:
            return []
        head = [[HeadCell(""), HeadCell(self.w("unit")), HeadCell(self.w("value"))]]
        rows = []
        for p in self.rs.params:
            if p.value is None:
                value = CellView(f"□{self.param_refs[p.id]}", ("blank",))
            else:
                value = self.value(p.value)
                if isinstance(p.value, ir.Number) and p.value.unit is None:
                    value = CellView(self.text(p.value))
            value.changed = self.changed(p.id)
            rows.append(
                [
                    CellView(
                        self.label(p.info, p.id),
                        ("label",),
                        (),
                        False,
                        self.source(p.info, detail=False),
                    ),
                    CellView(self.c.unit(p.unit)),
                    value,
                ]
            )
        return [
            Block(
                "params",
                "",
                TableView(head, rows, [h.text for h in head[0]]),
                after=[self.w("fill_legend")]
                if any(p.value is None for p in self.rs.params)
                else [],
            )
        ]

    def changelog(self) -> list[Block]:
        """The variant's changes in the sheet's language: what (by its labels), old -> new."""
        lines = []
        for c in self.rs.changes:
            notes = " ".join(self.note_texts(c.info))
            what = " › ".join(  # noqa: RUF001
                self.label(ir.Info(labels), "") for labels in c.subject
            ) or path_text(c.path)
            values = [
                self.change_text(c.path, v, now)
                for v, now in ((c.was, False), (c.now, True))
                if v is not None
            ]
            if c.was is not None and c.now is not None:
                what = self.w(
                    "label_colon", label=what, text=self.w("was_now", was=values[0], now=values[1])
                )
            elif values:
                what = self.w("label_colon", label=what, text=values[0])
            line = self.w("changelog_line", action=self.w(c.action), what=what) + (
                f". {notes}" if notes else ""
            )
            src = self.source(c.info)
            lines.append(line + (f" [{src}]" if src else ""))
        return [Block("changes", "", lines=lines, kind="text")] if lines else []

    def change_text(self, path: ir.ChangePath, cell: ir.Cell, now: bool) -> str:
        """A changelog's old or new value (``now``) at ``path``: the cell in one line; a sight
        rule's threshold in the sheet's words ("plus de 2 bloque")."""
        threshold = read_sight_threshold(cell.default) if isinstance(path, ir.SightPath) else None
        if threshold is not None:
            when, at = threshold
            return self.w(f"threshold_{when}", total=self.num(at))
        return self.cell_text(cell)

    def cell_text(self, cell: ir.Cell) -> str:
        """A whole cell in one line: the value for everyone, then the exceptions; a name
        (what a trigger rolls with) by its label."""
        dice_mods = {m.id: m.info for d in self.rs.dice_tables for m in d.modifiers}
        if isinstance(cell.default, ir.Symbol) and (
            cell.default.name in self.names or cell.default.name in dice_mods
        ):
            name = cell.default.name
            return self.label(self.names.get(name) or dice_mods[name], name)
        if (
            cell.default is None
            and cell.exceptions
            and not any(k in self.names for k in cell.exceptions)
        ):
            return self.effects(cell.exceptions).text  # a dice row's effects
        parts = [self.text(cell.default)] if cell.default is not None else []
        parts += [
            f"{self.name(k)} {self.text(v)}"
            if not isinstance(v, ir.Flag) or not v.value
            else self.name(k)
            for k, v in cell.exceptions.items()
        ]
        return ", ".join(parts)

    def sources(self) -> list[Block]:
        """The books the sheet cites, once each: the label it prints them by (an
        abbreviation), then the book's notes (its title), ``TW: Total Warfare``."""
        lines = [
            self.w("label_colon", label=self.label(b.info, b.id), text=" ".join(notes))
            if (notes := self.note_texts(b.info))
            else self.label(b.info, b.id)
            for b in self.rs.books
            if b.id in self.used_books
        ]
        return [Block("sources", "", lines=lines, kind="sources")] if lines else []

    def sight_band(self, state: str, side: str, bound: int) -> str:
        """``when altitude below 5`` on a sight rule (issue 40), as the sheet says it."""
        found = next((v for v in self.rs.states if v.id == state), None)
        said = self.label(found.info if found else None, state)
        return self.w(f"sight_state_{side}", state=said, bound=self.num(bound))

    def sight_blocks(self) -> list[Block]:
        """Per sight rule: a sentence saying which places count and what blocks the line,
        then the value of each feature that has one (a table of two columns)."""
        blocks = []
        for rule in self.rs.sights:
            parts = [self.w(f"sight_counts_{rule.counts}")]
            if rule.blocks_at is not None:
                total = self.num(rule.blocks_at)
                parts.append(self.w(f"sight_blocks_{rule.blocks_when}", total=total))
            else:
                parts.append(self.w("sight_adds_up"))
            own = [f.cells[rule.id].default for f in self.rs.features if rule.id in f.cells]
            own += [
                v
                for f in self.rs.features
                if rule.id in f.cells
                for v in f.cells[rule.id].exceptions.values()
            ]
            if ir.Marker("blocked") in own:
                parts.append(self.w("sight_blocked_place", sign=marker_sign("blocked")))
            if rule.crossed is not None:
                parts.append(self.w("sight_crossed", unit=self.c.unit(rule.crossed)))
            if rule.target_inside:
                parts.append(self.w("sight_target_inside"))
            keyed = [f.cells[rule.id] for f in self.rs.features if rule.id in f.cells]
            if any(cell.exceptions for cell in keyed):
                parts.append(self.w("sight_by_unit"))
            parts += self.sight_effect_clauses(rule)  # issue 24
            if rule.state is not None:  # `when altitude below 5` (issue 40): the viewer's
                parts.append(self.sight_band(*rule.state))
            text = self.w("clause_join").join(parts)  # the block's title names the rule
            line = text[:1].upper() + text[1:]
            label = self.label(rule.info, rule.id)
            rows = []
            for f in self.rs.features:
                cell = f.cells.get(rule.id)
                if cell is None or (cell.default is None and not cell.exceptions):
                    continue
                value = (
                    CellView(self.cell_text(cell))  # keyed by unit type: "1, Fly 0"
                    if cell.exceptions or cell.default is None
                    else CellView(self.name(cell.default.step))  # the scale, printed beside
                    if isinstance(cell.default, ir.StepCost)
                    else self.value(cell.default)
                )
                value.changed = self.changed(f"{f.id}.{rule.id}")
                name = CellView(self.label(f.info, f.id), ("label",))
                name.changed = self.added(f.id)
                rows.append([name, value])
            rows += self.sight_outcome_rows(rule)
            head = [[HeadCell(self.w("sight_feature")), HeadCell(label)]]
            blocks.append(
                Block(
                    rule.id,
                    label,
                    TableView(head, rows, [self.w("sight_feature"), label], fold=len(rows) > 8)
                    if rows
                    else None,
                    lines=[line + "."],
                    after=self.note_texts(rule.info),
                    source=self.source(rule.info),
                    changed=self.added(rule.id),
                )
            )
        return blocks

    def sight_effect_clauses(self, rule: ir.Sight) -> list[str]:
        """The sentences for the effects that feed a sight rule (issue 24): a whole-map
        condition counts once for the line; a dice outcome given for a place adds to it."""
        conditions = semantics_effects.whole_map(self.rs)
        out = []
        if any(f.id in conditions and rule.id in f.cells for f in self.rs.features):
            out.append(self.w("sight_condition_once"))
        if semantics_effects.outcome_values(self.rs, rule.id):
            out.append(self.w("sight_outcome_place"))
        return out

    def sight_outcome_rows(self, rule: ir.Sight) -> list[list[CellView]]:
        """A row per dice outcome that feeds the rule: its label, its table's in brackets,
        and its value."""
        values = semantics_effects.outcome_values(self.rs, rule.id)
        tables = {t.id: t.info for t in self.rs.dice_tables}
        tables.update({t.id: t.info for t in self.rs.results_tables})
        rows = []
        seen: set[str] = set()
        for table, outcome, _ in semantics_effects.outcomes(self.rs):
            if outcome not in values or outcome in seen:
                continue
            seen.add(outcome)
            name = CellView(
                f"{self.name(outcome)} ({self.label(tables[table], table)})", ("label",)
            )
            value = self.value(ir.Number(values[outcome], signed=True))
            value.changed = self.changed(f"{table}.{outcome}")
            rows.append([name, value])
        return rows

    @staticmethod
    def span_text(low: int | None, high: int | None) -> str:
        return spelling.dice_range(low, high)

    def column_value(self, c: ir.ResultColumn) -> str:
        """A column's bound as printed: a ratio ``2:1``, or a number with its unit."""
        if c.ratio is not None:
            return f"{self.num(c.ratio[0])}:{self.num(c.ratio[1])}"
        return self.unit_text(self.num(c.value), c.unit)

    def results_blocks(self, t: ir.ResultsTable) -> list[Block]:
        """A results table, then the chance of each outcome in each of its columns."""
        return [self.results_block(t), self.results_chances(t)]

    def results_chances(self, t: ir.ResultsTable) -> Block:
        """The exact chance of each outcome per column, natural rolls included (issue 25): one
        row per outcome, one column per column of the table, as the dice tables' chances."""
        dice = semantics.roll_of(t.dice)
        title = self.w("results_chances", table=self.label(t.info, t.id))
        head = [HeadCell(self.w("result"))]
        carried = any(o.effects for o in t.outcomes)  # outcomes with data (issue 25)
        if carried:
            head.append(HeadCell(self.w("effects")))
        for c in t.columns:
            head.append(HeadCell(self.label(c.info, c.id)))
        by_column = {c.id: semantics.result_chances(t, c.id) for c in t.columns}
        rows = []
        for o in t.outcomes:
            row = [CellView(self.label(o.info, o.id), ("label",))]
            if carried:
                row.append(self.effects(o.effects, o.by_unit))
            for c in t.columns:
                p = by_column[c.id].get(o.id)
                ways = (p or 0) * dice.outcomes
                text = (
                    f"{ways.numerator}/{dice.outcomes} · {self.c.percent(p)}"
                    if p and isinstance(ways, Fraction) and ways.denominator == 1
                    else self.c.percent(p or Fraction(0))
                )
                row.append(CellView(text, ("chance",)))
            rows.append(row)
        return Block(
            f"{t.id}.chances",
            f"{title} ({self.dice_text(dice)})",
            TableView([head], rows, [h.text for h in head]),
            changed=self.added(t.id),
            kind="dice",
        )

    def results_block(self, t: ir.ResultsTable) -> Block:
        """A results table as a grid: the roll, then one column per column of the table."""
        dice = semantics.roll_of(t.dice)
        title = f"{self.label(t.info, t.id)} ({self.dice_text(dice)})"
        by = self.input_name(t.by)
        head_top = [HeadCell(self.w("roll"), rowspan=2)]
        head_top.append(HeadCell(self.w("results_by", input=by), colspan=len(t.columns)))
        head_sub = []
        flat = [self.w("roll")]
        for c in t.columns:
            value = self.column_value(c)
            word = _column_word(c.bound)
            label = self.label(c.info, c.id)
            if word is None or (_AT_POINT[c.bound] and value in label):
                text = label  # a category, or a point its label says (`2:1`)
            else:
                text = f"{label} ({self.w(word, value=value)})"
            head_sub.append(HeadCell(text))
            flat.append(text)
        outcomes = {o.id: o for o in t.outcomes}
        notes: list[tuple[str, str]] = []
        rows = []
        for r in t.rows:
            marks = tuple(self.add_note(notes, n) for n in self.note_texts(r.info))
            row = [CellView(self.span_text(r.low, r.high), ("label", "roll"), marks)]
            for i, _ in enumerate(t.columns):
                outcome = r.outcomes[i] if i < len(r.outcomes) else ""
                cell = CellView(
                    self.label(outcomes[outcome].info, outcome) if outcome in outcomes else ""
                )
                cell.changed = self.changed(f"{t.id}.{self.span_text(r.low, r.high)}")
                row.append(cell)
            rows.append(row)
        after = [
            self.w(
                _natural_word(n),
                roll=self.num(n.roll),
                outcome=", ".join(
                    self.label(outcomes[o].info if o in outcomes else None, o)
                    for o in (n.by_column or (n.outcome,))
                ),
            )
            + "".join(f" {text}" for text in self.note_texts(n.info))
            for n in t.naturals
        ]
        if t.rounding is not None:
            after.insert(0, self.w(_ROUNDING_WORDS[t.rounding], input=by))
        picked = semantics.column_decision(self.rs, t)
        if picked is not None:  # a decision's outcome names the column (issue 40)
            decision = self.label(picked.info, picked.id)
            after.insert(0, self.w("results_picked_by", decision=decision))
        for m in t.modifiers:
            after.append(
                self.w("with_mod", label=self.label(m.info, m.id), value=self.modifier_value(m))
            )
        table = TableView([head_top, head_sub], rows, flat, col_groups=[0] * len(t.columns))
        block = Block(
            t.id,
            title,
            table,
            notes=notes,
            after=after + self.note_texts(t.info),
            source=self.source(t.info),
            changed=self.added(t.id),
            kind="dice",
        )
        codes = {self.label(o.info, o.id): o.id.upper() for o in t.outcomes}
        if len(set(codes.values())) == len(codes) and all(len(c) <= 3 for c in codes.values()):
            key = " · ".join(self.w("label_colon", label=c, text=text) for text, c in codes.items())
            coded = [
                [row[0], *(replace(c, text=codes.get(c.text, c.text)) for c in row[1:])]
                for row in rows
            ]
            block.compact = replace(
                block, table=replace(table, rows=coded), after=[key, *block.after]
            )
        return block


def _grid_word(shape: ir.GridShape) -> str:
    match shape:
        case "hex":
            return "grid_hex"
        case "square":
            return "grid_square"
        case _:
            assert_never(shape)


def _column_word(bound: ir.ColumnBound) -> str | None:
    """The words key of a column's bound; none for a category, headed by its label alone."""
    match bound:
        case "up_to":
            return "column_up_to"
        case "above":
            return "column_above"
        case "at":
            return "column_at"
        case "category":
            return None
        case _:
            assert_never(bound)


def _natural_word(n: ir.NaturalRow) -> str:
    """The sheet's sentence for a natural roll on a results table (issue 25)."""
    if n.by_column:
        return "natural_by_column"
    return "natural_at_least" if n.at_least else "natural_rule"


_AT_POINT: Total[ir.ColumnBound, bool] = total(
    ir.ColumnBound, {"at": True, "up_to": False, "above": False, "category": False}
)
"""Whether a results table's column stands at one point (``at 3``), not for a range."""
_ROUNDING_WORDS: Total[ir.Rounding, str] = total(
    ir.Rounding, {"down": "round_down", "up": "round_up"}
)


def _each_other(excl: Sequence[ir.Exclusion]) -> bool:
    """Whether ``excl`` opens with three or more conditions that exclude each other, written
    one after another as ``a with b, c, d``, ``b with c, d``, ``c with d`` (BattleTech's eight
    precipitations, generic_wargame's eight protection levels): a sheet says so once, "at
    most one" of them. The ones after the first carry no note, and no source but the first's."""
    first = excl[0]
    n = len(first.others)
    if n < 2 or len(excl) < n:
        return False
    return all(
        e.subject == first.others[k - 1]
        and e.others == first.others[k:]
        and not e.info.notes
        and e.info.source in (None, first.info.source)
        for k, e in enumerate(excl[1:n], start=1)
    )
