"""The DSL builder's methods for named arcs (issue 40): one per grammar rule, each building that
construct's syntax node (see :mod:`rulesdsl.frontends.dsl`)."""

from __future__ import annotations

from typing import Any

from lark import Token
from lark.tree import Meta

from rulesdsl import ir
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.dsl_base import BuilderBase


class ArcRules(BuilderBase):
    """Builds ``arcs`` blocks."""

    def arcs_decl(self, meta: Meta, ch: list[Any]) -> s.ArcsDecl:
        unit = next((c for c in ch[1:] if isinstance(c, Token) and c.type == "NAME"), None)
        return s.ArcsDecl(
            self._item(meta, ch),
            self._name(unit) if unit is not None else None,
            tuple(c for c in ch if isinstance(c, s.ArcNode)),
        )

    def arc_row(self, meta: Meta, ch: list[Any]) -> s.ArcNode:
        spans = next(
            c for c in ch if isinstance(c, tuple) and c and isinstance(c[0], s.ArcSpanNode)
        )
        return s.ArcNode(self._item(meta, ch), spans)

    def table_arcs(self, meta: Meta, ch: list[Token]) -> s.Name:
        """``table NAME : arcs ARCS``: the arcs whose names the table's rows are."""
        return self._name(ch[-1])

    def arc_spans(self, meta: Meta, ch: list[s.ArcSpanNode]) -> tuple[s.ArcSpanNode, ...]:
        return tuple(ch)

    def arc_span(self, meta: Meta, ch: list[ir.Number]) -> s.ArcSpanNode:
        return s.ArcSpanNode(float(ch[0].value), float(ch[1].value), self._p(meta))


def _is_span(node: object) -> bool:
    return isinstance(node, s.ArcSpanNode)
