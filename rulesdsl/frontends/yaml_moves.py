"""The YAML builder's section for whole-move rules (issue 40), apart from
:mod:`rulesdsl.frontends.yaml_builder`, whose Builder takes it in:
``whole_moves: {one_river: {label: One river, most: 1, features: [river]}}``; without
``most``, the route carries the rule."""

from __future__ import annotations

from typing import Protocol, cast

from yaml.nodes import MappingNode, Node, ScalarNode

from rulesdsl.frontends import syntax as s


class _Builds(Protocol):
    """What the section uses of the builder."""

    def item(self, key: ScalarNode, node: Node | None) -> s.Item: ...
    def located(self, node: Node, start: str = "value") -> s.Located | None: ...
    def _names(self, node: Node | None) -> tuple[s.Name, ...]: ...


class WholeMoveSections:
    def sec_whole_moves(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        b = cast("_Builds", self)
        out: list[s.Statement] = []
        for k, v in value.value if isinstance(value, MappingNode) else []:
            fields = dict(v.value) if isinstance(v, MappingNode) else {}
            found = {name.value: node for name, node in fields.items()}
            most_node = found.get("most")
            most = b.located(most_node) if most_node is not None else None  # an int: schema
            out.append(s.WholeMoveDecl(b.item(k, v), b._names(found.get("features")), most))
        return out
