"""`rulesdsl lsp`: a language server over stdio (pygls), for .terrain and YAML rulesets.

Diagnostics are the compiler's own (the same codes, positions and hints as `rulesdsl check`),
computed on every change from the editor's unsaved text, bases included; an error a variant
causes in its base is published on the base's file too. Completion, hover, go to definition
(across `extends`), references, rename and document symbols come from the syntax trees (see
:mod:`rulesdsl.editor.lsp_index`) and the last good IR; formatting is `rulesdsl fmt`.

The client is not trusted (see :mod:`rulesdsl.editor.lsp_stream` for the transport's limits):
the server reads a file from the disk (a base, or a document a request names that is not
open) only inside the workspace folders, and never through a symbolic link
(:meth:`RulesServer.readable`); a document over :data:`MAX_DOCUMENT_BYTES` gets one
diagnostic instead of a compile; closing a document drops everything kept for it.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from threading import Event, Lock
from typing import BinaryIO, assert_never
from urllib.parse import unquote, urlparse

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path

from rulesdsl import ir, words
from rulesdsl.checks.reserved import is_reserved
from rulesdsl.compiler import SUFFIXES, Compiled, ruleset_files
from rulesdsl.diagnostics import Diagnostic
from rulesdsl.editor.lsp_actions import fixes, hint_of
from rulesdsl.editor.lsp_compile import LiveCompiler, Stale
from rulesdsl.editor.lsp_index import Index, build_index
from rulesdsl.editor.lsp_stream import serve
from rulesdsl.editor.lsp_tokens import TOKEN_MODIFIERS, TOKEN_TYPES, tokens
from rulesdsl.frontends import syntax as s
from rulesdsl.interchange.csv_chart import dsl_value
from rulesdsl.interchange.fmt import format_text
from rulesdsl.ir import IDENT
from rulesdsl.sources import MAX_FILE_BYTES, read_ruleset

MAX_DOCUMENT_BYTES = MAX_FILE_BYTES
"""The largest ruleset the language server compiles, open in the editor or read from the disk
as a base: the compiler's own file limit (:data:`rulesdsl.sources.MAX_FILE_BYTES`). A larger
document gets one diagnostic (E006) instead."""

KEYWORDS = words.STATEMENTS
"""The words that start a statement, from the language's one registry of its words."""
BLOCK_KEYWORDS = ("columns", "column", "when", "note", "modifier")
VALUE_KEYWORDS = ("impassable", "prohibited", "blocked", "as", "per", "full", "yes", "no")
INNER_KEYWORDS = words.KEYWORDS
"""The words inside a statement (``one per place``, ``at least``...), from the registry."""

Kind = words.ItemKind | words.PartKind
"""What a declared name is, as the index says it."""


def symbol_kind(kind: words.ItemKind) -> t.SymbolKind:
    """How an editor's outline shows a statement of that kind."""
    match kind:
        case "mode":
            return t.SymbolKind.EnumMember
        case "group":
            return t.SymbolKind.Enum
        case "context":
            return t.SymbolKind.Enum
        case "modifier":
            return t.SymbolKind.Operator
        case "layer":
            return t.SymbolKind.Class
        case "step":
            return t.SymbolKind.Function
        case "decision":
            return t.SymbolKind.Function
        case "table":
            return t.SymbolKind.Struct
        case "dice":
            return t.SymbolKind.Struct
        case "trigger":
            return t.SymbolKind.Event
        case "grid":
            return t.SymbolKind.Object
        case "param":
            return t.SymbolKind.Variable
        case "book":
            return t.SymbolKind.File
        case "ruleset":
            return t.SymbolKind.Module
        case "sight":
            return t.SymbolKind.Object
        case _:
            assert_never(kind)


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
"""How long the server waits after an edit for the next one before it compiles: a burst of
edits typed closer together than this is compiled once, after its last edit."""


