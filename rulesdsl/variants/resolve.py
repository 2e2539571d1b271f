"""Resolve `extends`: merge a variant into its base, at the level of syntax.

A variant is a ruleset file that says `extends <base>@<requirement>` and then only what it
changes: new declarations are added, a block re-opened with the base's name (`layer terrain
{ ... }`) gets new rows, `override <path> | <cell>` replaces one cell, `override <dice>.<row>
range R` re-ranges a dice row, `override <decision>.<row>: ...` replaces a decision row,
`insert <decision> before|after <row>: ...` adds one, and `remove <path>` takes an item away. A
header line (`units`, `stacking`, `minimum move`, `languages`) replaces the base's. The result
is one flat list of statements that :mod:`rulesdsl.lowering.lower` compiles like any other
file, so a
variant's module is complete on its own. docs/variants.md lists every path.

The base arrives already resolved (the compiler resolves each file once, bases first, so a
chain of N variants costs N merges), or as a :class:`Cycle` when it is still being resolved.
Every change is recorded in the IR (``Ruleset.changes``) under a typed path
(:data:`rulesdsl.ir.ChangePath`); :func:`rulesdsl.variants.changelog.path_text` spells it.

Diagnostics that lowering finds in the base's lines after the merge were caused by the
variant: :func:`attribute` moves them to the variant's line that caused them, with the base's
line as a related note, and drops what the base reports about itself.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import fields, is_dataclass, replace
from functools import cache
from operator import attrgetter
from typing import Any, cast

from rulesdsl import ir, spelling
from rulesdsl.diagnostics import Diagnostic, Related, error
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.memo import PARSED
from rulesdsl.ir.records import dataclass, exec_kept
from rulesdsl.variants.lineage import Lineage
from rulesdsl.variants.merge import Merger, inherit
from rulesdsl.variants.merging import Gap

REQUIREMENT = re.compile(r"(\^|~|>=|<=|==|>|<)?(\d+(?:\.\d+){0,2})")
MAX_ID = 64
"""The longest ruleset id `extends` accepts (ids become file names)."""
ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def digest(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _plain(node: Any) -> Any:
    """``node`` as plain data without positions: what a digest of meaning is taken over."""
    if isinstance(node, s.Pos):
        return None
    names = _meaning_fields(cast(Any, type(node)))  # a class is hashable, whatever typeshed says
    if names is not None:
        return [type(node).__name__, *(_plain(v) for v in _meaning_values(node, names))]
    if isinstance(node, tuple | list):
        return [_plain(x) for x in node]
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in sorted(node.items())}
    return node


@cache
def _meaning_fields(cls: type) -> tuple[tuple[str, bool], ...] | None:
    """The fields of a syntax node class but its position, each with whether it is left out
    while None (:data:`rulesdsl.frontends.syntax.OMITTED_WHEN_NONE`); None for a class that
    is not a dataclass (asked once per class: a digest visits every node of a file)."""
    if not is_dataclass(cls):
        return None
    return tuple(
        (f.name, bool(f.metadata.get(s.OMITTED_WHEN_NONE))) for f in fields(cls) if f.name != "pos"
    )


def _meaning_values(node: Any, names: tuple[tuple[str, bool], ...]) -> list[Any]:
    """The node's values for the digest (a field omitted while None left out)."""
    return [
        value
        for name, omitted_when_none in names
        if (value := getattr(node, name)) is not None or not omitted_when_none
    ]


def statements_digest(statements: Iterable[s.Statement]) -> str:
    """A digest of what statements say: comments, blank lines, layout and `fmt` never change
    it (positions are left out), any change of a name, value, label or note does.

    The text digested is ``_plain`` of the statements as JSON; the JSON encoder asks
    :func:`_as_list` for each node as it meets it, rather than a copy of the whole file as
    plain data being made first (a third of the time, and the same bytes)."""
    text = json.dumps(
        list(statements),
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
        default=_as_list,
        check_circular=False,  # syntax nodes hold no cycles
    )
    return digest(text)


def _own_digest(source: s.SourceFile) -> str:
    return statements_digest(source.statements)


