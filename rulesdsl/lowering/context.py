"""What every construct's lowering shares: the ruleset's names and what is known of them so
far, where each IR node was written, the diagnostics, and the helpers that read a label, a
unit, a number or a cell value.

:class:`Context` is the public face of lowering: the lowering of each construct
(:mod:`~rulesdsl.lowering.modifiers`, :mod:`~rulesdsl.lowering.costs`,
:mod:`~rulesdsl.lowering.tables`, :mod:`~rulesdsl.lowering.decisions`,
:mod:`~rulesdsl.lowering.sight`) works through it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import field
from typing import Any, TypeVar, assert_never, cast

from rulesdsl import editions, ir, words
from rulesdsl.diagnostics import Cap, Diagnostic, did_you_mean, error, warning
from rulesdsl.frontends import syntax as s
from rulesdsl.ir.records import dataclass
from rulesdsl.lowering.symbols import SymbolTable
from rulesdsl.positions import Positions
from rulesdsl.units import DIMENSIONS, ROLES
from rulesdsl.words import DeclKind

T = TypeVar("T")
KINDS: tuple[DeclKind, ...] = ("mode", "group")
"""What a note may be for (``note for mech, tracked "..."``): unit types and keywords."""
COST = "cost"
MODE_CONTEXT = "mode"
"""`modifier X by mode`: values keyed by the ruleset's modes (and groups, expanded to their
members), unless the ruleset declares a context of that name itself."""
ZERO = ir.Number(0)
FLAGS = {"yes": True, "no": False}
_KIND_FIELD = frozenset(
    {ir.Number, ir.Rate, ir.ParamRate, ir.Trade, ir.Span, ir.Symbol, ir.Flag, ir.DiceValue}
    | {ir.D66Value, ir.Given, ir.Text, ir.Same, ir.Flat, ir.Share, ir.StepCost}
)
"""The value classes whose kind is their ``kind`` field (:func:`rulesdsl.words.value_kind`
for all but a marker): :meth:`Context.value` reads it without the ``match`` (issue 44: a call
per value of every cell and worked example)."""
_NO_UNITS = frozenset({ir.Marker, ir.Same, ir.StepCost, ir.Symbol, ir.Flag, ir.DiceValue})
_NO_UNITS |= {ir.D66Value, ir.Given, ir.Text}
"""The value classes that hold no number and name no unit or parameter
(:meth:`Context.check_units` has nothing to check)."""


@dataclass(slots=False)
class Header:
    """The header lines read so far: the ruleset item, version, languages, units, stacking."""

    item: s.Item | None = None
    version: str = "0.0.0"
    edition: str = editions.FIRST
    languages: tuple[str, ...] = ("en",)
    units: dict[str, str] = field(default_factory=dict)
    entry_cost: float = 0
    minimum: ir.Number | None = None


class Context:
    """One ruleset's lowering state, and the helpers every construct uses."""

    def __init__(
        self,
        statements: Sequence[s.Statement],
        fallback_pos: s.Pos,
        notation: Callable[[str], s.Notation],
    ) -> None:
        self.statements = statements
        self.notation = notation
        """How a hint writes a fix in the text of a file, by its path (the front end's
        words: lowering does not know which front end a file came from)."""
        self.key_words = (
            "mode, group or kind of move"
            if any(isinstance(st, s.MoveDecl) for st in statements)
            else "mode or group"
        )
        """What a cost cell's key may name, as E101 says it: kinds of move only where the
        ruleset declares some (found once: a cell asking for each key made lowering quadratic
        in the statements)."""
        self._unnamed: tuple[str | None, bool] = (None, False)
        """The edition last asked about and :attr:`unnamed` for it."""
        self._by_class: dict[type, list[Any]] | None = None
        """The statements by class, listed on first use (:meth:`of`)."""
        self.fallback_pos = fallback_pos
        self.where = Positions(fallback_pos)
        self.diags: list[Diagnostic] = []
        self.cap = Cap()
        self.symbols = SymbolTable(self.cap)
        self.header = Header()
        self.modes: list[str] = []
        self.groups: dict[str, tuple[str, ...]] = {}
        self.group_list: list[ir.Group] = []
        self.context_values: dict[str, tuple[str, ...]] = {}
        self.modifier_context: dict[str, str | None] = {}
        self.raw_costs: dict[str, ir.Cell] = {}
        self.cost_pos: dict[str, s.Pos] = {}
        self.modifier_values: dict[str, dict[str, dict[str, ir.Value]]] = {}
        self.params: dict[str, ir.ScenarioParam] = {}
        self.factor_info: dict[str, ir.Info] = {}
        self.tables: dict[str, ir.Table] = {}
        self.steps: dict[str, ir.Step] = {}
        self.decisions: dict[str, ir.Decision] = {}
        """The decisions lowered so far: a later one's arithmetic may call them."""
        self.sights: list[ir.Sight] = []
        self.roll_when: dict[str, ir.RollWhen] = {}
        self.move_only: dict[str, tuple[str, ...]] = {}
        """Who may make each kind of move (``only``; empty: everyone), for a roll cell's pairs."""
        self.builtin_mode = False
        self.precedence: list[list[str]] = []
        self.precedence_names: list[list[s.Name]] = []
        self.place_orders: dict[str, list[tuple[str, ...]]] = {}
        """Per feature with a ``precedence`` of its own or its layer's (issue 40): the order of
        keywords for its cells (:func:`rulesdsl.semantics.local_order`)."""
        self.modifier_context2: dict[str, str | None] = {}
        self.modifier_pairs: dict[str, dict[str, tuple[ir.PairValue, ...]]] = {}
        self._group_members: dict[str, list[s.Name]] = {}

    def at(self, node: T, pos: s.Pos) -> T:
        """``node``, with where it was written recorded for the checks."""
        self.where.record(node, pos)
        return node

    def err(self, code: str, message: str, pos: s.Pos | None, hint: str | None = None) -> None:
        if self.cap.admits(code, pos):
            self.diags.append(error(code, message, pos, hint))

    def unknown(self, message: str, name: s.Name, known: Iterable[str]) -> None:
        """E101 at ``name``, a name not among ``known``: the hint is the nearest of them."""
        self.err("E101", message, name.pos, did_you_mean(name.text, known))

    def once(self, items: Sequence[s.Item], code: str, message: str, hint: str) -> None:
        """``code`` at the name of each of ``items`` after the first: a line a file has once."""
        for extra in items[1:]:
            self.err(code, message, extra.name.pos, hint)

    def first(self, seen: set[str], name: s.Name, code: str, message: str, hint: str) -> bool:
        """Whether ``name`` is given here for the first time (it is then ``seen``); a second
        time is ``code`` at it, and the first stays."""
        if name.text in seen:
            self.err(code, message, name.pos, hint)
            return False
        seen.add(name.text)
        return True

    def warn(self, code: str, message: str, pos: s.Pos | None, hint: str | None = None) -> None:
        if self.cap.admits(code, pos):
            self.diags.append(warning(code, message, pos, hint))

    def order_of(self, item: str) -> Sequence[Sequence[str]]:
        """The order of keywords for the cells of ``item``: a feature's own, else the ruleset's."""
        return self.place_orders.get(item, self.precedence)

    @property
    def unnamed(self) -> bool:
        """The edition's reading of keyword precedence (:mod:`rulesdsl.editions`)."""
        edition = self.header.edition
        if edition != self._unnamed[0]:  # asked per feature and mode: read once per edition
            self._unnamed = (edition, editions.unnamed_keyword_counts(edition))
        return self._unnamed[1]

    def of(self, kind: type[T]) -> list[T]:
        """The statements of class ``kind``, in file order. Lowering asks ~40 classes of every
        file: the statements are listed by class once (issue 44: each ask read every
        statement); a class with subclasses is asked of every statement."""
        if kind.__subclasses__():
            return [st for st in self.statements if isinstance(st, kind)]
        if self._by_class is None:
            self._by_class = {}
            for st in self.statements:
                self._by_class.setdefault(type(st), []).append(st)
        return list(self._by_class.get(kind, ()))

    def info(self, item: s.Item) -> ir.Info:
        return self.info_of(self.labels(item.labels), item.extras)  # W101 is a check

    def info_of(self, labels: dict[str, str], extras: s.Extras) -> ir.Info:
        if not (extras.source or extras.notes or extras.note_for or extras.remarks):
            return ir.Info(labels)  # most items: no source, note or remark to read
        source = None
        if extras.source is not None:
            ref = extras.source
            self.symbols.require(ref.book, ("book",), "book")
            source = ir.Source(ref.book.text, ref.page, ref.detail)
        notes = tuple(self.labels(n) for n in extras.notes)
        scopes = tuple(
            tuple(n.text for n in scope if self.symbols.require(n, KINDS, "unit type or keyword"))
            for scope in extras.note_for
        )
        return ir.Info(labels, notes, source, extras.remarks, scopes)

    def labels(self, labels: Iterable[s.Label]) -> dict[str, str]:
        out: dict[str, str] = {}
        languages = self.header.languages
        for label in labels:
            lang = label.lang or languages[0]
            if lang not in languages:
                self.err(
                    "E105",
                    f"'{lang}' is not one of the ruleset's languages",
                    label.pos,
                    "declared: " + " ".join(languages),
                )
                continue
            out[lang] = label.text
        return out

    def unit(self, unit: s.Name, dimension: str | None) -> bool:
        dim = DIMENSIONS.get(unit.text)
        if dim is None:
            self.err(
                "E104", f"unknown unit '{unit.text}'", unit.pos, did_you_mean(unit.text, DIMENSIONS)
            )
            return False
        if dimension is not None and dim != dimension:
            self.err(
                "E203",
                f"'{unit.text}' measures {dim}, here a {dimension} is expected",
                unit.pos,
                "units by kind: " + ", ".join(u for u, d in DIMENSIONS.items() if d == dimension),
            )
            return False
        return True

    def number(self, loc: s.Located, dimension: str | None) -> ir.Number | None:
        value = loc.value
        if not isinstance(value, ir.Number):
            self.err("E201", f"expected a number here, found {describe(value)}", loc.pos)
            return None
        self.where.record(value, loc.pos)
        if value.unit is not None:
            self.unit(s.Name(value.unit, loc.pos), dimension)
        return value

    def value(
        self, loc: s.Located, allowed: tuple[words.ValueKind, ...], where: str
    ) -> ir.Value | None:
        """Check a cell value's kind and units; words become flags or symbols."""
        value = loc.value
        if isinstance(value, s.Word):
            word = value.name.text
            if word in FLAGS:
                value = ir.Flag(FLAGS[word])
            elif word == "given" and "given" in allowed:
                value = ir.Given()
            else:
                value = ir.Symbol(word)
        kind: words.ValueKind
        if type(value) in _KIND_FIELD:
            kind = cast(ir.Number, value).kind  # any of them: the field, as value_kind reads
        else:
            kind = "same" if isinstance(value, s.SameAs) else words.value_kind(value)
        if kind not in allowed:
            self.err(
                "E201",
                f"{describe(loc.value)} cannot stand in {where}",
                loc.pos,
                "expected " + " or ".join(words.kind_words(a) for a in allowed),
            )
            return None
        if isinstance(value, s.SameAs):
            return None  # resolved by the caller, which knows the mode
        self.where.record(value, loc.pos)
        self.check_units(value, loc.pos)
        return value

    def check_units(self, value: ir.Value, pos: s.Pos) -> None:
        if type(value) is ir.Number:  # most values: as the match below does for one
            if value.unit is not None:
                self.unit(s.Name(value.unit, pos), None)
            return
        if type(value) in _NO_UNITS:
            return
        numbers: list[ir.Number] = []
        match value:
            case ir.Number():
                numbers = [value]
            case ir.Rate(amount=a, per=p):
                numbers = [a, p]
            case ir.Trade(gain=g, cost=c):
                numbers = [g, c]
            case ir.Flat(amount=a):
                numbers = [a]
            case ir.Share(but=but) if but is not None:
                numbers = [but]
            case ir.ParamRate(amount=a, param=name):
                numbers = [a]
                self.symbols.require(s.Name(name, pos), ("param",), "parameter")
            case ir.Span(unit=u):
                if u is not None:
                    self.unit(s.Name(u, pos), None)
            case ir.Marker() | ir.Same() | ir.OnceCost() | ir.NonCost():
                pass
            case unknown:
                assert_never(unknown)
        for n in numbers:
            if n.unit is not None:
                self.unit(s.Name(n.unit, pos), None)

    def check_width(self, row: s.RowNode, width: int) -> None:
        if len(row.cells) > width:
            extra = row.cells[width]
            self.err(
                "E204",
                f"'{row.item.name.text}' has {len(row.cells)} cells, the columns are {width}",
                extra.pos if extra.entries else row.item.name.pos,
                "declare the extra column with `columns ...` or remove the cell",
            )


