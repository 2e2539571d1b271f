"""What the verbs share: exit codes, usage errors, finding rulesets by id, printing diagnostics.

Every verb module imports from here, never from `rulesdsl.commands.cli` (which imports the verbs).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rulesdsl import ir
    from rulesdsl.compiler import Compiled, Compiler
    from rulesdsl.diagnostics import Diagnostic

EXIT_OK, EXIT_RULES, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130
"""Ctrl-C, as a shell reports a process ended by SIGINT (128 + 2)."""


class UsageError(Exception):
    """Bad command-line usage: reported in one line, exit status 2."""


def report(
    diags: Sequence[Diagnostic], compiler: Compiler, fmt: str, stream: TextIO | None = None
) -> None:
    from rulesdsl.diagnostics import render_text, to_json

    if fmt in ("github", "sarif"):  # for CI: annotations or a SARIF log, on stdout
        from rulesdsl.commands.ci_report import of_diagnostics, render

        render(of_diagnostics(diags), fmt)
        return
    out = stream or sys.stderr
    if fmt == "json":
        print(to_json(diags), file=out)
        return
    lines = compiler.source_lines()
    for diag in diags:
        print(render_text(diag, lines), file=out)
    errors = sum(d.is_error for d in diags)
    warnings = len(diags) - errors
    if diags:
        print(
            f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}",
            file=out,
        )


def find_project(start: Path | None = None) -> Path:
    """The nearest folder (this one or a parent) that has a rulesets/ folder."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "rulesets").is_dir():
            return folder
    raise UsageError(
        "no rulesets/ folder here or above; run from a rulesdsl project or pass "
        "--rulesets and --out"
    )


def rulesets_folder(folder: str | None = None) -> Path:
    """Where ruleset ids are looked up: ``--dir``, else the rulesets/ folder of the project
    (this folder or a parent), else this folder when it holds rulesets itself."""
    if folder is not None:
        path = Path(folder)
        if not path.is_dir():
            raise UsageError(f"no such folder: {folder}")
        return path
    try:
        return find_project() / "rulesets"
    except UsageError:
        from rulesdsl.frontends.registry import suffixes

        if any(p.suffix in suffixes() for p in Path.cwd().iterdir()):
            return Path.cwd()
        raise


def add_dir_option(parser: argparse.ArgumentParser) -> None:
    """``--dir DIR``: the rulesets folder ids are looked up in (every verb that takes ids)."""
    parser.add_argument(
        "--dir",
        metavar="DIR",
        default=None,
        help="the rulesets folder to find ruleset ids in (default: rulesets/ of this project)",
    )


def ruleset_path(name: str, project: Path | None = None, folder: str | None = None) -> Path:
    """A ruleset by path, or by id in the project's rulesets/ folder (or ``folder``)."""
    from rulesdsl.frontends.registry import suffixes

    path = Path(name)
    if path.suffix in suffixes() or path.exists():
        if not path.is_file():
            raise UsageError(f"no such file: {name}")
        return path
    folder_path = project / "rulesets" if project else rulesets_folder(folder)
    return _by_id(name, folder_path)


def _by_id(name: str, folder: Path) -> Path:
    from rulesdsl.compiler import ruleset_files
    from rulesdsl.frontends.registry import suffixes

    for suffix in suffixes():
        candidate = folder / f"{name}{suffix}"
        try:
            if candidate.is_file():
                return candidate
        except OSError as exc:  # a name too long for the file system
            raise UsageError(f"'{name[:64]}...' is not a ruleset id: {exc.strerror}") from exc
    known = ", ".join(p.stem for p in ruleset_files(folder))
    raise UsageError(f"no ruleset '{name}' in {folder} (there are: {known})")


def compile_one(name: str, compiler: Compiler, fmt: str, folder: str | None = None) -> Compiled:
    compiled = compiler.compile_file(ruleset_path(name, folder=folder))
    report(compiled.diagnostics, compiler, fmt)
    return compiled


def format_option(parser: argparse.ArgumentParser, ci: bool = False) -> None:
    """``--format text|json``: how to print diagnostics; with ``ci``, also ``github``
    (workflow annotations) and ``sarif`` (SARIF 2.1.0 for code scanning), on stdout."""
    parser.add_argument(
        "--format",
        choices=("text", "json", "github", "sarif") if ci else ("text", "json"),
        default="text",
        help="how to print diagnostics (default: text)"
        + ("; json, github (workflow annotations) and sarif print to stdout" if ci else ""),
    )


def output_option(parser: argparse.ArgumentParser) -> None:
    """``-o FILE``: where a document goes (by :func:`emit_document`)."""
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (default: standard output)"
    )


PRINT_LANGUAGE = (
    "language: one the ruleset has labels in, or has a catalog of sheet words "
    "(rulesdsl/i18n/LANG.po); default: the ruleset's first language"
)
"""The help of a printing verb's ``--lang``, after the word for what it prints."""


def language_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--lang LANG``: a language code (see :func:`language_code`), None when not given."""
    parser.add_argument("--lang", type=language_code, default=None, metavar="LANG", help=help)


def emit_document(content: bytes, fmt: str, output: str | None) -> bool:
    """Write a sheet or deck to ``output`` (atomically, replacing, never following, a
    symbolic link there), or to stdout for None or ``-``; False after printing why it could
    not (a PDF to a terminal, a file that cannot be written)."""
    if output in (None, "-"):
        if fmt in ("pdf", "xlsx") and sys.stdout.isatty():
            print(
                f"rulesdsl: error: not writing {fmt.upper()} to a terminal; use -o FILE",
                file=sys.stderr,
            )
            return False
        sys.stdout.buffer.write(content)
        sys.stdout.flush()
        return True
    from rulesdsl.outputs import atomic_write

    try:
        atomic_write(Path(output), content)
    except OSError as exc:
        print(f"rulesdsl: error: cannot write {output}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def language_code(text: str) -> str:
    """``--lang``'s type: a language code (two or three lower-case letters), or ``qps``."""
    import re

    from rulesdsl.ir.values import LANG

    if not re.fullmatch(LANG.regex, text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a language code such as en, de, fr")
    return text


def sheet_language(requested: str | None, ruleset: ir.Ruleset, words: Path | None = None) -> str:
    """The language a sheet or deck is made in: ``--lang``, else the ruleset's first.

    A language the ruleset has labels in is always possible (without a catalog of the sheet's
    words its headings are English, and the compile has said so: W610); one it has no labels
    in needs that catalog, and its labels are then the first language's (a note says so).
    A language with neither would give a sheet with no word in it: refused. ``words``: the
    project's catalog folder (its catalogs count)."""
    from rulesdsl.sheet_languages import PROJECT_FOLDER, catalog_languages

    lang = requested or ruleset.languages[0]
    if lang in ruleset.languages:
        return lang
    have = catalog_languages(words)
    if lang not in have:
        raise UsageError(
            f"{ruleset.id} has no '{lang}' labels and there is no catalog "
            f"{PROJECT_FOLDER}/{lang}.po of the sheets' words: nothing would be in '{lang}' "
            f"(labels: {', '.join(ruleset.languages)}; catalogs: {', '.join(have)}; to "
            "translate, see `rulesdsl i18n --help`)"
        )
    print(
        f"rulesdsl: note: {ruleset.id} has no '{lang}' labels (it has "
        f"{', '.join(ruleset.languages)}); using {ruleset.languages[0]} labels",
        file=sys.stderr,
    )
    return lang
