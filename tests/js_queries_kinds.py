"""Questions for the differential test of the JavaScript target on kinds of move limited to
some unit types (issue 40, item 5, ``only infantry``): every unit type (and a name that is none)
asked for every kind of move, by move_cost, can_enter and rolls_due, so that both modules refuse
the same kinds with the same error and answer the others alike."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from rulesdsl.codegen.plan import ModulePlan
from tests.js_queries import Query


def kind_queries(plan: ModulePlan) -> Iterator[Query]:
    modes = [m.id for m in plan.header.modes] + ["nobody", 3]
    feature = plan.data.features[0].id
    for mode, kind in itertools.product(modes, [k.id for k in plan.movement.moves]):
        for function in ("move_cost", "can_enter"):
            yield {"function": function, "args": [mode, feature], "kwargs": {"move": kind}}
        args = [mode, feature]
        yield {"function": "rolls_due", "args": args, "kwargs": {"move": kind}, "full": True}
