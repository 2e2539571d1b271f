"""The DSL parser's contextual lexer, each state's lexer made when first needed.

Lark's contextual lexer makes, as the parser loads, one lexer for each set of terminals a
parser state accepts. :class:`LazyContextualLexer` makes the same lexers the first time the
parser is in a state that needs one (:func:`rulesdsl.frontends.dsl.lalr_parser` puts it in
place of Lark's own through Lark's ``_plugins`` option).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from copy import copy

from lark.common import LexerConf
from lark.lexer import AbstractBasicLexer, ContextualLexer

from rulesdsl.frontends.dsl_patterns import PATTERNS


class _StateLexers(dict[int, AbstractBasicLexer]):
    """Each parser state's lexer, made the first time the parser is in that state; the states
    that accept the same terminals share one, as in Lark's own contextual lexer."""

    def __init__(
        self,
        make: Callable[[frozenset[str]], AbstractBasicLexer],
        accepts: Mapping[int, Collection[str]],
    ) -> None:
        super().__init__()
        self._make = make
        self._accepts = accepts
        self._shared: dict[frozenset[str], AbstractBasicLexer] = {}

    def __missing__(self, state: int) -> AbstractBasicLexer:
        key = frozenset(self._accepts[state])
        lexer = self._shared.get(key)
        if lexer is None:
            lexer = self._shared[key] = self._make(key)
        self[state] = lexer
        return lexer


class LazyContextualLexer(ContextualLexer):
    """Lark's contextual lexer, with each state's lexer made when it is first needed rather
    than all of them as the parser loads (Lark's `_plugins` option puts it in place of its
    own). The grammar's 1,375 states have 260 distinct sets of terminals; making a lexer for
    each was ~5 ms of every process's parser load, and `rulesdsl check heavy_gear` meets 87.
    A state's lexer is the one Lark's own would make: the same terminals, sorted by
    ``BasicLexer`` into the same order. Their regular expressions are compiled through
    :data:`~rulesdsl.frontends.dsl_patterns.PATTERNS`, which keeps them between runs."""

    def __init__(
        self,
        conf: LexerConf,
        states: dict[int, Collection[str]],
        always_accept: Collection[str] = (),
    ) -> None:
        terminals = list(conf.terminals)
        by_name = conf.terminals_by_name
        whole = copy(conf)
        whole.terminals = terminals
        if conf.re_module is re:  # not with Lark's `regex` option
            whole.re_module = PATTERNS  # type: ignore[assignment]
        extra = set(conf.ignore) | set(always_accept)

        def make(accepts: frozenset[str]) -> AbstractBasicLexer:
            one = copy(whole)
            one.terminals = [by_name[name] for name in accepts | extra if name in by_name]
            return self.BasicLexer(one, None)

        self.lexers = _StateLexers(make, states)
        self.root_lexer = self.BasicLexer(whole, None)
