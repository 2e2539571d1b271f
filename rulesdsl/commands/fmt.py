"""`rulesdsl fmt`: rewrite rulesets in the canonical layout (see rulesdsl.interchange.fmt)."""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from rulesdsl.builder.build import atomic_write
from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import (
    EXIT_OK,
    EXIT_RULES,
    EXIT_USAGE,
    UsageError,
    find_project,
    report,
)
from rulesdsl.compiler import Compiler, ruleset_files
from rulesdsl.frontends import registry
from rulesdsl.interchange.fmt import format_text


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(
        verbs,
        "fmt",
        run,
        description="Re-indent blocks, align the `|` of table rows and the `->` of decision "
        "rows, and tidy blank lines. Only whitespace changes (--fix also adds the lines "
        "its fixes print); files with syntax "
        "errors are left alone. Only .terrain files are laid out: a YAML ruleset (its "
        "comments would be lost; `rulesdsl convert` turns one into .terrain) or any other "
        "file named here is refused with exit status 2, and a folder's are skipped.",
    )
    p.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help=".terrain files or folders (default: rulesets/, its .terrain files); - reads stdin",
    )
    p.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if any file is not formatted"
    )
    p.add_argument(
        "--diff",
        action="store_true",
        help="print what would change and write nothing (as --check: exit 1 if any file "
        "would change)",
    )
    p.add_argument(
        "--fix",
        action="store_true",
        help="also apply the mechanical fixes a diagnostic's hint gives exactly (E232: add the "
        "`precedence` line that keeps the answer earlier releases gave), printing each; with "
        "--check, only say what it would fix",
    )


def run(args: argparse.Namespace) -> int:
    if args.paths == ["-"]:
        if args.fix:
            raise UsageError("--fix changes files: name them (it compiles each with its bases)")
        sys.stdout.write(format_text(sys.stdin.read()))
        return EXIT_OK
    files: list[Path] = []
    refused: list[Path] = []
    for name in args.paths or [str(find_project() / "rulesets")]:
        path = Path(name)
        if path.is_dir():
            files += [p for p in ruleset_files(path) if _laid_out(p)]
        elif path.is_file() and not _laid_out(path):
            refused.append(path)
        elif path.is_file():
            files.append(path)
        else:
            raise UsageError(f"no such file or folder: {name}")
    for path in refused:
        print(refusal(path), file=sys.stderr)
    dry = args.check or args.diff  # --diff never writes (black, ruff and buf do the same)
    compiler = Compiler()
    unformatted = []
    failed = False
    for path in files:
        read, errors = compiler.read(path)  # not UTF-8, a link: E003, like every verb
        if read is None:
            report(errors, compiler, "text")
            failed = True
            continue
        text = read
        source, errors = compiler.parser.parse(text, str(path))
        if errors or source is None:
            compiler.sources[str(path)] = text
            report(errors, compiler, "text")
            failed = True
            continue
        fixed = _fixed(compiler, path, text, dry) if args.fix else text
        if fixed is None:
            failed = True
            continue
        formatted = format_text(fixed)
        if formatted == text:
            continue
        unformatted.append(path)
        if args.diff:
            sys.stdout.writelines(
                difflib.unified_diff(
                    text.splitlines(keepends=True),
                    formatted.splitlines(keepends=True),
                    str(path),
                    f"{path} (formatted)",
                )
            )
        if not dry:
            atomic_write(path, formatted.encode("utf-8"))
    verb = "would reformat" if dry else "reformatted"
    for path in unformatted:
        print(f"{verb} {path}", file=sys.stderr)
    if refused:
        return EXIT_USAGE
    if failed or (dry and unformatted):
        return EXIT_RULES
    return EXIT_OK


def _fixed(compiler: Compiler, path: Path, text: str, check: bool) -> str | None:
    """``text`` with the mechanical fixes of its diagnostics applied (each printed), or None
    when the fixed text would not compile (its new errors reported; nothing is written)."""
    from rulesdsl.interchange.fixes import fix_text

    before = compiler.compile_file(path).diagnostics
    fixed, added = fix_text(text, [d for d in before if d.pos and d.pos.file == str(path)])
    if not added:
        return text
    after = compiler.compile_text(fixed, str(path), path.parent).diagnostics
    known = {(d.code, d.message) for d in before}
    new = [d for d in after if d.is_error and (d.code, d.message) not in known]
    if new:
        report(new, compiler, "text")
        print(f"rulesdsl: error: {path}: the fixes would not compile: not written", file=sys.stderr)
        return None
    verb = "would add" if check else "added"
    laid_out = format_text(fixed).splitlines()  # the line numbers of the file as written
    for one in added:
        line = laid_out.index(one.text) + 1 if one.text in laid_out else one.line
        codes = ", ".join(
            f"{d.code} at {d.pos.line}:{d.pos.column}" for d in one.fixes if d.pos is not None
        )
        print(f"{path}:{line}: {verb} `{one.text}` (fixes {codes})", file=sys.stderr)
    return fixed


def _laid_out(path: Path) -> bool:
    """Whether fmt lays the file out: its front end's text is the DSL's."""
    front = registry.named(path.name)
    return front is not None and front.dsl_text


def refusal(path: Path) -> str:
    """Why fmt leaves a file that is not .terrain alone, and, for a YAML ruleset, what lays it
    out instead (one line)."""
    if path.suffix.lower() not in registry.YAML.suffixes:
        return (
            f"rulesdsl: error: {path}: not a .terrain file; fmt lays out rulesets written in "
            "the terrain DSL and leaves other files alone"
        )
    return (
        f"rulesdsl: error: {path}: fmt lays out .terrain files, not YAML (a YAML ruleset is "
        f"left as written: re-laying it would lose its comments); to lay it out as DSL: "
        f"rulesdsl convert {path} -o {path.with_suffix(registry.DSL.suffixes[0])}"
    )
