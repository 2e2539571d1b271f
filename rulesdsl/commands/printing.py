"""What `rulesdsl sheet` and `rulesdsl cards` share: the ruleset and language to print, and
the delivery of the document (its losses reported first, then written or refused)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulesdsl import ir


def printable(
    name: str, lang: str | None, folder: str | None = None
) -> tuple[ir.Ruleset, str, Path | None] | None:
    """The compiled ruleset ``name``, the language to print it in and the project's catalog
    folder (:func:`words_of`); None when the rules have errors (they are reported)."""
    from rulesdsl.commands.common import compile_one, ruleset_path, sheet_language
    from rulesdsl.compiler import Compiler

    path = ruleset_path(name, folder=folder)
    compiler = Compiler()
    compiler.sheet_words = words = words_of(path, folder)
    compiled = compile_one(str(path), compiler, "text", folder)
    if compiled.ruleset is None:
        return None
    return compiled.ruleset, sheet_language(lang, compiled.ruleset, words), words


def words_of(path: Path, folder: str | None) -> Path | None:
    """The project catalog folder of the ruleset file ``path``: ``i18n/`` beside the rulesets
    folder ``--dir`` names, else beside the rulesets/ folder of the project holding the file
    (None outside a project)."""
    from rulesdsl.sheet_languages import project_words, project_words_of

    return project_words(Path(folder)) if folder is not None else project_words_of(path)


def deliver(
    render: Callable[[], bytes], fmt: str, output: str | None, strict: bool, what: str
) -> int | None:
    """Render the document, report what it loses, then write it to ``output``; the exit code
    when it could not be made (a PDF without WeasyPrint) or written (``--strict`` and a loss,
    or a bad output), None when it was."""
    from rulesdsl.builder.losses import report_losses
    from rulesdsl.commands.common import EXIT_RULES, EXIT_USAGE, emit_document
    from rulesdsl.printed.pdf import PdfUnavailable

    try:
        content = render()
    except PdfUnavailable as exc:
        print(f"rulesdsl: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if not report_losses(output or "-", content, strict=strict):
        print(
            f"rulesdsl: error: the {what} loses text (--strict): nothing written", file=sys.stderr
        )
        return EXIT_RULES
    if not emit_document(content, fmt, output):
        return EXIT_USAGE
    return None
