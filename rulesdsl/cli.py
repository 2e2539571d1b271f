"""The `rulesdsl` command: a thin layer over the library.

Exit status: 0 success, 1 the rules have errors (or `build --check` found stale files),
2 bad usage. Diagnostics go to stderr; nothing here ever shows a Python traceback for bad input.

Each verb imports what it needs when it runs (the compiler, the backends, YAML, the JSON
Schema), so a command's start-up pays only for its own work; only the verb that runs has its
module in `rulesdsl.commands` imported.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from rulesdsl.backends.pdf import PdfUnavailable
from rulesdsl.commands import VERBS, registrar

if TYPE_CHECKING:
    from rulesdsl.compiler import Compiled, Compiler
    from rulesdsl.diagnostics import Diagnostic

SUFFIXES = (".terrain", ".yaml", ".yml")

EXIT_OK, EXIT_RULES, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad command-line usage: reported in one line, exit status 2."""


def report(diags: Sequence[Diagnostic], compiler: Compiler, fmt: str,
           stream: TextIO | None = None) -> None:
    from rulesdsl.diagnostics import render_text, to_json

    out = stream or sys.stderr
    if fmt == "json":
        print(to_json(diags), file=out)
        return
    for diag in diags:
        print(render_text(diag, compiler.sources), file=out)
    errors = sum(d.is_error for d in diags)
    warnings = len(diags) - errors
    if diags:
        print(f"{errors} error{'s' * (errors != 1)}, {warnings} warning"
              f"{'s' * (warnings != 1)}", file=out)


def find_project(start: Path | None = None) -> Path:
    """The nearest folder (this one or a parent) that has a rulesets/ folder."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "rulesets").is_dir():
            return folder
    raise UsageError("no rulesets/ folder here or above; run from a rulesdsl project or pass "
                     "--rulesets and --out")


def rulesets_folder(folder: str | None = None) -> Path:
    """Where ruleset ids are looked up: ``--dir``, else the rulesets/ folder of the project
    (this folder or a parent), else this folder when it holds rulesets itself."""
    if folder is not None:
        path = Path(folder)
        if not path.is_dir():
            raise UsageError(f"no such folder: {folder}")
        return path
    try:
        return find_project() / "rulesets"
    except UsageError:
        if any(p.suffix in SUFFIXES for p in Path.cwd().iterdir()):
            return Path.cwd()
        raise


def add_dir_option(parser: argparse.ArgumentParser) -> None:
    """``--dir DIR``: the rulesets folder ids are looked up in (every verb that takes ids)."""
    parser.add_argument("--dir", metavar="DIR", default=None,
                        help="the rulesets folder to find ruleset ids in (default: rulesets/ "
                             "of this project)")


def ruleset_path(name: str, project: Path | None = None, folder: str | None = None) -> Path:
    """A ruleset by path, or by id in the project's rulesets/ folder (or ``folder``)."""
    path = Path(name)
    if path.suffix in SUFFIXES or path.exists():
        if not path.is_file():
            raise UsageError(f"no such file: {name}")
        return path
    folder_path = project / "rulesets" if project else rulesets_folder(folder)
    return _by_id(name, folder_path)


def _by_id(name: str, folder: Path) -> Path:
    from rulesdsl.compiler import ruleset_files

    for suffix in SUFFIXES:
        candidate = folder / f"{name}{suffix}"
        try:
            if candidate.is_file():
                return candidate
        except OSError as exc:  # a name too long for the file system
            raise UsageError(f"'{name[:64]}...' is not a ruleset id: {exc.strerror}") from exc
    known = ", ".join(p.stem for p in ruleset_files(folder))
    raise UsageError(f"no ruleset '{name}' in {folder} (there are: {known})")


def compile_one(name: str, compiler: Compiler, fmt: str, folder: str | None = None) -> Compiled:
    compiled = compiler.compile_file(ruleset_path(name, folder=folder))
    report(compiled.diagnostics, compiler, fmt)
    return compiled


# ---- verbs ---------------------------------------------------------------------------------


