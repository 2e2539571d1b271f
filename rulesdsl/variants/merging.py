"""The state of one merge of a house rule into its base, and what every kind of change
shares: the statements, the diagnostics, the changelog, and the names declared so far."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields, is_dataclass, replace
from typing import Any, Literal, TypeVar, assert_never, get_args

from rulesdsl import ir, words
from rulesdsl.diagnostics import Diagnostic, did_you_mean, error
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.declared import declared_kind
from rulesdsl.ir.records import dataclass

COST = "cost"
MODE_CONTEXT = "mode"


@dataclass(frozen=True, slots=False)
class Gap:
    """Totals a removed dice row leaves uncovered, and the neighbours that could close it."""

    table: str
    low: int | None
    high: int | None
    below: tuple[str, int | None, int | None] | None
    above: tuple[str, int | None, int | None] | None
    pos: s.Pos


# ---- merging ------------------------------------------------------------------------------

_HEADER_STATEMENT: words.Total[ir.HeaderLine, type] = words.total(
    ir.HeaderLine,
    {
        "languages": s.LanguagesDecl,
        "units": s.UnitsDecl,
        "stacking": s.StackingDecl,
        "minimum_move": s.MinimumDecl,
    },
)
RECORDED_HEADER: dict[type, ir.HeaderLine] = {t: h for h, t in _HEADER_STATEMENT.items()}
Block = s.LayerDecl | s.ModifierDecl | s.TableDecl | s.DiceDecl | s.ContextDecl
Reopened = TypeVar("Reopened", bound=Block)
Form = Literal["one", "cell", "range", "row", "text", "name", "names"]
"""What an override must write: one value, a whole cell, a dice range, a decision row, or one
quoted text (a label or a note)."""


def form_hint(form: Form) -> str:
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
        case "names":
            return "names, e.g. `| infantry, beast`"
        case _:
            assert_never(form)


Apply = Callable[[s.Statement, s.OverrideDecl], s.Statement]
TRIGGER_FIELDS: tuple[ir.TriggerField, ...] = get_args(ir.TriggerField)
MOVE_FIELDS: tuple[ir.MoveField, ...] = get_args(ir.MoveField)
SIGHT_FIELDS: tuple[ir.SightField, ...] = get_args(ir.SightField)


@dataclass(frozen=True, slots=False)
class Landing:
    """Where an override lands: statement ``index``, and how to rewrite that statement."""

    index: int
    address: tuple[str, ...]
    """What two overrides must not share (one may not contain the other)."""
    path: ir.ChangePath
    apply: Apply
    form: Form


class MergeBase:
    """The merge under way: the base's statements as changed so far, and what was found."""

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

    def _languages(self) -> tuple[str, ...]:
        return next(
            (
                tuple(n.text for n in st.languages)
                for st in reversed(self.statements)
                if isinstance(st, s.LanguagesDecl)
            ),
            (),
        )

    def _record(self, action: ir.ChangeAction, path: ir.ChangePath, extras: s.Extras) -> None:
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
        scopes = tuple(tuple(n.text for n in scope) for scope in extras.note_for)
        return ir.Info({}, notes, source, extras.remarks, scopes)

    def _find_block(self, kind: type, name: str) -> int | None:
        for i, st in enumerate(self.statements):
            item = getattr(st, "item", None)
            if isinstance(st, kind) and isinstance(item, s.Item) and item.name.text == name:
                return i
        return None

    def _base_of(self, st: Reopened) -> tuple[int, Reopened]:
        """The base's block that ``st`` declares again, and where it is."""
        index = self._find_block(type(st), st.item.name.text)
        assert index is not None
        base = self.statements[index]
        assert isinstance(base, type(st))
        return index, base

    def _declared(self) -> dict[str, str]:
        """Every declared name in the merged statements, with its kind."""
        out: dict[str, str] = {}
        for st in self.statements:
            item = getattr(st, "item", None)
            if isinstance(item, s.Item):
                out.setdefault(item.name.text, declared_kind(st) or "item")
            out.update(declared_inside(st))
        return out

    def _missing(
        self, name: s.Name, message: str, pool: Iterable[str], hint: str | None = None
    ) -> None:
        self.diags.append(error("E504", message, name.pos, did_you_mean(name.text, pool) or hint))

    def _context_values(self, modifier: str) -> list[str]:
        """The values of the context a modifier is keyed by (empty if it has none)."""
        mods = s.of_kind(self.statements, s.ModifierDecl)
        mod = next((st for st in mods if st.item.name.text == modifier), None)
        rolls = s.of_kind(self.statements, s.RollDecl)
        if any(st.item.name.text == modifier for st in rolls):
            return self._modes_and_groups()  # a roll column: keyed like a cost
        if mod is None or mod.context is None:
            return []
        contexts = s.of_kind(self.statements, s.ContextDecl)
        ctx = next((st for st in contexts if st.item.name.text == mod.context.text), None)
        if ctx is None and mod.context.text == MODE_CONTEXT:  # `by mode`: modes and groups
            return self._modes_and_groups()
        return [v.name.text for v in ctx.values] if ctx else []

    def _modes_and_groups(self) -> list[str]:
        """What a cost or roll cell may key an entry by: modes, groups and kinds of move."""
        return [
            st.item.name.text
            for st in self.statements
            if isinstance(st, s.ModeDecl | s.GroupDecl | s.MoveDecl)
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
            match st:
                case s.LayerDecl() | s.ModifierDecl():
                    members, globals_ = [r.item for r in st.rows], True
                case s.ContextDecl():
                    members, globals_ = list(st.values), True
                case s.TableDecl():
                    members = [*st.columns, *(r.item for r in st.rows)]
                case s.DiceDecl():
                    members = [*(r.item for r in st.rows)]
                    out.update(((m.item.name.text,), (i, m.item)) for m in st.modifiers)
                    members += [m.item for m in st.modifiers]
                case s.DecisionDecl():
                    members = [r.outcome for r in st.rows]
                case s.Header() | s.Change() | s.Plain():
                    pass  # no members
                case _:
                    assert_never(st)
            for member in members:
                out.setdefault((block, member.name.text), (i, member))
                if globals_:
                    out.setdefault((member.name.text,), (i, member))
        return out


def declared_inside(st: s.Statement) -> list[tuple[str, str]]:
    """The names a block declares for use anywhere, each with its kind: a layer's features, a
    modifier's factors, a context's values, a dice table's modifiers."""
    match st:
        case s.LayerDecl():
            return [(r.item.name.text, "feature") for r in st.rows]
        case s.ModifierDecl():
            return [(r.item.name.text, "factor") for r in st.rows]
        case s.ContextDecl():
            return [(v.name.text, "context value") for v in st.values]
        case s.DiceDecl():
            return [(m.item.name.text, "dice modifier") for m in st.modifiers]
        case s.TableDecl() | s.DecisionDecl() | s.Header() | s.Change() | s.Plain():
            return []  # a table's rows and a decision's outcomes are named as `block.row` only
        case _:
            assert_never(st)


def set_param(st: s.Statement, o: s.OverrideDecl) -> s.Statement:
    assert isinstance(st, s.ParamDecl)
    return replace(st, value=o.cell.entries[0].value)


def set_label(labels: tuple[s.Label, ...], label: s.Label, first: str) -> tuple[s.Label, ...]:
    """``labels`` with the one in ``label``'s language replaced (or added)."""

    def lang(x: s.Label) -> str:
        return x.lang or first

    if any(lang(x) == lang(label) for x in labels):
        return tuple(label if lang(x) == lang(label) else x for x in labels)
    return (*labels, label)


def replace_node(node: Any, old: object, new: object) -> Any:
    """``node`` with the sub-node ``old`` (by identity) replaced by ``new``."""
    if node is old:
        return new
    if isinstance(node, tuple):
        items = tuple(replace_node(x, old, new) for x in node)
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    if is_dataclass(node) and not isinstance(node, type | s.Pos):
        changes = {}
        for f in fields(node):
            value = getattr(node, f.name)
            replaced = replace_node(value, old, new)
            if replaced is not value:
                changes[f.name] = replaced
        return replace(node, **changes) if changes else node
    return node


def statement_key(st: s.Statement) -> tuple[type, str]:
    """A statement's kind and name: what stays the same when a change rewrites it."""
    item = getattr(st, "item", None)
    return type(st), item.name.text if isinstance(item, s.Item) else ""


def pos_of(st: s.Statement) -> s.Pos:
    """Where a statement of the variant starts (its `override`, `remove`... line)."""
    pos = getattr(st, "pos", None)
    if isinstance(pos, s.Pos):
        return pos
    item = getattr(st, "item", None)
    assert isinstance(item, s.Item)
    return item.pos


def set_key(cell: s.CellNode, key: s.Name, new: s.CellNode) -> s.CellNode:
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


def members_of(st: s.Statement) -> list[str]:
    """What `remove block.member` may name inside a block."""
    match st:
        case s.LayerDecl() | s.ModifierDecl():
            return [r.item.name.text for r in st.rows]
        case s.TableDecl():
            return [c.name.text for c in st.columns] + [r.item.name.text for r in st.rows]
        case s.DiceDecl():
            return [m.item.name.text for m in st.modifiers] + [r.item.name.text for r in st.rows]
        case s.ContextDecl():
            return [v.name.text for v in st.values]
        case s.DecisionDecl() | s.Header() | s.Change() | s.Plain():
            return []  # a decision's rows are removed by their outcome (`_decision_row`)
        case _:
            assert_never(st)


def without_member(st: s.Statement, name: str) -> s.Statement:
    """``st`` without the row, column, value or dice modifier called ``name``."""
    match st:
        case s.LayerDecl() | s.ModifierDecl():
            return replace(st, rows=tuple(r for r in st.rows if r.item.name.text != name))
        case s.TableDecl():
            columns = [c.name.text for c in st.columns]
            if name not in columns:
                return replace(st, rows=tuple(r for r in st.rows if r.item.name.text != name))
            slot = columns.index(name)
            return replace(
                st,
                columns=tuple(c for c in st.columns if c.name.text != name),
                rows=tuple(replace(r, cells=r.cells[:slot] + r.cells[slot + 1 :]) for r in st.rows),
            )
        case s.DiceDecl():
            return replace(
                st,
                rows=tuple(r for r in st.rows if r.item.name.text != name),
                modifiers=tuple(m for m in st.modifiers if m.item.name.text != name),
            )
        case s.ContextDecl():
            return replace(st, values=tuple(v for v in st.values if v.name.text != name))
        case s.DecisionDecl() | s.Header() | s.Change() | s.Plain():
            return st
        case _:
            assert_never(st)


def _strip(cell: s.CellNode, name: str) -> s.CellNode:
    return s.CellNode(
        tuple(
            e
            for e in cell.entries
            if not (e.key and e.key.text == name) and not (e.key2 and e.key2.text == name)
        ),
        cell.pos,
    )


def without_key(st: s.Statement, name: str) -> s.Statement | None:
    """Forget a removed name wherever it keyed an exception, was a member or a column; None
    for a statement that is left pointless: an exclusion whose subject was removed, or that
    is left with nothing to exclude, and a precedence left with fewer than two groups."""
    match st:
        case s.GroupDecl():
            return replace(st, members=tuple(m for m in st.members if m.text != name))
        case s.LayerDecl():
            rows = st.rows
            columns = st.columns
            if columns and name in [c.text for c in columns]:
                slot = [c.text for c in columns].index(name)
                columns = tuple(c for c in columns if c.text != name)
                rows = tuple(replace(r, cells=r.cells[:slot] + r.cells[slot + 1 :]) for r in rows)
            rows = tuple(replace(r, cells=tuple(_strip(c, name) for c in r.cells)) for r in rows)
            return replace(st, columns=columns, rows=rows)
        case s.ModifierDecl():
            rows = tuple(replace(r, cells=tuple(_strip(c, name) for c in r.cells)) for r in st.rows)
            whens = tuple(w for w in st.whens if name not in [m.text for m in w.members])
            bests = tuple(
                replace(b, members=tuple(m for m in b.members if m.text != name)) for b in st.bests
            )
            return replace(st, rows=rows, whens=whens, bests=bests)
        case s.ExcludeDecl():
            others = tuple(o for o in st.others if o.text != name)
            return replace(st, others=others) if st.subject.text != name and others else None
        case s.PrecedenceDecl():
            groups = tuple(g for g in st.groups if g.text != name)
            return replace(st, groups=groups) if len(groups) >= 2 else None
        case s.ModeDecl():
            return replace(st, keywords=tuple(k for k in st.keywords if k.text != name))
        case (
            s.TableDecl()
            | s.DiceDecl()
            | s.ContextDecl()
            | s.DecisionDecl()
            | s.Header()
            | s.Change()
            | s.Plain()
        ):
            return st  # no cell keyed by a name, no list of names (or removed by without_member)
        case _:
            assert_never(st)
