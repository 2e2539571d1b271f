"""Questions for the differential test of the JavaScript target on keyword precedence per place
(issue 40, item 9): every unit type in every feature, alone and beside each other feature, asked
as a movement cost, a modifier keyed by unit type and a line of sight seen by that unit type.
The answers come from the data each emitter writes from the plan (each feature's cells read in
its own order at build time), so these are asked exhaustively rather than at random.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from rulesdsl.codegen.plan import ModulePlan
from tests.js_queries import Query


def place_order_queries(plan: ModulePlan) -> Iterator[Query]:
    modes = [m.id for m in plan.header.modes]
    features = [f.id for f in plan.data.features]
    places = [[f] for f in features] + [list(p) for p in itertools.combinations(features, 2)]
    by_mode = [m.id for m in plan.data.modifiers if m.context == "mode"]
    for mode, place in itertools.product(modes, places):
        yield {"function": "move_cost", "args": [mode, *place], "kwargs": {}}
        for modifier in by_mode:
            yield {"function": "modifier", "args": [modifier, *place], "kwargs": {"mode": mode}}
        for rule in plan.sight.rules:
            line = [["clear"], place, ["clear"]]
            yield {"function": "line_of_sight", "args": [rule.id, *line], "kwargs": {"mode": mode}}