def _as_list(node: Any) -> Any:
    """What :func:`_plain` makes of one node, its children left for the encoder (a tuple is
    written as a list is)."""
    return _READERS[type(node)](node)


class _Readers(dict[type, Callable[[Any], Any]]):
    """:func:`_as_list`'s reader of each class, made on first use (:func:`_reader`)."""

    def __missing__(self, cls: type) -> Callable[[Any], Any]:
        made = self[cls] = _reader(cls)
        return made


_READERS = _Readers()


def _reader(cls: type) -> Callable[[Any], Any]:
    """:func:`_as_list` for the nodes of one class (issue 44: the digest reads every node of
    a file, and is a tenth of a compile): a class with no field left out while None is read
    by one ``attrgetter`` of its class's name and its fields, a tuple (no Python call); the
    others by a function written for the class, each field's test inline."""
    if issubclass(cls, s.Pos):
        return lambda _node: None
    names = _meaning_fields(cast(Any, cls))
    if names is None:  # as json.dumps of _plain's data would have said

        def refuse(node: Any) -> Any:
            raise TypeError(f"Object of type {type(node).__name__} is not JSON serializable")

        return refuse
    kind = cls.__name__
    if not names:
        return lambda _node: [kind]
    if not any(omitted for _, omitted in names):
        return attrgetter("__class__.__name__", *(name for name, _ in names))
    lines = [f"def read(node):\n    out = [{kind!r}]\n"]
    for name, omitted in names:
        assert name.isidentifier(), name
        if omitted:
            lines.append(f"    if (value := node.{name}) is not None:\n        out.append(value)\n")
        else:
            lines.append(f"    out.append(node.{name})\n")
    scope: dict[str, Any] = {}
    exec_kept("".join(lines) + "    return out\n", scope, scope)  # code kept between runs
    return cast(Callable[[Any], Any], scope["read"])


@dataclass(frozen=True, slots=False)
class Resolved:
    statements: tuple[s.Statement, ...]
    lineage: Lineage
    version: str
    version_pos: s.Pos | None = None
    causes: tuple[tuple[s.Pos, ...], ...] = ()
    """Per statement: the variant's lines that changed it, in order (empty: as in the base)."""
    removed: tuple[tuple[str, s.Pos], ...] = ()
    """Names the variant removed, with the `remove` line."""
    gaps: tuple[Gap, ...] = ()
    extends_pos: s.Pos | None = None
    inherited: tuple[Diagnostic, ...] = ()
    """What the base says about itself: reported for the base, not again for the variant."""
    overridden: tuple[tuple[tuple[str, ...], s.Pos], ...] = ()
    """Each override's address (``("woods", "cover")``) and where its path is written."""


@dataclass(frozen=True, slots=False)
class Base:
    """A base as the compiler found it: resolved, or None when it has errors (its own
    diagnostics say which)."""

    path: str
    resolved: Resolved | None
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True, slots=False)
class Cycle:
    """The base is still being resolved: `extends` goes round. ``chain``: each file on the way
    round from the base to the variant, as (name for messages, its `extends` base position)."""

    chain: tuple[tuple[str, s.Pos | None], ...]


Loader = Callable[[str], "Base | Cycle | None"]
"""Finds a base ruleset by id, resolved; None when there is no such file."""


