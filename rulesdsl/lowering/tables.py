"""Lowering steps, plain tables, dice tables, triggers, exclusions and grids."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from rulesdsl import ir, words
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering import arcs as arcs_lowering
from rulesdsl.lowering import sight as sight_lowering
from rulesdsl.lowering.costs import CostLowering
from rulesdsl.lowering.decisions import DecisionLowering
from rulesdsl.positions import item_field
from rulesdsl.units import DIMENSIONS


class TableLowering(CostLowering):
    """Steps, plain tables, dice tables, triggers, exclusions and grids."""

    def _step(self, decl: s.StepDecl) -> ir.Step:
        unit = decl.param.unit.text
        self.unit(decl.param.unit, None)
        if decl.result is not None:
            self.unit(decl.result, None)
        terms: list[ir.StepTerm] = []
        for term in decl.terms:
            qty = self.number(term.quantity, DIMENSIONS.get(unit))
            if qty is None:
                continue
            if qty.unit is not None and qty.unit != unit:
                self.err(
                    "E203",
                    f"'{qty.unit}' here, but the input is in '{unit}'",
                    term.quantity.pos,
                    f"write the distance in {unit}",
                )
            amount = self.number(term.amount, None) if term.amount else None
            match term.term:
                case "rate":
                    above = self._step_above(term, unit)
                    amt = amount.value if amount else 0
                    terms.append(ir.RateTerm(amt, qty.value, term.full, above))
                case "free":
                    terms.append(ir.FreeTerm(qty.value))
                case "floor":
                    amt = amount.value if amount else 0
                    terms.append(ir.FloorTerm(amt, qty.value, term.strict))
                case "impassable":
                    terms.append(ir.ImpassableTerm(qty.value, term.strict))
                case _:
                    assert_never(term.term)
            self.where.record(terms[-1], term.quantity.pos)
        step = ir.Step(
            decl.item.name.text,
            self.info(decl.item),
            decl.param.name.text,
            unit,
            decl.result.text if decl.result else None,
            tuple(terms),
        )
        self.where.record(step, decl.param.name.pos, "param")
        return self.at(step, decl.item.name.pos)

    def _step_above(self, term: s.StepTermNode, unit: str) -> float | None:
        """``+1 per 1 in above 2 in``: the threshold, in the step's input unit (issue 11)."""
        if term.above is None:
            return None
        above = self.number(term.above, DIMENSIONS.get(unit))
        if above is not None and above.unit is not None and above.unit != unit:
            self.err(
                "E203",
                f"'{above.unit}' here, but the input is in '{unit}'",
                term.above.pos,
                f"write the threshold in {unit}",
            )
        return above.value if above is not None else None

    def _decision(self, decl: s.DecisionDecl) -> ir.Decision:
        decision = DecisionLowering(self, decl).run()
        self.decisions.setdefault(decision.id, decision)
        return decision

    def _table(self, decl: s.TableDecl) -> ir.Table:
        arcs_lowering.keyed_table(self, decl)
        columns = tuple(
            self.at(ir.Column(c.name.text, self.info(c)), c.name.pos) for c in decl.columns
        )
        seen_cols: set[str] = set()
        for c in decl.columns:
            if c.name.text in seen_cols:
                self.err("E102", f"column '{c.name.text}' is declared twice", c.name.pos)
            seen_cols.add(c.name.text)
        width = max(1, len(columns))
        allowed: tuple[words.ValueKind, ...] = (
            "number",
            "rate",
            "trade",
            "span",
            "symbol",
            "flag",
            "dice",
            "d66",
            "text",
            "impassable",
            "prohibited",
            "blocked",
        )
        rows = []
        seen: dict[str, s.Pos] = {}
        for row in decl.rows:
            key = row.item.name.text
            if key in seen:
                self.err(
                    "E102",
                    f"row '{key}' appears twice in table '{decl.item.name.text}'",
                    row.item.name.pos,
                )
            seen[key] = row.item.name.pos
            if len(row.cells) != width:
                self.err(
                    "E204",
                    f"row '{key}' has {len(row.cells)} cells, the table has {width} columns",
                    row.item.name.pos,
                    "one cell per column, separated by '|'",
                )
            cells: list[ir.Value | None] = []
            for cell in row.cells:
                if len(cell.entries) > 1 or any(e.key for e in cell.entries):
                    self.err(
                        "E208",
                        "a table cell holds one value",
                        cell.pos,
                        "per-mode exceptions belong in layers, not plain tables",
                    )
                cells.append(
                    self.value(cell.entries[0].value, allowed, "a table cell")
                    if cell.entries
                    else None
                )
            number = row.key_number
            if number is not None and number.unit is not None:
                self.unit(s.Name(number.unit, row.item.name.pos), None)
            rows.append(
                ir.Row(
                    key,
                    self.info(row.item),
                    tuple(cells),
                    number.value if number else None,
                    number.unit if number else None,
                )
            )
            self.where.record(rows[-1], row.item.name.pos)
        return self.at(
            ir.Table(decl.item.name.text, self.info(decl.item), columns, tuple(rows)),
            decl.item.name.pos,
        )

    def _dice(self, decl: s.DiceDecl) -> ir.DiceTable:
        dice = decl.dice.value
        assert isinstance(dice, ir.DiceValue | ir.D66Value)  # the grammar's DICE token
        self.where.record(dice, decl.dice.pos)
        modifiers = [
            sight_lowering.dice_modifier(self, mod, decl.item.name.text, columns=False)
            for mod in decl.modifiers
        ]
        rows = []
        names: set[str] = set()
        for row in decl.rows:
            if row.item.name.text in names:
                self.err("E102", f"row '{row.item.name.text}' appears twice", row.item.name.pos)
            names.add(row.item.name.text)
            effects = sight_lowering.effects(self, row.effects)
            by_unit = sight_lowering.effects_by_unit(self, row.effects, effects)
            rows.append(
                ir.DiceRow(
                    row.item.name.text, self.info(row.item), row.low, row.high, effects, by_unit
                )
            )
            self.where.record(rows[-1], row.item.pos)
            self.where.record(rows[-1], row.item.name.pos, "id")
        table = ir.DiceTable(
            decl.item.name.text,
            self.info(decl.item),
            dice,
            tuple(modifiers),
            tuple(rows),
            sight_lowering.dice_naturals(self, decl),
        )
        self.where.record(table, decl.item.name.pos)
        return table

    def _trigger(
        self,
        decl: s.TriggerDecl,
        dice_tables: list[ir.DiceTable],
        results_tables: Sequence[ir.ResultsTable] = (),
    ) -> ir.Trigger:
        table = self.symbols.require(decl.table, ("dice table",), "dice table")
        modifier = None
        more: list[str] = []
        written: list[s.Name] = []
        for named in (decl.modifier, *decl.more_modifiers):
            if named is None or table is None:
                continue
            written.append(named)
            tables: list[ir.DiceTable | ir.ResultsTable] = [*dice_tables, *results_tables]
            mods = {m.id for t in tables if t.id == table.name for m in t.modifiers}
            if named.text not in mods:
                self.unknown(
                    f"'{named.text}' is not a modifier of '{decl.table.text}'", named, mods
                )
            if modifier is None:
                modifier = named.text
            else:
                more.append(named.text)
        check_dice = None
        if decl.check is not None:
            assert isinstance(decl.check.value, ir.DiceValue | ir.D66Value)
            check_dice = decl.check.value
            self.where.record(check_dice, decl.check.pos)
        if decl.times < 1:
            self.err("E209", "a trigger rolls at least once", decl.item.name.pos)
        trigger = ir.Trigger(
            decl.item.name.text,
            self.info(decl.item),
            decl.table.text,
            check_dice,
            decl.at_least,
            modifier,
            decl.times,
            tuple(more),
        )
        for i, named in enumerate(written):  # E258, a check, may point at one
            self.where.record(trigger, named.pos, item_field("modifiers", i))
        return self.at(trigger, decl.item.name.pos)

    def _exclusion(self, decl: s.ExcludeDecl) -> ir.Exclusion:
        kinds: tuple[words.DeclKind, ...] = ("feature", "factor", "context value")
        self.symbols.require(decl.subject, kinds, "feature or factor")
        for other in decl.others:
            self.symbols.require(other, kinds, "feature or factor")
        return ir.Exclusion(
            decl.subject.text, tuple(o.text for o in decl.others), self.info_of({}, decl.extras)
        )

    def _grid(self, decl: s.GridDecl) -> ir.Grid:
        if decl.shape is not None:
            return self._shaped_grid(decl)
        return self._square_grid(decl)

    def _shaped_grid(self, decl: s.GridDecl) -> ir.Grid:
        """``grid NAME : size, hex`` or ``..., square[, diagonals ...]`` (maps, issue 11)."""
        assert decl.shape is not None
        # the grammar and the YAML schema admit only the shapes' own words
        square: ir.GridShape = "square"
        shape = next((sh for sh in words.GRID_SHAPES if sh == decl.shape.text), square)
        grid = self._square_grid(decl)
        shaped = ir.Grid(grid.id, grid.info, grid.size, grid.diagonals, shape)
        self.where.record(shaped, decl.shape.pos, "shape")
        return self.at(shaped, decl.item.name.pos)

    def _square_grid(self, decl: s.GridDecl) -> ir.Grid:
        sizes = []
        for loc in decl.size:
            number = self.number(loc, "length")
            if number is not None:
                if number.unit is None:
                    self.err("E203", "a grid cell size needs a unit", loc.pos, "e.g. 1.5 m")
                sizes.append(number)
        if any(d < 1 for d in decl.diagonals):
            self.err("E209", "a diagonal costs at least one cell", decl.item.name.pos)
        return self.at(
            ir.Grid(decl.item.name.text, self.info(decl.item), tuple(sizes), decl.diagonals),
            decl.item.name.pos,
        )
