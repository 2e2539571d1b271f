"""A ruleset's labels and notes as a gettext catalog, and a translated catalog back as labels.

Translators work in gettext tools (Poedit, Lokalize, Weblate, msgmerge), not in the DSL.
:func:`extract` writes one entry per label group of the file (an item's labels, or one of its
notes), read with Babel's :mod:`babel.messages`:

- ``msgctxt`` is the item's path in the ruleset: ``mode:walker``, ``feature:woods`` (features
  are named across layers, so their path stands alone), ``modifier:cover/factor:full``,
  ``table:setup/row:open_lane``, ``decision:lock/row:passive``; a note adds ``/note:N``.
  A path that would repeat (two decision rows with one outcome) gets ``#2``, ``#3``.
- ``msgid`` is the label in the ruleset's first language, the one the file writes bare.
- ``msgstr`` is the label in the target language if the file has it, else empty.
- ``#:`` is ``file:line``; ``#.`` lists the labels in the file's other languages.

:func:`merge` reads a translated catalog and writes each entry's ``msgstr`` into the file as
the ``<lang> "..."`` label of its item or note, editing only the strings it adds or changes
(comments, layout and every other line stay as they are) and adding the language to the
``languages`` line; a `.terrain` file that `rulesdsl fmt` had laid out is laid out again, so
its table columns stay aligned and it still passes ``fmt --check``. Fuzzy and empty
entries, entries whose path the file no longer has and entries whose ``msgid`` no longer
matches the file's label are skipped and reported (W611-W614). The edited text must compile
before anything is written, and is written atomically. In a YAML authoring file a language
is a key of the item's label mapping (``{label: Walker, fr: Marcheur, de: "Läufer"}``),
added in the mapping's own style; an item written as its bare label (``hover: Hover``)
becomes such a mapping. A label the file does not hold where its syntax tree says is E611 in
YAML, E613 in the DSL.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from babel.core import UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError, read_po, write_po

from rulesdsl import ir, spelling
from rulesdsl.compiler import Compiler
from rulesdsl.diagnostics import Diagnostic, Pos, error, warning
from rulesdsl.frontends import registry
from rulesdsl.frontends import syntax as s
from rulesdsl.interchange.fmt import format_text
from rulesdsl.ir.values import LANG
from rulesdsl.sources import MAX_FILE_BYTES, Limits, Loaded, read_bytes

__all__ = [
    "Merged",
    "Text",
    "extract",
    "merge",
    "read_catalog",
    "read_catalog_file",
    "texts",
]

_LANG = re.compile(LANG.regex)

# ---- what a file has to translate ------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """One label group of a file: an item's labels, or one of its notes."""

    context: str
    """The item's path (``msgctxt``), ``/note:N`` for a note."""
    labels: tuple[s.Label, ...]
    """The labels as written: the first in the file's first language, then ``lang "..."``."""

    @property
    def source(self) -> str:
        return self.labels[0].text

    def label(self, lang: str) -> s.Label | None:
        return next((label for label in self.labels[1:] if label.lang == lang), None)


_TOP: dict[type, str] = {
    s.RulesetDecl: "ruleset",
    s.BookDecl: "book",
    s.ModeDecl: "mode",
    s.GroupDecl: "group",
    s.ContextDecl: "context",
    s.ModifierDecl: "modifier",
    s.LayerDecl: "layer",
    s.StepDecl: "step",
    s.DecisionDecl: "decision",
    s.TableDecl: "table",
    s.DiceDecl: "dice",
    s.TriggerDecl: "trigger",
    s.SightDecl: "sight",
    s.GridDecl: "grid",
    s.ParamDecl: "param",
    s.MinimumDecl: "minimum",
    s.PrecedenceDecl: "precedence",
    s.ExcludeDecl: "exclude",
    s.OverrideDecl: "override",
    s.RemoveDecl: "remove",
    s.InsertDecl: "insert",
}
"""The path word of each kind of statement; a kind not listed uses its class name."""

