"""The YAML authoring front end: a hand-written YAML ruleset -> the DSL's syntax nodes.

The YAML format has the DSL's shapes, not the IR's: one section per kind of declaration
(``modes``, ``layers``, ``tables``...), one entry per item, a row per feature, and cells and
values written in the DSL's own cell syntax (``"2, walker 3"``: a value for all, then the
exceptions). docs/editors.md describes it and ``rulesdsl/schema/authoring.schema.json`` is its
JSON Schema (yaml-language-server uses it for completion).

The file is plain YAML: a key is the text written (``no:`` is the key 'no', the Norwegian
label, not False), a key written twice in one mapping is E121, and explicit tags, merge keys
and keys that are collections are E122 (docs/editors.md, "Keys, yes and no, tags, aliases").
The file is checked against that schema next (each problem placed at its YAML node), then
turned into the same :mod:`rulesdsl.frontends.syntax` statements the DSL parser builds, with
positions
taken from the YAML node marks, so resolve, lower and every check run unchanged and each
diagnostic points at the YAML file's line and column.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any, Literal

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulesdsl import ir, spelling
from rulesdsl.diagnostics import Diagnostic, Related, error
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.fragments import FragmentError, FragmentParser

LANGUAGE = re.compile(r"^[a-z]{2}(_[A-Za-z]{2,4})?$")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
EXTENDS = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*@\s*(\S+)\s*$")
STACKING = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s+entry\s+(.+?))?\s*$")
CHECK = re.compile(r"^\s*(\d+d\d+(?:[+-]\d+)?)\s*>=\s*(\d+)\s*$")
DICE = re.compile(r"^\s*\d+d\d+(?:[+-]\d+)?\s*$")
ITEM_KEYS = frozenset({"label", "source", "note", "ignores_others"})

SECTIONS = (
    "ruleset",
    "version",
    "extends",
    "languages",
    "books",
    "units",
    "stacking",
    "minimum",
    "modes",
    "groups",
    "precedence",
    "contexts",
    "modifiers",
    "sights",
    "layers",
    "steps",
    "decisions",
    "tables",
    "dice_tables",
    "triggers",
    "exclusions",
    "grids",
    "params",
    "overrides",
    "removes",
)
"""Top-level keys, in the order `rulesdsl convert` writes them (any order is accepted)."""


@cache
def authoring_schema() -> dict[str, Any]:
    """The shipped JSON Schema of the authoring format."""
    text = resources.files("rulesdsl").joinpath("schema/authoring.schema.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


# libyaml's composer, when PyYAML was built with it, is some 14 times faster than the pure
# Python one and gives the same line and column marks; the pure one explains errors better.
_FAST_LOADER: type[yaml.SafeLoader] | None = getattr(yaml, "CSafeLoader", None)


def _compose(text: str) -> yaml.Node | None:
    """The YAML node tree of ``text``: the fast composer first, the pure one to report a
    problem in its own words (and for text libyaml cannot encode, such as lone surrogates)."""
    if _FAST_LOADER is not None:
        try:
            node = yaml.compose(text, Loader=_FAST_LOADER)
        except (yaml.YAMLError, UnicodeError):
            pass
        else:
            _keep_block_text(node, text)
            return node
    return yaml.compose(text, Loader=yaml.SafeLoader)


def _keep_block_text(node: Node | None, text: str) -> None:
    """libyaml's marks hold no text; a block scalar's mark needs it (see ``_origin``). Each
    node is visited once: aliases share nodes, and may even make a cycle."""
    stack = [node] if node is not None else []
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, MappingNode):
            stack += [part for pair in item.value for part in pair]
        elif isinstance(item, SequenceNode):
            stack += item.value
        elif getattr(item, "style", None) in ("|", ">"):
            m = item.start_mark
            item.start_mark = yaml.Mark(m.name, m.index, m.line, m.column, text, m.index)


def parse_yaml(
    text: str, path: str, fragments: FragmentParser | None = None
) -> tuple[s.SourceFile | None, list[Diagnostic]]:
    """The file's syntax tree and its problems; None when the YAML or its shape is wrong."""
    try:
        node = _compose(text)
    except yaml.reader.ReaderError as exc:  # a character YAML refuses: placed by its index
        at = min(max(exc.position, 0), len(text))
        line, col = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
        char = chr(exc.character) if isinstance(exc.character, int) else str(exc.character)
        return None, [
            error(
                "E001",
                f"invalid YAML: character {char!r}: {exc.reason}",
                s.Pos(path, line, col, line, col + 1),
                "remove it; YAML text holds no control characters (a label is plain text)",
            )
        ]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        problem = getattr(exc, "problem", None) or str(exc)
        return None, [
            error(
                "E001",
                f"invalid YAML: {problem}",
                s.Pos(path, line, col, line, col + 1),
                "YAML wants `key: value` lines, indented by spaces",
            )
        ]
    except RecursionError:  # PyYAML composes nested collections by recursion
        return None, [
            error(
                "E001",
                "invalid YAML: collections nested too deeply",
                s.Pos(path, 1, 1, 1, 2),
                "a ruleset nests a few levels deep; look for runs of [ or {",
            )
        ]
    if node is None:
        node = MappingNode("tag:yaml.org,2002:map", [])
    problems = (
        (_tag_problems(text, path) + _key_problems(node, path))
        or _alias_problems(node, path)
        or _text_problems(node, path)
        or _schema_problems(node, path)
    )
    if problems:
        return None, problems
    builder = _Builder(path, fragments or FragmentParser())
    statements = builder.document(node)
    return s.SourceFile(path, text, tuple(statements)), builder.diagnostics


