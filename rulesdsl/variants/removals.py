"""Removals: ``remove NAME`` takes an item and every mention of it out of the base, and a
removed dice row leaves a gap that the variant must cover."""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from rulesdsl import ir
from rulesdsl.frontends import syntax as s
from rulesdsl.variants.merging import (
    Gap,
    declared_inside,
    members_of,
    without_key,
    without_member,
)
from rulesdsl.variants.note_scopes import without_scope
from rulesdsl.variants.overrides import Overrides


class Removals(Overrides):
    """Removals, and the gaps a removed dice row leaves."""

    def _remove(self, st: s.RemoveDecl) -> None:
        path = st.path
        if self._remove_in_modifier(st):
            return
        if len(path) > 2:
            self._missing(path[2], "`remove` takes a name or block.row", [])
            return
        declared = self._declared()
        if len(path) == 1:
            name = path[0].text
            if name not in declared:
                self._missing(path[0], f"the base has no '{name}' to remove", declared)
                return
            self._remove_declared(path[0], st)
            return
        block = path[0].text
        for i, base in enumerate(self.statements):
            item = getattr(base, "item", None)
            if isinstance(item, s.Item) and item.name.text == block:
                self._remove_member(i, base, st, declared)
                return
        self._missing(
            path[0],
            f"the base has no block '{block}'",
            [
                n
                for n, k in declared.items()
                if k in ("layer", "modifier", "table", "dice table", "context", "decision")
            ],
        )

    def _remove_in_modifier(self, st: s.RemoveDecl) -> bool:
        """``remove to_hit.best.cover`` (the items of the group add up again) and ``remove
        to_hit.when a b``; False when the path names neither."""
        path = st.path
        head = path[0].text
        for i, base in enumerate(self.statements):
            if not isinstance(base, s.ModifierDecl) or base.item.name.text != head:
                continue
            if len(path) == 3 and path[1].text == "best":
                kept = tuple(b for b in base.bests if b.item.name.text != path[2].text)
                if len(kept) == len(base.bests):
                    names = [b.item.name.text for b in base.bests]
                    self._missing(path[2], f"'{head}' has no best group '{path[2].text}'", names)
                    return True
                self.statements[i] = replace(base, bests=kept)
                self._record("remove", ir.PolicyPath(head, "best"), st.extras)
                return True
            if len(path) > 2 and path[1].text == "when":
                target = self._locate_when(i, base, path)
                if target is not None:
                    members = sorted(p.text for p in path[2:])
                    self.statements[i] = replace(
                        base,
                        whens=tuple(
                            w for w in base.whens if sorted(m.text for m in w.members) != members
                        ),
                    )
                    self._record("remove", target.path, st.extras)
                return True
        return False

    def _remove_declared(self, name: s.Name, st: s.RemoveDecl) -> None:
        """A declared name goes, with every mention of it."""
        self._remove_name(name.text)
        self.removed.append((name.text, st.pos))
        self._record("remove", ir.NamePath(name.text), st.extras)

    def _remove_member(
        self, i: int, base: s.Statement, st: s.RemoveDecl, declared: dict[str, str]
    ) -> None:
        """``remove block.member``: a decision's row (by its outcome), a table's row or column,
        a dice table's row; a member that is a declared name goes everywhere."""
        block, member = st.path[0].text, st.path[1]
        dice: s.DiceDecl | None = None
        match base:
            case s.DecisionDecl():
                r = self._decision_row(base, member)
                if r is not None:
                    self.statements[i] = replace(base, rows=base.rows[:r] + base.rows[r + 1 :])
                    self._record("remove", ir.DecisionRowPath(block, member.text), st.extras)
                return
            case s.TableDecl():
                column = member.text in [c.name.text for c in base.columns]
                path: ir.ChangePath | None = (
                    ir.TableColumnPath(block, member.text)
                    if column
                    else ir.TableRowPath(block, member.text)
                )
            case s.DiceDecl():
                dice, path = base, ir.DiceRowPath(block, member.text)
            case s.LayerDecl() | s.ModifierDecl() | s.ContextDecl():
                path = None  # its members are declared names
            case s.Header() | s.Change() | s.Plain():
                path = None  # no members
            case _:
                assert_never(base)
        members = members_of(base)
        if member.text not in members:
            self._missing(member, f"'{block}' has no '{member.text}'", members)
        elif path is None or member.text in declared:
            self._remove_declared(member, st)
        else:
            if dice is not None:
                self._gap(dice, member.text, st.pos)
            self.statements[i] = without_member(base, member.text)
            self._record("remove", path, st.extras)

    def _gap(self, dice: s.DiceDecl, row: str, pos: s.Pos) -> None:
        """Remember the totals a removed dice row leaves, and its neighbours."""
        rows = list(dice.rows)
        r = [x.item.name.text for x in rows].index(row)
        here = rows[r]

        def near(x: s.DiceRowNode | None) -> tuple[str, int | None, int | None] | None:
            return None if x is None else (x.item.name.text, x.low, x.high)

        below = next(
            (
                x
                for x in rows
                if here.low is not None and x.high is not None and x.high == here.low - 1
            ),
            None,
        )
        above = next(
            (
                x
                for x in rows
                if here.high is not None and x.low is not None and x.low == here.high + 1
            ),
            None,
        )
        self.gaps.append(
            Gap(dice.item.name.text, here.low, here.high, near(below), near(above), pos)
        )

    def _remove_name(self, name: str) -> None:
        kept: list[s.Statement] = []
        inner: list[str] = []  # the declared names inside a removed block go with it
        for st in self.statements:
            item = getattr(st, "item", None)
            if isinstance(item, s.Item) and item.name.text == name:
                inner += [inside for inside, _ in declared_inside(st)]
                continue
            rest = without_key(without_member(st, name), name)
            if rest is not None:  # not left pointless
                kept.append(without_scope(rest, name))
        self.statements = kept
        for member in inner:
            self._remove_name(member)
