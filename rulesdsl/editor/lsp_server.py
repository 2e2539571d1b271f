"""The language server's state: the documents, what it may read, its compiles and their
diagnostics (the LSP features that read them are in :mod:`rulesdsl.editor.lsp`).

Edits are compiled after a pause that the document's last compile sets (none after a quick
compile, :data:`DEBOUNCE_SECONDS` after a slow one: :meth:`RulesServer.pause`) on a thread of
their own, with a :class:`rulesdsl.editor.lsp_compile.LiveCompiler` that keeps each file's
parse and compile while its text holds; an edit recompiles the edited document and the open
documents that extend it, each published as soon as it is compiled. Positions go out and come
in in the encoding the client negotiated.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from threading import Event, Lock
from typing import BinaryIO
from urllib.parse import unquote, urlparse

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path

from rulesdsl import ir
from rulesdsl.compiler import Compiled, ruleset_files
from rulesdsl.diagnostics import Diagnostic
from rulesdsl.editor.lsp_compile import LiveCompiler, Stale
from rulesdsl.editor.lsp_index import Index, build_index
from rulesdsl.editor.lsp_stream import serve
from rulesdsl.frontends import registry
from rulesdsl.frontends import syntax as s
from rulesdsl.sources import read_ruleset


def path_of(uri: str) -> str:
    """The file a URI names, normalised (``a/b/../c`` is ``a/c``, as every check sees it)."""
    path = unquote(urlparse(uri).path)
    return os.path.normpath(path) if path else path


def is_file_uri(uri: str) -> bool:
    """A ``file:`` URI of an absolute path (``untitled:`` and the like name no file)."""
    parsed = urlparse(uri)
    return parsed.scheme == "file" and os.path.isabs(unquote(parsed.path))


def uri_of(path: str) -> str:
    """The URI of a file, made absolute but with its links kept: a link's target, maybe
    outside the workspace, is never named."""
    return from_fs_path(os.path.abspath(path)) or path


def to_range(pos: s.Pos | None) -> t.Range:
    if pos is None or pos.line < 1:
        return t.Range(t.Position(0, 0), t.Position(0, 1))
    end_line = max(pos.end_line, pos.line)
    end_col = pos.end_column if pos.end_line >= pos.line else pos.column + 1
    return t.Range(
        t.Position(pos.line - 1, max(pos.column - 1, 0)),
        t.Position(end_line - 1, max(end_col - 1, 0)),
    )


def to_lsp(diag: Diagnostic, ranged: Callable[[s.Pos | None], t.Range] = to_range) -> t.Diagnostic:
    """A diagnostic as LSP sends it; ``ranged`` places a span (by default in code points)."""
    message = diag.message + (f"\nhint: {diag.hint}" if diag.hint else "")
    related = [
        t.DiagnosticRelatedInformation(t.Location(uri_of(r.pos.file), ranged(r.pos)), r.message)
        for r in diag.related
    ]
    return t.Diagnostic(
        range=ranged(diag.pos),
        message=message,
        code=diag.code,
        source="rulesdsl",
        severity=_severity(diag),
        related_information=related or None,
        data={"hint": diag.hint} if diag.hint else None,
    )


def _severity(diag: Diagnostic) -> t.DiagnosticSeverity:
    return t.DiagnosticSeverity.Error if diag.is_error else t.DiagnosticSeverity.Warning


DEBOUNCE_SECONDS = 0.15
"""How long the server waits after an edit to a document whose compile is slow for the next
edit before it compiles: a burst of edits typed closer together than this is compiled once,
after its last edit."""
QUICK_COMPILE_SECONDS = 0.1
"""A document whose last compile took less CPU time than this is compiled at once after each
edit: a compile that an edit makes stale gives up before its next file, and waiting would
cost more than compiling."""


@dataclass
class State:
    compiled: Compiled
    sources: list[s.SourceFile]
    """The file's syntax tree and its bases', bases first."""
    ruleset: ir.Ruleset | None
    text: str | None
    """The text compiled (None: the file could not be read)."""
    chain: frozenset[str] = frozenset()
    """The real paths of the file and its bases: an edit to one of them recompiles it."""
    version: int | None = None
    """The editor's version of the text compiled."""
    _index: Index | None = None

    @property
    def index(self) -> Index:
        """The names of the file and its bases (built on first use: diagnostics need none)."""
        if self._index is None:
            self._index = build_index(self.sources)
        return self._index

    def texts(self) -> dict[str, str]:
        return {os.path.abspath(src.path): src.text for src in self.sources}


