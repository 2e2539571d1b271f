"""`rulesdsl diff OLD NEW`: what changed between two rulesets, classified (rulesdsl.versions.diff).

OLD and NEW are each a path, a ruleset id (looked up in ``--dir`` or the project's rulesets/),
or ``REV:path`` (the file at a git revision, path relative to the current folder).
``rulesdsl diff PATH --rev REV`` compares a file with itself at REV. ``rulesdsl diff HOUSE
--rebase NEWBASE`` is the rebase check: which of the house rule's overrides sit on cells the
new version of its base changed, and which base changes it inherits. With ``--fail-on LEVEL``
the exit status is 1 when any change is at LEVEL or above.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import (
    EXIT_OK,
    EXIT_RULES,
    UsageError,
    add_dir_option,
    report,
    ruleset_path,
    rulesets_folder,
)
from rulesdsl.compiler import Compiled, Compiler
from rulesdsl.diagnostics import Diagnostic
from rulesdsl.frontends import registry
from rulesdsl.sources import read_ruleset
from rulesdsl.versions import diff as semantic
from rulesdsl.versions import rebase, versioning

DSL_SUFFIX = registry.DSL.suffixes[0]
"""The suffix --rebase and ``REV:ruleset_id`` look a base up by."""


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(
        verbs,
        "diff",
        run,
        description="Compare two rulesets cell by cell (not line by line) and list each "
        "change in words, classified breaking, rules, additive or wording. "
        "OLD and NEW are paths, ruleset ids, or REV:path for a file at a git "
        "revision.",
        epilog="Exit status: 0, or 1 with --fail-on when a change at that level or above "
        "exists (or a ruleset has errors); 2 bad usage.",
    )
    p.add_argument("old", metavar="OLD", help="the old ruleset (or, with --rev, the file)")
    p.add_argument("new", metavar="NEW", nargs="?", help="the new ruleset")
    p.add_argument(
        "--rev",
        metavar="REV",
        help="compare the file with itself at this git revision (e.g. HEAD~1)",
    )
    p.add_argument(
        "--rebase",
        metavar="NEWBASE",
        help="rebase check: OLD is a house rule, NEWBASE a new version of its base "
        "(a path, an id or REV:path); list the house rule's overrides the base "
        "changed and the base changes it inherits",
    )
    add_dir_option(p)
    p.add_argument(
        "--format",
        choices=("text", "json", "github", "sarif"),
        default="text",
        help="text, json, or for CI github (workflow annotations) or sarif (code scanning): "
        "one finding per change, an error at the --fail-on level or above, else a note",
    )
    p.add_argument(
        "--fail-on",
        choices=semantic.LEVELS,
        metavar="LEVEL",
        help="exit 1 when a change at LEVEL or above exists: " + ", ".join(semantic.LEVELS),
    )


def run(args: argparse.Namespace) -> int:
    compiler = Compiler()
    if args.rebase is not None:
        if args.format in ("github", "sarif"):
            raise UsageError(f"--rebase prints text or json, not {args.format}")
        if args.new is not None or args.rev is not None:
            raise UsageError("--rebase takes one house rule: `diff HOUSE --rebase NEWBASE`")
        return _rebase(args, compiler)
    if args.rev is not None:
        if args.new is not None:
            raise UsageError("--rev compares one file with itself: give one ruleset")
        path = ruleset_path(args.old, folder=args.dir)
        old = _at_revision(path, args.rev, compiler)
        new = compiler.compile_file(path)
    elif args.new is None:
        raise UsageError("give OLD and NEW, or one ruleset and --rev REV")
    else:
        old, new = _load(args.old, compiler, args.dir), _load(args.new, compiler, args.dir)
    found = [*old.diagnostics, *new.diagnostics]
    if old.ruleset is None or new.ruleset is None:
        report(found, compiler, args.format if args.format in ("github", "sarif") else "text")
        return EXIT_RULES
    result = semantic.diff(old.ruleset, new.ruleset)
    advice = versioning.advice(result)
    if args.format in ("github", "sarif"):
        _annotate(found, result, new.path, args.fail_on, args.format)
    else:
        report(found, compiler, "text")
        shown = semantic.to_json if args.format == "json" else semantic.render_text
        sys.stdout.write(shown(result, advice))
    # W601: the version does not obey the diff (issue 39), at the new side's version line
    held = versioning.bump_warning(result, f"since {old.path}", Path(new.path), compiler, "")
    report(held, compiler, "text")
    if args.fail_on and result.at_least(args.fail_on):
        return EXIT_RULES
    return EXIT_OK


def _annotate(
    found: list[Diagnostic],
    result: semantic.Diff,
    file: str,
    fail_on: semantic.Level | None,
    fmt: str,
) -> None:
    """Each change as a finding on the new ruleset's file: an error at the --fail-on level or
    above, else a note; the rulesets' own diagnostics first."""
    from rulesdsl.commands.ci_report import Finding, of_diagnostics, render

    failing = {id(c) for c in result.at_least(fail_on)} if fail_on else set()
    changes = [
        Finding(
            c.level,
            "error" if id(c) in failing else "note",
            f"{c.level}: {c.message} ({c.path})",
            file,
            summary=f"a change graded {c.level} by `rulesdsl diff`",
        )
        for c in result.changes
    ]
    render([*of_diagnostics(found), *changes], fmt)


