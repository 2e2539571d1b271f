"""Random questions of movement for the differential test of the JavaScript target (issue 37):
move_cost, can_enter, can_end, must_stop, rolls_due and path_cost, with valid and invalid
arguments (misspelt unit types, features and kinds of move, places with two features of a
one-per-place layer, numbers out of range or of the wrong type, step inputs, keyword
arguments the function does not take), drawn from a ruleset's module plan."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries as q

Query = dict[str, Any]


def place(rng: random.Random, plan: ModulePlan) -> list[Any]:
    """A place's features: mostly one of each one-per-place layer (as a map has them), at
    times two of one, a feature twice, a dice outcome that feeds the cost, or a misspelling."""
    features = plan.data.features
    names = [f.id for f in features] + list(plan.sight.fed_outcomes)
    picked = [q.name_or_not(rng, names, 0.04) for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4]))]
    if rng.random() < 0.8:  # at most one per one-per-place layer
        layers = {f.id: f.layer for f in features}
        seen: set[str] = set()
        kept = []
        for name in picked:
            layer = layers.get(name) if isinstance(name, str) else None
            if layer in plan.data.one_per_place:
                if layer in seen:
                    continue
                seen.add(layer)
            kept.append(name)
        picked = kept
    return picked


def _mode(rng: random.Random, plan: ModulePlan) -> Any:
    return q.name_or_not(rng, [m.id for m in plan.header.modes], 0.05)


def _options(rng: random.Random, plan: ModulePlan, first: str) -> dict[str, Any]:
    """The keyword arguments of move_cost (``first``: "distance") or can_enter ("available")."""
    movement = plan.movement
    kwargs: dict[str, Any] = {}
    if rng.random() < 0.5:
        kwargs[first] = q.number(rng, -1, 12)
    if rng.random() < 0.25:
        kwargs["allowance"] = q.number(rng, -1, 12)
    if rng.random() < (0.4 if movement.moves else 0.03):
        kwargs["move"] = q.name_or_not(rng, [k.id for k in movement.moves], 0.1)
    for name in movement.cost_inputs:
        if rng.random() < 0.6:
            kwargs[name] = q.number(rng, -1, 8)
    if rng.random() < 0.02:
        kwargs["nothing"] = 1
    return kwargs


def cost_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    for _ in range(300):
        args = [_mode(rng, plan), *place(rng, plan)]
        yield {"function": "move_cost", "args": args, "kwargs": _options(rng, plan, "distance")}
    for _ in range(120):
        args = [_mode(rng, plan), *place(rng, plan)]
        yield {"function": "can_enter", "args": args, "kwargs": _options(rng, plan, "available")}


def state_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    for function in ("can_end", "must_stop"):
        for _ in range(50):
            yield {
                "function": function,
                "args": [_mode(rng, plan), *place(rng, plan)],
                "kwargs": {},
            }


def rolls_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    movement = plan.movement
    for _ in range(120 if movement.rolls else 20):
        kwargs: dict[str, Any] = {}
        if rng.random() < (0.4 if movement.moves else 0.03):
            kwargs["move"] = q.name_or_not(rng, [k.id for k in movement.moves], 0.1)
        if rng.random() < 0.6:
            kwargs["on"] = q.name_or_not(rng, list(movement.roll_order), 0.1)
        if rng.random() < 0.02:
            kwargs["nothing"] = 1
        args = [_mode(rng, plan), *place(rng, plan)]
        yield {"function": "rolls_due", "args": args, "kwargs": kwargs, "full": True}


def _steps(rng: random.Random) -> Any:
    pick = rng.random()
    if pick < 0.4:
        return "".join(rng.choice("sd") for _ in range(rng.randint(0, 8)))
    if pick < 0.9:
        words = ["straight", "diagonal", "s", "d"]
        return [q.name_or_not(rng, words, 0.05) for _ in range(rng.randint(0, 6))]
    return rng.choice([None, 3, True, {"s": 1}, "sxd"])


def path_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    grids = plan.movement.grids
    units = list(grids[0].sizes) if grids else []
    for _ in range(80 if grids else 5):
        unit = q.name_or_not(rng, units, 0.1) if rng.random() < 0.6 else None
        args = [_steps(rng)] + ([unit] if rng.random() < 0.3 else [])
        kwargs: dict[str, Any] = {"unit": unit} if len(args) == 1 and unit is not None else {}
        if rng.random() < 0.03:
            kwargs["nothing"] = 1
        yield {"function": "path_cost", "args": args, "kwargs": kwargs}


def queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    """Every movement question, in turn."""
    yield from cost_queries(rng, plan)
    yield from state_queries(rng, plan)
    yield from rolls_queries(rng, plan)
    yield from path_queries(rng, plan)


def full(value: Any) -> list[dict[str, Any]]:
    """The Python module's rolls due in full (as the runner's ``rolls(dues, true)``)."""
    return [{"rolls": [[*due[:7], list(due.features), due.move] for due in value]}]
