"""Resolve `extends`: merge a variant into its base, at the level of syntax.

A variant is a ruleset file that says `extends <base>@<requirement>` and then only what it
changes: new declarations are added, a block re-opened with the base's name (`layer terrain
{ ... }`) gets new rows, `override <path> | <cell>` replaces one cell and `remove <path>` takes
an item away. The result is one flat list of statements that :mod:`rulesdsl.lower` compiles
like any other file, so a variant's module is complete on its own.

Paths name what to change:
  feature              -> its movement cost cell        (`override soft | 2`)
  feature.mode         -> one mode's cost in that cell   (`override soft.walker | 2`)
  feature.modifier     -> a modifier column of the row   (`override light_woods.to_hit | +2`)
  factor               -> a modifier factor's cell       (`override full | -3`)
  factor.context_value -> one context value of it        (`override blizzard.ballistic | +3`)
  table.column.row or table.row -> a table cell          (`override flight.good.turn | any`)
  dice_table.row       -> a dice row's effects           (`override terrain_effects.fire | ignites`)
  param                -> a scenario parameter's value   (`override infantry_move | 15 cm`)
`remove` takes any declared name, or table.row / dice_table.row / layer.feature.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from rulesdsl import ir
from rulesdsl import syntax as s
from rulesdsl.diagnostics import Diagnostic, Related, did_you_mean, error
from rulesdsl.lower import Lineage

Loader = Callable[[str], "s.SourceFile | None"]
"""Finds and parses a base ruleset by id; None when there is no such file."""


def digest(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Resolved:
    statements: tuple[s.Statement, ...]
    lineage: Lineage
    version: str


def resolve(source: s.SourceFile, load: Loader,
            _chain: tuple[str, ...] = ()) -> tuple[Resolved | None, list[Diagnostic]]:
    """Flatten ``source`` with its bases; diagnostics for anything that does not fit."""
    own_digest = digest(source.text)
    version = next((st.version for st in source.statements if isinstance(st, s.VersionDecl)),
                   "0.0.0")
    extends = [st for st in source.statements if isinstance(st, s.ExtendsDecl)]
    if not extends:
        return Resolved(source.statements, Lineage(own_digest), version), []
    diags: list[Diagnostic] = []
    for extra in extends[1:]:
        diags.append(error("E110", "a ruleset extends one base", extra.pos,
                           "chain variants instead: A extends B, B extends C"))
    ext = extends[0]
    name = _ruleset_id(source)
    if ext.base.text in (*_chain, name):
        chain = " -> ".join((*_chain, name, ext.base.text))
        return None, [error("E503", f"'{name}' extends itself through {chain}", ext.base.pos,
                            "remove `extends` from one ruleset of the cycle")]
    base_source = load(ext.base.text)
    if base_source is None:
        return None, [error("E501", f"no base ruleset '{ext.base.text}'", ext.base.pos,
                            "the base must be a .terrain file beside this one, named after "
                            "its id")]
    base, base_diags = resolve(base_source, load, (*_chain, name))
    if base is None:
        return None, [*diags, *base_diags]
    if not satisfies(base.version, ext.requirement):
        diags.append(error("E502", f"'{ext.base.text}' is at {base.version}, which does not "
                           f"satisfy {ext.requirement}", ext.pos,
                           f"require @^{base.version} or use a base that fits"))
    if not re.fullmatch(r"(\^|~|>=|<=|==|>|<)?\d+(\.\d+){0,2}", ext.requirement):
        diags.append(error("E111", f"malformed requirement '{ext.requirement}'", ext.pos))
    merger = _Merger(list(base.statements))
    changes = merger.apply(source.statements)
    diags += merger.diags
    ancestors = (ir.Ancestor(ext.base.text, base.version, base.lineage.digest),
                 *base.lineage.extends)
    lineage = Lineage(own_digest, ancestors, tuple(changes))
    return Resolved(tuple(merger.statements), lineage, version), diags


def _ruleset_id(source: s.SourceFile) -> str:
    return next((st.item.name.text for st in source.statements
                 if isinstance(st, s.RulesetDecl)), source.path)


def satisfies(version: str, requirement: str) -> bool:
    """Cargo-style requirements: ^1.2 (same major), ~1.2 (same minor), >=, <=, >, <, ==."""
    match = re.fullmatch(r"(\^|~|>=|<=|==|>|<)?(\d+(?:\.\d+){0,2})", requirement)
    if not match or not re.fullmatch(r"\d+\.\d+\.\d+", version):
        return False
    op, wanted_text = match.group(1) or "^", match.group(2)
    have = tuple(int(x) for x in version.split("."))
    parts = [int(x) for x in wanted_text.split(".")]
    want = tuple(parts + [0] * (3 - len(parts)))
    if op == "^":
        if want[0] > 0 or len(parts) == 1:
            return have >= want and have[0] == want[0]
        return have >= want and have[:2] == want[:2]
    if op == "~":
        return have >= want and have[: max(1, min(2, len(parts)))] == want[: max(
            1, min(2, len(parts)))]
    compare = {">=": have >= want, "<=": have <= want, ">": have > want, "<": have < want,
               "==": have == want}
    return compare[op]


# ---- merging ------------------------------------------------------------------------------

_HEADER = (s.RulesetDecl, s.VersionDecl, s.LanguagesDecl, s.UnitsDecl, s.StackingDecl,
           s.MinimumDecl)
_BLOCKS = (s.LayerDecl, s.ModifierDecl, s.TableDecl, s.DiceDecl, s.ContextDecl)


class _Merger:
    def __init__(self, statements: list[s.Statement]) -> None:
        self.statements = [st for st in statements if not isinstance(st, s.ExtendsDecl)]
        self.diags: list[Diagnostic] = []
        self.overridden: dict[tuple[str, ...], s.Pos] = {}

    def apply(self, variant: tuple[s.Statement, ...]) -> list[ir.Change]:
        changes: list[ir.Change] = []
        for st in variant:
            if isinstance(st, s.ExtendsDecl):
                continue
            if isinstance(st, _HEADER):
                self.statements = [b for b in self.statements if not isinstance(b, type(st))]
                self.statements.append(st)
            elif isinstance(st, s.OverrideDecl):
                if self._override(st):
                    changes.append(ir.Change("override", _dotted(st.path), _info(st.extras)))
            elif isinstance(st, s.RemoveDecl):
                if self._remove(st):
                    changes.append(ir.Change("remove", _dotted(st.path), _info(st.extras)))
            elif isinstance(st, _BLOCKS) and self._find_block(type(st), st.item.name.text):
                changes += self._reopen(st)
            else:
                self.statements.append(st)
                item = getattr(st, "item", None)
                if isinstance(item, s.Item):
                    changes.append(ir.Change("add", item.name.text, _info(item.extras)))
        return changes

    # -- lookups ----------------------------------------------------------------------------

    def _find_block(self, kind: type, name: str) -> int | None:
        for i, st in enumerate(self.statements):
            if isinstance(st, kind) and getattr(st, "item").name.text == name:
                return i
        return None

    def _names(self) -> list[str]:
        out: list[str] = []
        for st in self.statements:
            item = getattr(st, "item", None)
            if isinstance(item, s.Item):
                out.append(item.name.text)
            for row in getattr(st, "rows", ()):
                if isinstance(row, s.RowNode | s.DiceRowNode):
                    out.append(row.item.name.text)
        return out

    def _missing(self, name: s.Name, what: str, pool: list[str]) -> None:
        self.diags.append(error("E504", f"the base has no {what} '{name.text}'", name.pos,
                                did_you_mean(name.text, pool)))

    # -- re-opened blocks -------------------------------------------------------------------

    def _reopen(self, st: s.LayerDecl | s.ModifierDecl | s.TableDecl | s.DiceDecl
                | s.ContextDecl) -> list[ir.Change]:
        index = self._find_block(type(st), st.item.name.text)
        assert index is not None
        base = self.statements[index]
        changes: list[ir.Change] = []
        if isinstance(st, s.ContextDecl) and isinstance(base, s.ContextDecl):
            self.statements[index] = replace(base, values=base.values + st.values)
            changes += [ir.Change("add", f"{st.item.name.text}.{v.name.text}", _info(v.extras))
                        for v in st.values]
            return changes
        rows = getattr(st, "rows")
        merged = replace(base, rows=getattr(base, "rows") + rows)  # type: ignore[call-arg]
        if isinstance(st, s.ModifierDecl) and isinstance(merged, s.ModifierDecl):
            merged = replace(merged, whens=merged.whens + st.whens)
        if isinstance(st, s.DiceDecl) and isinstance(merged, s.DiceDecl):
            merged = replace(merged, modifiers=merged.modifiers + st.modifiers)
        self.statements[index] = merged
        for row in rows:
            changes.append(ir.Change("add", f"{st.item.name.text}.{row.item.name.text}",
                                     _info(row.item.extras)))
        return changes

    # -- override ---------------------------------------------------------------------------

    def _override(self, st: s.OverrideDecl) -> bool:
        key = tuple(n.text for n in st.path)
        first = self.overridden.get(key)
        if first is not None:
            self.diags.append(error("E505", f"'{_dotted(st.path)}' is overridden twice", st.pos,
                                    "keep one override per cell",
                                    [Related(first, "first override here")]))
            return False
        for i, base in enumerate(self.statements):
            updated = _override_in(base, st)
            if updated is not None:
                self.statements[i] = updated
                self.overridden[key] = st.pos
                return True
        self._missing(st.path[0], "item" if len(st.path) == 1 else "cell", self._names())
        return False

    # -- remove -----------------------------------------------------------------------------

    def _remove(self, st: s.RemoveDecl) -> bool:
        names = [n.text for n in st.path]
        target = names[-1]
        before = len(self.statements)
        kept: list[s.Statement] = []
        found = False
        for base in self.statements:
            item = getattr(base, "item", None)
            if len(names) == 1 and isinstance(item, s.Item) and item.name.text == target:
                found = True
                continue
            updated = _without_row(base, names)
            if updated is not base:
                found = True
            kept.append(updated)
        if not found:
            self._missing(st.path[-1], "item", self._names())
            return False
        self.statements = [_without_key(b, target) for b in kept]
        return len(self.statements) <= before


def _override_in(st: s.Statement, ov: s.OverrideDecl) -> s.Statement | None:
    """``st`` with the override applied, or None when the path is not in ``st``."""
    path = [n.text for n in ov.path]
    head = path[0]
    if isinstance(st, s.LayerDecl | s.ModifierDecl):
        columns = (["cost"] if isinstance(st, s.ModifierDecl)
                   else [n.text for n in st.columns] if st.columns else ["cost"])
        for r, row in enumerate(st.rows):
            if row.item.name.text != head:
                continue
            cells = list(row.cells) + [s.CellNode((), ov.cell.pos)] * (len(columns) - len(
                row.cells))
            rest = path[1:]
            column = 0
            if rest and rest[0] in columns and isinstance(st, s.LayerDecl):
                column, rest = columns.index(rest[0]), rest[1:]
            if len(rest) > 1:
                return None
            if rest:
                cells[column] = _set_key(cells[column], rest[0], ov.cell)
            else:
                cells[column] = ov.cell
            rows = list(st.rows)
            rows[r] = replace(row, cells=tuple(cells))
            return replace(st, rows=tuple(rows))
        return None
    if isinstance(st, s.TableDecl) and st.item.name.text == head and len(path) in (2, 3):
        col_names = [c.name.text for c in st.columns]
        row_key = path[-1]
        column = col_names.index(path[1]) if len(path) == 3 and path[1] in col_names else (
            0 if len(path) == 2 else -1)
        if column < 0:
            return None
        rows = list(st.rows)
        for r, row in enumerate(rows):
            if row.item.name.text == row_key and column < len(row.cells):
                cells = list(row.cells)
                cells[column] = ov.cell
                rows[r] = replace(row, cells=tuple(cells))
                return replace(st, rows=tuple(rows))
        return None
    if isinstance(st, s.DiceDecl) and st.item.name.text == head and len(path) == 2:
        rows = list(st.rows)
        for r, row in enumerate(rows):
            if row.item.name.text == path[1]:
                rows[r] = replace(row, effects=ov.cell)
                return replace(st, rows=tuple(rows))
        return None
    if isinstance(st, s.ParamDecl) and st.item.name.text == head and len(path) == 1:
        entries = ov.cell.entries
        value = entries[0].value if len(entries) == 1 and entries[0].key is None else None
        return replace(st, value=value) if value else None
    return None


def _set_key(cell: s.CellNode, key: str, new: s.CellNode) -> s.CellNode:
    """``cell`` with the entry for ``key`` replaced by ``new``'s single value."""
    value = new.entries[0].value if new.entries else None
    kept = [e for e in cell.entries if not (e.key and e.key.text == key)]
    if value is not None:
        kept.append(s.Entry(s.Name(key, new.pos), value))
    return s.CellNode(tuple(kept), cell.pos)


