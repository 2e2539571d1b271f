"""The pipeline as a library: source -> parse -> resolve -> lower (with checks) -> schema -> IR.

A :class:`Compiler` keeps one parser and a cache of parsed files, so compiling a directory of
rulesets parses each file (bases included) once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from rulesdsl import ir, schema
from rulesdsl import syntax as s
from rulesdsl.diagnostics import Diagnostic, error, sort_key
from rulesdsl.lower import lower
from rulesdsl.parse import Parser
from rulesdsl.resolve import digest, resolve
from rulesdsl.serial import from_data

SUFFIXES = (".terrain", ".yaml", ".yml")


@dataclass
class Compiled:
    """The outcome of compiling one file: its IR (None on error) and everything said about it."""

    path: str
    ruleset: ir.Ruleset | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.ruleset is not None and not any(d.is_error for d in self.diagnostics)


class Compiler:
    def __init__(self) -> None:
        self._parser: Parser | None = None
        self._parsed: dict[Path, tuple[s.SourceFile | None, list[Diagnostic]]] = {}
        self.sources: dict[str, str] = {}
        """Text of every file read, by the path diagnostics use (to print source lines)."""

    @property
    def parser(self) -> Parser:
        if self._parser is None:
            self._parser = Parser()
        return self._parser

    def read(self, path: Path) -> tuple[str | None, list[Diagnostic]]:
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            pos = s.Pos(str(path), 1, 1, 1, 1)
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return None, [error("E003", f"cannot read {path}: {reason}", pos,
                                "check the path and that the file is UTF-8 text")]
        self.sources[str(path)] = text
        return text, []

    def parse_file(self, path: Path) -> tuple[s.SourceFile | None, list[Diagnostic]]:
        key = path.resolve()
        if key not in self._parsed:
            text, diags = self.read(path)
            self._parsed[key] = (None, diags) if text is None else self.parser.parse(
                text, str(path))
        return self._parsed[key]

    def compile_file(self, path: Path) -> Compiled:
        if path.suffix in (".yaml", ".yml"):
            return self.compile_yaml(path)
        source, diags = self.parse_file(path)
        if source is None:
            return Compiled(str(path), None, diags)
        return self.compile_source(source, path.parent, diags)

    def compile_text(self, text: str, path: str, base_dir: Path | None = None) -> Compiled:
        self.sources[path] = text
        source, diags = self.parser.parse(text, path)
        if source is None:
            return Compiled(path, None, diags)
        return self.compile_source(source, base_dir or Path(path).parent, diags)

    def compile_source(self, source: s.SourceFile, base_dir: Path,
                       syntax_errors: list[Diagnostic] | None = None) -> Compiled:
        """Resolve, lower and validate a parsed file; ``syntax_errors`` are carried along."""
        load_errors: list[Diagnostic] = list(syntax_errors or [])

        def load(ruleset_id: str) -> s.SourceFile | None:
            path = base_dir / f"{ruleset_id}.terrain"
            if len(path.name.encode("utf-8", "surrogatepass")) > 255 or not path.is_file():
                return None  # a name no file system allows (is_file raises OSError) is E501
            base, diags = self.parse_file(path)
            load_errors.extend(diags)
            return base if not diags else None

        resolved, diags = resolve(source, load)
        diags = load_errors + diags
        if syntax_errors:  # a missing header is then most likely a statement that failed to parse
            diags = [d for d in diags if d.code != "E110"]
        if resolved is None:
            return Compiled(source.path, None, _sorted(diags))
        fallback = s.Pos(source.path, 1, 1, 1, 1)
        ruleset, lower_diags = lower(resolved.statements, resolved.lineage, fallback)
        diags += [d for d in lower_diags if not (syntax_errors and d.code == "E110")]
        if ruleset is not None and any(d.is_error for d in diags):
            ruleset = None
        if ruleset is not None:
            problems = schema.validate_ir(ruleset)
            if problems:  # a compiler bug, not the user's: say so plainly
                diags.append(error("E201", "internal error: the IR does not match its schema: "
                                   + "; ".join(problems[:3]), fallback,
                                   "please report this with the ruleset attached"))
                ruleset = None
        return Compiled(source.path, ruleset, _sorted(diags))

    def compile_yaml(self, path: Path) -> Compiled:
        """A ruleset authored as YAML (the IR's shape, see `rulesdsl schema`)."""
        text, diags = self.read(path)
        if text is None:
            return Compiled(str(path), None, diags)
        pos = s.Pos(str(path), 1, 1, 1, 1)
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            if mark is not None:
                pos = s.Pos(str(path), mark.line + 1, mark.column + 1, mark.line + 1,
                            mark.column + 2)
            return Compiled(str(path), None, [error("E001", f"invalid YAML: {exc}", pos)])
        if isinstance(data, dict):
            data.setdefault("digest", digest(text))
        problems = schema.validation_errors(data)
        if problems:
            return Compiled(str(path), None, [
                error("E201", f"schema: {p}", pos, "run `rulesdsl schema` for the shape")
                for p in problems])
        ruleset: ir.Ruleset = from_data(ir.Ruleset, data)
        return Compiled(str(path), ruleset, [])


def _sorted(diags: list[Diagnostic]) -> list[Diagnostic]:
    unique = list(dict.fromkeys(diags))
    return sorted(unique, key=sort_key)


def ruleset_files(directory: Path) -> list[Path]:
    """The ruleset sources in a directory, sorted by name."""
    return sorted(p for p in directory.iterdir() if p.suffix in SUFFIXES and p.is_file())
