"""`rulesdsl diff OLD NEW`: what changed between two rulesets, classified (see rulesdsl.diff).

OLD and NEW are each a path, a ruleset id, or ``REV:path`` (the file at a git revision, path
relative to the current folder). ``rulesdsl diff PATH --rev REV`` compares a file with itself
at REV. With ``--fail-on LEVEL`` the exit status is 1 when any change is at LEVEL or above.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulesdsl import diff as semantic
from rulesdsl import versioning
from rulesdsl.cli import EXIT_OK, EXIT_RULES, UsageError, find_project, report, ruleset_path
from rulesdsl.compiler import SUFFIXES, Compiled, Compiler


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verbs.add_parser(
        "diff", help="list the changes between two rulesets, classified",
        description="Compare two rulesets cell by cell (not line by line) and list each "
                    "change in words, classified breaking, rules, additive or wording. "
                    "OLD and NEW are paths, ruleset ids, or REV:path for a file at a git "
                    "revision.",
        epilog="Exit status: 0, or 1 with --fail-on when a change at that level or above "
               "exists (or a ruleset has errors); 2 bad usage.")
    p.add_argument("old", metavar="OLD", help="the old ruleset (or, with --rev, the file)")
    p.add_argument("new", metavar="NEW", nargs="?", help="the new ruleset")
    p.add_argument("--rev", metavar="REV",
                   help="compare the file with itself at this git revision (e.g. HEAD~1)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--fail-on", choices=semantic.LEVELS, metavar="LEVEL",
                   help="exit 1 when a change at LEVEL or above exists: "
                        + ", ".join(semantic.LEVELS))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    compiler = Compiler()
    if args.rev is not None:
        if args.new is not None:
            raise UsageError("--rev compares one file with itself: give one ruleset")
        path = ruleset_path(args.old)
        old = _at_revision(path, args.rev, compiler)
        new = compiler.compile_file(path)
    elif args.new is None:
        raise UsageError("give OLD and NEW, or one ruleset and --rev REV")
    else:
        old, new = _load(args.old, compiler), _load(args.new, compiler)
    report([*old.diagnostics, *new.diagnostics], compiler, "text")
    if old.ruleset is None or new.ruleset is None:
        return EXIT_RULES
    result = semantic.diff(old.ruleset, new.ruleset)
    advice = versioning.advice(result)
    if args.format == "json":
        sys.stdout.write(semantic.to_json(result, advice))
    else:
        sys.stdout.write(semantic.render_text(result, advice))
    if args.fail_on and result.at_least(args.fail_on):
        return EXIT_RULES
    return EXIT_OK


def _load(name: str, compiler: Compiler) -> Compiled:
    path = Path(name)
    if ":" in name and not path.exists() and not _is_id(name):
        rev, _, rel = name.partition(":")
        if not rev or not rel:
            raise UsageError(f"'{name}': write REV:path, e.g. HEAD~1:rulesets/heavy_gear.terrain")
        file = Path(rel)
        if file.suffix not in SUFFIXES:  # REV:ruleset_id
            file = find_project() / "rulesets" / f"{rel}.terrain"
        return _at_revision(file, rev, compiler)
    return compiler.compile_file(ruleset_path(name))


def _is_id(name: str) -> bool:
    try:
        ruleset_path(name)
    except UsageError:
        return False
    return True


def _at_revision(path: Path, rev: str, compiler: Compiler) -> Compiled:
    try:
        return versioning.compile_at(path, rev, compiler)
    except versioning.RevisionError as exc:
        raise UsageError(f"{rev}:{path}: {exc}") from exc
