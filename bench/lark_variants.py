"""The DSL parser on other LALR engines, for bench/bench_parse.py (issue 44): lark-cython's
lexer and driver, and the module Lark's standalone tool writes. Each is a
:class:`rulesdsl.frontends.dsl.Parser` whose ``_build`` runs the other engine over the same
grammar, reducing straight into the same syntax nodes with the same builder, so its result
and its diagnostics can be compared with today's parser's and its time set beside it.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from copy import copy
from pathlib import Path
from types import ModuleType
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedToken

from rulesdsl.frontends.dsl import Parser, _Builder
from rulesdsl.frontends.dsl_base import plans
from rulesdsl.frontends.dsl_patterns import PATTERNS

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "grammars" / "terrain.lark"

_new = str.__new__


def as_lark(t: Any) -> Token:
    """A lark-cython token as Lark's (a ``str``, which the builder reads), made without
    ``Token.__new__``'s argument handling (0.7 us instead of 2.3 us)."""
    out = _new(Token, t.value)
    out.type, out.value, out.start_pos = t.type, t.value, t.start_pos
    out.line, out.column, out.end_line, out.end_column = t.line, t.column, t.end_line, t.end_column
    out.end_pos = t.end_pos
    return out


def kept_terminals(lark: Lark) -> frozenset[str]:
    """The terminals some rule keeps as a child (a NAME, an INT, ...): the only tokens the
    builder reads as text. Keywords and punctuation are filtered out and give only their
    positions, which a lark-cython token has too."""
    return frozenset(
        p.rule.expansion[i].name
        for p in plans(lark)
        for i, _ in p.keep
        if p.rule.expansion[i].is_term
    )


class CythonParser(Parser):
    """Today's parser with lark-cython's contextual lexer and LALR driver, over our own parse
    table (so the builder's callbacks keep their keys, Lark's rules). Its tokens are a Cython
    class, not ``str``; each token of a kept terminal is made a Lark token as it is shifted.
    Its lexer's regular expressions go through the same kept patterns as ours."""

    def __init__(self) -> None:
        super().__init__()
        from lark_cython import lark_cython

        self._cython = lark_cython
        frontend: Any = self._lark.parser
        self._table = frontend.parser._parse_table
        conf = copy(frontend.lexer_conf)
        conf.re_module = PATTERNS
        states = {state: list(actions) for state, actions in self._table.states.items()}
        self._lexer = lark_cython.ContextualLexer(conf, states, ())
        self._kept = kept_terminals(self._lark)

    def _build(self, text: str, builder: _Builder) -> Any:
        callbacks: dict[Any, Any] = dict(builder.callbacks(self._lark))  # shared: copied
        for name in self._kept:
            check = callbacks.get(name)
            callbacks[name] = as_lark if check is None else (lambda t, c=check: c(as_lark(t)))
        thread = self._cython.LexerThread.from_text(self._lexer, text)
        return self._cython._Parser(self._table, callbacks).parse(thread, "start").value


def write_standalone(folder: Path) -> Path:
    """The grammar's standalone parser, written by Lark's own tool into ``folder``."""
    out = folder / "terrain_standalone.py"
    tool = [sys.executable, "-m", "lark.tools.standalone", "--propagate_positions"]
    subprocess.run([*tool, str(GRAMMAR), "-o", str(out)], check=True)
    return out


def load_standalone(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("terrain_standalone", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class StandaloneParser(Parser):
    """Today's parser with the lexer and LALR driver of Lark's standalone module (the same
    Python code as Lark's, copied into one file with the grammar's tables). The builder's
    callbacks are keyed by the module's rules, matched to Lark's (the builder reads Lark's
    classes to shape each rule, so it is still given Lark's parser). The module has its own
    ``Token`` and exceptions: its lexer is made to give Lark's tokens (the builder tests
    ``isinstance(..., lark.Token)``), and its errors are raised again as Lark's."""

    def __init__(self, module: ModuleType) -> None:
        super().__init__()
        module.Token = Token  # the name its lexer and driver make tokens with
        self._module = module
        self._standalone = module.Lark_StandAlone()
        self._rules = dict(zip(self._lark.rules, self._standalone.rules, strict=True))

    def _build(self, text: str, builder: _Builder) -> Any:
        callbacks = {
            key if isinstance(key, str) else self._rules[key]: callback
            for key, callback in builder.callbacks(self._lark).items()
        }
        frontend = self._standalone.parser
        parser = self._module._Parser(frontend.parser._parse_table, callbacks)
        try:
            return parser.parse(frontend._make_lexer_thread(text), "start").value
        except self._module.UnexpectedToken as exc:
            raise UnexpectedToken(exc.token, exc.expected, state=exc.state) from None
        except self._module.UnexpectedCharacters as exc:
            at = exc.pos_in_stream
            raise UnexpectedCharacters(text, at, exc.line, exc.column, exc.allowed) from None
