"""Semantic diff of two rulesets: what changed, in words a player reads, and how much it matters.

The diff compares two IRs (never source lines): table cells, modes, features and their costs,
modifier values, rows, factors, steps, decisions, dice rows, triggers and parameters. Each
change has a level, highest first:

``breaking``  code using the generated module can break: a name is removed (a mode, feature,
              table, row, column, parameter ...), a step's or decision's inputs are renamed, or
              a value changes kind (a number becomes ``impassable``, a cost becomes a rate);
``rules``     a number or a rule changed: the game plays differently and the printed sheet
              must be reprinted;
``additive``  something new (a mode, a feature, a row): what was there plays as before;
``wording``   only labels, notes, remarks or source references changed.

Paths name the changed thing the way :mod:`rulesdsl.variants.resolve` records a variant's changes:
``soft.walker`` (one mode's cost), ``rapid_water.cost`` (a whole cost cell),
``light_woods.to_hit.ballistic``, ``full`` / ``blizzard.ballistic`` (factors),
``flight.good.turn`` (table.column.row), ``terrain_effects.fire`` (dice.row), ``infantry_move``.

Decisions and tables are compared in :mod:`rulesdsl.versions.diff_tables`, sight rules and results
in :mod:`rulesdsl.versions.diff_sight`, policies in :mod:`rulesdsl.versions.diff_policies`; the
rebase check is :mod:`rulesdsl.versions.rebase`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Literal, assert_never

from rulesdsl import ir, spelling, words
from rulesdsl.spelling import number
from rulesdsl.versions import (
    diff_arcs,
    diff_drift,
    diff_effects,
    diff_examples,
    diff_facing,
    diff_free_facing,
    diff_maps,
    diff_moves,
    diff_policies,
    diff_sight,
    diff_states,
    diff_tables,
)
from rulesdsl.versions.diff_sight import matched, named

Level = Literal["breaking", "rules", "additive", "wording"]
LEVELS: tuple[Level, ...] = ("breaking", "rules", "additive", "wording")
"""Highest first."""
Action = Literal["added", "removed", "changed"]


def rank(level: Level) -> int:
    """3 for breaking down to 0 for wording."""
    return len(LEVELS) - 1 - LEVELS.index(level)


@dataclass(frozen=True)
class Change:
    level: Level
    action: Action
    path: str
    message: str
    old: str | None = None
    new: str | None = None


@dataclass(frozen=True)
class Diff:
    old_id: str
    old_version: str
    new_id: str
    new_version: str
    changes: tuple[Change, ...] = field(default=())

    @property
    def level(self) -> Level | None:
        """The highest level of any change; None when nothing changed."""
        levels = {c.level for c in self.changes}
        return next((lv for lv in LEVELS if lv in levels), None)

    def at_least(self, level: Level) -> list[Change]:
        return [c for c in self.changes if rank(c.level) >= rank(level)]

    def count(self, level: Level) -> int:
        return sum(c.level == level for c in self.changes)


# ---- values in words ----------------------------------------------------------------------

_UNIT_WORDS = {
    "in": "inch",
    "hex": "hex",
    "cm": "cm",
    "m": "m",
    "ft": "ft",
    "mm": "mm",
    "km": "km",
    "square": "square",
    "level": "level",
}


def shown(value: ir.Value | None) -> str:
    """A value in a change message: as the DSL writes it (``+1``, ``1 per 2 in``), ``as X``
    with what it stands for, ``nothing`` for no value."""
    match value:
        case None:
            return "nothing"
        case ir.Same(feature=feature, resolved=resolved):
            return f"as {feature} ({shown(resolved)})"
        case ir.Number() | ir.Marker() | ir.PerDistance() | ir.NonCost() | ir.OnceCost():
            return spelling.value(value)
        case _:
            assert_never(value)


def _plain(value: ir.Value | None) -> ir.Value | None:
    """What a value means: ``as clear`` is clear's value."""
    while isinstance(value, ir.Same):
        value = value.resolved
    return value


def kind(value: ir.Value | None) -> str:
    value = _plain(value)
    return "nothing" if value is None else value.kind


# ---- the diff -----------------------------------------------------------------------------


