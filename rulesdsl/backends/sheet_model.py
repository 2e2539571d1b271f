"""A quick-reference sheet as plain view data: the IR resolved into one language.

:func:`build_sheet` turns an :class:`rulesdsl.ir.Ruleset` into a :class:`Sheet`: sections by
topic, each holding blocks (a table, lines of text, an optional diagram), where every cell is
already text in the sheet's language. The HTML and Markdown templates only lay this out, so
both formats show the same content. Nothing here escapes: the templates do (HTML by Jinja2's
autoescape, Markdown by the ``md`` filter); diagrams are built by :mod:`rulesdsl.backends.svg`,
which escapes its own text.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Literal, assert_never, get_args

from rulesdsl import ir, semantics
from rulesdsl.backends import svg
from rulesdsl.dice import D66, Roll, chance_at_least, chance_between
from rulesdsl.i18n import Catalog, catalog
from rulesdsl.variants.changelog import path_text

MARKERS: tuple[ir.MarkerKind, ...] = get_args(ir.MarkerKind)
"""Every marker, in the order a legend lists them."""


def marker_sign(marker: ir.MarkerKind) -> str:
    """A sign before each marker word, so marked cells stand out in black-and-white print."""
    match marker:
        case "impassable":
            return "✕"
        case "prohibited":
            return "⊘"
        case "blocked":
            return "⊗"
        case _:
            assert_never(marker)


MAP_CELLS = frozenset({"square", "hex"})
"""Units that name a map cell rather than a length (``1 square = 1.5 m``)."""

CHANGED_SIGN = "†"
"""Put after a cell (or a row label) that a variant changed or added."""

SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")

UNITLESS = frozenset({"", "bool", "key", "number", "count", "size"})
"""Input units that are not lengths or points: the input is named without a unit."""


def marks_text(text: str, notes: tuple[str, ...]) -> str:
    """``text`` with its footnote marks as superscripts, never run into a number before them:
    a thin space after a final digit, and a comma between marks (``3 ¹⁰,¹²``)."""
    if not notes:
        return text
    sep = "\u2009" if text[-1:].isdigit() else ""
    return text + sep + ",".join(n.translate(SUPERSCRIPTS) for n in notes)


# ---- view data ------------------------------------------------------------------------------


PAIR = "&"
"""Joins the two context values of a combination in a column key (names have no ``&``)."""


@dataclass
class CellView:
    text: str
    classes: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    """Footnote marks (``"1"``) shown as superscripts after the text."""
    changed: bool = False
    small: str = ""
    """Small print after the text (a row's own source reference)."""

    @property
    def css(self) -> str:
        return " ".join((*self.classes, *(("changed",) if self.changed else ())))

    @property
    def digit_end(self) -> bool:
        """Whether the text ends in a digit (marks after it need a space between)."""
        return self.text[-1:].isdigit()

    @property
    def plain(self) -> str:
        """The text with its marks, as Markdown shows it."""
        text = marks_text(self.text, self.notes)
        if self.changed:
            text += " " + CHANGED_SIGN
        if self.small:
            text += f" ({self.small})"
        return text


@dataclass
class HeadCell:
    text: str
    colspan: int = 1
    rowspan: int = 1
    notes: tuple[str, ...] = ()
    """Footnote marks of a column note."""

    @property
    def plain(self) -> str:
        return marks_text(self.text, self.notes)


@dataclass
class TableView:
    head: list[list[HeadCell]]
    rows: list[list[CellView]]
    flat_head: list[str]
    """One header row for formats without spans (Markdown): group and column joined."""
    numeric_from: int = 1
    """Columns from this index on are values (right-aligned, compact)."""
    fold: bool = False
    """A long two-column table printed as two pairs of columns side by side (HTML, PDF)."""
    col_groups: list[int] = field(default_factory=list)
    """For each value column (after the first), the index of its column group (the modes
    under one cost heading, one modifier's columns): a wide table splits between groups."""

    @property
    def folded(self) -> list[list[CellView]]:
        """The rows in two halves side by side: row i beside row i + half."""
        half = (len(self.rows) + 1) // 2
        left, right = self.rows[:half], self.rows[half:]
        blank = [CellView("") for _ in self.rows[0]] if self.rows else []
        return [a + (right[i] if i < len(right) else blank) for i, a in enumerate(left)]


BlockKind = Literal["table", "dice", "grid", "sources", "step", "text"]
"""What a block of a sheet holds; the sheets' CSS styles each (``kind-table``)."""


@dataclass
class Block:
    id: str
    title: str
    table: TableView | None = None
    lines: list[str] = field(default_factory=list)
    """Short paragraphs before the table (rules, procedure text)."""
    notes: list[tuple[str, str]] = field(default_factory=list)
    """Footnotes: (mark, text)."""
    after: list[str] = field(default_factory=list)
    """Paragraphs after the table (unnumbered notes)."""
    svg: str = ""
    """An inline SVG diagram (HTML and PDF only), already escaped by the svg module."""
    text_alt: list[str] = field(default_factory=list)
    """What Markdown shows in place of the diagram (besides the table, if any)."""
    source: str = ""
    changed: bool = False
    kind: BlockKind = "table"
    narrow: bool = False
    """Set by the page layout: the block takes half the width (two share a row)."""

    @property
    def tabular(self) -> bool:
        """Whether the block is a table of rows (which the layout may set half-width)."""
        match self.kind:
            case "table" | "dice":
                return True
            case "grid" | "sources" | "step" | "text":
                return False
            case _:
                assert_never(self.kind)

    @property
    def bulleted(self) -> bool:
        """Whether Markdown lists the block's lines as bullets (a list of short items)."""
        match self.kind:
            case "text" | "sources":
                return True
            case "table" | "dice" | "grid" | "step":
                return False
            case _:
                assert_never(self.kind)


@dataclass
class Section:
    id: str
    title: str
    blocks: list[Block]

    @property
    def lines(self) -> int:
        """A rough height in text lines, to keep short topics on one page."""
        total = 2
        for b in self.blocks:
            total += 2 + len(b.lines) + len(b.after) + len(b.notes) + (6 if b.svg else 0)
            if b.table is not None and not b.svg:
                total += len(b.table.head) + len(b.table.rows)
        return total


@dataclass
class Sheet:
    lang: str
    ruleset_id: str
    title: str
    version: str
    digest: str
    ident: str
    """One line: id, version, extends chain and digest (the footer of every page)."""
    sections: list[Section]
    legend: list[str]
    languages: tuple[str, ...]
    words: dict[str, str] = field(default_factory=dict)
    """Fixed words the templates need besides the sheet's own text (``sources``)."""
    mode: str = ""
    """The unit type this sheet is cut down to (its label), or "" for every type."""


# ---- building -------------------------------------------------------------------------------


def build_sheet(rs: ir.Ruleset, lang: str | None = None, mode: str | None = None) -> Sheet:
    """The sheet of ``rs`` in ``lang`` (default: the ruleset's first language).

    ``mode`` (a mode id) cuts the sheet down to one unit type: movement tables keep only that
    mode's column, modifier columns by mode keep its own and the one for the others, and rows
    left with nothing in them go.
    """
    if mode is not None and mode not in {m.id for m in rs.modes}:
        raise ValueError(
            f"unknown mode {mode!r}; choose one of "
            f"{', '.join(m.id for m in rs.modes) or '(none declared)'}"
        )
    return _Builder(rs, lang or rs.languages[0], mode).sheet()


_PAGE = re.compile(r"^p\.?\s*(\S+)$")
_TEXT_NUMBER = re.compile(r"(\d+(?:\.\d+)?)(?:\s*(in|cm|m|ft|deg)\b)?|\b(x)\b")


def _letters(index: int) -> str:
    """``A``, ``B``, … ``Z``, ``AA``: the box letter of the ``index``-th unfilled parameter."""
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = chr(ord("A") + rest) + text
    return text


class _Builder:
    def __init__(self, rs: ir.Ruleset, lang: str, mode: str | None = None) -> None:
        self.rs = rs
        self.lang = lang
        self.c: Catalog = catalog(lang)
        self.mode = mode
        self.param_refs: dict[str, str] = {}
        """Unfilled scenario parameters by id -> the letter that stands for them in cells."""
        for param in rs.params:
            if param.value is None:
                self.param_refs[param.id] = self.c.label(_letters(len(self.param_refs)))
        self.names: dict[str, ir.Info] = ir.infos_by_id(rs)
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

    # ---- words and values -----------------------------------------------------------------

    def w(self, key: str, **fields: str) -> str:
        return self.c.text(key, **fields)

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
        return [
            self.c.label(
                n.get(self.lang) or n.get(self.rs.languages[0]) or next(iter(n.values()), "")
            )
            for n in info.notes
        ]

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
        """``2d6``, ``1D6+3`` in French, ``d66``."""
        if isinstance(dice, D66):
            text = self.w("dice_d66")
        else:
            text = self.w("dice_notation", count=str(dice.count), sides=str(dice.sides))
        return text + (self.signed(dice.bonus) if dice.bonus else "")

    def input_name(self, name: str) -> str:
        """A decision or step input: the catalog's word, else the ruleset item of that id."""
        text = self.c.get(f"input:{name}")
        if text is not None:
            return text
        info = self.names.get(name)
        return self.label(info, name)

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
        """``book p.N “detail”``; table rows leave the detail out (``detail=False``)."""
        src = info.source
        if src is None:
            return ""
        self.used_books.add(src.book)
        page = src.page or ""
        match = _PAGE.match(page)
        if match:
            page = self.w("page", n=match.group(1))
        # A detail quotes the book in the ruleset's first language: other sheets leave it out.
        quote = detail and src.detail and self.lang == self.rs.languages[0]
        parts = [src.book, page, f"“{src.detail}”" if quote else ""]
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
        return CellView(self.text(v))

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

    # ---- the sheet --------------------------------------------------------------------------

    def sheet(self) -> Sheet:
        rs = self.rs
        # a sight rule read through scales (`crossed`) is printed with its scales
        sights = self.sight_blocks()
        by_scale = {r.id for r in rs.sights if r.crossed is not None}
        sections = [
            Section("movement", self.w("movement"), self.movement()),
            Section("modifiers", self.w("modifiers"), self.modifiers()),
            Section("sight", self.w("sight"), [b for b in sights if b.id not in by_scale]),
            Section(
                "steps",
                self.w("steps"),
                [self.step(s) for s in rs.steps if not self.is_movement_step(s)]
                + [b for b in sights if b.id in by_scale],
            ),
            Section("decisions", self.w("decisions"), [self.decision(d) for d in rs.decisions]),
            Section("tables", self.w("tables"), [self.table(t) for t in rs.tables]),
            Section("dice", self.w("dice"), [self.dice(d) for d in rs.dice_tables]),
            Section(
                "results",
                self.w("results"),
                [self.results_block(t) for t in rs.results_tables],
            ),
            Section("triggers", self.w("triggers"), self.triggers()),
            Section("exclusions", self.w("exclusions"), self.exclusions()),
            Section("grid", self.w("grid"), [self.grid(g) for g in rs.grids]),
            Section("params", self.w("params"), self.params()),
            Section("changes", self.w("changes"), self.changelog()),
        ]
        sections.append(Section("sources", self.w("sources"), self.sources()))
        sections = [s for s in sections if s.blocks]
        legend = [f"{marker_sign(m)} {self.w(m)}" for m in MARKERS if self.uses_marker(m)]
        if self.overridden or self.additions:
            legend.append(f"{CHANGED_SIGN} {self.w('changed_mark')}")
        words = {"sources": self.w("sources_label")}
        mode = self.name(self.mode) if self.mode else ""
        return Sheet(
            self.lang,
            rs.id,
            self.label(rs.info, rs.id),
            rs.version,
            rs.digest,
            self.ident(),
            sections,
            legend,
            rs.languages,
            words,
            mode,
        )

    def ident(self) -> str:
        rs = self.rs
        parts = [self.w("ident_version", id=rs.id, version=rs.version)]
        if rs.extends:
            chain = " → ".join(f"{a.id}@{a.version}" for a in rs.extends)
            parts.append(self.w("ident_extends", chain=chain))
        parts.append(self.w("ident_digest", digest=rs.digest))
        return " · ".join(parts)

    def uses_marker(self, marker: ir.MarkerKind) -> bool:
        def has(v: ir.Value | None) -> bool:
            return (isinstance(v, ir.Marker) and v.marker == marker) or (
                isinstance(v, ir.Same) and has(v.resolved)
            )

        rs = self.rs
        values: list[ir.Value | None] = [c for f in rs.features for c in f.costs.values()]
        values += [v for m in rs.modifiers for d in m.values.values() for v in d.values()]
        values += [c.value for m in rs.modifiers for c in m.combinations]
        values += [c for t in rs.tables for r in t.rows for c in r.cells]
        values += [v for d in rs.dice_tables for r in d.rows for v in r.effects.values()]
        values += [o.value for d in rs.decisions for o in d.outcomes]
        values += [f.cells[r.id].default for r in rs.sights for f in rs.features if r.id in f.cells]
        match marker:
            case "impassable":
                steps = any(isinstance(t, ir.ImpassableTerm) for s in rs.steps for t in s.terms)
            case "prohibited" | "blocked":
                steps = False
            case _:
                assert_never(marker)
        return any(has(v) for v in values) or steps

    # ---- movement ---------------------------------------------------------------------------

    def is_movement_step(self, step: ir.Step) -> bool:
        cost = self.rs.units.get("cost")
        return cost is not None and step.result_unit == cost

    def movement(self) -> list[Block]:
        rs = self.rs
        blocks: list[Block] = []
        rules = []
        layers = [b for b in (self.layer(layer) for layer in rs.layers) if b is not None]
        if len(layers) > 1:
            rules.append(self.w("stacking"))
        cost_unit = rs.units.get("cost", "")
        if rs.entry_cost:
            rules.append(self.w("entry", cost=self.unit_text(self.num(rs.entry_cost), cost_unit)))
        if rs.minimum_move is not None:
            rules.append(self.w("minimum", distance=self.number(rs.minimum_move)))
        blocks += self.keywords()
        blocks += layers
        if blocks and rules:
            blocks[0].lines = rules + blocks[0].lines
        blocks += [self.step(s) for s in rs.steps if self.is_movement_step(s)]
        return blocks

    def mod_columns(self, modifier: ir.Modifier, items: list[str]) -> list[str]:
        """The context keys to show as columns for ``items``: specific values, then ``""``."""
        keys = {k for item in items for k in modifier.values.get(item, {})}
        ctx = next((c for c in self.rs.contexts if c.id == modifier.context), None)
        order = [v.id for v in ctx.values] if ctx else sorted(keys - {""})
        order += self.second_context_values(modifier)
        columns = [k for k in order if k in keys] + self.pair_keys(modifier, items)
        if self.mode is not None and ctx is None and set(columns) <= {m.id for m in self.rs.modes}:
            return [self.mode] if self.mode in columns else [""]
        if "" in keys or not columns:
            columns.append("")
        return columns

    def ctx_label(self, key: str, alone: bool) -> str:
        if key == "":
            return self.w("all") if alone else self.w("others")
        if PAIR in key:
            first, second = key.split(PAIR)
            return f"{self.name(first)} & {self.name(second)}"
        return self.name(key)

    def written_cost(self, f: ir.Feature, mode: str) -> ir.Value | None:
        """The resolved cost, kept as ``as X`` when that is how the cell was written."""
        resolved = f.costs.get(mode)
        cell = f.cells.get("cost")
        if cell is None or resolved is None:
            return resolved
        written = semantics.written_cost(
            cell, mode, self.rs.groups, [p.groups for p in self.rs.precedence]
        )
        if isinstance(written, ir.Same):
            return ir.Same(written.feature, resolved)
        return resolved

    def layer(self, layer: ir.Layer) -> Block | None:
        """A layer as a table: a row per feature, a column per mode, then modifier columns;
        None for a layer with no feature (nothing to print).

        Modes (or context values) whose columns are identical in this layer share a column,
        so a table with many unit types stays narrow enough to print.
        """
        rs = self.rs
        features = {f.id: f for f in rs.features}
        rows_of = [features[f] for f in layer.features if f in features]
        if not rows_of:
            return None
        ids = [f.id for f in rows_of]
        modes = [self.mode] if self.mode else [m.id for m in rs.modes]
        distance = rs.units.get("distance", "")
        cost_unit = rs.units.get("cost", "")
        scope = self.w(
            {
                "one": "scope_one",
                "map": "scope_map",
                "many": "scope_many",
                "edges": "scope_edges",
            }[layer.scope]
        )
        # Column groups: (title, [(header, cells by row)]).
        groups: list[tuple[str, list[tuple[str, list[CellView]]]]] = []
        if "cost" in layer.columns and modes:
            per = (
                self.w("cost_per", cost=self.c.unit(cost_unit), distance=self.c.unit(distance))
                if cost_unit
                else ""
            )
            if semantics.on_edges(layer) and cost_unit:  # maps: paid once per crossing
                per = self.c.unit(cost_unit)
            columns = []
            for m in modes:
                cells = []
                for f in rows_of:
                    cell = self.map_cell(self.value(self.written_cost(f, m)), f, m)
                    cell.changed = self.changed(
                        f.id,
                        f"{f.id}.{m}",
                        f"{f.id}.cost",
                        f"{f.id}.cost.{m}",
                        *(f"{f.id}.{g}" for g in self.group_of.get(m, [])),
                    )
                    cells.append(cell)
                columns.append((self.name(m), cells))
            groups.append((per, self.merge_columns(columns)))
        mods = {m.id: m for m in rs.modifiers}
        for column in layer.columns:
            if column == "cost" or column not in mods:
                continue
            modifier = mods[column]
            keys = self.mod_columns(modifier, ids)
            columns = []
            for k in keys:
                cells = []
                for f in rows_of:
                    cell = self.value(self.keyed_value(modifier, f.id, k))
                    cell.changed = self.changed(
                        f"{f.id}.{modifier.id}", f"{f.id}.{modifier.id}.{k}" if k else ""
                    )
                    cells.append(cell)
                columns.append((self.ctx_label(k, keys == [""]), cells))
            groups.append((self.label(modifier.info, modifier.id), self.merge_columns(columns)))
        # A column with nothing in it (a modifier that no feature of this layer has) goes.
        groups = [
            (g, kept)
            for g, cols in groups
            if (kept := [(h, cells) for h, cells in cols if any(c.text for c in cells)])
        ]
        sights = {r.id for r in rs.sights}
        if not groups and set(layer.columns) <= sights and not any(f.info.notes for f in rows_of):
            return None  # only sight columns: their values are printed with the sight rules
        width = sum(len(cols) for _, cols in groups)
        if width > 6:  # narrow cells: the sign alone, the legend says what it means
            for _, cols in groups:
                for _, cells in cols:
                    for cell in cells:
                        marker = next((m for m in MARKERS if m in cell.classes), None)
                        if marker is not None and cell.text.startswith(marker_sign(marker)):
                            cell.text = marker_sign(marker)
        title = self.label(layer.info, layer.id)
        two_rows = any(len(cols) > 1 for _, cols in groups)
        head_top = [HeadCell(title, rowspan=2 if two_rows else 1)]
        head_sub: list[HeadCell] = []
        flat = [title]
        everyone = self.w("all")
        for group_title, cols in groups:
            if len(cols) == 1:
                only = cols[0][0]
                text = (
                    group_title
                    if only == everyone or not only
                    else self.w("label_colon", label=group_title, text=only)
                    if group_title
                    else only
                )
                head_top.append(HeadCell(text, rowspan=2 if two_rows else 1))
                flat.append(text)
            else:
                head_top.append(HeadCell(group_title, colspan=len(cols)))
                head_sub += [HeadCell(h) for h, _ in cols]
                flat += [
                    self.w("label_colon", label=group_title, text=h) if group_title else h
                    for h, _ in cols
                ]
        notes: list[tuple[str, str]] = []
        rows: list[list[CellView]] = []
        for i, f in enumerate(rows_of):
            marks = []
            texts = self.note_texts(f.info)
            if f.ignores_others:
                texts.append(self.w("ignores_others"))
            for text in texts:
                marks.append(self.add_note(notes, text))
            added = self.added(f"{layer.id}.{f.id}", f.id)
            label = CellView(
                self.label(f.info, f.id),
                ("label",),
                tuple(marks),
                added,
                self.source(f.info, detail=False) if f.info.source != layer.info.source else "",
            )
            row_cells = [cells[i] for _, cols in groups for _, cells in cols]
            if self.mode is not None and all(not v.text for v in row_cells):
                continue  # nothing in this row for the chosen unit type
            label.notes = tuple(sorted(marks, key=int))
            rows.append([label, *row_cells])
        head = [head_top] + ([head_sub] if head_sub else [])
        col_groups = [g for g, (_, cols) in enumerate(groups) for _ in cols]
        return Block(
            layer.id,
            f"{title} · {scope}",
            TableView(head, rows, flat, col_groups=col_groups),
            lines=[
                line
                for column in layer.columns
                if column in mods and not (mods[column].factors or mods[column].combinations)
                for line in self.policy_lines(mods[column])
            ],
            notes=notes,
            source=self.source(layer.info),
            changed=self.added(layer.id),
        )

    def map_cell(self, cell: CellView, f: ir.Feature, mode: str) -> CellView:
        """A cost cell with what maps add (issue 11): the place state after the cost, and an
        edge feature's ``along`` cost (alone when the cell gives the mode no crossing cost)."""
        parts = [cell.text] if cell.text else []
        along = f.along.get(mode)
        if along is not None:
            written = f.cells.get("cost")
            crossing = written is not None and (
                semantics.written_cost(written, mode, self.rs.groups) is not None
            )
            parts = parts if crossing else []
            parts.append(self.w("along_cost", cost=self.num(along)))
        state = f.states.get(mode)
        if state is not None:
            parts.append(self.w(f"state_{state}"))
        cell.text = " · ".join(parts)
        return cell

    def merge_columns(
        self, columns: list[tuple[str, list[CellView]]]
    ) -> list[tuple[str, list[CellView]]]:
        """Columns with the same cells, merged into one headed by all their names.

        One column left for everyone is headed "all".
        """
        merged: dict[tuple[tuple[str, tuple[str, ...], bool], ...], list[int]] = {}
        for i, (_, cells) in enumerate(columns):
            key = tuple((c.text, c.classes, c.changed) for c in cells)
            merged.setdefault(key, []).append(i)
        if len(merged) == 1 and len(columns) > 1:
            return [(self.w("all"), columns[0][1])]
        return [
            (", ".join(columns[i][0] for i in members), columns[members[0]][1])
            for members in merged.values()
        ]

    # ---- modifiers ----------------------------------------------------------------------------

    def modifiers(self) -> list[Block]:
        blocks = []
        for modifier in self.rs.modifiers:
            if not modifier.factors and not modifier.combinations:
                continue  # shown as a column of its layers
            blocks.append(self.modifier(modifier))
        return blocks

    def modifier(self, modifier: ir.Modifier) -> Block:
        title = self.label(modifier.info, modifier.id)
        ids = [f.id for f in modifier.factors]
        keys = self.mod_columns(modifier, ids) if ids else [""]
        alone = keys == [""]
        head = [[HeadCell(title)] + [HeadCell(self.ctx_label(k, alone)) for k in keys]]
        notes: list[tuple[str, str]] = []
        rows = []
        for factor in modifier.factors:
            marks = []
            for text in self.note_texts(factor.info):
                marks.append(self.add_note(notes, text))
            added = self.added(f"{modifier.id}.{factor.id}", factor.id)
            row = [
                CellView(
                    self.label(factor.info, factor.id),
                    ("label",),
                    tuple(marks),
                    added,
                    self.source(factor.info, detail=False),
                )
            ]
            for k in keys:
                cell = self.value(self.keyed_value(modifier, factor.id, k))
                cell.changed = self.changed(factor.id, f"{factor.id}.{k}" if k else "")
                row.append(cell)
            rows.append(row)
        for combo in modifier.combinations:
            marks = []
            for text in self.note_texts(combo.info):
                marks.append(self.add_note(notes, text))
            together = " + ".join(self.name(m) for m in combo.members)
            cell = self.value(combo.value)
            row = [CellView(f"{together} ({self.w('together')})", ("label",), tuple(marks))]
            row += [CellView(cell.text, cell.classes) for _ in keys]
            rows.append(row)
        flat = [title] + [self.ctx_label(k, alone) for k in keys]
        return Block(
            modifier.id,
            title,
            TableView(head, rows, flat),
            lines=self.policy_lines(modifier),
            notes=notes,
            source=self.source(modifier.info),
            changed=self.added(modifier.id),
        )

    # ---- modifier policies, two contexts, keywords ----------------------------------------------

    def policy_lines(self, modifier: ir.Modifier) -> list[str]:
        """How the modifier's values combine and the bounds of its total, as sentences."""
        label = self.label(modifier.info, modifier.id)
        lines = []
        match modifier.combine:
            case "sum":
                pass
            case "highest" | "lowest" | "once":
                lines.append(self.w(f"combine_{modifier.combine}", modifier=label))
            case _:
                assert_never(modifier.combine)
        if modifier.clamp is not None:
            low, high = modifier.clamp.low, modifier.clamp.high
            lines.append(
                self.w("clamp", modifier=label, low=self.signed(low), high=self.signed(high))
            )
        return lines

    def second_context_values(self, modifier: ir.Modifier) -> list[str]:
        """The values of a modifier's second context, in their order (none without one)."""
        ctx = next((c for c in self.rs.contexts if c.id == modifier.context2), None)
        return [v.id for v in ctx.values] if ctx and modifier.context2 else []

    def pair_keys(self, modifier: ir.Modifier, items: list[str]) -> list[str]:
        """A column key per combination of two context values that ``items`` give."""
        keys: dict[str, None] = {}
        for item in items:
            for pair in modifier.pairs.get(item, ()):
                keys[f"{pair.first}{PAIR}{pair.second}"] = None
        return list(keys)

    def keyed_value(self, modifier: ir.Modifier, item: str, key: str) -> ir.Value | None:
        """What ``item`` gives under a column key: a context value, a combination, or all."""
        if PAIR in key:
            first, second = key.split(PAIR)
            return semantics.context_value(modifier, item, first, second)
        values = modifier.values.get(item, {})
        return values.get(key, values.get(""))

    def keywords(self) -> list[Block]:
        """The modes' keywords and the precedence between groups, when the ruleset has any."""
        rs = self.rs
        lines = [
            self.w(
                "label_colon",
                label=self.name(m.id),
                text=", ".join(self.name(k) for k in m.keywords),
            )
            for m in rs.modes
            if m.keywords and (self.mode is None or m.id == self.mode)
        ]
        notes: list[tuple[str, str]] = []
        for p in rs.precedence:
            order = " > ".join(self.name(g) for g in p.groups)
            marks = [self.add_note(notes, text) for text in self.note_texts(p.info)]
            line = self.w("precedence", order=order)
            lines.append(marks_text(line, tuple(marks)) if marks else line)
        if not lines:
            return []
        return [Block("keywords", self.w("keywords"), lines=lines, notes=notes)]

    # ---- steps --------------------------------------------------------------------------------

    def step_rule(self, step: ir.Step) -> str:
        unit = step.param_unit
        parts = []
        for t in step.terms:
            match t:
                case ir.RateTerm():
                    key = "rate_full" if t.full else "rate"
                    parts.append(
                        self.w(
                            key,
                            amount=self.signed(t.amount),
                            every=self.unit_text(self.num(t.every), unit),
                        )
                    )
                    if t.above is not None:
                        above = self.unit_text(self.num(t.above), unit)
                        parts[-1] = self.w("rate_above", rate=parts[-1], at=above)
                case ir.FloorTerm():
                    key = "floor_above" if t.strict else "floor_from"
                    at = self.unit_text(self.num(t.at), unit)
                    parts.append(self.w(key, amount=self.num(t.amount), at=at))
                case ir.FreeTerm():
                    parts.append(self.w("free_up_to", at=self.unit_text(self.num(t.at), unit)))
                case ir.ImpassableTerm():
                    key = "impassable_above" if t.strict else "impassable_from"
                    parts.append(self.w(key, at=self.unit_text(self.num(t.at), unit)))
                case _:
                    assert_never(t)
        return ", ".join(parts)

    @staticmethod
    def step_value(step: ir.Step, x: float) -> float | None:
        """The step's result for input ``x``; None for impassable."""
        value = semantics.step_value(step, x)
        return None if isinstance(value, ir.Marker) else value

    def step(self, step: ir.Step) -> Block:
        title = self.label(step.info, step.id)
        marks = [t.at for t in step.terms if not isinstance(t, ir.RateTerm)]
        marks += [t.every for t in step.terms if isinstance(t, ir.RateTerm)]
        top = max(12, math.ceil(2 * max(marks, default=0)))
        stride = max(1, math.ceil(top / 16))
        xs = list(range(0, top + 1, stride))
        results = [self.step_value(step, x) for x in xs]
        finite = [r for r in results if r is not None]
        high = max(finite, default=0) or 1
        impassable = self.w("impassable")
        points = [
            svg.ScalePoint(
                self.num(x),
                "✕" if r is None else self.num(r),
                1.0 if r is None else r / high,
                r is None,
            )
            for x, r in zip(xs, results, strict=True)
        ]
        x_label = self.input_text(ir.Param(step.param, step.param_unit))
        r_label = self.c.unit(step.result_unit) if step.result_unit else self.w("result")
        diagram = svg.step_scale(
            points, x_label, r_label, f"{title}: {self.step_rule(step)}", step.id
        )
        head = [[HeadCell(x_label)] + [HeadCell(p.x) for p in points]]
        row = [CellView(r_label, ("label",))] + [
            CellView(
                f"{marker_sign('impassable')} {impassable}" if r is None else self.num(r),
                ("impassable",) if r is None else (),
            )
            for r in results
        ]
        table = TableView(head, [row], [h.text for h in head[0]])
        return Block(
            step.id,
            title,
            table,
            lines=[self.step_rule(step)],
            after=self.note_texts(step.info),
            svg=diagram,
            source=self.source(step.info),
            changed=self.added(step.id),
            kind="step",
        )

    # ---- decisions ---------------------------------------------------------------------------

    def cell_ref(self, ref: ir.CellRef) -> str:
        """``flight[class].turn`` as a player reads it: "Turn (Flight manoeuvrability)"."""
        table = next((t for t in self.rs.tables if t.id == ref.table), None)
        picked = ref.line
        info = None
        if table is not None and picked is not None:
            info = next((r.info for r in table.rows if r.key == picked), None) or next(
                (c.info for c in table.columns if c.id == picked), None
            )
        text = (
            self.name(ref.table)
            if picked is None
            else (f"{self.label(info, picked)} ({self.name(ref.table)})")
        )
        if ref.over is not None:
            text += f" × {self.input_name(ref.over)}"  # noqa: RUF001
        return text

    def operand(self, op: ir.Operand) -> str:
        match op:
            case ir.CellOperand(cell=ref):
                return self.cell_ref(ref)
            case ir.LiteralOperand(value=value):
                return self.num(value)
            case ir.InputOperand(input=name, scale_op=scale_op, scale=scale):
                text = self.input_name(name)
                match scale_op:
                    case "*":
                        text += f" × {self.num(scale)}"  # noqa: RUF001
                    case "/":
                        text += f" / {self.num(scale)}"
                    case None:
                        pass
                    case _:
                        assert_never(scale_op)
                return text
            case _:
                assert_never(op)

    def condition(self, c: ir.Condition) -> str:
        match c:
            case ir.CellTruth(cell=ref, holds=holds):
                name = self.cell_ref(ref)
                return name if holds else self.w("not", name=name)
            case ir.InputTruth(input=input_name, holds=holds):
                name = self.input_name(input_name)
                return name if holds else self.w("not", name=name)
            case ir.Comparison(left=left, op=op, right=right):
                shown = {"<=": "≤", ">=": "≥", "!=": "≠"}.get(op, op)
                return f"{self.operand(left)} {shown} {self.operand(right)}"
            case _:
                assert_never(c)

    def input_text(self, p: ir.Param) -> str:
        """An input with what it is measured in: "distance (po)", "cover (Visibility)"."""
        name = self.input_name(p.name)
        if p.key_of:
            return self.w("input_unit", name=name, unit=self.name(p.key_of))
        if p.unit in UNITLESS or not self.measures(p.unit):
            return name
        return self.w("input_unit", name=name, unit=self.c.unit(p.unit))

    def measures(self, unit: str) -> bool:
        """Whether ``unit`` is a unit of measure a player needs to see (``in``, ``points``):
        one the catalog names or the ruleset declares. Anything else (a size class, a plain
        number) is printed without a unit, so nobody measures what is a count."""
        return self.c.get(f"unit:{unit}") is not None or unit in self.rs.units.values()

    def decision(self, d: ir.Decision) -> Block:
        title = self.label(d.info, d.id)
        outcomes = {o.id: o for o in d.outcomes}
        head = [[HeadCell(self.w("condition")), HeadCell(self.w("outcome"))]]
        rows = []
        notes: list[tuple[str, str]] = []
        for r in d.rows:
            cond = (
                f" {self.w('and')} ".join(self.condition(c) for c in r.conditions)
                if r.conditions
                else self.w("otherwise")
            )
            outcome = outcomes.get(r.outcome)
            text = self.label(outcome.info if outcome else None, r.outcome)
            classes: tuple[str, ...] = ()
            if outcome is not None and outcome.value is not None:
                value = self.value(outcome.value)
                text = f"{text} ({value.text})"
                classes = value.classes
            marks = []
            for note in self.note_texts(r.info):
                marks.append(self.add_note(notes, note))
            rows.append([CellView(cond, ("label",)), CellView(text, classes, tuple(marks))])
        # Notes on outcomes: once, after the table, the first time the outcome appears.
        for o in d.outcomes:
            for note in self.note_texts(o.info):
                mark = self.add_note(notes, note)
                for row, r in zip(rows, d.rows, strict=True):
                    if r.outcome == o.id:
                        if mark not in row[1].notes:
                            row[1].notes = (*row[1].notes, mark)
                        break
        inputs = ", ".join(self.input_text(p) for p in d.params)
        lines = [f"{self.w('rule_inputs', inputs=inputs)} {self.w('first_wins')}"]
        return Block(
            d.id,
            title,
            TableView(head, rows, [h.text for h in head[0]]),
            lines=lines,
            notes=notes,
            after=self.note_texts(d.info),
            source=self.source(d.info),
            changed=self.added(d.id),
        )

    # ---- plain tables ------------------------------------------------------------------------

    def table(self, t: ir.Table) -> Block:
        title = self.label(t.info, t.id)
        single = len(t.columns) <= 1
        notes: list[tuple[str, str]] = []
        columns = [
            HeadCell(
                self.label(c.info, c.id),
                notes=tuple(self.add_note(notes, text) for text in self.note_texts(c.info)),
            )
            for c in t.columns
        ] or [HeadCell(self.w("value"))]
        head = [[HeadCell(""), *columns]]
        rows = []
        for r in t.rows:
            if r.key_number is not None:
                key = self.unit_text(self.num(r.key_number), r.key_unit)
            else:
                key = self.label(r.info, r.key)
            marks = []
            for note in self.note_texts(r.info):
                marks.append(self.add_note(notes, note))
            added = self.added(f"{t.id}.{r.key}")
            row = [
                CellView(key, ("label",), tuple(marks), added, self.source(r.info, detail=False))
            ]
            for i, value in enumerate(r.cells):
                cell = self.value(value)
                column = t.columns[i].id if i < len(t.columns) else ""
                cell.changed = self.changed(f"{t.id}.{column}.{r.key}") or (
                    single and self.changed(f"{t.id}.{r.key}")
                )
                row.append(cell)
            rows.append(row)
        fold = single and len(rows) >= 8
        return Block(
            t.id,
            title,
            TableView(head, rows, [h.plain for h in head[0]], fold=fold),
            notes=notes,
            after=self.note_texts(t.info),
            source=self.source(t.info),
            changed=self.added(t.id),
        )

    # ---- dice -------------------------------------------------------------------------------

    def effects(self, effects: dict[str, ir.Value]) -> CellView:
        parts = []
        classes: tuple[str, ...] = ()
        for key, value in effects.items():
            name = self.c.get(f"effect:{key}") or self.c.label(key.replace("_", " "))
            if isinstance(value, ir.Flag):
                parts.append(name if value.value else self.w("not", name=name))
            else:
                cell = self.value(value)
                classes = classes or cell.classes
                parts.append(self.w("effect_value", name=name, value=cell.text))
        return CellView(", ".join(parts), classes)

    def dice(self, d: ir.DiceTable) -> Block:
        dice = semantics.roll_of(d.dice)
        title = f"{self.label(d.info, d.id)} ({self.dice_text(dice)})"
        chance = self.w("chance")
        head = [
            [
                HeadCell(self.w("roll")),
                HeadCell(self.w("result")),
                HeadCell(self.w("effects")),
                HeadCell(chance),
            ]
        ]
        for m in d.modifiers:
            head[0].append(
                HeadCell(
                    self.w("with_mod", label=self.label(m.info, m.id), value=self.signed(m.value))
                )
            )
        notes: list[tuple[str, str]] = []
        rows = []
        for r in d.rows:
            if r.low is None:
                span = f"{r.high}-"
            elif r.high is None:
                span = f"{r.low}+"
            elif r.low == r.high:
                span = str(r.low)
            else:
                span = f"{r.low}-{r.high}"
            marks = []
            for note in self.note_texts(r.info):
                marks.append(self.add_note(notes, note))
            effects = self.effects(r.effects)
            effects.changed = self.changed(f"{d.id}.{r.id}")
            row = [
                CellView(span, ("label", "roll")),
                CellView(
                    self.label(r.info, r.id),
                    (),
                    tuple(marks),
                    self.added(f"{d.id}.{r.id}"),
                    self.source(r.info, detail=False),
                ),
                effects,
                CellView(self.chance(dice, r.low, r.high, 0, fraction=True), ("chance",)),
            ]
            for m in d.modifiers:
                row.append(CellView(self.chance(dice, r.low, r.high, m.value), ("chance",)))
            rows.append(row)
        return Block(
            d.id,
            title,
            TableView(head, rows, [h.text for h in head[0]]),
            notes=notes,
            after=self.note_texts(d.info),
            source=self.source(d.info),
            changed=self.added(d.id),
            kind="dice",
        )

    def chance(
        self, dice: Roll, low: int | None, high: int | None, shift: int, fraction: bool = False
    ) -> str:
        """The chance that the roll plus ``shift`` falls in ``low``..``high``."""
        lo = dice.minimum if low is None else low - shift
        hi = None if high is None else high - shift
        p = chance_between(dice, lo, hi)
        if not fraction:
            return self.c.percent(p)
        ways = p * dice.outcomes
        assert ways.denominator == 1
        return f"{ways.numerator}/{dice.outcomes} · {self.c.percent(p)}"

    # ---- triggers, exclusions, grids, params ---------------------------------------------------

    def triggers(self) -> list[Block]:
        if not self.rs.triggers:
            return []
        both: list[ir.DiceTable | ir.ResultsTable] = [*self.rs.dice_tables, *self.rs.results_tables]
        tables = {d.id: d for d in both}
        lines = []
        for t in self.rs.triggers:
            parts = []
            if t.check is not None and t.at_least is not None:
                dice = semantics.roll_of(t.check)
                parts.append(
                    self.w(
                        "check",
                        dice=self.dice_text(dice),
                        at=self.num(t.at_least),
                        chance=self.c.percent(chance_at_least(dice, t.at_least)),
                    )
                )
            table = tables.get(t.table)
            action = self.w("roll_on", table=self.label(table.info if table else None, t.table))
            for named in (t.modifier, *t.more_modifiers):
                mod = next((m for m in table.modifiers if m.id == named), None) if table else None
                if mod is not None:
                    action += ", " + self.w(
                        "with_mod", label=self.label(mod.info, mod.id), value=self.signed(mod.value)
                    )
            if t.times != 1:
                action += ", " + self.c.plural("times", t.times)
            parts.append(action)
            src = self.source(t.info)
            line = self.w("label_colon", label=self.label(t.info, t.id), text=" → ".join(parts))
            notes = " ".join(self.note_texts(t.info))
            line += f". {notes}" if notes else ""
            lines.append(line + (f" [{src}]" if src else ""))
        return [Block("triggers", "", lines=lines, kind="text")]

    def exclusions(self) -> list[Block]:
        lines = []
        for e in self.rs.exclusions:
            others = ", ".join(self.name(o) for o in e.others)
            line = self.w(
                "label_colon", label=self.name(e.subject), text=self.w("excludes", others=others)
            )
            notes = self.note_texts(e.info)
            if notes:
                line += ". " + " ".join(notes)
            src = self.source(e.info)
            lines.append(line + (f" [{src}]" if src else ""))
        return [Block("exclusions", "", lines=lines, kind="text")] if lines else []

    def grid(self, g: ir.Grid) -> Block:
        return self.square_grid(g) if semantics.has_diagonals(g) else self.shaped_grid(g)

    def shaped_grid(self, g: ir.Grid) -> Block:
        """A hex grid, or a square grid with no diagonals (maps, issue 11): its size and its
        neighbourhood in words."""
        title = self.label(g.info, g.id)
        size = " = ".join(self.number(n) for n in g.size)
        return Block(
            g.id,
            title,
            lines=[f"{size}.", self.w(_grid_word(g.shape))],
            after=self.note_texts(g.info),
            source=self.source(g.info),
            kind="grid",
        )

    def square_grid(self, g: ir.Grid) -> Block:
        title = self.label(g.info, g.id)
        size = " = ".join(self.number(n) for n in g.size)
        # The path is measured in the first unit that is not the map cell itself.
        measured = [n for n in g.size if n.unit not in MAP_CELLS]
        first = (measured or list(g.size) or [ir.Number(1)])[0]
        cycle = list(g.diagonals) or [1]
        count = max(4, 2 * len(cycle))
        steps = [cycle[i % len(cycle)] * first.value for i in range(count)]
        labels = [self.num(s) for s in steps]
        lengths = ", ".join(
            self.unit_text(self.num(cycle[i % len(cycle)] * first.value), first.unit)
            for i in range(len(cycle) * 2)
        )
        total = " + ".join(labels) + " = " + self.unit_text(self.num(sum(steps)), first.unit)
        cell_given = any(n.unit in MAP_CELLS for n in g.size)
        lines = [
            f"{size}." if cell_given else f"{self.w('square')} = {size}.",
            self.w("diagonals", cycle=", ".join(self.num(c) for c in cycle), lengths=lengths),
        ]
        diagram = svg.grid_diagonals(labels, total, title)
        return Block(
            g.id,
            title,
            lines=lines,
            after=self.note_texts(g.info),
            svg=diagram,
            text_alt=[total],
            source=self.source(g.info),
            kind="grid",
        )

    def params(self) -> list[Block]:
        if not self.rs.params:
            return []
        head = [[HeadCell(""), HeadCell(self.w("unit")), HeadCell(self.w("value"))]]
        rows = []
        for p in self.rs.params:
            if p.value is None:
                value = CellView(f"□{self.param_refs[p.id]}", ("blank",))
            else:
                value = self.value(p.value)
                if isinstance(p.value, ir.Number) and p.value.unit is None:
                    value = CellView(self.text(p.value))
            value.changed = self.changed(p.id)
            rows.append(
                [
                    CellView(
                        self.label(p.info, p.id),
                        ("label",),
                        (),
                        False,
                        self.source(p.info, detail=False),
                    ),
                    CellView(self.c.unit(p.unit)),
                    value,
                ]
            )
        return [
            Block(
                "params",
                "",
                TableView(head, rows, [h.text for h in head[0]]),
                after=[self.w("fill_legend")]
                if any(p.value is None for p in self.rs.params)
                else [],
            )
        ]

    def changelog(self) -> list[Block]:
        """The variant's changes in the sheet's language: what (by its labels), old -> new."""
        lines = []
        for c in self.rs.changes:
            notes = " ".join(self.note_texts(c.info))
            what = " › ".join(  # noqa: RUF001
                self.label(ir.Info(labels), "") for labels in c.subject
            ) or path_text(c.path)
            values = [self.cell_text(v) for v in (c.was, c.now) if v is not None]
            if c.was is not None and c.now is not None:
                what = self.w(
                    "label_colon", label=what, text=self.w("was_now", was=values[0], now=values[1])
                )
            elif values:
                what = self.w("label_colon", label=what, text=values[0])
            line = self.w("changelog_line", action=self.w(c.action), what=what) + (
                f". {notes}" if notes else ""
            )
            src = self.source(c.info)
            lines.append(line + (f" [{src}]" if src else ""))
        return [Block("changes", "", lines=lines, kind="text")] if lines else []

    def cell_text(self, cell: ir.Cell) -> str:
        """A whole cell in one line: the value for everyone, then the exceptions; a name
        (what a trigger rolls with) by its label."""
        dice_mods = {m.id: m.info for d in self.rs.dice_tables for m in d.modifiers}
        if isinstance(cell.default, ir.Symbol) and (
            cell.default.name in self.names or cell.default.name in dice_mods
        ):
            name = cell.default.name
            return self.label(self.names.get(name) or dice_mods[name], name)
        if (
            cell.default is None
            and cell.exceptions
            and not any(k in self.names for k in cell.exceptions)
        ):
            return self.effects(cell.exceptions).text  # a dice row's effects
        parts = [self.text(cell.default)] if cell.default is not None else []
        parts += [
            f"{self.name(k)} {self.text(v)}"
            if not isinstance(v, ir.Flag) or not v.value
            else self.name(k)
            for k, v in cell.exceptions.items()
        ]
        return ", ".join(parts)

    def sources(self) -> list[Block]:
        lines = [
            self.w("label_colon", label=b.id, text=self.label(b.info, b.id))
            for b in self.rs.books
            if b.id in self.used_books
        ]
        return [Block("sources", "", lines=lines, kind="sources")] if lines else []

    # ---- line of sight and results tables (issue 11, items 9 and 10) -------------------------

    def sight_blocks(self) -> list[Block]:
        """Per sight rule: a sentence saying which places count and what blocks the line,
        then the value of each feature that has one (a table of two columns)."""
        blocks = []
        for rule in self.rs.sights:
            parts = [self.w(f"sight_counts_{rule.counts}")]
            if rule.blocks_at is not None:
                parts.append(self.w("sight_blocks_at", total=self.num(rule.blocks_at)))
            else:
                parts.append(self.w("sight_adds_up"))
            own = [f.cells[rule.id].default for f in self.rs.features if rule.id in f.cells]
            if ir.Marker("blocked") in own:
                parts.append(self.w("sight_blocked_place", sign=marker_sign("blocked")))
            if rule.crossed is not None:
                parts.append(self.w("sight_crossed", unit=self.c.unit(rule.crossed)))
            text = self.w("clause_join").join(parts)  # the block's title names the rule
            line = text[:1].upper() + text[1:]
            label = self.label(rule.info, rule.id)
            rows = []
            for f in self.rs.features:
                cell = f.cells.get(rule.id)
                if cell is None or cell.default is None:
                    continue
                value = (
                    CellView(self.name(cell.default.step))  # the scale, printed beside
                    if isinstance(cell.default, ir.StepCost)
                    else self.value(cell.default)
                )
                value.changed = self.changed(f"{f.id}.{rule.id}")
                name = CellView(self.label(f.info, f.id), ("label",))
                name.changed = self.added(f.id)
                rows.append([name, value])
            head = [[HeadCell(self.w("sight_feature")), HeadCell(label)]]
            blocks.append(
                Block(
                    rule.id,
                    label,
                    TableView(head, rows, [self.w("sight_feature"), label], fold=len(rows) > 8)
                    if rows
                    else None,
                    lines=[line + "."],
                    after=self.note_texts(rule.info),
                    source=self.source(rule.info),
                    changed=self.added(rule.id),
                )
            )
        return blocks

    @staticmethod
    def span_text(low: int | None, high: int | None) -> str:
        if low is None:
            return f"{high}-"
        if high is None:
            return f"{low}+"
        return str(low) if low == high else f"{low}-{high}"

    def results_block(self, t: ir.ResultsTable) -> Block:
        """A results table as a grid: the roll, then one column per column of the table."""
        dice = semantics.roll_of(t.dice)
        title = f"{self.label(t.info, t.id)} ({self.dice_text(dice)})"
        by = self.input_name(t.by)
        head_top = [HeadCell(self.w("roll"), rowspan=2)]
        head_top.append(HeadCell(self.w("results_by", input=by), colspan=len(t.columns)))
        head_sub = []
        flat = [self.w("roll")]
        for c in t.columns:
            bound = self.w(_column_word(c.bound), value=self.num(c.value))
            text = f"{self.label(c.info, c.id)} ({bound})"
            head_sub.append(HeadCell(text))
            flat.append(text)
        outcomes = {o.id: o for o in t.outcomes}
        notes: list[tuple[str, str]] = []
        rows = []
        for r in t.rows:
            marks = tuple(self.add_note(notes, n) for n in self.note_texts(r.info))
            row = [CellView(self.span_text(r.low, r.high), ("label", "roll"), marks)]
            for i, _ in enumerate(t.columns):
                outcome = r.outcomes[i] if i < len(r.outcomes) else ""
                cell = CellView(
                    self.label(outcomes[outcome].info, outcome) if outcome in outcomes else ""
                )
                cell.changed = self.changed(f"{t.id}.{self.span_text(r.low, r.high)}")
                row.append(cell)
            rows.append(row)
        after = [
            self.w(
                "natural_rule",
                roll=self.num(n.roll),
                outcome=self.label(
                    outcomes[n.outcome].info if n.outcome in outcomes else None, n.outcome
                ),
            )
            + "".join(f" {text}" for text in self.note_texts(n.info))
            for n in t.naturals
        ]
        for m in t.modifiers:
            after.append(
                self.w("with_mod", label=self.label(m.info, m.id), value=self.signed(m.value))
            )
        return Block(
            t.id,
            title,
            TableView([head_top, head_sub], rows, flat, col_groups=[0] * len(t.columns)),
            notes=notes,
            after=after + self.note_texts(t.info),
            source=self.source(t.info),
            changed=self.added(t.id),
            kind="dice",
        )


def _grid_word(shape: ir.GridShape) -> str:
    match shape:
        case "hex":
            return "grid_hex"
        case "square":
            return "grid_square"
        case _:
            assert_never(shape)


def _column_word(bound: ir.ColumnBound) -> str:
    match bound:
        case "up_to":
            return "column_up_to"
        case "above":
            return "column_above"
        case _:
            assert_never(bound)
