"""Parsed files kept by their path and text, so that a process parses each text once
(issue 44).

A front end's answer is a pure function of the text and the path (the path is in every
position): the syntax tree is frozen dataclasses and tuples of plain values, and diagnostics
are frozen (tests/test_parse_memo.py walks every bundled ruleset's tree to hold this). So a
:class:`rulesdsl.compiler.Compiler` asks :data:`PARSED` before it parses a file it reads or a
text it compiles: a base is parsed once for all the variants that extend it, though each
compiler is new (commands that make a compiler of their own, the language server's bases, the
tests: ~5,000 parses in the tests, many of the same bundled files). Each caller gets the same
tree and a list of its own of the diagnostics. The language server's open documents are not
kept here: it keeps them itself, and lets them go when they close.

It is bounded: the most recent :data:`ENTRIES` texts, none over :data:`LARGEST` characters
and :data:`CHARACTERS` in all (a tree takes 20-50 bytes per character of its text).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulesdsl.diagnostics import Diagnostic
    from rulesdsl.frontends.syntax import SourceFile

    Parsed = tuple[SourceFile | None, list[Diagnostic]]

ENTRIES = 64
LARGEST = 256 << 10
CHARACTERS = 1 << 20


class ParsedTexts:
    """The last parses, by (path, text), most recent last."""

    def __init__(
        self, entries: int = ENTRIES, largest: int = LARGEST, characters: int = CHARACTERS
    ) -> None:
        self.entries, self.largest, self.characters = entries, largest, characters
        self._kept: dict[tuple[str, str], tuple[SourceFile | None, tuple[Diagnostic, ...]]] = {}
        self._size = 0
        self._lock = threading.Lock()
        self._digests: dict[int, str] = {}
        """The statements' digest of each kept tree that was asked for one, by the tree's id
        (a tree is kept alive by its entry, and its digest goes with it)."""

    def get(self, path: str, text: str) -> Parsed | None:
        """The parse of ``text`` at ``path`` if kept: its tree, and a new list of its
        diagnostics."""
        if len(text) > self.largest:
            return None
        key = (path, text)
        with self._lock:
            found = self._kept.pop(key, None)
            if found is None:
                return None
            self._kept[key] = found  # the most recent now
        return found[0], list(found[1])

    def put(self, path: str, text: str, parsed: Parsed) -> None:
        """Keep ``parsed``, the parse of ``text`` at ``path`` (the caller keeps its list)."""
        if len(text) > self.largest:
            return
        key = (path, text)
        with self._lock:
            if key in self._kept:
                return
            self._kept[key] = (parsed[0], tuple(parsed[1]))
            self._size += len(text)
            while len(self._kept) > self.entries or self._size > self.characters:
                oldest = next(iter(self._kept))
                self._digests.pop(id(self._kept.pop(oldest)[0]), None)
                self._size -= len(oldest[1])

    def digest(self, source: SourceFile, make: Callable[[SourceFile], str]) -> str:
        """``make(source)``, made once while ``source`` is a kept tree: every compile of a
        kept parse (a base, a file compiled by several commands or compilers) asks its
        statements' digest again (:func:`rulesdsl.variants.resolve.resolve`), about a tenth
        of a compile (issue 44). Any other tree's is made each time."""
        with self._lock:
            found = self._digests.get(id(source))
        if found is not None:
            return found
        made = make(source)
        with self._lock:
            if any(tree is source for tree, _ in self._kept.values()):
                self._digests[id(source)] = made
        return made

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._digests.clear()
            self._size = 0

    def __len__(self) -> int:
        return len(self._kept)


PARSED = ParsedTexts()
"""The process's parses, shared by every compiler (:attr:`Compiler.parsed_texts`)."""