@dataclass
class _State:
    compiled: Compiled
    sources: list[s.SourceFile]
    """The file's syntax tree and its bases', bases first."""
    ruleset: ir.Ruleset | None
    text: str | None
    """The text compiled (None: the file could not be read)."""
    chain: frozenset[str] = frozenset()
    """The real paths of the file and its bases: an edit to one of them recompiles it."""
    _index: Index | None = None

    @property
    def index(self) -> Index:
        """The names of the file and its bases (built on first use: diagnostics need none)."""
        if self._index is None:
            self._index = build_index(self.sources)
        return self._index

    def texts(self) -> dict[str, str]:
        return {os.path.abspath(src.path): src.text for src in self.sources}


def split_lines(path: str, text: str) -> list[str]:
    """A file's lines as its front end counts them (YAML also breaks at \\r, U+0085...)."""
    if path.endswith((".yaml", ".yml")):
        return _YAML_BREAK.split(text)
    return [line.removesuffix("\r") for line in text.split("\n")]


_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


class RulesServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("rulesdsl", "0.1.0", text_document_sync_kind=t.TextDocumentSyncKind.Full)
        self.compiler = LiveCompiler(self)
        self.states: dict[str, _State] = {}
        self.last_good: dict[str, ir.Ruleset] = {}
        self.published: dict[str, set[str]] = {}
        """Per open document, the other files it published diagnostics on."""
        self.lock = Lock()
        """Held while the compiler runs (on the compile thread or, for a request, the loop)."""
        self.debounce = DEBOUNCE_SECONDS
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

    def analyse(self, uri: str) -> _State:
        """Compile a document (the compiler reuses what its edit left valid); the caller
        holds :attr:`lock`. Keeps nothing: see :meth:`keep`."""
        path = path_of(uri)
        text = self.text_of(uri)
        if text is None:  # not open, and not a file the server may read: nothing to say
            return _State(Compiled(path, None, []), [], None, None)
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
        return _State(compiled, sources, compiled.ruleset, text, frozenset(str(p) for p in chain))

    def keep(self, uri: str, state: _State) -> None:
        if not self.is_open(uri):
            return
        if state.ruleset is not None:
            self.last_good[uri] = state.ruleset
        self.states[uri] = state

    def state(self, uri: str) -> _State:
        """A document's analysis, up to date with its text (a request compiles a document
        edited since its last compile at once, without waiting for the pause)."""
        found = self.states.get(uri)
        if found is not None and found.text == self.text_of(uri):
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
        for path in (folder / f"{name}{x}" for x in SUFFIXES):
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
        for doc in list(self.workspace.text_documents.values()):
            path = Path(path_of(doc.uri))
            if is_file_uri(doc.uri) and path.parent == folder and path.suffix in SUFFIXES:
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

    def uses(self, state: _State, name: str) -> tuple[list[s.Name], set[str]]:
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
        self._timer = loop.call_later(self.debounce if delay is None else delay, self._kick)

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
        loop = asyncio.get_running_loop()
        try:
            edits = self.edits
            targets = self.targets(list(self.dirty))
            self.dirty.clear()
            done = await loop.run_in_executor(self._compile_pool, self._analyse_all, targets, edits)
            for uri in targets:
                state = done.get(uri)
                if state is None or state.text != self.text_of(uri) or not self.is_open(uri):
                    if self.is_open(uri):
                        self.dirty[uri] = None  # given up or out of date: compile it again
                    continue
                self.keep(uri, state)
                self.publish_state(uri, state)
        finally:
            if self._again or (self.dirty and self._timer is None):
                self._again = False
                loop.call_soon(self._kick)

    def _analyse_all(self, uris: list[str], edits: int) -> dict[str, _State]:
        """Compile each document (on the compile thread), until an edit makes it stale."""
        done: dict[str, _State] = {}
        with self.lock:
            self.compiler.cancelled = lambda: self.edits != edits
            try:
                self.compiler.refresh()
                for uri in uris:
                    done[uri] = self.analyse(uri)
            except Stale:
                pass
            finally:
                self.compiler.cancelled = lambda: False
        return done

    # -- publishing ---------------------------------------------------------------------------

    def publish(self, uri: str) -> None:
        """Compile a document now and publish its diagnostics."""
        with self.lock:
            self.compiler.refresh()
            state = self.analyse(uri)
        self.keep(uri, state)
        self.publish_state(uri, state)

    def publish_state(self, uri: str, state: _State) -> None:
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
                if file == own and there != own:
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
            t.PublishDiagnosticsParams(uri=uri, diagnostics=mine)
        )
        for file, diags in caused.items():
            by_file.setdefault(file, []).extend(diags)
        others = set(by_file)
        for file in self.published.get(uri, set()) | others:
            self.text_document_publish_diagnostics(
                t.PublishDiagnosticsParams(uri=uri_of(file), diagnostics=by_file.get(file, []))
            )
        self.published[uri] = others

    def to_lsp(self, diag: Diagnostic, texts: dict[str, str]) -> t.Diagnostic:
        return to_lsp(diag, lambda pos: self.to_client(pos, texts))


