"""Overrides: where a path such as ``soft.walker`` or ``effects.fire.range`` lands in the
base's statements, whether the override is written in the form that path takes, and how it
rewrites the statement."""

from __future__ import annotations

from dataclasses import replace
from typing import Literal, assert_never

from rulesdsl import ir, words
from rulesdsl.diagnostics import Related, error
from rulesdsl.frontends import syntax as s
from rulesdsl.variants.changelog import path_text
from rulesdsl.variants.merging import (
    COST,
    MOVE_FIELDS,
    SIGHT_FIELDS,
    TRIGGER_FIELDS,
    Form,
    Landing,
    MergeBase,
    form_hint,
    replace_node,
    set_key,
    set_label,
    set_param,
)


class Overrides(MergeBase):
    """Overrides: where each path lands, the form it takes, and the rewrite."""

    def _override(self, st: s.OverrideDecl) -> None:
        target = self._locate(st)
        if target is None:
            return
        canonical = path_text(target.path)
        for address, (pos, path) in self.overridden.items():
            shorter = min(len(address), len(target.address))
            if address[:shorter] == target.address[:shorter]:
                what = (
                    "is overridden twice"
                    if path == canonical
                    else f"overlaps the override of '{path}'"
                )
                self.diags.append(
                    error(
                        "E505",
                        f"'{canonical}' {what}",
                        st.path[0].pos,
                        "keep one override per cell",
                        [Related(pos, "first override here")],
                    )
                )
                return
        if not self._fits(st, target.form, canonical):
            return
        self.statements[target.index] = target.apply(self.statements[target.index], st)
        self.overridden[target.address] = (st.path[0].pos, canonical)
        self._record("override", target.path, st.extras)

    def _fits(self, st: s.OverrideDecl, form: Form, canonical: str) -> bool:
        """Whether the override is written in the form its path takes (E201 if not)."""
        one = (
            st.range is None
            and st.row is None
            and len(st.cell.entries) == 1
            and st.cell.entries[0].key is None
        )
        message = f"`override {canonical}` takes {form_hint(form).split(',')[0]}"
        match form:
            case "one":
                ok = one
                message = f"`override {canonical}` sets one value"
            case "cell":
                ok = st.range is None and st.row is None
            case "range":
                ok = st.range is not None
            case "row":
                ok = st.row is not None
            case "text":
                ok = one and isinstance(st.cell.entries[0].value.value, ir.Text)
            case "name":
                ok = one and isinstance(st.cell.entries[0].value.value, s.Word)
            case "names":
                entries = st.cell.entries
                ok = bool(entries) and all(
                    e.key is None and isinstance(e.value.value, s.Word) for e in entries
                )
            case _:
                assert_never(form)
        if not ok:
            pos = (
                st.cell.pos
                if st.range is None and st.row is None and st.cell.entries
                else (st.path[-1].pos)
            )
            self.diags.append(error("E201", message, pos, "write " + form_hint(form)))
        return ok

    def _locate(self, st: s.OverrideDecl) -> Landing | None:
        path = st.path
        head = path[0].text
        texts = [p.text for p in path]
        for word in ("label", "note"):
            if word in texts[1:]:
                return self._locate_text(path, texts.index(word, 1))
        for i, base in enumerate(self.statements):
            match base:
                case s.ModifierDecl() if (
                    base.item.name.text == head and len(path) > 1 and path[1].text == "when"
                ):
                    return self._locate_when(i, base, path)
                case s.LayerDecl() | s.ModifierDecl():
                    for r, row in enumerate(base.rows):
                        if row.item.name.text == head:
                            return self._locate_row(i, base, r, path)
                case s.TableDecl() if base.item.name.text == head:
                    return self._locate_table(i, base, path)
                case s.DiceDecl() if base.item.name.text == head:
                    return self._locate_dice(i, base, path, st)
                case s.StepDecl() if base.item.name.text == head:
                    return self._locate_step(i, base, path)
                case s.DecisionDecl() if base.item.name.text == head:
                    return self._locate_decision(i, base, path)
                case s.TriggerDecl() if base.item.name.text == head:
                    return self._locate_trigger(i, base, path)
                case s.MoveDecl() if base.item.name.text == head:
                    return self._locate_move(i, path)
                case s.SightDecl() if base.item.name.text == head:
                    return self._locate_sight(i, path)
                case s.ModeDecl() if base.item.name.text == head and texts[1:] == ["allowance"]:
                    return self._locate_allowance(i)
                case s.ParamDecl() if base.item.name.text == head:
                    return self._locate_param(i, path)
                case (
                    s.TableDecl()
                    | s.DiceDecl()
                    | s.DecisionDecl()
                    | s.ContextDecl()
                    | s.Header()
                    | s.Change()
                    | s.Plain()
                ):
                    pass  # another name, or nothing an override names
                case _:
                    assert_never(base)
        declared = self._declared()
        kind = declared.get(head)
        overridable = [
            n
            for n, k in declared.items()
            if k
            in (
                "feature",
                "factor",
                "table",
                "dice table",
                "param",
                "step",
                "decision",
                "trigger",
                "modifier",
            )
        ]
        if kind is not None:
            self._missing(
                path[0],
                f"'{head}' is a {kind}: it has no cell to override",
                [],
                "override a feature, factor, table, dice table or parameter, "
                "e.g. `override <feature>.<mode> | 2`",
            )
        else:
            self._missing(
                path[0],
                f"the base has no feature, factor, table, dice table or parameter '{head}'",
                overridable,
            )
        return None

    def _locate_param(self, index: int, path: tuple[s.Name, ...]) -> Landing | None:
        head = path[0].text
        if len(path) > 1:
            self._missing(
                path[1],
                f"the parameter '{head}' has no part '{path[1].text}'",
                [],
                f"write `override {head} | value`",
            )
            return None
        return Landing(index, (head,), ir.ParamPath(head), set_param, "one")

    def _locate_row(
        self, index: int, block: s.LayerDecl | s.ModifierDecl, r: int, path: tuple[s.Name, ...]
    ) -> Landing | None:
        head = path[0].text
        is_layer = isinstance(block, s.LayerDecl)
        columns = (
            [n.text for n in block.columns]
            if isinstance(block, s.LayerDecl) and block.columns
            else [COST]
        )
        rest = list(path[1:])
        if is_layer and rest and rest[0].text in columns:
            column = rest.pop(0).text
        elif COST in columns or len(columns) == 1:
            column = COST if COST in columns else columns[0]
        else:
            self._missing(
                path[0],
                f"'{head}' has no cost column: name one of its columns",
                [],
                "write e.g. `override " + head + "." + columns[0] + " | ...`",
            )
            return None
        keys = (
            self._modes_and_groups()
            if column == COST and is_layer
            else self._context_values(column if is_layer else block.item.name.text)
        )
        if len(rest) > 1:
            self._missing(
                rest[1], f"a path ends at one value: '{rest[1].text}' is one name too many", []
            )
            return None
        key = rest[0] if rest else None
        if key is not None and key.text not in keys:
            what = "mode or group" if column == COST and is_layer else "context value"
            pool = keys + (columns if is_layer and len(path) == 2 else [])
            self._missing(
                key,
                f"'{head}' has no column, {what} '{key.text}'"
                if is_layer and len(path) == 2
                else f"no {what} '{key.text}' in the '{column}' cell of '{head}'",
                pool,
            )
            return None
        slot = columns.index(column)
        value = key.text if key else None
        change: ir.ChangePath = (
            ir.FactorPath(head, value)
            if not is_layer
            else ir.CostPath(head, value)
            if column == COST
            else ir.ColumnPath(head, column, value)
        )

        def apply(st: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(st, s.LayerDecl | s.ModifierDecl)
            row = st.rows[r]
            cell = o.cell
            cells = list(row.cells) + [s.CellNode((), cell.pos)] * (slot + 1 - len(row.cells))
            cells[slot] = cell if key is None else set_key(cells[slot], key, cell)
            rows = list(st.rows)
            rows[r] = replace(row, cells=tuple(cells))
            return replace(st, rows=tuple(rows))

        return Landing(
            index,
            (head, column, *([key.text] if key else [])),
            change,
            apply,
            "cell" if key is None else "one",
        )

    def _locate_when(
        self, index: int, mod: s.ModifierDecl, path: tuple[s.Name, ...]
    ) -> Landing | None:
        head = path[0].text
        members = [p.text for p in path[2:]]
        whens = [sorted(m.text for m in w.members) for w in mod.whens]
        if sorted(members) not in whens:
            shown = ["+".join(w) for w in whens]
            self._missing(
                path[-1] if len(path) > 2 else path[1],
                f"'{head}' has no `when` combination of {' and '.join(members) or 'nothing'}",
                [],
                f"its combinations: {', '.join(shown)}"
                if shown
                else "add one by re-opening the modifier: `modifier ... { when a, b | +1 }`",
            )
            return None
        w = whens.index(sorted(members))
        names = tuple(m.text for m in mod.whens[w].members)

        def apply(st: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(st, s.ModifierDecl)
            new = list(st.whens)
            new[w] = replace(new[w], cell=o.cell)
            return replace(st, whens=tuple(new))

        return Landing(
            index, (head, "when", *sorted(members)), ir.CombinationPath(head, names), apply, "cell"
        )

    def _locate_table(
        self, index: int, table: s.TableDecl, path: tuple[s.Name, ...]
    ) -> Landing | None:
        head = path[0].text
        columns = [c.name.text for c in table.columns]
        rows = [row.item.name.text for row in table.rows]
        if len(path) == 3 and columns:
            if path[1].text not in columns:
                self._missing(
                    path[1], f"the table '{head}' has no column '{path[1].text}'", columns
                )
                return None
            column, row_name = path[1].text, path[2]
        elif len(path) == 2 and len(columns) <= 1:
            column, row_name = (columns[0] if columns else ""), path[1]
        else:
            shape = f"{head}.<column>.<row>" if columns else f"{head}.<row>"
            self._missing(
                path[-1] if len(path) > 1 else path[0],
                f"a cell of the table '{head}' is written `{shape}`",
                [],
                f"columns: {', '.join(columns)}" if columns else None,
            )
            return None
        if row_name.text not in rows:
            self._missing(row_name, f"the table '{head}' has no row '{row_name.text}'", rows)
            return None
        slot = columns.index(column) if column else 0
        r = rows.index(row_name.text)
        change = ir.TableCellPath(head, column or None, row_name.text)

        def apply(st: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(st, s.TableDecl)
            row = st.rows[r]
            cell = o.cell
            cells = list(row.cells) + [s.CellNode((), cell.pos)] * (slot + 1 - len(row.cells))
            cells[slot] = cell
            new_rows = list(st.rows)
            new_rows[r] = replace(row, cells=tuple(cells))
            return replace(st, rows=tuple(new_rows))

        return Landing(index, (head, column, row_name.text), change, apply, "one")

    def _locate_dice(
        self, index: int, dice: s.DiceDecl, path: tuple[s.Name, ...], st: s.OverrideDecl
    ) -> Landing | None:
        head = path[0].text
        rows = [row.item.name.text for row in dice.rows]
        modifiers = [m.item.name.text for m in dice.modifiers]
        if len(path) == 2 and path[1].text in modifiers:
            m = modifiers.index(path[1].text)

            def set_modifier(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
                assert isinstance(base, s.DiceDecl)
                mods = list(base.modifiers)
                mods[m] = replace(mods[m], amount=o.cell.entries[0].value)
                return replace(base, modifiers=tuple(mods))

            return Landing(
                index,
                (head, path[1].text),
                ir.DiceModifierPath(head, path[1].text),
                set_modifier,
                "one",
            )
        outcomes = [o.name.text for o in dice.results.outcomes] if dice.results else []
        if len(path) == 2 and path[1].text in outcomes and st.range is None:
            return self._outcome_effects(index, head, path[1].text)
        ranged = st.range is not None or (len(path) == 3 and path[2].text == "range")
        if len(path) != (3 if len(path) == 3 and path[2].text == "range" else 2):
            self._missing(
                path[-1],
                f"a row of the dice table '{head}' is written `{head}.<row>`",
                [],
                "rows: " + ", ".join(rows),
            )
            return None
        if path[1].text not in rows:
            self._missing(
                path[1],
                f"the dice table '{head}' has no row '{path[1].text}'",
                rows + modifiers + outcomes,
            )
            return None
        r = rows.index(path[1].text)
        if ranged:

            def rerange(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
                assert isinstance(base, s.DiceDecl) and o.range is not None
                new_rows = list(base.rows)
                new_rows[r] = replace(base.rows[r], low=o.range[0], high=o.range[1])
                return replace(base, rows=tuple(new_rows))

            return Landing(
                index,
                (head, path[1].text, "range"),
                ir.DiceRangePath(head, path[1].text),
                rerange,
                "range",
            )

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(base, s.DiceDecl)
            new_rows = list(base.rows)
            new_rows[r] = replace(base.rows[r], effects=o.cell)
            return replace(base, rows=tuple(new_rows))

        return Landing(
            index,
            (head, path[1].text, "effects"),
            ir.DiceRowPath(head, path[1].text),
            apply,
            "cell",
        )

    def _outcome_effects(self, index: int, head: str, outcome: str) -> Landing:
        """``override crt.dr | retreat 2 hex``: a results table's outcome carries other
        effects (issue 25)."""

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(base, s.DiceDecl) and base.results is not None
            kept = tuple((k, c) for k, c in base.results.effects if k != outcome)
            return replace(base, results=replace(base.results, effects=(*kept, (outcome, o.cell))))

        return Landing(
            index, (head, outcome, "effects"), ir.DiceRowPath(head, outcome), apply, "cell"
        )

    def _locate_step(
        self, index: int, step: s.StepDecl, path: tuple[s.Name, ...]
    ) -> Landing | None:
        head = path[0].text
        kinds = [t.term for t in step.terms]
        shapes = [f"{head}.{k}.{f}" for k in dict.fromkeys(kinds) for f in words.step_fields(k)]
        term = next((k for k in kinds if len(path) > 1 and k == path[1].text), None)
        fields = () if term is None else words.step_fields(term)
        field = next((f for f in fields if len(path) == 3 and f == path[2].text), None)
        if term is None or field is None:
            bad = path[1] if len(path) > 1 and term is None else path[-1]
            self._missing(
                bad,
                f"a parameter of the step '{head}' is written `step.<term>.<parameter>`",
                [p.split(".", 1)[1] for p in shapes] if len(path) > 1 else [],
                "its parameters: " + ", ".join(shapes),
            )
            return None
        t = kinds.index(term)

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(base, s.StepDecl)
            terms = list(base.terms)
            value = o.cell.entries[0].value
            match field:
                case "amount":
                    terms[t] = replace(terms[t], amount=value)
                case "per" | "at":
                    terms[t] = replace(terms[t], quantity=value)
                case _:
                    assert_never(field)
            return replace(base, terms=tuple(terms))

        return Landing(
            index,
            (head, term, field),
            ir.StepPath(head, term, field),
            apply,
            "one",
        )

    def _locate_decision(
        self, index: int, decision: s.DecisionDecl, path: tuple[s.Name, ...]
    ) -> Landing | None:
        head = path[0].text
        if len(path) != 2:
            self._missing(
                path[-1], f"a row of the decision '{head}' is written `{head}.<outcome>`", []
            )
            return None
        r = self._decision_row(decision, path[1])
        if r is None:
            return None

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(base, s.DecisionDecl) and o.row is not None
            rows = list(base.rows)
            rows[r] = _keep_label(rows[r], o.row)
            return replace(base, rows=tuple(rows))

        return Landing(
            index, (head, path[1].text), ir.DecisionRowPath(head, path[1].text), apply, "row"
        )

    def _decision_row(self, decision: s.DecisionDecl, name: s.Name) -> int | None:
        """The row of a decision named by its outcome (which must be unique)."""
        head = decision.item.name.text
        outcomes = [r.outcome.name.text for r in decision.rows]
        if name.text not in outcomes:
            self._missing(
                name, f"the decision '{head}' has no row that ends in '{name.text}'", outcomes
            )
            return None
        if outcomes.count(name.text) > 1:
            self._missing(
                name,
                f"{outcomes.count(name.text)} rows of '{head}' end in "
                f"'{name.text}': a row is named by a unique outcome",
                [],
                "remove the decision and declare it again",
            )
            return None
        return outcomes.index(name.text)

    def _locate_trigger(
        self, index: int, trigger: s.TriggerDecl, path: tuple[s.Name, ...]
    ) -> Landing | None:
        head = path[0].text
        field = next((f for f in TRIGGER_FIELDS if len(path) == 2 and f == path[1].text), None)
        if field is None:
            self._missing(
                path[-1],
                f"a part of the trigger '{head}' is written `{head}.<part>`",
                TRIGGER_FIELDS if len(path) == 2 else [],
                "its parts: " + ", ".join(TRIGGER_FIELDS),
            )
            return None
        form: Form
        match field:
            case "table" | "modifier":
                form = "name"
            case "times" | "at_least":
                form = "one"
            case _:
                assert_never(field)

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(base, s.TriggerDecl)
            value = o.cell.entries[0].value
            word, number = value.value, value.value
            name = word.name if isinstance(word, s.Word) else s.Name("", value.pos)
            count = int(number.value) if isinstance(number, ir.Number) else 0
            match field:
                case "table":
                    return replace(base, table=name)
                case "modifier":
                    return replace(base, modifier=name)
                case "times":
                    return replace(base, times=count)
                case "at_least":
                    return replace(base, at_least=count)
                case _:
                    assert_never(field)

        return Landing(
            index,
            (head, field),
            ir.TriggerPath(head, field),
            apply,
            form,
        )

    def _locate_move(self, index: int, path: tuple[s.Name, ...]) -> Landing | None:
        """``override run.factor | 3``, ``override charge.amount | +4 in`` (issue 24)."""
        head = path[0].text
        field = next((f for f in MOVE_FIELDS if len(path) == 2 and f == path[1].text), None)
        if field is None:
            self._missing(
                path[-1],
                f"a part of the kind of move '{head}' is written `{head}.<part>`",
                MOVE_FIELDS if len(path) == 2 else [],
                "its parts: " + ", ".join(MOVE_FIELDS),
            )
            return None

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(base, s.MoveDecl)
            value = o.cell.entries[0].value
            match field:
                case "factor":
                    return replace(base, factor=value)
                case "amount":
                    return replace(base, amount=value)
                case "only":  # issue 40: who may make the move
                    words = [e.value.value for e in o.cell.entries]
                    return replace(base, only=tuple(w.name for w in words if isinstance(w, s.Word)))
                case _:
                    assert_never(field)

        form: Form = "names" if field == "only" else "one"
        return Landing(index, (head, field), ir.MovePath(head, field), apply, form)

    def _locate_sight(self, index: int, path: tuple[s.Name, ...]) -> Landing | None:
        """``override los.blocks_at | 3``, ``override los.blocks_above | 2`` (issue 40): the
        threshold and how it is compared; the two share one address."""
        head = path[0].text
        if len(path) == 2 and path[1].text in self._states():
            return self._locate_sight_band(index, head, path[1])
        field = next((f for f in SIGHT_FIELDS if len(path) == 2 and f == path[1].text), None)
        if field is None or field == "band":
            self._missing(
                path[-1],
                f"the threshold of the sight rule '{head}' is written `{head}.<part>`",
                SIGHT_FIELDS if len(path) == 2 else [],
                "its parts: " + ", ".join(SIGHT_FIELDS),
            )
            return None

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(base, s.SightDecl)
            above: Literal[True] | None = True if field == "blocks_above" else None
            return replace(base, blocks_at=o.cell.entries[0].value, above=above)

        return Landing(index, (head, "blocks"), ir.SightPath(head, field), apply, "one")

    def _states(self) -> set[str]:
        return {st.item.name.text for st in self.statements if isinstance(st, s.StateDecl)}

    def _locate_sight_band(self, index: int, head: str, state: s.Name) -> Landing:
        """``override clouds.altitude | below 6`` (issue 40): the sight rule's band, on that
        state (given to a rule that had none, too); the lowering checks the cell (E464)."""

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(base, s.SightDecl)
            entry = o.cell.entries[0] if o.cell.entries else None
            side = entry.key.text if entry is not None and entry.key is not None else ""
            bound = entry.value if entry is not None else s.Located(ir.Text(""), o.cell.pos)
            return replace(base, band=(state, side, bound))

        return Landing(index, (head, "band"), ir.SightPath(head, "band"), apply, "cell")

    def _locate_allowance(self, index: int) -> Landing:
        """``override tank.allowance | 5 in`` (issue 40): a unit type's own allowance (given
        to a unit type that had none, too)."""
        head = self.statements[index]
        assert isinstance(head, s.ModeDecl)
        name = head.item.name.text

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(base, s.ModeDecl)
            return replace(base, allowance=o.cell.entries[0].value)

        return Landing(index, (name, "allowance"), ir.AllowancePath(name), apply, "one")

    def _locate_text(self, path: tuple[s.Name, ...], at: int) -> Landing | None:
        """``item.label.lang`` or ``item.note[.N].lang``: an item's text in one language."""
        items = self._items()
        key = tuple(p.text for p in path[:at])
        word = path[at].text
        rest = list(path[at + 1 :])
        index = 1
        if word == "note" and len(rest) == 2 and rest[0].text.isdigit():
            index = int(rest.pop(0).text)
        if key not in items:
            self._missing(
                path[at - 1],
                f"the base has no item '{'.'.join(key)}' to relabel",
                [".".join(k) for k in items],
            )
            return None
        languages = self._languages() or ("en",)
        if len(rest) != 1 or rest[0].text not in languages:
            self._missing(
                rest[0] if rest else path[at],
                f"a {word} is overridden one language at a time: `{'.'.join(key)}.{word}.<lang>`",
                languages,
                "languages: " + ", ".join(languages),
            )
            return None
        lang = rest[0].text
        i, item = items[key]
        if word == "note" and index > len(item.extras.notes) + 1:
            self._missing(
                path[at],
                f"'{'.'.join(key)}' has {len(item.extras.notes)} notes",
                [],
                f"override one of them, or add note {len(item.extras.notes) + 1}",
            )
            return None
        first = languages[0]
        change: ir.ChangePath = (
            ir.LabelPath(".".join(key), lang)
            if word == "label"
            else ir.NotePath(".".join(key), lang, index)
        )

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            value = o.cell.entries[0].value
            assert isinstance(value.value, ir.Text)
            label = s.Label("" if lang == first else lang, value.value.text, value.pos)
            if word == "label":
                new = replace(item, labels=set_label(item.labels, label, first))
            else:
                notes = list(item.extras.notes)
                scopes = item.extras.note_for  # a relabelled note keeps whom it is for
                if index > len(notes):
                    notes.append(())
                    scopes = (*scopes, ()) if scopes else ()
                notes[index - 1] = set_label(notes[index - 1], label, first)
                extras = replace(item.extras, notes=tuple(notes), note_for=scopes)
                new = replace(item, extras=extras)
            rewritten: s.Statement = replace_node(base, item, new)
            return rewritten

        return Landing(i, (*key, word, str(index), lang), change, apply, "text")


def _keep_label(old: s.DecisionRowNode, new: s.DecisionRowNode) -> s.DecisionRowNode:
    """``new`` replacing ``old``; when it ends in the same outcome and restates no label, it
    keeps the base's labels (an override of the condition alone dropped them, issue 39)."""
    if new.outcome.labels or new.outcome.name.text != old.outcome.name.text:
        return new
    return replace(new, outcome=replace(new.outcome, labels=old.outcome.labels))
