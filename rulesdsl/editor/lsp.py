"""`rulesdsl lsp`: a language server over stdio (pygls), for .terrain and YAML rulesets.

Diagnostics are the compiler's own (the same codes, positions and hints as `rulesdsl check`),
computed after a pause in the edits from the editor's unsaved text, bases included; an error
a variant causes in its base is published on the base's file too (the server's state and its
compiles: :mod:`rulesdsl.editor.lsp_server`). Completion, hover, go to definition (across
`extends`), references and rename (along `extends` both ways) and document symbols come from
the syntax trees (see :mod:`rulesdsl.editor.lsp_index`) and the last good IR; formatting is
`rulesdsl fmt`; quick fixes come from the diagnostics' hints
(:mod:`rulesdsl.editor.lsp_actions`), semantic tokens from the grammar's lexer
(:mod:`rulesdsl.editor.lsp_tokens`).

The client is not trusted (see :mod:`rulesdsl.editor.lsp_stream` for the transport's limits):
the server reads a file from the disk (a base, or a document a request names that is not
open) only inside the workspace folders, and never through a symbolic link
(:meth:`RulesServer.refusal`); a document over :data:`MAX_DOCUMENT_BYTES` gets one
diagnostic instead of a compile; closing a document drops everything kept for it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import assert_never

from lsprotocol import types as t
from pygls.exceptions import JsonRpcException

from rulesdsl import ir, words
from rulesdsl.checks.reserved import is_reserved
from rulesdsl.compiler import ruleset_files
from rulesdsl.editor.lsp_actions import fixes, hint_of
from rulesdsl.editor.lsp_examples import example_hover
from rulesdsl.editor.lsp_index import Index, build_index
from rulesdsl.editor.lsp_server import (
    RulesServer,
    State,
    is_file_uri,
    path_of,
    split_lines,
    uri_of,
)
from rulesdsl.editor.lsp_tokens import TOKEN_MODIFIERS, TOKEN_TYPES, tokens
from rulesdsl.frontends import registry
from rulesdsl.frontends import syntax as s
from rulesdsl.interchange.csv_chart import dsl_value
from rulesdsl.interchange.fmt import format_text
from rulesdsl.ir import IDENT
from rulesdsl.sources import MAX_FILE_BYTES

MAX_DOCUMENT_BYTES = MAX_FILE_BYTES
"""The largest ruleset the language server compiles, open in the editor or read from the disk
as a base: the compiler's own file limit (:data:`rulesdsl.sources.MAX_FILE_BYTES`). A larger
document gets one diagnostic (E006) instead."""

KEYWORDS = words.STATEMENTS
"""The words that start a statement, from the language's one registry of its words."""
BLOCK_KEYWORDS = ("columns", "column", "when", "note", "remark", "modifier")
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
        case "sight" | "arcs":
            return t.SymbolKind.Object
        case "move":
            return t.SymbolKind.EnumMember
        case "roll":
            return t.SymbolKind.Event
        case "whole":
            return t.SymbolKind.Event
        case "state":
            return t.SymbolKind.Variable
        case "drift":
            return t.SymbolKind.Event
        case _:
            assert_never(kind)


def did_open(ls: RulesServer, params: t.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, delay=0)