def diff(old: ir.Ruleset, new: ir.Ruleset) -> Diff:
    """Every semantic change from ``old`` to ``new``, in a stable order."""
    differ = _Differ(old, new)
    differ.run()
    ordered = sorted(differ.changes, key=lambda c: -rank(c.level))  # stable: source order
    return Diff(old.id, old.version, new.id, new.version, tuple(ordered))


class _Differ:
    def __init__(self, old: ir.Ruleset, new: ir.Ruleset) -> None:
        self.old = old
        self.new = new
        self.changes: list[Change] = []
        units = new.units
        self.cost_unit = units.get("cost", "")
        distance = units.get("distance", "")
        per = f"per {_UNIT_WORDS.get(distance, distance)}" if distance else ""
        words = " ".join(x for x in (self.cost_unit, per) if x)
        self.cost_suffix = f" {words}" if words else ""
        self.mode_labels = {m.id: self.label(m.info, m.id) for m in new.modes}
        self.common_keys = _keys(old) & _keys(new)
        """Modes, groups and context values in both: keys whose values are compared."""
        self.mode_labels.update({g.id: self.label(g.info, g.id) for g in new.groups})

    def add(
        self,
        level: Level,
        action: Action,
        path: str,
        message: str,
        old: str | None = None,
        new: str | None = None,
    ) -> None:
        self.changes.append(Change(level, action, path, message, old, new))

    def label(self, info: ir.Info, fallback: str, ruleset: ir.Ruleset | None = None) -> str:
        langs = (ruleset or self.new).languages
        for lang in langs:
            if lang in info.labels:
                return info.labels[lang]
        return next(iter(info.labels.values()), fallback)

    def old_label(self, info: ir.Info, fallback: str) -> str:
        return self.label(info, fallback, self.old)

    def run(self) -> None:
        self._header()
        named(self, "mode", self.old.modes, self.new.modes, lambda m: m.id)
        diff_moves.own_allowances(self)
        self._groups()
        self._contexts()
        self._layers()
        self._features()
        self._modifiers()
        self._policies()
        self._steps()
        diff_tables.decisions(self)
        diff_tables.tables(self)
        diff_tables.dice(self)
        diff_sight.results(self)
        diff_sight.sights(self)
        diff_effects.effects(self)
        diff_moves.moves(self)
        diff_moves.rolls(self)
        diff_moves.whole_moves(self)
        diff_states.states(self)
        diff_drift.drifts(self)
        diff_states.bands(self)
        self._triggers()
        self._params()
        self._exclusions()
        diff_maps.grids(self)
        diff_maps.maps(self)
        diff_facing.facings(self)
        diff_arcs.arcs(self)
        diff_free_facing.free_facings(self)
        diff_examples.changed_examples(self)
        diff_sight.worded(self, "book", self.old.books, self.new.books, lambda b: b.id)

    # -- helpers ----------------------------------------------------------------------------

    def _info(self, path: str, old: ir.Info, new: ir.Info, fallback: str) -> None:
        name = self.label(new, fallback)
        # notes for a removed unit type went with it: that removal is the change reported
        old = _for_known(old, {m.id for m in self.new.modes} | {g.id for g in self.new.groups})
        for lang in dict.fromkeys([*old.labels, *new.labels]):
            before, after = old.labels.get(lang), new.labels.get(lang)
            if before != after:
                self.add(
                    "wording",
                    "changed",
                    path,
                    f"{name}: {lang} label {before!r} -> {after!r}"
                    if before and after
                    else f"{name}: {lang} label {'added' if after else 'removed'}",
                    before,
                    after,
                )
        if old.notes != new.notes:
            self.add(
                "wording",
                "changed",
                path,
                f"{name}: notes changed",
                " / ".join(n.get(self.old.languages[0], "") for n in old.notes) or None,
                " / ".join(n.get(self.new.languages[0], "") for n in new.notes) or None,
            )
        if old.notes == new.notes and _scopes(old) != _scopes(new):  # which decks print it
            self.add(
                "wording",
                "changed",
                path,
                f"{name}: which unit types the notes are for changed",
                _scope_text(old) or None,
                _scope_text(new) or None,
            )
        if old.remarks != new.remarks:  # programmers' words: the module's docstring only
            self.add(
                "wording",
                "changed",
                path,
                f"{name}: remarks changed",
                " / ".join(old.remarks) or None,
                " / ".join(new.remarks) or None,
            )
        if old.source != new.source:
            self.add(
                "wording",
                "changed",
                path,
                f"{name}: source {_fmt_source(old.source)} -> {_fmt_source(new.source)}",
                _fmt_source(old.source),
                _fmt_source(new.source),
            )

    def _value(
        self, path: str, what: str, old: ir.Value | None, new: ir.Value | None, unit: str = ""
    ) -> None:
        """One value that may have changed: rules, or breaking when its kind changed."""
        if _plain(old) == _plain(new):
            return
        a, b = _plain(old), _plain(new)
        if isinstance(a, ir.Number) and isinstance(b, ir.Number) and a.unit == b.unit:
            text = f"{shown(a)} -> {shown(b)}{unit}"
        else:
            text = (
                f"{shown(a)}{unit if isinstance(a, ir.Number) else ''} -> "
                f"{shown(b)}{unit if isinstance(b, ir.Number) else ''}"
            )
        level: Level = "breaking" if kind(a) != kind(b) and None not in (a, b) else "rules"
        self.add(level, "changed", path, f"{what}: {text}", shown(old), shown(new))

    # -- header -----------------------------------------------------------------------------

    def _header(self) -> None:
        old, new = self.old, self.new
        for role in dict.fromkeys([*old.units, *new.units]):
            a, b = old.units.get(role), new.units.get(role)
            if a != b:
                self.add("rules", "changed", f"units.{role}", f"{role} unit: {a} -> {b}", a, b)
        if old.entry_cost != new.entry_cost:
            self.add(
                "rules",
                "changed",
                "stacking",
                "entering a place costs "
                f"{number(old.entry_cost)} -> {number(new.entry_cost)} {self.cost_unit}",
                number(old.entry_cost),
                number(new.entry_cost),
            )
        if old.stacking != new.stacking:
            self.add(
                "rules",
                "changed",
                "stacking",
                f"stacking: {old.stacking} -> {new.stacking}",
                old.stacking,
                new.stacking,
            )
        if old.minimum_move != new.minimum_move:
            self.add(
                "rules",
                "changed",
                "minimum_move",
                f"minimum move: {shown(old.minimum_move)} -> {shown(new.minimum_move)}",
                shown(old.minimum_move),
                shown(new.minimum_move),
            )
        for lang in old.languages:
            if lang not in new.languages:
                self.add("breaking", "removed", f"languages.{lang}", f"language removed: {lang}")
        for lang in new.languages:
            if lang not in old.languages:
                self.add("additive", "added", f"languages.{lang}", f"language added: {lang}")

    # -- modes, groups, contexts ------------------------------------------------------------

    def _groups(self) -> None:
        for a, b in diff_sight.named(
            self, "group", self.old.groups, self.new.groups, lambda g: g.id
        ):
            kept = set(self.common_keys)
            if [m for m in a.members if m in kept] != [m for m in b.members if m in kept]:
                self.add(
                    "rules",
                    "changed",
                    b.id,
                    f"group {self.label(b.info, b.id)}: "
                    f"{', '.join(a.members)} -> {', '.join(b.members)}",
                    ", ".join(a.members),
                    ", ".join(b.members),
                )

    def _contexts(self) -> None:
        def declared(contexts: tuple[ir.Context, ...]) -> list[ir.Context]:
            return [c for c in contexts if not c.of_modes]  # the modes are diffed as modes

        for a, b in diff_sight.named(
            self,
            "context",
            declared(self.old.contexts),
            declared(self.new.contexts),
            lambda c: c.id,
        ):
            diff_sight.named(
                self, f"{self.label(b.info, b.id)} value", a.values, b.values, lambda v: v.id
            )

    # -- layers and features ----------------------------------------------------------------

    def _layers(self) -> None:
        for a, b in diff_sight.named(
            self, "layer", self.old.layers, self.new.layers, lambda layer: layer.id
        ):
            name = self.label(b.info, b.id)
            if a.scope != b.scope:
                self.add(
                    "rules",
                    "changed",
                    b.id,
                    f"layer {name}: {words.scope_described(a.scope)}"
                    f" -> {words.scope_described(b.scope)}",
                    a.scope,
                    b.scope,
                )
            for column in b.columns:
                if column not in a.columns:
                    self.add(
                        "additive",
                        "added",
                        f"{b.id}.{column}",
                        f"layer {name}: new column {column}",
                    )
            for column in a.columns:
                if column not in b.columns:
                    self.add(
                        "breaking",
                        "removed",
                        f"{b.id}.{column}",
                        f"layer {name}: column {column} removed",
                    )

    def _features(self) -> None:
        new_layers = {layer.id: layer for layer in self.new.layers}
        removed, added, kept = matched(self.old.features, self.new.features, lambda f: f.id)
        for f in removed:
            self.add(
                "breaking", "removed", f.id, f"terrain removed: {self.old_label(f.info, f.id)}"
            )
        for f in added:
            layer = new_layers.get(f.layer)
            where = self.label(layer.info, f.layer) if layer else f.layer
            cost = f.cells.get("cost")
            costs = f": {self._cell(cost)}" if cost is not None else ""
            self.add(
                "additive",
                "added",
                f.id,
                f"terrain added to {where}: {self.label(f.info, f.id)}{costs}",
            )
        modes = [m.id for m in self.new.modes if m.id in {o.id for o in self.old.modes}]
        for a, b in kept:
            name = self.label(b.info, b.id)
            self._info(b.id, a.info, b.info, b.id)
            if a.layer != b.layer:
                self.add(
                    "rules",
                    "changed",
                    b.id,
                    f"{name}: moved from layer {a.layer} to {b.layer}",
                    a.layer,
                    b.layer,
                )
            if a.ignores_others != b.ignores_others:
                self.add(
                    "rules",
                    "changed",
                    b.id,
                    f"{name}: "
                    + (
                        "now ignores the other features"
                        if b.ignores_others
                        else "no longer ignores the other features"
                    ),
                )
            changed = [m for m in modes if _plain(a.costs.get(m)) != _plain(b.costs.get(m))]
            pairs = {(_plain(a.costs.get(m)), _plain(b.costs.get(m))) for m in changed}
            unit = self.cost_suffix
            if changed and len(changed) == len(modes) > 1 and len(pairs) == 1:
                self._value(
                    f"{b.id}.cost",
                    f"{name}, every mode",
                    a.costs.get(changed[0]),
                    b.costs.get(changed[0]),
                    unit,
                )
            else:
                for m in changed:
                    self._value(
                        f"{b.id}.{m}",
                        f"{name}, {self.mode_labels[m]}",
                        a.costs.get(m),
                        b.costs.get(m),
                        unit,
                    )

    def _cell(self, cell: ir.Cell) -> str:
        def cost(value: ir.Value) -> str:
            plain = _plain(value)
            return shown(value) + (self.cost_suffix if isinstance(plain, ir.Number) else "")

        parts = [cost(cell.default)] if cell.default is not None else []
        parts += [f"{self.mode_labels.get(k, k)} {cost(v)}" for k, v in cell.exceptions.items()]
        return ", ".join(parts)

    # -- modifiers and factors --------------------------------------------------------------

    def _modifiers(self) -> None:
        features = {f.id for f in self.new.features}
        old_features = {f.id for f in self.old.features}
        context_labels = {
            v.id: self.label(v.info, v.id) for c in self.new.contexts for v in c.values
        }
        context_labels.update({m.id: self.label(m.info, m.id) for m in self.new.modes})
        context_labels.update({g.id: self.label(g.info, g.id) for g in self.new.groups})
        item_labels = {f.id: self.label(f.info, f.id) for f in self.new.features}
        for a, b in diff_sight.named(
            self, "modifier", self.old.modifiers, self.new.modifiers, lambda m: m.id
        ):
            name = self.label(b.info, b.id)
            if a.context != b.context:
                self.add(
                    "breaking",
                    "changed",
                    b.id,
                    f"{name}: now keyed by {b.context} instead of {a.context}",
                    a.context,
                    b.context,
                )
            kept = named(self, f"{name} factor", a.factors, b.factors, lambda f: f.id)
            item_labels.update({f.id: self.label(f.info, f.id) for _, f in kept})
            factors = {f.id for f in b.factors}
            old_factors = {f.id for f in a.factors}
            for item, values in b.values.items():
                if item not in a.values:
                    if (item in features and item in old_features) or (
                        item in factors and item in old_factors
                    ):
                        for key, value in values.items():
                            if key and key not in self.common_keys:
                                continue
                            self._value(
                                _modifier_path(item, b.id, key, features),
                                _modifier_what(
                                    name, item_labels.get(item, item), key, context_labels
                                ),
                                None,
                                value,
                            )
                    continue
                before = a.values[item]
                for key in dict.fromkeys([*before, *values]):
                    if key and key not in self.common_keys:
                        continue  # a removed or new mode or context value says it all
                    self._value(
                        _modifier_path(item, b.id, key, features),
                        _modifier_what(name, item_labels.get(item, item), key, context_labels),
                        before.get(key),
                        values.get(key),
                    )
            for item, values in a.values.items():
                if item not in b.values and (item in features or item in factors):
                    for key, value in values.items():
                        if key and key not in self.common_keys:
                            continue
                        self._value(
                            _modifier_path(item, b.id, key, features),
                            _modifier_what(name, item_labels.get(item, item), key, context_labels),
                            value,
                            None,
                        )
            removed, added, both = matched(
                a.combinations, b.combinations, lambda c: "+".join(c.members)
            )
            for c in removed:
                self.add(
                    "rules",
                    "removed",
                    f"{b.id}.when.{'+'.join(c.members)}",
                    f"{name}: {' and '.join(c.members)} together no longer {shown(c.value)}",
                    shown(c.value),
                )
            for c in added:
                self.add(
                    "rules",
                    "added",
                    f"{b.id}.when.{'+'.join(c.members)}",
                    f"{name}: {' and '.join(c.members)} together: {shown(c.value)}",
                    None,
                    shown(c.value),
                )
            for c_old, c_new in both:
                self._value(
                    f"{b.id}.when.{'+'.join(c_new.members)}",
                    f"{name}, {' and '.join(c_new.members)} together",
                    c_old.value,
                    c_new.value,
                )

    def _policies(self) -> None:
        """Modifier policies, clamps, second contexts, combinations and precedence."""
        for found in diff_policies.changes(self.old, self.new):
            match found:
                case diff_policies.PolicyChange(level=lv, path=p, message=m, old=o, new=n):
                    self.add(lv, "changed", p, m, o, n)
                case diff_policies.PairChange(path=p, what=w, old=o, new=n):
                    self._value(p, w, o, n)
                case _:
                    assert_never(found)

    # -- steps and decisions ----------------------------------------------------------------

    def _steps(self) -> None:
        for a, b in diff_sight.named(
            self, "step", self.old.steps, self.new.steps, lambda st: st.id
        ):
            name = self.label(b.info, b.id)
            if a.param != b.param:
                self.add(
                    "breaking",
                    "changed",
                    b.id,
                    f"{name}: input {a.param} renamed {b.param}",
                    a.param,
                    b.param,
                )
            before = ", ".join(spelling.step_term(t, a.param_unit) for t in a.terms)
            after = ", ".join(spelling.step_term(t, b.param_unit) for t in b.terms)
            if before != after or a.result_unit != b.result_unit:
                self.add("rules", "changed", b.id, f"{name}: {before} -> {after}", before, after)

    def _triggers(self) -> None:
        for a, b in diff_sight.named(
            self, "trigger", self.old.triggers, self.new.triggers, lambda t: t.id
        ):
            before, after = _fmt_trigger(a), _fmt_trigger(b)
            if before != after:
                self.add(
                    "rules",
                    "changed",
                    b.id,
                    f"{self.label(b.info, b.id)}: {before} -> {after}",
                    before,
                    after,
                )

    # -- parameters, exclusions, grids ------------------------------------------------------

    def _params(self) -> None:
        for a, b in diff_sight.named(
            self, "parameter", self.old.params, self.new.params, lambda p: p.id
        ):
            name = self.label(b.info, b.id)
            if a.unit != b.unit:
                self.add(
                    "rules", "changed", b.id, f"{name}: unit {a.unit} -> {b.unit}", a.unit, b.unit
                )
            self._value(b.id, name, a.value, b.value, f" {b.unit}")

    def _exclusions(self) -> None:
        removed, added, kept = matched(
            self.old.exclusions, self.new.exclusions, lambda e: e.subject
        )
        for e in removed:
            self.add(
                "rules",
                "removed",
                f"exclude.{e.subject}",
                f"{e.subject} may now be combined with {', '.join(e.others)}",
            )
        for e in added:
            self.add(
                "rules",
                "added",
                f"exclude.{e.subject}",
                f"{e.subject} cannot be combined with {', '.join(e.others)}",
            )
        for a, b in kept:
            if set(a.others) != set(b.others):
                self.add(
                    "rules",
                    "changed",
                    f"exclude.{b.subject}",
                    f"{b.subject} cannot be "
                    f"combined with: {', '.join(a.others)} -> {', '.join(b.others)}",
                    ", ".join(a.others),
                    ", ".join(b.others),
                )