def by_key(cell: ir.Cell, groups: dict[str, tuple[str, ...]] | None = None) -> dict[str, ir.Value]:
    """Values by context key ("" for any); ``groups`` given: a group's value goes to each
    member mode that has no value of its own."""
    values: dict[str, ir.Value] = {}
    if cell.default is not None:
        values[""] = cell.default
    for key, value in cell.exceptions.items():
        if groups is not None and key in groups:
            for member in groups[key]:
                if member not in cell.exceptions:
                    values.setdefault(member, value)
        else:
            values[key] = value
    return values


def role_dimension(role: str, unit: str | None) -> str | None:
    """The dimension a role's unit must have; the cost role may also be a distance, so that
    moves are measured in inches (`units distance in, cost in`)."""
    if role == "cost" and unit is not None and DIMENSIONS.get(unit) == "length":
        return "length"
    return ROLES.get(role)


def describe(value: s.SynValue) -> str:
    if isinstance(value, s.SameAs):
        return f"`as {value.target.text}`"
    if isinstance(value, s.Word):
        return f"the word '{value.name.text}'"
    return words.kind_words(words.value_kind(value))


def shown(value: ir.Value) -> str:
    """A modifier value as a message shows it."""
    if isinstance(value, ir.Number):
        return f"{value.value:+g}"
    return words.kind_words(words.value_kind(value))