def resolve(source: s.SourceFile, load: Loader) -> tuple[Resolved | None, list[Diagnostic]]:
    """Flatten ``source`` with its (already resolved) base; diagnostics for what does not
    fit."""
    own_digest = PARSED.digest(source, _own_digest)
    versions = s.of_kind(source.statements, s.VersionDecl)
    version = versions[-1].version if versions else "0.0.0"
    version_pos = versions[-1].pos if versions else None
    extends = s.of_kind(source.statements, s.ExtendsDecl)
    if not extends:
        return Resolved(source.statements, Lineage(own_digest), version, version_pos), []
    diags: list[Diagnostic] = []
    for extra in extends[1:]:
        diags.append(
            error(
                "E110",
                "a ruleset extends one base",
                extra.pos,
                "chain variants instead: A extends B, B extends C",
            )
        )
    ext = extends[0]
    name = _ruleset_id(source)
    if len(ext.base.text) > MAX_ID or not ID.fullmatch(ext.base.text):
        return None, [
            *diags,
            error(
                "E501",
                f"'{ext.base.text[:MAX_ID]}...' is not a ruleset id: ids have at most "
                f"{MAX_ID} characters",
                ext.base.pos,
                "name the base by its file stem",
            ),
        ]
    if not REQUIREMENT.fullmatch(ext.requirement):
        diags.append(
            error(
                "E111",
                f"malformed requirement '{ext.requirement}'",
                ext.pos,
                "write e.g. ^1.0, ~1.2, >=1.0.0 or ==1.0.0",
            )
        )
    found = _usable_base(ext, load(ext.base.text), diags)
    if isinstance(found, list):
        return None, found
    loaded, base = found
    if REQUIREMENT.fullmatch(ext.requirement):
        diags += _unsatisfied(ext, base)
    diags += _own_header(source, name)
    merger = Merger([inherit(st, ext.base.text) for st in base.statements])
    changes = merger.apply(source.statements)
    diags += merger.diags
    ancestors = (
        ir.Ancestor(ext.base.text, base.version, base.lineage.digest),
        *base.lineage.extends,
    )
    lineage = Lineage(own_digest, ancestors, tuple(changes))
    causes = tuple(tuple(merger.cause.get(id(st), ())) for st in merger.statements)
    return Resolved(
        tuple(merger.statements),
        lineage,
        version,
        version_pos,
        causes,
        tuple(merger.removed),
        tuple(merger.gaps),
        ext.base.pos,
        loaded.diagnostics,
        tuple((address, pos) for address, (pos, _) in merger.overridden.items()),
    ), diags


def _usable_base(
    ext: s.ExtendsDecl, loaded: Base | Cycle | None, diags: list[Diagnostic]
) -> tuple[Base, Resolved] | list[Diagnostic]:
    """The base ``ext`` names, resolved; else every diagnostic of the variant (``diags`` and
    why the base cannot serve: a cycle E503, no such file E501, errors of its own E507)."""
    if isinstance(loaded, Cycle):
        loop = [n for n, _ in loaded.chain] + [ext.base.text]
        related = [
            Related(pos, f"'{n}' extends '{loop[i + 1]}' here")
            for i, (n, pos) in enumerate(loaded.chain[:-1])
            if pos is not None
        ]
        return [
            error(
                "E503",
                f"a cycle in `extends`: {' -> '.join(loop)}",
                ext.base.pos,
                "remove `extends` from one ruleset of the cycle",
                related,
            )
        ]
    if loaded is None:
        return [
            *diags,
            error(
                "E501",
                f"no base ruleset '{ext.base.text}'",
                ext.base.pos,
                "the base must be a .terrain file beside this one, named after its id",
            ),
        ]
    base = loaded.resolved
    if base is None:
        cycles = [d for d in loaded.diagnostics if d.code == "E503"]
        if cycles:  # this file is on the cycle too: the same error, said once
            return [*diags, *cycles]
        errors = [d for d in loaded.diagnostics if d.is_error]
        first = errors[0] if errors else None
        related = (
            [Related(first.pos, f"its first error: {first.message}")]
            if (first is not None and first.pos is not None)
            else []
        )
        count = len(errors)
        return [
            *diags,
            error(
                "E507",
                f"the base '{ext.base.text}' has {count} error{'s' * (count != 1)}, "
                "reported for its own file",
                ext.base.pos,
                f"fix {loaded.path} first: `rulesdsl check {loaded.path}`",
                related,
            ),
        ]
    return loaded, base


def _unsatisfied(ext: s.ExtendsDecl, base: Resolved) -> list[Diagnostic]:
    """E502 when the base's version does not satisfy the variant's requirement."""
    if satisfies(base.version, ext.requirement):
        return []
    related = (
        [Related(base.version_pos, f"'{ext.base.text}' declares its version here")]
        if base.version_pos
        else []
    )
    return [
        error(
            "E502",
            f"'{ext.base.text}' is at {base.version}, which does not satisfy {ext.requirement}",
            ext.pos,
            f"require @^{base.version} if this variant fits that version",
            related,
        )
    ]


