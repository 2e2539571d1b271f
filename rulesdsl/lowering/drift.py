"""Lowering of the ``drift`` line (issue 40): how far the wind carries each unit type downwind
at the end of its move (docs/language.md, "Drift at the end of a move")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rulesdsl import ir
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering.context import Context
from rulesdsl.lowering.states import _whole as whole


def drifts(
    lw: Context,
    decls: Sequence[s.DriftDecl],
    grids: Sequence[ir.Grid],
    modes: Sequence[ir.Mode],
    states: Sequence[ir.State],
) -> tuple[ir.Drift, ...]:
    """The ruleset's drift line, checked: E441 for a second one."""
    lw.once(
        [d.item for d in decls],
        "E441",
        "a ruleset has one `drift` line",
        "give every unit type its distance on the first `drift` line",
    )
    return tuple(drift(lw, d, grids, modes, states) for d in decls[:1])


def drift(
    lw: Context,
    decl: s.DriftDecl,
    grids: Sequence[ir.Grid],
    modes: Sequence[ir.Mode],
    states: Sequence[ir.State],
) -> ir.Drift:
    """``drift NAME labels : N [when S below B], MODE N, ...``: E440 without a hex or square
    grid (downwind is a grid's direction), E442 for a distance that is not a whole number 0 or
    more, E443 for a name that is not a unit type or keyword, E444 for one given twice, E445
    for two keywords of a unit type that give it different entries, E446 for a bad band."""
    if not grids:
        lw.err(
            "E440",
            "drift goes downwind on a grid, and this ruleset declares none",
            decl.item.name.pos,
            'declare one: `grid hexes "Hex" : 1 hex, hex`',
        )
    entries: list[ir.DriftEntry] = []
    for mode, located, band in decl.entries:
        entry = _entry(lw, mode, located, band, states)
        if entry is None:
            continue
        if any(e.mode == entry.mode for e in entries):
            lw.err(
                "E444",
                f"'{entry.mode or 'all'}' drifts twice on '{decl.item.name.text}'",
                mode.pos if mode is not None else located.pos,
                "give each unit type or keyword one entry, and one for all",
            )
            continue
        entries.append(entry)
    _keyword_clashes(lw, decl, entries, modes)
    return lw.at(
        ir.Drift(decl.item.name.text, lw.info(decl.item), tuple(entries)), decl.item.name.pos
    )


def _entry(
    lw: Context,
    mode: s.Name | None,
    located: s.Located,
    band: tuple[s.Name, str, s.Located] | None,
    states: Sequence[ir.State],
) -> ir.DriftEntry | None:
    """One entry, checked; None when it is in error."""
    ok = True
    if mode is not None and lw.symbols.kind_of(mode.text) not in ("mode", "group"):
        lw.err(
            "E443",
            f"'{mode.text}' is not a unit type or keyword",
            mode.pos,
            "name a declared unit type (`mode`) or keyword (`group`), or leave it out: for all",
        )
        ok = False
    distance = whole(located)
    if distance is None or distance < 0:
        lw.err(
            "E442",
            "a drift is a whole number of places, 0 or more",
            located.pos,
            "write `1` (one place downwind) or `heavy 0` (does not drift)",
        )
        ok = False
    state, op, bound = "", "", 0
    if band is not None:
        name, op, at = band
        found = whole(at)
        if name.text not in {v.id for v in states} or found is None:
            lw.err(
                "E446",
                f"a drift's band names a declared state and a whole number: '{name.text}'",
                name.pos,
                "write `when altitude below 3` with a `state altitude` line",
            )
            ok = False
        state, bound = name.text, found or 0
    if not ok or distance is None:
        return None
    return ir.DriftEntry(distance, mode.text if mode is not None else "", state, op, bound)


def _keyword_clashes(
    lw: Context, decl: s.DriftDecl, entries: Sequence[ir.DriftEntry], modes: Sequence[ir.Mode]
) -> None:
    """E445: a unit type without its own entry whose keywords give it different ones."""
    by_name = {e.mode: e for e in entries}
    for mode in modes:
        if mode.id in by_name:
            continue
        given = {replace(by_name[k], mode="") for k in mode.keywords if k in by_name}
        if len(given) > 1:
            lw.err(
                "E445",
                f"'{mode.id}' drifts by two keywords, differently, on '{decl.item.name.text}'",
                decl.item.name.pos,
                f"give '{mode.id}' its own entry",
            )
