"""The language's words are declared once, in :mod:`rulesdsl.words`; the grammar, the editor's
TextMate grammar, the language server's completions and the docs' tables agree with it."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import get_args

import pytest

from rulesdsl import ir, spelling, words

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "grammars" / "terrain.lark"
TEXTMATE = ROOT / "editors" / "vscode" / "syntaxes" / "terrain.tmLanguage.json"
LANGUAGE_DOC = ROOT / "docs" / "language.md"


def _grammar_words() -> set[str]:
    text = re.sub(r"//.*", "", GRAMMAR.read_text("utf-8"))
    literals = set(re.findall(r'"([A-Za-z_][A-Za-z_0-9]*)"', text))
    in_terminals = set(re.findall(r"\\b([a-z]+)\\b/", text))  # NOTE.3: /...\bnote\b/
    return literals | in_terminals


def _textmate_words(rule: str) -> set[str]:
    grammar = json.loads(TEXTMATE.read_text("utf-8"))
    match = re.search(r"\(([a-z_|]+)\)", grammar["repository"][rule]["match"])
    assert match is not None, rule
    return set(match.group(1).split("|"))


def test_the_grammar_uses_exactly_the_registered_words() -> None:
    assert _grammar_words() == set(words.STATEMENTS) | set(words.KEYWORDS)


@pytest.mark.parametrize("word", words.STATEMENTS)
def test_each_statement_word_starts_a_statement_of_the_grammar(word: str) -> None:
    assert re.search(rf'^\w+_decl: "{word}"', GRAMMAR.read_text("utf-8"), re.M)


def test_the_textmate_grammar_colours_every_registered_word() -> None:
    assert _textmate_words("declaration") == set(words.DECLARATIONS)
    assert _textmate_words("header") == set(words.HEADERS)
    inner = _textmate_words("keyword") | _textmate_words("marker")
    expected = (
        set(words.KEYWORDS)
        | set(words.FLAG_WORDS)
        | set(get_args(ir.Combine))
        | set(words.SIGHT_COUNTS)
        | set(words.GRID_SHAPES)
        | {"step", "modifier", "sum"}
    )
    assert sorted(expected - inner) == []
    assert sorted(inner - expected) == []


def test_the_language_servers_value_words_are_registered() -> None:
    from rulesdsl.editor import lsp

    registered = set(words.KEYWORDS) | set(words.FLAG_WORDS) | set(words.STATEMENTS)
    assert set(lsp.VALUE_KEYWORDS) <= registered
    assert set(lsp.BLOCK_KEYWORDS) <= registered


def test_the_language_server_completes_every_statement() -> None:
    from rulesdsl.editor import lsp

    assert set(lsp.KEYWORDS) == set(words.STATEMENTS)


def test_every_step_term_and_combine_policy_has_a_row_in_the_language_docs() -> None:
    doc = LANGUAGE_DOC.read_text("utf-8")
    rows = {line.split("|")[1].strip() for line in doc.splitlines() if line.startswith("| `")}
    samples: dict[ir.StepTermKind, ir.StepTerm] = {
        "rate": ir.RateTerm(1, 2),
        "floor": ir.FloorTerm(1, 2),
        "impassable": ir.ImpassableTerm(2),
        "free": ir.FreeTerm(2),
    }
    assert sorted(samples) == sorted(words.STEP_TERMS)
    for kind, term in samples.items():
        head = " ".join(spelling.step_term(term, "in").split()[:2]).replace("+1", "+N")
        assert any(row.strip("`").startswith(head) for row in rows), kind
    for policy in get_args(ir.Combine):
        assert any(row.startswith(f"`{policy}`") for row in rows), policy


def test_every_dice_range_is_spelled_by_one_function() -> None:
    """``12+``, ``2-``, ``8``, ``2-7``: spelling.dice_range, and no module spells one itself."""
    assert [spelling.dice_range(*r) for r in ((12, None), (None, 2), (8, 8), (2, 7))] == [
        "12+",
        "2-",
        "8",
        "2-7",
    ]
    package = ROOT / "rulesdsl"
    spellers = [
        p.relative_to(package).as_posix()
        for p in sorted(package.rglob("*.py"))
        if re.search(r'f"\{[\w.]*low\}\+"', p.read_text("utf-8"))
    ]
    assert spellers == ["spelling.py"]


def _statement_classes() -> list[type]:
    from rulesdsl.frontends import syntax as s

    return list(typing.get_args(s.Statement))


def test_each_declaring_statement_has_one_kind_and_one_keyword() -> None:
    """``declared.declared_kind`` says what each statement declares; the language server's
    index names the same statements, each by its registered keyword."""
    from rulesdsl.editor import lsp_index
    from rulesdsl.frontends.declared import declared_kind

    declaring = {cls for cls in _statement_classes() if declared_kind(_blank(cls)) is not None}
    assert len(declaring) == len(words.DECLARATIONS)
    kinds = [lsp_index.item_kind(_blank(cls)) for cls in declaring]
    assert sorted(map(str, kinds)) == sorted(words.DECLARATIONS)


def _blank(cls: type) -> typing.Any:
    """An instance of a statement class whose fields are left unset (only its type is read)."""
    return object.__new__(cls)


def test_the_textmate_grammar_is_made_from_the_registry() -> None:
    """The grammar file is rulesdsl.editor.textmate's output, so a word added to words.py is
    coloured once the file is written again."""
    from rulesdsl.editor import textmate

    assert TEXTMATE.read_text("utf-8") == textmate.text(), (
        "run `python -m rulesdsl.editor.textmate` to write the grammar again"
    )


def test_the_language_server_completes_every_registered_word_somewhere() -> None:
    """Statements at the start of a line, the inner words inside a statement, the value words
    in a cell: together every word of the registry."""
    from rulesdsl.editor import lsp

    offered = (
        set(lsp.KEYWORDS)
        | set(lsp.INNER_KEYWORDS)
        | set(lsp.BLOCK_KEYWORDS)
        | set(lsp.VALUE_KEYWORDS)
    )
    registered = set(words.STATEMENTS) | set(words.KEYWORDS) | set(words.FLAG_WORDS)
    assert sorted(registered - offered) == []


def test_completion_inside_a_statement_offers_the_inner_words() -> None:
    from rulesdsl.editor import lsp
    from rulesdsl.editor.lsp_index import Index

    _, offered = lsp._kinds_at('layer terrain "Terrain" ', Index())
    assert {"one", "per", "place", "whole", "map"} <= set(offered)
    header = ["decision d (a in, \\\n", "    b bool) [x] {\n", "  \n"]
    assert lsp._block_of(header, 2).startswith("decision d (a in, b bool)")
    _, offered = lsp._kinds_at("  ", Index(), lsp._block_of(header, 2))
    assert {"a", "b", "otherwise"} <= set(offered)
