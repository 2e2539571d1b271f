"""The merge of a house rule into its base, statement by statement: a reopened block adds
its rows, and each override, insert and remove goes to its own part."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import assert_never

from rulesdsl import ir
from rulesdsl.diagnostics import Related, did_you_mean, error
from rulesdsl.frontends import syntax as s
from rulesdsl.variants.merging import (
    RECORDED_HEADER,
    Block,
    pos_of,
    statement_key,
)
from rulesdsl.variants.removals import Removals


class Merger(Removals):
    """Applies a house rule's statements to its base's, in order."""

    def apply(self, variant: tuple[s.Statement, ...]) -> list[ir.Change]:
        for st in variant:
            if isinstance(st, s.ExtendsDecl):
                continue
            before = {id(b) for b in self.statements}
            named = {statement_key(b): b for b in self.statements}
            self._one(st)
            pos = pos_of(st)
            for b in self.statements:
                if id(b) not in before:  # new or rewritten: keep what changed it before too
                    was = named.get(statement_key(b))
                    self.cause[id(b)] = [*self.cause.get(id(was), []), pos] if was else [pos]
        languages = self._languages()
        default = languages[0] if languages else "en"
        return [
            replace(change, info=self._info(extras, default)) for change, extras in self.pending
        ]

    def _one(self, st: s.Statement) -> None:
        match st:
            case s.Header():
                kept = [b for b in self.statements if not isinstance(b, type(st))]
                had = len(kept) < len(self.statements)
                self.statements = [*kept, st]
                line = RECORDED_HEADER.get(type(st))
                if line:
                    self._record(
                        "override" if had else "add",
                        ir.HeaderPath(line),
                        getattr(st, "extras", s.Extras()),
                    )
            case s.OverrideDecl():
                self._override(st)
            case s.RemoveDecl():
                self._remove(st)
            case s.InsertDecl():
                self._insert(st)
            case s.ExampleDecl() | s.ExampleOverride() | s.ExampleRemove():
                self._example(st)
            case s.FacingDecl() | s.FacingRemove():
                self._facing(st)
            case (
                s.LayerDecl() | s.ModifierDecl() | s.TableDecl() | s.DiceDecl() | s.ContextDecl()
            ) if self._find_block(type(st), st.item.name.text) is not None:
                self._reopen(st)
            case (
                s.LayerDecl()
                | s.ModifierDecl()
                | s.TableDecl()
                | s.DiceDecl()
                | s.ContextDecl()
                | s.DecisionDecl()
                | s.Plain()
            ):  # a new declaration
                self.statements.append(st)
                item = getattr(st, "item", None)
                if isinstance(item, s.Item):
                    self._record("add", ir.NamePath(item.name.text), item.extras)
            case _:
                assert_never(st)

    def _reopen(self, st: Block) -> None:
        """A block of the base declared again: what it lists is added to the base's."""
        block = st.item.name.text
        match st:
            case s.ContextDecl():
                index, context = self._base_of(st)
                self.statements[index] = replace(context, values=context.values + st.values)
                for v in st.values:
                    self._record("add", ir.NamePath(v.name.text), v.extras)
            case s.LayerDecl():
                index, layer = self._base_of(st)
                order = st.precedence or layer.precedence  # issue 40: a house rule's order
                self.statements[index] = replace(layer, rows=layer.rows + st.rows, precedence=order)
                if st.precedence:
                    self._record("override", ir.NamePath(block), st.item.extras)
                self._added_rows(st.rows, ir.NamePath)
            case s.ModifierDecl():
                index, modifier = self._base_of(st)
                merged = replace(modifier, rows=modifier.rows + st.rows)
                self.statements[index] = self._reopen_modifier(block, merged, st)
                self._added_rows(st.rows, ir.NamePath)
            case s.DiceDecl():
                index, dice = self._base_of(st)
                merged_dice = replace(dice, rows=dice.rows + st.rows)
                self.statements[index] = self._reopen_dice(block, merged_dice, st)
                self._added_rows(st.rows, partial(ir.DiceRowPath, block))
            case s.TableDecl():
                index, table = self._base_of(st)
                if st.columns:
                    self.diags.append(
                        error(
                            "E504",
                            f"columns cannot be added to the table '{block}' of the base",
                            st.columns[0].name.pos,
                            "remove the table and declare it again in full",
                        )
                    )
                self.statements[index] = replace(table, rows=table.rows + st.rows)
                self._added_rows(st.rows, partial(ir.TableRowPath, block))
            case _:
                assert_never(st)

    def _added_rows(
        self,
        rows: tuple[s.RowNode, ...] | tuple[s.DiceRowNode, ...],
        path: Callable[[str], ir.ChangePath],
    ) -> None:
        for row in rows:
            self._record("add", path(row.item.name.text), row.item.extras)

    def _reopen_modifier(
        self, block: str, merged: s.ModifierDecl, st: s.ModifierDecl
    ) -> s.ModifierDecl:
        """A re-opened modifier's combinations are added; a policy it states (combine, clamp,
        a best group or a factor read along a line of the same name, a band of a state on the
        same side) replaces the base's."""
        sides = {(w.band[0].text, w.band[1]) for w in st.whens if w.band is not None}
        base = tuple(
            w for w in merged.whens if not w.band or (w.band[0].text, w.band[1]) not in sides
        )
        merged = replace(merged, whens=base + st.whens)
        if st.combine is not None:  # `modifier cover combine highest`: a new policy
            merged = replace(merged, combine=st.combine)
            self._record("override", ir.PolicyPath(block, "combine"), st.item.extras)
        if st.clamp is not None:
            merged = replace(merged, clamp=st.clamp)
            self._record("override", ir.PolicyPath(block, "clamp"), st.item.extras)
        for when in st.whens:
            if when.band is not None:  # `when altitude above 6 | +2`: the base's band, changed
                self._record("override", ir.PolicyPath(block, "bands"), when.extras)
                continue
            self._record(
                "add",
                ir.CombinationPath(block, tuple(m.text for m in when.members)),
                when.extras,
            )
        if st.bests:  # a best group of the same name replaces the base's
            named = {b.item.name.text for b in st.bests}
            kept = tuple(b for b in merged.bests if b.item.name.text not in named)
            merged = replace(merged, bests=kept + st.bests)
            self._record("override", ir.PolicyPath(block, "best"), st.bests[0].item.extras)
        if st.sights:  # a factor read along a line of the same name replaces the base's
            lines = {f.item.name.text for f in st.sights}
            factors = tuple(f for f in merged.sights or () if f.item.name.text not in lines)
            merged = replace(merged, sights=factors + st.sights)
            self._record("override", ir.PolicyPath(block, "sight"), st.sights[0].item.extras)
        return merged

    def _reopen_dice(self, block: str, merged: s.DiceDecl, st: s.DiceDecl) -> s.DiceDecl:
        """A re-opened dice table's modifiers are added; its dice must be the base's."""
        merged = replace(merged, modifiers=merged.modifiers + st.modifiers)
        if st.dice.value != merged.dice.value:
            self.diags.append(
                error(
                    "E201",
                    f"re-opening '{block}' keeps its dice",
                    st.dice.pos,
                    "write the base's dice here; to change them, remove the table and "
                    "declare it again",
                    [Related(merged.dice.pos, "the base's dice")],
                )
            )
        for mod in st.modifiers:
            self._record("add", ir.NamePath(mod.item.name.text), mod.item.extras)
        return self._reopen_rolls(block, merged, st)

    def _reopen_rolls(self, block: str, merged: s.DiceDecl, st: s.DiceDecl) -> s.DiceDecl:
        """A re-opened dice table's natural rolls replace the base's for the same roll, and a
        results table's ``round`` replaces the base's (issue 25): a house rule states only
        its change."""

        def natural(
            base: tuple[s.NaturalNode, ...], new: tuple[s.NaturalNode, ...]
        ) -> tuple[s.NaturalNode, ...]:
            rolls = {n.roll for n in new}
            for n in new:
                action: ir.ChangeAction = (
                    "override" if any(b.roll == n.roll for b in base) else "add"
                )
                self._record(action, ir.DiceRowPath(block, f"natural {n.roll}"), n.extras)
            return tuple(n for n in base if n.roll not in rolls) + new

        merged = replace(merged, naturals=natural(merged.naturals, st.naturals))
        if st.results is not None and merged.results is not None:
            base, new = merged.results, st.results
            results = replace(
                base,
                naturals=natural(base.naturals, new.naturals),
                rows=base.rows + new.rows,
                rounding=new.rounding or base.rounding,
            )
            if new.rounding is not None:
                self._record("override", ir.DiceRowPath(block, "round"), st.item.extras)
            merged = replace(merged, results=results)
        return merged

    def _insert(self, st: s.InsertDecl) -> None:
        index = self._find_block(s.DecisionDecl, st.decision.text)
        if index is None:
            self._missing(
                st.decision,
                f"the base has no decision '{st.decision.text}'",
                [n for n, k in self._declared().items() if k == "decision"],
            )
            return
        decision = self.statements[index]
        assert isinstance(decision, s.DecisionDecl)
        r = self._decision_row(decision, st.anchor)
        if r is None:
            return
        at = r if st.where == "before" else r + 1
        rows = (*decision.rows[:at], st.row, *decision.rows[at:])
        self.statements[index] = replace(decision, rows=rows)
        self._record(
            "add",
            ir.DecisionRowPath(st.decision.text, st.row.outcome.name.text),
            st.row.outcome.extras,
        )

    # ---- facing (issue 24) -----------------------------------------------------------------

    def _facing(self, st: s.FacingDecl | s.FacingRemove) -> None:
        """A variant's ``facing MODE ...`` replaces its base's rule for that unit type whole
        (or adds one); ``remove facing MODE`` drops it (E289 when the base has none)."""
        index = _facing_of(self.statements, st.mode.text)
        path = ir.NamePath(f"facing {st.mode.text}")
        if isinstance(st, s.FacingDecl):
            if index is None:
                self.statements.append(st)
                self._record("add", path, st.extras)
            else:
                self.statements[index] = st
                self._record("override", path, st.extras)
            return
        if index is None:
            known = [b.mode.text for b in self.statements if isinstance(b, s.FacingDecl)]
            self.diags.append(
                error(
                    "E289",
                    f"the base gives '{st.mode.text}' no facing rule to remove",
                    st.mode.pos,
                    did_you_mean(st.mode.text, known) or "the base has no `facing` line for it",
                )
            )
            return
        del self.statements[index]
        self._record("remove", path, st.extras)

    # ---- worked examples (issue 27) -------------------------------------------------------

    def _example(self, st: s.ExampleDecl | s.ExampleOverride | s.ExampleRemove) -> None:
        """A variant's example: a new one is added, one named like an inherited example
        restates it whole; ``override example NAME[.N] | answer`` restates one answer;
        ``remove example NAME`` drops it."""
        if isinstance(st, s.ExampleDecl):
            index = self._find_example(st.item.name.text)
            if index is None:
                self.statements.append(st)
                self._record("add", ir.ExamplePath(st.item.name.text), st.item.extras)
            else:
                self.statements[index] = st
                self._record("override", ir.ExamplePath(st.item.name.text), st.item.extras)
            return
        name = st.path[0]
        index = self._find_example(name.text)
        if index is None:
            known = [b.item.name.text for b in self.statements if isinstance(b, s.ExampleDecl)]
            self.diags.append(
                error(
                    "E508",
                    f"the base has no example '{name.text}'",
                    name.pos,
                    did_you_mean(name.text, known),
                )
            )
            return
        if isinstance(st, s.ExampleRemove):
            del self.statements[index]
            self._record("remove", ir.ExamplePath(name.text), st.extras)
            return
        example = self.statements[index]
        assert isinstance(example, s.ExampleDecl)
        count = len(example.questions)
        number = _question_number(st.path, count)
        if number is None:
            where = st.path[1] if len(st.path) > 1 else name
            self.diags.append(
                error(
                    "E509",
                    f"the example '{name.text}' has {count} question{'s' * (count != 1)}; "
                    f"name one by its number: `override example {name.text}.N`"
                    if len(st.path) == 1
                    else f"the example '{name.text}' has no question {where.text}",
                    where.pos,
                    f"its questions are numbered 1 to {count}, in the order they are written",
                )
            )
            return
        questions = list(example.questions)
        questions[number - 1] = replace(  # a `.state` answer by name (issue 40)
            questions[number - 1], answer=st.answer, answer_names=st.answer_names
        )
        self.statements[index] = replace(example, questions=tuple(questions), inherited="")
        self._record("override", ir.ExamplePath(name.text, number if count > 1 else 0), st.extras)

    def _find_example(self, name: str) -> int | None:
        return next(
            (
                i
                for i, b in enumerate(self.statements)
                if isinstance(b, s.ExampleDecl) and b.item.name.text == name
            ),
            None,
        )


def _facing_of(statements: list[s.Statement], mode: str) -> int | None:
    return next(
        (
            i
            for i, b in enumerate(statements)
            if isinstance(b, s.FacingDecl) and b.mode.text == mode
        ),
        None,
    )


def _question_number(path: tuple[s.Name, ...], count: int) -> int | None:
    """The question a path names (1-based); None when it names none, or not just one."""
    if len(path) == 1:
        return 1 if count == 1 else None
    if len(path) == 2 and path[1].text.isdigit() and 1 <= int(path[1].text) <= count:
        return int(path[1].text)
    return None


def inherit(st: s.Statement, base: str) -> s.Statement:
    """A base's statement as its variant inherits it: an example remembers the base that
    states it (the nearest that wrote or restated it)."""
    if isinstance(st, s.ExampleDecl) and not st.inherited:
        return replace(st, inherited=base)
    return st