# ---- plain YAML: keys are text, written once; no tags -----------------------------------------


def _events(text: str) -> Iterator[yaml.Event]:
    """The parse events of ``text`` (which composed): libyaml's, or the pure parser's for
    text libyaml cannot encode."""
    if _FAST_LOADER is not None:
        try:
            yield from list(yaml.parse(text, Loader=_FAST_LOADER))
            return
        except (yaml.YAMLError, UnicodeError):
            pass
    yield from yaml.parse(text, Loader=yaml.SafeLoader)


_TAG_START = re.compile(r"(?:^|[\s\[{,])!")


def _tag_problems(text: str, path: str) -> list[Diagnostic]:
    """E122 at each explicit tag (``!!float abc``, ``!!python/name:os.system``, ``!custom``,
    ``!!str 1``): the authoring format reads plain YAML only, so a value means what it says
    in any YAML reader and no tag can build a Python object or raise while building one.
    A tag starts a token with ``!``; text without such a ``!`` is not parsed again (that
    second pass takes about half as long as composing: 0.21 s against 0.46 s with libyaml
    on the 5,000-feature bench file)."""
    if _TAG_START.search(text) is None:
        return []
    lines = text.splitlines()
    out = []
    for event in _events(text):
        tag = getattr(event, "tag", None)
        mark = event.start_mark
        if tag is None or mark is None:
            continue
        line = lines[mark.line] if mark.line < len(lines) else ""
        column = line.find("!", mark.column)  # past an anchor written before the tag
        column = mark.column if column < 0 else column
        written = (line[column:].split() or [tag])[0].rstrip(",]}")
        out.append(
            error(
                "E122",
                f"explicit YAML tag '{written}': a ruleset is plain YAML, without tags",
                s.Pos(path, mark.line + 1, column + 1, mark.line + 1, column + 1 + len(written)),
                "remove the tag; quote a value that is text but reads as something else "
                "('1.0', 'no')",
            )
        )
    return out


def _key_problems(root: Node, path: str) -> list[Diagnostic]:
    """E121 for a key written twice in one mapping (YAML readers keep one of the two
    silently), E122 for a merge key ``<<`` or a key that is a list or a mapping. A key is the
    text written: ``no:``, ``1:`` and ``~:`` are the keys 'no', '1' and '~' (and ``'no'`` is
    the same key as ``no``): each key's node is tagged as text here, so that every later
    stage reads its text (a ``null:`` key stays 'null', not nothing)."""
    out = []
    stack = [root]
    seen: set[int] = set()  # an alias shares its node (and may hold itself)
    while stack:
        here = stack.pop()
        if id(here) in seen:
            continue
        seen.add(id(here))
        if isinstance(here, SequenceNode):
            stack.extend(reversed(here.value))
        elif isinstance(here, MappingNode):
            first: dict[str, ScalarNode] = {}
            for key, value in here.value:
                stack.append(value)
                if not isinstance(key, ScalarNode):
                    out.append(
                        error(
                            "E122",
                            "a key that is a list or a mapping",
                            _mark_pos(path, key),
                            "a key is a name or a number: `foot: ...`",
                        )
                    )
                elif key.tag == "tag:yaml.org,2002:merge":
                    out.append(
                        error(
                            "E122",
                            "merge key '<<': a ruleset is plain YAML, without merge keys",
                            _mark_pos(path, key, 2),
                            "write the keys out, or use an alias (*name) of a whole value",
                        )
                    )
                elif key.value in first:
                    earlier = first[key.value]
                    lines = (earlier.start_mark.line + 1, key.start_mark.line + 1)
                    where = (
                        f"line {lines[0]} and line {lines[1]}"
                        if lines[0] != lines[1]
                        else f"both on line {lines[0]}"
                    )
                    out.append(
                        error(
                            "E121",
                            f"key '{key.value}' written twice in one mapping ({where})",
                            _pos(path, key),
                            "keep one of them: YAML readers would silently keep only one",
                            [Related(_pos(path, earlier), f"'{key.value}' is first written here")],
                        )
                    )
                else:
                    first[key.value] = key
                    key.tag = _STR
    out.sort(key=lambda d: (d.pos.line, d.pos.column) if d.pos else (0, 0))
    return out


_STR = "tag:yaml.org,2002:str"


def _mark_pos(path: str, node: Node, width: int = 1) -> s.Pos:
    mark = node.start_mark
    return s.Pos(path, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 1 + width)


