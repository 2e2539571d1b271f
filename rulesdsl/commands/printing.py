"""What `rulesdsl sheet` and `rulesdsl cards` share: the ruleset and language to print, and
the delivery of the document (its losses reported first, then written or refused)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulesdsl import ir


def printable(
    name: str, lang: str | None, folder: str | None = None
) -> tuple[ir.Ruleset, str] | None:
    """The compiled ruleset ``name`` and the language to print it in; None when the rules
    have errors (they are reported)."""
    from rulesdsl.commands.common import compile_one, sheet_language
    from rulesdsl.compiler import Compiler

    compiled = compile_one(name, Compiler(), "text", folder)
    if compiled.ruleset is None:
        return None
    return compiled.ruleset, sheet_language(lang, compiled.ruleset)


def deliver(content: bytes, fmt: str, output: str | None, strict: bool, what: str) -> int | None:
    """Report what ``content`` loses, then write it to ``output``; the exit code when it
    could not be written (``--strict`` and a loss, or a bad output), None when it was."""
    from rulesdsl.builder.losses import report_losses
    from rulesdsl.commands.common import EXIT_RULES, EXIT_USAGE, emit_document

    if not report_losses(output or "-", content, strict=strict):
        print(
            f"rulesdsl: error: the {what} loses text (--strict): nothing written", file=sys.stderr
        )
        return EXIT_RULES
    if not emit_document(content, fmt, output):
        return EXIT_USAGE
    return None