def did_change(ls: RulesServer, params: t.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


def did_save(ls: RulesServer, params: t.DidSaveTextDocumentParams) -> None:
    ls.schedule_all()  # a saved file may be the base of others read from the disk


def did_change_watched_files(ls: RulesServer, params: t.DidChangeWatchedFilesParams) -> None:
    """Files changed on the disk: the open documents that read one of them check again."""
    for uri in ls.targets([change.uri for change in params.changes]):
        ls.schedule(uri)


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
            # the header goes on (after a `\`, or on indented `note`, `source`... lines) up
            # to the line that opens the block
            while not header.endswith("{") and j + 1 < min(line, len(lines)):
                j += 1
                header = header.removesuffix("\\").rstrip() + " " + _code(lines[j]).strip()
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


TEXT_PARTS = ("label", "note")
"""What follows an item's name in an override of its words (`override soft.label.fr`)."""


def _block(index: Index, name: str | None, kind: type[s.Picked]) -> s.Picked | None:
    """The block a part is declared in (the first statement of that name), if it is of that
    kind."""
    block = next((st for st, _, declared in index.statements if declared == name), None)
    return block if isinstance(block, kind) else None


def _override_parts(index: Index, head: str) -> tuple[list[str], list[str]]:
    """(names, words) that may follow `override HEAD.`: a feature's layer columns and the
    modes and groups of its cost cell; a factor's context values; the rows, columns or
    outcomes of a table, dice table or decision; and the item's label and note."""
    decl = index.declarations.get(head)
    if decl is None:
        return [], []
    if words.is_feature(decl.kind):
        layer = _block(index, decl.parent, s.LayerDecl)
        columns = [n.text for n in layer.columns or ()] if layer is not None else []
        return [*columns, *index.names("mode", "group")], list(TEXT_PARTS)
    if words.is_factor(decl.kind):
        modifier = _block(index, decl.parent, s.ModifierDecl)
        context = modifier.context if modifier is not None else None
        values = [
            n
            for n in index.names("context value")
            if context is not None and index.declarations[n].parent == context.text
        ]
        return values, list(TEXT_PARTS)
    return [n for n, d in index.declarations.items() if d.parent == head], list(TEXT_PARTS)


def completion(ls: RulesServer, params: t.CompletionParams) -> t.CompletionList:
    uri = params.text_document.uri
    if ls.text_of(uri) is None:  # not open, and not a file the server may read
        return t.CompletionList(is_incomplete=False, items=[])
    state = ls.state(uri, fresh=False)
    lines = ls.lines(uri)
    block = _block_of(lines, params.position.line)
    before = _line_before(ls, uri, params.position)
    dsl_text = registry.reading(path_of(uri)).dsl_text
    if not dsl_text:  # the YAML language server completes the keys
        in_value = ":" in before
        kinds: list[Kind] = (
            ["mode", "group", "context value", "param", "feature"] if in_value else []
        )
        keywords = list(VALUE_KEYWORDS) if in_value else []
    else:
        kinds, keywords = _kinds_at(before, state.index, block)
    names = [n for kind in kinds for n in state.index.names(kind)]
    path = re.search(r"^\s*(?:override|remove)\s+([A-Za-z_]\w*)\.\w*$", _code(before))
    if path is not None and dsl_text:
        names, keywords = _override_parts(state.index, path.group(1))
    items = []
    for name in names:
        decl = state.index.declarations.get(name)
        label = next((lb.text for lb in decl.item.labels), "") if decl else ""
        items.append(
            t.CompletionItem(
                label=name,
                kind=t.CompletionItemKind.Value,
                detail=(decl.kind if decl else "column") + (f": {label}" if label else ""),
                sort_text=f"0{name}",
            )
        )
    items += [
        t.CompletionItem(label=k, kind=t.CompletionItemKind.Keyword, sort_text=f"1{k}")
        for k in keywords
    ]
    return t.CompletionList(is_incomplete=False, items=items)


# ---- hover, definition, references, rename ----------------------------------------------------


def _name_at(ls: RulesServer, uri: str, pos: t.Position) -> tuple[State, s.Name | None]:
    state = ls.state(uri)
    path = str(path_of(uri))
    pos = ls.from_client(uri, pos)
    found = state.index.at(path, pos.line + 1, pos.character + 1)
    return state, found


def hover_text(state: State, name: str, ruleset: ir.Ruleset | None) -> str | None:
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
        # the book's title: its note (its label is the abbreviation sheets print)
        notes = book.item.extras.notes if book else ()
        names = [*(notes[0] if notes else ()), *(book.item.labels if book else ())]
        title = next((lb.text for lb in names), source.book.text)
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


class RenameRefused(JsonRpcException):
    """A rename the server will not make, with the reason an editor shows (LSP's
    RequestFailed)."""

    CODE = t.LSPErrorCodes.RequestFailed.value


def _renamed(ls: RulesServer, uri: str, position: t.Position) -> tuple[State, s.Name]:
    """The declared name under ``position``, or :class:`RenameRefused` saying why none is."""
    state, name = _name_at(ls, uri, position)
    if name is None:
        raise RenameRefused("no name here: place the cursor on a name this ruleset declares")
    if name.text not in state.index.declarations:
        raise RenameRefused(
            f"'{name.text}' is not declared in this ruleset or its bases: nothing to rename"
        )
    return state, name


def prepare_rename(ls: RulesServer, params: t.PrepareRenameParams) -> t.PrepareRenamePlaceholder:
    """Whether the name under the cursor can be renamed: its span, or an error saying why not
    (an editor shows it instead of a bare "cannot rename")."""
    _, name = _renamed(ls, params.text_document.uri, params.position)
    return t.PrepareRenamePlaceholder(ls.to_client(name.pos), name.text)


def rename(ls: RulesServer, params: t.RenameParams) -> t.WorkspaceEdit:
    state, name = _renamed(ls, params.text_document.uri, params.position)
    new = params.new_name
    uses, declared = ls.uses(state, name.text)
    if not re.fullmatch(IDENT.regex, new) or len(new) > IDENT.max_length:
        raise RenameRefused(
            f"'{new}' is not a name: a letter, then letters, digits or '_', "
            f"at most {IDENT.max_length} characters (E103)"
        )
    if is_reserved(new):
        raise RenameRefused(f"'{new}' is a reserved word of the language (E103)")
    if new in declared and new != name.text:
        raise RenameRefused(f"'{new}' is declared already in this ruleset or its family (E102)")
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


def _is_dsl(path: str) -> bool:
    """Whether the document is DSL text by its suffix (an unnamed buffer is not): it is
    folded, formatted and coloured token by token."""
    front = registry.named(path)
    return front is not None and front.dsl_text


def folding_ranges(ls: RulesServer, params: t.FoldingRangeParams) -> list[t.FoldingRange]:
    """Each `{ ... }` block of a `.terrain` document, from the line that opens it to the line
    before its `}` (read from the text: a document that does not parse folds too)."""
    uri = params.text_document.uri
    text = ls.text_of(uri)
    if text is None or not _is_dsl(path_of(uri)):
        return []
    out: list[t.FoldingRange] = []
    opened: list[int] = []
    for i, line in enumerate(split_lines(path_of(uri), text)):
        code = _code(line)
        if code.startswith("}") and opened:
            start = opened.pop()
            if i - 1 > start:
                out.append(t.FoldingRange(start_line=start, end_line=i - 1))
        elif code.endswith("{"):
            opened.append(i)
    return sorted(out, key=lambda r: r.start_line)


def workspace_symbols(
    ls: RulesServer, params: t.WorkspaceSymbolParams
) -> list[t.SymbolInformation]:
    """The names declared in the rulesets of the workspace folders and of their `rulesets/`
    folders (and in the open documents) whose name or label holds the query, in any case."""
    query = params.query.casefold()
    documents = list(ls.workspace.text_documents.values())
    files = {Path(path_of(d.uri)) for d in documents if is_file_uri(d.uri)}
    for root in ls.roots():  # a folder of rulesets, or a project with its rulesets/ folder
        for folder in (root, root / "rulesets"):
            if folder.is_dir() and not folder.is_symlink():
                files.update(ruleset_files(folder))
    out = []
    for path in sorted(files):
        if ls.refusal(str(path)) is not None:
            continue
        with ls.lock:
            source, _ = ls.compiler.parse_file(path)
        if source is None:
            continue
        index = build_index([source])
        top = {name: kind for _, kind, name in index.statements if kind is not None}
        for name, decl in index.declarations.items():
            label = next((lb.text for lb in decl.item.labels), "")
            if query not in name.casefold() and query not in label.casefold():
                continue
            kind = symbol_kind(top[name]) if name in top else t.SymbolKind.Field
            out.append(
                t.SymbolInformation(
                    name=name,
                    kind=kind,
                    location=t.Location(uri_of(str(path)), ls.to_client(decl.item.name.pos)),
                    container_name=decl.parent,
                )
            )
    return out


def formatting(ls: RulesServer, params: t.DocumentFormattingParams) -> list[t.TextEdit]:
    uri = params.text_document.uri
    text = ls.text_of(uri)
    if not _is_dsl(path_of(uri)) or not ls.is_open(uri) or text is None:
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
            edits = [
                t.TextEdit(
                    ls.to_client(
                        s.Pos(path_of(uri), e.line + 1, e.start + 1, e.end_line + 1, e.end + 1),
                        {os.path.abspath(path_of(uri)): text},
                    ),
                    e.text,
                )
                for e in fix.edits
            ]
            out.append(
                t.CodeAction(
                    title=fix.title,
                    kind=t.CodeActionKind.QuickFix,
                    diagnostics=[diag],
                    is_preferred=fix.preferred,
                    edit=t.WorkspaceEdit(changes={uri: edits}),
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
    if text is None or not _is_dsl(path):
        return t.SemanticTokens(data=[])
    if len(text.encode("utf-8", "surrogatepass")) > MAX_DOCUMENT_BYTES:
        return t.SemanticTokens(data=[])
    state = ls.state(uri, fresh=False)
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
    features: tuple[tuple[str, object, Callable[..., object]], ...] = (
        (t.TEXT_DOCUMENT_DID_OPEN, None, did_open),
        (t.TEXT_DOCUMENT_DID_CHANGE, None, did_change),
        (t.TEXT_DOCUMENT_DID_SAVE, None, did_save),
        (t.WORKSPACE_DID_CHANGE_WATCHED_FILES, None, did_change_watched_files),
        (t.TEXT_DOCUMENT_DID_CLOSE, None, did_close),
        (
            t.TEXT_DOCUMENT_COMPLETION,
            t.CompletionOptions(trigger_characters=[" ", "[", ",", "|"]),
            completion,
        ),
        (t.TEXT_DOCUMENT_HOVER, None, hover),
        (t.TEXT_DOCUMENT_DEFINITION, None, definition),
        (t.TEXT_DOCUMENT_REFERENCES, None, references),
        (t.TEXT_DOCUMENT_RENAME, t.RenameOptions(prepare_provider=True), rename),
        (t.TEXT_DOCUMENT_PREPARE_RENAME, None, prepare_rename),
        (t.TEXT_DOCUMENT_FOLDING_RANGE, None, folding_ranges),
        (t.WORKSPACE_SYMBOL, None, workspace_symbols),
        (t.TEXT_DOCUMENT_DOCUMENT_SYMBOL, None, document_symbols),
        (t.TEXT_DOCUMENT_FORMATTING, None, formatting),
        (
            t.TEXT_DOCUMENT_CODE_ACTION,
            t.CodeActionOptions(code_action_kinds=[t.CodeActionKind.QuickFix]),
            code_actions,
        ),
        (t.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND, semantic_tokens),
    )
    for method, options, handler in features:
        server.feature(method, options)(handler)
    return server


def main() -> None:
    make_server().start_io()