class _TextKeyLoader(yaml.SafeLoader):
    """Builds the data the schema check sees: values as YAML 1.1 reads them (``true``,
    ``yes`` and ``on`` are booleans, as the format has always read them), keys as the text
    written. Tags, merge keys, keys that are collections and repeated keys were refused
    before (see _key_problems)."""

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        return {key.value: self.construct_object(value, deep=deep) for key, value in node.value}

    def construct_yaml_timestamp(self, node: ScalarNode) -> Any:
        """A date that is no date (``2020-13-45``, which PyYAML answers with ValueError)
        is its text: the schema then says it is not a date where one is wanted."""
        try:
            return super().construct_yaml_timestamp(node)
        except ValueError:
            return node.value

    def construct_text(self, node: ScalarNode) -> str:
        """A plain ``=``, which YAML 1.1 resolves to its "value" tag: safe YAML has no
        constructor for it (a ConstructorError), and in a ruleset it is text."""
        return str(node.value)


_TextKeyLoader.add_constructor(
    "tag:yaml.org,2002:timestamp", _TextKeyLoader.construct_yaml_timestamp
)
_TextKeyLoader.add_constructor("tag:yaml.org,2002:value", _TextKeyLoader.construct_text)


_NOT_TEXT = {
    "tag:yaml.org,2002:bool": "a yes/no value",
    "tag:yaml.org,2002:null": "nothing (null)",
    "tag:yaml.org,2002:int": "a number",
    "tag:yaml.org,2002:float": "a number",
    "tag:yaml.org,2002:timestamp": "a date",
}


def _quote_hint(node: Node) -> str | None:
    """For a plain scalar YAML reads as something else than text (``no``, ``1.0``, ``~``)."""
    if isinstance(node, ScalarNode) and not node.style and node.tag in _NOT_TEXT:
        return f"YAML reads `{node.value}` as {_NOT_TEXT[node.tag]}; quote it: '{node.value}'"
    return None


# ---- the schema, with positions ------------------------------------------------------------


MAX_VALUES = 100_000
"""The most keys and values a YAML ruleset may hold once its aliases are expanded (the
largest bundled ruleset has about 3,000)."""


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _alias_problems(root: Node, path: str) -> list[Diagnostic]:
    """E120 when aliases make a node hold itself, or make the document larger than
    MAX_VALUES once expanded (a "billion laughs": ten aliases of ten aliases of ...), which
    the schema check and every later stage would walk in full."""
    sizes: dict[int, int] = {}
    ancestors: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    problem = None
    while stack and problem is None:
        node, done = stack.pop()
        key = id(node)
        if done:
            ancestors.discard(key)
            sizes[key] = 1 + sum(sizes[id(k)] for k in _children(node))
            if sizes[key] > MAX_VALUES:
                problem = (f"the aliases expand this YAML to more than {MAX_VALUES:,} values", node)
        elif key in ancestors:
            problem = ("an alias makes this node hold itself", node)
        elif key not in sizes:
            ancestors.add(key)
            stack.append((node, True))
            stack.extend((k, False) for k in _children(node))
    if problem is None:
        return []
    message, node = problem
    mark = node.start_mark
    return [
        error(
            "E120",
            message,
            s.Pos(path, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2),
            "write the values out, or use fewer aliases",
        )
    ]


CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
SURROGATE = re.compile(r"[\ud800-\udfff]")


DIGITS = re.compile(r"\d+")


def _too_large(number: str) -> bool:
    """Whether a YAML number holds a run of digits beyond the largest float, as the DSL's
    reader refuses (E005): PyYAML would build an int of it that no float can hold, or refuse
    one of over 4,300 digits with a ValueError."""
    return any(len(d) > 309 or int(d) > sys.float_info.max for d in DIGITS.findall(number))


def _text_problems(node: Node, path: str) -> list[Diagnostic]:
    """E004 for each key or value that holds a control character (other than a tab or a line
    break) or half a surrogate pair: what the DSL refuses in a string, YAML escapes (``"\\0"``,
    ``"\\e"``, ``"\\ud800"``) must not let in; E005 for a number too large for a float."""
    out = []
    stack = [node]
    seen: set[int] = set()  # an alias shares its node (and may hold itself)
    while stack:
        here = stack.pop()
        if id(here) in seen:
            continue
        seen.add(id(here))
        if isinstance(here, ScalarNode):
            if here.tag.endswith((":int", ":float")) and _too_large(here.value):
                mark = here.start_mark
                out.append(
                    error(
                        "E005",
                        f"number too large ({max(map(len, DIGITS.findall(here.value)))} digits)",
                        s.Pos(path, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2),
                        "numbers may be at most about 1.8e308 (the largest floating-point number)",
                    )
                )
            bad = CONTROL.search(here.value) or SURROGATE.search(here.value)
            if bad is not None:
                mark = here.start_mark
                out.append(
                    error(
                        "E004",
                        f"control character {bad.group()!r} in a string"
                        if CONTROL.match(bad.group())
                        else f"{bad.group()!r} is half of a surrogate pair, not a character",
                        s.Pos(path, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2),
                        "remove it; a label is plain text (tabs and line breaks are kept)",
                    )
                )
        elif isinstance(here, SequenceNode):
            stack.extend(reversed(here.value))
        elif isinstance(here, MappingNode):
            stack.extend(n for pair in reversed(here.value) for n in reversed(pair))
    return out