_CHILD: dict[tuple[type, str], str] = {
    (s.ContextDecl, "values"): "value",
    (s.ModifierDecl, "rows"): "factor",
    (s.ModifierDecl, "whens"): "when",
    (s.LayerDecl, "rows"): "feature",
    (s.TableDecl, "columns"): "column",
    (s.TableDecl, "rows"): "row",
    (s.DecisionDecl, "rows"): "row",
    (s.DiceDecl, "modifiers"): "modifier",
    (s.DiceDecl, "rows"): "row",
    (s.ResultsNode, "columns"): "column",
    (s.ResultsNode, "outcomes"): "outcome",
    (s.ResultsNode, "naturals"): "natural",
    (s.ResultsNode, "rows"): "row",
    (s.OverrideDecl, "row"): "row",
    (s.InsertDecl, "row"): "row",
}
"""The path word of the items inside a statement, by the statement's kind and field."""

_ABSOLUTE = frozenset({"feature"})
"""Kinds whose path stands alone: their names are unique across their statements."""


def _item(node: object) -> s.Item | None:
    if isinstance(node, s.Item):
        return node
    if isinstance(node, s.DecisionRowNode):
        return node.outcome
    item = getattr(node, "item", None)
    return item if isinstance(item, s.Item) else None


def _name(node: object) -> str:
    item = _item(node)
    if item is not None:
        return item.name.text
    match node:
        case s.WhenNode(band=(state, side, s.Located(value=ir.Number(value=bound)))):
            return f"{state.text} {side} {spelling.number(bound)}"
        case s.WhenNode():
            return "+".join(n.text for n in node.members)
        case s.NaturalNode():
            return str(node.roll)
        case s.ResultRowNode():
            low, high = ("" if n is None else str(n) for n in (node.low, node.high))
            return f"{low}-{high}"
        case s.PrecedenceDecl():
            return ",".join(n.text for n in node.groups)
        case s.ExcludeDecl():
            return node.subject.text
        case s.OverrideDecl() | s.RemoveDecl():
            return ".".join(n.text for n in node.path)
        case s.InsertDecl():
            return f"{node.decision.text}.{node.where}.{node.anchor.text}"
    return ""


def _children(node: object) -> Iterator[tuple[str, object]]:
    """The nodes inside ``node`` that may hold labels or notes, with their path word."""
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        kind = _CHILD.get((type(node), f.name))
        if isinstance(value, s.ResultsNode):
            yield from _children(value)
        elif kind is None:
            continue
        elif isinstance(value, tuple):
            yield from ((kind, v) for v in value)
        elif value is not None:
            yield kind, value


def texts(source: s.SourceFile) -> list[Text]:
    """Every label group of ``source`` that has a label, in file order."""
    out: list[Text] = []
    seen: dict[str, int] = {}

    def unique(path: str) -> str:
        seen[path] = seen.get(path, 0) + 1
        return path if seen[path] == 1 else f"{path}#{seen[path]}"

    def visit(node: object, path: str) -> None:
        item = _item(node)
        if item is not None and item.labels:
            out.append(Text(path, item.labels))
        extras = item.extras if item is not None else getattr(node, "extras", None)
        if isinstance(extras, s.Extras):
            for i, note in enumerate(extras.notes, start=1):
                if note:
                    out.append(Text(f"{path}/note:{i}", note))
        for kind, child in _children(node):
            segment = f"{kind}:{_name(child)}"
            visit(child, unique(segment if kind in _ABSOLUTE else f"{path}/{segment}"))

    for st in source.statements:
        kind = _TOP.get(type(st), type(st).__name__.removesuffix("Decl").lower())
        name = _name(st)
        visit(st, unique(f"{kind}:{name}" if name else kind))
    return out


# ---- extract ---------------------------------------------------------------------------------


def _languages(source: s.SourceFile) -> tuple[str, ...]:
    decls = s.of_kind(source.statements, s.LanguagesDecl)
    return tuple(n.text for n in decls[-1].languages) if decls else ()