def attribute(diags: Iterable[Diagnostic], resolved: Resolved, own_file: str) -> list[Diagnostic]:
    """Diagnostics of a variant's merged statements, placed where the variant caused them.

    One that the base reports about itself is dropped (it is reported once, for the base). One
    in a base's line moves to the variant's line that changed that statement (or removed a
    name it quotes; else the `extends` line), with the base's line as a related note. A
    coverage error after a removed dice row says which neighbour to re-range.
    """
    out = []
    inherited = {(d.code, d.message, d.pos) for d in resolved.inherited}
    changed: Changed | None = None  # walked when a diagnostic needs it: most compiles, none
    for d in diags:
        if d.pos is None or d.pos.file == own_file or resolved.extends_pos is None:
            out.append(d)
            continue
        if (d.code, d.message, d.pos) in inherited:
            continue
        if changed is None:
            changed = _changed_lines(resolved)
        causes = (
            _cause(d, resolved, changed)
            or _related_cause(d, resolved, changed)
            or [resolved.extends_pos]
        )
        causes = _of_the_cells(d, causes, resolved)
        gap = _gap_of(d, resolved)
        hint = d.hint
        if gap is not None:  # a coverage error after a removed dice row: blame the removal
            causes = [*(p for p in causes if p != gap.pos), gap.pos]
            hint = _rerange_hint(gap) or hint
        out.append(
            replace(
                d,
                pos=causes[-1],
                hint=hint,
                related=(
                    Related(d.pos, "in the base, as this variant changed it"),
                    *(Related(p, "this line changed it too") for p in causes[:-1]),
                    *d.related,
                ),
            )
        )
    return out


Changed = list[tuple[dict[str, tuple[int, int]], list[s.Pos]]]
"""Each statement a variant changed: its first and last line in each file, and the variant's
lines that changed it."""


def _changed_lines(resolved: Resolved) -> Changed:
    """The statements the variant changed, each walked once for its lines (walking them again
    for every diagnostic made 10,000 failing examples cost examples x changes)."""
    out: Changed = []
    for st, cause in zip(resolved.statements, resolved.causes, strict=False):
        if not cause:
            continue
        spans: dict[str, tuple[int, int]] = {}
        for p in _positions(st):
            low, high = spans.get(p.file, (p.line, p.line))
            spans[p.file] = (min(low, p.line), max(high, p.line))
        out.append((spans, list(dict.fromkeys(cause))))
    return out


def _of_the_cells(d: Diagnostic, causes: list[s.Pos], resolved: Resolved) -> list[s.Pos]:
    """An inherited example's changed answer (E271): of the override lines that changed the
    statement, those of the cells that give the answer (named in the hint: ``woods.walker``),
    not another column of the same feature (``override woods.cover``, issue 39)."""
    if d.code != "E271" or len(causes) < 2 or d.hint is None:
        return causes
    cells = [c.partition(".") for c in re.findall(r"(\w+\.\w+): ", d.hint)]
    lines = {(p.file, p.line): address for address, p in resolved.overridden}

    def of_another_cell(pos: s.Pos) -> bool:
        address = lines.get((pos.file, pos.line))
        return address is not None and not any(
            address[0] == feature and (len(address) == 1 or address[1] in (column, "cost"))
            for feature, _, column in cells
        )

    return [p for p in causes if not of_another_cell(p)] or causes


def _cause(d: Diagnostic, resolved: Resolved, changed: Changed) -> list[s.Pos]:
    """The variant's lines that changed the statement holding ``d`` (the last one last)."""
    assert d.pos is not None
    best: tuple[int, list[s.Pos]] | None = None
    for spans, cause in changed:
        span = spans.get(d.pos.file)
        if span is not None and span[0] <= d.pos.line <= span[1]:
            size = span[1] - span[0]
            if best is None or size < best[0]:
                best = (size, cause)
    if best is not None:
        return best[1]
    quoted = set(re.findall(r"'([^']+)'", d.message))
    return [pos for name, pos in resolved.removed if name in quoted][-1:]


