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
from typing import Any, Literal, assert_never, get_args

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulesdsl.diagnostics import Diagnostic, Related, did_you_mean, error
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.fragments import FragmentParser
from rulesdsl.frontends.yaml_positions import node_pos
from rulesdsl.frontends.yaml_sections import Builder

Section = Literal[
    "ruleset",
    "version",
    "edition",
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
    "moves",
    "rolls",
    "arcs",
    "whole_moves",
    "states",
    "drifts",
    "layers",
    "steps",
    "decisions",
    "tables",
    "dice_tables",
    "triggers",
    "exclusions",
    "grids",
    "facing",
    "params",
    "overrides",
    "removes",
    "examples",
]
"""The top-level keys of a YAML ruleset, in the order `rulesdsl convert` writes them (any order
is accepted); the others are the ruleset's labels, note and source."""

SECTIONS: tuple[Section, ...] = get_args(Section)


def section(key: str) -> Section | None:
    """The section a top-level key names (None: a label, a note, a source, or no key)."""
    return next((s for s in SECTIONS if s == key), None)


def header(section: Section) -> bool:
    """Whether a section is a header line of the ruleset (no blank line after it in .terrain)."""
    match section:
        case (
            "ruleset"
            | "version"
            | "edition"
            | "extends"
            | "languages"
            | "units"
            | "stacking"
            | "minimum"
        ):
            return True
        case (
            "books"
            | "modes"
            | "groups"
            | "precedence"
            | "contexts"
            | "modifiers"
            | "sights"
            | "moves"
            | "rolls"
            | "arcs"
            | "whole_moves"
            | "states"
            | "drifts"
            | "layers"
            | "steps"
            | "decisions"
            | "tables"
            | "dice_tables"
            | "triggers"
            | "exclusions"
            | "grids"
            | "facing"
            | "params"
            | "overrides"
            | "removes"
            | "examples"
        ):
            return False
        case _:
            assert_never(section)


