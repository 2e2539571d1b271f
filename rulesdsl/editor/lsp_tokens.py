"""Semantic tokens: the grammar's own lexer over a `.terrain` file, each token typed.

The tokens come from the Lark lexer of the grammar (``grammars/terrain.lark``), run with its
ignored terminals kept, so an editor colours exactly what the parser reads: keywords, strings,
numbers (and dice, versions, pages), comments, operators and punctuation, and names, typed by
what they name (a mode, a feature, a table...) from the language server's index. Every
character of the file that is not blank lies in exactly one token. A token that spans lines
(the grammar's line breaks carry the comments between statements) is cut into its comments.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, assert_never, get_args

from lark.exceptions import UnexpectedCharacters
from lark.lexer import LexerThread

from rulesdsl import words
from rulesdsl.editor.lsp_index import Index
from rulesdsl.frontends.dsl import lalr_parser

TokenType = Literal[
    "keyword",
    "string",
    "number",
    "operator",
    "comment",
    "variable",
    "enum",
    "enumMember",
    "property",
    "type",
    "function",
    "parameter",
    "namespace",
]
TOKEN_TYPES: tuple[TokenType, ...] = get_args(TokenType)
"""The legend's token types, in the order their numbers refer to."""
TOKEN_MODIFIERS = ("declaration",)
"""The legend's modifiers: ``declaration`` marks the name an item is declared with."""

NUMBERS = frozenset({"INT", "NUMBER", "VERSION_REQ", "SEMVER", "DICE", "PAGE", "SIGN"})
"""The terminals that are numbers (a sign is part of the number it stands before)."""


@dataclass(frozen=True)
class Token:
    line: int
    """From 0."""
    start: int
    """In code points, from 0."""
    text: str
    type: TokenType
    declaration: bool = False


def name_type(kind: words.ItemKind | words.PartKind) -> TokenType:
    """How a name of that kind is coloured."""
    match kind:
        case "mode" | "group" | "context value":
            return "enumMember"
        case "context":
            return "enum"
        case "feature" | "factor" | "row" | "dice row" | "column" | "outcome" | "item":
            return "property"
        case "layer" | "modifier" | "table" | "dice" | "dice modifier" | "sight" | "grid" | "arcs":
            return "type"
        case "step" | "decision" | "trigger" | "roll" | "whole" | "state" | "drift":
            return "function"
        case "move":
            return "enumMember"
        case "param":
            return "parameter"
        case "book" | "ruleset":
            return "namespace"
        case _:
            assert_never(kind)


@cache
def _lexer() -> Any:
    """The grammar's basic lexer with the ignored terminals kept (built once)."""
    return lalr_parser()._build_lexer(dont_ignore=True)


_COMMENT = re.compile(r"#[^\n]*")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _raw(text: str) -> Iterator[tuple[int, str, str]]:
    """(offset, terminal, text) of each token; a character no terminal starts is skipped
    (it is an E002 the diagnostics show)."""
    at = 0
    while at < len(text):
        thread = LexerThread.from_text(_lexer(), text[at:])
        try:
            for tok in thread.lex(None):  # type: ignore[no-untyped-call]
                yield at + tok.start_pos, tok.type, str(tok)
            return
        except UnexpectedCharacters as exc:
            at += (exc.pos_in_stream or 0) + 1


def tokens(text: str, index: Index | None = None, path: str = "") -> list[Token]:
    """Every token of a `.terrain` text, in order; names typed by ``index`` (of ``path``)."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    kinds: dict[str, TokenType] = {}
    declared: set[tuple[int, int]] = set()
    if index is not None:
        kinds = {name: name_type(d.kind) for name, d in index.declarations.items()}
        declared = {
            (d.item.name.pos.line - 1, d.item.name.pos.column - 1)
            for d in index.declarations.values()
            if d.item.name.pos.file == path
        }

    def at(offset: int, piece: str, kind: TokenType) -> Token:
        line = bisect.bisect_right(starts, offset) - 1
        column = offset - starts[line]
        return Token(line, column, piece, kind, (line, column) in declared)

    out: list[Token] = []
    for offset, terminal, value in _raw(text):
        if not value.strip():
            continue
        if terminal == "COMMENT":
            out.append(at(offset, value, "comment"))
        elif "\n" in value or "#" in value:  # a line break with comments, a note after one
            for m in _COMMENT.finditer(value):
                out.append(at(offset + m.start(), m.group(), "comment"))
            rest = _COMMENT.sub(lambda m: " " * len(m.group()), value)
            for m in re.finditer(r"\S+", rest):
                word = m.group()
                out.append(
                    at(offset + m.start(), word, "keyword" if _WORD.fullmatch(word) else "operator")
                )
        elif terminal == "STRING":
            out.append(at(offset, value, "string"))
        elif terminal in NUMBERS:
            out.append(at(offset, value, "number"))
        elif terminal == "NAME":
            kind = kinds.get(value, "keyword" if value in words.FLAG_WORDS else "variable")
            out.append(at(offset, value, kind))
        elif _WORD.fullmatch(value):
            out.append(at(offset, value, "keyword"))
        else:  # punctuation and operators
            out.append(at(offset, value, "operator"))
    return out
