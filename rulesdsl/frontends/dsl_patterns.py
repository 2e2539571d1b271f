"""The DSL lexer's regular expressions, compiled once and kept between runs (issue 44).

Each parser state's lexer (:mod:`rulesdsl.frontends.dsl_lexer`) matches one regular expression
made of the terminals the state accepts: ``rulesdsl check heavy_gear`` meets 92 such lexers,
and ``re`` compiled their expressions afresh in every process (its parser and code generator
are Python: ~26 ms, a tenth of the command). :data:`PATTERNS` stands in for ``re`` in the
lexers Lark makes: what ``re`` compiles an expression to (its flags, the code ``_sre`` runs
and the group names) is kept in a cache file beside this module's ``.pyc``, as
:mod:`rulesdsl.ir.records` keeps the dataclasses' code, and the next process makes the
pattern from it with ``_sre.compile``, as ``re`` itself does at the end of a compile.

An expression compiled afresh is kept only when the pattern made from what is kept equals the
one ``re`` made (``re.Pattern`` compares its expression, flags and code), so what the lexer
matches is ``re``'s. The cache is keyed by the interpreter's bytecode magic number and
``_sre``'s own: another interpreter's file, a damaged one or a bad entry means compiling with
``re``, as before.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # what re compiles with (no stub)
import re
from re import _compiler, _parser  # type: ignore[attr-defined]
from typing import Any

from rulesdsl.ir.records import _MAGIC, _cache_path, _CodeCache

_CACHE = _CodeCache(
    _cache_path(__file__, ".re-code"), _MAGIC + b"sre%d." % _sre.MAGIC + b"%d" % _sre.CODESIZE
)


def _compiled(pattern: str, flags: int) -> tuple[Any, ...]:
    """The arguments ``re`` gives ``_sre.compile`` for ``pattern`` (``re._compiler.compile``)."""
    parsed = _parser.parse(pattern, flags)
    groups = parsed.state.groupdict
    names: list[str | None] = [None] * parsed.state.groups
    for name, index in groups.items():
        names[index] = name
    code = [int(c) for c in _compiler._code(parsed, flags)]  # plain ints: marshal keeps them
    whole = int(flags | parsed.state.flags)  # an int, not a re.RegexFlag: marshal keeps it
    return (whole, code, parsed.state.groups - 1, dict(groups), tuple(names))


class _Patterns:
    """The part of ``re`` Lark's lexers use (``compile``, ``match``, ``error``), each pattern
    made from the cache when it is there."""

    error = re.error

    def __init__(self) -> None:
        self._made: dict[tuple[str, int], re.Pattern[str]] = {}

    def compile(self, pattern: str, flags: int = 0) -> re.Pattern[str]:
        key = (pattern, flags)
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = self._make(pattern, flags)
        return made

    def match(self, pattern: str, text: str, flags: int = 0) -> re.Match[str] | None:
        return self.compile(pattern, flags).match(text)

    @staticmethod
    def _make(pattern: str, flags: int) -> re.Pattern[str]:
        kept = _CACHE.load()
        key = (pattern, int(flags))
        _CACHE.used.add(key)
        args = kept.get(key)
        if isinstance(args, tuple):
            try:
                made: re.Pattern[str] = _sre.compile(pattern, *args)
                return made
            except (TypeError, ValueError, RuntimeError):
                pass  # a damaged entry: compiled afresh below
        fresh = re.compile(pattern, flags)  # raises re.error as Lark expects
        try:
            args = _compiled(pattern, flags)
            if _sre.compile(pattern, *args) == fresh:
                kept[key] = args
                _CACHE.note_missed()
        except Exception:  # re's internals differ on this interpreter: nothing is kept
            pass
        return fresh


PATTERNS = _Patterns()
"""Stands in for ``re`` in the DSL's lexers (``LexerConf.re_module``)."""
