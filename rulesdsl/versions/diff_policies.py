"""`rulesdsl diff` for modifier policies, clamps, two contexts and keyword precedence (issue 11).

A change to how a modifier combines (``combine``), to its bounds (``clamp``) or to the
precedence between groups is ``breaking`` when it changes an answer of the generated module
(some modifier total, cost or value for a mode), else ``rules`` (the sheet still changes). The
answers are computed by :mod:`rulesdsl.semantics` on the new ruleset, once with the old policy
and once with the new, so that other changes made at the same time do not count. A change of
second context renames the module's keyword arguments: ``breaking``. Combinations of two
context values (``a & b``) are compared one by one like other modifier values.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from rulesdsl import editions, ir, semantics
from rulesdsl.spelling import number


@dataclass(frozen=True)
class PolicyChange:
    """A changed policy, clamp, second context or precedence, already graded."""

    level: Literal["breaking", "rules"]
    path: str
    message: str
    old: str | None
    new: str | None


@dataclass(frozen=True)
class PairChange:
    """A combination ``a & b`` of one item whose value changed, was added or removed; the
    caller grades it as any other modifier value."""

    path: str
    what: str
    old: ir.Value | None
    new: ir.Value | None


Found = PolicyChange | PairChange

CellOrders = tuple[ir.Cell, Sequence[Sequence[str]], Sequence[Sequence[str]]]
"""A cell, with the order of keywords it was read in before and the one it is read in now."""


def changes(old: ir.Ruleset, new: ir.Ruleset) -> list[Found]:
    """The policy, clamp, second-context, combination and precedence changes."""
    out: list[Found] = []
    before = {m.id: m for m in old.modifiers}
    for b in new.modifiers:
        a = before.get(b.id)
        if a is not None:
            out += _modifier(new, a, b)
    out += _precedence(old, new)
    return out


def _label(info: ir.Info, fallback: str, rs: ir.Ruleset) -> str:
    return next((info.labels[lang] for lang in rs.languages if lang in info.labels), fallback)


def _clamp(c: ir.Clamp | None) -> str:
    return "none" if c is None else f"{number(c.low)} to {number(c.high)}"


def _best(groups: tuple[ir.BestGroup, ...]) -> str:
    """Best groups as the language writes them, for the changelog (``none`` for none)."""
    return (
        "; ".join(f"{g.id} combine {g.combine}: {', '.join(g.members)}" for g in groups) or "none"
    )


def _modifier(new: ir.Ruleset, a: ir.Modifier, b: ir.Modifier) -> list[Found]:
    out: list[Found] = []
    name = _label(b.info, b.id, new)
    if a.combine != b.combine:
        level: Literal["breaking", "rules"] = (
            "breaking" if _answers_differ(new, b, combine=a.combine) else "rules"
        )
        out.append(
            PolicyChange(
                level,
                f"{b.id}.combine",
                f"{name}: values combine by {b.combine} (was {a.combine})",
                a.combine,
                b.combine,
            )
        )
    if a.clamp != b.clamp:
        level = "breaking" if _answers_differ(new, b, clamp=a.clamp) else "rules"
        out.append(
            PolicyChange(
                level,
                f"{b.id}.clamp",
                f"{name}: total clamped {_clamp(b.clamp)} (was {_clamp(a.clamp)})",
                _clamp(a.clamp),
                _clamp(b.clamp),
            )
        )
    if _best(a.best) != _best(b.best):
        level = "breaking" if _answers_differ(new, b, best=a.best) else "rules"
        out.append(
            PolicyChange(
                level,
                f"{b.id}.best",
                f"{name}: best of {_best(b.best)} (was {_best(a.best)})",
                _best(a.best),
                _best(b.best),
            )
        )
    out += _sights(name, a, b)
    if a.context2 != b.context2:
        out.append(
            PolicyChange(
                "breaking",
                b.id,
                f"{name}: second context {b.context2 or 'none'} instead of {a.context2 or 'none'}",
                a.context2,
                b.context2,
            )
        )
    else:
        out += _pairs(name, a, b)
    return out


def _sights(name: str, a: ir.Modifier, b: ir.Modifier) -> list[Found]:
    """Factors read along a line of sight: one that goes, or reads another rule, is breaking
    (a caller's line is refused or answered otherwise); a new one changes the rules only."""
    was = {f.id: f.rule for f in a.sights}
    now = {f.id: f.rule for f in b.sights}
    if was == now:
        return []
    level: Literal["breaking", "rules"] = (
        "breaking" if any(now.get(f) != rule for f, rule in was.items()) else "rules"
    )
    said = {
        k: "; ".join(f"{f} ({r})" for f, r in v.items()) or "none"
        for k, v in (("a", was), ("b", now))
    }
    return [
        PolicyChange(
            level,
            f"{b.id}.sight",
            f"{name}: read along a line of sight: {said['b']} (was {said['a']})",
            said["a"],
            said["b"],
        )
    ]


def _pairs(name: str, a: ir.Modifier, b: ir.Modifier) -> Iterator[Found]:
    for item in dict.fromkeys([*a.pairs, *b.pairs]):
        was = {(p.first, p.second): p.value for p in a.pairs.get(item, ())}
        now = {(p.first, p.second): p.value for p in b.pairs.get(item, ())}
        for key in dict.fromkeys([*was, *now]):
            yield PairChange(
                f"{item}.{b.id}.{key[0]}&{key[1]}",
                f"{name}, {item} for {key[0]} & {key[1]}",
                was.get(key),
                now.get(key),
            )


def _answers_differ(rs: ir.Ruleset, mod: ir.Modifier, **was: object) -> bool:
    """Whether ``mod`` answers differently with its old policy or clamp (``was``), over every
    one or two of its items (one given twice too) and every context value or none."""
    old_mod = replace(mod, **was)  # type: ignore[arg-type]
    old_rs = replace(rs, modifiers=tuple(old_mod if m.id == mod.id else m for m in rs.modifiers))
    contexts = {c.id: [v.id for v in c.values] for c in rs.contexts}
    firsts = ["", *contexts.get(mod.context or "", [])]
    seconds = ["", *contexts.get(mod.context2 or "", [])]
    items = [
        i
        for i in mod.values
        if not any(isinstance(v, ir.Given | ir.StepCost) for v in mod.values[i].values())
    ]
    for chosen in [*([i] for i in items), *itertools.product(items, repeat=2)]:
        for first in firsts:
            for second in seconds:
                now = semantics.modifier(rs, mod.id, chosen, first, None, second)
                then = semantics.modifier(old_rs, mod.id, chosen, first, None, second)
                if now != then:
                    return True
    return False


def _precedence(old: ir.Ruleset, new: ir.Ruleset) -> list[Found]:
    was = [p.groups for p in old.precedence]
    now = [p.groups for p in new.precedence]
    out = _place_orders(old, new, now)
    if semantics.precedes(was) == semantics.precedes(now):
        return out
    orders: list[CellOrders] = [(f.cell, was, now) for m in new.modifiers for f in m.factors]
    for f in new.features:
        layer = _layer_line(new, f.layer)
        then = semantics.local_order(f.precedence, semantics.local_order(layer, was))
        orders += [(c, then, semantics.place_order(new, f)) for c in f.cells.values()]
    level: Literal["breaking", "rules"] = "breaking" if _choices_differ(new, orders) else "rules"
    text = "; ".join(", ".join(line) for line in now) or "none"
    before = "; ".join(", ".join(line) for line in was) or "none"
    return [
        PolicyChange(
            level,
            "precedence",
            f"precedence between groups: {text} (was {before})",
            before,
            text,
        ),
        *out,
    ]


def _layer_line(rs: ir.Ruleset, layer: str) -> tuple[str, ...]:
    return next((x.precedence for x in rs.layers if x.id == layer), ())


def _place_orders(old: ir.Ruleset, new: ir.Ruleset, lines: Sequence[Sequence[str]]) -> list[Found]:
    """A layer's or a feature's own ``precedence`` changed (issue 40): ``breaking`` when some
    cell of the features it covers gives some mode another value (both read before the new
    ruleset's lines, so that a change of those lines counts once, as such), else ``rules``."""
    out: list[Found] = []
    before = {x.id: x for x in old.layers}
    features = {f.id: f for f in old.features}
    for layer in new.layers:
        a = before.get(layer.id)
        was = a.precedence if a is not None else ()
        kept = [f for f in new.features if f.layer == layer.id]
        if a is not None and was != layer.precedence:
            orders = [
                (c, semantics.local_order(f.precedence, semantics.local_order(was, lines)), now)
                for f in kept
                for now in [semantics.place_order(new, f)]
                for c in f.cells.values()
            ]
            out.append(_order_change(new, layer.id, layer.info, was, layer.precedence, orders))
        for f in kept:
            g = features.get(f.id)
            if g is None or g.precedence == f.precedence:
                continue
            outer = semantics.local_order(layer.precedence, lines)
            then = semantics.local_order(g.precedence, outer)
            now = semantics.local_order(f.precedence, outer)
            orders = [(c, then, now) for c in f.cells.values()]
            out.append(_order_change(new, f.id, f.info, g.precedence, f.precedence, orders))
    return out


def _order_change(
    rs: ir.Ruleset,
    item: str,
    info: ir.Info,
    was: Sequence[str],
    now: Sequence[str],
    orders: Sequence[CellOrders],
) -> PolicyChange:
    level: Literal["breaking", "rules"] = "breaking" if _choices_differ(rs, orders) else "rules"
    text, before = ", ".join(now) or "none", ", ".join(was) or "none"
    return PolicyChange(
        level,
        f"{item}.precedence",
        f"{_label(info, item, rs)}: precedence between groups there: {text} (was {before})",
        before,
        text,
    )


def _choices_differ(
    rs: ir.Ruleset,
    orders: Sequence[CellOrders],
) -> bool:
    """Whether some cell gives some mode another group's value under its first order than
    under its second (``orders``: each cell with both)."""
    everyone = editions.unnamed_keyword_counts(rs.edition)
    for cell, was, now in orders:
        for mode in rs.modes:
            if mode.id in cell.exceptions:
                continue
            named = everyone and cell.default is not None
            then, _ = semantics.group_choice(cell.exceptions, mode.id, rs.groups, was, named)
            chosen, _ = semantics.group_choice(cell.exceptions, mode.id, rs.groups, now, named)
            if then != chosen and (
                not then or not chosen or cell.exceptions[then] != cell.exceptions[chosen]
            ):
                return True
    return False
