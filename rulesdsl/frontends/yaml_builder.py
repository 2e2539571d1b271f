"""YAML nodes -> the DSL's syntax statements: one method per section (``modes``, ``layers``...),
each statement placed at its YAML node's line and column (:mod:`rulesdsl.frontends.yaml_authoring`
checks the file first, then calls :class:`Builder`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, Literal, TypeGuard

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulesdsl import ir, spelling, words
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.fragments import FragmentError, FragmentParser
from rulesdsl.frontends.yaml_positions import node_pos, text_origin

LANGUAGE = re.compile(r"^[a-z]{2}(_[A-Za-z]{2,4})?$")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
EXTENDS = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*@\s*(\S+)\s*$")
STACKING = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s+entry\s+(.+?))?\s*$")
CHECK = re.compile(r"^\s*(\d+d\d+(?:[+-]\d+)?)\s*>=\s*(\d+)\s*$")
DICE = re.compile(r"^\s*\d+d\d+(?:[+-]\d+)?\s*$")
ITEM_KEYS = frozenset({"label", "source", "note", "remark", "ignores_others"})


def _items(node: Node) -> Iterator[tuple[ScalarNode, Node]]:
    if isinstance(node, MappingNode):
        for key, value in node.value:
            assert isinstance(key, ScalarNode)
            yield key, value


def _get(node: Node, key: str) -> Node | None:  # no generators: 5 asks an item (issue 44)
    found = [v for k, v in node.value if k.value == key] if isinstance(node, MappingNode) else []
    return found[0] if found else None


def _seq(node: Node | None) -> list[Node]:
    if node is None or _is_null(node):
        return []
    return list(node.value) if isinstance(node, SequenceNode) else [node]


def _is_null(node: Node) -> bool:
    return isinstance(node, ScalarNode) and node.tag == "tag:yaml.org,2002:null"


def _raw(node: Node) -> str:
    """A scalar's text as written ("+1" stays "+1"); "" for null."""
    assert isinstance(node, ScalarNode)
    return "" if _is_null(node) else str(node.value)


def _is_yes(node: Node | None) -> TypeGuard[ScalarNode]:
    """A flag's scalar says yes: ``true``, ``yes`` or ``on``."""
    return isinstance(node, ScalarNode) and words.is_yes(_raw(node))


_NO_EXTRAS = s.Extras()


