"""Lowering modifiers: factor cells keyed by one or two contexts, combinations, the combine
policy and clamp, and the values each item gives per context value."""

from __future__ import annotations

from typing import assert_never

from rulesdsl import ir, words
from rulesdsl.diagnostics import did_you_mean
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering import keywords, states
from rulesdsl.lowering.context import (
    MODE_CONTEXT,
    ZERO,
    Context,
    by_key,
    shown,
)

_KINDS: tuple[words.ValueKind, ...] = ("number", "blocked", "given")
"""What a modifier cell may hold in a ``when`` line."""
_STEP_KINDS: tuple[words.ValueKind, ...] = (*_KINDS, "step_cost")
"""What a modifier cell may hold in a row: a step's answer too."""


class ModifierLowering(Context):
    """Modifiers: factor cells by one or two contexts, combinations, policy and clamp."""

    def _modifier_value(self, what: str, entry: s.Entry, steps: bool) -> ir.Value | None:
        """A modifier cell's value (``what``: the modifier, in words): a number, ``blocked``,
        ``given``, or (``steps``: not in a ``when`` line) ``step NAME``, the step's answer for
        its input given by name."""
        value = self.value(entry.value, _STEP_KINDS if steps else _KINDS, what)
        if isinstance(value, ir.StepCost) and not self.symbols.require(
            s.Name(value.step, entry.value.pos), ("step",), "step"
        ):
            return None
        return value

    def _combination(self, entry: s.Entry, hint: str) -> bool:
        """E234 for a combination of two keys (``a & b``) in a cell keyed by one context."""
        if entry.key2 is None or entry.key is None:
            return False
        self.err(
            "E234",
            f"a combination '{entry.key.text} & {entry.key2.text}' is only for a "
            "modifier keyed by two contexts",
            entry.key.pos,
            hint,
        )
        return True

    def _modifier_cell(self, modifier: str, cell: s.CellNode, steps: bool = True) -> ir.Cell:
        if self.modifier_context2.get(modifier):
            return self._modifier_cell2(modifier, cell)
        context = self.modifier_context.get(modifier)
        keys = self.context_values.get(context, ()) if context else ()
        default: ir.Value | None = None
        exceptions: dict[str, ir.Value] = {}
        what = f"the {modifier} modifier"  # once a cell (issue 44: it was once an entry)
        for entry in cell.entries:
            if entry.key2 is not None and self._combination(
                entry, f"declare it with `modifier {modifier} by <context>, <context>`"
            ):
                continue
            value = self._modifier_value(what, entry, steps)
            if value is None:
                continue
            if entry.key is None:
                default = value
            elif entry.key.text not in keys:
                what = f"value of context '{context}'" if context else "context value"
                hint = (
                    did_you_mean(entry.key.text, keys)
                    if context
                    else "declare the modifier with `by <context>` to key values by context"
                )
                self.err("E101", f"unknown {what} '{entry.key.text}'", entry.key.pos, hint)
            else:
                exceptions[entry.key.text] = value
        return ir.Cell(default, exceptions)

    def _modifier_cell2(self, modifier: str, cell: s.CellNode) -> ir.Cell:
        """A cell of a modifier keyed by two contexts: single values of either, combinations
        ``a & b`` (written in either order, kept first-context first)."""
        first = self.modifier_context[modifier] or ""
        second = self.modifier_context2[modifier] or ""
        keys1 = self.context_values.get(first, ())
        keys2 = self.context_values.get(second, ())
        default: ir.Value | None = None
        exceptions: dict[str, ir.Value] = {}
        pairs: list[ir.PairValue] = []
        for entry in cell.entries:
            value = self.value(
                entry.value, ("number", "blocked", "given"), f"the {modifier} modifier"
            )
            if value is None:
                continue
            if entry.key is None:
                default = value
            elif entry.key2 is None:
                if entry.key.text in keys1 or entry.key.text in keys2:
                    exceptions[entry.key.text] = value
                else:
                    self.unknown(
                        f"unknown value of context '{first}' or '{second}' '{entry.key.text}'",
                        entry.key,
                        (*keys1, *keys2),
                    )
            else:
                a, b = entry.key, entry.key2
                if (
                    a.text in keys2
                    and b.text in keys1
                    and not (a.text in keys1 and b.text in keys2)
                ):
                    a, b = b, a
                bad = next((n for n, ks in ((a, keys1), (b, keys2)) if n.text not in ks), None)
                if bad is not None:
                    ctx = first if bad is a else second
                    self.unknown(
                        f"unknown value of context '{ctx}' '{bad.text}'",
                        bad,
                        keys1 if bad is a else keys2,
                    )
                else:
                    pairs.append(ir.PairValue(a.text, b.text, value))
        return ir.Cell(default, exceptions, tuple(pairs))

    def _keyed_values(self, modifier: str, item: str, cell: ir.Cell, pos: s.Pos) -> None:
        """Record what ``item`` gives ``modifier`` by context key, groups of the built-in mode
        context expanded to their members by precedence (E232 when ambiguous), combinations of
        two contexts expanded too, and two single values that disagree reported (E233)."""
        by_modes = self.builtin_mode and MODE_CONTEXT in (
            self.modifier_context.get(modifier),
            self.modifier_context2.get(modifier),
        )
        if not by_modes:
            values = by_key(cell)
        else:
            everyone = cell.default is not None
            values, ambiguous = keywords.expand_groups(
                cell.exceptions,
                self.modes,
                self.group_list,
                self.order_of(item),
                everyone and self.unnamed,
            )
            if cell.default is not None:
                values = {"": cell.default, **values}
            for mode, pair in ambiguous:
                message, hint = keywords.ambiguity_message(
                    f"the {modifier} value of '{item}'", mode, pair, self.notation(pos.file)
                )
                self.err("E232", message, pos, hint)
            for mode, pair in keywords.shadowed(
                cell.exceptions,
                self.modes,
                self.group_list,
                self.order_of(item),
                everyone,
                self.unnamed,
            ):
                message, hint = keywords.shadow_message(
                    f"the {modifier} value of '{item}'", mode, pair
                )
                self.warn("W262", message, pos, hint)
        self.modifier_values[modifier][item] = values
        second = self.modifier_context2.get(modifier)
        if not second:
            return
        first = self.modifier_context[modifier] or ""
        expand = self.groups if self.builtin_mode else {}
        pairs = keywords.expand_pairs(
            cell.pairs,
            expand if first == MODE_CONTEXT else {},
            expand if second == MODE_CONTEXT else {},
        )
        if pairs:
            self.modifier_pairs.setdefault(modifier, {})[item] = pairs
        firsts = self._plain_values(first)
        seconds = self._plain_values(second)
        for a, b in keywords.disagreements(values, pairs, firsts, seconds):
            self.err(
                "E233",
                f"the {modifier} value of '{item}' is ambiguous for '{a}' with '{b}': "
                f"{shown(values[a])} and {shown(values[b])}",
                pos,
                f"add the combination `{a} & {b} <value>` to the cell, or make them agree",
            )

    def _plain_values(self, context: str) -> tuple[str, ...]:
        """A context's values, without the groups of the built-in mode context."""
        values = self.context_values.get(context, ())
        if context == MODE_CONTEXT and self.builtin_mode:
            return tuple(v for v in values if v not in self.groups)
        return values

    def _key_groups(self, modifier: str) -> dict[str, tuple[str, ...]] | None:
        """The groups to expand when ``modifier`` is keyed by the built-in mode context."""
        if self.builtin_mode and self.modifier_context.get(modifier) == MODE_CONTEXT:
            return self.groups
        return None

    def _modifier(self, decl: s.ModifierDecl) -> ir.Modifier:
        mid = decl.item.name.text
        if decl.context is not None and self._key_groups(mid) is None:
            self.symbols.require(decl.context, ("context",), "context")
        for context in (decl.context, decl.context2):
            self._state_argument(context)
        self._second_context(decl)
        factors = []
        for row in decl.rows:
            self.check_width(row, 1)
            cell = self._modifier_cell(mid, row.cells[0])
            if isinstance(cell.default, ir.Given):
                self._state_argument(row.item.name)
            factors.append(
                self.at(ir.Factor(row.item.name.text, self.info(row.item), cell), row.item.name.pos)
            )
            self.factor_info[row.item.name.text] = factors[-1].info
            self._keyed_values(mid, row.item.name.text, cell, row.cells[0].pos)
        combos = []
        bands = []
        for when in decl.whens:
            if when.band is not None:
                bands += self._band(mid, when, when.band)
                continue
            members = [
                m.text
                for m in when.members
                if self.symbols.require(m, ("factor", "feature"), "factor or feature")
            ]
            entries = tuple(e for e in when.cell.entries if e.key2 is None)  # E234: keywords
            cell = self._modifier_cell(mid, s.CellNode(entries, when.cell.pos), steps=False)
            value = cell.default or ZERO
            combos.append(ir.Combination(tuple(members), value, self.info_of({}, when.extras)))
        combine = keywords.policy(decl.combine, self.err)
        return self.at(
            ir.Modifier(
                mid,
                self.info(decl.item),
                self.modifier_context[mid],
                tuple(factors),
                tuple(combos),
                self.modifier_values[mid],
                combine=combine,
                clamp=self._clamp(decl.clamp),
                context2=self.modifier_context2[mid],
                pairs=self.modifier_pairs.get(mid, {}),
                best=self._bests(decl, combine),
                sights=tuple(self._sight_factor(node) for node in decl.sights or ()),
                bands=tuple(bands),
            ),
            decl.item.name.pos,
        )

    def _sight_factor(self, node: s.SightFactorNode) -> ir.SightFactor:
        """``sight NAME : rule``: the rule is a sight rule (what it may read is a check)."""
        self.symbols.require(node.rule, ("sight",), "sight rule")
        self.factor_info[node.item.name.text] = info = self.info(node.item)
        return self.at(
            ir.SightFactor(node.item.name.text, info, node.rule.text), node.item.name.pos
        )

    def _state_argument(self, name: s.Name | None) -> None:
        """E462 (issue 40): in a ruleset with states, ``modifier()`` takes ``state=``, so a
        context or a value each model has, given by keyword, may not be named ``state``."""
        if name is not None and name.text == "state" and self.symbols.names("state"):
            self.err(
                "E462",
                "'state' is modifier()'s argument for the unit's state in a ruleset with states",
                name.pos,
                "rename it (e.g. `condition`)",
            )

    def _band(
        self, mid: str, when: s.WhenNode, band: tuple[s.Name, str, s.Located]
    ) -> list[ir.Band]:
        """``when altitude above 6 | +1`` (issue 40): a declared state (E101), a whole bound
        (E460), one value for everyone (E461: a band's value is not keyed)."""
        keyed = [e.key for e in when.cell.entries if e.key is not None]
        for key in keyed:
            self.err(
                "E461",
                f"the value of the band of '{band[0].text}' is keyed by '{key.text}'",
                key.pos,
                "give the band one value for everyone",
            )
        found = states.band(self, *band, code="E460")
        if found is None or keyed:
            return []
        cell = self._modifier_cell(mid, when.cell, steps=False)
        info = self.info_of({}, when.extras)
        return [ir.Band(*found, cell.default or ZERO, info)]

    def _bests(self, decl: s.ModifierDecl, combine: ir.Combine) -> tuple[ir.BestGroup, ...]:
        """``best NAME combine highest|lowest : a, b`` lines: E265 for another policy, E266
        for an item in two groups, E267 in a modifier that keeps one value anyway."""
        out: list[ir.BestGroup] = []
        grouped: dict[str, str] = {}
        mid = decl.item.name.text
        for node in decl.bests:
            name = node.item.name
            if _keeps_one(combine):  # the whole modifier keeps one value already
                self.err(
                    "E267",
                    f"best group '{name.text}' is inside '{mid}', which keeps only its "
                    f"{combine} value anyway",
                    name.pos,
                    f"drop `combine {combine}` from '{mid}' to add the best of the group to the "
                    "other values, or drop the group",
                )
            policy: ir.BestCombine = "highest"
            if node.combine is not None:
                if node.combine.text == "lowest":
                    policy = "lowest"
                elif node.combine.text != "highest":
                    self.err(
                        "E265",
                        f"best group '{name.text}' keeps the highest or the lowest value, "
                        f"not '{node.combine.text}'",
                        node.combine.pos,
                        "write `combine highest` or `combine lowest` (light cover -1, hard cover "
                        "-2, only the best counts: lowest)",
                    )
            members: list[str] = []
            for member in node.members:
                if not self.symbols.require(member, ("factor", "feature"), "factor or feature"):
                    continue
                if member.text in grouped:
                    self.err(
                        "E266",
                        f"'{member.text}' is in two best groups of '{mid}': "
                        f"'{grouped[member.text]}' and '{name.text}'",
                        member.pos,
                        "an item belongs to one best group at most",
                    )
                    continue
                grouped[member.text] = name.text
                members.append(member.text)
            group = ir.BestGroup(name.text, self.info(node.item), policy, tuple(members))
            out.append(self.at(group, name.pos))
        return tuple(out)

    def _clamp(self, node: s.ClampNode | None) -> ir.Clamp | None:
        """``clamp A to B`` as written (a low bound above the high one is E231, a check)."""
        if node is None:
            return None
        low, high = node.low.value, node.high.value
        assert isinstance(low, ir.Number) and isinstance(high, ir.Number)  # the grammar's `signed`
        return self.at(ir.Clamp(float(low.value), float(high.value)), node.pos)

    def _second_context(self, decl: s.ModifierDecl) -> None:
        """``by a, b``: b is a context (or the built-in ``mode``), not a, sharing no value."""
        second = decl.context2
        if second is None or decl.context is None:
            return
        if not (second.text == MODE_CONTEXT and self.builtin_mode):
            self.symbols.require(second, ("context",), "context")
        if second.text == decl.context.text:
            self.err(
                "E236",
                f"the modifier '{decl.item.name.text}' names the context '{second.text}' twice",
                second.pos,
                "key it by two different contexts, or by one",
            )
            return
        shared = set(self._plain_values(decl.context.text)) & set(self._plain_values(second.text))
        if shared:
            self.err(
                "E236",
                f"the contexts '{decl.context.text}' and '{second.text}' share the value "
                f"'{sorted(shared)[0]}': a cell could not tell which one it is keyed by",
                second.pos,
                "rename the value in one of the contexts",
            )


def _keeps_one(combine: ir.Combine) -> bool:
    """Whether a modifier combining so keeps only one value (then a best group is moot)."""
    match combine:
        case "highest" | "lowest":
            return True
        case "sum" | "once":
            return False
        case _:
            assert_never(combine)
