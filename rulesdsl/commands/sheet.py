"""`rulesdsl sheet RULESET`: print one quick-reference sheet as HTML, PDF or Markdown."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import cast

from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import PRINT_LANGUAGE, add_dir_option, language_option, output_option
from rulesdsl.printed.sheets import DEFAULT_PAPER, FORMATS, PAPERS, Format, render_sheet


def cmd_sheet(args: argparse.Namespace) -> int:
    from rulesdsl.commands.common import EXIT_OK, EXIT_RULES
    from rulesdsl.commands.printing import deliver, printable

    found = printable(args.ruleset, args.lang, args.dir)
    if found is None:
        return EXIT_RULES
    ruleset, lang, words = found
    fmt = cast(Format, args.format or _format_from_name(args.output) or "html")

    def render() -> bytes:
        return render_sheet(ruleset, fmt, lang, args.paper, words)

    failed = deliver(render, fmt, args.output, args.strict, "sheet")
    if failed is not None:
        return failed
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
    p = verb_parser(
        subparsers,
        "sheet",
        cmd_sheet,
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
    language_option(p, "sheet " + PRINT_LANGUAGE)
    p.add_argument(
        "--paper",
        choices=tuple(PAPERS),
        default=DEFAULT_PAPER,
        help=f"paper size (default: {DEFAULT_PAPER}); for cards use `rulesdsl cards`",
    )
    output_option(p)
    add_dir_option(p)
    p.add_argument(
        "--strict",
        action="store_true",
        help="text past the printable area is an error: exit 1, write nothing",
    )
