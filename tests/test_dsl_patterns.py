"""rulesdsl.frontends.dsl_patterns: the DSL lexers' regular expressions are compiled once and
kept between runs (issue 44, `check` start-up), each the very pattern ``re`` makes."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from rulesdsl.frontends import dsl_patterns
from rulesdsl.frontends.dsl import lalr_parser
from rulesdsl.ir import records

EXPRESSION = r"(?P<NAME>[a-z_]\w*)|(?P<NUMBER>[0-9]+(?:\.[0-9]+)?)|(?P<_NL>(\r?\n)+)"


def _fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dsl_patterns._Patterns:
    """A new process's patterns: nothing made yet, the cache read from ``tmp_path``."""
    cache = records._CodeCache(tmp_path / "patterns", dsl_patterns._CACHE.magic)
    monkeypatch.setattr(dsl_patterns, "_CACHE", cache)
    return dsl_patterns._Patterns()


def test_a_lexer_pattern_is_made_from_the_cache_in_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    first = _fresh(tmp_path, monkeypatch).compile(EXPRESSION, re.MULTILINE)
    assert first == re.compile(EXPRESSION, re.MULTILINE)
    dsl_patterns._CACHE.save()  # as at the first run's exit

    def no_parse(*_: object) -> None:
        raise AssertionError("compiled again")

    later = _fresh(tmp_path, monkeypatch)
    monkeypatch.setattr(dsl_patterns._parser, "parse", no_parse)
    monkeypatch.setattr(re, "compile", no_parse)
    kept = later.compile(EXPRESSION, re.MULTILINE)
    assert kept == first and kept.pattern == EXPRESSION and kept.flags == first.flags
    assert kept.groupindex == first.groupindex
    assert kept.match("width 12").lastgroup == "NAME"  # type: ignore[union-attr]
    assert later.match(EXPRESSION, "12.5", re.MULTILINE).group() == "12.5"  # type: ignore[union-attr]


def test_a_damaged_entry_or_a_bad_expression_is_compiled_by_re(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    patterns = _fresh(tmp_path, monkeypatch)
    dsl_patterns._CACHE.load()[(EXPRESSION, 0)] = (0, [1, 2, 3], 0, {}, ())
    assert patterns.compile(EXPRESSION) == re.compile(EXPRESSION)
    with pytest.raises(re.error):  # Lark's lexer reports a terminal that is not an expression
        patterns.compile("(unclosed")


def test_the_dsl_lexers_compile_through_the_kept_patterns() -> None:
    lexer = lalr_parser().parser.lexer
    assert lexer.root_lexer.re is dsl_patterns.PATTERNS
    assert lexer.lexers[min(lexer.lexers._accepts)].re is dsl_patterns.PATTERNS