def _related_cause(d: Diagnostic, resolved: Resolved, changed: Changed) -> list[s.Pos]:
    """The variant's lines that changed a statement one of ``d``'s notes points at (a worked
    example the variant did not touch, whose answer changed with a cell it overrode)."""
    for r in d.related:
        found = _cause(replace(d, pos=r.pos, message=""), resolved, changed)
        if found:
            return found
    return []


def _gap_of(d: Diagnostic, resolved: Resolved) -> Gap | None:
    """The removed dice row behind a coverage error (E301, E303), if any."""
    if d.code not in ("E301", "E303"):
        return None
    names = _names_at(d, resolved)
    return next((gap for gap in reversed(resolved.gaps) if gap.table in names), None)


def _rerange_hint(gap: Gap) -> str | None:
    """Which neighbour of a removed dice row to re-range to close the gap, and how."""
    options = []
    for side, row in (("below", gap.below), ("above", gap.above)):
        if row is None:
            continue
        name, low, high = row
        new = (low, gap.high) if side == "below" else (gap.low, high)
        options.append(f"`override {gap.table}.{name} range {spelling.dice_range(*new)}`")
    if not options:
        return None
    return (
        f"re-range a neighbour of the removed row to cover "
        f"{spelling.dice_range(gap.low, gap.high)}: {' or '.join(options)}"
    )


def _names_at(d: Diagnostic, resolved: Resolved) -> set[str]:
    """The names of the dice tables declared at the diagnostic's line."""
    assert d.pos is not None
    return {
        st.item.name.text
        for st in resolved.statements
        if isinstance(st, s.DiceDecl)
        and st.item.name.pos.file == d.pos.file
        and st.item.name.pos.line == d.pos.line
    }


def _positions(node: Any) -> Iterable[s.Pos]:
    if isinstance(node, s.Pos):
        yield node
    elif is_dataclass(node) and not isinstance(node, type):
        for f in fields(node):
            yield from _positions(getattr(node, f.name))
    elif isinstance(node, tuple):
        for x in node:
            yield from _positions(x)


def _ruleset_id(source: s.SourceFile) -> str:
    return next(
        (st.item.name.text for st in source.statements if isinstance(st, s.RulesetDecl)),
        source.path,
    )


def _own_header(source: s.SourceFile, name: str) -> list[Diagnostic]:
    """A variant names itself and has its own version (else it would pass for its base)."""
    pos = s.Pos(source.path, 1, 1, 1, 1)
    out = []
    if not s.of_kind(source.statements, s.RulesetDecl):
        out.append(
            error(
                "E110",
                "a variant declares its own `ruleset`",
                pos,
                'start the file with `ruleset <id> "Title"`',
            )
        )
    if not s.of_kind(source.statements, s.VersionDecl):
        out.append(
            error(
                "E110",
                f"the variant '{name}' has no version of its own",
                pos,
                "add a line such as `version 1.0.0`",
            )
        )
    return out


def satisfies(version: str, requirement: str) -> bool:
    """Cargo-style requirements: ^1.2 (same major), ~1.2 (same minor), >=, <=, >, <, ==."""
    match = REQUIREMENT.fullmatch(requirement)
    if not match or not re.fullmatch(r"\d+\.\d+\.\d+", version):
        return False
    sign, wanted_text = match.group(1) or "^", match.group(2)
    have = tuple(int(x) for x in version.split("."))
    parts = [int(x) for x in wanted_text.split(".")]
    want = tuple(parts + [0] * (3 - len(parts)))
    if sign == "^":
        if want[0] > 0 or len(parts) == 1:
            return have >= want and have[0] == want[0]
        if want[1] > 0 or len(parts) == 2:
            return have >= want and have[:2] == want[:2]
        return have == want
    if sign == "~":
        same = max(1, min(2, len(parts)))
        return have >= want and have[:same] == want[:same]
    compare = {
        ">=": have >= want,
        "<=": have <= want,
        ">": have > want,
        "<": have < want,
        "==": have == want,
    }
    return compare[sign]
