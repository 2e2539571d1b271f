"""The DSL builder's methods for worked examples' answers (issues 27 and 40): one per grammar
rule, each building that part's syntax node (see :mod:`rulesdsl.frontends.dsl`)."""

from __future__ import annotations

from typing import Any

from lark import Token
from lark.tree import Meta

from rulesdsl import ir
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.dsl_base import NO_EXTRAS, BuilderBase

NamedAnswer = tuple[tuple[s.Located, ...], tuple[s.Name, ...]]
"""An answer's values and the name of each, ``(speed=3, altitude=2)`` (issue 40)."""


class ExampleRules(BuilderBase):
    """Builds an example's fractions and the questions that state a field of the answer."""

    def fraction(self, meta: Meta, ch: list[Token]) -> s.Located:
        # a chance, exact: kept as a share of one (numerator / denominator)
        return s.Located(ir.Share(int(ch[0]), int(ch[1])), self._p(meta))

    def example_state(self, meta: Meta, ch: list[Any]) -> NamedAnswer:
        """``(speed=3, altitude=2)``: a route's state after it, the values and their names."""
        answer = tuple(self._located(meta, c) for c in ch[1::2])
        return answer, tuple(map(self._name, ch[::2]))

    def field_question(self, meta: Meta, ch: list[Any]) -> s.QuestionNode:
        """``route_cost(...).state = (speed=3, altitude=4)``: the attribute, then its values
        by name (``.rolls = light_flak, 0``: as written); its position spans the question and
        the answer."""
        args = tuple(c for c in ch if isinstance(c, s.ArgNode))
        attribute, stated = ch[-2:]
        named = bool(stated) and isinstance(stated[0], tuple)  # example_state: values, names
        answer, names = stated if named else (stated, None)
        ask, pos = self._name(ch[0]), self._p(meta)
        return s.QuestionNode(ask, args, answer, NO_EXTRAS, pos, self._name(attribute), names)

    def override_example_named(self, meta: Meta, ch: list[Any]) -> s.ExampleOverride:
        """``override example NAME.N | (speed=3, altitude=2)``: a ``.state`` answer restated."""
        path, (answer, names), extras = ch
        return s.ExampleOverride(path, answer, extras, self._p(meta), names)