def extract(source: s.SourceFile, lang: str | None, reference: str) -> bytes:
    """The catalog of ``source``'s labels and notes: a template (``.pot``, empty msgstrs)
    when ``lang`` is None, else a ``.po`` with the file's ``lang`` labels as msgstrs.
    ``reference`` is the file name the ``#:`` lines give."""
    ruleset = next((st.item for st in s.of_kind(source.statements, s.RulesetDecl)), None)
    rid = ruleset.name.text if ruleset is not None else Path(reference).stem
    version = next((st.version for st in s.of_kind(source.statements, s.VersionDecl)), "")
    catalog = Catalog(
        locale=lang,
        domain=rid,
        project=rid,
        version=version or None,
        charset="utf-8",
        fuzzy=False,
    )
    first = (_languages(source) or ("en",))[0]
    what = f"the {lang} labels" if lang else "a template for the labels"
    catalog.header_comment = (
        f"# {what} and notes of the ruleset {rid} ({reference}).\n"
        f"# msgctxt: the item's path; msgid: its label in {first}, the file's first language.\n"
        f"# Written by `rulesdsl i18n extract`; bring it back with `rulesdsl i18n merge`."
    )
    for text in texts(source):
        target = text.label(lang) if lang else None
        others = [f"{label.lang}: {label.text}" for label in text.labels[1:] if label.lang != lang]
        catalog.add(
            text.source,
            target.text if target is not None else "",
            locations=[(reference, text.labels[0].pos.line)],
            context=text.context,
            auto_comments=others,
        )
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, sort_output=False, ignore_obsolete=True)
    return _stable_header(buffer.getvalue())


_UNSTABLE = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date|Generated-By): [^\n]*\n', re.M)


def _stable_header(po: bytes) -> bytes:
    """The catalog without the header lines that change from run to run or machine to
    machine (dates, Babel's version): the same file extracts to the same bytes."""
    return _UNSTABLE.sub(b"", po)


# ---- merge -----------------------------------------------------------------------------------


@dataclass
class Merged:
    """What a merge did: the new text (None when it cannot be written) and what it said."""

    text: str | None
    lang: str | None
    added: int = 0
    changed: int = 0
    unchanged: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.text is not None and not any(d.is_error for d in self.diagnostics)


MAX_CATALOG_BYTES = 8 * MAX_FILE_BYTES
"""A translated catalog's largest size (16 MiB): each label of a ruleset at the 2 MiB limit
appears in it up to four times (msgid, msgstr, the other languages' comments)."""


def read_catalog_file(
    path: Path, limit: int = MAX_CATALOG_BYTES
) -> tuple[bytes | None, list[Diagnostic]]:
    """The bytes of the catalog at ``path``, or E610 saying why not: it must be a regular
    file (a FIFO or a device would never end; a link is refused as a ruleset's is) of at most
    ``limit`` bytes. Read by :func:`rulesdsl.sources.read_bytes`, as rulesets are."""
    at = Pos(str(path), 1, 1, 1, 1)
    data = read_bytes(path, Limits(limit))
    if isinstance(data, Loaded):
        why = data.diagnostics[0].message
        return None, [error("E610", why, at, "give the path of a .po file")]
    if len(data) > limit:
        return None, [
            error(
                "E610",
                f"{path} is larger than the size limit of {limit:,} bytes",
                at,
                "split the catalog, or merge the catalog of a smaller ruleset",
            )
        ]
    return data, []


def read_catalog(
    data: bytes, po_path: str, lang: str | None
) -> tuple[Catalog | None, str | None, list[Diagnostic]]:
    """The translated catalog and its language (``lang`` if given, else its ``Language``
    header), or E610 saying why it cannot be used."""
    at = Pos(po_path, 1, 1, 1, 1)
    try:
        catalog = read_po(io.BytesIO(data), abort_invalid=True)
    except (PoFileError, UnknownLocaleError, ValueError, UnicodeDecodeError) as exc:
        return None, None, [error("E610", f"cannot read {po_path}: {exc}", at, _PO_HINT)]
    found = lang or (catalog.locale.language if catalog.locale is not None else None)
    if found is None or not _LANG.fullmatch(found):
        return (
            None,
            None,
            [
                error(
                    "E610",
                    f"{po_path} does not say which language it is in",
                    at,
                    'give its header a line "Language: de\\n", or pass --lang de',
                )
            ],
        )
    return catalog, found, []