def _without_row(st: s.Statement, names: list[str]) -> s.Statement:
    """``st`` without the row ``names`` points at (block.row or a row name on its own)."""
    rows = getattr(st, "rows", None)
    item = getattr(st, "item", None)
    if rows is None or not isinstance(item, s.Item):
        return st
    if len(names) == 2 and item.name.text != names[0]:
        return st
    target = names[-1]
    kept = tuple(r for r in rows if not (isinstance(r, s.RowNode | s.DiceRowNode)
                                        and r.item.name.text == target))
    if len(kept) == len(rows):
        return st
    return replace(st, rows=kept)  # type: ignore[call-arg]


def _without_key(st: s.Statement, name: str) -> s.Statement:
    """Forget a removed name wherever it keyed an exception or was a group member."""
    if isinstance(st, s.GroupDecl):
        return replace(st, members=tuple(m for m in st.members if m.text != name))
    if isinstance(st, s.LayerDecl | s.ModifierDecl):
        rows = tuple(replace(r, cells=tuple(
            s.CellNode(tuple(e for e in c.entries if not (e.key and e.key.text == name)), c.pos)
            for c in r.cells)) for r in st.rows)
        return replace(st, rows=rows)
    if isinstance(st, s.ExcludeDecl):
        return replace(st, others=tuple(o for o in st.others if o.text != name))
    return st


def _dotted(path: tuple[s.Name, ...]) -> str:
    return ".".join(n.text for n in path)


def _info(extras: s.Extras) -> ir.Info:
    notes = tuple({(label.lang or "en"): label.text for label in note} for note in extras.notes)
    return ir.Info({}, notes, None)
