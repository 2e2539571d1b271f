"""The pipeline as a library: source -> parse -> resolve -> lower -> checks -> IR.

A :class:`Compiler` keeps one parser and a cache of parsed and compiled files, so compiling a
directory of rulesets parses and compiles each file (bases included) once, and a chain of N
variants costs N merges: a file's bases are compiled first, root first, without recursion.
Every compiler of a process shares the parses of the files it reads and the texts it compiles
(:mod:`rulesdsl.frontends.memo`): a new compiler does not parse a bundled base again.
The IR the compiler builds is not validated against the JSON Schema at run time
(tests/test_ir_schema.py does that for every bundled ruleset). Garbage collection is held off
while a file compiles: the syntax tree and IR are acyclic and freed by reference counting, and
the collector's passes over the many young objects made the compile super-linear in the size
of the file.
"""

from __future__ import annotations

from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rulesdsl import checks, ir
from rulesdsl import sources as source_files
from rulesdsl.checks import examples as examples_check
from rulesdsl.diagnostics import Diagnostic, SourceLines, sort_key
from rulesdsl.frontends import registry
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.dsl import Parser
from rulesdsl.frontends.memo import PARSED, ParsedTexts
from rulesdsl.gc_pause import gc_paused
from rulesdsl.ir.records import dataclass
from rulesdsl.lowering.lower import lower
from rulesdsl.variants import changelog
from rulesdsl.variants.resolve import Base, Cycle, Resolved, attribute, resolve

if TYPE_CHECKING:
    from rulesdsl.frontends.fragments import FragmentParser


@dataclass(slots=False)
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
    def __init__(
        self, limits: source_files.Limits = source_files.DEFAULT, *, examples_hold: bool = True
    ) -> None:
        self.limits = limits
        """The size limits of files, strings and tables (docs/language.md)."""
        self.examples_hold = examples_hold
        """False: a worked example whose stated answer the rules no longer give (E270, E271)
        is still reported, but the ruleset is compiled all the same (``import --into`` writes
        the chart's cells, then lists the examples to restate)."""
        self._parser: Parser | None = None
        self._fragments: FragmentParser | None = None
        """Parses cells of YAML rulesets with the DSL's grammar (made on first use)."""
        self._parsed: dict[Path, tuple[s.SourceFile | None, list[Diagnostic]]] = {}
        self._compiled: dict[Path, Compiled] = {}
        self._active: list[tuple[Path, str, s.Pos | None]] = []
        """The files whose bases are being compiled: (file, name, its `extends` base)."""
        self.sources: dict[str, str] = {}
        """Text of every file read, by the path diagnostics use (to print source lines)."""
        self.parsed_texts: ParsedTexts | None = PARSED
        """Where parses are kept by path and text, shared by the process's compilers
        (:mod:`rulesdsl.frontends.memo`); None: every text is parsed."""
        self.sheet_words: Path | None = None
        """The project's catalog folder of sheet words (``i18n/`` beside ``rulesets/``): a
        language with a catalog there has its sheet words (no W610)."""

    @property
    def parser(self) -> Parser:
        if self._parser is None:
            self._parser = Parser()
        return self._parser

    @property
    def fragments(self) -> FragmentParser:
        if self._fragments is None:
            from rulesdsl.frontends.fragments import FragmentParser

            self._fragments = FragmentParser()
        return self._fragments

    def read(self, path: Path) -> tuple[str | None, list[Diagnostic]]:
        """The file's text, read as every reader of rulesets reads (:mod:`rulesdsl.sources`):
        a link, a special file, a file over the size limit or not UTF-8 is a diagnostic."""
        loaded = source_files.read_ruleset(path, self.limits)
        if loaded.quoted is not None:
            self.sources[str(path)] = loaded.quoted
        return loaded.text, list(loaded.diagnostics)

    def parse_file(self, path: Path) -> tuple[s.SourceFile | None, list[Diagnostic]]:
        key = path.resolve()
        if key not in self._parsed:
            text, diags = self.read(path)
            self._parsed[key] = (None, diags) if text is None else self._parse_kept(text, str(path))
        return self._parsed[key]

    def parse_text(self, text: str, path: str) -> tuple[s.SourceFile | None, list[Diagnostic]]:
        """``text`` parsed by the front end of ``path``'s suffix
        (:func:`rulesdsl.frontends.registry.reading`)."""
        return registry.reading(path).parse(text, path, self)

    def _parse_kept(self, text: str, path: str) -> tuple[s.SourceFile | None, list[Diagnostic]]:
        """:meth:`parse_text`, or the parse of the same path and text kept from before
        (:attr:`parsed_texts`): the tree is shared, the list of diagnostics is the caller's.
        Files read and texts compiled are kept; the language server's open documents, which
        it parses through :meth:`parse_text` and keeps itself until they close, are not."""
        memo = self.parsed_texts
        found = memo.get(path, text) if memo is not None else None
        if found is None:
            found = self.parse_text(text, path)
            if memo is not None:
                memo.put(path, text, found)
        return found

    def source_lines(self) -> SourceLines:
        """The lines of every file read, as each one's front end counts them, for quoting
        in diagnostics."""
        return SourceLines(self.sources, registry.split_lines)

    def compile_file(self, path: Path) -> Compiled:
        key = _key(path) or path.absolute()
        if key in self._compiled:
            return self._compiled[key]
        with gc_paused():
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

    def _chain(
        self,
        key: Path,
        path: Path,
        source: s.SourceFile,
        diags: list[Diagnostic],
    ) -> list[tuple[Path, Path, s.SourceFile, list[Diagnostic]]]:
        """``path`` and the bases it extends not compiled yet, nearest first; it stops at a
        base already compiled, missing or unparsable, or seen before (a cycle)."""
        chain = [(key, path, source, diags)]
        while True:
            _, here, src, _ = chain[-1]
            ext = _extends(src)
            if ext is None:
                return chain
            base_path = base_file(here.parent, ext.text)
            base_key = _key(base_path) if base_path else None
            if (
                base_path is None
                or base_key is None
                or base_key in self._compiled
                or any(base_key == k for k, _, _, _ in chain)
            ):
                return chain
            base, base_diags = self.parse_file(base_path)
            if base is None:
                return chain
            chain.append((base_key, base_path, base, base_diags))

    def compile_text(self, text: str, path: str, base_dir: Path | None = None) -> Compiled:
        loaded = source_files.check_text(text, path, self.limits)
        self.sources[path] = loaded.quoted or ""
        if loaded.text is None:
            return Compiled(path, None, list(loaded.diagnostics))
        with gc_paused():
            source, diags = self._parse_kept(text, path)
            if source is None:
                return Compiled(path, None, diags)
            return self.compile_source(source, base_dir or Path(path).parent, diags)

    def compile_source(
        self, source: s.SourceFile, base_dir: Path, syntax_errors: list[Diagnostic] | None = None
    ) -> Compiled:
        """Resolve, lower and check a parsed file; ``syntax_errors`` are carried along."""
        with gc_paused():
            return self._compile_source(source, base_dir, syntax_errors)

    def _compile_source(
        self, source: s.SourceFile, base_dir: Path, syntax_errors: list[Diagnostic] | None
    ) -> Compiled:
        load_errors: list[Diagnostic] = list(syntax_errors or [])
        bases: list[Compiled] = []

        def load(ruleset_id: str) -> Base | Cycle | None:
            path = base_file(base_dir, ruleset_id)
            key = _key(path) if path else None
            if path is None or key is None:
                return None
            for i, (k, _, _) in enumerate(self._active):
                if k == key and key not in self._compiled:
                    return Cycle(tuple((name, pos) for _, name, pos in self._active[i:]))
            base = self.compile_file(path)
            bases.append(base)
            return Base(str(path), base.resolved if base.ok else None, tuple(base.diagnostics))

        resolved, diags = resolve(source, load)
        diags = load_errors + diags
        if syntax_errors:  # a missing header is then most likely a statement that failed to parse
            diags = [d for d in diags if d.code != "E110"]
        if resolved is None:
            return Compiled(source.path, None, _sorted(diags))
        fallback = s.Pos(source.path, 1, 1, 1, 1)
        lowered = lower(resolved.statements, resolved.lineage, fallback, _notation)
        found = lowered.diagnostics
        if lowered.ruleset is not None:
            found = found + checks.run(lowered.ruleset, lowered.positions, self.sheet_words)
            found = examples_check.sound_only(found, diags)
        found = attribute(found, resolved, source.path)  # a variant's errors at its own lines
        diags += [d for d in found if not (syntax_errors and d.code == "E110")]
        if syntax_errors and source.lost:
            diags = [d for d in diags if not _consequence(d, source.lost)]
        withheld = [
            d
            for d in diags
            if d.is_error and (self.examples_hold or d.code not in examples_check.ANSWER_CODES)
        ]
        ruleset = None if withheld else lowered.ruleset
        if ruleset is not None and bases and bases[0].ruleset is not None:
            ruleset = replace(
                ruleset, changes=changelog.annotate(ruleset.changes, bases[0].ruleset, ruleset)
            )
        return Compiled(source.path, ruleset, _sorted(diags), resolved)