def cmd_check(args: argparse.Namespace) -> int:
    from rulesdsl.compiler import Compiler, ruleset_files

    if args.against is not None and args.against.startswith("-"):
        raise UsageError(f"--against: '{args.against}' is not a git revision (it starts with '-')")
    compiler = Compiler()
    paths: list[Path] = []
    for name in args.paths or [str(rulesets_folder(args.dir))]:
        path = Path(name)
        paths += ruleset_files(path) if path.is_dir() else [ruleset_path(name,
                                                                           folder=args.dir)]
    diags: list[Diagnostic] = []
    ok = True
    for path in paths:
        compiled = compiler.compile_file(path)
        diags += compiled.diagnostics
        ok = ok and compiled.ok
        if args.against and compiled.ok and compiled.ruleset is not None:
            from rulesdsl.versioning import check_against  # W601: version bump check

            diags += check_against(path, compiled.ruleset, args.against, compiler)
    report(diags, compiler, args.format)
    if ok and args.format == "text":
        print(f"{len(paths)} ruleset{'s' * (len(paths) != 1)} checked: no errors",
              file=sys.stderr)
    return EXIT_OK if ok else EXIT_RULES


def cmd_build(args: argparse.Namespace) -> int:
    from rulesdsl.commands.build import run

    return run(args)


def cmd_schema(args: argparse.Namespace) -> int:
    from rulesdsl import schema

    sys.stdout.write(schema.dumps(schema.shipped()))
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from rulesdsl.compiler import Compiler
    from rulesdsl.serial import to_data

    compiler = Compiler()
    compiled = compile_one(args.ruleset, compiler, "text", args.dir)
    if compiled.ruleset is None:
        return EXIT_RULES
    if args.format == "csv":  # one table of the ruleset, for a spreadsheet
        from rulesdsl.csv_chart import export_csv, table_names

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


# ---- parser --------------------------------------------------------------------------------

Command = Callable[[argparse.Namespace], int]


def _format_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="how to print diagnostics (default: text)")


def make_parser(verb: str | None = None) -> argparse.ArgumentParser:
    """The command-line parser. Of the verbs in `rulesdsl.commands`, only ``verb`` (or every
    one, when ``verb`` is None) is registered in full, importing its module; the others get a
    sub-parser with their help line, enough for `rulesdsl --help` and argparse's choices."""
    parser = argparse.ArgumentParser(
        prog="rulesdsl",
        description="Compile tabletop terrain and movement rules into Python modules and "
                    "quick-reference sheets.",
        epilog="Exit status: 0 ok, 1 rule errors or stale output, 2 bad usage.")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB")

    p = verbs.add_parser("check", help="check rulesets and report every problem",
                         description="Parse and check rulesets; print all diagnostics.")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="ruleset files, ids or folders (default: rulesets/)")
    p.add_argument("--against", metavar="REV",
                   help="warn (W601) when a ruleset changed since this git revision without "
                        "the version bump the change needs")
    add_dir_option(p)
    _format_option(p)
    p.set_defaults(run=cmd_check)

    from rulesdsl.commands import build as build_verb

    p = verbs.add_parser("build", help="compile rulesets into generated/",
                         description=build_verb.DESCRIPTION)
    build_verb.add_arguments(p)
    _format_option(p)
    p.set_defaults(run=cmd_build)

    p = verbs.add_parser("schema", help="print the IR's JSON Schema (of `export` output)",
                         description="Print the JSON Schema that exported IR follows. YAML "
                                     "rulesets have their own authoring schema: "
                                     "rulesdsl/schema/authoring.schema.json.")
    p.set_defaults(run=cmd_schema)

    p = verbs.add_parser("export", help="print a ruleset's IR as YAML or JSON",
                         description="Compile a ruleset and print its IR.")
    p.add_argument("ruleset", metavar="RULESET", help="a ruleset id or path")
    p.add_argument("--format", choices=("yaml", "json", "csv"), default="yaml")
    p.add_argument("--table", metavar="NAME", help="with --format csv: the layer, table, "
                   "modifier or dice table to export")
    add_dir_option(p)
    p.set_defaults(run=cmd_export)

    for name, help_line in VERBS.items():
        if verb is None or verb == name:
            registrar(name)(verbs)
        else:
            verbs.add_parser(name, help=help_line, add_help=False)
    return parser


def chosen_verb(argv: Sequence[str]) -> str:
    """The verb on the command line: its first word that is not an option ('' when none)."""
    return next((arg for arg in argv if not arg.startswith("-")), "")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = make_parser(chosen_verb(argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed the usage error
        return EXIT_USAGE if exc.code not in (0, None) else EXIT_OK
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        code: int = args.run(args)
    except UsageError as exc:
        print(f"rulesdsl: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except PdfUnavailable as exc:  # `build` makes PDF sheets; nothing has been written
        print(f"rulesdsl: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # pragma: no cover - e.g. `rulesdsl schema | head`
        return EXIT_OK
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