class Builder:
    def __init__(self, path: str, fragments: FragmentParser) -> None:
        self.path = path
        self.fragments = fragments
        self.diagnostics: list[Diagnostic] = []

    # -- helpers ----------------------------------------------------------------------------

    def pos(self, node: Node) -> s.Pos:
        return node_pos(self.path, node)

    def name(self, node: ScalarNode) -> s.Name:
        """A name as written; the names pass (rulesdsl.checks.names) checks it as it checks
        the DSL's, at this position."""
        return s.Name(_raw(node), self.pos(node))

    def fragment(self, node: Node, start: str) -> Any:
        text = " ".join(_raw(node).split("\n")).rstrip()  # a block scalar's lines, joined
        line, column = text_origin(node)
        try:
            return self.fragments.parse(text, start, self.path, line, column)
        except FragmentError as exc:
            self.diagnostics.append(exc.diagnostic)
            return None

    def located(self, node: Node, start: str = "value") -> s.Located | None:
        value = self.fragment(node, start)
        if isinstance(value, ir.Number):
            return s.Located(value, self.pos(node))
        return value if isinstance(value, s.Located) else None

    def cell(self, node: Node | None) -> s.CellNode:
        if node is None or _is_null(node) or not _raw(node).strip():
            return s.CellNode((), s.Pos(self.path, 0, 0, 0, 0))
        cell = self.fragment(node, "cell")
        return cell if isinstance(cell, s.CellNode) else s.CellNode((), self.pos(node))

    def labels(self, node: Node) -> tuple[s.Label, ...]:
        if isinstance(node, ScalarNode):
            return (s.Label("", _raw(node), self.pos(node)),) if not _is_null(node) else ()
        out: list[s.Label] = []
        for key, value in _items(node):
            if key.value == "label":
                out.insert(0, s.Label("", _raw(value), self.pos(value)))
            elif LANGUAGE.match(key.value) and isinstance(value, ScalarNode):
                out.append(s.Label(key.value, _raw(value), self.pos(key)))
        return tuple(out)

    def extras(self, node: Node) -> s.Extras:
        if not isinstance(node, MappingNode):
            return _NO_EXTRAS
        source = None
        source_node = _get(node, "source")
        if source_node is not None:
            line, column = text_origin(source_node)
            try:
                found = self.fragments.parse(
                    f"[{_raw(source_node)}]", "source", self.path, line, column - 1
                )
                source = found if isinstance(found, s.SourceRef) else None
            except FragmentError as exc:
                self.diagnostics.append(exc.diagnostic)
        notes = tuple(self.labels(n) for n in _seq(_get(node, "note")))
        scopes = tuple(self.note_for(n) for n in _seq(_get(node, "note")))
        remarks = tuple(_raw(r) for r in _seq(_get(node, "remark")) if isinstance(r, ScalarNode))
        ignores = _is_yes(_get(node, "ignores_others"))
        return s.Extras(source, notes, ignores, remarks, scopes if any(scopes) else ())

    def on_doubles(self, node: Node) -> s.OnDoubles | None:
        """A column shift's ``on_doubles: true`` (the schema holds it to a boolean)."""
        flag = _get(node, "on_doubles")
        return s.OnDoubles(self.pos(flag)) if _is_yes(flag) else None

    def note_for(self, node: Node) -> tuple[s.Name, ...]:
        """A note's ``for: [mech, vehicle]`` (or ``for: mech, vehicle``): whom it concerns."""
        scope = _get(node, "for") if isinstance(node, MappingNode) else None
        if isinstance(scope, ScalarNode):  # one string, names split at commas
            return tuple(s.Name(n.strip(), self.pos(scope)) for n in _raw(scope).split(","))
        return tuple(self.name(n) for n in _seq(scope) if isinstance(n, ScalarNode))

    def item(
        self,
        key: ScalarNode,
        node: Node | None,
        *,
        scalar_is_label: bool = True,
        number_key: bool = False,
    ) -> s.Item:
        labels: tuple[s.Label, ...] = ()
        extras = _NO_EXTRAS
        if node is not None and (scalar_is_label or not isinstance(node, ScalarNode)):
            if not isinstance(node, SequenceNode):
                labels = self.labels(node)
            extras = self.extras(node)
        end = node if node is not None else key
        pos = s.Pos(self.path, key.start_mark.line + 1, key.start_mark.column + 1, *self._end(end))
        name = s.Name(_raw(key), self.pos(key)) if number_key else self.name(key)
        return s.Item(name, labels, extras, pos)

    def _end(self, node: Node) -> tuple[int, int]:
        p = self.pos(node)
        return p.end_line, p.end_column

    # -- the document -----------------------------------------------------------------------

    def document(self, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for key, value in _items(root):
            handler = getattr(self, f"sec_{key.value}", None)
            if handler is not None:
                out += handler(key, value, root)
        return out

    def sec_ruleset(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        assert isinstance(value, ScalarNode)
        labels = self.labels(root)
        item = s.Item(self.name(value), labels, self.extras(root), self.pos(key))
        return [s.RulesetDecl(item)]

    def sec_version(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        return [s.VersionDecl(_raw(value), self.pos(value))]

    def sec_edition(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        return [s.EditionDecl(_raw(value), self.pos(value))]

    def sec_extends(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        match = EXTENDS.match(_raw(value))
        if match is not None and not NAME.match(match[1]):
            match = None
        base = self._leading_name(match, value, "base@requirement", "heavy_gear@^1.0")
        if match is None or base is None:
            return []
        return [s.ExtendsDecl(base, match[2], self.pos(value))]

    def sec_languages(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        names = tuple(self.name(n) for n in _seq(value) if isinstance(n, ScalarNode))
        return [s.LanguagesDecl(names, self.pos(value))]

    def sec_books(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        return [s.BookDecl(self.item(k, v)) for k, v in _items(value)]

    def sec_units(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        pairs = tuple(
            (self.name(k), self.name(v)) for k, v in _items(value) if isinstance(v, ScalarNode)
        )
        return [s.UnitsDecl(pairs, self.pos(value))]

    def sec_stacking(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        match = STACKING.match(_raw(value))
        policy = self._leading_name(match, value, "a stacking policy", "sum entry 1 MP")
        if match is None or policy is None:
            return []
        entry = None
        if match[2]:
            line, column = policy.pos.line, policy.pos.column + match.start(2)
            entry = self._located_at(match[2], "quantity", line, column)
        return [s.StackingDecl(policy, entry, self.pos(value))]

    def _leading_name(
        self, match: re.Match[str] | None, value: Node, what: str, example: str
    ) -> s.Name | None:
        """The name a scalar starts with (group 1 of ``match``), placed in the file; where
        ``match`` is None, an E001 that the scalar is not ``what``."""
        if match is None:
            hint = f"for example: {example}"
            self.diagnostics.append(
                error("E001", f"'{_raw(value)}' is not {what}", self.pos(value), hint)
            )
            return None
        line, column = text_origin(value)
        return s.Name(match[1], s.Pos(self.path, line, column, line, column + len(match[1])))

    def _located_at(self, text: str, start: str, line: int, column: int) -> s.Located | None:
        try:
            found = self.fragments.parse(text, start, self.path, line, column)
        except FragmentError as exc:
            self.diagnostics.append(exc.diagnostic)
            return None
        return found if isinstance(found, s.Located) else None

    def sec_minimum(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        amount_node = _get(value, "move") if isinstance(value, MappingNode) else value
        if amount_node is None:
            return []
        amount = self.located(amount_node, "quantity")
        if amount is None:
            return []
        return [s.MinimumDecl(amount, self.extras(value), self.pos(value))]

    def sec_modes(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        return [
            s.ModeDecl(self.item(k, v), self._names(_get(v, "keywords")), self._allowance(v))
            for k, v in _items(value)
        ]

    def _allowance(self, node: Node) -> s.Located | None:
        """A mode's ``allowance: 6 in`` (issue 40), None when it has none."""
        given = _get(node, "allowance") if isinstance(node, MappingNode) else None
        return self.located(given, "quantity") if given is not None else None

    def _names(self, node: Node | None) -> tuple[s.Name, ...]:
        return tuple(self.name(n) for n in _seq(node) if isinstance(n, ScalarNode))

    def sec_precedence(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        """``precedence: [[fly, vehicle], {groups: [infantry, fly], note: ...}]``."""
        out: list[s.Statement] = []
        for entry in _seq(value):
            if isinstance(entry, SequenceNode):
                out.append(s.PrecedenceDecl(self._names(entry), _NO_EXTRAS, self.pos(entry)))
            elif isinstance(entry, MappingNode):
                groups = self._names(_get(entry, "groups"))
                out.append(s.PrecedenceDecl(groups, self.extras(entry), self.pos(entry)))
        return out

    def _policy(self, v: Node) -> dict[str, Any]:
        """A modifier's second context, ``combine`` policy and ``clamp: [low, high]``."""
        context_node = _get(v, "context")
        contexts = self._names(context_node) if isinstance(context_node, SequenceNode) else ()
        combine_node = _get(v, "combine")
        clamp_node = _get(v, "clamp")
        bounds = [self.located(n, "signed") for n in _seq(clamp_node)]
        clamp = None
        if clamp_node is not None and len(bounds) == 2 and None not in bounds:
            low, high = bounds
            assert low is not None and high is not None
            clamp = s.ClampNode(low, high, self.pos(clamp_node))
        return {
            "context": contexts[0] if contexts else None,
            "context2": contexts[1] if len(contexts) > 1 else None,
            "combine": self.name(combine_node) if isinstance(combine_node, ScalarNode) else None,
            "clamp": clamp,
        }

    def sec_groups(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            members_node = v if isinstance(v, SequenceNode) else _get(v, "members")
            members = tuple(self.name(n) for n in _seq(members_node) if isinstance(n, ScalarNode))
            out.append(s.GroupDecl(self.item(k, v), members))
        return out

    def sec_contexts(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            values_node = _get(v, "values")
            values = (
                tuple(self.item(vk, vv) for vk, vv in _items(values_node))
                if values_node is not None
                else ()
            )
            out.append(s.ContextDecl(self.item(k, v), values))
        return out

    def rows(self, node: Node | None) -> tuple[s.RowNode, ...]:
        out = []
        for key, value in _items(node) if node is not None else ():
            cells_node = _get(value, "cells") if isinstance(value, MappingNode) else value
            cells = tuple(self.cell(c) for c in _seq(cells_node)) or (self.cell(None),)
            numeric = not NAME.match(_raw(key))
            item = self.item(key, value, scalar_is_label=False, number_key=numeric)
            number = None
            if numeric:
                located = self.located(key, "quantity")
                if located is None:
                    continue
                assert isinstance(located.value, ir.Number)
                number = located.value
                name = s.Name(spelling.number(number.value), item.name.pos)
                item = s.Item(name, item.labels, item.extras, item.pos)
            order = _get(value, "precedence") if isinstance(value, MappingNode) else None
            out.append(s.RowNode(item, cells, number, self._names(order) or None))
        return tuple(out)

    def sec_modifiers(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            context_node = _get(v, "context")
            context = self.name(context_node) if isinstance(context_node, ScalarNode) else None
            whens = []
            for w in _seq(_get(v, "when")):
                members = tuple(
                    self.name(n) for n in _seq(_get(w, "members")) if isinstance(n, ScalarNode)
                )
                band = self.fragment(b, "roll_band") if (b := _get(w, "band")) else None
                whens.append(
                    s.WhenNode(
                        members,
                        self.cell(_get(w, "cell")),
                        self.extras(w),
                        self.pos(w),
                        band=band[1:] if isinstance(band, tuple) else None,
                    )
                )
            policy = self._policy(v)
            bests = []
            best_node = _get(v, "best")
            for bk, bv in _items(best_node) if best_node is not None else []:
                combine_node = _get(bv, "combine") if isinstance(bv, MappingNode) else None
                member_nodes = _get(bv, "members") if isinstance(bv, MappingNode) else None
                bests.append(
                    s.BestNode(
                        self.item(bk, bv),
                        self.name(combine_node) if isinstance(combine_node, ScalarNode) else None,
                        tuple(
                            self.name(n) for n in _seq(member_nodes) if isinstance(n, ScalarNode)
                        ),
                    )
                )
            sight_node = _get(v, "sight")  # factors read along a line of sight (issue 40)
            sights = []
            for sk, sv in _items(sight_node) if sight_node is not None else []:
                rule = _get(sv, "rule") if isinstance(sv, MappingNode) else None
                if isinstance(rule, ScalarNode):
                    sights.append(s.SightFactorNode(self.item(sk, sv), self.name(rule)))
            out.append(
                s.ModifierDecl(
                    self.item(k, v),
                    context or policy["context"],
                    self.rows(_get(v, "rows")),
                    tuple(whens),
                    context2=policy["context2"],
                    combine=policy["combine"],
                    clamp=policy["clamp"],
                    bests=tuple(bests),
                    sights=tuple(sights) or None,
                )
            )
        return out

    def sec_layers(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            scope_node = _get(v, "scope")
            scope_text = " ".join(_raw(scope_node).split()) if scope_node is not None else ""
            scope = words.scope_from_words(scope_text)
            columns_node = _get(v, "columns")
            columns = (
                tuple(self.name(n) for n in _seq(columns_node) if isinstance(n, ScalarNode))
                if columns_node is not None
                else None
            )
            rows, order = self.rows(_get(v, "rows")), self._names(_get(v, "precedence")) or None
            out.append(s.LayerDecl(self.item(k, v), scope, columns or None, rows, order))
        return out

    def _result(self, node: Node) -> s.Name | None:
        result = _get(node, "result")
        return self.name(result) if isinstance(result, ScalarNode) else None

    def sec_steps(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            param_node = _get(v, "input")
            param = self.fragment(param_node, "param") if param_node is not None else None
            terms = tuple(
                t
                for t in (self.fragment(n, "step_term") for n in _seq(_get(v, "terms")))
                if isinstance(t, s.StepTermNode)
            )
            if isinstance(param, s.ParamNode):
                out.append(s.StepDecl(self.item(k, v), param, self._result(v), terms))
        return out

    def sec_tables(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            columns_node = _get(v, "columns")
            if isinstance(columns_node, SequenceNode):
                columns = tuple(
                    self.item(n, None) for n in columns_node.value if isinstance(n, ScalarNode)
                )
            else:
                columns = (
                    tuple(self.item(ck, cv) for ck, cv in _items(columns_node))
                    if columns_node is not None
                    else ()
                )
            out.append(s.TableDecl(self.item(k, v), columns, self.rows(_get(v, "rows"))))
        return out

    def sec_dice_tables(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            dice_node = _get(v, "dice")
            dice = self.located(dice_node) if dice_node is not None else None
            if dice is None:
                continue
            modifiers = []
            for mk, mv in _items(_get(v, "modifiers") or MappingNode("", [])):
                shift_node = _get(mv, "shift") if isinstance(mv, MappingNode) else None
                if isinstance(shift_node, ScalarNode):  # `shift: left 1` (issue 25)
                    shift_words = _raw(shift_node).split()
                    if len(shift_words) == 2 and shift_words[1].isdigit():
                        pos = self.pos(shift_node)
                        count = s.Located(ir.Number(int(shift_words[1])), pos)
                        item = self.item(mk, mv, scalar_is_label=False)
                        direction = s.Name(shift_words[0], pos)
                        on_doubles = self.on_doubles(mv)
                        modifiers.append(s.DiceModifierNode(item, count, direction, on_doubles))
                    else:
                        self.diagnostics.append(
                            error(
                                "E001",
                                f"'{_raw(shift_node)}' is not a column shift",
                                self.pos(shift_node),
                                "e.g. `shift: left 1`",
                            )
                        )
                    continue
                amount_node = _get(mv, "amount") if isinstance(mv, MappingNode) else mv
                amount = self.located(amount_node, "signed") if amount_node else None
                if amount is not None:
                    modifiers.append(
                        s.DiceModifierNode(self.item(mk, mv, scalar_is_label=False), amount)
                    )
            rows = []
            for row in _seq(_get(v, "rows")):
                roll, name = _get(row, "roll"), _get(row, "result")
                if not isinstance(roll, ScalarNode) or not isinstance(name, ScalarNode):
                    continue
                span = self.fragment(roll, "dice_range")
                if span is None:
                    continue
                effects_node = _get(row, "effects")
                effects = self.cell(effects_node) if effects_node is not None else None
                rows.append(s.DiceRowNode(self.item(name, row), span[0], span[1], effects))
            results = self._results(v)
            naturals = tuple(self._naturals(v)) if results is None else ()
            out.append(
                s.DiceDecl(self.item(k, v), dice, tuple(modifiers), tuple(rows), results, naturals)
            )
        return out

    # -- results tables and line of sight (issue 11, items 9 and 10) -------------------------

    def _naturals(self, v: Node) -> list[s.NaturalNode]:
        """``naturals: [{natural: 6, then: de}]``; ``at_least: true``; ``then: [a, b]`` gives
        one outcome per column (issue 25)."""
        naturals = []
        for nat in _seq(_get(v, "naturals")):
            roll, then = _get(nat, "natural"), _get(nat, "then")
            if not isinstance(roll, ScalarNode):
                continue
            if not _raw(roll).isdigit():
                self.diagnostics.append(
                    error("E001", f"'{_raw(roll)}' is not a roll", self.pos(roll), "e.g. 6")
                )
                continue
            least = _get(nat, "at_least")
            at_least = isinstance(least, ScalarNode) and _raw(least) in ("true", "yes")
            if isinstance(then, ScalarNode):
                naturals.append(
                    s.NaturalNode(
                        int(_raw(roll)), self.name(then), self.extras(nat), self.pos(nat), at_least
                    )
                )
                continue
            names = tuple(self.name(n) for n in _seq(then) if isinstance(n, ScalarNode))
            if names:
                naturals.append(
                    s.NaturalNode(
                        int(_raw(roll)), names[0], self.extras(nat), self.pos(nat), False, names
                    )
                )
        return naturals

    def _results(self, v: Node) -> s.ResultsNode | None:
        keys = ("column_by", "columns", "outcomes", "results", "round")
        if not isinstance(v, MappingNode) or all(_get(v, key) is None for key in keys):
            return None  # a plain dice table, maybe with natural rolls (issue 25)
        by_node = _get(v, "column_by")
        by = self.name(by_node) if isinstance(by_node, ScalarNode) else None
        round_node = _get(v, "round")
        rounding = self.name(round_node) if isinstance(round_node, ScalarNode) else None
        columns = []
        for ck, cv in _items(_get(v, "columns") or MappingNode("", [])):
            bounds = (("upto", "up_to"), ("above", "above"), ("point", "at"))
            if isinstance(cv, MappingNode) and all(_get(cv, key) is None for key, _ in bounds):
                item = self.item(ck, cv)  # no bound: a category (issue 40)
                zero = s.Located(ir.Number(0.0), item.name.pos)
                columns.append(s.DiceColumnNode(item, "category", zero))
            for key, bound in bounds:
                value_node = _get(cv, key) if isinstance(cv, MappingNode) else None
                parsed = self.fragment(value_node, "column_value") if value_node else None
                if isinstance(parsed, tuple):
                    value, ratio = parsed
                    value = s.Located(value.value, self.pos(value_node))  # type: ignore[arg-type]
                    item = self.item(ck, cv)
                    columns.append(s.DiceColumnNode(item, bound, value, ratio))  # type: ignore[arg-type]
        outcome_nodes = list(_items(_get(v, "outcomes") or MappingNode("", [])))
        outcomes = tuple(self.item(ok, ov) for ok, ov in outcome_nodes)
        effects = tuple(
            (_raw(ok), self.cell(_get(ov, "effects")))
            for ok, ov in outcome_nodes
            if isinstance(ov, MappingNode) and _get(ov, "effects") is not None
        )
        naturals = self._naturals(v)
        rows = []
        for res in _seq(_get(v, "results")):
            roll = _get(res, "roll")
            if not isinstance(roll, ScalarNode):
                continue
            span = self.fragment(roll, "dice_range")
            if span is None:
                continue
            names = tuple(
                self.name(n) for n in _seq(_get(res, "outcomes")) if isinstance(n, ScalarNode)
            )
            rows.append(s.ResultRowNode(span[0], span[1], names, self.extras(res), self.pos(res)))
        return s.ResultsNode(
            by, tuple(columns), outcomes, tuple(naturals), tuple(rows), rounding, effects
        )

    def sec_sights(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            blocks_node = _get(v, "blocks_at")
            above_node = _get(v, "blocks_above")
            above = blocks_node is None and above_node is not None  # `blocks above N` (issue 40)
            if blocks_node is not None and above_node is not None:
                self.diagnostics.append(
                    error(
                        "E001",
                        "a sight rule blocks at a total or above one, not both",
                        self.pos(above_node),
                        "keep `blocks_at: N` (N or more blocks) or `blocks_above: N` (more than N)",
                    )
                )
            blocks_node = above_node if above else blocks_node
            blocks = self.located(blocks_node, "signed") if blocks_node is not None else None
            counts_node = _get(v, "counts")
            counts = self.name(counts_node) if isinstance(counts_node, ScalarNode) else None
            crossed_node = _get(v, "crossed")
            crossed = self.name(crossed_node) if isinstance(crossed_node, ScalarNode) else None
            inside_node = _get(v, "target_inside")
            inside = self.pos(inside_node) if _is_yes(inside_node) else None
            above_flag: Literal[True] | None = True if above else None
            out.append(s.SightDecl(self.item(k, v), blocks, counts, crossed, inside, above_flag))
        return out

    def sec_moves(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        """``moves: {run: {label: Run, factor: 2, amount: 3 in, not: [water], only: [foot]}}``."""
        out: list[s.Statement] = []
        for k, v in _items(value):
            factor_node = _get(v, "factor")
            amount_node = _get(v, "amount")
            factor = self.located(factor_node, "signed") if factor_node is not None else None
            amount = self.located(amount_node, "quantity") if amount_node is not None else None
            barred = self._names(_get(v, "not"))
            only = self._names(_get(v, "only")) or None  # issue 40
            out.append(s.MoveDecl(self.item(k, v), factor, amount, barred, only))
        return out

    def sec_rolls(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        """``rolls: {bog: {label: Bog, roll: 2d6, when: entering, combine: highest}}``."""
        out: list[s.Statement] = []
        for k, v in _items(value):
            roll_node = _get(v, "roll")
            dice: s.Located | None = None
            table: s.Name | None = None
            if isinstance(roll_node, ScalarNode):
                found = self.located(roll_node, "value")
                if found is not None and isinstance(found.value, ir.DiceValue | ir.D66Value):
                    dice = found
                else:
                    table = self.name(roll_node)
            on_node = _get(v, "when")
            when: tuple[s.Name, ...] = ()
            if isinstance(on_node, ScalarNode):
                pos = self.pos(on_node)
                when = tuple(s.Name(w, pos) for w in _raw(on_node).split())
            combine_node = _get(v, "combine")
            combine = self.name(combine_node) if isinstance(combine_node, ScalarNode) else None
            out.append(s.RollDecl(self.item(k, v), dice, table, when, combine))
        return out

    def sec_triggers(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            check_node, table = _get(v, "check"), _get(v, "roll")
            check, at_least = None, None
            if check_node is not None:
                match = CHECK.match(_raw(check_node))
                if match is None:
                    self.diagnostics.append(
                        error(
                            "E001",
                            f"'{_raw(check_node)}' is not a check",
                            self.pos(check_node),
                            "for example: 1d6 >= 4",
                        )
                    )
                    continue
                line, column = text_origin(check_node)
                check = self._located_at(match[1], "value", line, column + match.start(1))
                at_least = int(match[2])
            if not isinstance(table, ScalarNode):
                continue
            with_node, times = _get(v, "with"), _get(v, "times")
            modifier = self.name(with_node) if isinstance(with_node, ScalarNode) else None
            more: tuple[s.Name, ...] = ()
            if isinstance(with_node, SequenceNode):
                named = [self.name(n) for n in with_node.value if isinstance(n, ScalarNode)]
                modifier, more = (named[0] if named else None), tuple(named[1:])
            out.append(
                s.TriggerDecl(
                    self.item(k, v),
                    check,
                    at_least,
                    self.name(table),
                    modifier,
                    int(_raw(times)) if times is not None else 1,
                    more,
                )
            )
        return out

    def sec_exclusions(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for entry in _seq(value):
            subject = _get(entry, "exclude")
            if not isinstance(subject, ScalarNode):
                continue
            others = tuple(
                self.name(n) for n in _seq(_get(entry, "with")) if isinstance(n, ScalarNode)
            )
            out.append(
                s.ExcludeDecl(self.name(subject), others, self.extras(entry), self.pos(entry))
            )
        return out

    def sec_grids(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            size = tuple(
                q
                for q in (self.located(n, "quantity") for n in _seq(_get(v, "size")))
                if q is not None
            )
            diagonals = tuple(int(_raw(n)) for n in _seq(_get(v, "diagonals")))
            shape_node = _get(v, "shape")  # maps (issue 11): `hex` or `square`
            shape = self.name(shape_node) if isinstance(shape_node, ScalarNode) else None
            out.append(s.GridDecl(self.item(k, v), size, diagonals, shape))
        return out

    def sec_params(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            unit = _get(v, "unit")
            if not isinstance(unit, ScalarNode):
                continue
            value_node = _get(v, "value")
            located = self.located(value_node) if value_node is not None else None
            out.append(s.ParamDecl(self.item(k, v), self.name(unit), located))
        return out

    def path_names(self, node: ScalarNode) -> tuple[s.Name, ...]:
        line, column = text_origin(node)
        names = []
        offset = 0
        for part in _raw(node).split("."):
            names.append(
                s.Name(
                    part, s.Pos(self.path, line, column + offset, line, column + offset + len(part))
                )
            )
            offset += len(part) + 1
        return tuple(names)

    def sec_overrides(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            cell_node = _get(v, "cell") if isinstance(v, MappingNode) else v
            path = self.path_names(k)
            if path[0].text == "example" and len(path) > 1 and cell_node is not None:
                # `example.NAME[.N]: answer` restates an inherited worked example
                named = _raw(cell_node).lstrip().startswith("(")  # a route's `.state` (issue 40)
                answer = self.fragment(cell_node, "example_state" if named else "example_answer")
                if isinstance(answer, tuple):
                    answer, names = answer if named else (answer, None)
                    out.append(
                        s.ExampleOverride(path[1:], answer, self.extras(v), self.pos(k), names)
                    )
                continue
            out.append(s.OverrideDecl(path, self.cell(cell_node), self.extras(v), self.pos(k)))
        return out

    def sec_removes(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for entry in _seq(value):
            target = _get(entry, "remove") if isinstance(entry, MappingNode) else entry
            if isinstance(target, ScalarNode):
                path = self.path_names(target)
                if path[0].text == "example" and len(path) > 1:
                    out.append(s.ExampleRemove(path[1:], self.extras(entry), self.pos(entry)))
                    continue
                if path[0].text == "facing" and len(path) == 2:  # issue 24
                    out.append(s.FacingRemove(path[1], self.extras(entry), self.pos(entry)))
                    continue
                out.append(s.RemoveDecl(path, self.extras(entry), self.pos(entry)))
        return out

    def sec_facing(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        """``facing: {MODE: {on: GRID, rules: ["turn 1 MP per hexside", ...]}}`` (issue 24):
        each clause written as in the DSL."""
        out: list[s.Statement] = []
        for k, v in _items(value):
            grid = _get(v, "on")
            if not isinstance(v, MappingNode) or not isinstance(grid, ScalarNode | None):
                continue  # no `on`: a facing off the grid (issue 40)
            terms = []
            for entry in _seq(_get(v, "rules")):
                found = self.fragment(entry, "free_facing_term" if grid is None else "facing_term")
                if isinstance(found, s.FacingTerm):
                    terms.append(found)
            on = None if grid is None else self.name(grid)
            out.append(s.FacingDecl(self.name(k), on, tuple(terms), self.extras(v), self.pos(k)))
        return out

    def sec_examples(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        """``examples: {NAME: {label: ..., ask: ["move_cost(walker, soft) = 3 MP", ...]}}``:
        each question is written as in the DSL (a mapping ``{ask: ..., note: ...}`` when it
        carries notes)."""
        out: list[s.Statement] = []
        for k, v in _items(value):
            questions = []
            for entry in _seq(_get(v, "ask")):
                text = _get(entry, "ask") if isinstance(entry, MappingNode) else entry
                if text is None:
                    continue
                found = self.fragment(text, "example_question")
                if isinstance(found, s.QuestionNode):
                    questions.append(replace(found, extras=self.extras(entry)))
            out.append(s.ExampleDecl(self.item(k, v), tuple(questions)))
        return out
