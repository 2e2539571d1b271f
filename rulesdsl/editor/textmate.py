"""The VS Code extension's TextMate grammar, made from the language's registry of words.

``editors/vscode/syntaxes/terrain.tmLanguage.json`` is this module's output: its statement
and keyword lists come from :mod:`rulesdsl.words`, so a word added there is coloured once the
file is written again (``python -m rulesdsl.editor.textmate``); ``tests/test_words.py`` fails
while the file and this module disagree.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, get_args

from rulesdsl import ir, words
from rulesdsl.outputs import atomic_write

MARKERS = ("impassable", "prohibited", "blocked", "as", *words.FLAG_WORDS)
"""The words coloured as values (a cost that is no number, `as`, yes and no)."""

INNER_STATEMENT_WORDS = ("modifier", "step")
"""Statement words that also stand inside a statement (``roll ... with modifier``, ``as step``)."""

PATH = Path(__file__).resolve().parents[2] / "editors/vscode/syntaxes/terrain.tmLanguage.json"


def _alternatives(found: tuple[str, ...] | list[str]) -> str:
    return "|".join(dict.fromkeys(found))


def keywords() -> tuple[str, ...]:
    """The words coloured as keywords: the registry's inner words, the combine policies,
    sight counts and grid shapes, less the markers."""
    pool = (
        *words.KEYWORDS,
        *get_args(ir.Combine),
        *words.SIGHT_COUNTS,
        *words.GRID_SHAPES,
        *INNER_STATEMENT_WORDS,
    )
    return tuple(w for w in dict.fromkeys(pool) if w not in MARKERS)


def grammar() -> dict[str, Any]:
    ident = "[A-Za-z_][A-Za-z0-9_]*"
    order = [
        "comment",
        "string",
        "source",
        "declaration",
        "header",
        "keyword",
        "marker",
        "dice",
        "version",
        "number",
        "operator",
        "punctuation",
        "name",
    ]
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "Terrain DSL (rulesdsl)",
        "scopeName": "source.terrain",
        "fileTypes": ["terrain"],
        "patterns": [{"include": f"#{rule}"} for rule in order],
        "repository": {
            "comment": {"match": "#.*$", "name": "comment.line.number-sign.terrain"},
            "string": {
                "match": '"(?:[^"\\\\]|\\\\["\\\\nt]|\\\\u[0-9a-fA-F]{4})*"',
                "name": "string.quoted.double.terrain",
            },
            "source": {
                "match": f"(\\[)\\s*({ident})"  # a book, then a page or a rule number
                "(?:\\s*(pp?\\.\\s?\\d+(?:-\\d+)?|§\\s?\\d+(?:\\.\\d+)*))?",
                "captures": {
                    "1": {"name": "punctuation.section.brackets.begin.terrain"},
                    "2": {"name": "entity.name.tag.book.terrain"},
                    "3": {"name": "constant.other.page.terrain"},
                },
            },
            "declaration": {
                "match": f"^\\s*({_alternatives(words.DECLARATIONS)})\\s+({ident})",
                "captures": {
                    "1": {"name": "storage.type.terrain"},
                    "2": {"name": "entity.name.type.terrain"},
                },
            },
            "header": {
                "match": f"^\\s*({_alternatives(words.HEADERS)})\\b",
                "captures": {"1": {"name": "keyword.other.terrain"}},
            },
            "keyword": {
                "match": f"\\b({_alternatives(keywords())})\\b",
                "name": "keyword.control.terrain",
            },
            "marker": {
                "match": f"\\b({_alternatives(MARKERS)})\\b",
                "name": "constant.language.terrain",
            },
            "dice": {
                "match": "\\b(?:\\d+)?d(?:\\d+|%)(?:[+-]\\d+)?(?![A-Za-z0-9_])",
                "name": "constant.numeric.dice.terrain",
            },
            "version": {
                "match": "(@)((?:\\^|~|>=|<=|==|>|<)?\\d+(?:\\.\\d+){0,2})"
                "|\\b\\d+\\.\\d+\\.\\d+\\b",
                "captures": {
                    "1": {"name": "punctuation.separator.version.terrain"},
                    "2": {"name": "constant.other.version.terrain"},
                },
                "name": "constant.other.version.terrain",
            },
            "number": {"match": "[+-]?\\b\\d+(?:\\.\\d+)?\\b", "name": "constant.numeric.terrain"},
            "operator": {
                "match": "->|<=|>=|!=|=|<|>|\\*|/|\\+|-|&",
                "name": "keyword.operator.terrain",
            },
            "punctuation": {
                "match": "[|,:{}()\\[\\].\\\\]",
                "name": "punctuation.separator.terrain",
            },
            "name": {"match": ident, "name": "variable.other.terrain"},
        },
    }


def text() -> str:
    """The grammar file's text."""
    return json.dumps(grammar(), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    """Write the grammar file (``python -m rulesdsl.editor.textmate [PATH]``)."""
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else PATH
    atomic_write(target, text().encode("utf-8"))
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
