"""Removals: ``remove NAME`` takes an item and every mention of it out of the base, and a
removed dice row leaves a gap that the variant must cover."""

from __future__ import annotations

from dataclasses import replace

from rulesdsl import ir
from rulesdsl.frontends import syntax as s
from rulesdsl.variants.merging import (
    Gap,
    members_of,
    pointless,
    without_key,
    without_member,
)
from rulesdsl.variants.note_scopes import without_scope
from rulesdsl.variants.overrides import Overrides


class Removals(Overrides):
    """Removals, and the gaps a removed dice row leaves."""

    def _remove(self, st: s.RemoveDecl) -> None:
        path = st.path
        head = path[0].text
        for i, base in enumerate(self.statements):
            if (
                isinstance(base, s.ModifierDecl)
                and base.item.name.text == head
                and len(path) == 3
                and path[1].text == "best"
            ):  # `remove to_hit.best.cover`: the items of the group add up again
                kept = tuple(b for b in base.bests if b.item.name.text != path[2].text)
                if len(kept) == len(base.bests):
                    names = [b.item.name.text for b in base.bests]
                    self._missing(path[2], f"'{head}' has no best group '{path[2].text}'", names)
                    return
                self.statements[i] = replace(base, bests=kept)
                self._record("remove", ir.PolicyPath(head, "best"), st.extras)
                return
            if (
                isinstance(base, s.ModifierDecl)
                and base.item.name.text == head
                and (len(path) > 2 and path[1].text == "when")
            ):
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
            self._remove_name(name)
            self.removed.append((name, st.pos))
            self._record("remove", ir.NamePath(name), st.extras)
            return
        block, member = path[0].text, path[1]
        for i, base in enumerate(self.statements):
            item = getattr(base, "item", None)
            if not isinstance(item, s.Item) or item.name.text != block:
                continue
            if isinstance(base, s.DecisionDecl):
                r = self._decision_row(base, member)
                if r is not None:
                    self.statements[i] = replace(base, rows=base.rows[:r] + base.rows[r + 1 :])
                    self._record("remove", ir.DecisionRowPath(block, member.text), st.extras)
                return
            members = members_of(base)
            if member.text not in members:
                self._missing(member, f"'{block}' has no '{member.text}'", members)
                return
            if isinstance(base, s.TableDecl | s.DiceDecl) and member.text not in declared:
                if isinstance(base, s.DiceDecl):
                    self._gap(base, member.text, st.pos)
                self.statements[i] = without_member(base, member.text)
                columns = (
                    [c.name.text for c in base.columns] if isinstance(base, s.TableDecl) else []
                )
                path_: ir.ChangePath = (
                    ir.TableColumnPath(block, member.text)
                    if member.text in columns
                    else ir.TableRowPath(block, member.text)
                    if isinstance(base, s.TableDecl)
                    else ir.DiceRowPath(block, member.text)
                )
                self._record("remove", path_, st.extras)
            else:  # a declared name (feature, factor, context value, dice modifier)
                self._remove_name(member.text)
                self.removed.append((member.text, st.pos))
                self._record("remove", ir.NamePath(member.text), st.extras)
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
                if isinstance(st, s.LayerDecl | s.ModifierDecl | s.ContextDecl):
                    inner += members_of(st)
                elif isinstance(st, s.DiceDecl):
                    inner += [m.item.name.text for m in st.modifiers]
                continue
            kept.append(without_scope(without_key(without_member(st, name), name), name))
        self.statements = [st for st in kept if not pointless(st, name)]
        for member in inner:
            self._remove_name(member)