_PO_HINT = "is it a gettext catalog written by `rulesdsl i18n extract` (and a PO editor)?"


def merge(
    source: s.SourceFile,
    catalog: Catalog,
    lang: str,
    po_path: str,
    languages: tuple[str, ...],
) -> Merged:
    """``source``'s text with the translations of ``catalog`` as its ``lang`` labels.

    ``languages`` are the languages the compiled ruleset has (a variant may inherit them);
    ``lang`` joins its ``languages`` line. The caller compiles the result before writing it.
    """
    merged = Merged(None, lang)
    if languages and lang == languages[0]:
        merged.diagnostics.append(
            error(
                "E612",
                f"'{lang}' is the ruleset's first language: its labels are the msgids",
                Pos(po_path, 1, 1, 1, 1),
                "merge a catalog in another language (its header's Language, or --lang)",
            )
        )
        return merged
    by_context = {text.context: text for text in texts(source)}
    edits: list[tuple[int, int, str]] = []
    is_yaml = registry.named(source.path) is registry.YAML
    lines: _Lines = _YamlLines(source.text) if is_yaml else _Lines(source.text)
    for message in catalog:
        if not message.id:
            continue
        if message.context is None:  # not an entry `extract` writes: say so, never guess
            merged.diagnostics.append(
                warning(
                    "W613",
                    f"{str(message.id)[:60]!r} has no msgctxt naming an item: entry skipped",
                    _po_pos(po_path, message),
                    "merge catalogs written by `rulesdsl i18n extract` (msgctxt: the item's path)",
                )
            )
            continue
        text = by_context.get(str(message.context))
        skipped = _skip(message, text, po_path)
        if skipped is not None:
            merged.diagnostics.append(skipped)
            continue
        assert text is not None
        translation = str(message.string)
        existing = text.label(lang)
        if existing is not None and existing.text == translation:
            merged.unchanged += 1
            continue
        edit = lines.set_label(text.labels, existing, lang, translation)
        if edit is None and is_yaml:  # a label written as a plain string: no key to add to
            merged.diagnostics.append(
                error(
                    "E611",
                    f"the label of '{text.context}' is a plain string in the YAML file: "
                    f"there is no mapping to add '{lang}' to",
                    text.labels[0].pos,
                    f"write it as a mapping, `{{label: {text.source[:40]}, ...}}`, and merge again",
                )
            )
            continue
        if edit is None:  # the file is not laid out as its syntax tree says: never guess
            merged.diagnostics.append(
                error(
                    "E613",
                    f"cannot find the label of '{text.context}' in the file's text",
                    _po_pos(po_path, message),
                    "run `rulesdsl fmt` on the ruleset and merge again",
                )
            )
            continue
        edits.append(edit)
        merged.added += existing is None
        merged.changed += existing is not None
    if any(d.is_error for d in merged.diagnostics):
        return merged
    if edits and lang not in languages:
        edits.append(lines.add_language(source, languages, lang))
    new = source.text
    for start, end, replacement in sorted(edits, reverse=True):
        new = new[:start] + replacement + new[end:]
    if not is_yaml and format_text(source.text) == source.text:
        new = format_text(new)  # a file `fmt` laid out stays so: its columns are re-aligned
    merged.text = new
    return merged


def _po_pos(po_path: str, message: Message) -> Pos:
    line = message.lineno or 1
    return Pos(po_path, line, 1, line, 1)