@cache
def authoring_schema() -> dict[str, Any]:
    """The shipped JSON Schema of the authoring format."""
    text = resources.files("rulesdsl").joinpath("schema/authoring.schema.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_DEFS = "#/$defs/"
_SCHEMA = frozenset(
    {"items", "additionalProperties", "propertyNames", "contains", "if", "then", "else"}
)
_SCHEMAS = frozenset({"anyOf", "allOf", "prefixItems"})
_NAMED = frozenset({"properties", "patternProperties", "dependentSchemas"})
"""The keywords whose value is a schema, a list of schemas, or schemas by name: where the
schema check replaces references. The others are read as written (``oneOf`` and ``not``,
whose messages quote their schemas, too; a reference left in place resolves in ``$defs``)."""
_SCOPES = ("$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "unevaluated")


@cache
def _checking_schema() -> dict[str, Any]:
    """The authoring schema as the schema check reads it: each ``{"$ref": "#/$defs/NAME"}``
    replaced by that definition itself. jsonschema looks a reference up, then descends once
    more, for every value one reaches: a sixth of the check (issue 44). The same keywords
    meet the same values in the same order, so the errors are the same (an error inside a
    definition carries the definition's own keywords and paths either way); a definition
    that holds itself stays a reference, and a schema with scopes of its own (``$id`` below
    the root, anchors) is read as written."""
    schema = authoring_schema()
    defs = schema.get("$defs", {})
    text = json.dumps({k: v for k, v in schema.items() if k != "$id"})
    if any(f'"{scope}' in text for scope in (*_SCOPES, "$id")):
        return schema  # pragma: no cover - the authoring schema has none

    def inline(node: Any, within: tuple[str, ...]) -> Any:
        if not isinstance(node, dict):
            return node  # true or false
        ref = node.get("$ref")
        if len(node) == 1 and isinstance(ref, str) and ref.startswith(_DEFS):
            name = ref[len(_DEFS) :]
            if name in defs and name not in within:
                return inline(defs[name], (*within, name))
            return node
        out = dict(node)
        for key, value in node.items():
            if key in _SCHEMA:
                out[key] = inline(value, within)
            elif key in _SCHEMAS:
                out[key] = [inline(one, within) for one in value]
            elif key in _NAMED:
                out[key] = {name: inline(one, within) for name, one in value.items()}
        return out

    inlined: dict[str, Any] = inline(schema, ())
    return inlined


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
    node is visited once: aliases share nodes, and may even make a cycle. A text without
    ``|`` or ``>`` holds no block scalar: its nodes are not visited."""
    if node is None or ("|" not in text and ">" not in text):
        return
    for item in _nodes(node, keys=True):
        if isinstance(item, ScalarNode) and item.style in ("|", ">"):
            m = item.start_mark
            item.start_mark = yaml.Mark(m.name, m.index, m.line, m.column, text, m.index)


def _invalid(problem: str, path: str, line: int, col: int, hint: str) -> list[Diagnostic]:
    """E001 at one character: text that is not YAML, or YAML that PyYAML cannot compose."""
    return [error("E001", f"invalid YAML: {problem}", s.Pos(path, line, col, line, col + 1), hint)]


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
        return None, _invalid(
            f"character {char!r}: {exc.reason}",
            path,
            line,
            col,
            "remove it; YAML text holds no control characters (a label is plain text)",
        )
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        problem = getattr(exc, "problem", None) or str(exc)
        return None, _invalid(
            problem, path, line, col, "YAML wants `key: value` lines, indented by spaces"
        )
    except RecursionError:  # PyYAML composes nested collections by recursion
        return None, _invalid(
            "collections nested too deeply",
            path,
            1,
            1,
            "a ruleset nests a few levels deep; look for runs of [ or {",
        )
    if node is None:
        node = MappingNode("tag:yaml.org,2002:map", [])
    problems = (
        (_tag_problems(text, path) + _key_problems(node, path))
        or _alias_problems(node, path)
        or _text_problems(node, path, text)
    )
    if problems:
        return None, problems
    builder = Builder(path, fragments or FragmentParser())
    schema, faulty = _schema_problems(node, path)
    if schema:  # what the schema finds sound is read too: its cells' errors are reported
        sound = _sound_part(node, faulty)
        if sound is not None:
            builder.document(sound)
        return None, schema + builder.diagnostics
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
    if "!" not in text or _TAG_START.search(text) is None:  # the first: a scan in C
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


def _nodes(root: Node, keys: bool) -> Iterator[Node]:
    """Each node of the document once (an alias shares its node, and may hold itself), depth
    first: a sequence's items in order, a mapping's values (with ``keys``, each key before its
    value)."""
    stack = [root]
    seen: set[int] = set()
    while stack:
        here = stack.pop()
        if id(here) in seen:
            continue
        seen.add(id(here))
        yield here
        if isinstance(here, SequenceNode):
            stack.extend(reversed(here.value))
        elif isinstance(here, MappingNode) and keys:
            stack.extend(n for pair in reversed(here.value) for n in reversed(pair))
        elif isinstance(here, MappingNode):
            stack.extend(value for _, value in here.value)


def _key_problems(root: Node, path: str) -> list[Diagnostic]:
    """E121 for a key written twice in one mapping (YAML readers keep one of the two
    silently), E122 for a merge key ``<<`` or a key that is a list or a mapping. A key is the
    text written: ``no:``, ``1:`` and ``~:`` are the keys 'no', '1' and '~' (and ``'no'`` is
    the same key as ``no``): each key's node is tagged as text here, so that every later
    stage reads its text (a ``null:`` key stays 'null', not nothing)."""
    out = []
    for here in _nodes(root, keys=False):
        if not isinstance(here, MappingNode):
            continue
        first: dict[str, ScalarNode] = {}
        for key, _ in here.value:
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
                        node_pos(path, key),
                        "keep one of them: YAML readers would silently keep only one",
                        [Related(node_pos(path, earlier), f"'{key.value}' is first written here")],
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


_UNALIAS = "write the values out, or use fewer aliases"
_SPLIT = "split the ruleset: move what several rulesets share into a base and `extends` it"


def _tree_size(root: Node) -> int | None:
    """How many nodes ``root`` holds, when no node is reached twice (no alias shares one);
    None when one is."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        here = stack.pop()
        if id(here) in seen:
            return None
        seen.add(id(here))
        if isinstance(here, SequenceNode):
            stack.extend(here.value)
        elif isinstance(here, MappingNode):
            for pair in here.value:
                stack.extend(pair)
    return len(seen)


def _alias_problems(root: Node, path: str) -> list[Diagnostic]:
    """E120 when aliases make a node hold itself, or make the document larger than
    MAX_VALUES once expanded (a "billion laughs": ten aliases of ten aliases of ...), which
    the schema check and every later stage would walk in full. A tree of at most MAX_VALUES
    nodes (most files: no alias) has neither, and is not sized node by node."""
    size = _tree_size(root)
    if size is not None and size <= MAX_VALUES:
        return []
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
            if sizes[key] > MAX_VALUES and len(sizes) >= sizes[key]:  # no alias needed for it
                problem = (
                    f"this YAML holds more than {MAX_VALUES:,} keys and values",
                    _SPLIT,
                    node,
                )
            elif sizes[key] > MAX_VALUES:
                problem = (
                    f"the aliases expand this YAML to more than {MAX_VALUES:,} values",
                    _UNALIAS,
                    node,
                )
        elif key in ancestors:
            problem = ("an alias makes this node hold itself", _UNALIAS, node)
        elif key not in sizes:
            ancestors.add(key)
            stack.append((node, True))
            stack.extend((k, False) for k in _children(node))
    if problem is None:
        return []
    message, hint, node = problem
    mark = node.start_mark
    return [
        error(
            "E120",
            message,
            s.Pos(path, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2),
            hint,
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


_LONG_NUMBER = re.compile(r"\d{309}")


def _text_problems(node: Node, path: str, text: str) -> list[Diagnostic]:
    """E004 for each key or value that holds a control character (other than a tab or a line
    break) or half a surrogate pair: what the DSL refuses in a string, YAML escapes (``"\\0"``,
    ``"\\e"``, ``"\\ud800"``) must not let in; E005 for a number too large for a float.
    A value holds only what its file's ``text`` holds, but for escapes: a text without such
    characters, a backslash or a run of 309 digits has neither, and its nodes are not read."""
    if not (
        CONTROL.search(text) or SURROGATE.search(text) or "\\" in text or _LONG_NUMBER.search(text)
    ):
        return []
    out = []
    for here in _nodes(node, keys=True):
        if not isinstance(here, ScalarNode):
            continue
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
    return out


SCHEMA_HINT = "`rulesdsl schema authoring` prints the schema a YAML ruleset follows"
"""Where to read the format: a command every install has (docs/editors.md tells how to point
an editor at the schema)."""


Steps = tuple[str | int, ...]
"""A path into a YAML document: keys and sequence indexes."""


def _sound_part(node: Node, faulty: list[Steps]) -> Node | None:
    """``node`` without what the schema found wrong, the least taken away that leaves it
    valid: the faulty keys, else the items holding them, else their sections (a file that
    misses a key it needs stays so). None when no such part is valid."""
    for depth in (None, 2, 1):
        cut = {steps[:depth] for steps in faulty if steps[:depth]}
        pruned = _without(node, cut, ())
        errors = _validate(pruned)
        if errors is not None and all(e.validator == "required" for e in errors):
            return pruned
    return None


def _without(node: Node, cut: set[Steps], at: Steps) -> Node:
    """A copy of the document without the nodes at the paths in ``cut``."""
    if not any(steps[: len(at)] == at for steps in cut):
        return node
    if isinstance(node, MappingNode):
        pairs = [(k, _without(v, cut, (*at, k.value))) for k, v in node.value]
        kept = [(k, v) for k, v in pairs if (*at, k.value) not in cut]
        return MappingNode(node.tag, kept, node.start_mark, node.end_mark, node.flow_style)
    if isinstance(node, SequenceNode):
        items = [_without(v, cut, (*at, i)) for i, v in enumerate(node.value)]
        kept_items = [v for i, v in enumerate(items) if (*at, i) not in cut]
        return SequenceNode(node.tag, kept_items, node.start_mark, node.end_mark, node.flow_style)
    return node


def _validate(node: Node) -> list[Any] | None:
    """The schema's errors for a document (None: it does not construct)."""
    import jsonschema

    try:
        data = _TextKeyLoader("").construct_document(node)
    except yaml.YAMLError:
        return None
    return list(jsonschema.Draft202012Validator(_checking_schema()).iter_errors(data))


def _schema_problems(node: Node, path: str) -> tuple[list[Diagnostic], list[Steps]]:
    """What the authoring schema finds wrong, and the paths of the nodes at fault."""
    import jsonschema

    try:
        data = _TextKeyLoader("").construct_document(node)
    except yaml.YAMLError as exc:  # not expected after the checks above; placed, not raised
        mark = getattr(exc, "problem_mark", None) or node.start_mark
        pos = s.Pos(path, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2)
        problem = getattr(exc, "problem", None) or str(exc)
        return [error("E001", f"invalid YAML: {problem}", pos, "rulesets use plain YAML")], []
    validator = jsonschema.Draft202012Validator(_checking_schema())
    out = []
    faulty: list[Steps] = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path))):
        target = _node_at(node, list(err.absolute_path))
        message = err.message
        faulty.append(tuple(err.absolute_path))
        if err.validator == "additionalProperties" and isinstance(target, MappingNode):
            allowed = set(err.schema.get("properties", {}))
            patterns = [re.compile(p) for p in err.schema.get("patternProperties", {})]
            for key, _ in target.value:
                if key.value not in allowed and not any(p.search(key.value) for p in patterns):
                    faulty[-1] += (key.value,)
                    target = key
                    message = f"'{key.value}' is not a key here"
                    close = did_you_mean(key.value, allowed)
                    hint = (
                        (close + " " if close else "")
                        + "expected one of: "
                        + ", ".join(sorted(allowed))
                    )
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
            hint = hint or SCHEMA_HINT
        where = ".".join(map(str, err.absolute_path)) or "the file"
        out.append(error("E120", f"{where}: {message}", node_pos(path, target), hint))
    return out, faulty


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
