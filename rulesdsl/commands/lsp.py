"""`rulesdsl lsp`: run the language server on stdin/stdout (see rulesdsl.editor.lsp)."""

from __future__ import annotations

import argparse


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verbs.add_parser(
        "lsp",
        help="run the language server over stdio (for editors)",
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
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rulesdsl.extras import require

    require("editor", "`rulesdsl lsp`")  # pygls and lsprotocol: one line, not a traceback
    from rulesdsl.editor.lsp import main

    main()
    return 0