def _rebase(args: argparse.Namespace, compiler: Compiler) -> int:
    house_path = ruleset_path(args.old, folder=args.dir)
    house = compiler.compile_file(house_path)
    new_base = _load(args.rebase, compiler, args.dir)
    report([*house.diagnostics, *new_base.diagnostics], compiler, "text")
    if house.ruleset is None or new_base.ruleset is None:
        return EXIT_RULES
    if not house.ruleset.extends:
        raise UsageError(f"{house_path} extends nothing: --rebase checks a house rule")
    base_id = house.ruleset.extends[0].id
    old_base = compiler.compile_file(house_path.parent / f"{base_id}{DSL_SUFFIX}")
    if old_base.ruleset is None:  # pragma: no cover - the house rule compiled against it
        return EXIT_RULES
    moved = _against(house_path, base_id, compiler.sources.get(new_base.path), compiler)
    report(moved, compiler, "text")
    result = rebase.rebase(old_base.ruleset, new_base.ruleset, house.ruleset)
    if args.format == "json":
        sys.stdout.write(rebase.rebase_to_json(result))
    else:
        sys.stdout.write(rebase.render_rebase(result))
    if any(d.is_error for d in moved):
        return EXIT_RULES
    if args.fail_on and result.base.at_least(args.fail_on):
        return EXIT_RULES
    return EXIT_OK


def _against(
    house: Path, base_id: str, base_text: str | None, compiler: Compiler
) -> list[Diagnostic]:
    """What compiling the house rule on the new base says (its errors, if it no longer fits).
    The other files of its folder are read as the compiler reads them: links, FIFOs, devices
    and files over the size limit are left out (a base among them was refused already)."""
    house_text, _ = compiler.read(house)
    if base_text is None or house_text is None:
        return []
    with tempfile.TemporaryDirectory(prefix="rulesdsl-rebase-") as tmp:
        for other in sorted(house.parent.glob(f"*{DSL_SUFFIX}")):
            if other.name not in (house.name, f"{base_id}{DSL_SUFFIX}"):
                text = read_ruleset(other, compiler.limits).text
                if text is not None:
                    (Path(tmp) / other.name).write_text(text, "utf-8")
        (Path(tmp) / f"{base_id}{DSL_SUFFIX}").write_text(base_text, "utf-8")
        moved = Compiler(compiler.limits).compile_text(house_text, str(house), Path(tmp))
    return [d for d in moved.diagnostics if d.is_error]


def _load(name: str, compiler: Compiler, folder: str | None = None) -> Compiled:
    path = Path(name)
    if ":" in name and not path.exists() and not _is_id(name, folder):
        rev, _, rel = name.partition(":")
        if not rev or not rel:
            raise UsageError(f"'{name}': write REV:path, e.g. HEAD~1:rulesets/heavy_gear.terrain")
        file = Path(rel)
        if file.suffix not in registry.suffixes():  # REV:ruleset_id
            file = rulesets_folder(folder) / f"{rel}{DSL_SUFFIX}"
        return _at_revision(file, rev, compiler)
    return compiler.compile_file(ruleset_path(name, folder=folder))


def _is_id(name: str, folder: str | None = None) -> bool:
    try:
        ruleset_path(name, folder=folder)
    except UsageError:
        return False
    return True


def _at_revision(path: Path, rev: str, compiler: Compiler) -> Compiled:
    try:
        return versioning.compile_at(path, rev, compiler)
    except versioning.RevisionError as exc:
        raise UsageError(f"{rev}:{path}: {exc}") from exc
