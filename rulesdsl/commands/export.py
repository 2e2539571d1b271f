"""`rulesdsl export RULESET`: print a ruleset's IR as YAML or JSON, one table as CSV, or its
worked examples as JSON test vectors (``--examples``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import (
    EXIT_OK,
    EXIT_RULES,
    EXIT_USAGE,
    UsageError,
    add_dir_option,
    compile_one,
    emit_document,
)

if TYPE_CHECKING:
    from rulesdsl.ir import Ruleset


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(
        verbs,
        "export",
        run,
        description="Compile a ruleset and print its IR.",
    )
    p.add_argument("ruleset", metavar="RULESET", help="a ruleset id or path")
    p.add_argument("--format", choices=("yaml", "json", "csv", "xlsx"), default="yaml")
    p.add_argument(
        "--examples",
        action="store_true",
        help="print the worked examples as language-neutral JSON test vectors "
        "(question, arguments, expected answer)",
    )
    p.add_argument(
        "--table",
        metavar="NAME",
        help="with --format csv: the layer, table, modifier or dice table to export; with "
        "--format xlsx: only that one (by default every layer and table, a sheet each)",
    )
    p.add_argument(
        "--locale",
        metavar="LANG",
        help="with --format csv: numbers and delimiter as a spreadsheet in this locale "
        "reads them (fr: `;` and 1,5, after a UTF-8 byte-order mark)",
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write to FILE (atomically) instead of standard output (`-`); needed for xlsx",
    )
    add_dir_option(p)


def run(args: argparse.Namespace) -> int:
    from rulesdsl.compiler import Compiler
    from rulesdsl.ir.serial import to_data

    compiler = Compiler()
    compiled = compile_one(args.ruleset, compiler, "text", args.dir)
    if compiled.ruleset is None:
        return EXIT_RULES
    if args.examples:  # the worked examples as test vectors (issue 27)
        from rulesdsl.codegen.plan.examples import build
        from rulesdsl.codegen.python.examples import vectors_json

        return _emit(vectors_json(build(compiled.ruleset)).encode("utf-8"), "json", args.output)
    if args.format in ("csv", "xlsx"):  # for a spreadsheet
        return _chart(args, compiled.ruleset)
    data = to_data(compiled.ruleset)
    if args.format == "json":
        import json

        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    else:
        import yaml

        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    return _emit(text.encode("utf-8"), args.format, args.output)


def _chart(args: argparse.Namespace, ruleset: Ruleset) -> int:
    from rulesdsl.interchange import chart_export as ex

    names = ex.table_names(ruleset)
    if (args.table is not None and args.table not in names) or (
        args.format == "csv" and args.table is None
    ):
        raise UsageError(f"--table: expected one of {', '.join(names)}")
    if args.format == "xlsx":
        from rulesdsl.interchange.xlsx_chart import XlsxUnavailable, write_xlsx

        if not args.output:
            raise UsageError("--format xlsx writes a file: give --output FILE.xlsx")
        chosen = [args.table] if args.table else [x.id for x in ruleset.layers]
        chosen += [] if args.table else [x.id for x in ruleset.tables]
        sheets = []
        for name in chosen:
            found = ex.chart_rows(ruleset, name)
            assert found is not None
            sheets.append((name, found[0]))
        try:
            data = write_xlsx(sheets)
        except XlsxUnavailable as exc:
            raise UsageError(str(exc)) from None
        return _emit(data, "xlsx", args.output)
    found = ex.chart_rows(ruleset, args.table)
    assert found is not None
    rows, values = found
    delimiter, bom = ",", ""
    if args.locale:
        from rulesdsl.interchange.chart_read import locale_decimal

        mark = locale_decimal(args.locale)
        if mark is None:
            raise UsageError(f"--locale: unknown locale '{args.locale}' (fr, de, en_GB...)")
        if mark == ",":
            rows, delimiter = ex.with_decimal_comma(rows, values), ";"
        bom = "\ufeff"  # so that Excel opens it as UTF-8
    text = bom + ex.to_csv(rows, delimiter)
    return _emit(text.encode("utf-8"), "csv", args.output)


def _emit(content: bytes, fmt: str, output: str | None) -> int:
    """``content`` to ``output`` (atomically) or to standard output; a file that cannot be
    written is a one-line error, exit status 2."""
    return EXIT_OK if emit_document(content, fmt, output) else EXIT_USAGE