def _schema_problems(node: Node, path: str) -> list[Diagnostic]:
    import jsonschema

    try:
        data = _TextKeyLoader("").construct_document(node)
    except yaml.YAMLError as exc:  # not expected after the checks above; placed, not raised
        mark = getattr(exc, "problem_mark", None) or node.start_mark
        pos = s.Pos(path, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2)
        problem = getattr(exc, "problem", None) or str(exc)
        return [error("E001", f"invalid YAML: {problem}", pos, "rulesets use plain YAML")]
    validator = jsonschema.Draft202012Validator(authoring_schema())
    out = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path))):
        target = _node_at(node, list(err.absolute_path))
        message = err.message
        if err.validator == "additionalProperties" and isinstance(target, MappingNode):
            allowed = set(err.schema.get("properties", {}))
            patterns = [re.compile(p) for p in err.schema.get("patternProperties", {})]
            for key, _ in target.value:
                if key.value not in allowed and not any(p.search(key.value) for p in patterns):
                    target = key
                    message = f"'{key.value}' is not a key here"
                    hint = "expected one of: " + ", ".join(sorted(allowed))
                    break
            else:
                hint = None
        elif err.validator == "pattern" and isinstance(target, MappingNode):
            # propertyNames: the error is on the mapping; point at the key itself
            target = next((k for k, _ in target.value if k.value == err.instance), target)
            message = f"'{err.instance}' is not a name"
            hint = "names start with a letter or _ and hold letters, digits and _"
        else:
            hint = _quote_hint(target) if not isinstance(err.instance, str) else None
            hint = hint or "see the `# yaml-language-server: $schema=` line in docs/editors.md"
        where = ".".join(map(str, err.absolute_path)) or "the file"
        out.append(error("E120", f"{where}: {message}", _pos(path, target), hint))
    return out