def did_open(ls: RulesServer, params: t.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, delay=0)


def did_change(ls: RulesServer, params: t.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


def did_save(ls: RulesServer, params: t.DidSaveTextDocumentParams) -> None:
    ls.schedule_all()  # a saved file may be the base of others read from the disk


def did_close(ls: RulesServer, params: t.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    dependents = ls.targets([uri])
    ls.forget(uri)
    for other in dependents:  # they now read this base from the disk
        if other != uri:
            ls.schedule(other)


# ---- completion ----------------------------------------------------------------------------


def _line_before(ls: RulesServer, uri: str, pos: t.Position) -> str:
    lines = ls.lines(uri)
    pos = ls.from_client(uri, pos)
    return lines[pos.line][: pos.character] if pos.line < len(lines) else ""


def _block_of(lines: Sequence[str], line: int) -> str:
    """The first line of the block around 0-based ``line`` ("" at top level)."""
    for i in range(min(line, len(lines)) - 1, -1, -1):
        text = lines[i]
        if text[:1].isalpha():
            header, j = _code(text), i
            while header.endswith("\\") and j + 1 < min(line, len(lines)):  # `\` goes on
                j += 1
                header = header[:-1].rstrip() + " " + _code(lines[j]).strip()
            return header if header.endswith("{") else ""
        if text.startswith("}"):
            return ""
    return ""


def _code(line: str) -> str:
    """A line without its comment and trailing blanks (a `#` in a string is kept)."""
    return re.sub(r'("([^"\\]|\\.)*")|#.*', lambda m: m.group(1) or "", line).rstrip()


DECISION_WORDS = ("and", "not", "otherwise", "over", "full")


def _kinds_at(before: str, index: Index, block: str = "") -> tuple[list[Kind], list[str]]:
    """(kinds of declared names, keywords) that fit after ``before`` on the line, inside the
    block that ``block`` (its first line) opens."""
    code = re.sub(r'"([^"\\]|\\.)*"', '""', before)
    if block.startswith("decision") and before[:1].isspace() and "->" not in code:
        header = re.sub(r'"([^"\\]|\\.)*"', '""', block)
        inputs = re.findall(r"[(,]\s*([A-Za-z_]\w*)\s+[A-Za-z_]\w*", header)
        return ["table"], [*inputs, *DECISION_WORDS]
    stripped = code.strip()
    word = re.compile(r"[A-Za-z_]\w*$")
    head = word.sub("", stripped).rstrip()
    if "[" in code and "]" not in code[code.rindex("[") :]:
        opened = code[code.rindex("[") + 1 :]
        return (["book"], []) if not opened.strip() or word.fullmatch(opened.strip()) else ([], [])
    if re.search(r"\bas\s+\w*$", code):
        return ["feature"], []
    if re.search(r"\bby\s+\w*$", code):
        return ["context"], ["mode"]
    if re.search(r"\broll\s+\w*$", code):
        return ["dice"], []
    if re.search(r"\bwith\s+\w*$", code) and stripped.startswith("trigger"):
        return ["dice modifier"], []
    if re.search(r"^\s*(override|remove)\s+[\w.]*$", code):
        return [
            d
            for d in (
                "feature",
                "factor",
                "mode",
                "table",
                "dice",
                "param",
                "row",
                "context value",
                "layer",
                "modifier",
            )
        ], []
    if re.search(r"^\s*(group\b.*:|when\b|exclude\b)", code):
        kinds: list[Kind] = ["mode"] if stripped.startswith("group") else ["feature", "factor"]
        return kinds, []
    if "|" in code:  # a cell: exceptions are keyed by modes, groups or context values
        return ["mode", "group", "context value", "param"], list(VALUE_KEYWORDS)
    if not head:
        indented = before[:1].isspace()
        return [], list(BLOCK_KEYWORDS if indented else KEYWORDS)
    return [], list(INNER_KEYWORDS)  # inside a statement: the words that go on one


def completion(ls: RulesServer, params: t.CompletionParams) -> t.CompletionList:
    uri = params.text_document.uri
    if ls.text_of(uri) is None:  # not open, and not a file the server may read
        return t.CompletionList(is_incomplete=False, items=[])
    state = ls.state(uri)
    lines = ls.lines(uri)
    block = _block_of(lines, params.position.line)
    before = _line_before(ls, uri, params.position)
    if path_of(uri).endswith((".yaml", ".yml")):  # yaml-language-server completes the keys
        in_value = ":" in before
        kinds: list[Kind] = (
            ["mode", "group", "context value", "param", "feature"] if in_value else []
        )
        keywords = list(VALUE_KEYWORDS) if in_value else []
    else:
        kinds, keywords = _kinds_at(before, state.index, block)
    items = []
    for kind in kinds:
        for name in state.index.names(kind):
            decl = state.index.declarations[name]
            label = next((lb.text for lb in decl.item.labels), "")
            items.append(
                t.CompletionItem(
                    label=name,
                    kind=t.CompletionItemKind.Value,
                    detail=f"{decl.kind}" + (f": {label}" if label else ""),
                    sort_text=f"0{name}",
                )
            )
    items += [
        t.CompletionItem(label=k, kind=t.CompletionItemKind.Keyword, sort_text=f"1{k}")
        for k in keywords
    ]
    return t.CompletionList(is_incomplete=False, items=items)


# ---- hover, definition, references, rename ----------------------------------------------------


def _name_at(ls: RulesServer, uri: str, pos: t.Position) -> tuple[_State, s.Name | None]:
    state = ls.state(uri)
    path = str(path_of(uri))
    pos = ls.from_client(uri, pos)
    found = state.index.at(path, pos.line + 1, pos.character + 1)
    return state, found


def hover_text(state: _State, name: str, ruleset: ir.Ruleset | None) -> str | None:
    decl = state.index.declarations.get(name)
    if decl is None:
        return None
    lines = [f"**{name}** ({decl.kind}" + (f" of {decl.parent}" if decl.parent else "") + ")"]
    declared = [st for st, _, _ in state.index.statements if isinstance(st, s.LanguagesDecl)]
    langs = (
        ruleset.languages
        if ruleset is not None
        else tuple(n.text for n in declared[-1].languages)
        if declared
        else ("en",)
    )
    for label in decl.item.labels:
        lang = label.lang or (langs[0] if langs else "")
        lines.append(f"- {lang}: {label.text}")
    source = decl.item.extras.source
    parent = state.index.declarations.get(decl.parent) if decl.parent else None
    if source is None and parent is not None:  # a row's source is its block's
        source = parent.item.extras.source
    if source is not None:
        book = state.index.declarations.get(source.book.text)
        title = (
            next((lb.text for lb in book.item.labels), source.book.text)
            if book
            else source.book.text
        )
        where = " ".join(
            x for x in (source.page, f'"{source.detail}"' if source.detail else "") if x
        )
        lines.append(f"\nSource: {title}" + (f", {where}" if where else ""))
    if ruleset is not None:
        for modifier in ruleset.modifiers:
            values = modifier.values.get(name)
            if values:
                shown = ", ".join(
                    f"{k} {dsl_value(v)}" if k else dsl_value(v) for k, v in values.items()
                )
                lines.append(f"\n{modifier.id}: {shown}")
    if ruleset is not None and words.is_feature(decl.kind):
        feature = next((f for f in ruleset.features if f.id == name), None)
        if feature is not None:
            unit = ruleset.units.get("cost", "")
            lines.append("\n| mode | cost |\n|---|---|")
            lines += [
                f"| {mode} | {dsl_value(v)}"
                + (f" {unit}" if isinstance(v, ir.Number) and unit else "")
                + " |"
                for mode, v in feature.costs.items()
            ]
    return "\n".join(lines)


def hover(ls: RulesServer, params: t.HoverParams) -> t.Hover | None:
    uri = params.text_document.uri
    state, name = _name_at(ls, uri, params.position)
    if name is None:
        return None
    text = hover_text(state, name.text, state.ruleset or ls.last_good.get(uri))
    if text is None:
        return None
    return t.Hover(t.MarkupContent(t.MarkupKind.Markdown, text), ls.to_client(name.pos))


def definition(ls: RulesServer, params: t.DefinitionParams) -> t.Location | None:
    state, name = _name_at(ls, params.text_document.uri, params.position)
    if name is None:
        return None
    for st, _, _ in state.index.statements:  # `extends base@...`: the base file
        if isinstance(st, s.ExtendsDecl) and st.base.pos == name.pos:
            base = ls.base_of(Path(name.pos.file).parent, name.text)
            zero = t.Range(t.Position(0, 0), t.Position(0, 0))
            return t.Location(uri_of(str(base)), zero) if base else None
    decl = state.index.declarations.get(name.text)
    if decl is None:
        return None
    return t.Location(uri_of(decl.item.name.pos.file), ls.to_client(decl.item.name.pos))


def references(ls: RulesServer, params: t.ReferenceParams) -> list[t.Location]:
    state, name = _name_at(ls, params.text_document.uri, params.position)
    if name is None or name.text not in state.index.declarations:
        return []
    decl = state.index.declarations[name.text].item.name.pos
    return [
        t.Location(uri_of(n.pos.file), ls.to_client(n.pos))
        for n in ls.uses(state, name.text)[0]
        if params.context.include_declaration or n.pos != decl
    ]


def rename(ls: RulesServer, params: t.RenameParams) -> t.WorkspaceEdit | None:
    state, name = _name_at(ls, params.text_document.uri, params.position)
    if name is None or name.text not in state.index.declarations:
        return None
    new = params.new_name
    uses, declared = ls.uses(state, name.text)
    if (
        not re.fullmatch(IDENT.regex, new)
        or len(new) > IDENT.max_length
        or is_reserved(new)
        or new in declared
    ):
        return None  # not a name the compiler would accept here (E103, E102)
    changes: dict[str, list[t.TextEdit]] = {}
    for use in uses:
        changes.setdefault(uri_of(use.pos.file), []).append(
            t.TextEdit(ls.to_client(use.pos), params.new_name)
        )
    return t.WorkspaceEdit(changes=changes)


# ---- symbols and formatting ------------------------------------------------------------------


def document_symbols(ls: RulesServer, params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
    uri = params.text_document.uri
    state = ls.state(uri)
    own = os.path.abspath(path_of(uri))
    out = []
    for st, kind, name in state.index.statements:
        item: s.Item | None = getattr(st, "item", None)
        if item is None or kind is None or os.path.abspath(item.pos.file) != own:
            continue
        children = [
            t.DocumentSymbol(
                name=d.name,
                kind=t.SymbolKind.Field,
                detail=d.kind,
                range=ls.to_client(d.item.pos),
                selection_range=ls.to_client(d.item.name.pos),
            )
            for d in state.index.declarations.values()
            if d.parent == name and os.path.abspath(d.item.pos.file) == own
        ]
        label = next((lb.text for lb in item.labels), None)
        out.append(
            t.DocumentSymbol(
                name=name,
                kind=symbol_kind(kind),
                detail=kind + (f": {label}" if label else ""),
                range=ls.to_client(item.pos),
                selection_range=ls.to_client(item.name.pos),
                children=children or None,
            )
        )
    return out


def formatting(ls: RulesServer, params: t.DocumentFormattingParams) -> list[t.TextEdit]:
    uri = params.text_document.uri
    text = ls.text_of(uri)
    if not path_of(uri).endswith(".terrain") or not ls.is_open(uri) or text is None:
        return []
    if len(text.encode("utf-8", "surrogatepass")) > MAX_DOCUMENT_BYTES:
        return []
    source, errors = ls.compiler.parser.parse(text, path_of(uri))
    if source is None or errors:
        return []
    formatted = format_text(text)
    if formatted == text:
        return []
    lines = text.split("\n")
    end = t.Position(len(lines), 0)
    return [t.TextEdit(t.Range(t.Position(0, 0), end), formatted)]


# ---- code actions and semantic tokens ----------------------------------------------------------


def code_actions(ls: RulesServer, params: t.CodeActionParams) -> list[t.CodeAction]:
    """A quick fix for each diagnostic in the range whose hint names one (see
    :mod:`rulesdsl.editor.lsp_actions`)."""
    uri = params.text_document.uri
    text = ls.text_of(uri)
    if text is None:
        return []
    lines = split_lines(path_of(uri), text)
    out = []
    for diag in params.context.diagnostics:
        if diag.source != "rulesdsl" or not isinstance(diag.code, str):
            continue
        start = ls.from_client(uri, diag.range.start)
        end = ls.from_client(uri, diag.range.end)
        if end.line != start.line:
            end = t.Position(start.line, len(lines[start.line]) if start.line < len(lines) else 0)
        hint = hint_of(diag.message, diag.data)
        for fix in fixes(diag.code, hint, lines, start.line, start.character, end.character):
            span = s.Pos(path_of(uri), fix.line + 1, fix.start + 1, fix.line + 1, fix.end + 1)
            edit = t.TextEdit(ls.to_client(span, {os.path.abspath(path_of(uri)): text}), fix.text)
            out.append(
                t.CodeAction(
                    title=fix.title,
                    kind=t.CodeActionKind.QuickFix,
                    diagnostics=[diag],
                    is_preferred=fix.preferred,
                    edit=t.WorkspaceEdit(changes={uri: [edit]}),
                )
            )
    return out


LEGEND = t.SemanticTokensLegend(
    token_types=list(TOKEN_TYPES), token_modifiers=list(TOKEN_MODIFIERS)
)


def semantic_tokens(ls: RulesServer, params: t.SemanticTokensParams) -> t.SemanticTokens:
    """Every token of a `.terrain` document (:mod:`rulesdsl.editor.lsp_tokens`), as LSP
    encodes them: five numbers each, positions relative to the token before."""
    uri = params.text_document.uri
    path = path_of(uri)
    text = ls.text_of(uri)
    if text is None or not path.endswith(".terrain"):
        return t.SemanticTokens(data=[])
    if len(text.encode("utf-8", "surrogatepass")) > MAX_DOCUMENT_BYTES:
        return t.SemanticTokens(data=[])
    state = ls.state(uri)
    lines = split_lines(path, text)
    units = ls.workspace.position_codec.client_num_units
    data: list[int] = []
    last_line = last_start = 0
    for tok in tokens(text, state.index if state.sources else None, path):
        line = lines[tok.line] if tok.line < len(lines) else ""
        start = tok.start if line.isascii() else units(line[: tok.start])
        length = len(tok.text) if tok.text.isascii() else units(tok.text)
        delta = tok.line - last_line
        data += [
            delta,
            start - last_start if delta == 0 else start,
            length,
            TOKEN_TYPES.index(tok.type),
            1 if tok.declaration else 0,
        ]
        last_line, last_start = tok.line, start
    return t.SemanticTokens(data=data)


def make_server() -> RulesServer:
    """A server with every feature registered (one per `rulesdsl lsp` process)."""
    server = RulesServer()
    server.feature(t.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(t.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(t.TEXT_DOCUMENT_DID_SAVE)(did_save)
    server.feature(t.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(
        t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=[" ", "[", ",", "|"])
    )(completion)
    server.feature(t.TEXT_DOCUMENT_HOVER)(hover)
    server.feature(t.TEXT_DOCUMENT_DEFINITION)(definition)
    server.feature(t.TEXT_DOCUMENT_REFERENCES)(references)
    server.feature(t.TEXT_DOCUMENT_RENAME)(rename)
    server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(document_symbols)
    server.feature(t.TEXT_DOCUMENT_FORMATTING)(formatting)
    server.feature(
        t.TEXT_DOCUMENT_CODE_ACTION,
        t.CodeActionOptions(code_action_kinds=[t.CodeActionKind.QuickFix]),
    )(code_actions)
    server.feature(t.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)(semantic_tokens)
    return server


def main() -> None:
    make_server().start_io()