def _skip(message: Message, text: Text | None, po_path: str) -> Diagnostic | None:
    """Why an entry is not merged (W611-W614), or None to merge it."""
    at = _po_pos(po_path, message)
    context = str(message.context)
    if text is None:
        return warning(
            "W613",
            f"'{context}' is not in the ruleset any more: entry skipped",
            at,
            "extract a fresh catalog (`rulesdsl i18n extract`) and merge it into this one "
            "(msgmerge or your PO editor's update from template)",
        )
    if str(message.id) != text.source:
        return warning(
            "W614",
            f"the label of '{context}' changed since the catalog was made "
            f"(now {text.source!r}): entry skipped",
            at,
            "update the catalog from a fresh `rulesdsl i18n extract` and check the translation",
        )
    if message.fuzzy:
        return warning(
            "W611",
            f"the translation of '{context}' is marked fuzzy: entry skipped",
            at,
            "review it and clear the fuzzy flag in your PO editor",
        )
    if not message.string:
        return warning("W612", f"'{context}' is not translated: entry skipped", at, None)
    return None


_GAP = re.compile(r"(?:[ \t]|\\\r?\n)*")
"""What may stand between a label's language and its string: blanks, joined lines."""
_PAD = re.compile(r"( +)(?=\||->)")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


class _Lines:
    """Offsets in a file's text from the syntax tree's lines and columns."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        for match in re.finditer("\n", text):
            self.starts.append(match.end())

    def offset(self, line: int, column: int) -> int:
        if line > len(self.starts):  # just past the last line
            return len(self.text)
        return self.starts[line - 1] + column - 1

    def _string_after(self, label: s.Label) -> tuple[int, int] | None:
        """Where the string of ``label`` is: itself for the first label of a group, else
        after its language code. None when the text there is not that label's string."""
        start = self.offset(label.pos.line, label.pos.column)
        if label.lang:
            if not self.text.startswith(label.lang, start):
                return None
            start = _GAP.match(self.text, start + len(label.lang)).end()  # type: ignore[union-attr]
        found = _STRING.match(self.text, start)
        if found is None:
            return None
        try:
            if json.loads(found.group(), strict=False) != label.text:
                return None
        except ValueError:
            return None
        return found.start(), found.end()

    def set_label(
        self, labels: tuple[s.Label, ...], existing: s.Label | None, lang: str, text: str
    ) -> tuple[int, int, str] | None:
        """The edit that makes ``text`` the group's ``lang`` label (None: not found)."""
        if existing is not None:
            return self.replace_label(existing, text)
        return self.add_label(labels, lang, text)

    def replace_label(self, label: s.Label, text: str) -> tuple[int, int, str] | None:
        span = self._string_after(label)
        return None if span is None else self._aligned(span[0], span[1], spelling.string(text))

    def add_label(
        self, labels: tuple[s.Label, ...], lang: str, text: str
    ) -> tuple[int, int, str] | None:
        span = self._string_after(labels[-1])
        return (
            None
            if span is None
            else self._aligned(span[1], span[1], f" {lang} {spelling.string(text)}")
        )

    def _aligned(self, start: int, end: int, replacement: str) -> tuple[int, int, str]:
        """The edit, taking its growth out of the blanks that align a row's ``|`` or a
        decision row's ``->`` after it (at least one blank stays), so the column stays put
        while the text fits."""
        pad = _PAD.match(self.text, end)
        if pad is None:
            return start, end, replacement
        blanks = len(pad.group(1))
        growth = len(replacement) - (end - start)
        return start, end + blanks, replacement + " " * max(1, blanks - growth)

    def add_language(
        self, source: s.SourceFile, languages: tuple[str, ...], lang: str
    ) -> tuple[int, int, str]:
        decls = s.of_kind(source.statements, s.LanguagesDecl)
        if decls:
            last = decls[-1].languages[-1].pos
            at = self.offset(last.end_line, last.end_column)
            return at, at, f" {lang}"
        after = s.of_kind(source.statements, s.VersionDecl)
        line = after[-1].pos.line if after else 1
        at = self.starts[line] if line < len(self.starts) else len(self.text)
        return at, at, f"languages {' '.join((*(languages or ('en',)), lang))}\n"


