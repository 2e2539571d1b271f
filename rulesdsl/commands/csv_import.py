"""`rulesdsl import CHART.csv --layer NAME`: a terrain chart from a spreadsheet as a layer."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulesdsl.builder.build import atomic_write
from rulesdsl.commands.common import EXIT_OK, EXIT_RULES, UsageError, report, ruleset_path
from rulesdsl.compiler import Compiler
from rulesdsl.diagnostics import sort_key
from rulesdsl.interchange.csv_chart import check_alone, check_into, import_layer


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verbs.add_parser(
        "import",
        help="turn a CSV terrain chart into a layer block",
        description="Read a CSV chart (one row per feature, one column per mode, cells in the "
        "DSL's value syntax; optional columns label, <language>, source, note, "
        "all) and print it as a `layer` block, checked as the DSL is checked: on its own "
        "(its columns as modes), or with --into as part of that ruleset, to which it is "
        "then appended. Errors point at the chart's cells.",
    )
    p.add_argument("csv", metavar="CHART.csv")
    p.add_argument("--layer", required=True, metavar="NAME", help="the layer's name")
    p.add_argument("--label", help="the layer's label")
    p.add_argument(
        "--one-per-place",
        action="store_true",
        help="a place has one feature of this layer (`one per place`)",
    )
    p.add_argument(
        "--into",
        metavar="RULESET",
        help="a ruleset (.terrain) to check the layer against and append it to",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path = Path(args.csv)
    if not path.exists() and not path.is_symlink():
        raise UsageError(f"cannot read {args.csv}: no such file")
    compiler = Compiler()
    text, unreadable = compiler.read(path)  # as a ruleset is read: no FIFO, link, huge file
    if text is None:
        report(unreadable, compiler, "text")
        return EXIT_RULES
    known = languages = None
    target = None
    if args.into:
        target = ruleset_path(args.into)
        if target.suffix != ".terrain":
            raise UsageError("--into takes a .terrain ruleset")
        compiled = compiler.compile_file(target)
        if compiled.ruleset is None:
            report(compiled.diagnostics, compiler, "text")
            return EXIT_RULES
        known = [m.id for m in compiled.ruleset.modes] + [g.id for g in compiled.ruleset.groups]
        languages = compiled.ruleset.languages
    imported = import_layer(
        text,
        str(path),
        args.layer,
        label=args.label,
        scope="one per place" if args.one_per_place else "",
        known=known,
        languages=languages,
        fragments=compiler.fragments,
    )
    # The layer goes through the DSL's own checks: in the target, or in a ruleset of its own.
    checked = (
        check_into(imported, compiler, target)
        if target is not None
        else check_alone(imported, compiler)
    )
    found = sorted([*imported.diagnostics, *checked], key=sort_key)
    report(found, compiler, "text")
    if imported.text is None or any(d.is_error for d in found):
        if target is not None:
            print(f"{target} left unchanged", file=sys.stderr)
        return EXIT_RULES
    if target is None:
        sys.stdout.write(imported.text)
        return EXIT_OK
    base = compiler.sources[str(target)]  # read (and compiled) above
    combined = base.rstrip("\n") + "\n\n" + imported.text
    check = compiler.compile_text(combined, str(target), target.parent)
    if not check.ok:  # the text says what the checked syntax says; this guards the writing
        report(check.diagnostics, compiler, "text")
        print(f"{target} left unchanged", file=sys.stderr)
        return EXIT_RULES
    atomic_write(target, combined.encode("utf-8"))
    print(f"added layer {args.layer} to {target}", file=sys.stderr)
    return EXIT_OK
