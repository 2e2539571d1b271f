"""The movement section of a sheet: cost tables by layer, map cells, and the modifier
tables with their policies, two contexts and keywords."""

from __future__ import annotations

from typing import assert_never

from rulesdsl import editions, ir, semantics
from rulesdsl.printed.sheet_rules import RuleBlocks
from rulesdsl.printed.sheet_view import (
    MARKERS,
    PAIR,
    Block,
    CellView,
    HeadCell,
    TableView,
    marker_sign,
    marks_text,
)

_Group = tuple[str, list[tuple[str, list[CellView]]]]
"""A group of a layer's columns: its title, and each column's header with its cells by row."""


def _signs_alone(groups: list[_Group]) -> None:
    """Narrow cells (a wide table): a marker's sign alone, the legend says what it means."""
    for _, cols in groups:
        for _, cells in cols:
            for cell in cells:
                marker = next((m for m in MARKERS if m in cell.classes), None)
                if marker is not None and cell.text.startswith(marker_sign(marker)):
                    cell.text = marker_sign(marker)


class MovementBlocks(RuleBlocks):
    """The movement section (cost tables by layer) and the modifier tables."""

    def is_movement_step(self, step: ir.Step) -> bool:
        cost = self.rs.units.get("cost")
        return cost is not None and step.result_unit == cost

    def movement(self) -> list[Block]:
        rs = self.rs
        blocks: list[Block] = []
        rules = []
        layers = [b for b in (self.layer(layer) for layer in rs.layers) if b is not None]
        if len(layers) > 1:
            rules.append(self.w("stacking"))
        cost_unit = rs.units.get("cost", "")
        if rs.entry_cost:
            rules.append(self.w("entry", cost=self.unit_text(self.num(rs.entry_cost), cost_unit)))
        if rs.minimum_move is not None:
            rules.append(self.w("minimum", distance=self.number(rs.minimum_move)))
        blocks += self.keywords()
        blocks += self.own_allowances(cost_unit)
        blocks += layers
        if blocks and rules:
            blocks[0].lines = rules + blocks[0].lines
        blocks += [self.step(s) for s in rs.steps if self.is_movement_step(s)]
        return blocks

    def mod_columns(self, modifier: ir.Modifier, items: list[str]) -> list[str]:
        """The context keys to show as columns for ``items``: specific values, then ``""``."""
        keys = {k for item in items for k in modifier.values.get(item, {})}
        ctx = next((c for c in self.rs.contexts if c.id == modifier.context), None)
        order = [v.id for v in ctx.values] if ctx else sorted(keys - {""})
        order += self.second_context_values(modifier)
        columns = [k for k in order if k in keys] + self.pair_keys(modifier, items)
        by_mode = {m.id for m in self.rs.modes} | {g.id for g in self.rs.groups}
        if self.mode is not None and columns and set(columns) <= by_mode:
            # one unit type's sheet: its own value, its group's or the one for all, in one
            # column (:meth:`keyed_value`), never the other unit types' columns
            return [self.mode]
        if "" in keys or not columns:
            columns.append("")
        return columns

    def ctx_label(self, key: str, alone: bool) -> str:
        if key == "" or (alone and key == self.mode):
            return self.w("all") if alone else self.w("others")
        if PAIR in key:
            first, second = key.split(PAIR)
            return f"{self.name(first)} & {self.name(second)}"
        return self.name(key)

    def written_cost(self, f: ir.Feature, mode: str) -> ir.Value | None:
        """The resolved cost, kept as ``as X`` when that is how the cell was written."""
        resolved = f.costs.get(mode)
        cell = f.cells.get("cost")
        if cell is None or resolved is None:
            return resolved
        written = semantics.written_cost(
            cell,
            mode,
            self.rs.groups,
            semantics.place_order(self.rs, f),
            editions.unnamed_keyword_counts(self.rs.edition),
        )
        if isinstance(written, ir.Same):
            return ir.Same(written.feature, resolved)
        return resolved

    def layer(self, layer: ir.Layer) -> Block | None:
        """A layer as a table: a row per feature, a column per mode, then modifier columns;
        None for a layer with no feature (nothing to print).

        Modes (or context values) whose columns are identical in this layer share a column,
        so a table with many unit types stays narrow enough to print.
        """
        rs = self.rs
        features = {f.id: f for f in rs.features}
        rows_of = [features[f] for f in layer.features if f in features]
        if not rows_of:
            return None
        ids = [f.id for f in rows_of]
        modes = [self.mode] if self.mode else [m.id for m in rs.modes]
        scope = self.w(_scope_word(layer.scope))
        groups: list[_Group] = []
        if "cost" in layer.columns and modes:
            groups.append(self._cost_group(layer, rows_of, modes))
        mods = {m.id: m for m in rs.modifiers}
        for column in layer.columns:
            if column == "cost" or column not in mods:
                continue
            groups.append(self._modifier_group(mods[column], ids, rows_of))
        # A column with nothing in it (a modifier that no feature of this layer has) goes.
        groups = [
            (g, kept)
            for g, cols in groups
            if (kept := [(h, cells) for h, cells in cols if any(c.text for c in cells)])
        ]
        sights = {r.id for r in rs.sights} | {r.id for r in rs.rolls}
        if not groups and set(layer.columns) <= sights and not any(f.info.notes for f in rows_of):
            return None  # only sight or roll columns: their values are printed with the rules
        if sum(len(cols) for _, cols in groups) > 6:
            _signs_alone(groups)
        title = self.label(layer.info, layer.id)
        head, flat = self._head(title, groups)
        notes: list[tuple[str, str]] = []
        rows = self._feature_rows(layer, rows_of, groups, notes)
        col_groups = [g for g, (_, cols) in enumerate(groups) for _ in cols]
        return Block(
            layer.id,
            f"{title} · {scope}",
            TableView(head, rows, flat, col_groups=col_groups),
            lines=[
                line
                for column in layer.columns
                if column in mods and not (mods[column].factors or mods[column].combinations)
                for line in self.policy_lines(mods[column])
            ],
            notes=notes,
            source=self.source(layer.info),
            changed=self.added(layer.id),
        )

    def _cost_group(self, layer: ir.Layer, rows_of: list[ir.Feature], modes: list[str]) -> _Group:
        """The cost columns, one per mode (identical ones merged), titled with the cost's
        unit per distance (per crossing on a map's edges)."""
        distance = self.rs.units.get("distance", "")
        cost_unit = self.rs.units.get("cost", "")
        per = (
            self.w("cost_per", cost=self.c.unit(cost_unit), distance=self.c.unit(distance))
            if cost_unit
            else ""
        )
        if semantics.on_edges(layer) and cost_unit:  # maps: paid once per crossing
            per = self.c.unit(cost_unit)
        columns = []
        for m in modes:
            cells = []
            for f in rows_of:
                cell = self.map_cell(self.value(self.written_cost(f, m)), f, m)
                cell.changed = bool(self.overridden) and self.changed(
                    f.id,
                    f"{f.id}.{m}",
                    f"{f.id}.cost",
                    f"{f.id}.cost.{m}",
                    *(f"{f.id}.{g}" for g in self.group_of.get(m, [])),
                )
                cells.append(cell)
            columns.append((self.name(m), cells))
        return per, self.merge_columns(columns)

    def _modifier_group(
        self, modifier: ir.Modifier, ids: list[str], rows_of: list[ir.Feature]
    ) -> _Group:
        """A modifier's columns, one per context value (identical ones merged)."""
        keys = self.mod_columns(modifier, ids)
        columns = []
        for k in keys:
            cells = []
            for f in rows_of:
                cell = self.value(self.keyed_value(modifier, f.id, k))
                cell.changed = bool(self.overridden) and self.changed(
                    f"{f.id}.{modifier.id}", f"{f.id}.{modifier.id}.{k}" if k else ""
                )
                cells.append(cell)
            columns.append((self.ctx_label(k, len(keys) == 1 and k in ("", self.mode)), cells))
        merged = self.merge_columns(columns, keys)
        return self.label(modifier.info, modifier.id), merged

    def _head(self, title: str, groups: list[_Group]) -> tuple[list[list[HeadCell]], list[str]]:
        """The table's head (a second row for groups of several columns) and each column's
        title in one line."""
        two_rows = any(len(cols) > 1 for _, cols in groups)
        head_top = [HeadCell(title, rowspan=2 if two_rows else 1)]
        head_sub: list[HeadCell] = []
        flat = [title]
        everyone = self.w("all")
        for group_title, cols in groups:
            if len(cols) == 1:
                only = cols[0][0]
                text = (
                    group_title
                    if only == everyone or not only
                    else self.w("label_colon", label=group_title, text=only)
                    if group_title
                    else only
                )
                head_top.append(HeadCell(text, rowspan=2 if two_rows else 1))
                flat.append(text)
            else:
                head_top.append(HeadCell(group_title, colspan=len(cols)))
                head_sub += [HeadCell(h) for h, _ in cols]
                flat += [
                    self.w("label_colon", label=group_title, text=h) if group_title else h
                    for h, _ in cols
                ]
        return [head_top] + ([head_sub] if head_sub else []), flat

    def _feature_rows(
        self,
        layer: ir.Layer,
        rows_of: list[ir.Feature],
        groups: list[_Group],
        notes: list[tuple[str, str]],
    ) -> list[list[CellView]]:
        """A row per feature: its label (with its notes' marks, added to ``notes``), then its
        cells; with one unit type chosen, a feature with nothing for it is left out."""
        rows: list[list[CellView]] = []
        for i, f in enumerate(rows_of):
            marks = []
            texts = self.note_texts(f.info)
            if f.ignores_others:
                texts.append(self.w("ignores_others"))
            for text in texts:
                marks.append(self.add_note(notes, text))
            added = self.added(f"{layer.id}.{f.id}", f.id)
            label = CellView(
                self.label(f.info, f.id),
                ("label",),
                tuple(marks),
                added,
                self.source(f.info, detail=False) if f.info.source != layer.info.source else "",
            )
            row_cells = [cells[i] for _, cols in groups for _, cells in cols]
            if self.mode is not None and all(not v.text for v in row_cells):
                continue  # nothing in this row for the chosen unit type
            label.notes = tuple(sorted(marks, key=int))
            rows.append([label, *row_cells])
        return rows

    def map_cell(self, cell: CellView, f: ir.Feature, mode: str) -> CellView:
        """A cost cell with what maps add (issue 11): the place state after the cost, and an
        edge feature's ``along`` cost (alone when the cell gives the mode no crossing cost)."""
        parts = [cell.text] if cell.text else []
        along = f.along.get(mode)
        if along is not None:
            written = f.cells.get("cost")
            crossing = written is not None and (
                semantics.written_cost(written, mode, self.rs.groups) is not None
            )
            parts = parts if crossing else []
            parts.append(self.w("along_cost", cost=self.num(along)))
        state = f.states.get(mode)
        if state is not None:
            parts.append(self.w(f"state_{state}"))
        cell.text = " · ".join(parts)
        return cell

    def merge_columns(
        self, columns: list[tuple[str, list[CellView]]], keys: list[str] | None = None
    ) -> list[tuple[str, list[CellView]]]:
        """Columns with the same cells, merged into one headed by all their names.

        One column left for everyone is headed "all"; a column shared by three or more and by
        most of them is headed "Others" (every one not named in a column of its own), so that
        a long list of unit types does not make the header taller than a card. Modifier
        columns come with their context ``keys``: where one of them is the column for everyone
        else (``""``), "Others" would name two columns, so the merged column is headed by its
        keys, the unit types that make up a keyword by the keyword (``Fly, Blast & Fly``).
        """
        merged: dict[tuple[tuple[str, tuple[str, ...], bool], ...], list[int]] = {}
        for i, (_, cells) in enumerate(columns):
            key = tuple((c.text, c.classes, c.changed) for c in cells)
            merged.setdefault(key, []).append(i)
        if len(merged) == 1 and len(columns) > 1:
            return [(self.w("all"), columns[0][1])]
        others = self.w("others")
        rest = keys is not None and "" in keys

        def head(members: list[int]) -> str:
            many = len(merged) > 1 and len(members) >= 3 and 2 * len(members) > len(columns)
            if many and not rest:
                return others[:1].upper() + others[1:]
            if rest and keys is not None and len(members) > 1:
                named = self.keyword_keys([keys[i] for i in members])
                return ", ".join(self.ctx_label(k, False) for k in named)
            return ", ".join(columns[i][0] for i in members)

        return [(head(members), columns[members[0]][1]) for members in merged.values()]

    def keyword_keys(self, keys: list[str]) -> list[str]:
        """``keys`` with the unit types that make up a keyword (alone or paired with one
        context value) named by the keyword, in the place of the first of them."""
        out = list(keys)
        for group in sorted(self.rs.groups, key=lambda g: -len(g.members)):
            if len(group.members) < 2:
                continue
            prefixes = ["", *sorted({k.split(PAIR)[0] + PAIR for k in out if PAIR in k})]
            for prefix in prefixes:
                whole = [prefix + m for m in group.members]
                if set(whole) <= set(out):
                    at = min(out.index(k) for k in whole)
                    out = [k for k in out if k not in whole]
                    out.insert(min(at, len(out)), prefix + group.id)
        return out

    def modifiers(self) -> list[Block]:
        blocks = []
        for modifier in self.rs.modifiers:
            if not modifier.factors and not modifier.combinations and not modifier.bands:
                continue  # shown as a column of its layers
            blocks.append(self.modifier(modifier))
        return blocks

    def modifier(self, modifier: ir.Modifier) -> Block:
        title = self.label(modifier.info, modifier.id)
        ids = [f.id for f in modifier.factors]
        keys = self.mod_columns(modifier, ids) if ids else [""]
        alone = len(keys) == 1 and keys[0] in ("", self.mode)
        head = [[HeadCell(title)] + [HeadCell(self.ctx_label(k, alone)) for k in keys]]
        notes: list[tuple[str, str]] = []
        rows = []
        for factor in modifier.factors:
            marks = []
            for text in self.note_texts(factor.info):
                marks.append(self.add_note(notes, text))
            added = self.added(f"{modifier.id}.{factor.id}", factor.id)
            row = [
                CellView(
                    self.label(factor.info, factor.id),
                    ("label",),
                    tuple(marks),
                    added,
                    self.source(factor.info, detail=False),
                )
            ]
            for k in keys:
                cell = self.value(self.keyed_value(modifier, factor.id, k))
                cell.changed = self.changed(factor.id, f"{factor.id}.{k}" if k else "")
                row.append(cell)
            rows.append(row)
        for combo in modifier.combinations:
            marks = []
            for text in self.note_texts(combo.info):
                marks.append(self.add_note(notes, text))
            together = " + ".join(self.name(m) for m in combo.members)
            cell = self.value(combo.value)
            row = [CellView(f"{together} ({self.w('together')})", ("label",), tuple(marks))]
            row += [CellView(cell.text, cell.classes) for _ in keys]
            rows.append(row)
        for band in modifier.bands:  # ``when altitude above 6 | +1`` (issue 40)
            marks = [self.add_note(notes, text) for text in self.note_texts(band.info)]
            state = next((v for v in self.rs.states if v.id == band.state), None)
            said = self.w(
                f"modifier_band_{band.side}",
                state=self.label(state.info if state else None, band.state),
                bound=self.num(band.bound),
            )
            cell = self.value(band.value)
            row = [CellView(said, ("label",), tuple(marks))]
            row += [CellView(cell.text, cell.classes) for _ in keys]
            rows.append(row)
        flat = [title] + [self.ctx_label(k, alone) for k in keys]
        return Block(
            modifier.id,
            title,
            TableView(head, rows, flat),
            lines=self.policy_lines(modifier),
            notes=notes,
            source=self.source(modifier.info),
            changed=self.added(modifier.id),
        )

    def policy_lines(self, modifier: ir.Modifier) -> list[str]:
        """How the modifier's values combine and the bounds of its total, as sentences."""
        label = self.label(modifier.info, modifier.id)
        lines = []
        match modifier.combine:
            case "sum":
                pass
            case "highest" | "lowest" | "once":
                lines.append(self.w(f"combine_{modifier.combine}", modifier=label))
            case _:
                assert_never(modifier.combine)
        for group in modifier.best:  # before the clamp: the best counts, then the total is held
            members = ", ".join(self.name(m) for m in group.members)
            name = self.label(group.info, group.id)
            said = self.w(f"best_{group.combine}", group=name, members=members)
            lines.append(" ".join([said, *self.note_texts(group.info)]))  # the group's notes
        for factor in modifier.sights:  # a factor read along a line of sight (issue 40)
            rule = self.name(factor.rule)
            name = self.label(factor.info, factor.id)
            said = self.w("sight_factor", factor=name, rule=rule, sign=marker_sign("blocked"))
            lines.append(" ".join([said, *self.note_texts(factor.info)]))
        if modifier.clamp is not None:
            low, high = modifier.clamp.low, modifier.clamp.high
            lines.append(
                self.w("clamp", modifier=label, low=self.signed(low), high=self.signed(high))
            )
        return lines

    def second_context_values(self, modifier: ir.Modifier) -> list[str]:
        """The values of a modifier's second context, in their order (none without one)."""
        ctx = next((c for c in self.rs.contexts if c.id == modifier.context2), None)
        return [v.id for v in ctx.values] if ctx and modifier.context2 else []

    def pair_keys(self, modifier: ir.Modifier, items: list[str]) -> list[str]:
        """A column key per combination of two context values that ``items`` give."""
        keys: dict[str, None] = {}
        for item in items:
            for pair in modifier.pairs.get(item, ()):
                keys[f"{pair.first}{PAIR}{pair.second}"] = None
        return list(keys)

    def keyed_value(self, modifier: ir.Modifier, item: str, key: str) -> ir.Value | None:
        """What ``item`` gives under a column key: a context value, a combination, or all."""
        if PAIR in key:
            first, second = key.split(PAIR)
            return semantics.context_value(modifier, item, first, second)
        values = modifier.values.get(item, {})
        if key and key == self.mode:  # the unit type's own, its group's, or the one for all
            feature = next((f for f in self.rs.features if f.id == item), None)
            order = (
                semantics.place_order(self.rs, feature)
                if feature is not None
                else [p.groups for p in self.rs.precedence]
            )
            unnamed = editions.unnamed_keyword_counts(self.rs.edition)
            chosen = semantics.written_key(values, key, self.rs.groups, order, unnamed)
            return values.get(chosen) if chosen is not None else None
        return values.get(key, values.get(""))

    def own_allowances(self, cost_unit: str) -> list[Block]:
        """The unit types' own allowances (``mode tank allowance 6 in``, issue 40), if any."""
        lines = [
            self.w(
                "label_colon",
                label=self.name(m.id),
                text=self.unit_text(self.num(m.allowance), cost_unit),
            )
            for m in self.rs.modes
            if m.allowance is not None and (self.mode is None or m.id == self.mode)
        ]
        return [Block("allowances", self.w("own_allowances"), lines=lines)] if lines else []

    def keywords(self) -> list[Block]:
        """The modes' keywords and the precedence between groups, when the ruleset has any."""
        rs = self.rs
        lines = [
            self.w(
                "label_colon",
                label=self.name(m.id),
                text=", ".join(self.name(k) for k in m.keywords),
            )
            for m in rs.modes
            if m.keywords and (self.mode is None or m.id == self.mode)
        ]
        notes: list[tuple[str, str]] = []
        for p in rs.precedence:
            order = " > ".join(self.name(g) for g in p.groups)
            marks = [self.add_note(notes, text) for text in self.note_texts(p.info)]
            line = self.w("precedence", order=order)
            lines.append(marks_text(line, tuple(marks)) if marks else line)
        places = [(x.id, x.precedence) for x in rs.layers]
        for item, own in [*places, *((f.id, f.precedence) for f in rs.features)]:
            if own:  # issue 40: an order of a layer's or a feature's own
                order = " > ".join(self.name(g) for g in own)
                lines.append(self.w("precedence_in", place=self.name(item), order=order))
        if not lines:
            return []
        return [Block("keywords", self.w("keywords"), lines=lines, notes=notes)]


def _scope_word(scope: ir.LayerScope) -> str:
    """The catalog's word for a layer's scope."""
    match scope:
        case "one":
            return "scope_one"
        case "map":
            return "scope_map"
        case "many":
            return "scope_many"
        case "edges":
            return "scope_edges"
        case _:
            assert_never(scope)
