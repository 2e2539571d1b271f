"""`rulesdsl migrate FILE...`: move rulesets to the current edition of the language (issue 39),
listing each answer that changes (rulesdsl.versions.migration)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import EXIT_OK, EXIT_RULES, report, ruleset_path


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(
        verbs,
        "migrate",
        run,
        description="Set each ruleset's `edition` line to the current edition (adding it "
        "after `version` where the file has none: such a file is read as the first edition). "
        "Each file is compiled both ways and asked the same questions; every answer that "
        "changes is printed with its call and both values. A file that would not compile in "
        "the current edition is left as it is.",
        epilog="Exit status: 0; 1 when a file has errors (or, with --check, would change); "
        "2 bad usage.",
    )
    p.add_argument("paths", nargs="+", metavar="FILE", help="ruleset files (.terrain, .yaml)")
    p.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if a file would change"
    )


def run(args: argparse.Namespace) -> int:
    from rulesdsl import editions
    from rulesdsl.builder.build import atomic_write
    from rulesdsl.compiler import Compiler
    from rulesdsl.versions.migration import migrate

    compiler = Compiler()
    status = EXIT_OK
    for name in args.paths:
        path = ruleset_path(name)
        moved = migrate(path, compiler)
        if moved is None or moved.compiled.ruleset is None:
            report(
                moved.compiled.diagnostics if moved else compiler.compile_file(path).diagnostics,
                compiler,
                "text",
            )
            status = EXIT_RULES
            continue
        if moved.edition == editions.CURRENT:  # stated, or a house rule's base's
            print(f"{path}: already edition {editions.CURRENT}", file=sys.stderr)
            continue
        verb = "would move" if args.check else "moved"
        count = len(moved.changed)
        print(
            f"{path}: {verb} from edition {moved.edition} to {editions.CURRENT}; "
            f"{count} answer{'s' * (count != 1)} change{'s' * (count == 1)}"
        )
        for change in moved.changed:
            print(f"  {change.call}: {change.was} -> {change.now}")
        if args.check:
            status = EXIT_RULES
        else:
            atomic_write(Path(path), moved.text.encode("utf-8"))
    return status
