"""Random questions of named arcs for the differential test of the JavaScript target (issue 40):
``arc`` by a bearing and a heading, and ``arc_between`` on hex and square grids (places and a
grid heading, shooters on the spines between hexsides now and then) and off the grid
(coordinates and a compass heading), with valid and invalid names, grids, places and
headings."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries as q

_ODD_PLACES: tuple[Any, ...] = ([0], [0, 0, 0], "a", None, [True, 0], [0.5, 1], [[0], 1])


def _place(rng: random.Random, whole: bool) -> Any:
    if rng.random() < 0.04:
        return rng.choice([*_ODD_PLACES, [0, {"$float": "nan"}]])
    if whole:
        return [rng.randint(-4, 4), rng.randint(-4, 4)]
    return [q.number(rng, -10, 10) if rng.random() < 0.97 else "1", rng.randint(-10, 10)]


def arc_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    names = [a.id for a in plan.movement.arcs]
    if not names:
        return
    grids: list[Any] = [None, None, "hex", "square", *(g.id for g in plan.movement.grids)]
    for _ in range(60 * len(names)):
        arcs = q.name_or_not(rng, names, 0.05)
        if rng.random() < 0.4:
            bearing = rng.choice([0, 30, 60, 90, 120, 180, 240, 300, -60, 360, 420, -420])
            bearing = bearing if rng.random() < 0.5 else q.number(rng, -400, 800)
            kwargs = {"heading": q.number(rng, -200, 400)} if rng.random() < 0.5 else {}
            yield {"function": "arc", "args": [arcs, bearing], "kwargs": kwargs}
            continue
        grid = rng.choice(grids) if rng.random() > 0.03 else rng.choice(["hexes", 2])
        whole = grid is not None
        heading: Any = rng.randrange(9) if whole else q.number(rng, -90, 400)
        if rng.random() < 0.03:
            heading = rng.choice([True, 2.5, "1", -1])
        target = _place(rng, whole)
        other = _place(rng, whole) if rng.random() < 0.95 else target
        kwargs = {"grid": grid} if grid is not None or rng.random() < 0.5 else {}
        yield {"function": "arc_between", "args": [arcs, target, heading, other], "kwargs": kwargs}


Query = q.Query
