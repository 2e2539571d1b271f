"""`rulesdsl import CHART --layer NAME`: a chart from a spreadsheet (CSV or .xlsx) as a layer,
or with `--into`, a layer or table of a ruleset updated in place."""

from __future__ import annotations

import argparse
import codecs
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from rulesdsl.builder.build import atomic_write
from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import EXIT_OK, EXIT_RULES, UsageError, report, ruleset_path
from rulesdsl.compiler import Compiler
from rulesdsl.diagnostics import sort_key
from rulesdsl.frontends import registry
from rulesdsl.interchange.chart_columns import cell_keys, layer_columns

if TYPE_CHECKING:
    from rulesdsl.sources import Loaded


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(
        verbs,
        "import",
        run,
        description="Read a chart saved by a spreadsheet (CSV with `,` `;` or tab, any "
        "encoding with --encoding, decimal commas; or .xlsx, .ods) and print it as a `layer` "
        "block, checked as the DSL is checked; or, with --into, update that layer (or with "
        "--table, that table) of a ruleset in place and print the change as `rulesdsl diff` "
        "does. Columns: the key, label, 'label fr', one per mode or group, all, "
        "'column NAME', source, note, 'note fr', 'ignores others'. Errors point at the "
        "chart's cells.",
    )
    p.add_argument("csv", metavar="CHART", help="a .csv (or .tsv, .txt), .xlsx or .ods file")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--layer", metavar="NAME", help="the layer the chart holds")
    what.add_argument(
        "--table", metavar="NAME", help="the plain table the chart holds (with --into)"
    )
    p.add_argument("--label", help="the layer's label (a new layer)")
    p.add_argument(
        "--one-per-place",
        action="store_true",
        help="a place has one feature of this layer (`one per place`; a new layer)",
    )
    p.add_argument(
        "--into",
        metavar="RULESET",
        help="a ruleset (.terrain) whose layer or table the chart updates in place (or to "
        "which a new layer is added)",
    )
    p.add_argument(
        "--encoding",
        metavar="NAME",
        help="the CSV file's encoding when it is not UTF-8 (cp1252, latin-1, cp1251...); "
        "by default UTF-8, or cp1252 with a warning when the file is not UTF-8",
    )
    p.add_argument(
        "--locale",
        metavar="LANG",
        help="read numbers as this locale writes them (fr: 1,5); by default the chart's own",
    )
    p.add_argument(
        "--delimiter",
        choices=("comma", "semicolon", "tab", ",", ";"),
        metavar="{comma,semicolon,tab}",
        help="the CSV delimiter; by default the one the header and rows use",
    )
    p.add_argument(
        "--header-row",
        metavar="N",
        type=int,
        help="the chart's header is row N (by default the first row of two cells or more: "
        "rows of one cell above it are a title)",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="with --into: print the change, write nothing",
    )


def run(args: argparse.Namespace) -> int:
    from rulesdsl.interchange.chart_alone import check_alone
    from rulesdsl.interchange.csv_chart import Reading, import_layer, import_table

    locale_mark = _checked_options(args)
    # With --into, worked examples the chart's cells answer otherwise are listed, not a stop.
    compiler = Compiler(examples_hold=not args.into)
    read = _read(args, compiler)
    if read is None:
        return EXIT_RULES
    loaded, text, delimiter = read
    into = _into_target(args, compiler) if args.into else None
    if isinstance(into, int):
        return into
    target, known, languages, columns = into or (None, None, None, [])
    reading = Reading(delimiter, locale_mark, compiler.fragments, args.header_row)
    if args.table:
        imported = import_table(
            text,
            str(Path(args.csv)),
            known=known or (),
            languages=languages or (),
            columns=columns,
            reading=reading,
        )
    else:
        imported = import_layer(
            text,
            str(Path(args.csv)),
            args.layer,
            label=args.label,
            scope="one per place" if args.one_per_place else "",
            known=known,
            languages=languages,
            columns=columns,
            reading=reading,
        )
    imported.diagnostics.extend(loaded.diagnostics)  # what reading the file said (W132)
    if target is None:
        imported = replace(imported, rows=())  # only --into reads them: not held while checking
        checked = check_alone(imported, compiler)
        found = sorted([*imported.diagnostics, *checked], key=sort_key)
        report(found, compiler, "text")
        if imported.text is None or any(d.is_error for d in found):
            return EXIT_RULES
        sys.stdout.write(imported.text)
        return EXIT_OK
    return _into(args, imported, compiler, target)


def _checked_options(args: argparse.Namespace) -> str | None:
    """The options checked before anything is read (UsageError); the locale's decimal mark."""
    from rulesdsl.interchange import chart_read

    path = Path(args.csv)
    if not path.exists() and not path.is_symlink():
        raise UsageError(f"cannot read {args.csv}: no such file")
    if args.encoding:
        try:
            codecs.lookup(args.encoding)
        except LookupError:
            raise UsageError(f"--encoding: unknown encoding '{args.encoding}'") from None
    locale_mark = None
    if args.locale:
        locale_mark = chart_read.locale_decimal(args.locale)
        if locale_mark is None:
            raise UsageError(f"--locale: unknown locale '{args.locale}' (fr, de, en_GB...)")
    if args.table and not args.into:
        raise UsageError("--table updates a table of a ruleset: give --into RULESET")
    return locale_mark


