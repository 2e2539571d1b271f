"""`rulesdsl export RULESET`: print a ruleset's IR as YAML or JSON, one table as CSV, or its
worked examples as JSON test vectors (``--examples``)."""

from __future__ import annotations

import argparse
import sys

from rulesdsl.commands.common import EXIT_OK, EXIT_RULES, UsageError, add_dir_option, compile_one


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verbs.add_parser(
        "export",
        help="print a ruleset's IR as YAML or JSON",
        description="Compile a ruleset and print its IR.",
    )
    p.add_argument("ruleset", metavar="RULESET", help="a ruleset id or path")
    p.add_argument("--format", choices=("yaml", "json", "csv"), default="yaml")
    p.add_argument(
        "--examples",
        action="store_true",
        help="print the worked examples as language-neutral JSON test vectors "
        "(question, arguments, expected answer)",
    )
    p.add_argument(
        "--table",
        metavar="NAME",
        help="with --format csv: the layer, table, modifier or dice table to export",
    )
    add_dir_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rulesdsl.compiler import Compiler
    from rulesdsl.serial import to_data

    compiler = Compiler()
    compiled = compile_one(args.ruleset, compiler, "text", args.dir)
    if compiled.ruleset is None:
        return EXIT_RULES
    if args.examples:  # the worked examples as test vectors (issue 27)
        from rulesdsl.target.python_examples import vectors_json

        sys.stdout.write(vectors_json(compiled.ruleset))
        return EXIT_OK
    if args.format == "csv":  # one table of the ruleset, for a spreadsheet
        from rulesdsl.interchange.csv_chart import export_csv, table_names

        text = export_csv(compiled.ruleset, args.table or "")
        if text is None:
            raise UsageError(f"--table: expected one of {', '.join(table_names(compiled.ruleset))}")
        sys.stdout.write(text)
        return EXIT_OK
    data = to_data(compiled.ruleset)
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    else:
        import yaml

        sys.stdout.write(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    return EXIT_OK