def _fmt_source(source: ir.Source | None) -> str:
    if source is None:
        return "none"
    return " ".join(
        x for x in (source.book, source.page, source.detail and f'"{source.detail}"') if x
    )


def _fmt_trigger(t: ir.Trigger) -> str:
    check = f"{shown(t.check)} >= {t.at_least} then " if t.check is not None else ""
    with_ = f" with {', '.join((t.modifier, *t.more_modifiers))}" if t.modifier else ""
    times = f" times {t.times}" if t.times != 1 else ""
    return f"{check}roll {t.table}{with_}{times}"


def _keys(ruleset: ir.Ruleset) -> set[str]:
    return (
        {m.id for m in ruleset.modes}
        | {g.id for g in ruleset.groups}
        | {v.id for c in ruleset.contexts for v in c.values}
    )


def _modifier_path(item: str, modifier: str, key: str, features: set[str]) -> str:
    if item in features:
        return f"{item}.{modifier}" + (f".{key}" if key else "")
    return item + (f".{key}" if key else "")


def _modifier_what(name: str, item: str, key: str, labels: dict[str, str]) -> str:
    return f"{name}, {item}" + (f" ({labels.get(key, key)})" if key else "")


# ---- output -------------------------------------------------------------------------------

SIGNS = {"added": "+", "removed": "-", "changed": "~"}


