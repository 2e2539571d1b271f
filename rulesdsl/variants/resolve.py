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
from dataclasses import dataclass, fields, is_dataclass, replace
from functools import cache
from typing import Any, Literal, assert_never, cast, get_args

from rulesdsl import ir, spelling, words
from rulesdsl.diagnostics import Diagnostic, Related, did_you_mean, error
from rulesdsl.frontends import syntax as s
from rulesdsl.variants.changelog import path_text
from rulesdsl.variants.lineage import Lineage

COST = "cost"
MODE_CONTEXT = "mode"
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
        return [type(node).__name__, *(_plain(getattr(node, name)) for name in names)]
    if isinstance(node, tuple | list):
        return [_plain(x) for x in node]
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in sorted(node.items())}
    return node


@cache
def _meaning_fields(cls: type) -> tuple[str, ...] | None:
    """The fields of a syntax node class but its position; None for a class that is not a
    dataclass (asked once per class: a digest visits every node of a file)."""
    if not is_dataclass(cls):
        return None
    return tuple(f.name for f in fields(cls) if f.name != "pos")


def statements_digest(statements: Iterable[s.Statement]) -> str:
    """A digest of what statements say: comments, blank lines, layout and `fmt` never change
    it (positions are left out), any change of a name, value, label or note does."""
    text = json.dumps(
        _plain(list(statements)), ensure_ascii=False, sort_keys=True, separators=(",", ":")
    )
    return digest(text)


@dataclass(frozen=True)
class Gap:
    """Totals a removed dice row leaves uncovered, and the neighbours that could close it."""

    table: str
    low: int | None
    high: int | None
    below: tuple[str, int | None, int | None] | None
    above: tuple[str, int | None, int | None] | None
    pos: s.Pos


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Base:
    """A base as the compiler found it: resolved, or None when it has errors (its own
    diagnostics say which)."""

    path: str
    resolved: Resolved | None
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True)
class Cycle:
    """The base is still being resolved: `extends` goes round. ``chain``: each file on the way
    round from the base to the variant, as (name for messages, its `extends` base position)."""

    chain: tuple[tuple[str, s.Pos | None], ...]


Loader = Callable[[str], "Base | Cycle | None"]
"""Finds a base ruleset by id, resolved; None when there is no such file."""


