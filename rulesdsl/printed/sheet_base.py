"""What every part of a sheet shares: the ruleset, the language's words, and how a value,
a number, a unit, a label or a note reads in that language."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import assert_never

from rulesdsl import ir, semantics
from rulesdsl.i18n import Catalog, catalog
from rulesdsl.i18n.catalog import typeset
from rulesdsl.printed.sheet_view import (
    CellView,
    marker_sign,
)
from rulesdsl.semantics.dice import D66, Roll
from rulesdsl.variants.changelog import path_text

_PAGE = re.compile(r"^p\.?\s*(\S+)$")
_RULE = re.compile(r"^§?\s*(\d+(?:\.\d+)*)$")
"""A rule number (``4.27``, ``§4.27``): printed ``§4.27`` in every language."""
_TEXT_NUMBER = re.compile(r"(\d+(?:\.\d+)?)(?:\s*(in|cm|m|ft|deg)\b)?|\b(x)\b")


def _letters(index: int) -> str:
    """``A``, ``B``, … ``Z``, ``AA``: the box letter of the ``index``-th unfilled parameter."""
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = chr(ord("A") + rest) + text
    return text


class BuilderBase:
    """One sheet being built: the ruleset, its language's catalog, and how values read there."""

    def __init__(
        self, rs: ir.Ruleset, lang: str, mode: str | None = None, words: Path | None = None
    ) -> None:
        self.rs = rs
        self.lang = lang
        self.words = words
        """The project's catalog folder (its ``<lang>.po`` overrides the package's)."""
        self.c: Catalog = catalog(lang, words)
        self.mode = mode
        self.param_refs: dict[str, str] = {}
        """Unfilled scenario parameters by id -> the letter that stands for them in cells."""
        for param in rs.params:
            if param.value is None:
                self.param_refs[param.id] = self.c.label(_letters(len(self.param_refs)))
        self.names: dict[str, ir.Info] = ir.infos_by_id(rs)
        self.rules: frozenset[str] = frozenset(
            r.id
            for rules in (rs.tables, rs.dice_tables, rs.results_tables, rs.steps, rs.decisions)
            for r in rules
        )
        """Ids of the rules (tables, steps, decisions): an input of that name is not the rule."""
        self.overridden: set[str] = set()
        """Override paths of the variant: ``{"soft.walker"}``."""
        self.additions: set[str] = set()
        """Add paths of the variant."""
        for change in rs.changes:
            match change.action:
                case "override":
                    self.overridden.add(path_text(change.path))
                    self.additions.discard(path_text(change.path))
                case "add":
                    self.additions.add(path_text(change.path))
                    self.overridden.discard(path_text(change.path))
                case "remove":
                    pass
                case _:
                    assert_never(change.action)
        self.group_of: dict[str, list[str]] = {}
        for group in rs.groups:
            for member in group.members:
                self.group_of.setdefault(member, []).append(group.id)
        self.books = {b.id: b for b in rs.books}
        self.used_books: set[str] = set()

    def w(self, key: str, **fields: str) -> str:
        """The catalog's phrase ``key``; on a hex map its ``key@hex`` form where the catalog
        has one (the source's own word: ``гекс``, not ``клетка``)."""
        if self.rs.units.get("distance") == "hex" and self.c.get(f"{key}@hex") is not None:
            key = f"{key}@hex"
        return self.c.text(key, **fields)

    def listed(self, parts: Iterable[str]) -> str:
        """``parts`` with ``; `` between them, set in the sheet's language (French puts a
        narrow no-break space before the ``;``)."""
        return typeset("; ".join(parts), self.lang)

    def label(self, info: ir.Info | None, fallback: str) -> str:
        if info is None:
            return self.c.label(fallback.replace("_", " "))
        labels = info.labels
        return self.c.label(
            labels.get(self.lang)
            or labels.get(self.rs.languages[0])
            or next(iter(labels.values()), fallback.replace("_", " "))
        )

    def name(self, ident: str) -> str:
        return self.label(self.names.get(ident), ident)

    def note_texts(self, info: ir.Info) -> list[str]:
        """The item's notes in the sheet's language. A note for some unit types or keywords
        (``note for vehicle "..."``) names them on a sheet for all; a sheet for one unit type
        keeps it only when it concerns that unit type, by its id or one of its keywords."""
        out = []
        for i, n in enumerate(info.notes):
            scope = info.note_for[i] if i < len(info.note_for) else ()
            if scope and self.mode is not None and not self.concerns(scope):
                continue
            text = self.c.label(
                n.get(self.lang) or n.get(self.rs.languages[0]) or next(iter(n.values()), "")
            )
            if scope and self.mode is None:
                names = ", ".join(self.name(x) for x in scope)
                text = self.w("note_for", names=names, text=text)
            out.append(text)
        return out

    def concerns(self, scope: Sequence[str]) -> bool:
        """Whether a note for ``scope`` (unit types, keywords) concerns the sheet's mode."""
        mode = self.mode or ""
        keywords = next((m.keywords for m in self.rs.modes if m.id == mode), ())
        return any(x in (mode, *keywords, *self.group_of.get(mode, ())) for x in scope)

    def num(self, value: float) -> str:
        return self.c.number(value)

    def signed(self, value: float) -> str:
        return self.c.signed(value)

    def unit_text(self, number: str, unit: str | None) -> str:
        """A number with its unit's abbreviation in the sheet's language (``2 po``, ``45°``)."""
        if not unit:
            return number
        text = self.c.unit(unit)
        return f"{number}{text}" if text == "°" else f"{number}\u00a0{text}"

    def dice_text(self, dice: Roll) -> str:
        """``2d6``, ``1D6+3`` in French, ``2к6`` in Russian, ``d66``."""
        if isinstance(dice, D66):
            text = self.w("dice_d66")
        else:
            text = self.w("dice_notation", count=str(dice.count), sides=str(dice.sides))
        return text + (self.signed(dice.bonus) if dice.bonus else "")

    def input_name(self, name: str) -> str:
        """A decision or step input: the catalog's word, else the ruleset item of that id (a
        context, a feature, a parameter...), but never a rule's: an input ``speed`` beside a
        table ``speed`` "Speed by point of sail (MP)" is a speed, not the table (issue 39)."""
        text = self.c.get(f"input:{name}")
        if text is not None:
            return text
        return self.label(None if name in self.rules else self.names.get(name), name)

    def free_text(self, text: str) -> str:
        """Free text from a table cell (``6 x 3 in``): numbers and units localised."""

        def sub(m: re.Match[str]) -> str:
            if m.group(3):
                return "×"  # noqa: RUF001
            return self.unit_text(self.num(float(m.group(1))), m.group(2))

        parts, end = [], 0
        for m in _TEXT_NUMBER.finditer(text):
            parts += [self.c.label(text[end : m.start()]), sub(m)]
            end = m.end()
        return "".join([*parts, self.c.label(text[end:])])

    @staticmethod
    def add_note(notes: list[tuple[str, str]], text: str) -> str:
        """The footnote mark for ``text``, adding it to ``notes`` unless it is there already."""
        for mark, seen in notes:
            if seen == text:
                return mark
        notes.append((str(len(notes) + 1), text))
        return str(len(notes))

    def source(self, info: ir.Info, detail: bool = True) -> str:
        """``TW p.N “detail”`` or ``TW §4.27``: the book by its label in the sheet's language
        (the abbreviation the ruleset declares; the sources block gives its title), never
        its id; table rows leave the detail out (``detail=False``)."""
        src = info.source
        if src is None:
            return ""
        self.used_books.add(src.book)
        page = src.page or ""
        match = _PAGE.match(page)
        rule = _RULE.match(page)
        if match:
            page = self.w("page", n=match.group(1))
        elif rule:
            page = f"§{rule.group(1)}"
        book = self.books.get(src.book)
        title = self.label(book.info if book is not None else None, src.book)
        # A detail quotes the book in the ruleset's first language: other sheets leave it out.
        quote = detail and src.detail and self.lang == self.rs.languages[0]
        parts = [title, page, f"“{src.detail}”" if quote else ""]
        return " ".join(p for p in parts if p)

    def number(self, n: ir.Number) -> str:
        return self.unit_text(self.signed(n.value) if n.signed else self.num(n.value), n.unit)

    def value(self, v: ir.Value | None) -> CellView:
        """A value as a cell: text plus the classes that mark it for print."""
        match v:
            case None:
                return CellView("")
            case ir.Marker(marker=m):
                return CellView(f"{marker_sign(m)} {self.w(m)}", (m,))
            case ir.Same(feature=f, resolved=r):
                inner = self.value(r)
                return CellView(self.w("as", label=self.name(f), value=inner.text), inner.classes)
            case ir.Number() | ir.PerDistance() | ir.NonCost() | ir.OnceCost():
                return CellView(self.text(v))
            case _:
                assert_never(v)

    def text(self, v: ir.Value | None) -> str:
        match v:
            case None:
                return ""
            case ir.Number():
                return self.number(v)
            case ir.Rate(amount=a, per=p):
                return self.w("per", amount=self.number(a), per=self.number(p))
            case ir.ParamRate(amount=a, param=p):
                return self.w("per", amount=self.number(a), per=self.param_text(p))
            case ir.Trade(gain=g, cost=c):
                return self.w("trade", gain=self.number(g), cost=self.number(c))
            case ir.Span(low=lo, high=hi, unit=u):
                return self.unit_text(f"{self.num(lo)}–{self.num(hi)}", u)  # noqa: RUF001
            case ir.Marker(marker=m):
                return f"{marker_sign(m)} {self.w(m)}"
            case ir.Symbol(name=n):
                return self.c.get(f"symbol:{n}") or self.c.label(n.replace("_", " "))
            case ir.Flag(value=b):
                return self.w("yes" if b else "no")
            case ir.DiceValue() | ir.D66Value():
                return self.dice_text(semantics.roll_of(v))
            case ir.Text(text=t):
                return self.free_text(t)
            case ir.Given():
                return self.w("given")
            case ir.Same(feature=f, resolved=r):
                return self.w("as", label=self.name(f), value=self.text(r))
            case ir.Flat(amount=a):
                return self.w("cost_flat", amount=self.number(a))
            case ir.Share(numerator=n, denominator=d, but=but) if n == d:
                if but is None:
                    return self.w("cost_share_all")
                return self.w("cost_share_all_but", amount=self.number(but))
            case ir.Share(numerator=n, denominator=d):
                return self.w("cost_share", share=f"{n}/{d}")
            case ir.StepCost(step=name):
                return self.w("cost_step", label=self.name(name))
            case _:
                assert_never(v)

    def param_text(self, ident: str) -> str:
        """A scenario parameter in a cell: its value once filled in, else its box letter."""
        param = next((p for p in self.rs.params if p.id == ident), None)
        if param is None:
            return self.name(ident)
        if param.value is not None:
            return self.text(param.value)
        return f"□{self.param_refs[ident]}\u00a0{self.c.unit(param.unit)}"

    def changed(self, *paths: str) -> bool:
        """Whether the variant overrides a cell known by any of ``paths``."""
        return any(p in self.overridden for p in paths)

    def added(self, *paths: str) -> bool:
        """Whether the variant adds the item or row known by any of ``paths``."""
        return any(p in self.additions for p in paths)