class _YamlLines(_Lines):
    """The same edits in a YAML authoring file: a label group is the mapping whose ``label``
    value starts where the syntax tree's first label does; a language is a key of it."""

    def __init__(self, text: str) -> None:
        import yaml

        super().__init__(text)
        self.root = yaml.compose(text, Loader=yaml.SafeLoader)
        self.groups: dict[tuple[int, int], yaml.MappingNode] = {}
        self.scalars: dict[tuple[int, int], yaml.ScalarNode] = {}
        """Values that are a bare label (``hover: Hover``), by where they start."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            if isinstance(node, yaml.MappingNode):
                for key, value in node.value:
                    start = value.start_mark
                    if key.value == "label" and isinstance(value, yaml.ScalarNode):
                        self.groups[start.line + 1, start.column + 1] = node
                    elif isinstance(value, yaml.ScalarNode):
                        self.scalars[start.line + 1, start.column + 1] = value
                    stack.append(value)
            elif isinstance(node, yaml.SequenceNode):
                stack.extend(node.value)

    def _mark(self, mark: object) -> int:
        return self.offset(getattr(mark, "line", 0) + 1, getattr(mark, "column", 0) + 1)

    def _group(self, labels: tuple[s.Label, ...]) -> object | None:
        first = labels[0].pos
        return self.groups.get((first.line, first.column))

    def set_label(
        self, labels: tuple[s.Label, ...], existing: s.Label | None, lang: str, text: str
    ) -> tuple[int, int, str] | None:
        import yaml

        from rulesdsl.frontends.yaml_builder import LANGUAGE

        group = self._group(labels)
        quoted = spelling.string(text)
        first = labels[0].pos
        bare = self.scalars.get((first.line, first.column))
        if group is None and bare is not None and bare.value == labels[0].text:
            # `hover: Hover` becomes `hover: {label: "Hover", de: "Schweber"}`
            start, end = self._mark(bare.start_mark), self._mark(bare.end_mark)
            return start, end, f"{{label: {spelling.string(labels[0].text)}, {lang}: {quoted}}}"
        if not isinstance(group, yaml.MappingNode):
            return None
        for key, value in group.value:
            if key.value == lang and isinstance(value, yaml.ScalarNode):
                return self._mark(value.start_mark), self._mark(value.end_mark), quoted
        key, value = [
            (k, v) for k, v in group.value if k.value == "label" or LANGUAGE.match(k.value)
        ][-1]
        at = self._mark(value.end_mark)
        if group.flow_style:
            return at, at, f", {lang}: {quoted}"
        indent = " " * key.start_mark.column
        if getattr(value, "style", None) in ("|", ">"):  # a block scalar ends at a new line
            return at, at, f"{indent}{lang}: {quoted}\n"
        return at, at, f"\n{indent}{lang}: {quoted}"

    def add_language(
        self, source: s.SourceFile, languages: tuple[str, ...], lang: str
    ) -> tuple[int, int, str]:
        import yaml

        if isinstance(self.root, yaml.MappingNode):
            for key, value in self.root.value:
                if key.value == "languages" and isinstance(value, yaml.SequenceNode):
                    if not value.value:
                        break
                    last = value.value[-1]
                    at = self._mark(last.end_mark)
                    if value.flow_style:
                        return at, at, f", {lang}"
                    return at, at, f"\n{' ' * max(0, last.start_mark.column - 2)}- {lang}"
            for key, value in self.root.value:
                if key.value == "version":
                    at = self.offset(value.end_mark.line + 2, 1)
                    codes = ", ".join((*(languages or ("en",)), lang))
                    return at, at, f"languages: [{codes}]\n"
        return 0, 0, f"languages: [{', '.join((*(languages or ('en',)), lang))}]\n"


def compile_merged(compiler: Compiler, path: Path, text: str) -> list[Diagnostic]:
    """The diagnostics of the merged text, compiled as if it were the file at ``path``."""
    return compiler.compile_text(text, str(path), path.parent).diagnostics
