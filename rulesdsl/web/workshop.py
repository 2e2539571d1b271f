"""The house-rule workshop's data (issue 38 item 5): which cells a player may change in the
page, their values, and what the downloaded house rule names (its base and version).

A terrain cost cell (a feature's cost per distance for one unit type) is editable when it is
a number (not a scenario parameter, a marker, or a cost per move such as ``flat 2 in``) and no
kind of move derives its own cost from the feature: the page then re-imports the ruleset's
module with the cell rewritten in ``FEATURES`` and every answer follows (page.js,
"workshop"). A cell a kind of move derives from is listed with those kinds, and the page
says it cannot recompute them rather than show a wrong answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesdsl.i18n import catalog

if TYPE_CHECKING:
    from rulesdsl import ir
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
    return {**base, "costs": costs, "derived": derived, "unit": rs.units.get("cost", "")}
