"""`rulesdsl check [PATH...]`: report every problem of the rulesets, as text or JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import (
    EXIT_OK,
    EXIT_RULES,
    UsageError,
    add_dir_option,
    format_option,
    report,
    ruleset_path,
    rulesets_folder,
)

if TYPE_CHECKING:
    from rulesdsl import ir
    from rulesdsl.diagnostics import Diagnostic


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(
        verbs,
        "check",
        run,
        description="Parse and check rulesets; print all diagnostics.",
    )
    p.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="ruleset files, ids or folders (default: rulesets/)",
    )
    p.add_argument(
        "--against",
        metavar="REV",
        help="warn (W601) when a ruleset changed since this git revision without "
        "the version bump the change needs",
    )
    add_dir_option(p)
    format_option(p, ci=True)


def run(args: argparse.Namespace) -> int:
    from rulesdsl.gc_pause import gc_paused

    with gc_paused():  # each compile holds the collector off; its passes over the modules
        return _run(args)  # as they load were ~9 % of their import (issue 44)


def _run(args: argparse.Namespace) -> int:
    from rulesdsl.builder.ids import check_ids
    from rulesdsl.compiler import Compiler, ruleset_files
    from rulesdsl.editions import newer

    if args.against is not None and args.against.startswith("-"):
        raise UsageError(f"--against: '{args.against}' is not a git revision (it starts with '-')")
    compiler = Compiler()
    paths: list[Path] = []
    names = args.paths or [str(rulesets_folder(args.dir))]
    for name in names:
        path = Path(name)
        paths += ruleset_files(path) if path.is_dir() else [ruleset_path(name, folder=args.dir)]
    if not paths:  # a CI job pointed at the wrong folder must not pass
        raise UsageError(
            f"no rulesets (.terrain, .yaml files) in {', '.join(names)}: nothing to check "
            "(at a project's root they are in rulesets/: run `rulesdsl check` there)"
        )
    files = {p.stem: p for p in paths}
    diags: list[Diagnostic] = []
    ok = True
    held: list[str] = []
    for path in paths:
        compiled = compiler.compile_file(path)
        # E102 as `build` says it: an id that is not its file's name
        ids = check_ids([compiled], files, compiler.sources) if compiled.ok else []
        diags += [*compiled.diagnostics, *ids]
        ok = ok and compiled.ok and not ids
        if compiled.ruleset is not None and compiled.ruleset.examples:
            held += _examples_held(compiled.ruleset)
        if compiled.ok and compiled.ruleset is not None and newer(compiled.ruleset.edition):
            # W112, once per file of an older edition (a current one imports none of it)
            from rulesdsl.versions.migration import edition_note

            diags += edition_note(path, compiled.ruleset, compiler)
        if args.against and compiled.ok and compiled.ruleset is not None:
            from rulesdsl.versions.versioning import check_against  # W601: version bump check

            diags += check_against(path, compiled.ruleset, args.against, compiler)
    report(diags, compiler, args.format, sys.stdout if args.format == "json" else None)
    if ok and args.format == "text":
        for line in held:
            print(line, file=sys.stderr)
        print(f"{len(paths)} ruleset{'s' * (len(paths) != 1)} checked: no errors", file=sys.stderr)
    return EXIT_OK if ok else EXIT_RULES


def _examples_held(rs: ir.Ruleset) -> list[str]:
    """The worked examples checked (issue 27): one line per ruleset, one per example."""
    count = sum(len(e.questions) for e in rs.examples)
    lines = [
        f"{rs.id}: {len(rs.examples)} worked example{'s' * (len(rs.examples) != 1)} checked, "
        f"{count} answer{'s' * (count != 1)} as stated"
    ]
    for e in rs.examples:
        title = next(iter(e.info.labels.values()), "")
        origin = f" (from {e.inherited})" if e.inherited else ""
        lines.append(f"  ok {e.id}{origin}: {title}")
    return lines
