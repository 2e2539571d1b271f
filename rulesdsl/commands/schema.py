"""`rulesdsl schema`: print the JSON Schema of the IR that `export` prints."""

from __future__ import annotations

import argparse
import sys

from rulesdsl.commands.common import EXIT_OK


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verbs.add_parser(
        "schema",
        help="print the IR's JSON Schema (of `export` output)",
        description="Print the JSON Schema that exported IR follows. YAML "
        "rulesets have their own authoring schema: "
        "rulesdsl/schema/authoring.schema.json.",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rulesdsl import schema

    sys.stdout.write(schema.dumps(schema.shipped()))
    return EXIT_OK