def _node_at(node: Node, steps: list[Any]) -> Node:
    for step in steps:
        if isinstance(node, MappingNode):
            found = next((v for k, v in node.value if k.value == str(step)), None)
            if found is None:
                return node
            node = found
        elif isinstance(node, SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
        else:
            return node
    return node


# ---- nodes to syntax -------------------------------------------------------------------------


def _pos(path: str, node: Node) -> s.Pos:
    start, end = node.start_mark, node.end_mark
    if end.line > start.line and end.column == 0 and isinstance(node, MappingNode | SequenceNode):
        return s.Pos(path, start.line + 1, start.column + 1, end.line, 1_000)
    return s.Pos(path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def _origin(node: Node) -> tuple[int, int]:
    """Line and column (from 1) of the first character of a scalar's text."""
    style = getattr(node, "style", None)
    extra = 1 if style in ("'", '"') else 0
    if style in ("|", ">"):  # the text starts on the first non-blank line after `|` or `>`
        buffer, index = node.start_mark.buffer, node.start_mark.index
        if buffer is not None:
            lines = buffer[index:].split("\n")[1:]
            skip = next((i for i, ln in enumerate(lines) if ln.strip()), 0)
            indent = len(lines[skip]) - len(lines[skip].lstrip(" ")) if lines else 0
            return node.start_mark.line + 2 + skip, indent + 1
    return node.start_mark.line + 1, node.start_mark.column + 1 + extra


def _items(node: Node) -> Iterator[tuple[ScalarNode, Node]]:
    if isinstance(node, MappingNode):
        for key, value in node.value:
            assert isinstance(key, ScalarNode)
            yield key, value


def _get(node: Node, key: str) -> Node | None:
    return next((v for k, v in _items(node) if k.value == key), None)


def _seq(node: Node | None) -> list[Node]:
    if node is None or _is_null(node):
        return []
    return list(node.value) if isinstance(node, SequenceNode) else [node]


def _is_null(node: Node) -> bool:
    return isinstance(node, ScalarNode) and node.tag == "tag:yaml.org,2002:null"


def _raw(node: Node) -> str:
    """A scalar's text as written ("+1" stays "+1"); "" for null."""
    assert isinstance(node, ScalarNode)
    return "" if _is_null(node) else str(node.value)


_NO_EXTRAS = s.Extras()


class _Builder:
    def __init__(self, path: str, fragments: FragmentParser) -> None:
        self.path = path
        self.fragments = fragments
        self.diagnostics: list[Diagnostic] = []

    # -- helpers ----------------------------------------------------------------------------

    def pos(self, node: Node) -> s.Pos:
        return _pos(self.path, node)

    def name(self, node: ScalarNode) -> s.Name:
        """A name as written; the names pass (rulesdsl.checks.names) checks it as it checks
        the DSL's, at this position."""
        return s.Name(_raw(node), self.pos(node))

    def fragment(self, node: Node, start: str) -> Any:
        text = " ".join(_raw(node).split("\n")).rstrip()  # a block scalar's lines, joined
        line, column = _origin(node)
        try:
            return self.fragments.parse(text, start, self.path, line, column)
        except FragmentError as exc:
            self.diagnostics.append(exc.diagnostic)
            return None

    def located(self, node: Node, start: str = "value") -> s.Located | None:
        value = self.fragment(node, start)
        if isinstance(value, ir.Number):
            return s.Located(value, self.pos(node))
        return value if isinstance(value, s.Located) else None

    def cell(self, node: Node | None) -> s.CellNode:
        if node is None or _is_null(node) or not _raw(node).strip():
            return s.CellNode((), s.Pos(self.path, 0, 0, 0, 0))
        cell = self.fragment(node, "cell")
        return cell if isinstance(cell, s.CellNode) else s.CellNode((), self.pos(node))

    def labels(self, node: Node) -> tuple[s.Label, ...]:
        if isinstance(node, ScalarNode):
            return (s.Label("", _raw(node), self.pos(node)),) if not _is_null(node) else ()
        out: list[s.Label] = []
        for key, value in _items(node):
            if key.value == "label":
                out.insert(0, s.Label("", _raw(value), self.pos(value)))
            elif LANGUAGE.match(key.value) and isinstance(value, ScalarNode):
                out.append(s.Label(key.value, _raw(value), self.pos(key)))
        return tuple(out)

    def extras(self, node: Node) -> s.Extras:
        if not isinstance(node, MappingNode):
            return _NO_EXTRAS
        source = None
        source_node = _get(node, "source")
        if source_node is not None:
            line, column = _origin(source_node)
            try:
                found = self.fragments.parse(
                    f"[{_raw(source_node)}]", "source", self.path, line, column - 1
                )
                source = found if isinstance(found, s.SourceRef) else None
            except FragmentError as exc:
                self.diagnostics.append(exc.diagnostic)
        notes = tuple(self.labels(n) for n in _seq(_get(node, "note")))
        flag = _get(node, "ignores_others")
        ignores = flag is not None and _raw(flag).lower() in ("true", "yes", "on")
        return s.Extras(source, notes, ignores)

    def item(
        self,
        key: ScalarNode,
        node: Node | None,
        *,
        scalar_is_label: bool = True,
        number_key: bool = False,
    ) -> s.Item:
        labels: tuple[s.Label, ...] = ()
        extras = _NO_EXTRAS
        if node is not None and (scalar_is_label or not isinstance(node, ScalarNode)):
            if not isinstance(node, SequenceNode):
                labels = self.labels(node)
            extras = self.extras(node)
        end = node if node is not None else key
        pos = s.Pos(self.path, key.start_mark.line + 1, key.start_mark.column + 1, *self._end(end))
        name = s.Name(_raw(key), self.pos(key)) if number_key else self.name(key)
        return s.Item(name, labels, extras, pos)

    def _end(self, node: Node) -> tuple[int, int]:
        p = self.pos(node)
        return p.end_line, p.end_column

    # -- the document -----------------------------------------------------------------------

    def document(self, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for key, value in _items(root):
            handler = getattr(self, f"sec_{key.value}", None)
            if handler is not None:
                out += handler(key, value, root)
        return out

    def sec_ruleset(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        assert isinstance(value, ScalarNode)
        labels = self.labels(root)
        item = s.Item(self.name(value), labels, self.extras(root), self.pos(key))
        return [s.RulesetDecl(item)]

    def sec_version(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        return [s.VersionDecl(_raw(value), self.pos(value))]

    def sec_extends(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        match = EXTENDS.match(_raw(value))
        if match is None or not NAME.match(match[1]):
            self.diagnostics.append(
                error(
                    "E001",
                    f"'{_raw(value)}' is not base@requirement",
                    self.pos(value),
                    "for example: heavy_gear@^1.0",
                )
            )
            return []
        line, column = _origin(value)
        base = s.Name(match[1], s.Pos(self.path, line, column, line, column + len(match[1])))
        return [s.ExtendsDecl(base, match[2], self.pos(value))]

    def sec_languages(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        names = tuple(self.name(n) for n in _seq(value) if isinstance(n, ScalarNode))
        return [s.LanguagesDecl(names, self.pos(value))]

    def sec_books(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        return [s.BookDecl(self.item(k, v)) for k, v in _items(value)]

    def sec_units(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        pairs = tuple(
            (self.name(k), self.name(v)) for k, v in _items(value) if isinstance(v, ScalarNode)
        )
        return [s.UnitsDecl(pairs, self.pos(value))]

    def sec_stacking(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        match = STACKING.match(_raw(value))
        if match is None:
            self.diagnostics.append(
                error(
                    "E001",
                    f"'{_raw(value)}' is not a stacking policy",
                    self.pos(value),
                    "for example: sum entry 1 MP",
                )
            )
            return []
        line, column = _origin(value)
        policy = s.Name(match[1], s.Pos(self.path, line, column, line, column + len(match[1])))
        entry = None
        if match[2]:
            offset = match.start(2)
            entry = self._located_at(match[2], "quantity", line, column + offset)
        return [s.StackingDecl(policy, entry, self.pos(value))]

    def _located_at(self, text: str, start: str, line: int, column: int) -> s.Located | None:
        try:
            found = self.fragments.parse(text, start, self.path, line, column)
        except FragmentError as exc:
            self.diagnostics.append(exc.diagnostic)
            return None
        return found if isinstance(found, s.Located) else None

    def sec_minimum(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        amount_node = _get(value, "move") if isinstance(value, MappingNode) else value
        if amount_node is None:
            return []
        amount = self.located(amount_node, "quantity")
        if amount is None:
            return []
        return [s.MinimumDecl(amount, self.extras(value), self.pos(value))]

    def sec_modes(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        return [
            s.ModeDecl(self.item(k, v), self._names(_get(v, "keywords"))) for k, v in _items(value)
        ]

    def _names(self, node: Node | None) -> tuple[s.Name, ...]:
        return tuple(self.name(n) for n in _seq(node) if isinstance(n, ScalarNode))

    def sec_precedence(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        """``precedence: [[fly, vehicle], {groups: [infantry, fly], note: ...}]``."""
        out: list[s.Statement] = []
        for entry in _seq(value):
            if isinstance(entry, SequenceNode):
                out.append(s.PrecedenceDecl(self._names(entry), _NO_EXTRAS, self.pos(entry)))
            elif isinstance(entry, MappingNode):
                groups = self._names(_get(entry, "groups"))
                out.append(s.PrecedenceDecl(groups, self.extras(entry), self.pos(entry)))
        return out

    def _policy(self, v: Node) -> dict[str, Any]:
        """A modifier's second context, ``combine`` policy and ``clamp: [low, high]``."""
        context_node = _get(v, "context")
        contexts = self._names(context_node) if isinstance(context_node, SequenceNode) else ()
        combine_node = _get(v, "combine")
        clamp_node = _get(v, "clamp")
        bounds = [self.located(n, "signed") for n in _seq(clamp_node)]
        clamp = None
        if clamp_node is not None and len(bounds) == 2 and None not in bounds:
            low, high = bounds
            assert low is not None and high is not None
            clamp = s.ClampNode(low, high, self.pos(clamp_node))
        return {
            "context": contexts[0] if contexts else None,
            "context2": contexts[1] if len(contexts) > 1 else None,
            "combine": self.name(combine_node) if isinstance(combine_node, ScalarNode) else None,
            "clamp": clamp,
        }

    def sec_groups(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            members_node = v if isinstance(v, SequenceNode) else _get(v, "members")
            members = tuple(self.name(n) for n in _seq(members_node) if isinstance(n, ScalarNode))
            out.append(s.GroupDecl(self.item(k, v), members))
        return out

    def sec_contexts(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            values_node = _get(v, "values")
            values = (
                tuple(self.item(vk, vv) for vk, vv in _items(values_node))
                if values_node is not None
                else ()
            )
            out.append(s.ContextDecl(self.item(k, v), values))
        return out

    def rows(self, node: Node | None) -> tuple[s.RowNode, ...]:
        out = []
        for key, value in _items(node) if node is not None else ():
            cells_node = _get(value, "cells") if isinstance(value, MappingNode) else value
            cells = tuple(self.cell(c) for c in _seq(cells_node)) or (self.cell(None),)
            numeric = not NAME.match(_raw(key))
            item = self.item(key, value, scalar_is_label=False, number_key=numeric)
            number = None
            if numeric:
                located = self.located(key, "quantity")
                if located is None:
                    continue
                assert isinstance(located.value, ir.Number)
                number = located.value
                name = s.Name(spelling.number(number.value), item.name.pos)
                item = s.Item(name, item.labels, item.extras, item.pos)
            out.append(s.RowNode(item, cells, number))
        return tuple(out)

    def sec_modifiers(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            context_node = _get(v, "context")
            context = self.name(context_node) if isinstance(context_node, ScalarNode) else None
            whens = []
            for w in _seq(_get(v, "when")):
                members = tuple(
                    self.name(n) for n in _seq(_get(w, "members")) if isinstance(n, ScalarNode)
                )
                whens.append(
                    s.WhenNode(members, self.cell(_get(w, "cell")), self.extras(w), self.pos(w))
                )
            policy = self._policy(v)
            out.append(
                s.ModifierDecl(
                    self.item(k, v),
                    context or policy["context"],
                    self.rows(_get(v, "rows")),
                    tuple(whens),
                    context2=policy["context2"],
                    combine=policy["combine"],
                    clamp=policy["clamp"],
                )
            )
        return out

    def sec_layers(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            scope_node = _get(v, "scope")
            scope_text = " ".join(_raw(scope_node).split()) if scope_node is not None else ""
            scope: Literal["many", "one", "map", "edges"] = {
                "one per place": "one",
                "whole map": "map",
                "edges": "edges",
            }.get(scope_text, "many")  # type: ignore[assignment]
            columns_node = _get(v, "columns")
            columns = (
                tuple(self.name(n) for n in _seq(columns_node) if isinstance(n, ScalarNode))
                if columns_node is not None
                else None
            )
            out.append(
                s.LayerDecl(self.item(k, v), scope, columns or None, self.rows(_get(v, "rows")))
            )
        return out

    def _result(self, node: Node) -> s.Name | None:
        result = _get(node, "result")
        return self.name(result) if isinstance(result, ScalarNode) else None

    def sec_steps(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            param_node = _get(v, "input")
            param = self.fragment(param_node, "param") if param_node is not None else None
            terms = tuple(
                t
                for t in (self.fragment(n, "step_term") for n in _seq(_get(v, "terms")))
                if isinstance(t, s.StepTermNode)
            )
            if isinstance(param, s.ParamNode):
                out.append(s.StepDecl(self.item(k, v), param, self._result(v), terms))
        return out

    def sec_decisions(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            params = tuple(
                p
                for p in (self.fragment(n, "param") for n in _seq(_get(v, "inputs")))
                if isinstance(p, s.ParamNode)
            )
            rows = []
            for row in _seq(_get(v, "rows")):
                when, then = _get(row, "when"), _get(row, "then")
                if not isinstance(when, ScalarNode) or not isinstance(then, ScalarNode):
                    continue
                conditions = self.fragment(when, "condition")
                if conditions is None:
                    continue
                outcome = self.item(then, row)
                rows.append(s.DecisionRowNode(tuple(conditions), outcome, self.pos(row)))
            if params:
                out.append(s.DecisionDecl(self.item(k, v), params, self._result(v), tuple(rows)))
        return out

    def sec_tables(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            columns_node = _get(v, "columns")
            if isinstance(columns_node, SequenceNode):
                columns = tuple(
                    self.item(n, None) for n in columns_node.value if isinstance(n, ScalarNode)
                )
            else:
                columns = (
                    tuple(self.item(ck, cv) for ck, cv in _items(columns_node))
                    if columns_node is not None
                    else ()
                )
            out.append(s.TableDecl(self.item(k, v), columns, self.rows(_get(v, "rows"))))
        return out

    def sec_dice_tables(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            dice_node = _get(v, "dice")
            dice = self.located(dice_node) if dice_node is not None else None
            if dice is None:
                continue
            modifiers = []
            for mk, mv in _items(_get(v, "modifiers") or MappingNode("", [])):
                amount_node = _get(mv, "amount") if isinstance(mv, MappingNode) else mv
                amount = self.located(amount_node, "signed") if amount_node else None
                if amount is not None:
                    modifiers.append(
                        s.DiceModifierNode(self.item(mk, mv, scalar_is_label=False), amount)
                    )
            rows = []
            for row in _seq(_get(v, "rows")):
                roll, name = _get(row, "roll"), _get(row, "result")
                if not isinstance(roll, ScalarNode) or not isinstance(name, ScalarNode):
                    continue
                span = self.fragment(roll, "dice_range")
                if span is None:
                    continue
                effects_node = _get(row, "effects")
                effects = self.cell(effects_node) if effects_node is not None else None
                rows.append(s.DiceRowNode(self.item(name, row), span[0], span[1], effects))
            out.append(
                s.DiceDecl(self.item(k, v), dice, tuple(modifiers), tuple(rows), self._results(v))
            )
        return out

    # -- results tables and line of sight (issue 11, items 9 and 10) -------------------------

    def _results(self, v: Node) -> s.ResultsNode | None:
        keys = ("column_by", "columns", "outcomes", "naturals", "results")
        if not isinstance(v, MappingNode) or all(_get(v, key) is None for key in keys):
            return None
        by_node = _get(v, "column_by")
        by = self.name(by_node) if isinstance(by_node, ScalarNode) else None
        columns = []
        for ck, cv in _items(_get(v, "columns") or MappingNode("", [])):
            for key, bound in (("upto", "up_to"), ("above", "above")):
                value_node = _get(cv, key) if isinstance(cv, MappingNode) else None
                value = self.located(value_node, "signed") if value_node is not None else None
                if value is not None:
                    item = self.item(ck, cv)
                    columns.append(s.DiceColumnNode(item, bound, value))  # type: ignore[arg-type]
        outcomes = tuple(
            self.item(ok, ov) for ok, ov in _items(_get(v, "outcomes") or MappingNode("", []))
        )
        naturals = []
        for nat in _seq(_get(v, "naturals")):
            roll, then = _get(nat, "natural"), _get(nat, "then")
            if isinstance(roll, ScalarNode) and isinstance(then, ScalarNode):
                if not _raw(roll).isdigit():
                    self.diagnostics.append(
                        error("E001", f"'{_raw(roll)}' is not a roll", self.pos(roll), "e.g. 6")
                    )
                    continue
                naturals.append(
                    s.NaturalNode(int(_raw(roll)), self.name(then), self.extras(nat), self.pos(nat))
                )
        rows = []
        for res in _seq(_get(v, "results")):
            roll = _get(res, "roll")
            if not isinstance(roll, ScalarNode):
                continue
            span = self.fragment(roll, "dice_range")
            if span is None:
                continue
            names = tuple(
                self.name(n) for n in _seq(_get(res, "outcomes")) if isinstance(n, ScalarNode)
            )
            rows.append(s.ResultRowNode(span[0], span[1], names, self.extras(res), self.pos(res)))
        return s.ResultsNode(by, tuple(columns), outcomes, tuple(naturals), tuple(rows))

    def sec_sights(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            blocks_node = _get(v, "blocks_at") if isinstance(v, MappingNode) else None
            blocks = self.located(blocks_node, "signed") if blocks_node is not None else None
            counts_node = _get(v, "counts") if isinstance(v, MappingNode) else None
            counts = self.name(counts_node) if isinstance(counts_node, ScalarNode) else None
            crossed_node = _get(v, "crossed") if isinstance(v, MappingNode) else None
            crossed = self.name(crossed_node) if isinstance(crossed_node, ScalarNode) else None
            out.append(s.SightDecl(self.item(k, v), blocks, counts, crossed))
        return out

    def sec_triggers(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            check_node, table = _get(v, "check"), _get(v, "roll")
            check, at_least = None, None
            if check_node is not None:
                match = CHECK.match(_raw(check_node))
                if match is None:
                    self.diagnostics.append(
                        error(
                            "E001",
                            f"'{_raw(check_node)}' is not a check",
                            self.pos(check_node),
                            "for example: 1d6 >= 4",
                        )
                    )
                    continue
                line, column = _origin(check_node)
                check = self._located_at(match[1], "value", line, column + match.start(1))
                at_least = int(match[2])
            if not isinstance(table, ScalarNode):
                continue
            with_node, times = _get(v, "with"), _get(v, "times")
            modifier = self.name(with_node) if isinstance(with_node, ScalarNode) else None
            more: tuple[s.Name, ...] = ()
            if isinstance(with_node, SequenceNode):
                named = [self.name(n) for n in with_node.value if isinstance(n, ScalarNode)]
                modifier, more = (named[0] if named else None), tuple(named[1:])
            out.append(
                s.TriggerDecl(
                    self.item(k, v),
                    check,
                    at_least,
                    self.name(table),
                    modifier,
                    int(_raw(times)) if times is not None else 1,
                    more,
                )
            )
        return out

    def sec_exclusions(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for entry in _seq(value):
            subject = _get(entry, "exclude")
            if not isinstance(subject, ScalarNode):
                continue
            others = tuple(
                self.name(n) for n in _seq(_get(entry, "with")) if isinstance(n, ScalarNode)
            )
            out.append(
                s.ExcludeDecl(self.name(subject), others, self.extras(entry), self.pos(entry))
            )
        return out

    def sec_grids(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            size = tuple(
                q
                for q in (self.located(n, "quantity") for n in _seq(_get(v, "size")))
                if q is not None
            )
            diagonals = tuple(int(_raw(n)) for n in _seq(_get(v, "diagonals")))
            shape_node = _get(v, "shape")  # maps (issue 11): `hex` or `square`
            shape = self.name(shape_node) if isinstance(shape_node, ScalarNode) else None
            out.append(s.GridDecl(self.item(k, v), size, diagonals, shape))
        return out

    def sec_params(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            unit = _get(v, "unit")
            if not isinstance(unit, ScalarNode):
                continue
            value_node = _get(v, "value")
            located = self.located(value_node) if value_node is not None else None
            out.append(s.ParamDecl(self.item(k, v), self.name(unit), located))
        return out

    def path_names(self, node: ScalarNode) -> tuple[s.Name, ...]:
        line, column = _origin(node)
        names = []
        offset = 0
        for part in _raw(node).split("."):
            names.append(
                s.Name(
                    part, s.Pos(self.path, line, column + offset, line, column + offset + len(part))
                )
            )
            offset += len(part) + 1
        return tuple(names)

    def sec_overrides(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for k, v in _items(value):
            cell_node = _get(v, "cell") if isinstance(v, MappingNode) else v
            out.append(
                s.OverrideDecl(
                    self.path_names(k), self.cell(cell_node), self.extras(v), self.pos(k)
                )
            )
        return out

    def sec_removes(self, key: ScalarNode, value: Node, root: Node) -> list[s.Statement]:
        out: list[s.Statement] = []
        for entry in _seq(value):
            target = _get(entry, "remove") if isinstance(entry, MappingNode) else entry
            if isinstance(target, ScalarNode):
                out.append(
                    s.RemoveDecl(self.path_names(target), self.extras(entry), self.pos(entry))
                )
        return out