def _read(args: argparse.Namespace, compiler: Compiler) -> tuple[Loaded, str, str] | None:
    """The chart as text (a workbook's sheet written as CSV) with what reading it said, and
    its delimiter; None when it cannot be read (reported)."""
    from rulesdsl.interchange import chart_read
    from rulesdsl.sources import Loaded, read_bytes, too_large

    path = Path(args.csv)
    data = read_bytes(path, compiler.limits)
    if not isinstance(data, Loaded) and len(data) > compiler.limits.file_bytes:
        # read_bytes stops one byte past the limit: the chart would be cut short, never read so
        data = too_large(
            str(path),
            data,
            compiler.limits,
            "a chart",
            "split it into one chart per layer or table",
        )
    if isinstance(data, Loaded):
        report(data.diagnostics, compiler, "text")
        return None
    delimiter = {"comma": ",", "semicolon": ";", "tab": "\t"}.get(args.delimiter, args.delimiter)
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".ods"):
        from rulesdsl.interchange.xlsx_chart import read_workbook

        loaded = read_workbook(
            data,
            str(path),
            "xlsx" if suffix == ".xlsx" else "ods",
            args.layer or args.table,
            compiler.limits.file_bytes,
        )
        delimiter = ","  # the sheet's cells, written as CSV; numbers are numbers already
    else:
        loaded = chart_read.decode_chart(data, str(path), args.encoding)
    if loaded.quoted is not None:
        compiler.sources[str(path)] = loaded.quoted
    if loaded.text is None:
        report(loaded.diagnostics, compiler, "text")
        return None
    return loaded, loaded.text, delimiter


def _into_target(
    args: argparse.Namespace, compiler: Compiler
) -> tuple[Path, list[str], tuple[str, ...], list[str]] | int:
    """``--into``: the ruleset, its cells' keys, its languages and the columns of the layer or
    table the chart updates; an exit code when the ruleset has errors (reported)."""
    target = ruleset_path(args.into)
    if target.suffix not in registry.DSL.suffixes:
        raise UsageError("--into takes a .terrain ruleset")
    compiled = compiler.compile_file(target)
    if compiled.ruleset is None:
        report(compiled.diagnostics, compiler, "text")
        print(f"{target} has errors: fix them first; left unchanged", file=sys.stderr)
        return EXIT_RULES
    rs = compiled.ruleset
    if not args.table:
        return target, cell_keys(rs), rs.languages, layer_columns(rs)
    table = next((t for t in rs.tables if t.id == args.table), None)
    if table is None:
        names = ", ".join(t.id for t in rs.tables) or "none"
        raise UsageError(f"--table: {target} has no table '{args.table}' ({names})")
    return target, cell_keys(rs), rs.languages, [c.id for c in table.columns] or ["value"]


def _into(args: argparse.Namespace, imported: object, compiler: Compiler, target: Path) -> int:
    from rulesdsl.checks.examples import ANSWER_CODES
    from rulesdsl.interchange.chart_into import update_into
    from rulesdsl.interchange.csv_chart import Imported
    from rulesdsl.versions.diff import diff, render_text

    assert isinstance(imported, Imported)
    if any(d.is_error for d in imported.diagnostics):
        report(sorted(imported.diagnostics, key=sort_key), compiler, "text")
        print(f"{target} left unchanged", file=sys.stderr)
        return EXIT_RULES
    kind = "table" if args.table else "layer"
    name = args.table or args.layer
    update = update_into(imported, compiler, target, bool(args.table), name)
    found = sorted([*imported.diagnostics, *update.diagnostics], key=sort_key)
    report(found, compiler, "text")
    restate = [d for d in found if d.code in ANSWER_CODES]
    if (
        any(d.is_error for d in found if d not in restate)
        or update.old is None
        or update.new is None
    ):
        print(f"{target} left unchanged", file=sys.stderr)
        return EXIT_RULES
    for key, line in update.removed:
        print(f"{target}:{line}: removed row '{key}': it is not in the chart", file=sys.stderr)
    if update.text is None:
        print(
            f"{kind} {name} of {target} is the same as the chart: left unchanged", file=sys.stderr
        )
        return EXIT_OK
    sys.stdout.write(render_text(diff(update.old, update.new)))
    counts = (
        f"{len(update.changed)} changed, {len(update.added)} added, {len(update.removed)} removed"
        + (f", {len(update.moved)} moved" if update.moved else "")
    )
    if args.dry_run:
        print(f"{kind} {name}: {counts}; --dry-run: {target} left unchanged", file=sys.stderr)
        return EXIT_OK
    atomic_write(target, update.text.encode("utf-8"))
    print(f"updated {kind} {name} in {target}: {counts}", file=sys.stderr)
    if restate:
        print(
            f"{len(restate)} worked example answer(s) above are no longer what the rules give: "
            "restate them (the new answer is in each message) or correct the chart",
            file=sys.stderr,
        )
        return EXIT_RULES
    return EXIT_OK
