"""`rulesdsl schema [ir|authoring]`: print a JSON Schema: the IR's (what `export` prints) or
the authoring format's (what a YAML ruleset follows)."""

from __future__ import annotations

import argparse
import sys

from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import EXIT_OK


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(
        verbs,
        "schema",
        run,
        description="Print the JSON Schema that exported IR follows (`ir`, the default) or the "
        "one YAML rulesets follow (`authoring`: save it and point your editor's YAML "
        "support at it, e.g. a `# yaml-language-server: $schema=authoring.schema.json` line).",
    )
    p.add_argument(
        "which",
        nargs="?",
        choices=("ir", "authoring"),
        default="ir",
        help="ir: exported IR (default); authoring: YAML rulesets",
    )


def run(args: argparse.Namespace) -> int:
    from rulesdsl.ir import schema

    if args.which == "authoring":
        from rulesdsl.frontends.yaml_authoring import authoring_schema

        sys.stdout.write(schema.dumps(authoring_schema()))
    else:
        sys.stdout.write(schema.dumps(schema.shipped()))
    return EXIT_OK
