"""`rulesdsl sheet RULESET`: print one quick-reference sheet as HTML, PDF or Markdown."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import cast

from rulesdsl.commands.common import language_code
from rulesdsl.printed.pdf import PdfUnavailable
from rulesdsl.printed.sheets import DEFAULT_PAPER, FORMATS, PAPERS, Format, render_sheet


def cmd_sheet(args: argparse.Namespace) -> int:
    from rulesdsl.commands.common import (
        EXIT_OK,
        EXIT_RULES,
        EXIT_USAGE,
        compile_one,
        emit_document,
        sheet_language,
    )
    from rulesdsl.compiler import Compiler

    compiler = Compiler()
    compiled = compile_one(args.ruleset, compiler, "text", args.dir)
    if compiled.ruleset is None:
        return EXIT_RULES
    ruleset = compiled.ruleset
    lang = sheet_language(args.lang, ruleset)
    fmt = cast(Format, args.format or _format_from_name(args.output) or "html")
    try:
        content = render_sheet(ruleset, fmt, lang, args.paper)
    except PdfUnavailable as exc:
        print(f"rulesdsl: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    from rulesdsl.builder.losses import report_losses

    if not report_losses(args.output or "-", content, strict=args.strict):
        print("rulesdsl: error: the sheet loses text (--strict): nothing written", file=sys.stderr)
        return EXIT_RULES
    if not emit_document(content, fmt, args.output):
        return EXIT_USAGE
    if args.output not in (None, "-"):
        print(f"wrote {args.output} ({fmt}, {lang}, {args.paper})", file=sys.stderr)
    return EXIT_OK


def _format_from_name(name: str | None) -> str | None:
    if not name or name == "-":
        return None
    suffix = Path(name).suffix.lower().lstrip(".")
    return (
        {"htm": "html", "markdown": "md"}.get(suffix, suffix)
        if suffix in (*FORMATS, "htm", "markdown")
        else None
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "sheet",
        help="print a quick-reference sheet (HTML, PDF or Markdown)",
        description="Render a ruleset's quick-reference sheet. Labels are in the chosen "
        "language where the ruleset has them, else in its first language.",
    )
    p.add_argument("ruleset", metavar="RULESET", help="a ruleset id or path")
    p.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="output format (default: from -o's extension, else html); pdf needs "
        "WeasyPrint: pip install 'rulesdsl[pdf]'",
    )
    p.add_argument(
        "--lang",
        type=language_code,
        default=None,
        metavar="LANG",
        help="sheet language: one the ruleset has labels in, or has a catalog of sheet words "
        "(rulesdsl/i18n/LANG.po); default: the ruleset's first language",
    )
    p.add_argument(
        "--paper",
        choices=tuple(PAPERS),
        default=DEFAULT_PAPER,
        help=f"paper size (default: {DEFAULT_PAPER}); for cards use `rulesdsl cards`",
    )
    p.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (default: standard output)"
    )
    p.add_argument(
        "--dir",
        metavar="DIR",
        default=None,
        help="the rulesets folder to find ruleset ids in (default: rulesets/ of this project)",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="text past the printable area is an error: exit 1, write nothing",
    )
    p.set_defaults(run=cmd_sheet)
