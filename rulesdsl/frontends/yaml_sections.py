"""Sections of the YAML front end kept apart from :mod:`rulesdsl.frontends.yaml_builder`, which
is at the size a module may reach: :class:`Builder` is that builder with them (a section's
method is ``sec_<key>``). Today, of issue 40: the decisions (a row's ``gives:``), the
whole-move rules, a table's ``arcs: NAME``, and ``arcs: {armour: {label: Armour, count:
hexsides, arcs: {front: {label: Front, spans: 5 to 1}}}}`` (``count`` left out is degrees)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from yaml.nodes import MappingNode, Node, ScalarNode

from rulesdsl.frontends import syntax as s
from rulesdsl.frontends import yaml_builder
from rulesdsl.frontends.dsl_moves import state_changes
from rulesdsl.frontends.yaml_builder import _get, _items, _seq

Band = tuple[s.Name, str, s.Located]
"""A state's band as written: ``altitude below 4``."""
_Banded = TypeVar("_Banded", s.SightDecl, s.RollDecl)


class Builder(yaml_builder.Builder):
    def sec_decisions(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        """The decisions, each row with the number it ``gives:`` (issue 40) when it gives one."""
        out: list[s.Statement] = []
        for k, v in _items(value):
            params = tuple(
                p
                for p in (self.fragment(n, "decision_param") for n in _seq(_get(v, "inputs")))
                if isinstance(p, s.ParamNode)
            )
            rows = []
            for row in _seq(_get(v, "rows")):
                when, then = _get(row, "when"), _get(row, "then")
                if not isinstance(when, ScalarNode) or not isinstance(then, ScalarNode):
                    continue
                conditions = self.fragment(when, "condition")
                gives = _get(row, "gives")  # a decision that gives numbers (issue 40)
                answer = None if gives is None else self.fragment(gives, "operand")
                if conditions is None or (gives is not None and answer is None):
                    continue
                outcome = self.item(then, row)
                rows.append(s.DecisionRowNode(tuple(conditions), outcome, self.pos(row), answer))
            if params:
                out.append(s.DecisionDecl(self.item(k, v), params, self._result(v), tuple(rows)))
        return out

    def sec_tables(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        """The tables, each with its ``arcs: NAME`` (issue 40) when it has one."""
        keyed = {k.value: _get(v, "arcs") for k, v in _items(value)}
        return [
            replace(t, arcs=self.name(node))
            if isinstance(t, s.TableDecl)
            and isinstance(node := keyed.get(t.item.name.text), ScalarNode)
            else t
            for t in super().sec_tables(key, value, root)
        ]

    def sec_arcs(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            count_node = _get(v, "count")
            count = self.name(count_node) if isinstance(count_node, ScalarNode) else None
            rows = []
            listed = _get(v, "arcs")
            for name, row in _items(listed) if listed is not None else ():
                spans_node = _get(row, "spans") if isinstance(row, MappingNode) else row
                spans = self.fragment(spans_node, "arc_spans") if spans_node is not None else None
                rows.append(s.ArcNode(self.item(name, row, scalar_is_label=False), spans or ()))
            out.append(s.ArcsDecl(self.item(k, v), count, tuple(rows)))
        return out

    def sec_whole_moves(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        """``whole_moves: {one_river: {label: One river, most: 1, features: [river]}}``;
        ``bonus: 4 in``: the allowance's bonus on a route every step of which counts; without
        either, the route carries the rule."""
        out: list[s.Statement] = []
        for k, v in _items(value):
            most_node = _get(v, "most")
            most = self.located(most_node) if most_node is not None else None  # an int: schema
            bonus_node = _get(v, "bonus")
            bonus = self.located(bonus_node, "quantity") if bonus_node is not None else None
            names = self._names(_get(v, "features"))
            out.append(s.WholeMoveDecl(self.item(k, v), names, most, bonus))
        return out

    def sec_states(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        """``states: {speed: {label: Speed, range: [0, 8], changes: [debris -2, bomber climb
        -3], ranges: [bomber 0 to 6]}}`` (issue 40): what a unit carries from move to move."""
        out: list[s.Statement] = []
        for k, v in _items(value):
            bounds = [self.located(n, "signed") for n in _seq(_get(v, "range"))]
            changes = [self.fragment(n, "state_change") for n in _seq(_get(v, "changes"))]
            own = [self.fragment(n, "state_own_range") for n in _seq(_get(v, "ranges"))]
            low, high = [*bounds, None, None][:2]
            if low is None or high is None or len(bounds) != 2 or None in changes + own:
                continue  # reported by the schema or the fragment's parse
            found, ends, caps = state_changes(c[1:] for c in changes if isinstance(c, tuple))
            ranges = tuple(c[1:] for c in own if isinstance(c, tuple)) or None
            out.append(s.StateDecl(self.item(k, v), (low, high), found, ranges, ends, caps))
        return out

    def sec_drifts(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        """``drifts: {wind: {label: Wind drift, entries: [1 when altitude below 3, balloon
        2]}}`` (issue 40): how far the wind carries each unit type at the end of its move."""
        out: list[s.Statement] = []
        for k, v in _items(value):
            entries = [self.fragment(n, "drift_entry") for n in _seq(_get(v, "entries"))]
            if None in entries:
                continue  # reported by the fragment's parse
            found = tuple(e[1:] for e in entries if isinstance(e, tuple))
            out.append(s.DriftDecl(self.item(k, v), found))
        return out

    def sec_sights(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        """The sight rules, each with its ``band: altitude below 5`` (issue 40) when it has one."""
        found = super().sec_sights(key, value, root)
        return self._banded(value, found, s.SightDecl, lambda st, band: replace(st, band=band))

    def sec_rolls(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        """The rolls, each with its ``band: altitude below 4`` (issue 40) when it has one."""
        found = super().sec_rolls(key, value, root)
        return self._banded(value, found, s.RollDecl, lambda st, band: replace(st, state=band))

    def _banded(
        self,
        value: Node,
        found: list[s.Statement],
        kind: type[_Banded],
        put: Callable[[_Banded, Band], _Banded],
    ) -> list[s.Statement]:
        """``found`` with the band of each item of ``value`` that has a ``band: altitude below
        4``, as written, ``put`` on its statement of ``kind``."""
        bands: dict[str, Band] = {}
        for k, v in _items(value):
            node = _get(v, "band")
            band = self.fragment(node, "roll_band") if node is not None else None
            if isinstance(band, tuple):
                bands[k.value] = band[1:]
        return [
            put(st, bands[st.item.name.text])
            if isinstance(st, kind) and st.item.name.text in bands
            else st
            for st in found
        ]
