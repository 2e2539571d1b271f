"""Lower merged syntax into the IR, checking what only the syntax can tell: names, kinds and
units.

Input: the statements of one ruleset, already merged with its bases by
:mod:`rulesdsl.variants.resolve`.
Output: an :class:`rulesdsl.ir.Ruleset`, or None, where each node was written, and every
diagnostic found. What can be judged on the IR is left to :mod:`rulesdsl.checks`.

This module is the driver (the header, the declarations, then each construct in dependency
order); the constructs' lowering is in :mod:`~rulesdsl.lowering.modifiers`,
:mod:`~rulesdsl.lowering.costs`, :mod:`~rulesdsl.lowering.tables`,
:mod:`~rulesdsl.lowering.decisions` and :mod:`~rulesdsl.lowering.sight`, all through the
public :class:`~rulesdsl.lowering.context.Context`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import assert_never

from rulesdsl import editions, ir
from rulesdsl.diagnostics import Diagnostic
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.declared import declared_kind
from rulesdsl.ir.records import dataclass
from rulesdsl.lowering import arcs as arcs_lowering
from rulesdsl.lowering import effects as effects_lowering
from rulesdsl.lowering import examples as example_lowering
from rulesdsl.lowering import facing as facing_lowering
from rulesdsl.lowering import free_facing, keywords, maps
from rulesdsl.lowering import moves as moves_lowering
from rulesdsl.lowering import sight as sight_lowering
from rulesdsl.lowering import states as states_lowering
from rulesdsl.lowering.context import (
    MODE_CONTEXT,
    role_dimension,
)
from rulesdsl.lowering.drift import drifts as drift_lines
from rulesdsl.lowering.tables import TableLowering
from rulesdsl.positions import Positions, item_field
from rulesdsl.units import DIMENSIONS, ROLES
from rulesdsl.variants.lineage import Lineage


@dataclass(slots=False)
class Lowered:
    """What lowering gives: the IR (None only when the file declares no ruleset), where each
    of its nodes was written, and what lowering found wrong (its IR is then best effort, for
    the checks to look at, never for a backend)."""

    ruleset: ir.Ruleset | None
    positions: Positions
    diagnostics: list[Diagnostic]


def lower(
    statements: Sequence[s.Statement],
    lineage: Lineage,
    fallback_pos: s.Pos,
    notation: Callable[[str], s.Notation],
) -> Lowered:
    """The IR of a merged ruleset, its positions and every diagnostic of lowering;
    ``notation`` says how a hint writes a fix in the file at a path."""
    lowerer = _Lowerer(statements, fallback_pos, notation)
    ruleset = lowerer.run(lineage)
    diagnostics = lowerer.diags + lowerer.symbols.diagnostics + lowerer.cap.left_out()
    return Lowered(ruleset, lowerer.where, diagnostics)


class _Lowerer(TableLowering):
    """The driver: the header, every declaration, then each construct in dependency order."""

    def run(self, lineage: Lineage) -> ir.Ruleset | None:
        self._header()
        self._declare_all()
        of = self.of
        books, modes, groups, contexts, params = self._vocabulary()
        self.sights = [sight_lowering.sight(self, d) for d in of(s.SightDecl)]
        kinds = [moves_lowering.move_kind(self, d) for d in of(s.MoveDecl)]
        rolls = [moves_lowering.roll_rule(self, d) for d in of(s.RollDecl)]
        layers, features = self._layers(of(s.LayerDecl))
        kinds = moves_lowering.kind_costs(self, kinds, features)
        rolls = moves_lowering.resolved_rolls(self, rolls, features, [k.id for k in kinds])
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
        self.steps = {st.id: st for st in steps}  # a decision's arithmetic may call them
        tables = [self._table(d) for d in of(s.TableDecl)]
        self.tables = {t.id: t for t in tables}
        decisions = [self._decision(d) for d in of(s.DecisionDecl)]
        dice_tables = [self._dice(d) for d in of(s.DiceDecl) if d.results is None]
        modifiers = moves_lowering.outcome_effects(self, modifiers, dice_tables)
        results_tables = [
            sight_lowering.results_table(self, d) for d in of(s.DiceDecl) if d.results is not None
        ]
        effects_lowering.check(  # outcomes and conditions that feed sight and costs
            self,
            layers,
            features,
            dice_tables,
            results_tables,
            self.sights,
            self.header.units.get("cost"),
        )
        triggers = [self._trigger(d, dice_tables, results_tables) for d in of(s.TriggerDecl)]
        exclusions = [self._exclusion(d) for d in of(s.ExcludeDecl)]
        grids = [self._grid(d) for d in of(s.GridDecl)]
        on_grid = [d for d in of(s.FacingDecl) if d.grid is not None]
        facings = facing_lowering.facings(self, on_grid, grids, [k.id for k in kinds])
        free = [d for d in of(s.FacingDecl) if d.grid is None]
        free_facings = free_facing.free_facings(self, free, facings)
        whole_moves = [moves_lowering.whole_move(self, d, facings) for d in of(s.WholeMoveDecl)]
        states = [states_lowering.state(self, d, modes) for d in of(s.StateDecl)]
        drifts = drift_lines(self, of(s.DriftDecl), grids, modes, states)
        item = self.header.item
        if item is None:
            return None
        ruleset = self.at(
            ir.Ruleset(
                id=item.name.text,
                info=self.info(item),
                version=self.header.version,
                edition=self.header.edition,
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
                precedence=self._precedence_lines(),
                sights=tuple(self.sights),
                results_tables=tuple(results_tables),
                examples=tuple(example_lowering.examples(self, of(s.ExampleDecl))),
                facings=tuple(facings),
                moves=tuple(kinds),
                rolls=tuple(rolls),
                arcs=tuple(arcs_lowering.arcs(self, d) for d in of(s.ArcsDecl)),
                whole_moves=tuple(whole_moves),
                free_facings=tuple(free_facings),
                states=tuple(states),
                drifts=drifts,
            ),
            item.name.pos,
        )
        self._header_places(ruleset)
        return ruleset

    def _precedence_lines(self) -> tuple[ir.Precedence, ...]:
        """The ``precedence`` lines, each checked against the names it orders."""
        decls = self.of(s.PrecedenceDecl)
        names = zip(self.precedence_names, decls, strict=True)
        return tuple(self._precedence_line(line, decl) for line, decl in names)

    def _vocabulary(
        self,
    ) -> tuple[
        list[ir.Book], list[ir.Mode], list[ir.Group], list[ir.Context], list[ir.ScenarioParam]
    ]:
        """The words the rest is written in: books, unit types, groups, precedence, contexts,
        scenario parameters and the contexts of the modifiers."""
        of = self.of
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
        keywords.stray_orders(self.statements, self.err)
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
        return books, modes, groups, contexts, params

    def _header_places(self, ruleset: ir.Ruleset) -> None:
        """Where the header's slots were written: the last ``version`` and ``languages``, each
        language, the ``stacking`` entry cost."""
        for slot, decls in (
            ("version", self.of(s.VersionDecl)),
            ("languages", self.of(s.LanguagesDecl)),
        ):
            if decls:
                self.where.record(ruleset, decls[-1].pos, slot)
        for decl in self.of(s.LanguagesDecl)[-1:]:  # each language's own place (W610)
            first = {n.text: n for n in reversed(decl.languages)}  # a repeat is dropped
            for i, lang in enumerate(ruleset.languages):
                if lang in first:
                    self.where.record(ruleset, first[lang].pos, item_field("languages", i))
        for stacking in self.of(s.StackingDecl):
            if stacking.entry is not None:
                self.where.record(ruleset, stacking.entry.pos, "entry_cost")

    def _header(self) -> None:
        h = self.header
        rulesets = self.of(s.RulesetDecl)
        if not rulesets:
            self.err(
                "E110",
                "the file declares no ruleset",
                self.fallback_pos,
                'start the file with `ruleset <id> "Title"`',
            )
        else:
            h.item = rulesets[0].item
            self.once(
                [r.item for r in rulesets],
                "E110",
                "a file declares one ruleset",
                "split the second ruleset into a file of its own",
            )
        versions = self.of(s.VersionDecl)
        if not versions:
            self.err(
                "E110",
                "the ruleset has no version",
                self.fallback_pos,
                "add a line such as `version 1.0.0`",
            )
        else:
            h.version = versions[-1].version
        for edition in self.of(s.EditionDecl)[-1:]:
            if editions.known(edition.edition):
                h.edition = edition.edition
            else:
                self.err(
                    "E112",
                    f"'{edition.edition}' is not an edition of the language",
                    edition.pos,
                    "editions: "
                    + ", ".join(editions.NAMES)
                    + f" (the current one: {editions.CURRENT})",
                )
        for decl in self.of(s.LanguagesDecl)[-1:]:
            langs = [n.text for n in decl.languages]
            for n in decl.languages:
                if not re.fullmatch(ir.LANG.regex, n.text):
                    self.err(
                        "E105",
                        f"'{n.text}' is not a language code",
                        n.pos,
                        "use ISO 639-1 codes such as en, fr, ru",
                    )
            h.languages = tuple(dict.fromkeys(langs))
        for units in self.of(s.UnitsDecl):
            for role, unit in units.bindings:
                if role.text not in ROLES:
                    self.unknown(f"unknown unit role '{role.text}'", role, ROLES)
                elif self.unit(unit, role_dimension(role.text, unit.text)):
                    h.units[role.text] = unit.text
        for stacking in self.of(s.StackingDecl):
            if stacking.policy.text != "sum":
                self.unknown(
                    f"unknown stacking policy '{stacking.policy.text}'", stacking.policy, ["sum"]
                )
            if stacking.entry is not None:
                number = self.number(stacking.entry, role_dimension("cost", h.units.get("cost")))
                h.entry_cost = number.value if number else 0
        for minimum in self.of(s.MinimumDecl):
            h.minimum = self.number(minimum.amount, "length")

    def _declare_all(self) -> None:
        sym = self.symbols
        for st in self.statements:
            kind = declared_kind(st)  # the statement kinds' one declaration
            item = getattr(st, "item", None)
            if kind is not None and isinstance(item, s.Item) and not isinstance(st, s.RulesetDecl):
                sym.declare(item.name, kind)
            match st:
                case s.ContextDecl(item=item, values=values):
                    for v in values:
                        sym.declare(v.name, "context value", item.name.text)
                case s.LayerDecl(item=item, rows=rows):
                    for row in rows:
                        sym.declare(row.item.name, "feature", item.name.text)
                case s.ModifierDecl(item=item, rows=rows, sights=sights):
                    for row in rows:
                        sym.declare(row.item.name, "factor", item.name.text)
                    for line in sights or ():  # a factor read along a line of sight
                        sym.declare(line.item.name, "factor", item.name.text)
                case s.DiceDecl(item=item, modifiers=mods):
                    for mod in mods:
                        sym.declare(mod.item.name, "dice modifier", item.name.text)
                case (
                    s.OverrideDecl(pos=pos)
                    | s.RemoveDecl(pos=pos)
                    | s.InsertDecl(pos=pos)
                    | s.ExampleOverride(pos=pos)
                    | s.ExampleRemove(pos=pos)
                    | s.FacingRemove(pos=pos)
                ):
                    self.err(
                        "E506",
                        "`override`, `insert` and `remove` need `extends`",
                        pos,
                        "add `extends <base>@<version>` to the file",
                    )
                case (
                    s.RulesetDecl()
                    | s.BookDecl()
                    | s.ModeDecl()
                    | s.GroupDecl()
                    | s.StepDecl()
                    | s.DecisionDecl()
                    | s.TableDecl()
                    | s.TriggerDecl()
                    | s.SightDecl()
                    | s.GridDecl()
                    | s.ParamDecl()
                    | s.VersionDecl()
                    | s.EditionDecl()
                    | s.ExtendsDecl()
                    | s.LanguagesDecl()
                    | s.UnitsDecl()
                    | s.StackingDecl()
                    | s.MinimumDecl()
                    | s.PrecedenceDecl()
                    | s.ExcludeDecl()
                    | s.ExampleDecl()
                    | s.FacingDecl()
                    | s.MoveDecl()
                    | s.RollDecl()
                    | s.ArcsDecl()
                    | s.WholeMoveDecl()
                    | s.StateDecl()
                    | s.DriftDecl()
                ):
                    pass
                case unknown:
                    assert_never(unknown)

    def _mode(self, decl: s.ModeDecl) -> ir.Mode:
        kws = tuple(k.text for k in decl.keywords if self.symbols.require(k, ("group",), "group"))
        mode = ir.Mode(decl.item.name.text, self.info(decl.item), kws)
        if decl.allowance is not None:
            mode = replace(mode, allowance=moves_lowering.own_allowance(self, decl.allowance))
        return self.at(mode, decl.item.name.pos)

    def _precedence(self, decls: list[s.PrecedenceDecl]) -> None:
        for decl in decls:
            line = [g for g in decl.groups if self.symbols.require(g, ("group",), "group")]
            self.precedence.append([g.text for g in line])
            self.precedence_names.append(line)

    def _precedence_line(self, line: list[s.Name], decl: s.PrecedenceDecl) -> ir.Precedence:
        """A ``precedence`` line, with where each of its groups was written (for E235)."""
        node = ir.Precedence(tuple(g.text for g in line), self.info_of({}, decl.extras))
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
        self.unit(decl.unit, None)
        value = None
        if decl.value is not None:
            value = self.number(decl.value, DIMENSIONS.get(decl.unit.text))
        return self.at(
            ir.ScenarioParam(decl.item.name.text, self.info(decl.item), decl.unit.text, value),
            decl.item.name.pos,
        )
