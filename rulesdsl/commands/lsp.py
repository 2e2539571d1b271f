"""`rulesdsl lsp`: run the language server on stdin/stdout (see rulesdsl.editor.lsp)."""

from __future__ import annotations

import argparse

from rulesdsl.commands import verb_parser


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(
        verbs,
        "lsp",
        run,
        description="Speak the Language Server Protocol on stdin/stdout: diagnostics, "
        "completion, hover, go to definition, references, rename, document "
        "symbols and formatting for .terrain and YAML rulesets. See "
        "docs/editors.md.",
    )
    p.add_argument(
        "--stdio",
        action="store_true",
        help="accepted for editors that pass it; stdio is the only transport",
    )


def run(args: argparse.Namespace) -> int:
    from rulesdsl.extras import require

    require("editor", "`rulesdsl lsp`")  # pygls and lsprotocol: one line, not a traceback
    from rulesdsl.editor.lsp import main

    main()
    return 0
