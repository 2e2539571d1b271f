"""Keywords, precedence and the value a cell gives a unit type (issue 11, items 3-5; issue 25,
item 7): which entry of a cell speaks for a mode, by its own key, its keywords' precedence
(a keyword the cell does not name standing for the value for everyone) or the value for
everyone. :mod:`rulesdsl.semantics` re-exports every name here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rulesdsl import ir

# ---- movement costs -----------------------------------------------------------------------


def written_cost(
    cell: ir.Cell,
    mode: str,
    groups: Sequence[ir.Group],
    precedence: Sequence[Sequence[str]] = (),
    unnamed: bool = True,
) -> ir.Value | None:
    """The value a cost cell gives ``mode``: its own exception, else the value of the group
    that holds it and wins by :func:`group_choice` (the value for all when that is a keyword
    the cell does not name, if ``unnamed``: the edition's reading,
    :func:`rulesdsl.editions.unnamed_keyword_counts`), else the value for all (None when the
    cell has none)."""
    if mode in cell.exceptions:
        return cell.exceptions[mode]
    if not cell.exceptions:  # no group to choose (most cells: asked per feature and mode)
        return cell.default
    chosen, _ = group_choice(
        cell.exceptions, mode, groups, precedence, everyone=unnamed and cell.default is not None
    )
    if chosen:
        return cell.exceptions[chosen]
    return cell.default


# ---- keywords: groups, and the precedence between them ----------------------------------------


def precedes(precedence: Sequence[Sequence[str]]) -> frozenset[tuple[str, str]]:
    """Every pair (a, b) where group a wins over group b: a is listed before b on a
    ``precedence`` line, or through a chain of lines (the transitive closure)."""
    pairs = {
        (a, b) for line in precedence for i, a in enumerate(line) for b in line[i + 1 :] if a != b
    }
    while True:
        more = {(a, d) for a, b in pairs for c, d in pairs if b == c and a != d} - pairs
        if not more:
            return frozenset(pairs)
        pairs |= more


def local_order(local: Sequence[str], outer: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """The order of keywords where a layer or a feature names its own (``precedence infantry,
    fly``, issue 40): its line first, then every pair ``outer`` orders (through chains too)
    that the line does not order the other way. ``outer`` alone when there is no line."""
    if not local:
        return [tuple(line) for line in outer]
    mine = precedes([local])
    kept = [(a, b) for a, b in sorted(precedes(outer)) if (b, a) not in mine] if outer else []
    return [tuple(local), *kept]


def place_order(rs: ir.Ruleset, feature: ir.Feature) -> list[tuple[str, ...]]:
    """The order of keywords that holds for ``feature``'s cells: its own ``precedence`` line,
    then its layer's, then the ruleset's lines (:func:`local_order`). Each feature's cells are
    read in its own order, so two features of a place never disagree: each speaks for its own
    cell, and the place adds up their answers as stacking says."""
    lines = [p.groups for p in rs.precedence]
    layer = next((x.precedence for x in rs.layers if x.id == feature.layer), ())
    return local_order(feature.precedence, local_order(layer, lines))


def group_choice(
    values: Mapping[str, object],
    mode: str,
    groups: Sequence[ir.Group],
    precedence: Sequence[Sequence[str]] = (),
    everyone: bool = False,
) -> tuple[str | None, tuple[str, str] | None]:
    """Which group's value a ``mode`` with no value of its own takes from ``values`` (keyed by
    group): the one group that holds the mode and has a value, or among several the one that
    wins over all the others by ``precedence``; groups that give the same value do not
    disagree. Second: two groups that disagree with no precedence between them (the cell is
    ambiguous for the mode; the first declared of the two is then chosen).

    ``everyone``: the cell has a value for everyone. A keyword of the mode that the cell does
    not name then stands for that value, and when ``precedence`` puts it before every keyword
    of the mode that the cell names, it wins: the answer is ``""``, the value for everyone
    (issue 25: ``precedence fly, vehicle`` with ``2, vehicle 3`` gives a flying vehicle 2)."""
    holding = [g.id for g in groups if mode in g.members and g.id in values]
    if not holding:
        return None, None
    order = precedes(precedence) if precedence else frozenset()
    if everyone and order:
        unnamed = [g.id for g in groups if mode in g.members and g.id not in values]
        if any(all((u, h) in order for h in holding) for u in unnamed):
            return "", None
    if len(holding) == 1:
        return holding[0], None
    for g in holding:
        if all(
            h == g or (g, h) in order or ((h, g) not in order and values[h] == values[g])
            for h in holding
        ):
            return g, None
    for i, a in enumerate(holding):
        for b in holding[i + 1 :]:
            if (a, b) not in order and (b, a) not in order and values[a] != values[b]:
                return a, (a, b)
    return holding[0], (holding[0], holding[1])


def written_key(
    values: Mapping[str, object],
    mode: str,
    groups: Sequence[ir.Group],
    precedence: Sequence[Sequence[str]] = (),
    unnamed: bool = True,
) -> str | None:
    """Which entry of a cell (``values`` by key, ``""`` for all) speaks for ``mode``, in
    :func:`written_cost`'s order (``unnamed`` as there): its own key, else the group that wins
    by :func:`group_choice`, else the entry for all."""
    if mode in values:
        return mode
    chosen, _ = group_choice(values, mode, groups, precedence, everyone=unnamed and "" in values)
    if chosen is not None:
        return chosen
    return "" if "" in values else None


def shadowing_keyword(
    values: Mapping[str, object],
    mode: str,
    groups: Sequence[ir.Group],
    precedence: Sequence[Sequence[str]] = (),
) -> tuple[str, str] | None:
    """(higher, lower) when the answer a cell (``values`` by key, ``""`` for everyone) gives
    ``mode`` comes from its keyword ``lower`` although it carries ``higher``, which comes first
    by ``precedence`` and which the cell does not name: the trap W262 warns of (a cell with no
    value for everyone, so ``higher`` has nothing to give). None otherwise."""
    if mode in values:
        return None
    chosen, _ = group_choice(values, mode, groups, precedence, everyone="" in values)
    if not chosen:
        return None
    order = precedes(precedence) if precedence else frozenset()
    for g in groups:
        if mode in g.members and g.id not in values and (g.id, chosen) in order:
            return g.id, chosen
    return None
