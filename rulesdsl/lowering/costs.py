"""Lowering layers and features: cost cells (defaults, groups, `as` references resolved per
mode), place states and `along` costs, and the modifier and sight columns of a layer."""

from __future__ import annotations

from typing import assert_never

from rulesdsl import ir, semantics, words
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering import keywords
from rulesdsl.lowering import moves as moves_lowering
from rulesdsl.lowering import sight as sight_lowering
from rulesdsl.lowering.context import (
    COST,
    ZERO,
)
from rulesdsl.lowering.modifiers import ModifierLowering
from rulesdsl.positions import item_field
from rulesdsl.semantics import routes as semantics_routes

_COST_KINDS: tuple[words.ValueKind, ...] = (
    "number",
    "rate",
    "param_rate",
    "impassable",
    "prohibited",
    "same",
    *words.ONCE_KINDS,
)
"""What a cost cell may hold."""


class CostLowering(ModifierLowering):
    """Layers and features: their cost cells, place states and modifier or sight columns."""

    def _layers(self, decls: list[s.LayerDecl]) -> tuple[list[ir.Layer], list[ir.Feature]]:
        layers: list[ir.Layer] = []
        rows: list[tuple[s.LayerDecl, s.RowNode, tuple[str, ...]]] = []
        own: dict[str, list[str]] = {}  # each row's own `precedence` (issue 40)
        for decl in decls:
            columns = self._columns(decl)
            layer_line = self._declared(decl.precedence)
            layers.append(
                self.at(
                    ir.Layer(
                        decl.item.name.text,
                        self.info(decl.item),
                        decl.scope,
                        columns,
                        tuple(r.item.name.text for r in decl.rows),
                        tuple(layer_line),
                    ),
                    decl.item.name.pos,
                )
            )
            self._order_line(layers[-1], decl.precedence)
            base = semantics.local_order(layer_line, self.precedence)
            for row in decl.rows:
                self.check_width(row, len(columns))
                row_line = own[row.item.name.text] = self._declared(row.precedence)
                if layer_line or row_line:
                    order = semantics.local_order(row_line, base)
                    self.place_orders[row.item.name.text] = order
                rows.append((decl, row, columns))
                written = dict(zip(columns, row.cells, strict=False))
                if COST in written:
                    self.raw_costs[row.item.name.text] = self._cost_cell(written[COST])
                    self.cost_pos[row.item.name.text] = written[COST].pos
                    self._check_cost_keywords(row.item.name.text, written[COST].pos)
        features = []
        for decl, row, columns in rows:
            cells: dict[str, ir.Cell] = {}
            fid = row.item.name.text
            for column, cell in zip(columns, row.cells, strict=False):
                if column == COST:
                    cells[COST] = self._resolve_same_cell(fid, self.raw_costs[fid])
                    continue
                match self.symbols.kind_of(column):
                    case "modifier":
                        cells[column] = self._modifier_cell(column, cell)
                        self._keyed_values(column, fid, cells[column], cell.pos)
                    case "sight":
                        cells[column] = sight_lowering.sight_cell(self, column, cell, fid)
                    case "roll rule":
                        cells[column] = moves_lowering.roll_cell(self, column, cell, fid)
                    case (
                        None
                        | "ruleset"
                        | "book"
                        | "mode"
                        | "group"
                        | "context"
                        | "context value"
                        | "layer"
                        | "feature"
                        | "factor"
                        | "step"
                        | "decision"
                        | "table"
                        | "dice table"
                        | "dice modifier"
                        | "trigger"
                        | "grid"
                        | "param"
                        | "kind of move"
                        | "arcs"
                        | "whole-move rule"
                        | "state"
                        | "drift"
                    ):
                        pass  # an unknown column, already reported
                    case unknown:
                        assert_never(unknown)
            costs = self._costs(fid)
            states, along = self._map_states(fid)
            features.append(
                self.at(
                    ir.Feature(
                        fid,
                        decl.item.name.text,
                        self.info(row.item),
                        cells,
                        costs,
                        row.item.extras.ignores_others,
                        states,
                        along,
                        tuple(own[fid]),
                    ),
                    row.item.name.pos,
                )
            )
            self._order_line(features[-1], row.precedence)
        return layers, features

    def _columns(self, decl: s.LayerDecl) -> tuple[str, ...]:
        """The layer's columns (its cost alone when it names none), each named one checked."""
        for name in decl.columns or ():
            if name.text != COST:
                self.symbols.require(name, ("modifier", "sight", "roll rule"), "modifier column")
                moves_lowering.check_roll_column(self, decl, name)
        return tuple(n.text for n in decl.columns) if decl.columns else (COST,)

    def _order_line(self, node: ir.Layer | ir.Feature, names: tuple[s.Name, ...] | None) -> None:
        """Where each group of a layer's or a feature's ``precedence`` was written (issue 40;
        the checks judge the line, E235)."""
        for i, name in enumerate(n for n in names or () if n.text in node.precedence):
            self.where.record(node, name.pos, item_field("precedence", i))

    def _declared(self, names: tuple[s.Name, ...] | None) -> list[str]:
        """The groups a ``precedence`` on a layer or a row names (E101 for any other name)."""
        return [n.text for n in names or () if self.symbols.require(n, ("group",), "group")]

    def _cost_cell(self, cell: s.CellNode) -> ir.Cell:
        default: ir.Value | None = None
        exceptions: dict[str, ir.Value] = {}
        states: dict[str, ir.PlaceState] = {}
        along: dict[str, ir.Value] = {}
        for entry in cell.entries:
            if entry.key2 is not None and self._combination(
                entry, "a cost is keyed by one mode or group: `<mode> <value>`"
            ):
                continue
            if (entry.along or entry.state is not None) and not self._map_entry(
                entry, states, along
            ):
                continue
            value = self.value(entry.value, _COST_KINDS, "a movement cost")
            if isinstance(value, ir.StepCost) and not self.symbols.require(
                s.Name(value.step, entry.value.pos), ("step",), "step"
            ):
                value = None
            if isinstance(entry.value.value, s.SameAs):
                target = entry.value.value.target
                if self.symbols.require(target, ("feature",), "feature"):
                    value = ir.Same(target.text, ZERO)
            if value is None:
                continue
            if entry.key is None:
                if default is not None:
                    self.err(
                        "E102",
                        "a cell has one value for every mode",
                        entry.value.pos,
                        "name the mode this value is for: `<mode> <value>`",
                    )
                default = value
            elif self.symbols.require(
                entry.key,
                ("mode", "group", "kind of move"),
                self.key_words,
            ):
                if entry.key.text in exceptions:
                    self.err(
                        "E102", f"'{entry.key.text}' is given twice in this cell", entry.key.pos
                    )
                exceptions[entry.key.text] = value
        if states or along:
            return ir.Cell(default, exceptions, states=states, along=along)
        return ir.Cell(default, exceptions)

    def _map_entry(
        self, entry: s.Entry, states: dict[str, ir.PlaceState], along: dict[str, ir.Value]
    ) -> bool:
        """Record an entry's place state or `along` value; False when it is to be skipped."""
        key = "" if entry.key is None else entry.key.text
        if entry.key is not None and not self.symbols.require(
            entry.key, ("mode", "group"), "mode or group"
        ):
            return False
        if entry.along:
            value = self.value(entry.value, ("number",), "an along cost")
            if value is None:
                return False
            if key in along:
                self.err(
                    "E102", "this cell gives `along` twice for the same units", entry.value.pos
                )
            along[key] = value
            return False
        if entry.state is not None:
            states[key] = entry.state.state
        return True

    def _map_states(self, fid: str) -> tuple[dict[str, ir.PlaceState], dict[str, float]]:
        """Each mode's place state and `along` cost for feature ``fid``, resolved like costs."""
        cell = self.raw_costs.get(fid)
        states: dict[str, ir.PlaceState] = {}
        along: dict[str, float] = {}
        if cell is None or not (cell.states or cell.along):
            return states, along  # nothing to resolve: most cells give neither (issue 44)
        groups, order, unnamed = self.group_list, self.order_of(fid), self.unnamed
        for mode in self.modes:
            if cell.states:
                state = semantics_routes.written_state(cell, mode, groups, order, unnamed)
                if state is not None:
                    states[mode] = state
            if cell.along:
                amount = semantics_routes.written_along(cell, mode, groups, order, unnamed)
                if amount is not None:
                    along[mode] = amount
        return states, along

    def _costs(self, fid: str) -> dict[str, ir.Value]:
        """The cost of ``fid`` for each mode. A cell with no keyed entry and no `as` gives
        every mode its value (issue 44: most cells; each mode was asked in turn); a mode with
        an entry of its own takes it, and one that no group named in the cell holds takes the
        value for all (``written_cost`` gives the same: no group to choose from)."""
        cell = self.raw_costs.get(fid)
        if cell is None:
            return dict.fromkeys(self.modes, ZERO)
        if not cell.exceptions and not isinstance(cell.default, ir.Same):
            return dict.fromkeys(self.modes, ZERO if cell.default is None else cell.default)
        order, groups, unnamed = self.order_of(fid), self.group_list, self.unnamed
        exceptions = cell.exceptions
        grouped = {m for g in groups if g.id in exceptions for m in g.members}
        out: dict[str, ir.Value] = {}
        value: ir.Value | None
        for mode in self.modes:  # _cost_for's first step, the cell's reading asked once
            if mode in exceptions:
                value = exceptions[mode]
            elif mode not in grouped:  # no group of the cell holds it: the value for all
                value = cell.default
            else:
                value = semantics.written_cost(cell, mode, groups, order, unnamed)
            if isinstance(value, ir.Same):
                value = self._cost_for(fid, mode, ())  # `as X`: followed, cycles reported
            out[mode] = ZERO if value is None else value
        return out

    def _raw_for(self, fid: str, mode: str) -> ir.Value:
        cell = self.raw_costs.get(fid)
        if cell is None:
            return ZERO
        order = self.order_of(fid)
        value = semantics.written_cost(cell, mode, self.group_list, order, self.unnamed)
        return ZERO if value is None else value

    def _cost_for(self, fid: str, mode: str, seen: tuple[str, ...]) -> ir.Value:
        value = self._raw_for(fid, mode)
        if isinstance(value, ir.Same):
            if value.feature in seen:
                self.err(
                    "E205",
                    f"'{fid}' is defined through itself: "
                    + " -> ".join((*seen, fid, value.feature)),
                    self.cost_pos.get(fid),
                    "one feature in the cycle needs a value of its own",
                )
                return ZERO
            resolved = self._cost_for(value.feature, mode, (*seen, fid))
            return resolved.resolved if isinstance(resolved, ir.Same) else resolved
        return value

    def _resolve_same_cell(self, fid: str, cell: ir.Cell) -> ir.Cell:
        """Fill in what each `as X` stands for; for a default, as X's own default. A cell
        with no `as` is the cell as written (issue 44: most cells; it was copied)."""
        if not isinstance(cell.default, ir.Same) and not any(
            isinstance(v, ir.Same) for v in cell.exceptions.values()
        ):
            return cell

        def fill(value: ir.Value | None, mode: str | None) -> ir.Value | None:
            if not isinstance(value, ir.Same):
                return value
            if mode is None:
                target = self.raw_costs.get(value.feature)
                resolved = target.default if target and target.default else ZERO
                if isinstance(resolved, ir.Same):
                    resolved = ZERO
            else:
                resolved = self._cost_for(value.feature, mode, (fid,))
            return ir.Same(value.feature, resolved)

        exceptions = {
            k: fill(v, k if k in self.modes else None) for k, v in cell.exceptions.items()
        }
        return ir.Cell(
            fill(cell.default, None),
            {k: v for k, v in exceptions.items() if v is not None},
            cell.pairs,
            cell.states,
            cell.along,
        )

    def _check_cost_keywords(self, fid: str, pos: s.Pos) -> None:
        """E232: the cost cell of ``fid`` gives a mode two values through two groups."""
        cell = self.raw_costs[fid]
        if not cell.exceptions:  # no group gives a value: nothing ambiguous or shadowed
            return
        everyone = cell.default is not None
        _, ambiguous = keywords.expand_groups(
            cell.exceptions,
            self.modes,
            self.group_list,
            self.order_of(fid),
            everyone and self.unnamed,
        )
        for mode, pair in ambiguous:
            message, hint = keywords.ambiguity_message(
                f"the cost of '{fid}'", mode, pair, self.notation(pos.file)
            )
            self.err("E232", message, pos, hint)
        for mode, pair in keywords.shadowed(
            cell.exceptions, self.modes, self.group_list, self.order_of(fid), everyone, self.unnamed
        ):
            message, hint = keywords.shadow_message(f"the cost of '{fid}'", mode, pair)
            self.warn("W262", message, pos, hint)
