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

import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from threading import Event
from typing import BinaryIO, assert_never
from urllib.parse import unquote, urlparse

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path

from rulesdsl import ir, words
from rulesdsl.checks.reserved import is_reserved
from rulesdsl.compiler import SUFFIXES, Compiled, Compiler
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.editor.lsp_examples import example_hover
from rulesdsl.editor.lsp_index import Index, build_index
from rulesdsl.editor.lsp_stream import serve
from rulesdsl.frontends import syntax as s
from rulesdsl.interchange.csv_chart import dsl_value
from rulesdsl.interchange.fmt import format_text
from rulesdsl.ir import IDENT
from rulesdsl.sources import MAX_FILE_BYTES, check_text, read_ruleset

MAX_DOCUMENT_BYTES = MAX_FILE_BYTES
"""The largest ruleset the language server compiles, open in the editor or read from the disk
as a base: the compiler's own file limit (:data:`rulesdsl.sources.MAX_FILE_BYTES`). A larger
document gets one diagnostic (E006) instead."""

KEYWORDS = words.STATEMENTS
"""The words that start a statement, from the language's one registry of its words."""
BLOCK_KEYWORDS = ("columns", "column", "when", "note", "modifier")
VALUE_KEYWORDS = ("impassable", "prohibited", "blocked", "as", "per", "full", "yes", "no")

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


def to_lsp(diag: Diagnostic) -> t.Diagnostic:
    message = diag.message + (f"\nhint: {diag.hint}" if diag.hint else "")
    related = [
        t.DiagnosticRelatedInformation(t.Location(uri_of(r.pos.file), to_range(r.pos)), r.message)
        for r in diag.related
    ]
    return t.Diagnostic(
        range=to_range(diag.pos),
        message=message,
        code=diag.code,
        source="rulesdsl",
        severity=t.DiagnosticSeverity.Error if diag.is_error else t.DiagnosticSeverity.Warning,
        related_information=related or None,
    )


class _LiveCompiler(Compiler):
    """A Compiler that reads open documents from the editor instead of the disk."""

    def __init__(self, server: RulesServer) -> None:
        super().__init__()
        self.server = server

    def read(self, path: Path) -> tuple[str | None, list[Diagnostic]]:
        refused = self.server.refusal(str(path))
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
        doc = self.server.open_text(str(path.resolve()))
        if doc is None:
            return super().read(
                path
            )  # the ruleset reader: no link, no special file, the size limit
        loaded = check_text(doc, str(path), self.limits)  # an open base: limits as on disk
        self.sources[str(path)] = loaded.quoted or ""
        return loaded.text, list(loaded.diagnostics)

    def forget(self) -> None:
        """Drop parsed and compiled files and their texts: the next compile reads every file
        again (an open base's unsaved edits included), and nothing is kept between compiles."""
        self._parsed.clear()
        self._compiled.clear()
        self.sources.clear()


@dataclass
class _State:
    compiled: Compiled
    index: Index
    ruleset: ir.Ruleset | None


class RulesServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("rulesdsl", "0.1.0", text_document_sync_kind=t.TextDocumentSyncKind.Full)
        self.compiler = _LiveCompiler(self)
        self.states: dict[str, _State] = {}
        self.last_good: dict[str, ir.Ruleset] = {}
        self.published: dict[str, set[str]] = {}
        """Per open document, the other files it published diagnostics on."""

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
            self.shutdown()  # type: ignore[no-untyped-call]

    def open_text(self, path: str) -> str | None:
        for doc in self.workspace.text_documents.values():
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
                for d in workspace.text_documents.values()
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

    # -- analysis ---------------------------------------------------------------------------

    def analyse(self, uri: str) -> _State:
        path = path_of(uri)
        text = self.text_of(uri)
        if text is None:  # not open, and not a file the server may read: nothing to say
            return _State(Compiled(path, None, []), Index(), None)
        too_large = check_text(text, path, self.compiler.limits).diagnostics
        if too_large:  # E006: one diagnostic, never a parse
            state = _State(Compiled(path, None, list(too_large)), Index(), None)
        else:
            self.compiler.forget()
            compiled = self.compiler.compile_text(text, path, Path(path).parent)
            sources = self._chain(path, text)
            self.compiler.forget()
            state = _State(compiled, build_index(sources), compiled.ruleset)
        if not self.is_open(uri):  # keep nothing for a file the editor has not opened
            return state
        if state.ruleset is not None:
            self.last_good[uri] = state.ruleset
        self.states[uri] = state
        return state

    def forget(self, uri: str) -> None:
        """Drop what is kept for a document the editor closed, and the diagnostics it put on
        other files that no open document still explains."""
        self.states.pop(uri, None)
        self.last_good.pop(uri, None)
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

    def _chain(self, path: str, text: str) -> list[s.SourceFile]:
        """The file's syntax tree and its bases', bases first."""
        parsed: list[s.SourceFile] = []
        if check_text(text, path, self.compiler.limits).text is None:  # E006: never parsed
            return parsed
        if path.endswith((".yaml", ".yml")):
            from rulesdsl.frontends.yaml_authoring import parse_yaml

            source, _ = parse_yaml(text, path, self.compiler.fragments)
        else:
            source, _ = self.compiler.parser.parse(text, path)
        seen = {str(Path(path).resolve())}
        while source is not None:
            parsed.insert(0, source)
            base = next((st for st in source.statements if isinstance(st, s.ExtendsDecl)), None)
            if base is None:
                break
            found = self.base_of(Path(path).parent, base.base.text)
            if found is None or str(found.resolve()) in seen:
                break
            seen.add(str(found.resolve()))
            source, _ = self.compiler.parse_file(found)
        return parsed

    def base_of(self, folder: Path, name: str) -> Path | None:
        """The file of base ``name`` beside a variant, if the server may read it."""
        for path in (folder / f"{name}{x}" for x in SUFFIXES):
            if self.refusal(str(path)) is None and path.is_file():
                return path
        return None

    def state(self, uri: str) -> _State:
        return self.states.get(uri) or self.analyse(uri)

    def lines(self, uri: str) -> list[str]:
        text = self.text_of(uri)
        return text.splitlines(True) if text is not None else []

    def publish(self, uri: str) -> None:
        state = self.analyse(uri)
        own = os.path.abspath(path_of(uri))
        by_file: dict[str, list[t.Diagnostic]] = {}
        caused: dict[str, list[t.Diagnostic]] = {}
        for diag in state.compiled.diagnostics:
            file = os.path.abspath(diag.pos.file) if diag.pos else own
            by_file.setdefault(file, []).append(to_lsp(diag))
            for r in diag.related:  # an error this variant causes in a base line: show it there
                there = os.path.abspath(r.pos.file)
                if file == own and there != own:
                    caused.setdefault(there, []).append(
                        t.Diagnostic(
                            range=to_range(r.pos),
                            severity=to_lsp(diag).severity,
                            code=diag.code,
                            source="rulesdsl",
                            message=f"{diag.message} (as {Path(own).name} changed this line)",
                            related_information=[
                                t.DiagnosticRelatedInformation(
                                    t.Location(uri, to_range(diag.pos)), diag.message
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
                for st, _, _ in state.index.statements
                if isinstance(st, s.ExtendsDecl) and os.path.abspath(st.pos.file) == own
            ),
            None,
        )
        for file, diags in by_file.items():  # what this variant breaks in a base, shown here too
            for d in diags:
                mine.append(
                    t.Diagnostic(
                        range=to_range(extends),
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


def did_open(ls: RulesServer, params: t.DidOpenTextDocumentParams) -> None:
    ls.publish(params.text_document.uri)


def did_change(ls: RulesServer, params: t.DidChangeTextDocumentParams) -> None:
    ls.publish(params.text_document.uri)
    for uri in list(ls.states):  # open variants see their base's unsaved edits
        if uri != params.text_document.uri and ls.is_open(uri):
            ls.publish(uri)


def did_save(ls: RulesServer, params: t.DidSaveTextDocumentParams) -> None:
    ls.publish(params.text_document.uri)


def did_close(ls: RulesServer, params: t.DidCloseTextDocumentParams) -> None:
    ls.forget(params.text_document.uri)


# ---- completion ----------------------------------------------------------------------------


def _line_before(ls: RulesServer, uri: str, pos: t.Position) -> str:
    lines = ls.lines(uri)
    return lines[pos.line][: pos.character] if pos.line < len(lines) else ""


def _block_of(lines: Sequence[str], line: int) -> str:
    """The first line of the block around 0-based ``line`` ("" at top level)."""
    for i in range(min(line, len(lines)) - 1, -1, -1):
        text = lines[i]
        if text[:1].isalpha():
            code = text.split("#", 1)[0].rstrip()
            return text if code.endswith("{") else ""
        if text.startswith("}"):
            return ""
    return ""


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
    return [], []


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
    state = ls.state(uri)
    line = params.position.line + 1
    statements = [st for st, _, _ in state.index.statements]
    answer = example_hover(
        statements, state.compiled.diagnostics, state.ruleset, path_of(uri), line
    )
    if answer is not None:  # a worked example's question: the rules' answer (issue 27)
        return t.Hover(t.MarkupContent(t.MarkupKind.Markdown, answer))
    state, name = _name_at(ls, uri, params.position)
    if name is None:
        return None
    text = hover_text(state, name.text, state.ruleset or ls.last_good.get(uri))
    if text is None:
        return None
    return t.Hover(t.MarkupContent(t.MarkupKind.Markdown, text), to_range(name.pos))


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
    return t.Location(uri_of(decl.item.name.pos.file), to_range(decl.item.name.pos))


def references(ls: RulesServer, params: t.ReferenceParams) -> list[t.Location]:
    state, name = _name_at(ls, params.text_document.uri, params.position)
    if name is None or name.text not in state.index.declarations:
        return []
    decl = state.index.declarations[name.text].item.name.pos
    return [
        t.Location(uri_of(n.pos.file), to_range(n.pos))
        for n in state.index.uses(name.text)
        if params.context.include_declaration or n.pos != decl
    ]


def rename(ls: RulesServer, params: t.RenameParams) -> t.WorkspaceEdit | None:
    state, name = _name_at(ls, params.text_document.uri, params.position)
    if name is None or name.text not in state.index.declarations:
        return None
    new = params.new_name
    if (
        not re.fullmatch(IDENT.regex, new)
        or len(new) > IDENT.max_length
        or is_reserved(new)
        or new in state.index.declarations
    ):
        return None  # not a name the compiler would accept here (E103, E102)
    changes: dict[str, list[t.TextEdit]] = {}
    for use in state.index.uses(name.text):
        changes.setdefault(uri_of(use.pos.file), []).append(
            t.TextEdit(to_range(use.pos), params.new_name)
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
                range=to_range(d.item.pos),
                selection_range=to_range(d.item.name.pos),
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
                range=to_range(item.pos),
                selection_range=to_range(item.name.pos),
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
    return server


def main() -> None:
    make_server().start_io()
