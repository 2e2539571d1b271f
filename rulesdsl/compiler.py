"""The pipeline as a library: source -> parse -> resolve -> lower (with checks) -> IR.

A :class:`Compiler` keeps one parser and a cache of parsed files, so compiling a directory of
rulesets parses each file (bases included) once. The IR the compiler builds is not validated
against the JSON Schema at run time (tests/test_ir_schema.py does that for every bundled
ruleset); YAML input still is. Garbage collection is held off while a file compiles: the
syntax tree and IR are acyclic and freed by reference counting, and the collector's passes
over the many young objects made the compile super-linear in the size of the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rulesdsl import checks, ir
from rulesdsl import syntax as s
from rulesdsl.diagnostics import Diagnostic, error, sort_key
from rulesdsl.gc_pause import gc_paused
from rulesdsl.lower import lower
from rulesdsl.parse import Parser
from rulesdsl.resolve import resolve

if TYPE_CHECKING:
    from rulesdsl.fragments import FragmentParser

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
        self._fragments: FragmentParser | None = None
        """Parses cells of YAML rulesets with the DSL's grammar (made on first use)."""
        self._parsed: dict[Path, tuple[s.SourceFile | None, list[Diagnostic]]] = {}
        self.sources: dict[str, str] = {}
        """Text of every file read, by the path diagnostics use (to print source lines)."""

    @property
    def fragments(self) -> FragmentParser:
        if self._fragments is None:
            from rulesdsl.fragments import FragmentParser

            self._fragments = FragmentParser()
        return self._fragments

    @property
    def parser(self) -> Parser:
        if self._parser is None:
            self._parser = Parser()
        return self._parser

    def read(self, path: Path) -> tuple[str | None, list[Diagnostic]]:
        try:
            text = path.read_text("utf-8-sig")  # a byte-order mark is not part of the text
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
            if text is None:
                self._parsed[key] = (None, diags)
            elif path.suffix in (".yaml", ".yml"):  # the YAML authoring front end
                self._parsed[key] = _parse_yaml(text, str(path), self.fragments)
            else:
                self._parsed[key] = self.parser.parse(text, str(path))
        return self._parsed[key]

    def compile_file(self, path: Path) -> Compiled:
        with gc_paused():
            source, diags = self.parse_file(path)
            if source is None:
                return Compiled(str(path), None, diags)
            return self.compile_source(source, path.parent, diags)

    def compile_text(self, text: str, path: str, base_dir: Path | None = None) -> Compiled:
        self.sources[path] = text
        with gc_paused():
            source, diags = _parse_yaml(text, path, self.fragments) if path.endswith(
                (".yaml", ".yml")) else self.parser.parse(text, path)
            if source is None:
                return Compiled(path, None, diags)
            return self.compile_source(source, base_dir or Path(path).parent, diags)

    def compile_source(self, source: s.SourceFile, base_dir: Path,
                       syntax_errors: list[Diagnostic] | None = None) -> Compiled:
        """Resolve and lower a parsed file; ``syntax_errors`` are carried along."""
        with gc_paused():
            return self._compile_source(source, base_dir, syntax_errors)

    def _compile_source(self, source: s.SourceFile, base_dir: Path,
                        syntax_errors: list[Diagnostic] | None) -> Compiled:
        load_errors: list[Diagnostic] = list(syntax_errors or [])

        def load(ruleset_id: str) -> s.SourceFile | None:
            if len(f"{ruleset_id}.terrain".encode("utf-8", "surrogatepass")) > 255:
                return None  # a name no file system allows (is_file raises OSError) is E501
            path = next((p for p in (base_dir / f"{ruleset_id}{x}" for x in SUFFIXES)
                         if p.is_file()), None)
            if path is None:
                return None
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
        lowered = lower(resolved.statements, resolved.lineage, fallback)
        diags += [d for d in lowered.diagnostics if not (syntax_errors and d.code == "E110")]
        ruleset = lowered.ruleset
        if ruleset is not None:
            diags += checks.run(ruleset, lowered.positions)
            if any(d.is_error for d in diags):
                ruleset = None
        return Compiled(source.path, ruleset, _sorted(diags))


def _parse_yaml(text: str, path: str,
                fragments: FragmentParser) -> tuple[s.SourceFile | None, list[Diagnostic]]:
    """The YAML front end, imported only when a YAML ruleset is read (it needs PyYAML)."""
    from rulesdsl.yaml_front import parse_yaml

    return parse_yaml(text, path, fragments)


def _sorted(diags: list[Diagnostic]) -> list[Diagnostic]:
    unique = list(dict.fromkeys(diags))
    return sorted(unique, key=sort_key)


def ruleset_files(directory: Path) -> list[Path]:
    """The ruleset sources in a directory, sorted by name."""
    return sorted(p for p in directory.iterdir() if p.suffix in SUFFIXES and p.is_file())