def render_text(d: Diff, advice: str | None = None) -> str:
    """Changes grouped by level, highest first, one line each with its path."""
    out = [f"{d.old_id} {d.old_version} -> {d.new_id} {d.new_version}"]
    if not d.changes:
        out.append("no changes")
    for level in LEVELS:
        changes = [c for c in d.changes if c.level == level]
        if not changes:
            continue
        out.append(f"{level} ({len(changes)}):")
        out += [f"  {SIGNS[c.action]} {c.message}  [{c.path}]" for c in changes]
    if d.changes:
        counts = ", ".join(f"{d.count(lv)} {lv}" for lv in LEVELS if d.count(lv))
        out.append(f"{len(d.changes)} change{'s' * (len(d.changes) != 1)}: {counts}")
    if advice:
        out.append(advice)
    return "\n".join(out) + "\n"


def to_data(d: Diff, advice: str | None = None) -> dict[str, object]:
    return {
        "old": {"id": d.old_id, "version": d.old_version},
        "new": {"id": d.new_id, "version": d.new_version},
        "level": d.level,
        "counts": {lv: d.count(lv) for lv in LEVELS},
        "changes": [
            {
                "level": c.level,
                "action": c.action,
                "path": c.path,
                "message": c.message,
                "old": c.old,
                "new": c.new,
            }
            for c in d.changes
        ],
        "version_advice": advice,
    }


def to_json(d: Diff, advice: str | None = None) -> str:
    return json.dumps(to_data(d, advice), ensure_ascii=False, indent=2) + "\n"


def _scopes(info: ir.Info) -> tuple[tuple[str, ...], ...]:
    """Per note, whom it is for (``()``: all), as long as the notes."""
    return tuple(info.note_for[i] if i < len(info.note_for) else () for i in range(len(info.notes)))


def _scope_text(info: ir.Info) -> str:
    """``2: for vehicle`` per note for some, for the diff's report."""
    return " / ".join(
        f"{i}: for {', '.join(scope)}" for i, scope in enumerate(_scopes(info), 1) if scope
    )


def _for_known(info: ir.Info, known: set[str]) -> ir.Info:
    """``info`` without the notes for unit types or keywords all gone from ``known``, and
    those names gone from the other notes' scopes."""
    if not info.note_for:
        return info
    notes, scopes = [], []
    for note, scope in zip(info.notes, _scopes(info), strict=True):
        kept = tuple(x for x in scope if x in known)
        if scope and not kept:
            continue
        notes.append(note)
        scopes.append(kept)
    return replace(info, notes=tuple(notes), note_for=tuple(scopes) if any(scopes) else ())
