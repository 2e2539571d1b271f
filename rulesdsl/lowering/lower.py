"""Lower merged syntax into the IR, checking names, kinds and units on the way.

Input: the statements of one ruleset, already merged with its bases by
:mod:`rulesdsl.variants.resolve`.
Output: an :class:`rulesdsl.ir.Ruleset`, or None, and every diagnostic found. Checks that need
a whole table (dice coverage, divisors) live in :mod:`rulesdsl.check` and are called from here,
where the positions still are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar, assert_never

from rulesdsl import ir, semantics, words
from rulesdsl.diagnostics import Diagnostic, did_you_mean, error
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering import keywords, maps
from rulesdsl.lowering import sight as sight_lowering
from rulesdsl.lowering.decisions import DecisionLowering
from rulesdsl.lowering.symbols import SymbolTable
from rulesdsl.positions import Positions, item_field
from rulesdsl.units import DIMENSIONS, ROLES
from rulesdsl.variants.lineage import Lineage

"""The pseudo-unit of a decision input that names a key of a plain table."""

_T = TypeVar("_T")
COST = "cost"
MODE_CONTEXT = "mode"
"""`modifier X by mode`: values keyed by the ruleset's modes (and groups, expanded to their
members), unless the ruleset declares a context of that name itself."""
_ZERO = ir.Number(0)
_FLAGS = {"yes": True, "no": False}


@dataclass
class _Header:
    item: s.Item | None = None
    version: str = "0.0.0"
    languages: tuple[str, ...] = ("en",)
    units: dict[str, str] = field(default_factory=dict)
    entry_cost: float = 0
    minimum: ir.Number | None = None


@dataclass
class Lowered:
    """What lowering gives: the IR (None only when the file declares no ruleset), where each
    of its nodes was written, and what lowering found wrong (its IR is then best effort, for
    the checks to look at, never for a backend)."""

    ruleset: ir.Ruleset | None
    positions: Positions
    diagnostics: list[Diagnostic]


def lower(statements: Sequence[s.Statement], lineage: Lineage, fallback_pos: s.Pos) -> Lowered:
    """The IR of a merged ruleset, its positions and every diagnostic of lowering."""
    lowerer = _Lowerer(statements, fallback_pos)
    ruleset = lowerer.run(lineage)
    return Lowered(ruleset, lowerer.where, lowerer.diags + lowerer.symbols.diagnostics)


class _Lowerer:
    def __init__(self, statements: Sequence[s.Statement], fallback_pos: s.Pos) -> None:
        self.statements = statements
        self.fallback_pos = fallback_pos
        self.where = Positions(fallback_pos)
        self.diags: list[Diagnostic] = []
        self.symbols = SymbolTable()
        self.header = _Header()
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
        self.sights: list[ir.Sight] = []
        self.builtin_mode = False
        self.precedence: list[list[str]] = []
        self.precedence_names: list[list[s.Name]] = []
        self.modifier_context2: dict[str, str | None] = {}
        self.modifier_pairs: dict[str, dict[str, tuple[ir.PairValue, ...]]] = {}
        self._group_members: dict[str, list[s.Name]] = {}

    def at(self, node: _T, pos: s.Pos) -> _T:
        """``node``, with where it was written recorded for the checks."""
        self.where.record(node, pos)
        return node

    def err(self, code: str, message: str, pos: s.Pos | None, hint: str | None = None) -> None:
        self.diags.append(error(code, message, pos, hint))

    # ---- driver ---------------------------------------------------------------------------

    def run(self, lineage: Lineage) -> ir.Ruleset | None:
        self._header()
        self._declare_all()
        of = self._of
        books = [
            self.at(ir.Book(d.item.name.text, self.info(d.item)), d.item.name.pos)
            for d in of(s.BookDecl)
        ]
        modes = [self._mode(d) for d in of(s.ModeDecl)]
        self.modes = [m.id for m in modes]
        self._group_members = keywords.members_with_keywords(of(s.GroupDecl), of(s.ModeDecl))
        groups = [self._group(d) for d in of(s.GroupDecl)]
        self.group_list = groups
        self._precedence(of(s.PrecedenceDecl))
        keywords.stray_pairs(self.statements, self.err)
        contexts = [self._context(d) for d in of(s.ContextDecl)]
        if MODE_CONTEXT not in self.context_values:
            self.builtin_mode = True
            self.context_values[MODE_CONTEXT] = (*self.modes, *self.groups)
        params = [self._param(d) for d in of(s.ParamDecl)]
        self.params = {p.id: p for p in params}
        for d in of(s.ModifierDecl):
            self.modifier_context[d.item.name.text] = d.context.text if d.context else None
            self.modifier_context2[d.item.name.text] = d.context2.text if d.context2 else None
            self.modifier_values[d.item.name.text] = {}
        self.sights = [sight_lowering.sight(self, d) for d in of(s.SightDecl)]
        layers, features = self._layers(of(s.LayerDecl))
        self.diags += maps.misuse(self.statements)
        modifiers = [self._modifier(d) for d in of(s.ModifierDecl)]
        if self.builtin_mode and any(MODE_CONTEXT in (m.context, m.context2) for m in modifiers):
            contexts.append(
                ir.Context(
                    MODE_CONTEXT,
                    ir.Info(),
                    tuple(ir.ContextValue(m.id, m.info) for m in modes),
                    of_modes=True,
                )
            )
        steps = [self._step(d) for d in of(s.StepDecl)]
        tables = [self._table(d) for d in of(s.TableDecl)]
        self.tables = {t.id: t for t in tables}
        decisions = [self._decision(d) for d in of(s.DecisionDecl)]
        dice_tables = [self._dice(d) for d in of(s.DiceDecl) if d.results is None]
        results_tables = [
            sight_lowering.results_table(self, d) for d in of(s.DiceDecl) if d.results is not None
        ]
        triggers = [self._trigger(d, dice_tables, results_tables) for d in of(s.TriggerDecl)]
        exclusions = [self._exclusion(d) for d in of(s.ExcludeDecl)]
        grids = [self._grid(d) for d in of(s.GridDecl)]
        item = self.header.item
        if item is None:
            return None
        ruleset = self.at(
            ir.Ruleset(
                id=item.name.text,
                info=self.info(item),
                version=self.header.version,
                digest=lineage.digest,
                languages=self.header.languages,
                units=self.header.units,
                entry_cost=self.header.entry_cost,
                minimum_move=self.header.minimum,
                extends=lineage.extends,
                changes=lineage.changes,
                books=tuple(books),
                modes=tuple(modes),
                groups=tuple(groups),
                contexts=tuple(contexts),
                layers=tuple(layers),
                features=tuple(features),
                modifiers=tuple(modifiers),
                steps=tuple(steps),
                decisions=tuple(decisions),
                tables=tuple(tables),
                dice_tables=tuple(dice_tables),
                triggers=tuple(triggers),
                exclusions=tuple(exclusions),
                grids=tuple(grids),
                params=tuple(params),
                precedence=tuple(
                    self._precedence_line(line, decl)
                    for line, decl in zip(self.precedence_names, of(s.PrecedenceDecl), strict=True)
                ),
                sights=tuple(self.sights),
                results_tables=tuple(results_tables),
            ),
            item.name.pos,
        )
        for slot, decls in (
            ("version", self._of(s.VersionDecl)),
            ("languages", self._of(s.LanguagesDecl)),
        ):
            if decls:
                self.where.record(ruleset, decls[-1].pos, slot)
        for stacking in self._of(s.StackingDecl):
            if stacking.entry is not None:
                self.where.record(ruleset, stacking.entry.pos, "entry_cost")
        return ruleset

    def _of(self, kind: type[_T]) -> list[_T]:
        return [st for st in self.statements if isinstance(st, kind)]

    # ---- header ---------------------------------------------------------------------------

    def _header(self) -> None:
        h = self.header
        rulesets = self._of(s.RulesetDecl)
        if not rulesets:
            self.err(
                "E110",
                "the file declares no ruleset",
                self.fallback_pos,
                'start the file with `ruleset <id> "Title"`',
            )
        else:
            h.item = rulesets[0].item
            for extra in rulesets[1:]:
                self.err(
                    "E110",
                    "a file declares one ruleset",
                    extra.item.name.pos,
                    "split the second ruleset into a file of its own",
                )
        versions = self._of(s.VersionDecl)
        if not versions:
            self.err(
                "E110",
                "the ruleset has no version",
                self.fallback_pos,
                "add a line such as `version 1.0.0`",
            )
        else:
            h.version = versions[-1].version
        for decl in self._of(s.LanguagesDecl)[-1:]:
            langs = [n.text for n in decl.languages]
            for n in decl.languages:
                if not re.fullmatch(r"[a-z]{2,3}", n.text):
                    self.err(
                        "E105",
                        f"'{n.text}' is not a language code",
                        n.pos,
                        "use ISO 639-1 codes such as en, fr, ru",
                    )
            h.languages = tuple(dict.fromkeys(langs))
        for units in self._of(s.UnitsDecl):
            for role, unit in units.bindings:
                if role.text not in ROLES:
                    self.err(
                        "E101",
                        f"unknown unit role '{role.text}'",
                        role.pos,
                        did_you_mean(role.text, ROLES),
                    )
                elif self._unit(unit, _role_dimension(role.text, unit.text)):
                    h.units[role.text] = unit.text
        for stacking in self._of(s.StackingDecl):
            if stacking.policy.text != "sum":
                self.err(
                    "E101",
                    f"unknown stacking policy '{stacking.policy.text}'",
                    stacking.policy.pos,
                    did_you_mean(stacking.policy.text, ["sum"]),
                )
            if stacking.entry is not None:
                number = self._number(stacking.entry, _role_dimension("cost", h.units.get("cost")))
                h.entry_cost = number.value if number else 0
        for minimum in self._of(s.MinimumDecl):
            h.minimum = self._number(minimum.amount, "length")

    def _unit(self, unit: s.Name, dimension: str | None) -> bool:
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

    # ---- declarations ---------------------------------------------------------------------

    def _declare_all(self) -> None:
        sym = self.symbols
        for st in self.statements:
            match st:
                case s.BookDecl(item=item):
                    sym.declare(item.name, "book")
                case s.ModeDecl(item=item):
                    sym.declare(item.name, "mode")
                case s.GroupDecl(item=item):
                    sym.declare(item.name, "group")
                case s.ContextDecl(item=item, values=values):
                    sym.declare(item.name, "context")
                    for v in values:
                        sym.declare(v.name, "context value", item.name.text)
                case s.LayerDecl(item=item, rows=rows):
                    sym.declare(item.name, "layer")
                    for row in rows:
                        sym.declare(row.item.name, "feature", item.name.text)
                case s.ModifierDecl(item=item, rows=rows):
                    sym.declare(item.name, "modifier")
                    for row in rows:
                        sym.declare(row.item.name, "factor", item.name.text)
                case s.StepDecl(item=item):
                    sym.declare(item.name, "step")
                case s.DecisionDecl(item=item):
                    sym.declare(item.name, "decision")
                case s.TableDecl(item=item):
                    sym.declare(item.name, "table")
                case s.DiceDecl(item=item, modifiers=mods):
                    sym.declare(item.name, "dice table")
                    for mod in mods:
                        sym.declare(mod.item.name, "dice modifier", item.name.text)
                case s.TriggerDecl(item=item):
                    sym.declare(item.name, "trigger")
                case s.SightDecl(item=item):
                    sym.declare(item.name, "sight")
                case s.GridDecl(item=item):
                    sym.declare(item.name, "grid")
                case s.ParamDecl(item=item):
                    sym.declare(item.name, "param")
                case s.OverrideDecl(pos=pos) | s.RemoveDecl(pos=pos) | s.InsertDecl(pos=pos):
                    self.err(
                        "E506",
                        "`override`, `insert` and `remove` need `extends`",
                        pos,
                        "add `extends <base>@<version>` to the file",
                    )
                case _:
                    pass

    def info(self, item: s.Item) -> ir.Info:
        return self._info(self.labels(item.labels), item.extras)  # W101 is a check

    def _info(self, labels: dict[str, str], extras: s.Extras) -> ir.Info:
        source = None
        if extras.source is not None:
            ref = extras.source
            self.symbols.require(ref.book, ("book",), "book")
            source = ir.Source(ref.book.text, ref.page, ref.detail)
        notes = tuple(self.labels(n) for n in extras.notes)
        return ir.Info(labels, notes, source)

    def labels(self, labels: Iterable[s.Label]) -> dict[str, str]:
        out: dict[str, str] = {}
        for label in labels:
            lang = label.lang or self.header.languages[0]
            if lang not in self.header.languages:
                self.err(
                    "E105",
                    f"'{lang}' is not one of the ruleset's languages",
                    label.pos,
                    "declared: " + " ".join(self.header.languages),
                )
                continue
            out[lang] = label.text
        return out

    def _mode(self, decl: s.ModeDecl) -> ir.Mode:
        kws = tuple(k.text for k in decl.keywords if self.symbols.require(k, ("group",), "group"))
        return self.at(ir.Mode(decl.item.name.text, self.info(decl.item), kws), decl.item.name.pos)

    def _precedence(self, decls: list[s.PrecedenceDecl]) -> None:
        for decl in decls:
            line = [g for g in decl.groups if self.symbols.require(g, ("group",), "group")]
            self.precedence.append([g.text for g in line])
            self.precedence_names.append(line)

    def _precedence_line(self, line: list[s.Name], decl: s.PrecedenceDecl) -> ir.Precedence:
        """A ``precedence`` line, with where each of its groups was written (for E235)."""
        node = ir.Precedence(tuple(g.text for g in line), self._info({}, decl.extras))
        for i, name in enumerate(line):
            self.where.record(node, name.pos, item_field("groups", i))
        return node

    def _group(self, decl: s.GroupDecl) -> ir.Group:
        members = []
        for name in self._group_members.get(decl.item.name.text, decl.members):
            if self.symbols.require(name, ("mode",), "mode"):
                members.append(name.text)
        self.groups[decl.item.name.text] = tuple(members)
        return self.at(
            ir.Group(decl.item.name.text, self.info(decl.item), tuple(members)), decl.item.name.pos
        )

    def _context(self, decl: s.ContextDecl) -> ir.Context:
        values = tuple(
            self.at(ir.ContextValue(v.name.text, self.info(v)), v.name.pos) for v in decl.values
        )
        self.context_values[decl.item.name.text] = tuple(v.id for v in values)
        return self.at(
            ir.Context(decl.item.name.text, self.info(decl.item), values), decl.item.name.pos
        )

    def _param(self, decl: s.ParamDecl) -> ir.ScenarioParam:
        self._unit(decl.unit, None)
        value = None
        if decl.value is not None:
            value = self._number(decl.value, DIMENSIONS.get(decl.unit.text))
        return self.at(
            ir.ScenarioParam(decl.item.name.text, self.info(decl.item), decl.unit.text, value),
            decl.item.name.pos,
        )

    # ---- values ---------------------------------------------------------------------------

    def _number(self, loc: s.Located, dimension: str | None) -> ir.Number | None:
        value = loc.value
        if not isinstance(value, ir.Number):
            self.err("E201", f"expected a number here, found {_describe(value)}", loc.pos)
            return None
        self.where.record(value, loc.pos)
        if value.unit is not None:
            self._unit(s.Name(value.unit, loc.pos), dimension)
        return value

    def value(
        self, loc: s.Located, allowed: tuple[words.ValueKind, ...], where: str
    ) -> ir.Value | None:
        """Check a cell value's kind and units; words become flags or symbols."""
        value = loc.value
        if isinstance(value, s.Word):
            word = value.name.text
            if word in _FLAGS:
                value = ir.Flag(_FLAGS[word])
            elif word == "given" and "given" in allowed:
                value = ir.Given()
            else:
                value = ir.Symbol(word)
        kind = "same" if isinstance(value, s.SameAs) else words.value_kind(value)
        if kind not in allowed:
            self.err(
                "E201",
                f"{_describe(loc.value)} cannot stand in {where}",
                loc.pos,
                "expected " + " or ".join(words.kind_words(a) for a in allowed),
            )
            return None
        if isinstance(value, s.SameAs):
            return None  # resolved by the caller, which knows the mode
        self.where.record(value, loc.pos)
        self._check_units(value, loc.pos)
        return value

    def _check_units(self, value: ir.Value, pos: s.Pos) -> None:
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
                    self._unit(s.Name(u, pos), None)
            case _:
                pass
        for n in numbers:
            if n.unit is not None:
                self._unit(s.Name(n.unit, pos), None)

    # ---- layers and features --------------------------------------------------------------

    def _layers(self, decls: list[s.LayerDecl]) -> tuple[list[ir.Layer], list[ir.Feature]]:
        layers: list[ir.Layer] = []
        rows: list[tuple[s.LayerDecl, s.RowNode, tuple[str, ...]]] = []
        for decl in decls:
            columns = tuple(n.text for n in decl.columns) if decl.columns else (COST,)
            for name in decl.columns or ():
                if name.text != COST:
                    self.symbols.require(name, ("modifier", "sight"), "modifier column")
            layers.append(
                self.at(
                    ir.Layer(
                        decl.item.name.text,
                        self.info(decl.item),
                        decl.scope,
                        columns,
                        tuple(r.item.name.text for r in decl.rows),
                    ),
                    decl.item.name.pos,
                )
            )
            for row in decl.rows:
                self._check_width(row, len(columns))
                rows.append((decl, row, columns))
                written = dict(zip(columns, row.cells, strict=False))
                if COST in written:
                    self.raw_costs[row.item.name.text] = self._cost_cell(written[COST])
                    self.cost_pos[row.item.name.text] = written[COST].pos
                    self._check_cost_keywords(row.item.name.text, written[COST].pos)
        features = []
        for decl, row, columns in rows:
            cells: dict[str, ir.Cell] = {}
            fid = row.item.name.text
            for column, cell in zip(columns, row.cells, strict=False):
                if column == COST:
                    cells[COST] = self._resolve_same_cell(fid, self.raw_costs[fid])
                    continue
                match self.symbols.kind_of(column):
                    case "modifier":
                        cells[column] = self._modifier_cell(column, cell)
                        self._keyed_values(column, fid, cells[column], cell.pos)
                    case "sight":
                        cells[column] = sight_lowering.sight_cell(self, column, cell)
                    case (
                        None
                        | "book"
                        | "mode"
                        | "group"
                        | "context"
                        | "context value"
                        | "layer"
                        | "feature"
                        | "factor"
                        | "step"
                        | "decision"
                        | "table"
                        | "dice table"
                        | "dice modifier"
                        | "trigger"
                        | "grid"
                        | "param"
                    ):
                        pass  # an unknown column, already reported
                    case unknown:
                        assert_never(unknown)
            costs = {mode: self._cost_for(fid, mode, ()) for mode in self.modes}
            states, along = self._map_states(fid)
            features.append(
                self.at(
                    ir.Feature(
                        fid,
                        decl.item.name.text,
                        self.info(row.item),
                        cells,
                        costs,
                        row.item.extras.ignores_others,
                        states,
                        along,
                    ),
                    row.item.name.pos,
                )
            )
        return layers, features

    def _check_width(self, row: s.RowNode, width: int) -> None:
        if len(row.cells) > width:
            extra = row.cells[width]
            self.err(
                "E204",
                f"'{row.item.name.text}' has {len(row.cells)} cells, the columns are {width}",
                extra.pos if extra.entries else row.item.name.pos,
                "declare the extra column with `columns ...` or remove the cell",
            )

    def _cost_cell(self, cell: s.CellNode) -> ir.Cell:
        allowed: tuple[words.ValueKind, ...] = (
            "number",
            "rate",
            "param_rate",
            "impassable",
            "prohibited",
            "same",
            *words.ONCE_KINDS,
        )
        default: ir.Value | None = None
        exceptions: dict[str, ir.Value] = {}
        states: dict[str, ir.PlaceState] = {}
        along: dict[str, ir.Value] = {}
        for entry in cell.entries:
            if entry.key2 is not None and entry.key is not None:
                self.err(
                    "E234",
                    f"a combination '{entry.key.text} & {entry.key2.text}' is only for a "
                    "modifier keyed by two contexts",
                    entry.key.pos,
                    "a cost is keyed by one mode or group: `<mode> <value>`",
                )
                continue
            if (entry.along or entry.state is not None) and not self._map_entry(
                entry, states, along
            ):
                continue
            value = self.value(entry.value, allowed, "a movement cost")
            if isinstance(value, ir.StepCost) and not self.symbols.require(
                s.Name(value.step, entry.value.pos), ("step",), "step"
            ):
                value = None
            if isinstance(entry.value.value, s.SameAs):
                target = entry.value.value.target
                if self.symbols.require(target, ("feature",), "feature"):
                    value = ir.Same(target.text, _ZERO)
            if value is None:
                continue
            if entry.key is None:
                if default is not None:
                    self.err(
                        "E102",
                        "a cell has one value for every mode",
                        entry.value.pos,
                        "name the mode this value is for: `<mode> <value>`",
                    )
                default = value
            elif self.symbols.require(entry.key, ("mode", "group"), "mode or group"):
                if entry.key.text in exceptions:
                    self.err(
                        "E102", f"'{entry.key.text}' is given twice in this cell", entry.key.pos
                    )
                exceptions[entry.key.text] = value
        if states or along:
            return ir.Cell(default, exceptions, states=states, along=along)
        return ir.Cell(default, exceptions)

    # ---- maps (issue 11): place states and `along` entries ------------------------------------

    def _map_entry(
        self, entry: s.Entry, states: dict[str, ir.PlaceState], along: dict[str, ir.Value]
    ) -> bool:
        """Record an entry's place state or `along` value; False when it is to be skipped."""
        key = "" if entry.key is None else entry.key.text
        if entry.key is not None and not self.symbols.require(
            entry.key, ("mode", "group"), "mode or group"
        ):
            return False
        if entry.along:
            value = self.value(entry.value, ("number",), "an along cost")
            if value is None:
                return False
            if key in along:
                self.err(
                    "E102", "this cell gives `along` twice for the same units", entry.value.pos
                )
            along[key] = value
            return False
        if entry.state is not None:
            states[key] = entry.state.state
        return True

    def _map_states(self, fid: str) -> tuple[dict[str, ir.PlaceState], dict[str, float]]:
        """Each mode's place state and `along` cost for feature ``fid``, resolved like costs."""
        cell = self.raw_costs.get(fid)
        if cell is None:
            return {}, {}
        states: dict[str, ir.PlaceState] = {}
        along: dict[str, float] = {}
        for mode in self.modes:
            state = semantics.written_state(cell, mode, self.group_list, self.precedence)
            if state is not None:
                states[mode] = state
            amount = semantics.written_along(cell, mode, self.group_list, self.precedence)
            if amount is not None:
                along[mode] = amount
        return states, along

    def _raw_for(self, fid: str, mode: str) -> ir.Value:
        cell = self.raw_costs.get(fid)
        if cell is None:
            return _ZERO
        value = semantics.written_cost(cell, mode, self.group_list, self.precedence)
        return _ZERO if value is None else value

    def _cost_for(self, fid: str, mode: str, seen: tuple[str, ...]) -> ir.Value:
        value = self._raw_for(fid, mode)
        if isinstance(value, ir.Same):
            if value.feature in seen:
                self.err(
                    "E205",
                    f"'{fid}' is defined through itself: "
                    + " -> ".join((*seen, fid, value.feature)),
                    self.cost_pos.get(fid),
                    "one feature in the cycle needs a value of its own",
                )
                return _ZERO
            resolved = self._cost_for(value.feature, mode, (*seen, fid))
            return resolved.resolved if isinstance(resolved, ir.Same) else resolved
        return value

    def _resolve_same_cell(self, fid: str, cell: ir.Cell) -> ir.Cell:
        """Fill in what each `as X` stands for; for a default, as X's own default."""

        def fill(value: ir.Value | None, mode: str | None) -> ir.Value | None:
            if not isinstance(value, ir.Same):
                return value
            if mode is None:
                target = self.raw_costs.get(value.feature)
                resolved = target.default if target and target.default else _ZERO
                if isinstance(resolved, ir.Same):
                    resolved = _ZERO
            else:
                resolved = self._cost_for(value.feature, mode, (fid,))
            return ir.Same(value.feature, resolved)

        exceptions = {
            k: fill(v, k if k in self.modes else None) for k, v in cell.exceptions.items()
        }
        return ir.Cell(
            fill(cell.default, None),
            {k: v for k, v in exceptions.items() if v is not None},
            cell.pairs,
            cell.states,
            cell.along,
        )

    # ---- modifiers ------------------------------------------------------------------------

    def _modifier_cell(self, modifier: str, cell: s.CellNode) -> ir.Cell:
        if self.modifier_context2.get(modifier):
            return self._modifier_cell2(modifier, cell)
        context = self.modifier_context.get(modifier)
        keys = self.context_values.get(context, ()) if context else ()
        default: ir.Value | None = None
        exceptions: dict[str, ir.Value] = {}
        for entry in cell.entries:
            if entry.key2 is not None and entry.key is not None:
                self.err(
                    "E234",
                    f"a combination '{entry.key.text} & {entry.key2.text}' is only for a "
                    "modifier keyed by two contexts",
                    entry.key.pos,
                    f"declare it with `modifier {modifier} by <context>, <context>`",
                )
                continue
            value = self.value(
                entry.value, ("number", "blocked", "given"), f"the {modifier} modifier"
            )
            if value is None:
                continue
            if entry.key is None:
                default = value
            elif entry.key.text not in keys:
                what = f"value of context '{context}'" if context else "context value"
                hint = (
                    did_you_mean(entry.key.text, keys)
                    if context
                    else "declare the modifier with `by <context>` to key values by context"
                )
                self.err("E101", f"unknown {what} '{entry.key.text}'", entry.key.pos, hint)
            else:
                exceptions[entry.key.text] = value
        return ir.Cell(default, exceptions)

    def _modifier_cell2(self, modifier: str, cell: s.CellNode) -> ir.Cell:
        """A cell of a modifier keyed by two contexts: single values of either, combinations
        ``a & b`` (written in either order, kept first-context first)."""
        first = self.modifier_context[modifier] or ""
        second = self.modifier_context2[modifier] or ""
        keys1 = self.context_values.get(first, ())
        keys2 = self.context_values.get(second, ())
        default: ir.Value | None = None
        exceptions: dict[str, ir.Value] = {}
        pairs: list[ir.PairValue] = []
        for entry in cell.entries:
            value = self.value(
                entry.value, ("number", "blocked", "given"), f"the {modifier} modifier"
            )
            if value is None:
                continue
            if entry.key is None:
                default = value
            elif entry.key2 is None:
                if entry.key.text in keys1 or entry.key.text in keys2:
                    exceptions[entry.key.text] = value
                else:
                    self.err(
                        "E101",
                        f"unknown value of context '{first}' or '{second}' '{entry.key.text}'",
                        entry.key.pos,
                        did_you_mean(entry.key.text, (*keys1, *keys2)),
                    )
            else:
                a, b = entry.key, entry.key2
                if (
                    a.text in keys2
                    and b.text in keys1
                    and not (a.text in keys1 and b.text in keys2)
                ):
                    a, b = b, a
                bad = next((n for n, ks in ((a, keys1), (b, keys2)) if n.text not in ks), None)
                if bad is not None:
                    ctx = first if bad is a else second
                    self.err(
                        "E101",
                        f"unknown value of context '{ctx}' '{bad.text}'",
                        bad.pos,
                        did_you_mean(bad.text, keys1 if bad is a else keys2),
                    )
                else:
                    pairs.append(ir.PairValue(a.text, b.text, value))
        return ir.Cell(default, exceptions, tuple(pairs))

    def _check_cost_keywords(self, fid: str, pos: s.Pos) -> None:
        """E232: the cost cell of ``fid`` gives a mode two values through two groups."""
        cell = self.raw_costs[fid]
        _, ambiguous = keywords.expand_groups(
            cell.exceptions, self.modes, self.group_list, self.precedence
        )
        for mode, pair in ambiguous:
            message, hint = keywords.ambiguity_message(f"the cost of '{fid}'", mode, pair)
            self.err("E232", message, pos, hint)

    def _keyed_values(self, modifier: str, item: str, cell: ir.Cell, pos: s.Pos) -> None:
        """Record what ``item`` gives ``modifier`` by context key, groups of the built-in mode
        context expanded to their members by precedence (E232 when ambiguous), combinations of
        two contexts expanded too, and two single values that disagree reported (E233)."""
        by_modes = self.builtin_mode and MODE_CONTEXT in (
            self.modifier_context.get(modifier),
            self.modifier_context2.get(modifier),
        )
        if not by_modes:
            values = _by_key(cell)
        else:
            values, ambiguous = keywords.expand_groups(
                cell.exceptions, self.modes, self.group_list, self.precedence
            )
            if cell.default is not None:
                values = {"": cell.default, **values}
            for mode, pair in ambiguous:
                message, hint = keywords.ambiguity_message(
                    f"the {modifier} value of '{item}'", mode, pair
                )
                self.err("E232", message, pos, hint)
        self.modifier_values[modifier][item] = values
        second = self.modifier_context2.get(modifier)
        if not second:
            return
        first = self.modifier_context[modifier] or ""
        expand = self.groups if self.builtin_mode else {}
        pairs = keywords.expand_pairs(
            cell.pairs,
            expand if first == MODE_CONTEXT else {},
            expand if second == MODE_CONTEXT else {},
        )
        if pairs:
            self.modifier_pairs.setdefault(modifier, {})[item] = pairs
        firsts = self._plain_values(first)
        seconds = self._plain_values(second)
        for a, b in keywords.disagreements(values, pairs, firsts, seconds):
            self.err(
                "E233",
                f"the {modifier} value of '{item}' is ambiguous for '{a}' with '{b}': "
                f"{_shown(values[a])} and {_shown(values[b])}",
                pos,
                f"add the combination `{a} & {b} <value>` to the cell, or make them agree",
            )

    def _plain_values(self, context: str) -> tuple[str, ...]:
        """A context's values, without the groups of the built-in mode context."""
        values = self.context_values.get(context, ())
        if context == MODE_CONTEXT and self.builtin_mode:
            return tuple(v for v in values if v not in self.groups)
        return values

    def _key_groups(self, modifier: str) -> dict[str, tuple[str, ...]] | None:
        """The groups to expand when ``modifier`` is keyed by the built-in mode context."""
        if self.builtin_mode and self.modifier_context.get(modifier) == MODE_CONTEXT:
            return self.groups
        return None

    def _modifier(self, decl: s.ModifierDecl) -> ir.Modifier:
        mid = decl.item.name.text
        if decl.context is not None and self._key_groups(mid) is None:
            self.symbols.require(decl.context, ("context",), "context")
        self._second_context(decl)
        factors = []
        for row in decl.rows:
            self._check_width(row, 1)
            cell = self._modifier_cell(mid, row.cells[0])
            factors.append(
                self.at(ir.Factor(row.item.name.text, self.info(row.item), cell), row.item.name.pos)
            )
            self.factor_info[row.item.name.text] = factors[-1].info
            self._keyed_values(mid, row.item.name.text, cell, row.cells[0].pos)
        combos = []
        for when in decl.whens:
            members = [
                m.text
                for m in when.members
                if self.symbols.require(m, ("factor", "feature"), "factor or feature")
            ]
            entries = tuple(e for e in when.cell.entries if e.key2 is None)  # E234: keywords
            cell = self._modifier_cell(mid, s.CellNode(entries, when.cell.pos))
            value = cell.default or _ZERO
            combos.append(ir.Combination(tuple(members), value, self._info({}, when.extras)))
        return self.at(
            ir.Modifier(
                mid,
                self.info(decl.item),
                self.modifier_context[mid],
                tuple(factors),
                tuple(combos),
                self.modifier_values[mid],
                combine=keywords.policy(decl.combine, self.err),
                clamp=self._clamp(decl.clamp),
                context2=self.modifier_context2[mid],
                pairs=self.modifier_pairs.get(mid, {}),
            ),
            decl.item.name.pos,
        )

    def _clamp(self, node: s.ClampNode | None) -> ir.Clamp | None:
        """``clamp A to B`` as written (a low bound above the high one is E231, a check)."""
        if node is None:
            return None
        low, high = node.low.value, node.high.value
        assert isinstance(low, ir.Number) and isinstance(high, ir.Number)  # the grammar's `signed`
        return self.at(ir.Clamp(float(low.value), float(high.value)), node.pos)

    def _second_context(self, decl: s.ModifierDecl) -> None:
        """``by a, b``: b is a context (or the built-in ``mode``), not a, sharing no value."""
        second = decl.context2
        if second is None or decl.context is None:
            return
        if not (second.text == MODE_CONTEXT and self.builtin_mode):
            self.symbols.require(second, ("context",), "context")
        if second.text == decl.context.text:
            self.err(
                "E236",
                f"the modifier '{decl.item.name.text}' names the context '{second.text}' twice",
                second.pos,
                "key it by two different contexts, or by one",
            )
            return
        shared = set(self._plain_values(decl.context.text)) & set(self._plain_values(second.text))
        if shared:
            self.err(
                "E236",
                f"the contexts '{decl.context.text}' and '{second.text}' share the value "
                f"'{sorted(shared)[0]}': a cell could not tell which one it is keyed by",
                second.pos,
                "rename the value in one of the contexts",
            )

    # ---- steps ----------------------------------------------------------------------------

    def _step(self, decl: s.StepDecl) -> ir.Step:
        unit = decl.param.unit.text
        self._unit(decl.param.unit, None)
        if decl.result is not None:
            self._unit(decl.result, None)
        terms: list[ir.StepTerm] = []
        for term in decl.terms:
            qty = self._number(term.quantity, DIMENSIONS.get(unit))
            if qty is None:
                continue
            if qty.unit is not None and qty.unit != unit:
                self.err(
                    "E203",
                    f"'{qty.unit}' here, but the input is in '{unit}'",
                    term.quantity.pos,
                    f"write the distance in {unit}",
                )
            amount = self._number(term.amount, None) if term.amount else None
            match term.term:
                case "rate":
                    above = self._step_above(term, unit)
                    amt = amount.value if amount else 0
                    terms.append(ir.RateTerm(amt, qty.value, term.full, above))
                case "free":
                    terms.append(ir.FreeTerm(qty.value))
                case "floor":
                    amt = amount.value if amount else 0
                    terms.append(ir.FloorTerm(amt, qty.value, term.strict))
                case "impassable":
                    terms.append(ir.ImpassableTerm(qty.value, term.strict))
                case _:
                    assert_never(term.term)
            self.where.record(terms[-1], term.quantity.pos)
        step = ir.Step(
            decl.item.name.text,
            self.info(decl.item),
            decl.param.name.text,
            unit,
            decl.result.text if decl.result else None,
            tuple(terms),
        )
        self.where.record(step, decl.param.name.pos, "param")
        return self.at(step, decl.item.name.pos)

    def _step_above(self, term: s.StepTermNode, unit: str) -> float | None:
        """``+1 per 1 in above 2 in``: the threshold, in the step's input unit (issue 11)."""
        if term.above is None:
            return None
        above = self._number(term.above, DIMENSIONS.get(unit))
        if above is not None and above.unit is not None and above.unit != unit:
            self.err(
                "E203",
                f"'{above.unit}' here, but the input is in '{unit}'",
                term.above.pos,
                f"write the threshold in {unit}",
            )
        return above.value if above is not None else None

    # ---- decisions ------------------------------------------------------------------------

    def _decision(self, decl: s.DecisionDecl) -> ir.Decision:
        return DecisionLowering(self, decl).run()

    # ---- tables ---------------------------------------------------------------------------

    def _table(self, decl: s.TableDecl) -> ir.Table:
        columns = tuple(
            self.at(ir.Column(c.name.text, self.info(c)), c.name.pos) for c in decl.columns
        )
        seen_cols: set[str] = set()
        for c in decl.columns:
            if c.name.text in seen_cols:
                self.err("E102", f"column '{c.name.text}' is declared twice", c.name.pos)
            seen_cols.add(c.name.text)
        width = max(1, len(columns))
        allowed: tuple[words.ValueKind, ...] = (
            "number",
            "rate",
            "trade",
            "span",
            "symbol",
            "flag",
            "dice",
            "d66",
            "text",
            "impassable",
            "prohibited",
            "blocked",
        )
        rows = []
        seen: dict[str, s.Pos] = {}
        for row in decl.rows:
            key = row.item.name.text
            if key in seen:
                self.err(
                    "E102",
                    f"row '{key}' appears twice in table '{decl.item.name.text}'",
                    row.item.name.pos,
                )
            seen[key] = row.item.name.pos
            if len(row.cells) != width:
                self.err(
                    "E204",
                    f"row '{key}' has {len(row.cells)} cells, the table has {width} columns",
                    row.item.name.pos,
                    "one cell per column, separated by '|'",
                )
            cells: list[ir.Value | None] = []
            for cell in row.cells:
                if len(cell.entries) > 1 or any(e.key for e in cell.entries):
                    self.err(
                        "E208",
                        "a table cell holds one value",
                        cell.pos,
                        "per-mode exceptions belong in layers, not plain tables",
                    )
                cells.append(
                    self.value(cell.entries[0].value, allowed, "a table cell")
                    if cell.entries
                    else None
                )
            number = row.key_number
            if number is not None and number.unit is not None:
                self._unit(s.Name(number.unit, row.item.name.pos), None)
            rows.append(
                ir.Row(
                    key,
                    self.info(row.item),
                    tuple(cells),
                    number.value if number else None,
                    number.unit if number else None,
                )
            )
            self.where.record(rows[-1], row.item.name.pos)
        return self.at(
            ir.Table(decl.item.name.text, self.info(decl.item), columns, tuple(rows)),
            decl.item.name.pos,
        )

    def _dice(self, decl: s.DiceDecl) -> ir.DiceTable:
        dice = decl.dice.value
        assert isinstance(dice, ir.DiceValue | ir.D66Value)  # the grammar's DICE token
        self.where.record(dice, decl.dice.pos)
        modifiers = []
        for mod in decl.modifiers:
            number = self._number(mod.amount, None)
            if number is not None and not float(number.value).is_integer():
                self.err("E209", "a dice modifier is a whole number", mod.amount.pos)
            modifiers.append(
                self.at(
                    ir.DiceModifier(
                        mod.item.name.text, self.info(mod.item), int(number.value) if number else 0
                    ),
                    mod.item.name.pos,
                )
            )
        rows = []
        allowed: tuple[words.ValueKind, ...] = (
            "number",
            "dice",
            "d66",
            "symbol",
            "flag",
            "text",
            "span",
        )
        names: set[str] = set()
        for row in decl.rows:
            if row.item.name.text in names:
                self.err("E102", f"row '{row.item.name.text}' appears twice", row.item.name.pos)
            names.add(row.item.name.text)
            effects: dict[str, ir.Value] = {}
            for entry in row.effects.entries if row.effects else ():
                if entry.key is None:
                    word = entry.value.value
                    if isinstance(word, s.Word):
                        effects[word.name.text] = ir.Flag(True)
                    else:
                        self.err(
                            "E208",
                            "an effect is `name` or `name value`",
                            entry.value.pos,
                            "e.g. `damage 1d6+3` or `ignites`",
                        )
                    continue
                value = self.value(entry.value, allowed, "an effect")
                if value is not None:
                    effects[entry.key.text] = value
            rows.append(
                ir.DiceRow(row.item.name.text, self.info(row.item), row.low, row.high, effects)
            )
            self.where.record(rows[-1], row.item.pos)
            self.where.record(rows[-1], row.item.name.pos, "id")
        table = ir.DiceTable(
            decl.item.name.text, self.info(decl.item), dice, tuple(modifiers), tuple(rows)
        )
        self.where.record(table, decl.item.name.pos)
        return table

    def _trigger(
        self,
        decl: s.TriggerDecl,
        dice_tables: list[ir.DiceTable],
        results_tables: Sequence[ir.ResultsTable] = (),
    ) -> ir.Trigger:
        table = self.symbols.require(decl.table, ("dice table",), "dice table")
        modifier = None
        more: list[str] = []
        written: list[s.Name] = []
        for named in (decl.modifier, *decl.more_modifiers):
            if named is None or table is None:
                continue
            written.append(named)
            tables: list[ir.DiceTable | ir.ResultsTable] = [*dice_tables, *results_tables]
            mods = {m.id for t in tables if t.id == table.name for m in t.modifiers}
            if named.text not in mods:
                self.err(
                    "E101",
                    f"'{named.text}' is not a modifier of '{decl.table.text}'",
                    named.pos,
                    did_you_mean(named.text, mods),
                )
            if modifier is None:
                modifier = named.text
            else:
                more.append(named.text)
        check_dice = None
        if decl.check is not None:
            assert isinstance(decl.check.value, ir.DiceValue | ir.D66Value)
            check_dice = decl.check.value
            self.where.record(check_dice, decl.check.pos)
        if decl.times < 1:
            self.err("E209", "a trigger rolls at least once", decl.item.name.pos)
        trigger = ir.Trigger(
            decl.item.name.text,
            self.info(decl.item),
            decl.table.text,
            check_dice,
            decl.at_least,
            modifier,
            decl.times,
            tuple(more),
        )
        for i, named in enumerate(written):  # E258, a check, may point at one
            self.where.record(trigger, named.pos, item_field("modifiers", i))
        return self.at(trigger, decl.item.name.pos)

    def _exclusion(self, decl: s.ExcludeDecl) -> ir.Exclusion:
        kinds: tuple[words.DeclKind, ...] = ("feature", "factor", "context value")
        self.symbols.require(decl.subject, kinds, "feature or factor")
        for other in decl.others:
            self.symbols.require(other, kinds, "feature or factor")
        return ir.Exclusion(
            decl.subject.text, tuple(o.text for o in decl.others), self._info({}, decl.extras)
        )

    def _grid(self, decl: s.GridDecl) -> ir.Grid:
        if decl.shape is not None:
            return self._shaped_grid(decl)
        return self._square_grid(decl)

    def _shaped_grid(self, decl: s.GridDecl) -> ir.Grid:
        """``grid NAME : size, hex`` or ``..., square[, diagonals ...]`` (maps, issue 11)."""
        assert decl.shape is not None
        # the grammar and the YAML schema admit only the shapes' own words
        square: ir.GridShape = "square"
        shape = next((sh for sh in words.GRID_SHAPES if sh == decl.shape.text), square)
        grid = self._square_grid(decl)
        shaped = ir.Grid(grid.id, grid.info, grid.size, grid.diagonals, shape)
        self.where.record(shaped, decl.shape.pos, "shape")
        return self.at(shaped, decl.item.name.pos)

    def _square_grid(self, decl: s.GridDecl) -> ir.Grid:
        sizes = []
        for loc in decl.size:
            number = self._number(loc, "length")
            if number is not None:
                if number.unit is None:
                    self.err("E203", "a grid cell size needs a unit", loc.pos, "e.g. 1.5 m")
                sizes.append(number)
        if any(d < 1 for d in decl.diagonals):
            self.err("E209", "a diagonal costs at least one cell", decl.item.name.pos)
        return self.at(
            ir.Grid(decl.item.name.text, self.info(decl.item), tuple(sizes), decl.diagonals),
            decl.item.name.pos,
        )


def _by_key(cell: ir.Cell, groups: dict[str, tuple[str, ...]] | None = None) -> dict[str, ir.Value]:
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


def _role_dimension(role: str, unit: str | None) -> str | None:
    """The dimension a role's unit must have; the cost role may also be a distance, so that
    moves are measured in inches (`units distance in, cost in`)."""
    if role == "cost" and unit is not None and DIMENSIONS.get(unit) == "length":
        return "length"
    return ROLES.get(role)


def _describe(value: s.SynValue) -> str:
    if isinstance(value, s.SameAs):
        return f"`as {value.target.text}`"
    if isinstance(value, s.Word):
        return f"the word '{value.name.text}'"
    return words.kind_words(words.value_kind(value))


def _shown(value: ir.Value) -> str:
    """A modifier value as a message shows it."""
    if isinstance(value, ir.Number):
        return f"{value.value:+g}"
    return words.kind_words(words.value_kind(value))
