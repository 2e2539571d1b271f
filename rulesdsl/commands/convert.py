"""`rulesdsl convert FILE`: a ruleset from .terrain to the YAML authoring format, or back."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulesdsl.builder.build import atomic_write
from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import EXIT_OK, EXIT_RULES, UsageError, report
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.registry import DSL, YAML
from rulesdsl.interchange.convert import ConvertError, to_terrain, to_yaml

SCHEMA_HINT = "authoring.schema.json"


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(
        verbs,
        "convert",
        run,
        description="Convert FILE.terrain to YAML or FILE.yaml to the DSL (laid out by fmt). "
        "The file must parse; the output compiles to the same rules. Comments "
        "of a .terrain file are not carried over.",
    )
    p.add_argument("file", metavar="FILE", help="a .terrain, .yaml or .yml file")
    p.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write here (default: stdout); its suffix must be the other format's",
    )
    p.add_argument(
        "--schema",
        metavar="URL",
        help="add a `# yaml-language-server: $schema=URL` line to YAML output",
    )


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"no such file: {args.file}")
    to_yaml_out = path.suffix in DSL.suffixes
    if not to_yaml_out and path.suffix not in YAML.suffixes:
        raise UsageError(f"{args.file}: expected a .terrain, .yaml or .yml file")
    if args.output and args.output != "-":
        wanted = YAML.suffixes if to_yaml_out else DSL.suffixes
        if Path(args.output).suffix not in wanted:
            raise UsageError(f"{args.output}: converting {path.suffix} writes {wanted[0]}")
    compiler = Compiler()
    source, diags = compiler.parse_file(path)
    if source is None or any(d.is_error for d in diags):
        report(diags, compiler, "text")
        return EXIT_RULES
    try:
        text = to_yaml(source, args.schema) if to_yaml_out else to_terrain(source.text)
    except ConvertError as exc:
        report([exc.diagnostic], compiler, "text")
        return EXIT_RULES
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        atomic_write(Path(args.output), text.encode("utf-8"))
        print(f"wrote {args.output}", file=sys.stderr)
    return EXIT_OK
