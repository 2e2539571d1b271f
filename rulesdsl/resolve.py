"""Resolve `extends`: merge a variant into its base, at the level of syntax.

A variant is a ruleset file that says `extends <base>@<requirement>` and then only what it
changes: new declarations are added, a block re-opened with the base's name (`layer terrain
{ ... }`) gets new rows, `override <path> | <cell>` replaces one cell and `remove <path>` takes
an item away. A header line (`units`, `stacking`, `minimum move`, `languages`) replaces the
base's. The result is one flat list of statements that :mod:`rulesdsl.lower` compiles like any
other file, so a variant's module is complete on its own.

Override paths (the first name is always a declared name):
  feature              -> its movement cost cell        (`override soft | 2`)
  feature.mode         -> one mode's (or group's) cost  (`override soft.walker | 2`)
  feature.column       -> a modifier column of the row   (`override light_woods.to_hit | +2`)
  feature.column.value -> one context value of it   (`override light_woods.to_hit.ballistic | +2`)
  factor               -> a modifier factor's cell       (`override full | -3`)
  factor.context_value -> one context value of it        (`override blizzard.ballistic | +3`)
  table.column.row     -> a table cell (table.row when the table declares no columns)
  dice_table.row       -> a dice row's effects           (`override terrain_effects.fire | ignites`)
  param                -> a scenario parameter's value   (`override infantry_move | 15 cm`)
`remove` takes any declared name (a mode, feature, factor, context value, table, ...), or
block.row (layer.feature, modifier.factor, table.row, dice_table.row, context.value), or
table.column. Removing a name also removes what only made sense with it: the exceptions it keys
in cells, its membership of groups, exclusions and `when` combinations, and its layer column.

Every change is recorded in the IR (``Ruleset.changes``) under a canonical path: the override
forms above with the ``cost`` column left out (``soft.walker``, ``soft.cost`` for the whole cost
cell, ``light_woods.to_hit.ballistic``, ``flight.good.turn``, ``terrain_effects.fire``,
``infantry_move``); additions and removals of declared names by the name alone (``ice``,
``jump``), of table and dice rows as ``table.row``, of table columns as ``table.column``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from rulesdsl import ir
from rulesdsl import syntax as s
from rulesdsl.diagnostics import Diagnostic, Related, did_you_mean, error
from rulesdsl.lower import Lineage

Loader = Callable[[str], "s.SourceFile | None"]
"""Finds and parses a base ruleset by id; None when there is no such file."""

COST = "cost"
MODE_CONTEXT = "mode"
REQUIREMENT = re.compile(r"(\^|~|>=|<=|==|>|<)?(\d+(?:\.\d+){0,2})")


def digest(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Resolved:
    statements: tuple[s.Statement, ...]
    lineage: Lineage
    version: str
    version_pos: s.Pos | None = None


def resolve(source: s.SourceFile, load: Loader,
            _chain: tuple[tuple[str, s.Pos], ...] = ()) -> tuple[Resolved | None,
                                                                list[Diagnostic]]:
    """Flatten ``source`` with its bases; diagnostics for anything that does not fit."""
    own_digest = digest(source.text)
    versions = [st for st in source.statements if isinstance(st, s.VersionDecl)]
    version = versions[-1].version if versions else "0.0.0"
    version_pos = versions[-1].pos if versions else None
    extends = [st for st in source.statements if isinstance(st, s.ExtendsDecl)]
    if not extends:
        return Resolved(source.statements, Lineage(own_digest), version, version_pos), []
    diags: list[Diagnostic] = []
    for extra in extends[1:]:
        diags.append(error("E110", "a ruleset extends one base", extra.pos,
                           "chain variants instead: A extends B, B extends C"))
    ext = extends[0]
    name = _ruleset_id(source)
    seen = [n for n, _ in _chain]
    if ext.base.text in (*seen, name):
        start = seen.index(ext.base.text) if ext.base.text in seen else len(seen)
        loop = [*seen[start:], name, ext.base.text]
        related = [Related(pos, f"'{n}' extends '{[*seen[i + 1:], name][0]}' here")
                   for i, (n, pos) in enumerate(_chain) if i >= start]
        return None, [error("E503", f"a cycle in `extends`: {' -> '.join(loop)}",
                            ext.base.pos, "remove `extends` from one ruleset of the cycle",
                            related)]
    if not REQUIREMENT.fullmatch(ext.requirement):
        diags.append(error("E111", f"malformed requirement '{ext.requirement}'", ext.pos,
                           "write e.g. ^1.0, ~1.2, >=1.0.0 or ==1.0.0"))
    base_source = load(ext.base.text)
    if base_source is None:
        return None, [*diags, error("E501", f"no base ruleset '{ext.base.text}'",
                                    ext.base.pos, "the base must be a .terrain file beside "
                                    "this one, named after its id")]
    base, base_diags = resolve(base_source, load, (*_chain, (name, ext.base.pos)))
    diags += base_diags  # a broken base breaks its variants too
    if base is None:
        return None, diags
    if REQUIREMENT.fullmatch(ext.requirement) and not satisfies(base.version,
                                                                 ext.requirement):
        related = [Related(base.version_pos, f"'{ext.base.text}' declares its version here")
                   ] if base.version_pos else []
        diags.append(error("E502", f"'{ext.base.text}' is at {base.version}, which does not "
                           f"satisfy {ext.requirement}", ext.pos,
                           f"require @^{base.version} if this variant fits that version",
                           related))
    diags += _own_header(source, name)
    merger = _Merger(list(base.statements))
    changes = merger.apply(source.statements)
    diags += merger.diags
    ancestors = (ir.Ancestor(ext.base.text, base.version, base.lineage.digest),
                 *base.lineage.extends)
    lineage = Lineage(own_digest, ancestors, tuple(changes))
    return Resolved(tuple(merger.statements), lineage, version, version_pos), diags


def _ruleset_id(source: s.SourceFile) -> str:
    return next((st.item.name.text for st in source.statements
                 if isinstance(st, s.RulesetDecl)), source.path)


def _own_header(source: s.SourceFile, name: str) -> list[Diagnostic]:
    """A variant names itself and has its own version (else it would pass for its base)."""
    pos = s.Pos(source.path, 1, 1, 1, 1)
    out = []
    if not any(isinstance(st, s.RulesetDecl) for st in source.statements):
        out.append(error("E110", "a variant declares its own `ruleset`", pos,
                         "start the file with `ruleset <id> \"Title\"`"))
    if not any(isinstance(st, s.VersionDecl) for st in source.statements):
        out.append(error("E110", f"the variant '{name}' has no version of its own", pos,
                         "add a line such as `version 1.0.0`"))
    return out


def satisfies(version: str, requirement: str) -> bool:
    """Cargo-style requirements: ^1.2 (same major), ~1.2 (same minor), >=, <=, >, <, ==."""
    match = REQUIREMENT.fullmatch(requirement)
    if not match or not re.fullmatch(r"\d+\.\d+\.\d+", version):
        return False
    op, wanted_text = match.group(1) or "^", match.group(2)
    have = tuple(int(x) for x in version.split("."))
    parts = [int(x) for x in wanted_text.split(".")]
    want = tuple(parts + [0] * (3 - len(parts)))
    if op == "^":
        if want[0] > 0 or len(parts) == 1:
            return have >= want and have[0] == want[0]
        if want[1] > 0 or len(parts) == 2:
            return have >= want and have[:2] == want[:2]
        return have == want
    if op == "~":
        same = max(1, min(2, len(parts)))
        return have >= want and have[:same] == want[:same]
    compare = {">=": have >= want, "<=": have <= want, ">": have > want, "<": have < want,
               "==": have == want}
    return compare[op]


# ---- merging ------------------------------------------------------------------------------

_HEADER = (s.RulesetDecl, s.VersionDecl, s.LanguagesDecl, s.UnitsDecl, s.StackingDecl,
           s.MinimumDecl)
_RECORDED_HEADER = {s.LanguagesDecl: "languages", s.UnitsDecl: "units",
                    s.StackingDecl: "stacking", s.MinimumDecl: "minimum_move"}
_BLOCKS = (s.LayerDecl, s.ModifierDecl, s.TableDecl, s.DiceDecl, s.ContextDecl)
Block = s.LayerDecl | s.ModifierDecl | s.TableDecl | s.DiceDecl | s.ContextDecl


@dataclass(frozen=True)
class _Cell:
    """Where an override lands: statement ``index``, and how to rewrite that statement."""

    index: int
    address: tuple[str, ...]
    """(head, column, key): what two overrides must not share (one may not contain the other)."""
    canonical: str
    apply: Callable[[s.Statement, s.CellNode], s.Statement]
    keyed: bool


class _Merger:
    def __init__(self, statements: list[s.Statement]) -> None:
        self.statements: list[s.Statement] = [st for st in statements
                                              if not isinstance(st, s.ExtendsDecl)]
        self.diags: list[Diagnostic] = []
        self.overridden: dict[tuple[str, ...], tuple[s.Pos, str]] = {}
        self.pending: list[tuple[ir.Change, s.Extras]] = []

    def apply(self, variant: tuple[s.Statement, ...]) -> list[ir.Change]:
        for st in variant:
            if isinstance(st, s.ExtendsDecl):
                continue
            if isinstance(st, _HEADER):
                had = any(isinstance(b, type(st)) for b in self.statements)
                self.statements = [b for b in self.statements if not isinstance(b, type(st))]
                self.statements.append(st)
                path = _RECORDED_HEADER.get(type(st))
                if path:
                    self._record("override" if had else "add", path,
                                 getattr(st, "extras", s.Extras()))
            elif isinstance(st, s.OverrideDecl):
                self._override(st)
            elif isinstance(st, s.RemoveDecl):
                self._remove(st)
            elif isinstance(st, _BLOCKS) and self._find_block(type(st),
                                                              st.item.name.text) is not None:
                self._reopen(st)
            else:
                self.statements.append(st)
                item = getattr(st, "item", None)
                if isinstance(item, s.Item):
                    self._record("add", item.name.text, item.extras)
        languages = next((tuple(n.text for n in st.languages) for st in reversed(
            self.statements) if isinstance(st, s.LanguagesDecl)), ())
        default = languages[0] if languages else "en"
        return [replace(change, info=self._info(extras, default))
                for change, extras in self.pending]

    def _record(self, action: str, path: str, extras: s.Extras) -> None:
        assert action in ("override", "add", "remove")
        self.pending.append((ir.Change(action, path, ir.Info()), extras))  # type: ignore[arg-type]

    def _info(self, extras: s.Extras, default: str) -> ir.Info:
        notes = tuple({(label.lang or default): label.text for label in note}
                      for note in extras.notes)
        source = None
        if extras.source is not None:
            ref = extras.source
            books = [st.item.name.text for st in self.statements if isinstance(st, s.BookDecl)]
            if ref.book.text not in books:
                self.diags.append(error("E101", f"unknown book '{ref.book.text}'", ref.book.pos,
                                        did_you_mean(ref.book.text, books)))
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

    def _missing(self, name: s.Name, message: str, pool: Iterable[str],
                 hint: str | None = None) -> None:
        self.diags.append(error("E504", message, name.pos,
                                did_you_mean(name.text, pool) or hint))

    def _context_values(self, modifier: str) -> list[str]:
        """The values of the context a modifier is keyed by (empty if it has none)."""
        mod = next((st for st in self.statements if isinstance(st, s.ModifierDecl)
                    and st.item.name.text == modifier), None)
        if mod is None or mod.context is None:
            return []
        ctx = next((st for st in self.statements if isinstance(st, s.ContextDecl)
                    and st.item.name.text == mod.context.text), None)
        if ctx is None and mod.context.text == MODE_CONTEXT:  # `by mode`: modes and groups
            return self._modes_and_groups()
        return [v.name.text for v in ctx.values] if ctx else []

    def _modes_and_groups(self) -> list[str]:
        return [st.item.name.text for st in self.statements
                if isinstance(st, s.ModeDecl | s.GroupDecl)]

    # -- re-opened blocks -------------------------------------------------------------------

    def _reopen(self, st: Block) -> None:
        index = self._find_block(type(st), st.item.name.text)
        assert index is not None
        base = self.statements[index]
        block = st.item.name.text
        if isinstance(st, s.ContextDecl) and isinstance(base, s.ContextDecl):
            self.statements[index] = replace(base, values=base.values + st.values)
            for v in st.values:
                self._record("add", v.name.text, v.extras)
            return
        assert isinstance(base, s.LayerDecl | s.ModifierDecl | s.TableDecl | s.DiceDecl)
        assert not isinstance(st, s.ContextDecl)
        merged: s.Statement = replace(base, rows=base.rows + st.rows)  # type: ignore[arg-type]
        if isinstance(st, s.ModifierDecl) and isinstance(merged, s.ModifierDecl):
            merged = replace(merged, whens=merged.whens + st.whens)
            for when in st.whens:
                self._record("add", f"{block}.when." + "+".join(m.text for m in when.members),
                             when.extras)
        if isinstance(st, s.DiceDecl) and isinstance(merged, s.DiceDecl):
            merged = replace(merged, modifiers=merged.modifiers + st.modifiers)
            if st.dice.value != merged.dice.value:
                self.diags.append(error(
                    "E201", f"re-opening '{block}' keeps its dice", st.dice.pos,
                    "write the base's dice here; to change them, remove the table and "
                    "declare it again", [Related(merged.dice.pos, "the base's dice")]))
            for mod in st.modifiers:
                self._record("add", mod.item.name.text, mod.item.extras)
        if isinstance(st, s.TableDecl) and isinstance(merged, s.TableDecl) and st.columns:
            self.diags.append(error("E504", f"columns cannot be added to the table '{block}' "
                                    "of the base", st.columns[0].name.pos,
                                    "remove the table and declare it again in full"))
        self.statements[index] = merged
        global_rows = isinstance(st, s.LayerDecl | s.ModifierDecl)
        for row in st.rows:
            path = row.item.name.text if global_rows else f"{block}.{row.item.name.text}"
            self._record("add", path, row.item.extras)

    # -- override ---------------------------------------------------------------------------

    def _override(self, st: s.OverrideDecl) -> None:
        target = self._locate(st)
        if target is None:
            return
        for address, (pos, path) in self.overridden.items():
            shorter = min(len(address), len(target.address))
            if address[:shorter] == target.address[:shorter]:
                what = ("is overridden twice" if path == target.canonical
                        else f"overlaps the override of '{path}'")
                self.diags.append(error(
                    "E505", f"'{target.canonical}' {what}", st.path[0].pos,
                    "keep one override per cell", [Related(pos, "first override here")]))
                return
        if target.keyed and (len(st.cell.entries) != 1 or st.cell.entries[0].key is not None):
            self.diags.append(error(
                "E201", f"`override {target.canonical}` sets one value", st.cell.pos,
                "write the value alone, e.g. `| 2`; override the whole cell to change several"))
            return
        self.statements[target.index] = target.apply(self.statements[target.index], st.cell)
        self.overridden[target.address] = (st.path[0].pos, target.canonical)
        self._record("override", target.canonical, st.extras)

    def _locate(self, st: s.OverrideDecl) -> _Cell | None:
        path = st.path
        head = path[0].text
        for i, base in enumerate(self.statements):
            if isinstance(base, s.LayerDecl | s.ModifierDecl):
                for r, row in enumerate(base.rows):
                    if row.item.name.text == head:
                        return self._locate_row(i, base, r, path)
            elif isinstance(base, s.TableDecl) and base.item.name.text == head:
                return self._locate_table(i, base, path)
            elif isinstance(base, s.DiceDecl) and base.item.name.text == head:
                return self._locate_dice(i, base, path)
            elif isinstance(base, s.ParamDecl) and base.item.name.text == head:
                if len(path) > 1:
                    self._missing(path[1], f"the parameter '{head}' has no part "
                                  f"'{path[1].text}'", [], f"write `override {head} | value`")
                    return None
                return _Cell(i, (head,), head, _set_param, True)
        declared = self._declared()
        kind = declared.get(head)
        overridable = [n for n, k in declared.items()
                       if k in ("feature", "factor", "table", "dice table", "param")]
        if kind is not None:
            self._missing(path[0], f"'{head}' is a {kind}: it has no cell to override",
                          [], "override a feature, factor, table, dice table or parameter, "
                          "e.g. `override <feature>.<mode> | 2`")
        else:
            self._missing(path[0], f"the base has no feature, factor, table, dice table or "
                          f"parameter '{head}'", overridable)
        return None

    def _locate_row(self, index: int, block: s.LayerDecl | s.ModifierDecl, r: int,
                    path: tuple[s.Name, ...]) -> _Cell | None:
        head = path[0].text
        is_layer = isinstance(block, s.LayerDecl)
        columns = ([n.text for n in block.columns] if isinstance(block, s.LayerDecl)
                   and block.columns else [COST])
        rest = list(path[1:])
        if is_layer and rest and rest[0].text in columns:
            column = rest.pop(0).text
        elif COST in columns or len(columns) == 1:
            column = COST if COST in columns else columns[0]
        else:
            self._missing(path[0], f"'{head}' has no cost column: name one of its columns",
                          [], "write e.g. `override " + head + "." + columns[0] + " | ...`")
            return None
        keys = (self._modes_and_groups() if column == COST and is_layer
                else self._context_values(column if is_layer else block.item.name.text))
        if len(rest) > 1:
            self._missing(rest[1], f"a path ends at one value: '{rest[1].text}' is one name "
                          "too many", [])
            return None
        key = rest[0] if rest else None
        if key is not None and key.text not in keys:
            what = ("mode or group" if column == COST and is_layer else "context value")
            pool = keys + (columns if is_layer and len(path) == 2 else [])
            self._missing(key, f"'{head}' has no column, {what} '{key.text}'"
                          if is_layer and len(path) == 2 else
                          f"no {what} '{key.text}' in the '{column}' cell of '{head}'", pool)
            return None
        slot = columns.index(column)
        if key is None:
            canonical = f"{head}.{column}" if is_layer else head
        elif column == COST and is_layer:
            canonical = f"{head}.{key.text}"
        else:
            canonical = f"{head}.{column}.{key.text}" if is_layer else f"{head}.{key.text}"

        def apply(st: s.Statement, cell: s.CellNode) -> s.Statement:
            assert isinstance(st, s.LayerDecl | s.ModifierDecl)
            row = st.rows[r]
            cells = list(row.cells) + [s.CellNode((), cell.pos)] * (slot + 1 - len(row.cells))
            cells[slot] = cell if key is None else _set_key(cells[slot], key, cell)
            rows = list(st.rows)
            rows[r] = replace(row, cells=tuple(cells))
            return replace(st, rows=tuple(rows))

        return _Cell(index, (head, column, *( [key.text] if key else [])), canonical, apply,
                     key is not None)

    def _locate_table(self, index: int, table: s.TableDecl,
                      path: tuple[s.Name, ...]) -> _Cell | None:
        head = path[0].text
        columns = [c.name.text for c in table.columns]
        rows = [row.item.name.text for row in table.rows]
        if len(path) == 3 and columns:
            if path[1].text not in columns:
                self._missing(path[1], f"the table '{head}' has no column '{path[1].text}'",
                              columns)
                return None
            column, row_name = path[1].text, path[2]
        elif len(path) == 2 and len(columns) <= 1:
            column, row_name = (columns[0] if columns else ""), path[1]
        else:
            shape = f"{head}.<column>.<row>" if columns else f"{head}.<row>"
            self._missing(path[-1] if len(path) > 1 else path[0],
                          f"a cell of the table '{head}' is written `{shape}`",
                          [], f"columns: {', '.join(columns)}" if columns else None)
            return None
        if row_name.text not in rows:
            self._missing(row_name, f"the table '{head}' has no row '{row_name.text}'", rows)
            return None
        slot = columns.index(column) if column else 0
        r = rows.index(row_name.text)
        canonical = f"{head}.{column}.{row_name.text}" if column else f"{head}.{row_name.text}"

        def apply(st: s.Statement, cell: s.CellNode) -> s.Statement:
            assert isinstance(st, s.TableDecl)
            row = st.rows[r]
            cells = list(row.cells) + [s.CellNode((), cell.pos)] * (slot + 1 - len(row.cells))
            cells[slot] = cell
            new_rows = list(st.rows)
            new_rows[r] = replace(row, cells=tuple(cells))
            return replace(st, rows=tuple(new_rows))

        return _Cell(index, (head, column, row_name.text), canonical, apply, True)

    def _locate_dice(self, index: int, dice: s.DiceDecl,
                     path: tuple[s.Name, ...]) -> _Cell | None:
        head = path[0].text
        rows = [row.item.name.text for row in dice.rows]
        if len(path) != 2:
            self._missing(path[-1], f"a row of the dice table '{head}' is written "
                          f"`{head}.<row>`", [], "rows: " + ", ".join(rows))
            return None
        if path[1].text not in rows:
            self._missing(path[1], f"the dice table '{head}' has no row '{path[1].text}'", rows)
            return None
        r = rows.index(path[1].text)

        def apply(st: s.Statement, cell: s.CellNode) -> s.Statement:
            assert isinstance(st, s.DiceDecl)
            new_rows = list(st.rows)
            new_rows[r] = replace(st.rows[r], effects=cell)
            return replace(st, rows=tuple(new_rows))

        return _Cell(index, (head, path[1].text), f"{head}.{path[1].text}", apply, False)

    # -- remove -----------------------------------------------------------------------------

    def _remove(self, st: s.RemoveDecl) -> None:
        path = st.path
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
            self._record("remove", name, st.extras)
            return
        block, member = path[0].text, path[1]
        for i, base in enumerate(self.statements):
            item = getattr(base, "item", None)
            if not isinstance(item, s.Item) or item.name.text != block:
                continue
            members = _members(base)
            if member.text not in members:
                self._missing(member, f"'{block}' has no '{member.text}'", members)
                return
            if isinstance(base, s.TableDecl | s.DiceDecl) and member.text not in declared:
                self.statements[i] = _without_member(base, member.text)
                self._record("remove", f"{block}.{member.text}", st.extras)
            else:  # a declared name (feature, factor, context value, dice modifier)
                self._remove_name(member.text)
                self._record("remove", member.text, st.extras)
            return
        self._missing(path[0], f"the base has no block '{block}'",
                      [n for n, k in declared.items() if k in (
                          "layer", "modifier", "table", "dice table", "context")])

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
    s.BookDecl: "book", s.ModeDecl: "mode", s.GroupDecl: "group", s.ContextDecl: "context",
    s.ModifierDecl: "modifier", s.LayerDecl: "layer", s.StepDecl: "step",
    s.DecisionDecl: "decision", s.TableDecl: "table", s.DiceDecl: "dice table",
    s.TriggerDecl: "trigger", s.GridDecl: "grid", s.ParamDecl: "param",
    s.RulesetDecl: "ruleset",
}


def _set_param(st: s.Statement, cell: s.CellNode) -> s.Statement:
    assert isinstance(st, s.ParamDecl)
    return replace(st, value=cell.entries[0].value)


def _set_key(cell: s.CellNode, key: s.Name, new: s.CellNode) -> s.CellNode:
    """``cell`` with the entry for ``key`` set to ``new``'s single value (in place, or added)."""
    entry = s.Entry(key, new.entries[0].value)
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
            return replace(st, columns=tuple(c for c in st.columns if c.name.text != name),
                           rows=tuple(replace(r, cells=r.cells[:slot] + r.cells[slot + 1:])
                                      for r in st.rows))
        return replace(st, rows=tuple(r for r in st.rows if r.item.name.text != name))
    if isinstance(st, s.DiceDecl):
        return replace(st, rows=tuple(r for r in st.rows if r.item.name.text != name),
                       modifiers=tuple(m for m in st.modifiers if m.item.name.text != name))
    if isinstance(st, s.ContextDecl):
        return replace(st, values=tuple(v for v in st.values if v.name.text != name))
    return st


def _strip(cell: s.CellNode, name: str) -> s.CellNode:
    return s.CellNode(tuple(e for e in cell.entries if not (e.key and e.key.text == name)),
                      cell.pos)


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
            rows = tuple(replace(r, cells=r.cells[:slot] + r.cells[slot + 1:]) for r in rows)
        rows = tuple(replace(r, cells=tuple(_strip(c, name) for c in r.cells)) for r in rows)
        return replace(st, columns=columns, rows=rows)
    if isinstance(st, s.ModifierDecl):
        rows = tuple(replace(r, cells=tuple(_strip(c, name) for c in r.cells))
                     for r in st.rows)
        whens = tuple(w for w in st.whens if name not in [m.text for m in w.members])
        return replace(st, rows=rows, whens=whens)
    if isinstance(st, s.ExcludeDecl):
        return replace(st, others=tuple(o for o in st.others if o.text != name))
    return st


def _pointless(st: s.Statement, removed: str) -> bool:
    """An exclusion whose subject was removed, or that is left with nothing to exclude."""
    return isinstance(st, s.ExcludeDecl) and (st.subject.text == removed or not st.others)
