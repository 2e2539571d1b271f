"""The `rulesdsl` command: a thin layer over the library.

Exit status: 0 success, 1 the rules have errors (or `build --check` found stale files),
2 bad usage. Diagnostics go to stderr; nothing here ever shows a Python traceback for bad input.

Every verb lives in `rulesdsl.commands` and imports what it needs when it runs (the compiler,
the backends, YAML, the JSON Schema), so a command's start-up pays only for its own work: only
the verb that runs has its module imported.
"""

from __future__ import annotations

import argparse
import gc
import io
import sys
from collections.abc import Sequence
from typing import Any

from rulesdsl.commands import VERBS, registrar
from rulesdsl.commands.common import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError
from rulesdsl.extras import ExtraMissing


class _Version(argparse.Action):
    """``--version``: print ``rulesdsl X.Y.Z`` and exit 0 (the version is looked up only
    when asked for)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        kwargs.update(nargs=0, default=argparse.SUPPRESS)
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from rulesdsl import version

        print(f"rulesdsl {version()}")
        parser.exit()


def make_parser(verb: str | None = None, listed: bool = True) -> argparse.ArgumentParser:
    """The command-line parser. Of the verbs in `rulesdsl.commands`, only ``verb`` (or every
    one, when ``verb`` is None) is registered in full, importing its module; the others get a
    sub-parser with their help line, enough for `rulesdsl --help` and argparse's choices.
    ``listed`` False: not even that when ``verb`` is one of them, for a command line on which
    nothing can show the list of verbs (:func:`lists_verbs`): the fifteen sub-parsers were
    three quarters of the parser's making, which every command pays."""
    parser = argparse.ArgumentParser(
        prog="rulesdsl",
        description="Compile tabletop terrain and movement rules into Python modules and "
        "quick-reference sheets.",
        epilog="Exit status: 0 ok, 1 rule errors or stale output, 2 bad usage.",
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB")
    for name, help_line in VERBS.items():
        if verb is None or verb == name:
            registrar(name)(verbs)
        elif listed or verb not in VERBS:
            verbs.add_parser(name, help=help_line, add_help=False)
    return parser


def chosen_verb(argv: Sequence[str]) -> str:
    """The verb on the command line: its first word that is not an option ('' when none)."""
    return next((arg for arg in argv if not arg.startswith("-")), "")


def lists_verbs(argv: Sequence[str]) -> bool:
    """Whether parsing ``argv`` may show the list of verbs: with no verb, another word than
    a verb, or an option before the verb (``-h``, ``--he``, ...: `rulesdsl`'s own help)."""
    verb = chosen_verb(argv)
    return verb not in VERBS or any(arg.startswith("-") for arg in argv[: list(argv).index(verb)])


def utf8_streams() -> None:
    """stdout and stderr write UTF-8 whatever the locale (under LC_ALL=POSIX without Python's
    UTF-8 mode they are ASCII, and a French label made `export` crash); a character they
    cannot hold (half a surrogate pair from a file name) is written as an escape."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.encoding.lower() not in (
            "utf-8",
            "utf8",
        ):
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    own_process = argv is None  # the program's command line, not a caller's list
    argv = list(sys.argv[1:] if argv is None else argv)
    utf8_streams()
    parser = make_parser(chosen_verb(argv), lists_verbs(argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed the usage error
        return EXIT_USAGE if exc.code not in (0, None) else EXIT_OK
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        code: int = args.run(args)
    except UsageError as exc:
        print(f"rulesdsl: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ExtraMissing as exc:  # a feature of an extra that is not installed (a PDF, `lsp`)
        print(f"rulesdsl: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # pragma: no cover - e.g. `rulesdsl schema | head`
        return EXIT_OK
    except KeyboardInterrupt:  # Ctrl-C: a build's transaction leaves all old or all new
        print("rulesdsl: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    if own_process:  # the process ends next, and what it holds goes with it: no collection
        gc.freeze()  # of every object as it shuts down (~13 % of a `check`, issue 44)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
