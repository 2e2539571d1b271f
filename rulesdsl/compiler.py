"""The pipeline as a library: source -> parse -> resolve -> lower (with checks) -> schema -> IR.

A :class:`Compiler` keeps one parser and a cache of parsed and compiled files, so compiling a
directory of rulesets parses and compiles each file (bases included) once, and a chain of N
variants costs N merges: a file's bases are compiled first, root first, without recursion.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from rulesdsl import changelog, ir, schema
from rulesdsl import syntax as s
from rulesdsl.diagnostics import Diagnostic, error, sort_key
from rulesdsl.lower import lower
from rulesdsl.parse import Parser
from rulesdsl.resolve import Base, Cycle, Resolved, attribute, digest, resolve
from rulesdsl.serial import from_data

SUFFIXES = (".terrain", ".yaml", ".yml")


@dataclass
class Compiled:
    """The outcome of compiling one file: its IR (None on error) and everything said about it."""

    path: str
    ruleset: ir.Ruleset | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    resolved: Resolved | None = None

    @property
    def ok(self) -> bool:
        return self.ruleset is not None and not any(d.is_error for d in self.diagnostics)


class Compiler:
    def __init__(self) -> None:
        self._parser: Parser | None = None
        self._parsed: dict[Path, tuple[s.SourceFile | None, list[Diagnostic]]] = {}
        self._compiled: dict[Path, Compiled] = {}
        self._active: list[tuple[Path, str, s.Pos | None]] = []
        """The files whose bases are being compiled: (file, name, its `extends` base)."""
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
        key = _key(path) or path.absolute()
        if key in self._compiled:
            return self._compiled[key]
        source, diags = self.parse_file(path)
        if source is None:
            return Compiled(str(path), None, diags)
        chain = self._chain(key, path, source, diags)
        saved = self._active
        self._active = [(k, _label(p, src), _pos(_extends(src))) for k, p, src, _ in chain]
        try:
            for k, p, src, d in reversed(chain):  # the root first: each finds its base done
                self._compiled[k] = self.compile_source(src, p.parent, d)
        finally:
            self._active = saved
        return self._compiled[key]

    def _chain(self, key: Path, path: Path, source: s.SourceFile, diags: list[Diagnostic],
               ) -> list[tuple[Path, Path, s.SourceFile, list[Diagnostic]]]:
        """``path`` and the bases it extends not compiled yet, nearest first; it stops at a
        base already compiled, missing or unparsable, or seen before (a cycle)."""
        chain = [(key, path, source, diags)]
        while True:
            _, here, src, _ = chain[-1]
            ext = _extends(src)
            if ext is None:
                return chain
            base_path = here.parent / f"{ext.text}.terrain"
            base_key = _key(base_path)
            if base_key is None or base_key in self._compiled or any(
                    base_key == k for k, _, _, _ in chain):
                return chain
            base, base_diags = self.parse_file(base_path)
            if base is None:
                return chain
            chain.append((base_key, base_path, base, base_diags))

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
        bases: list[Compiled] = []

        def load(ruleset_id: str) -> Base | Cycle | None:
            path = base_dir / f"{ruleset_id}.terrain"
            key = _key(path)
            if key is None:
                return None
            for i, (k, _, _) in enumerate(self._active):
                if k == key and key not in self._compiled:
                    return Cycle(tuple((name, pos) for _, name, pos in self._active[i:]))
            base = self.compile_file(path)
            bases.append(base)
            return Base(str(path), base.resolved if base.ok else None,
                        tuple(base.diagnostics))

        resolved, diags = resolve(source, load)
        diags = load_errors + diags
        if syntax_errors:  # a missing header is then most likely a statement that failed to parse
            diags = [d for d in diags if d.code != "E110"]
        if resolved is None:
            return Compiled(source.path, None, _sorted(diags))
        fallback = s.Pos(source.path, 1, 1, 1, 1)
        ruleset, lower_diags = lower(resolved.statements, resolved.lineage, fallback)
        lower_diags = attribute(lower_diags, resolved, source.path)
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
        if ruleset is not None and bases and bases[0].ruleset is not None:
            ruleset = replace(ruleset, changes=changelog.annotate(
                ruleset.changes, bases[0].ruleset, ruleset))
        return Compiled(source.path, ruleset, _sorted(diags), resolved)

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
            # of the data, not the text: comments and layout do not change it
            data.setdefault("digest", digest(json.dumps(data, sort_keys=True, default=str)))
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


def _key(path: Path) -> Path | None:
    """The file's real path, or None when there is no such file (or its name is too long)."""
    try:
        return path.resolve() if path.is_file() else None
    except OSError:
        return None


def _extends(source: s.SourceFile) -> s.Name | None:
    return next((st.base for st in source.statements if isinstance(st, s.ExtendsDecl)), None)


def _label(path: Path, source: s.SourceFile) -> str:
    """A ruleset's id for messages, with its file when the two differ."""
    name = next((st.item.name.text for st in source.statements
                 if isinstance(st, s.RulesetDecl)), path.stem)
    return name if name == path.stem else f"{name} ({path.name})"


def ruleset_files(directory: Path) -> list[Path]:
    """The ruleset sources in a directory, sorted by name."""
    return sorted(p for p in directory.iterdir() if p.suffix in SUFFIXES and p.is_file())


def _pos(name: s.Name | None) -> s.Pos | None:
    return None if name is None else name.pos