@lru_cache(maxsize=8)
def split_lines(path: str, text: str) -> list[str]:
    """A file's lines as its front end counts them (YAML also breaks at \\r, U+0085...)."""
    return registry.split_lines(path, text)


class RulesServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("rulesdsl", "0.1.0", text_document_sync_kind=t.TextDocumentSyncKind.Full)
        self.compiler = LiveCompiler(self)
        self.states: dict[str, State] = {}
        self.last_good: dict[str, ir.Ruleset] = {}
        self.published: dict[str, set[str]] = {}
        """Per open document, the other files it published diagnostics on."""
        self.own: dict[str, list[t.Diagnostic]] = {}
        """The diagnostics each open document last published for itself."""
        self.lock = Lock()
        """Held while the compiler runs (on the compile thread or, for a request, the loop)."""
        self.debounce: float | None = None
        """A fixed pause after each edit; None: :meth:`pause` decides from the last compile."""
        self.compile_seconds: dict[str, float] = {}
        """How long each open document's last compile took (CPU time of the compile thread,
        which other work on the machine does not stretch)."""
        self.edits = 0
        """Counts edits: a compile started before the last one is stale."""
        self.dirty: dict[str, None] = {}
        """The documents edited since their last compile, in order."""
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Future[None] | None = None
        self._again = False
        self._compile_pool = ThreadPoolExecutor(1, thread_name_prefix="rulesdsl-compile")

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve on stdio through :mod:`rulesdsl.editor.lsp_stream` (pygls' own reader trusts
        every header)."""
        self._stop_event = Event()
        try:
            serve(
                self.protocol,
                self.thread_pool,
                self._stop_event,
                stdin or sys.stdin.buffer,
                stdout or sys.stdout.buffer,
            )
        finally:
            self.edits += 1  # a compile still running gives up at its next file
            self._compile_pool.shutdown(wait=False, cancel_futures=True)
            self.shutdown()  # type: ignore[no-untyped-call]

    def open_text(self, path: str) -> str | None:
        for doc in list(self.workspace.text_documents.values()):
            if is_file_uri(doc.uri) and str(Path(path_of(doc.uri)).resolve()) == path:
                text: str = doc.source
                return text
        return None

    # -- what the server may read ---------------------------------------------------------

    def roots(self) -> list[Path]:
        """The workspace folders; with none (an editor on a lone file), the folders of the
        open documents."""
        workspace = self.workspace
        uris = [f.uri for f in workspace.folders.values()]
        if workspace.root_uri:
            uris.append(workspace.root_uri)
        found = [Path(path_of(u)) for u in uris if is_file_uri(u)]
        if not found:
            found = [
                Path(path_of(d.uri)).parent
                for d in list(workspace.text_documents.values())
                if is_file_uri(d.uri)
            ]
        return found

    def refusal(self, path: str) -> str | None:
        """Why the server does not read ``path`` from the disk, or None when it may: only
        inside a workspace folder, and through no symbolic link below that folder."""
        if not os.path.isabs(path) or ".." in Path(path).parts:
            return "not a plain absolute path"
        target = Path(os.path.normpath(path))
        for root in self.roots():
            root = Path(os.path.normpath(root))
            if root not in target.parents:
                continue
            here = root
            for part in target.relative_to(root).parts:
                here = here / part
                if here.is_symlink():
                    return f"{here} is a symbolic link"
            return None
        return "it is outside the workspace folders"

    def text_of(self, uri: str) -> str | None:
        """A document's text: the editor's if open, else the file's when the server may read
        it and it is within the size limit; None otherwise."""
        doc = self.workspace.text_documents.get(unquote(uri))
        if doc is not None:
            text: str = doc.source
            return text
        if not is_file_uri(uri) or self.refusal(path_of(uri)) is not None:
            return None
        return read_ruleset(Path(path_of(uri)), self.compiler.limits).text

    def is_open(self, uri: str) -> bool:
        return unquote(uri) in self.workspace.text_documents

    # -- positions in the client's encoding ---------------------------------------------------

    def to_client(self, pos: s.Pos | None, texts: dict[str, str] | None = None) -> t.Range:
        """A span as the client counts it: lines from 0, characters in the negotiated
        encoding (UTF-16 unless the client asked for another)."""
        rng = to_range(pos)
        codec = self.workspace.position_codec
        if pos is None or codec.encoding == t.PositionEncodingKind.Utf32:
            return rng
        lines = self._lines_of(pos.file, texts)
        touched = {rng.start.line, rng.end.line}
        if all(i >= len(lines) or lines[i].isascii() for i in touched):
            return rng
        return codec.range_to_client_units(lines, rng)

    def from_client(self, uri: str, position: t.Position) -> t.Position:
        """A client's position in a document, with its character counted in code points."""
        codec = self.workspace.position_codec
        if codec.encoding == t.PositionEncodingKind.Utf32:
            return position
        lines = self._lines_of(path_of(uri), None)
        if position.line >= len(lines) or lines[position.line].isascii():
            return position
        found = codec.position_from_client_units(
            lines, t.Position(position.line, position.character)
        )
        return t.Position(found.line, found.character)

    def _lines_of(self, file: str, texts: dict[str, str] | None) -> list[str]:
        text = (texts or {}).get(os.path.abspath(file))
        if text is None:
            text = self.text_of(uri_of(file)) or ""
        return split_lines(file, text)

    # -- analysis ---------------------------------------------------------------------------

    def analyse(self, uri: str) -> State:
        """Compile a document (the compiler reuses what its edit left valid); the caller
        holds :attr:`lock`. Keeps nothing: see :meth:`keep`."""
        path = path_of(uri)
        doc = self.workspace.text_documents.get(unquote(uri))
        version = doc.version if doc is not None else None
        text = self.text_of(uri)
        if text is None:  # not open, and not a file the server may read: nothing to say
            return State(Compiled(path, None, []), [], None, None)
        compiled = self.compiler.compile_open(path, text)
        key = Path(path).resolve()
        chain = self.compiler.chain(key)
        sources: list[s.SourceFile] = []
        if not compiled.diagnostics or compiled.diagnostics[0].code != "E006":
            for file in chain:
                source = self.compiler.parsed_source(file)
                if source is None:
                    break
                sources.insert(0, source)
        if not self.is_open(uri):  # keep nothing for a file the editor has not opened
            self.compiler.drop(path)
        chained = frozenset(str(p) for p in chain)
        return State(compiled, sources, compiled.ruleset, text, chained, version)

    def keep(self, uri: str, state: State) -> None:
        if not self.is_open(uri):
            return
        if state.ruleset is not None:
            self.last_good[uri] = state.ruleset
        self.states[uri] = state

    def state(self, uri: str, fresh: bool = True) -> State:
        """A document's analysis, up to date with its text when ``fresh`` (a request that
        reads positions compiles a document edited since its last compile at once, without
        waiting for the pause); else the last one kept, if any (completion needs only the
        names, and must not compile at each keystroke)."""
        found = self.states.get(uri)
        if found is not None and (not fresh or found.text == self.text_of(uri)):
            return found
        with self.lock:
            state = self.analyse(uri)
        self.keep(uri, state)
        return state

    def forget(self, uri: str) -> None:
        """Drop what is kept for a document the editor closed, and the diagnostics it put on
        other files that no open document still explains."""
        self.states.pop(uri, None)
        self.last_good.pop(uri, None)
        self.dirty.pop(uri, None)
        self.own.pop(uri, None)
        self.compile_seconds.pop(uri, None)
        with self.lock:
            self.compiler.drop(path_of(uri))
        others = self.published.pop(uri, set())
        self.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        still = set().union(*self.published.values()) if self.published else set()
        for file in sorted(others - still):
            other = uri_of(file)
            if self.is_open(other):
                self.publish(other)
            else:
                self.text_document_publish_diagnostics(
                    t.PublishDiagnosticsParams(uri=other, diagnostics=[])
                )

    def base_of(self, folder: Path, name: str) -> Path | None:
        """The file of base ``name`` beside a variant, if the server may read it."""
        for path in (folder / f"{name}{x}" for x in registry.suffixes()):
            if self.refusal(str(path)) is None and path.is_file():
                return path
        return None

    def family(self, home: Path) -> list[Path]:
        """The ruleset files beside ``home`` (where its variants must be) that extend it,
        directly or through other variants; open documents not saved yet included. The
        caller holds :attr:`lock`."""
        target = home.resolve()
        folder = home.parent
        found = set(ruleset_files(folder)) if folder.is_dir() else set()
        known = registry.suffixes()
        for doc in list(self.workspace.text_documents.values()):
            path = Path(path_of(doc.uri))
            if is_file_uri(doc.uri) and path.parent == folder and path.suffix in known:
                found.add(path)
        out = []
        for path in sorted(found):
            if path.resolve() == target or self.refusal(str(path)) is not None:
                continue
            here, seen = path, {path.resolve()}
            while True:
                source, _ = self.compiler.parse_file(here)
                ext = (
                    next(
                        (st.base for st in source.statements if isinstance(st, s.ExtendsDecl)), None
                    )
                    if source is not None
                    else None
                )
                base = self.base_of(folder, ext.text) if ext is not None else None
                if base is None or base.resolve() in seen:
                    break
                if base.resolve() == target:
                    out.append(path)
                    break
                seen.add(base.resolve())
                here = base
        return out

    def uses(self, state: State, name: str) -> tuple[list[s.Name], set[str]]:
        """Every use of a name declared in ``state``'s chain: there, and in every file that
        extends the file declaring it (a rename from a base edits its variants); and every
        name those files declare."""
        home = Path(state.index.declarations[name].item.name.pos.file)
        found = {
            (os.path.abspath(n.pos.file), n.pos.line, n.pos.column): n
            for n in state.index.uses(name)
        }
        declared = set(state.index.declarations)
        with self.lock:
            for path in self.family(home):
                source, _ = self.compiler.parse_file(path)
                if source is None:
                    continue
                index = build_index([source])
                declared |= set(index.declarations)
                for n in index.uses(name):
                    found.setdefault((os.path.abspath(n.pos.file), n.pos.line, n.pos.column), n)
        return [found[k] for k in sorted(found)], declared

    def lines(self, uri: str) -> list[str]:
        text = self.text_of(uri)
        return text.splitlines(True) if text is not None else []

    # -- edits: debounced, compiled on the compile thread ---------------------------------------

    def schedule(self, uri: str, delay: float | None = None) -> None:
        """Compile ``uri`` (and the open documents that extend it) once the edits pause."""
        self.edits += 1
        self.dirty[uri] = None
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self.pause(uri) if delay is None else delay, self._kick)

    def pause(self, uri: str) -> float:
        """How long to wait after an edit of ``uri`` for the next one: none when its last
        compile was quick, :data:`DEBOUNCE_SECONDS` when it was slow (or unknown: never
        compiled)."""
        if self.debounce is not None:
            return self.debounce
        took = self.compile_seconds.get(uri)
        return 0.0 if took is not None and took < QUICK_COMPILE_SECONDS else DEBOUNCE_SECONDS

    def schedule_all(self) -> None:
        """Check every open document again (a file changed on the disk)."""
        for uri in list(self.workspace.text_documents):
            self.schedule(uri)

    def _kick(self) -> None:
        self._timer = None
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._round())
        else:
            self._again = True

    def targets(self, edited: list[str]) -> list[str]:
        """The edited documents, then every open document whose chain holds one of them."""
        paths = {str(Path(path_of(u)).resolve()) for u in edited}
        out = [u for u in edited if self.is_open(u)]
        for uri, state in list(self.states.items()):
            if uri not in out and self.is_open(uri) and state.chain & paths:
                out.append(uri)
        return out

    async def _round(self) -> None:
        """Compile the edited documents and their open variants, each published as soon as
        it is compiled (the edited one first: its diagnostics do not wait for its variants')."""
        loop = asyncio.get_running_loop()
        try:
            edits = self.edits
            targets = self.targets(list(self.dirty))
            self.dirty.clear()
            for i, uri in enumerate(targets):
                try:
                    state = await loop.run_in_executor(
                        self._compile_pool, self._analyse, uri, edits
                    )
                except Stale:  # a newer edit came: what is left is compiled after it
                    self.dirty.update((u, None) for u in targets[i:] if self.is_open(u))
                    break
                if state is None:  # the compiler failed on it (said on stderr)
                    continue
                if state.text != self.text_of(uri) or not self.is_open(uri):
                    if self.is_open(uri):
                        self.dirty[uri] = None  # out of date: compile it again
                    continue
                self.keep(uri, state)
                self.publish_state(uri, state)
        finally:
            if self._again or (self.dirty and self._timer is None):
                self._again = False
                loop.call_soon(self._kick)

    def _analyse(self, uri: str, edits: int) -> State | None:
        """Compile one document (on the compile thread); :class:`Stale` when an edit made it
        stale, None when the compiler failed (said on stderr)."""
        with self.lock:
            self.compiler.cancelled = lambda: self.edits != edits
            try:
                start = time.thread_time()  # CPU: a busy machine stretches the clock
                state = self.analyse(uri)
                self.compile_seconds[uri] = time.thread_time() - start
                return state
            except (Stale, RecursionError, MemoryError):
                raise
            except Exception as exc:  # a fault of the compiler: say it, go on
                print(f"rulesdsl lsp: compiling {uri} failed: {exc!r}", file=sys.stderr)
                return None
            finally:
                self.compiler.cancelled = lambda: False

    # -- publishing ---------------------------------------------------------------------------

    def publish(self, uri: str) -> None:
        """Compile a document now and publish its diagnostics."""
        with self.lock:
            state = self.analyse(uri)
        self.keep(uri, state)
        self.publish_state(uri, state)

    def publish_state(self, uri: str, state: State) -> None:
        own = os.path.abspath(path_of(uri))
        texts = state.texts()
        if state.text is not None:
            texts[own] = state.text
        by_file: dict[str, list[t.Diagnostic]] = {}
        caused: dict[str, list[t.Diagnostic]] = {}
        for diag in state.compiled.diagnostics:
            file = os.path.abspath(diag.pos.file) if diag.pos else own
            by_file.setdefault(file, []).append(self.to_lsp(diag, texts))
            for r in diag.related:  # an error this variant causes in a base line: show it there
                there = os.path.abspath(r.pos.file)
                # (E507, "the base has errors", is the base's own fault, not one this causes)
                if file == own and there != own and diag.code != "E507":
                    caused.setdefault(there, []).append(
                        t.Diagnostic(
                            range=self.to_client(r.pos, texts),
                            severity=_severity(diag),
                            code=diag.code,
                            source="rulesdsl",
                            message=f"{diag.message} (as {Path(own).name} changed this line)",
                            related_information=[
                                t.DiagnosticRelatedInformation(
                                    t.Location(uri, self.to_client(diag.pos, texts)), diag.message
                                )
                            ]
                            if diag.pos
                            else None,
                        )
                    )
        mine = by_file.pop(own, [])
        extends = next(
            (
                st.pos
                for src in state.sources
                if os.path.abspath(src.path) == own
                for st in src.statements
                if isinstance(st, s.ExtendsDecl)
            ),
            None,
        )
        for file, diags in by_file.items():  # what this variant breaks in a base, shown here too
            for d in diags:
                mine.append(
                    t.Diagnostic(
                        range=self.to_client(extends, texts),
                        severity=d.severity,
                        code=d.code,
                        source="rulesdsl",
                        message=f"in {Path(file).name}: {d.message}",
                        related_information=[
                            t.DiagnosticRelatedInformation(
                                t.Location(uri_of(file), d.range), d.message
                            )
                        ],
                    )
                )
        self.text_document_publish_diagnostics(
            t.PublishDiagnosticsParams(uri=uri, diagnostics=mine, version=state.version)
        )
        for file, diags in caused.items():
            by_file.setdefault(file, []).extend(diags)
        self.own[uri] = mine
        others = set(by_file)
        for file in self.published.get(uri, set()) | others:
            shown = by_file.get(file, [])
            if self.is_open(uri_of(file)):
                # An open base has its own diagnostics: show them with what this variant
                # causes there, never this variant's view of the base instead (its E507,
                # "the base has errors", would hide the base's own E270 at its line).
                shown = [*self.own.get(uri_of(file), []), *caused.get(file, [])]
            self.text_document_publish_diagnostics(
                t.PublishDiagnosticsParams(uri=uri_of(file), diagnostics=shown)
            )
        self.published[uri] = others

    def to_lsp(self, diag: Diagnostic, texts: dict[str, str]) -> t.Diagnostic:
        return to_lsp(diag, lambda pos: self.to_client(pos, texts))