def base_file(folder: Path, ruleset_id: str) -> Path | None:
    """The file of base ``ruleset_id`` beside a variant, by the front ends' suffixes in
    order (the DSL's first); None if none (or if the name is too long for any file system:
    that is E501 too)."""
    names = [f"{ruleset_id}{x}" for x in registry.suffixes()]
    if len(names[0].encode("utf-8", "surrogatepass")) > 255:
        return None
    return next((p for p in (folder / name for name in names) if p.is_file()), None)


def _notation(path: str) -> s.Notation:
    return registry.reading(path).notation


CONSEQUENCES = frozenset({"E101", "E206", "E504"})
"""Codes that a line dropped after a syntax error causes elsewhere: a reference to a name it
declared (unknown name, not a factor, nothing to override) or a decision left without its
`otherwise` row."""


def _consequence(d: Diagnostic, lost: tuple[str, ...]) -> bool:
    """Whether ``d`` only repeats a syntax error: it is about a name a dropped line declared."""
    return d.code in CONSEQUENCES and any(f"'{name}'" in d.message for name in lost)


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
    name = next(
        (st.item.name.text for st in source.statements if isinstance(st, s.RulesetDecl)), path.stem
    )
    return name if name == path.stem else f"{name} ({path.name})"


def ruleset_files(directory: Path) -> list[Path]:
    """The ruleset sources in a directory, sorted by name."""
    known = registry.suffixes()
    return sorted(p for p in directory.iterdir() if p.suffix in known and p.is_file())


def _pos(name: s.Name | None) -> s.Pos | None:
    return None if name is None else name.pos
