"""Sections of the YAML front end kept apart from :mod:`rulesdsl.frontends.yaml_builder`, which
is at the size a module may reach: :class:`Builder` is that builder with them (a section's
method is ``sec_<key>``). Today, of issue 40: a table's ``arcs: NAME``, and ``arcs: {armour:
{label: Armour, count: hexsides, arcs: {front: {label: Front, spans: 5 to 1}}}}`` (``count``
left out is degrees)."""

from __future__ import annotations

from dataclasses import replace

from yaml.nodes import MappingNode, Node, ScalarNode

from rulesdsl.frontends import syntax as s
from rulesdsl.frontends import yaml_builder
from rulesdsl.frontends.yaml_builder import _get, _items


class Builder(yaml_builder.Builder):
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
