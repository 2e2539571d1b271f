"""The language server's compiler: the editor's unsaved text, each file parsed and compiled
once per text it holds.

A :class:`LiveCompiler` keeps the compiler's caches between compiles and keys each entry by a
*stamp* of the file it came from: the editor's text when the file is open, else the file's
modification time, size and inode. A parse is reused while its file's stamp holds; a compiled
file is reused while the stamps of every file of its `extends` chain hold (so editing a base
recompiles its variants, and editing a variant never recompiles its base). Each compile checks
:attr:`LiveCompiler.cancelled` before each file it parses or compiles and gives up with
:class:`Stale` when a newer edit has made its result useless.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from rulesdsl.compiler import Compiled, Compiler, base_file
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.editor.lsp_reparse import reparse
from rulesdsl.frontends import registry
from rulesdsl.frontends import syntax as s
from rulesdsl.sheet_languages import project_words_of
from rulesdsl.sources import check_text

Stamp = tuple[object, ...]
"""What a file's text was when it was read: ("open", text), ("disk", mtime, size, inode) or
("none",) for a file that is not there."""


LOG_LENGTH = 64
"""How many parses and compiles :class:`LiveCompiler` remembers (for tests and benches)."""


class Stale(Exception):
    """A newer edit came while compiling: the result would be out of date."""


class Documents(Protocol):
    """What the compiler asks the server: the editor's text of a file, and whether the file
    may be read from the disk."""

    def open_text(self, path: str) -> str | None: ...

    def refusal(self, path: str) -> str | None: ...


class LiveCompiler(Compiler):
    """A Compiler that reads open documents from the editor and keeps what is still valid."""

    def __init__(self, documents: Documents) -> None:
        super().__init__()
        self.documents = documents
        self._stamps: dict[Path, Stamp] = {}
        """The stamp of each parsed file, when it was parsed."""
        self._deps: dict[Path, dict[Path, Stamp]] = {}
        """Each compiled file's chain (itself and its bases) with their stamps."""
        self.cancelled: Callable[[], bool] = lambda: False
        """Asked before each file is parsed or compiled; True makes the compile raise Stale."""
        self.parsed: deque[str] = deque(maxlen=LOG_LENGTH)
        """The last files parsed, in order (tests count them)."""
        self.compiled: deque[str] = deque(maxlen=LOG_LENGTH)
        """The last files compiled (resolved, lowered and checked), in order."""

    # -- reading ----------------------------------------------------------------------------

    def read(self, path: Path) -> tuple[str | None, list[Diagnostic]]:
        refused = self.documents.refusal(str(path))
        if refused is not None:
            return None, [
                error(
                    "E003",
                    f"cannot read {path}: {refused}",
                    s.Pos(str(path), 1, 1, 1, 1),
                    "the language server reads bases only inside the workspace folders "
                    "and never through a symbolic link",
                )
            ]
        text = self.documents.open_text(str(path.resolve()))
        if text is None:  # the ruleset reader: no link, no special file, the size limit
            return super().read(path)
        loaded = check_text(text, str(path), self.limits)  # an open base: limits as on disk
        return loaded.text, list(loaded.diagnostics)

    def stamp(self, path: Path) -> Stamp:
        text = self.documents.open_text(str(path.resolve()))
        if text is not None:
            return ("open", text)
        try:
            st = path.stat()
        except OSError:
            return ("none",)
        return ("disk", st.st_mtime_ns, st.st_size, st.st_ino)

    # -- the caches ---------------------------------------------------------------------------

    def _check(self) -> None:
        if self.cancelled():
            raise Stale

    def parse_file(self, path: Path) -> tuple[s.SourceFile | None, list[Diagnostic]]:
        key = path.resolve()
        stamp = self.stamp(path)
        if self._stamps.get(key) != stamp:
            self._parsed.pop(key, None)
        if key not in self._parsed:
            self._check()
            self.parsed.append(str(path))
            self._stamps[key] = stamp
        return super().parse_file(path)

    def parse_open(self, path: str, text: str) -> tuple[s.SourceFile | None, list[Diagnostic]]:
        """An open document's syntax tree, parsed once per text."""
        key = Path(path).resolve()
        stamp: Stamp = ("open", text)
        if self._stamps.get(key) != stamp or key not in self._parsed:
            self._check()
            self.parsed.append(path)
            self._parsed[key] = self._edited(key, path, text) or self.parse_text(text, path)
            self._stamps[key] = stamp
        return self._parsed[key]

    def _edited(
        self, key: Path, path: str, text: str
    ) -> tuple[s.SourceFile | None, list[Diagnostic]] | None:
        """The file's last parse, if clean, with only what the edit changed parsed again
        (:func:`rulesdsl.editor.lsp_reparse.reparse`): None for another front end's file, or
        when the whole text must be parsed."""
        old, diags = self._parsed.get(key, (None, []))
        if old is None or diags or not registry.reading(path).dsl_text:
            return None
        source = reparse(self.parser, path, old, text)
        return None if source is None else (source, [])

    def compile_source(
        self, source: s.SourceFile, base_dir: Path, syntax_errors: list[Diagnostic] | None = None
    ) -> Compiled:
        self._check()
        self.compiled.append(source.path)
        outer = self.sheet_words  # a base compiled inside a variant's compile: put it back
        self.sheet_words = project_words_of(Path(source.path))  # its project's catalogs (W610)
        try:
            return super().compile_source(source, base_dir, syntax_errors)
        finally:
            self.sheet_words = outer

    def compile_file(self, path: Path) -> Compiled:
        compiled = super().compile_file(path)
        for key in self._compiled.keys() - self._deps.keys():
            self._deps[key] = self.chain_stamps(key)
        return compiled

    def compile_open(self, path: str, text: str) -> Compiled:
        """An open document compiled from ``text`` (reused while it and its bases hold)."""
        key = Path(path).resolve()
        self.refresh()
        if key in self._compiled and self._deps.get(key, {}).get(key) == ("open", text):
            return self._compiled[key]
        loaded = check_text(text, path, self.limits)
        if loaded.text is None:
            return Compiled(path, None, list(loaded.diagnostics))
        source, diags = self.parse_open(path, loaded.text)
        if source is None:
            return Compiled(path, None, diags)
        compiled = self.compile_source(source, Path(path).parent, diags)
        self._compiled[key] = compiled
        self._deps[key] = self.chain_stamps(key)
        return compiled

    def chain_stamps(self, key: Path) -> dict[Path, Stamp]:
        """The stamps a file's compile depends on: its own and its bases', as parsed; a base
        that is missing counts by its `.terrain` path (creating it changes the outcome); then
        the project catalogs its W610 read (:meth:`catalog_stamps`)."""
        catalogs = self.catalog_stamps(key)
        found: dict[Path, Stamp] = {}
        while key not in found:
            found[key] = self._stamps.get(key, ("none",))
            source = self._parsed.get(key, (None, []))[0]
            ext = (
                next((st.base for st in source.statements if isinstance(st, s.ExtendsDecl)), None)
                if source is not None
                else None
            )
            if ext is None:
                break
            base = base_file(key.parent, ext.text)
            if base is None:
                missing = key.parent / f"{ext.text}{registry.suffixes()[0]}"
                found[missing] = self.stamp(missing)
                break
            key = base.resolve()
        return found | catalogs

    def catalog_stamps(self, key: Path) -> dict[Path, Stamp]:
        """The stamps of the project catalogs a file's W610 read: its project's ``i18n/``
        folder (a catalog added or removed) and each ``.po`` in it."""
        words = project_words_of(key)
        if words is None:
            return {}
        found = {words: self.stamp(words)}
        if words.is_dir():
            found.update((po, self.stamp(po)) for po in sorted(words.glob("*.po")))
        return found

    def parsed_source(self, key: Path) -> s.SourceFile | None:
        """A file's syntax tree as last parsed (None if it was not, or did not parse)."""
        return self._parsed.get(key, (None, []))[0]

    def chain(self, key: Path) -> list[Path]:
        """The files a compiled file was compiled from, itself first."""
        return list(self._deps.get(key, {key: ("none",)}))

    def refresh(self) -> None:
        """Drop every compiled file whose chain changed since it was compiled (called before
        each compile of an open document)."""
        for key, deps in list(self._deps.items()):
            if any(self.stamp(p) != stamp for p, stamp in deps.items()):
                self._compiled.pop(key, None)
                del self._deps[key]
        for key in self._compiled.keys() - self._deps.keys():  # a compile given up half-way
            del self._compiled[key]
        self.sources.clear()  # the server prints no source lines

    def drop(self, path: str) -> None:
        """Forget a file's parse and compile (its document closed: its text is the disk's)."""
        key = Path(path).resolve()
        self._parsed.pop(key, None)
        self._stamps.pop(key, None)
        self._compiled.pop(key, None)
        self._deps.pop(key, None)
        self.sources.pop(path, None)

    def forget(self) -> None:
        """Drop everything kept: the next compile reads and parses every file again."""
        self._parsed.clear()
        self._compiled.clear()
        self._stamps.clear()
        self._deps.clear()
        self.sources.clear()
        self.parsed.clear()
        self.compiled.clear()
