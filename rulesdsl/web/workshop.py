"""The house-rule workshop's data (issue 38 item 5): which cells a player may change in the
page, their values, and what the downloaded house rule names (its base and version).

Three kinds of cell: a terrain cost, a modifier's value and the totals a dice row gives.

A terrain cost cell (a feature's cost per distance for one unit type) is editable when it is
a number (not a scenario parameter, a marker, or a cost per move such as ``flat 2 in``) and no
kind of move derives its own cost from the feature: the page then re-imports the ruleset's
module with the cell rewritten in ``FEATURES`` and every answer follows (page.js,
"workshop"). A cell a kind of move derives from is listed with those kinds, and the page
says it cannot recompute them rather than show a wrong answer.

A modifier's value (a factor's, or a feature's in the modifier's column) is editable when
every value of its cell is a number (no marker, step or given value) and it has no value for a
pair of context values: the download then restates the whole cell. A dice table's rows are
editable when they follow each other without a gap (the usual table): a total at the edge of
a row may go to the row next to it; the page recomputes the rows' chances and the totals'
rows as the compiler does (page.js, ``_workshopDice``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesdsl import ir
from rulesdsl.i18n import catalog

if TYPE_CHECKING:
    from rulesdsl.codegen.plan import ModulePlan

Data = dict[str, Any]


def workshop_data(rs: ir.Ruleset, plan: ModulePlan) -> Data:
    """The workshop of ``rs``'s page: ``costs`` (feature -> unit type -> its cost, where that
    is a number), ``derived`` (feature -> the kinds of move that derive their own costs from
    it), the base the download extends, the cost unit, and the download's titles, one per
    language in the ruleset's order (the first is written bare)."""
    derived: dict[str, list[str]] = {}
    for kind in plan.movement.moves:
        for feature in kind.costs:
            derived.setdefault(feature, []).append(kind.id)
    per_move = {(c.feature, c.mode) for c in plan.movement.per_move_costs}  # flat, share
    costs = {
        f.id: numbers
        for f in plan.data.features
        if (
            numbers := {
                m: c
                for m, c in f.costs.items()
                if isinstance(c, int | float) and (f.id, m) not in per_move
            }
        )
    }
    titles = [
        [lang, f"{rs.info.labels.get(lang, rs.id)} — {catalog(lang).text('web_workshop')}"]
        for lang in rs.languages
    ]
    base = {"base": rs.id, "version": str(rs.version), "titles": titles}
    units = {"unit": rs.units.get("cost", ""), "modifier_unit": rs.units.get("modifier", "")}
    cells = {"modifiers": _modifier_cells(rs), "dice": _dice_rows(rs)}
    return {**base, "costs": costs, "derived": derived, **units, **cells}


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _modifier_cells(rs: ir.Ruleset) -> Data:
    """modifier -> item -> the path its override names (``full``, ``light_woods.to_hit``) and
    its values by context value (``""``: any other), for each cell of numbers alone."""
    features = {f.id for f in rs.features}
    out: Data = {}
    for m in rs.modifiers:
        factors = {f.id for f in m.factors}
        cells = {}
        for item, by_key in m.values.items():
            path = item if item in factors else f"{item}.{m.id}" if item in features else None
            numbers = all(isinstance(v, ir.Number) for v in by_key.values())
            if path is None or not numbers or "" not in by_key or m.pairs.get(item):
                continue
            values = {k: _number(v.value) for k, v in by_key.items() if isinstance(v, ir.Number)}
            cells[item] = {"path": path, "values": values}
        if cells:
            out[m.id] = cells
    return out


def _dice_rows(rs: ir.Ruleset) -> Data:
    """dice table -> its rows ``[id, low, high]`` (None: open-ended), for each table whose
    rows follow each other without a gap or an overlap."""
    out: Data = {}
    for t in rs.dice_tables:
        ends = [(a.high, b.low) for a, b in zip(t.rows, t.rows[1:], strict=False)]
        if t.rows and all(high is not None and low == high + 1 for high, low in ends):
            out[t.id] = [[r.id, r.low, r.high] for r in t.rows]
    return out