def resolve(source: s.SourceFile, load: Loader) -> tuple[Resolved | None, list[Diagnostic]]:
    """Flatten ``source`` with its (already resolved) base; diagnostics for what does not
    fit."""
    own_digest = statements_digest(source.statements)
    versions = [st for st in source.statements if isinstance(st, s.VersionDecl)]
    version = versions[-1].version if versions else "0.0.0"
    version_pos = versions[-1].pos if versions else None
    extends = [st for st in source.statements if isinstance(st, s.ExtendsDecl)]
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
    loaded = load(ext.base.text)
    if isinstance(loaded, Cycle):
        loop = [n for n, _ in loaded.chain] + [ext.base.text]
        related = [
            Related(pos, f"'{n}' extends '{loop[i + 1]}' here")
            for i, (n, pos) in enumerate(loaded.chain[:-1])
            if pos is not None
        ]
        return None, [
            error(
                "E503",
                f"a cycle in `extends`: {' -> '.join(loop)}",
                ext.base.pos,
                "remove `extends` from one ruleset of the cycle",
                related,
            )
        ]
    if loaded is None:
        return None, [
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
            return None, [*diags, *cycles]
        errors = [d for d in loaded.diagnostics if d.is_error]
        first = errors[0] if errors else None
        related = (
            [Related(first.pos, f"its first error: {first.message}")]
            if (first is not None and first.pos is not None)
            else []
        )
        count = len(errors)
        return None, [
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
    if REQUIREMENT.fullmatch(ext.requirement) and not satisfies(base.version, ext.requirement):
        related = (
            [Related(base.version_pos, f"'{ext.base.text}' declares its version here")]
            if base.version_pos
            else []
        )
        diags.append(
            error(
                "E502",
                f"'{ext.base.text}' is at {base.version}, which does not satisfy {ext.requirement}",
                ext.pos,
                f"require @^{base.version} if this variant fits that version",
                related,
            )
        )
    diags += _own_header(source, name)
    merger = _Merger(list(base.statements))
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
    ), diags


def attribute(diags: Iterable[Diagnostic], resolved: Resolved, own_file: str) -> list[Diagnostic]:
    """Diagnostics of a variant's merged statements, placed where the variant caused them.

    One that the base reports about itself is dropped (it is reported once, for the base). One
    in a base's line moves to the variant's line that changed that statement (or removed a
    name it quotes; else the `extends` line), with the base's line as a related note. A
    coverage error after a removed dice row says which neighbour to re-range.
    """
    out = []
    inherited = {(d.code, d.message, d.pos) for d in resolved.inherited}
    for d in diags:
        if d.pos is None or d.pos.file == own_file or resolved.extends_pos is None:
            out.append(d)
            continue
        if (d.code, d.message, d.pos) in inherited:
            continue
        causes = _cause(d, resolved) or [resolved.extends_pos]
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


def _cause(d: Diagnostic, resolved: Resolved) -> list[s.Pos]:
    """The variant's lines that changed the statement holding ``d`` (the last one last)."""
    assert d.pos is not None
    best: tuple[int, list[s.Pos]] | None = None
    for st, cause in zip(resolved.statements, resolved.causes, strict=False):
        if not cause:
            continue
        lines = [p.line for p in _positions(st) if p.file == d.pos.file]
        if lines and min(lines) <= d.pos.line <= max(lines):
            size = max(lines) - min(lines)
            if best is None or size < best[0]:
                best = (size, list(dict.fromkeys(cause)))
    if best is not None:
        return best[1]
    quoted = set(re.findall(r"'([^']+)'", d.message))
    return [pos for name, pos in resolved.removed if name in quoted][-1:]


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
    if not any(isinstance(st, s.RulesetDecl) for st in source.statements):
        out.append(
            error(
                "E110",
                "a variant declares its own `ruleset`",
                pos,
                'start the file with `ruleset <id> "Title"`',
            )
        )
    if not any(isinstance(st, s.VersionDecl) for st in source.statements):
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


# ---- merging ------------------------------------------------------------------------------

_HEADER = (
    s.RulesetDecl,
    s.VersionDecl,
    s.LanguagesDecl,
    s.UnitsDecl,
    s.StackingDecl,
    s.MinimumDecl,
)
_RECORDED_HEADER: dict[type, ir.HeaderLine] = {
    s.LanguagesDecl: "languages",
    s.UnitsDecl: "units",
    s.StackingDecl: "stacking",
    s.MinimumDecl: "minimum_move",
}
_BLOCKS = (s.LayerDecl, s.ModifierDecl, s.TableDecl, s.DiceDecl, s.ContextDecl)
Block = s.LayerDecl | s.ModifierDecl | s.TableDecl | s.DiceDecl | s.ContextDecl
Form = Literal["one", "cell", "range", "row", "text", "name"]
"""What an override must write: one value, a whole cell, a dice range, a decision row, or one
quoted text (a label or a note)."""


def _form_hint(form: Form) -> str:
    """How an override of that form is written."""
    match form:
        case "one":
            return "one value, e.g. `| 2`; override the whole cell to change several"
        case "cell":
            return "a cell, e.g. `| 2, walker 1`"
        case "range":
            return "a range of totals, e.g. `range 10-12`, `range 12+` or `range 2-`"
        case "row":
            return "a decision row, e.g. `: range <= 6 -> auto`"
        case "text":
            return 'one quoted text, e.g. `| "Soft ground"`'
        case "name":
            return "one name, e.g. `| heavy`"
        case _:
            assert_never(form)


Apply = Callable[[s.Statement, s.OverrideDecl], s.Statement]
_TRIGGER_FIELDS: tuple[ir.TriggerField, ...] = get_args(ir.TriggerField)


@dataclass(frozen=True)
class _Cell:
    """Where an override lands: statement ``index``, and how to rewrite that statement."""

    index: int
    address: tuple[str, ...]
    """What two overrides must not share (one may not contain the other)."""
    path: ir.ChangePath
    apply: Apply
    form: Form


class _Merger:
    def __init__(self, statements: list[s.Statement]) -> None:
        self.statements: list[s.Statement] = [
            st for st in statements if not isinstance(st, s.ExtendsDecl)
        ]
        self.diags: list[Diagnostic] = []
        self.overridden: dict[tuple[str, ...], tuple[s.Pos, str]] = {}
        self.pending: list[tuple[ir.Change, s.Extras]] = []
        self.cause: dict[int, list[s.Pos]] = {}
        self.removed: list[tuple[str, s.Pos]] = []
        self.gaps: list[Gap] = []

    def apply(self, variant: tuple[s.Statement, ...]) -> list[ir.Change]:
        for st in variant:
            if isinstance(st, s.ExtendsDecl):
                continue
            before = {id(b) for b in self.statements}
            named = {_key(b): b for b in self.statements}
            self._one(st)
            pos = _pos_of(st)
            for b in self.statements:
                if id(b) not in before:  # new or rewritten: keep what changed it before too
                    was = named.get(_key(b))
                    self.cause[id(b)] = [*self.cause.get(id(was), []), pos] if was else [pos]
        languages = self._languages()
        default = languages[0] if languages else "en"
        return [
            replace(change, info=self._info(extras, default)) for change, extras in self.pending
        ]

    def _one(self, st: s.Statement) -> None:
        if isinstance(st, _HEADER):
            had = any(isinstance(b, type(st)) for b in self.statements)
            self.statements = [b for b in self.statements if not isinstance(b, type(st))]
            self.statements.append(st)
            line = _RECORDED_HEADER.get(type(st))
            if line:
                self._record(
                    "override" if had else "add",
                    ir.HeaderPath(line),
                    getattr(st, "extras", s.Extras()),
                )
        elif isinstance(st, s.OverrideDecl):
            self._override(st)
        elif isinstance(st, s.RemoveDecl):
            self._remove(st)
        elif isinstance(st, s.InsertDecl):
            self._insert(st)
        elif isinstance(st, _BLOCKS) and self._find_block(type(st), st.item.name.text) is not None:
            self._reopen(st)
        else:
            self.statements.append(st)
            item = getattr(st, "item", None)
            if isinstance(item, s.Item):
                self._record("add", ir.NamePath(item.name.text), item.extras)

    def _languages(self) -> tuple[str, ...]:
        return next(
            (
                tuple(n.text for n in st.languages)
                for st in reversed(self.statements)
                if isinstance(st, s.LanguagesDecl)
            ),
            (),
        )

    def _record(
        self, action: Literal["override", "add", "remove"], path: ir.ChangePath, extras: s.Extras
    ) -> None:
        self.pending.append((ir.Change(action, path, ir.Info()), extras))

    def _info(self, extras: s.Extras, default: str) -> ir.Info:
        notes = tuple(
            {(label.lang or default): label.text for label in note} for note in extras.notes
        )
        source = None
        if extras.source is not None:
            ref = extras.source
            books = [st.item.name.text for st in self.statements if isinstance(st, s.BookDecl)]
            if ref.book.text not in books:
                self.diags.append(
                    error(
                        "E101",
                        f"unknown book '{ref.book.text}'",
                        ref.book.pos,
                        did_you_mean(ref.book.text, books),
                    )
                )
            source = ir.Source(ref.book.text, ref.page, ref.detail)
        return ir.Info({}, notes, source)

    # -- lookups ----------------------------------------------------------------------------

    def _find_block(self, kind: type, name: str) -> int | None:
        for i, st in enumerate(self.statements):
            item = getattr(st, "item", None)
            if isinstance(st, kind) and isinstance(item, s.Item) and item.name.text == name:
                return i
        return None

    def _declared(self) -> dict[str, str]:
        """Every declared name in the merged statements, with its kind."""
        out: dict[str, str] = {}
        for st in self.statements:
            item = getattr(st, "item", None)
            if isinstance(item, s.Item):
                out.setdefault(item.name.text, _KINDS.get(type(st), "item"))
            if isinstance(st, s.LayerDecl):
                out.update((r.item.name.text, "feature") for r in st.rows)
            elif isinstance(st, s.ModifierDecl):
                out.update((r.item.name.text, "factor") for r in st.rows)
            elif isinstance(st, s.ContextDecl):
                out.update((v.name.text, "context value") for v in st.values)
            elif isinstance(st, s.DiceDecl):
                out.update((m.item.name.text, "dice modifier") for m in st.modifiers)
        return out

    def _missing(
        self, name: s.Name, message: str, pool: Iterable[str], hint: str | None = None
    ) -> None:
        self.diags.append(error("E504", message, name.pos, did_you_mean(name.text, pool) or hint))

    def _context_values(self, modifier: str) -> list[str]:
        """The values of the context a modifier is keyed by (empty if it has none)."""
        mod = next(
            (
                st
                for st in self.statements
                if isinstance(st, s.ModifierDecl) and st.item.name.text == modifier
            ),
            None,
        )
        if mod is None or mod.context is None:
            return []
        ctx = next(
            (
                st
                for st in self.statements
                if isinstance(st, s.ContextDecl) and st.item.name.text == mod.context.text
            ),
            None,
        )
        if ctx is None and mod.context.text == MODE_CONTEXT:  # `by mode`: modes and groups
            return self._modes_and_groups()
        return [v.name.text for v in ctx.values] if ctx else []

    def _modes_and_groups(self) -> list[str]:
        return [
            st.item.name.text for st in self.statements if isinstance(st, s.ModeDecl | s.GroupDecl)
        ]

    def _items(self) -> dict[tuple[str, ...], tuple[int, s.Item]]:
        """Every item that has labels, by the path that names it: declared names alone
        (``soft``, ``energy``), members of a block as ``block.member`` (``speed.light``,
        ``effects.fire``, ``lock.auto`` for a decision row by its outcome)."""
        out: dict[tuple[str, ...], tuple[int, s.Item]] = {}
        for i, st in enumerate(self.statements):
            item = getattr(st, "item", None)
            if not isinstance(item, s.Item):
                continue
            out.setdefault((item.name.text,), (i, item))
            block = item.name.text
            members: list[s.Item] = []
            globals_ = False
            if isinstance(st, s.LayerDecl | s.ModifierDecl):
                members, globals_ = [r.item for r in st.rows], True
            elif isinstance(st, s.ContextDecl):
                members, globals_ = list(st.values), True
            elif isinstance(st, s.TableDecl):
                members = [*st.columns, *(r.item for r in st.rows)]
            elif isinstance(st, s.DiceDecl):
                members = [*(r.item for r in st.rows)]
                out.update(((m.item.name.text,), (i, m.item)) for m in st.modifiers)
                members += [m.item for m in st.modifiers]
            elif isinstance(st, s.DecisionDecl):
                members = [r.outcome for r in st.rows]
            for member in members:
                out.setdefault((block, member.name.text), (i, member))
                if globals_:
                    out.setdefault((member.name.text,), (i, member))
        return out

    # -- re-opened blocks -------------------------------------------------------------------

    def _reopen(self, st: Block) -> None:
        index = self._find_block(type(st), st.item.name.text)
        assert index is not None
        base = self.statements[index]
        block = st.item.name.text
        if isinstance(st, s.ContextDecl) and isinstance(base, s.ContextDecl):
            self.statements[index] = replace(base, values=base.values + st.values)
            for v in st.values:
                self._record("add", ir.NamePath(v.name.text), v.extras)
            return
        assert isinstance(base, s.LayerDecl | s.ModifierDecl | s.TableDecl | s.DiceDecl)
        assert not isinstance(st, s.ContextDecl)
        merged: s.Statement = replace(base, rows=base.rows + st.rows)  # type: ignore[arg-type]
        if isinstance(st, s.ModifierDecl) and isinstance(merged, s.ModifierDecl):
            merged = replace(merged, whens=merged.whens + st.whens)
            if st.combine is not None:  # `modifier cover combine highest`: a new policy
                merged = replace(merged, combine=st.combine)
                self._record("override", ir.PolicyPath(block, "combine"), st.item.extras)
            if st.clamp is not None:
                merged = replace(merged, clamp=st.clamp)
                self._record("override", ir.PolicyPath(block, "clamp"), st.item.extras)
            for when in st.whens:
                self._record(
                    "add",
                    ir.CombinationPath(block, tuple(m.text for m in when.members)),
                    when.extras,
                )
        if isinstance(st, s.DiceDecl) and isinstance(merged, s.DiceDecl):
            merged = replace(merged, modifiers=merged.modifiers + st.modifiers)
            if st.dice.value != merged.dice.value:
                self.diags.append(
                    error(
                        "E201",
                        f"re-opening '{block}' keeps its dice",
                        st.dice.pos,
                        "write the base's dice here; to change them, remove the table and "
                        "declare it again",
                        [Related(merged.dice.pos, "the base's dice")],
                    )
                )
            for mod in st.modifiers:
                self._record("add", ir.NamePath(mod.item.name.text), mod.item.extras)
        if isinstance(st, s.TableDecl) and isinstance(merged, s.TableDecl) and st.columns:
            self.diags.append(
                error(
                    "E504",
                    f"columns cannot be added to the table '{block}' of the base",
                    st.columns[0].name.pos,
                    "remove the table and declare it again in full",
                )
            )
        self.statements[index] = merged
        for row in st.rows:
            name = row.item.name.text
            path: ir.ChangePath = (
                ir.NamePath(name)
                if isinstance(st, s.LayerDecl | s.ModifierDecl)
                else ir.TableRowPath(block, name)
                if isinstance(st, s.TableDecl)
                else ir.DiceRowPath(block, name)
            )
            self._record("add", path, row.item.extras)

    # -- override ---------------------------------------------------------------------------

    def _override(self, st: s.OverrideDecl) -> None:
        target = self._locate(st)
        if target is None:
            return
        canonical = path_text(target.path)
        for address, (pos, path) in self.overridden.items():
            shorter = min(len(address), len(target.address))
            if address[:shorter] == target.address[:shorter]:
                what = (
                    "is overridden twice"
                    if path == canonical
                    else f"overlaps the override of '{path}'"
                )
                self.diags.append(
                    error(
                        "E505",
                        f"'{canonical}' {what}",
                        st.path[0].pos,
                        "keep one override per cell",
                        [Related(pos, "first override here")],
                    )
                )
                return
        if not self._fits(st, target.form, canonical):
            return
        self.statements[target.index] = target.apply(self.statements[target.index], st)
        self.overridden[target.address] = (st.path[0].pos, canonical)
        self._record("override", target.path, st.extras)

    def _fits(self, st: s.OverrideDecl, form: Form, canonical: str) -> bool:
        """Whether the override is written in the form its path takes (E201 if not)."""
        one = (
            st.range is None
            and st.row is None
            and len(st.cell.entries) == 1
            and st.cell.entries[0].key is None
        )
        message = f"`override {canonical}` takes {_form_hint(form).split(',')[0]}"
        match form:
            case "one":
                ok = one
                message = f"`override {canonical}` sets one value"
            case "cell":
                ok = st.range is None and st.row is None
            case "range":
                ok = st.range is not None
            case "row":
                ok = st.row is not None
            case "text":
                ok = one and isinstance(st.cell.entries[0].value.value, ir.Text)
            case "name":
                ok = one and isinstance(st.cell.entries[0].value.value, s.Word)
            case _:
                assert_never(form)
        if not ok:
            pos = (
                st.cell.pos
                if st.range is None and st.row is None and st.cell.entries
                else (st.path[-1].pos)
            )
            self.diags.append(error("E201", message, pos, "write " + _form_hint(form)))
        return ok

    def _locate(self, st: s.OverrideDecl) -> _Cell | None:
        path = st.path
        head = path[0].text
        texts = [p.text for p in path]
        for word in ("label", "note"):
            if word in texts[1:]:
                return self._locate_text(path, texts.index(word, 1))
        for i, base in enumerate(self.statements):
            if (
                isinstance(base, s.ModifierDecl)
                and base.item.name.text == head
                and (len(path) > 1 and path[1].text == "when")
            ):
                return self._locate_when(i, base, path)
            if isinstance(base, s.LayerDecl | s.ModifierDecl):
                for r, row in enumerate(base.rows):
                    if row.item.name.text == head:
                        return self._locate_row(i, base, r, path)
            elif isinstance(base, s.TableDecl) and base.item.name.text == head:
                return self._locate_table(i, base, path)
            elif isinstance(base, s.DiceDecl) and base.item.name.text == head:
                return self._locate_dice(i, base, path, st)
            elif isinstance(base, s.StepDecl) and base.item.name.text == head:
                return self._locate_step(i, base, path)
            elif isinstance(base, s.DecisionDecl) and base.item.name.text == head:
                return self._locate_decision(i, base, path)
            elif isinstance(base, s.TriggerDecl) and base.item.name.text == head:
                return self._locate_trigger(i, base, path)
            elif isinstance(base, s.ParamDecl) and base.item.name.text == head:
                if len(path) > 1:
                    self._missing(
                        path[1],
                        f"the parameter '{head}' has no part '{path[1].text}'",
                        [],
                        f"write `override {head} | value`",
                    )
                    return None
                return _Cell(i, (head,), ir.ParamPath(head), _set_param, "one")
        declared = self._declared()
        kind = declared.get(head)
        overridable = [
            n
            for n, k in declared.items()
            if k
            in (
                "feature",
                "factor",
                "table",
                "dice table",
                "param",
                "step",
                "decision",
                "trigger",
                "modifier",
            )
        ]
        if kind is not None:
            self._missing(
                path[0],
                f"'{head}' is a {kind}: it has no cell to override",
                [],
                "override a feature, factor, table, dice table or parameter, "
                "e.g. `override <feature>.<mode> | 2`",
            )
        else:
            self._missing(
                path[0],
                f"the base has no feature, factor, table, dice table or parameter '{head}'",
                overridable,
            )
        return None

    def _locate_row(
        self, index: int, block: s.LayerDecl | s.ModifierDecl, r: int, path: tuple[s.Name, ...]
    ) -> _Cell | None:
        head = path[0].text
        is_layer = isinstance(block, s.LayerDecl)
        columns = (
            [n.text for n in block.columns]
            if isinstance(block, s.LayerDecl) and block.columns
            else [COST]
        )
        rest = list(path[1:])
        if is_layer and rest and rest[0].text in columns:
            column = rest.pop(0).text
        elif COST in columns or len(columns) == 1:
            column = COST if COST in columns else columns[0]
        else:
            self._missing(
                path[0],
                f"'{head}' has no cost column: name one of its columns",
                [],
                "write e.g. `override " + head + "." + columns[0] + " | ...`",
            )
            return None
        keys = (
            self._modes_and_groups()
            if column == COST and is_layer
            else self._context_values(column if is_layer else block.item.name.text)
        )
        if len(rest) > 1:
            self._missing(
                rest[1], f"a path ends at one value: '{rest[1].text}' is one name too many", []
            )
            return None
        key = rest[0] if rest else None
        if key is not None and key.text not in keys:
            what = "mode or group" if column == COST and is_layer else "context value"
            pool = keys + (columns if is_layer and len(path) == 2 else [])
            self._missing(
                key,
                f"'{head}' has no column, {what} '{key.text}'"
                if is_layer and len(path) == 2
                else f"no {what} '{key.text}' in the '{column}' cell of '{head}'",
                pool,
            )
            return None
        slot = columns.index(column)
        value = key.text if key else None
        change: ir.ChangePath = (
            ir.FactorPath(head, value)
            if not is_layer
            else ir.CostPath(head, value)
            if column == COST
            else ir.ColumnPath(head, column, value)
        )

        def apply(st: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(st, s.LayerDecl | s.ModifierDecl)
            row = st.rows[r]
            cell = o.cell
            cells = list(row.cells) + [s.CellNode((), cell.pos)] * (slot + 1 - len(row.cells))
            cells[slot] = cell if key is None else _set_key(cells[slot], key, cell)
            rows = list(st.rows)
            rows[r] = replace(row, cells=tuple(cells))
            return replace(st, rows=tuple(rows))

        return _Cell(
            index,
            (head, column, *([key.text] if key else [])),
            change,
            apply,
            "cell" if key is None else "one",
        )

    def _locate_when(
        self, index: int, mod: s.ModifierDecl, path: tuple[s.Name, ...]
    ) -> _Cell | None:
        head = path[0].text
        members = [p.text for p in path[2:]]
        whens = [sorted(m.text for m in w.members) for w in mod.whens]
        if sorted(members) not in whens:
            shown = ["+".join(w) for w in whens]
            self._missing(
                path[-1] if len(path) > 2 else path[1],
                f"'{head}' has no `when` combination of {' and '.join(members) or 'nothing'}",
                [],
                f"its combinations: {', '.join(shown)}"
                if shown
                else "add one by re-opening the modifier: `modifier ... { when a, b | +1 }`",
            )
            return None
        w = whens.index(sorted(members))
        names = tuple(m.text for m in mod.whens[w].members)

        def apply(st: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(st, s.ModifierDecl)
            new = list(st.whens)
            new[w] = replace(new[w], cell=o.cell)
            return replace(st, whens=tuple(new))

        return _Cell(
            index, (head, "when", *sorted(members)), ir.CombinationPath(head, names), apply, "cell"
        )

    def _locate_table(
        self, index: int, table: s.TableDecl, path: tuple[s.Name, ...]
    ) -> _Cell | None:
        head = path[0].text
        columns = [c.name.text for c in table.columns]
        rows = [row.item.name.text for row in table.rows]
        if len(path) == 3 and columns:
            if path[1].text not in columns:
                self._missing(
                    path[1], f"the table '{head}' has no column '{path[1].text}'", columns
                )
                return None
            column, row_name = path[1].text, path[2]
        elif len(path) == 2 and len(columns) <= 1:
            column, row_name = (columns[0] if columns else ""), path[1]
        else:
            shape = f"{head}.<column>.<row>" if columns else f"{head}.<row>"
            self._missing(
                path[-1] if len(path) > 1 else path[0],
                f"a cell of the table '{head}' is written `{shape}`",
                [],
                f"columns: {', '.join(columns)}" if columns else None,
            )
            return None
        if row_name.text not in rows:
            self._missing(row_name, f"the table '{head}' has no row '{row_name.text}'", rows)
            return None
        slot = columns.index(column) if column else 0
        r = rows.index(row_name.text)
        change = ir.TableCellPath(head, column or None, row_name.text)

        def apply(st: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(st, s.TableDecl)
            row = st.rows[r]
            cell = o.cell
            cells = list(row.cells) + [s.CellNode((), cell.pos)] * (slot + 1 - len(row.cells))
            cells[slot] = cell
            new_rows = list(st.rows)
            new_rows[r] = replace(row, cells=tuple(cells))
            return replace(st, rows=tuple(new_rows))

        return _Cell(index, (head, column, row_name.text), change, apply, "one")

    def _locate_dice(
        self, index: int, dice: s.DiceDecl, path: tuple[s.Name, ...], st: s.OverrideDecl
    ) -> _Cell | None:
        head = path[0].text
        rows = [row.item.name.text for row in dice.rows]
        modifiers = [m.item.name.text for m in dice.modifiers]
        if len(path) == 2 and path[1].text in modifiers:
            m = modifiers.index(path[1].text)

            def set_modifier(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
                assert isinstance(base, s.DiceDecl)
                mods = list(base.modifiers)
                mods[m] = replace(mods[m], amount=o.cell.entries[0].value)
                return replace(base, modifiers=tuple(mods))

            return _Cell(
                index,
                (head, path[1].text),
                ir.DiceModifierPath(head, path[1].text),
                set_modifier,
                "one",
            )
        ranged = st.range is not None or (len(path) == 3 and path[2].text == "range")
        if len(path) != (3 if len(path) == 3 and path[2].text == "range" else 2):
            self._missing(
                path[-1],
                f"a row of the dice table '{head}' is written `{head}.<row>`",
                [],
                "rows: " + ", ".join(rows),
            )
            return None
        if path[1].text not in rows:
            self._missing(
                path[1], f"the dice table '{head}' has no row '{path[1].text}'", rows + modifiers
            )
            return None
        r = rows.index(path[1].text)
        if ranged:

            def rerange(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
                assert isinstance(base, s.DiceDecl) and o.range is not None
                new_rows = list(base.rows)
                new_rows[r] = replace(base.rows[r], low=o.range[0], high=o.range[1])
                return replace(base, rows=tuple(new_rows))

            return _Cell(
                index,
                (head, path[1].text, "range"),
                ir.DiceRangePath(head, path[1].text),
                rerange,
                "range",
            )

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(base, s.DiceDecl)
            new_rows = list(base.rows)
            new_rows[r] = replace(base.rows[r], effects=o.cell)
            return replace(base, rows=tuple(new_rows))

        return _Cell(
            index,
            (head, path[1].text, "effects"),
            ir.DiceRowPath(head, path[1].text),
            apply,
            "cell",
        )

    def _locate_step(self, index: int, step: s.StepDecl, path: tuple[s.Name, ...]) -> _Cell | None:
        head = path[0].text
        kinds = [t.term for t in step.terms]
        shapes = [f"{head}.{k}.{f}" for k in dict.fromkeys(kinds) for f in words.step_fields(k)]
        term = next((k for k in kinds if len(path) > 1 and k == path[1].text), None)
        fields = () if term is None else words.step_fields(term)
        field = next((f for f in fields if len(path) == 3 and f == path[2].text), None)
        if term is None or field is None:
            bad = path[1] if len(path) > 1 and term is None else path[-1]
            self._missing(
                bad,
                f"a parameter of the step '{head}' is written `step.<term>.<parameter>`",
                [p.split(".", 1)[1] for p in shapes] if len(path) > 1 else [],
                "its parameters: " + ", ".join(shapes),
            )
            return None
        t = kinds.index(term)

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(base, s.StepDecl)
            terms = list(base.terms)
            value = o.cell.entries[0].value
            match field:
                case "amount":
                    terms[t] = replace(terms[t], amount=value)
                case "per" | "at":
                    terms[t] = replace(terms[t], quantity=value)
                case _:
                    assert_never(field)
            return replace(base, terms=tuple(terms))

        return _Cell(
            index,
            (head, term, field),
            ir.StepPath(head, term, field),
            apply,
            "one",
        )

    def _locate_decision(
        self, index: int, decision: s.DecisionDecl, path: tuple[s.Name, ...]
    ) -> _Cell | None:
        head = path[0].text
        if len(path) != 2:
            self._missing(
                path[-1], f"a row of the decision '{head}' is written `{head}.<outcome>`", []
            )
            return None
        r = self._decision_row(decision, path[1])
        if r is None:
            return None

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(base, s.DecisionDecl) and o.row is not None
            rows = list(base.rows)
            rows[r] = o.row
            return replace(base, rows=tuple(rows))

        return _Cell(
            index, (head, path[1].text), ir.DecisionRowPath(head, path[1].text), apply, "row"
        )

    def _decision_row(self, decision: s.DecisionDecl, name: s.Name) -> int | None:
        """The row of a decision named by its outcome (which must be unique)."""
        head = decision.item.name.text
        outcomes = [r.outcome.name.text for r in decision.rows]
        if name.text not in outcomes:
            self._missing(
                name, f"the decision '{head}' has no row that ends in '{name.text}'", outcomes
            )
            return None
        if outcomes.count(name.text) > 1:
            self._missing(
                name,
                f"{outcomes.count(name.text)} rows of '{head}' end in "
                f"'{name.text}': a row is named by a unique outcome",
                [],
                "remove the decision and declare it again",
            )
            return None
        return outcomes.index(name.text)

    def _locate_trigger(
        self, index: int, trigger: s.TriggerDecl, path: tuple[s.Name, ...]
    ) -> _Cell | None:
        head = path[0].text
        field = next((f for f in _TRIGGER_FIELDS if len(path) == 2 and f == path[1].text), None)
        if field is None:
            self._missing(
                path[-1],
                f"a part of the trigger '{head}' is written `{head}.<part>`",
                _TRIGGER_FIELDS if len(path) == 2 else [],
                "its parts: " + ", ".join(_TRIGGER_FIELDS),
            )
            return None
        form: Form
        match field:
            case "table" | "modifier":
                form = "name"
            case "times" | "at_least":
                form = "one"
            case _:
                assert_never(field)

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            assert isinstance(base, s.TriggerDecl)
            value = o.cell.entries[0].value
            word, number = value.value, value.value
            name = word.name if isinstance(word, s.Word) else s.Name("", value.pos)
            count = int(number.value) if isinstance(number, ir.Number) else 0
            match field:
                case "table":
                    return replace(base, table=name)
                case "modifier":
                    return replace(base, modifier=name)
                case "times":
                    return replace(base, times=count)
                case "at_least":
                    return replace(base, at_least=count)
                case _:
                    assert_never(field)

        return _Cell(
            index,
            (head, field),
            ir.TriggerPath(head, field),
            apply,
            form,
        )

    def _locate_text(self, path: tuple[s.Name, ...], at: int) -> _Cell | None:
        """``item.label.lang`` or ``item.note[.N].lang``: an item's text in one language."""
        items = self._items()
        key = tuple(p.text for p in path[:at])
        word = path[at].text
        rest = list(path[at + 1 :])
        index = 1
        if word == "note" and len(rest) == 2 and rest[0].text.isdigit():
            index = int(rest.pop(0).text)
        if key not in items:
            self._missing(
                path[at - 1],
                f"the base has no item '{'.'.join(key)}' to relabel",
                [".".join(k) for k in items],
            )
            return None
        languages = self._languages() or ("en",)
        if len(rest) != 1 or rest[0].text not in languages:
            self._missing(
                rest[0] if rest else path[at],
                f"a {word} is overridden one language at a time: `{'.'.join(key)}.{word}.<lang>`",
                languages,
                "languages: " + ", ".join(languages),
            )
            return None
        lang = rest[0].text
        i, item = items[key]
        if word == "note" and index > len(item.extras.notes) + 1:
            self._missing(
                path[at],
                f"'{'.'.join(key)}' has {len(item.extras.notes)} notes",
                [],
                f"override one of them, or add note {len(item.extras.notes) + 1}",
            )
            return None
        first = languages[0]
        change: ir.ChangePath = (
            ir.LabelPath(".".join(key), lang)
            if word == "label"
            else ir.NotePath(".".join(key), lang, index)
        )

        def apply(base: s.Statement, o: s.OverrideDecl) -> s.Statement:
            value = o.cell.entries[0].value
            assert isinstance(value.value, ir.Text)
            label = s.Label("" if lang == first else lang, value.value.text, value.pos)
            if word == "label":
                new = replace(item, labels=_set_label(item.labels, label, first))
            else:
                notes = list(item.extras.notes)
                if index > len(notes):
                    notes.append(())
                notes[index - 1] = _set_label(notes[index - 1], label, first)
                new = replace(item, extras=replace(item.extras, notes=tuple(notes)))
            rewritten: s.Statement = _replace_node(base, item, new)
            return rewritten

        return _Cell(i, (*key, word, str(index), lang), change, apply, "text")

    # -- insert -----------------------------------------------------------------------------

    def _insert(self, st: s.InsertDecl) -> None:
        index = self._find_block(s.DecisionDecl, st.decision.text)
        if index is None:
            self._missing(
                st.decision,
                f"the base has no decision '{st.decision.text}'",
                [n for n, k in self._declared().items() if k == "decision"],
            )
            return
        decision = self.statements[index]
        assert isinstance(decision, s.DecisionDecl)
        r = self._decision_row(decision, st.anchor)
        if r is None:
            return
        at = r if st.where == "before" else r + 1
        rows = (*decision.rows[:at], st.row, *decision.rows[at:])
        self.statements[index] = replace(decision, rows=rows)
        self._record(
            "add",
            ir.DecisionRowPath(st.decision.text, st.row.outcome.name.text),
            st.row.outcome.extras,
        )

    # -- remove -----------------------------------------------------------------------------

    def _remove(self, st: s.RemoveDecl) -> None:
        path = st.path
        head = path[0].text
        for i, base in enumerate(self.statements):
            if (
                isinstance(base, s.ModifierDecl)
                and base.item.name.text == head
                and (len(path) > 2 and path[1].text == "when")
            ):
                target = self._locate_when(i, base, path)
                if target is not None:
                    members = sorted(p.text for p in path[2:])
                    self.statements[i] = replace(
                        base,
                        whens=tuple(
                            w for w in base.whens if sorted(m.text for m in w.members) != members
                        ),
                    )
                    self._record("remove", target.path, st.extras)
                return
        if len(path) > 2:
            self._missing(path[2], "`remove` takes a name or block.row", [])
            return
        declared = self._declared()
        if len(path) == 1:
            name = path[0].text
            if name not in declared:
                self._missing(path[0], f"the base has no '{name}' to remove", declared)
                return
            self._remove_name(name)
            self.removed.append((name, st.pos))
            self._record("remove", ir.NamePath(name), st.extras)
            return
        block, member = path[0].text, path[1]
        for i, base in enumerate(self.statements):
            item = getattr(base, "item", None)
            if not isinstance(item, s.Item) or item.name.text != block:
                continue
            if isinstance(base, s.DecisionDecl):
                r = self._decision_row(base, member)
                if r is not None:
                    self.statements[i] = replace(base, rows=base.rows[:r] + base.rows[r + 1 :])
                    self._record("remove", ir.DecisionRowPath(block, member.text), st.extras)
                return
            members = _members(base)
            if member.text not in members:
                self._missing(member, f"'{block}' has no '{member.text}'", members)
                return
            if isinstance(base, s.TableDecl | s.DiceDecl) and member.text not in declared:
                if isinstance(base, s.DiceDecl):
                    self._gap(base, member.text, st.pos)
                self.statements[i] = _without_member(base, member.text)
                columns = (
                    [c.name.text for c in base.columns] if isinstance(base, s.TableDecl) else []
                )
                path_: ir.ChangePath = (
                    ir.TableColumnPath(block, member.text)
                    if member.text in columns
                    else ir.TableRowPath(block, member.text)
                    if isinstance(base, s.TableDecl)
                    else ir.DiceRowPath(block, member.text)
                )
                self._record("remove", path_, st.extras)
            else:  # a declared name (feature, factor, context value, dice modifier)
                self._remove_name(member.text)
                self.removed.append((member.text, st.pos))
                self._record("remove", ir.NamePath(member.text), st.extras)
            return
        self._missing(
            path[0],
            f"the base has no block '{block}'",
            [
                n
                for n, k in declared.items()
                if k in ("layer", "modifier", "table", "dice table", "context", "decision")
            ],
        )

    def _gap(self, dice: s.DiceDecl, row: str, pos: s.Pos) -> None:
        """Remember the totals a removed dice row leaves, and its neighbours."""
        rows = list(dice.rows)
        r = [x.item.name.text for x in rows].index(row)
        here = rows[r]

        def near(x: s.DiceRowNode | None) -> tuple[str, int | None, int | None] | None:
            return None if x is None else (x.item.name.text, x.low, x.high)

        below = next(
            (
                x
                for x in rows
                if here.low is not None and x.high is not None and x.high == here.low - 1
            ),
            None,
        )
        above = next(
            (
                x
                for x in rows
                if here.high is not None and x.low is not None and x.low == here.high + 1
            ),
            None,
        )
        self.gaps.append(
            Gap(dice.item.name.text, here.low, here.high, near(below), near(above), pos)
        )

    def _remove_name(self, name: str) -> None:
        kept: list[s.Statement] = []
        inner: list[str] = []  # the declared names inside a removed block go with it
        for st in self.statements:
            item = getattr(st, "item", None)
            if isinstance(item, s.Item) and item.name.text == name:
                if isinstance(st, s.LayerDecl | s.ModifierDecl | s.ContextDecl):
                    inner += _members(st)
                elif isinstance(st, s.DiceDecl):
                    inner += [m.item.name.text for m in st.modifiers]
                continue
            kept.append(_without_key(_without_member(st, name), name))
        self.statements = [st for st in kept if not _pointless(st, name)]
        for member in inner:
            self._remove_name(member)


_KINDS: dict[type, str] = {
    s.BookDecl: "book",
    s.ModeDecl: "mode",
    s.GroupDecl: "group",
    s.ContextDecl: "context",
    s.ModifierDecl: "modifier",
    s.LayerDecl: "layer",
    s.StepDecl: "step",
    s.DecisionDecl: "decision",
    s.TableDecl: "table",
    s.DiceDecl: "dice table",
    s.TriggerDecl: "trigger",
    s.GridDecl: "grid",
    s.ParamDecl: "param",
    s.RulesetDecl: "ruleset",
}


def _set_param(st: s.Statement, o: s.OverrideDecl) -> s.Statement:
    assert isinstance(st, s.ParamDecl)
    return replace(st, value=o.cell.entries[0].value)


def _set_label(labels: tuple[s.Label, ...], label: s.Label, first: str) -> tuple[s.Label, ...]:
    """``labels`` with the one in ``label``'s language replaced (or added)."""

    def lang(x: s.Label) -> str:
        return x.lang or first

    if any(lang(x) == lang(label) for x in labels):
        return tuple(label if lang(x) == lang(label) else x for x in labels)
    return (*labels, label)


def _replace_node(node: Any, old: object, new: object) -> Any:
    """``node`` with the sub-node ``old`` (by identity) replaced by ``new``."""
    if node is old:
        return new
    if isinstance(node, tuple):
        items = tuple(_replace_node(x, old, new) for x in node)
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    if is_dataclass(node) and not isinstance(node, type | s.Pos):
        changes = {}
        for f in fields(node):
            value = getattr(node, f.name)
            replaced = _replace_node(value, old, new)
            if replaced is not value:
                changes[f.name] = replaced
        return replace(node, **changes) if changes else node
    return node


def _key(st: s.Statement) -> tuple[type, str]:
    """A statement's kind and name: what stays the same when a change rewrites it."""
    item = getattr(st, "item", None)
    return type(st), item.name.text if isinstance(item, s.Item) else ""


def _pos_of(st: s.Statement) -> s.Pos:
    """Where a statement of the variant starts (its `override`, `remove`... line)."""
    pos = getattr(st, "pos", None)
    if isinstance(pos, s.Pos):
        return pos
    item = getattr(st, "item", None)
    assert isinstance(item, s.Item)
    return item.pos


def _set_key(cell: s.CellNode, key: s.Name, new: s.CellNode) -> s.CellNode:
    """``cell`` with the entry for ``key`` set to ``new``'s single value (in place, or added)."""
    first = new.entries[0]
    entry = s.Entry(key, first.value, first.key2, first.state, first.along)  # keep it all
    entries = list(cell.entries)
    for i, e in enumerate(entries):
        if e.key is not None and e.key.text == key.text:
            entries[i] = entry
            break
    else:
        entries.append(entry)
    return s.CellNode(tuple(entries), cell.pos)


def _members(st: s.Statement) -> list[str]:
    """What `remove block.member` may name inside a block."""
    if isinstance(st, s.LayerDecl | s.ModifierDecl):
        return [r.item.name.text for r in st.rows]
    if isinstance(st, s.TableDecl):
        return [c.name.text for c in st.columns] + [r.item.name.text for r in st.rows]
    if isinstance(st, s.DiceDecl):
        return [m.item.name.text for m in st.modifiers] + [r.item.name.text for r in st.rows]
    if isinstance(st, s.ContextDecl):
        return [v.name.text for v in st.values]
    return []


def _without_member(st: s.Statement, name: str) -> s.Statement:
    """``st`` without the row, column, value or dice modifier called ``name``."""
    if isinstance(st, s.LayerDecl | s.ModifierDecl):
        return replace(st, rows=tuple(r for r in st.rows if r.item.name.text != name))
    if isinstance(st, s.TableDecl):
        columns = [c.name.text for c in st.columns]
        if name in columns:
            slot = columns.index(name)
            return replace(
                st,
                columns=tuple(c for c in st.columns if c.name.text != name),
                rows=tuple(replace(r, cells=r.cells[:slot] + r.cells[slot + 1 :]) for r in st.rows),
            )
        return replace(st, rows=tuple(r for r in st.rows if r.item.name.text != name))
    if isinstance(st, s.DiceDecl):
        return replace(
            st,
            rows=tuple(r for r in st.rows if r.item.name.text != name),
            modifiers=tuple(m for m in st.modifiers if m.item.name.text != name),
        )
    if isinstance(st, s.ContextDecl):
        return replace(st, values=tuple(v for v in st.values if v.name.text != name))
    return st


def _strip(cell: s.CellNode, name: str) -> s.CellNode:
    return s.CellNode(
        tuple(
            e
            for e in cell.entries
            if not (e.key and e.key.text == name) and not (e.key2 and e.key2.text == name)
        ),
        cell.pos,
    )


def _without_key(st: s.Statement, name: str) -> s.Statement:
    """Forget a removed name wherever it keyed an exception, was a member or a column."""
    if isinstance(st, s.GroupDecl):
        return replace(st, members=tuple(m for m in st.members if m.text != name))
    if isinstance(st, s.LayerDecl):
        rows = st.rows
        columns = st.columns
        if columns and name in [c.text for c in columns]:
            slot = [c.text for c in columns].index(name)
            columns = tuple(c for c in columns if c.text != name)
            rows = tuple(replace(r, cells=r.cells[:slot] + r.cells[slot + 1 :]) for r in rows)
        rows = tuple(replace(r, cells=tuple(_strip(c, name) for c in r.cells)) for r in rows)
        return replace(st, columns=columns, rows=rows)
    if isinstance(st, s.ModifierDecl):
        rows = tuple(replace(r, cells=tuple(_strip(c, name) for c in r.cells)) for r in st.rows)
        whens = tuple(w for w in st.whens if name not in [m.text for m in w.members])
        return replace(st, rows=rows, whens=whens)
    if isinstance(st, s.ExcludeDecl):
        return replace(st, others=tuple(o for o in st.others if o.text != name))
    if isinstance(st, s.PrecedenceDecl):
        return replace(st, groups=tuple(g for g in st.groups if g.text != name))
    if isinstance(st, s.ModeDecl):
        return replace(st, keywords=tuple(k for k in st.keywords if k.text != name))
    return st


def _pointless(st: s.Statement, removed: str) -> bool:
    """An exclusion whose subject was removed, or that is left with nothing to exclude; a
    precedence left with fewer than two groups."""
    if isinstance(st, s.PrecedenceDecl):
        return len(st.groups) < 2
    return isinstance(st, s.ExcludeDecl) and (st.subject.text == removed or not st.others)
