"""Random route questions for the differential test of the JavaScript target (issue 37):
``route_cost``, ``cheapest_route``, ``reachable``, ``Board`` and ``Board.neighbours`` on random
boards of each grid the ruleset declares, of "hex" and "square", and of neighbours functions,
with valid and invalid places, edges, modes, allowances, kinds of move and ``entered``.

A query carries its board as a spec (``"board"``), which each side builds into its own
``Board``: ``places`` and ``edges`` as lists of [key, features] pairs (a Python dict, a
JavaScript Map), ``neighbours`` as a list of [place, [places next to it]] (a function), or
``{"raw": value}`` for a value given as is. A place written as a JSON array is a Python tuple
(a JavaScript array); the answers are compared in full (every field of a Route, RouteStep,
RollDue and Reach).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from tests import js_queries

_HEX: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_SQUARE: tuple[tuple[int, int], ...] = ((1, 0), (0, -1), (-1, 0), (0, 1))
_DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
_ODD_PLACES: tuple[Any, ...] = ({"a": 1}, [9, 9], "far", 99, None, [0.5, 0], [[0, 0]])
"""Places no board of the test holds, or that Python cannot hash."""


# ---- drawing boards ----------------------------------------------------------------------------


def _features(rng: random.Random, plan: ModulePlan) -> list[Any]:
    """A place's features: one of a layer of places, sometimes one of a layer of many or a
    whole-map condition beside it."""
    layers = plan.header.layers
    one = [f for layer in layers if layer.scope == "one" for f in layer.features]
    many = [f for layer in layers if layer.scope in ("many", "map") for f in layer.features]
    one = one or [f.id for f in plan.data.features]
    chosen = [rng.choice(one)] if one else []
    if many and rng.random() < 0.25:
        chosen.append(rng.choice(many))
    return chosen


def _wrong_features(rng: random.Random, plan: ModulePlan) -> list[Any]:
    """A place's features that Board refuses (or, now and then, takes after all)."""
    chosen: list[Any] = _features(rng, plan)
    edges = [f for layer in plan.header.layers if layer.scope == "edges" for f in layer.features]
    pick = rng.random()
    if pick < 0.5 and edges:
        return [*chosen, rng.choice(edges)]
    if pick < 0.6 and chosen:
        return [*chosen, rng.choice([*chosen, *_features(rng, plan)])]  # twice, or two of a layer
    return [*chosen, js_queries.mangled(rng, chosen[0] if chosen else "clear")]


def _edge_features(rng: random.Random, plan: ModulePlan) -> list[Any]:
    edges = [f for layer in plan.header.layers if layer.scope == "edges" for f in layer.features]
    chosen: list[Any] = [rng.choice(edges) for _ in range(rng.choice([1, 1, 2]))]
    if rng.random() < 0.05:
        chosen.append(rng.choice(["clear", "nothing", 3]))
    return chosen


Steps = tuple[tuple[int, int], ...]


def _grids(plan: ModulePlan) -> list[tuple[str, Steps, float]]:
    """Each grid a board may name: (name, its steps, a diagonal's distance or 0)."""
    declared = {g.id: g for g in plan.movement.grids}
    out: list[tuple[str, Steps, float]] = []
    for name in [*declared, "hex", "square"]:
        shape = name if name in ("hex", "square") else declared[name].shape
        diagonal = declared[name].diagonal if name in declared else None
        out.append((name, _HEX if shape == "hex" else _SQUARE, diagonal or 0.0))
    return out


def _grid_board(rng: random.Random, plan: ModulePlan) -> tuple[dict[str, Any], Any]:
    """A grid board's spec and its neighbours as a function of a place (for drawing routes)."""
    name, steps, diagonal = rng.choice(_grids(plan))
    width, height = rng.randint(1, 5), rng.randint(1, 4)
    cells = [(x, y) for x in range(width) for y in range(height) if rng.random() > 0.15]
    places: dict[Any, Any] = {cell: _features(rng, plan) for cell in cells}
    again = [[True, y] for x, y in cells if x == 1 and rng.random() < 0.1]  # (1, y) given again
    moves = [(d, 1.0) for d in steps] + [(d, diagonal) for d in _DIAGONAL if diagonal]

    def near(p: Any) -> list[tuple[Any, float]]:
        x, y = p
        return [((x + dx, y + dy), d) for (dx, dy), d in moves if (x + dx, y + dy) in places]

    edges: dict[Any, Any] = {}
    if any(layer.scope == "edges" for layer in plan.header.layers):
        for p in cells:
            for q, _ in near(p):
                if rng.random() < 0.3:
                    edges[p, q] = _edge_features(rng, plan)
                    if rng.random() < 0.7:
                        edges[q, p] = edges[p, q]
    grid: Any = name if rng.random() > 0.05 else js_queries.mangled(rng, name)
    spec = {
        "places": [[list(p), f] for p, f in places.items()]
        + [[p, _features(rng, plan)] for p in again],
        "edges": [[[list(a), list(b)], f] for (a, b), f in edges.items()] if edges else None,
        "grid": grid,
        "neighbours": None,
    }
    return spec, near


def _graph_board(rng: random.Random, plan: ModulePlan) -> tuple[dict[str, Any], Any]:
    """A board whose neighbours are a function: places named by ints or strings."""
    count = rng.randint(1, 7)
    names: list[Any] = list(range(count)) if rng.random() < 0.5 else list("abcdefg"[:count])
    places = {p: _features(rng, plan) for p in names}
    adjacent = {p: rng.sample(names, rng.randint(0, min(3, count))) for p in names}
    for p in names:
        if rng.random() < 0.1:
            adjacent[p].append("elsewhere")  # not on the board: left out

    def near(p: Any) -> list[tuple[Any, float]]:
        return [(q, 1.0) for q in adjacent.get(p, []) if q in places]

    spec = {
        "places": [[p, f] for p, f in places.items()],
        "edges": None,
        "grid": None,
        "neighbours": [[p, a] for p, a in adjacent.items()],
    }
    return spec, near


def _odd_board(rng: random.Random, plan: ModulePlan, spec: dict[str, Any]) -> dict[str, Any]:
    """The spec with one argument of Board wrong (a place's features, twice as often)."""
    pick = min(rng.randrange(7), 4)
    if pick == 0:
        return {**spec, "places": {"raw": rng.choice([None, 3, "places", [1, 2]])}}
    if pick == 1:
        return {**spec, "edges": {"raw": rng.choice([3, "edges", [1]])}}
    if pick == 2:
        return {**spec, "grid": None, "neighbours": None}
    if pick == 3:
        return {**spec, "neighbours": {"raw": rng.choice([3, "near", [1]])}}
    if pick == 4 and spec["places"]:
        place, _ = rng.choice(spec["places"])
        bad = rng.choice(["clear", None, 3, [3], [None], *[_wrong_features(rng, plan)] * 4])
        return {**spec, "places": [*spec["places"], [place, bad]]}
    off = rng.choice([[0.5, 1], "a", [1, 2, 3], [True, 0]])
    return {**spec, "places": [[off, ["clear"]], *spec["places"]]}


# ---- drawing questions -------------------------------------------------------------------------


def _place(rng: random.Random, places: list[Any]) -> Any:
    if not places or rng.random() < 0.06:
        return rng.choice(_ODD_PLACES)
    return rng.choice(places)


def _walk(rng: random.Random, places: list[Any], near: Callable[[Any], Any]) -> list[Any]:
    """A route: a walk from a random place, now and then off the board or a jump."""
    if not places:
        return [_place(rng, places)]
    route = [rng.choice(places)]
    for _ in range(rng.randint(0, 6)):
        nexts = near(route[-1])
        if rng.random() < 0.04:
            route.append(_place(rng, places))  # a jump, or off the board
            break
        if not nexts:
            break
        route.append(rng.choice(nexts)[0])
    return route


def _options(rng: random.Random, plan: ModulePlan, places: list[Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    if rng.random() < 0.4:
        kwargs["allowance"] = js_queries.number(rng, 0, 10)
    moves = [k.id for k in plan.movement.moves]
    if rng.random() < (0.4 if moves else 0.05):
        kwargs["move"] = js_queries.name_or_not(rng, moves, 0.15)
    if rng.random() < 0.01:
        kwargs[rng.choice(["distance", "allowances"])] = 1  # an option the function does not take
    return kwargs


def _entered(rng: random.Random, places: list[Any]) -> Any:
    if rng.random() < 0.05:
        return rng.choice([3, "a", None])
    return [_place(rng, places) for _ in range(rng.randint(0, 3))]


def route_queries(rng: random.Random, plan: ModulePlan) -> Iterator[js_queries.Query]:
    """Boards of every kind, and the route questions on each."""
    facing = {f.mode for f in plan.movement.facings}
    modes = [m.id for m in plan.header.modes if m.id not in facing]
    for _ in range(60):
        spec, near = (_grid_board if rng.random() < 0.7 else _graph_board)(rng, plan)
        places = [tuple(p) if isinstance(p, list) else p for p, _ in spec["places"]]
        if rng.random() < 0.15:
            spec = _odd_board(rng, plan, spec)
        elif rng.random() < 0.05 and places:  # a place Board refuses, among right ones
            spec = {**spec, "places": [*spec["places"], [places[0], _wrong_features(rng, plan)]]}
        yield {"function": "Board", "board": spec, "args": [], "kwargs": {}}
        yield {"function": "neighbours", "board": spec, "args": [_place(rng, places)], "kwargs": {}}
        if rng.random() < 0.03:
            spec = {"raw": rng.choice([None, 3, "board"])}  # not a Board
        for _ in range(3):
            mode = js_queries.name_or_not(rng, modes, 0.06)
            kwargs = _options(rng, plan, places)
            if rng.random() < 0.3:
                kwargs["entered"] = _entered(rng, places)
            route: Any = _walk(rng, places, near)
            if rng.random() < 0.02:
                route = rng.choice([5, "route", None])
            yield {"function": "route_cost", "board": spec, "args": [mode, route], "kwargs": kwargs}
            ends = [_place(rng, places), _place(rng, places)]
            twice = rng.random() < 0.1  # asked twice of one board: the second answer compared
            yield {
                "function": "cheapest_route",
                "board": spec,
                "args": [mode, *ends],
                "kwargs": kwargs,
                "twice": twice,
            }
            budget = js_queries.number(rng, 0, 12)
            start = _place(rng, places)
            yield {
                "function": "reachable",
                "board": spec,
                "args": [mode, start, budget],
                "kwargs": {k: v for k, v in kwargs.items() if k != "entered"},
                "twice": twice,
            }
    yield from unhashable_queries(plan)


def unhashable_queries(plan: ModulePlan) -> Iterator[js_queries.Query]:
    """A mode, and a place a neighbours function gives, that Python cannot hash (the module's
    ArgumentTypeError; looked up among the modes with facing, or in the board's places, before
    they were checked, both were Python's TypeError): drawn from a generator of their own."""
    rng = random.Random(f"{plan.header.id} unhashable")
    facing = {f.mode for f in plan.movement.facings}
    modes = [m.id for m in plan.header.modes if m.id not in facing]
    modes = modes or [m.id for m in plan.header.modes] or ["none"]  # facing: the board refused
    near = [["a", [{"a": 1}, "b"]], ["b", ["a"]]]  # "a" gives a dict among its places
    spec = {
        "places": [["a", _features(rng, plan)], ["b", _features(rng, plan)]],
        "edges": None,
        "grid": None,
        "neighbours": near,
    }
    for start, goal in (("a", "b"), ("b", "a")):
        yield {"function": "neighbours", "board": spec, "args": [start], "kwargs": {}}
        yield {
            "function": "route_cost",
            "board": spec,
            "args": [modes[0], [start, goal]],
            "kwargs": {},
        }
        yield {
            "function": "cheapest_route",
            "board": spec,
            "args": [modes[0], start, goal],
            "kwargs": {},
        }
    for mode in ([1], {"a": 1}):
        yield {"function": "route_cost", "board": spec, "args": [mode, ["a", "b"]], "kwargs": {}}
        yield {"function": "cheapest_route", "board": spec, "args": [mode, "a", "b"], "kwargs": {}}
        yield {"function": "reachable", "board": spec, "args": [mode, "a", 3], "kwargs": {}}


# ---- asking the Python module ------------------------------------------------------------------


def tupled(value: Any) -> Any:
    """A place as Python holds it: a JSON array as a tuple."""
    return tuple(tupled(v) for v in value) if isinstance(value, list) else value


def _given(spec: Any, build: Callable[[Any], Any]) -> Any:
    if isinstance(spec, dict) and "raw" in spec:
        return spec["raw"]
    return None if spec is None else build(spec)


_last: list[Any] = [None, None]
"""The spec :func:`board` last read and its arguments of Board: nine in ten route questions ask
of the same spec object as the one before (each draw asks several questions of one board), and
turning its JSON lists into tuples was most of the harness's cost of a route question. Only the
arguments are kept (the module reads them, never changes them); each question gets a Board of
its own, as before."""


def board(module: ModuleType, spec: dict[str, Any]) -> Any:
    """The spec's Board, made by the Python module."""
    if "raw" in spec:
        return spec["raw"]
    if _last[0] is not spec:
        places = _given(spec["places"], lambda pairs: {tupled(p): f for p, f in pairs})
        edges = _given(spec["edges"], lambda pairs: {tupled(e): f for e, f in pairs})

        def function(pairs: list[Any]) -> Callable[[Any], list[Any]]:
            adjacent = {tupled(p): [tupled(q) for q in a] for p, a in pairs}
            return lambda place: adjacent.get(place, [])

        _last[:] = [spec, (places, edges, _given(spec["neighbours"], function))]
    places, edges, neighbours = _last[1]
    return module.Board(places, edges, neighbours=neighbours, grid=spec["grid"])


def _places_in(value: Any) -> Any:
    """``route`` or ``entered`` as Python is given it: a list of places, else as is."""
    return [tupled(p) for p in value] if isinstance(value, list) else value


def ask(module: ModuleType, query: js_queries.Query) -> list[dict[str, Any]]:
    """The Python module's answer to a route question, in full."""
    made = board(module, query["board"])
    fn, args, kwargs = query["function"], query["args"], dict(query["kwargs"])
    if "entered" in kwargs:
        kwargs["entered"] = _places_in(kwargs["entered"])
    if isinstance(kwargs.get("outcomes"), dict) and "pairs" in kwargs["outcomes"]:
        kwargs["outcomes"] = {tupled(p): names for p, names in kwargs["outcomes"]["pairs"]}
    if fn == "Board":
        return [{"board": [list(made.places.items()), list(made.edges.items()), made.grid]}]
    if fn == "neighbours":
        return [{"neighbours": list(made.neighbours(tupled(args[0])))}]
    if fn == "route_cost":
        answer = module.route_cost(made, args[0], _places_in(args[1]), **kwargs)
    for _ in range(2 if query.get("twice") else 1):  # a board searched again reads what it kept
        if fn == "cheapest_route":
            ends = (tupled(args[1]), tupled(args[2]))
            answer = module.cheapest_route(made, args[0], *ends, **kwargs)
        elif fn == "reachable":
            answer = module.reachable(made, args[0], tupled(args[1]), *args[2:], **kwargs)
    if answer is None:
        return [{"none": None}]
    if isinstance(answer, module.Reach):
        state = [answer.move, answer.budget, answer.speed, answer.turn_mode]
        return [{"reach": [list(answer.items()), state]}]
    return [{"route": _route(module, answer)}]


def _drift(route: Any) -> Any:
    """A route's drift as JSON gives it back: a list, or None."""
    return None if route.drift is None else list(route.drift)


def _cost(module: ModuleType, cost: Any) -> Any:
    return {"marker": cost.value} if isinstance(cost, module.Marker) else cost


def _route(module: ModuleType, route: Any) -> list[Any]:
    steps = [[*s[:4], _cost(module, s.cost)] for s in route.steps]
    rolls = [list(r) for r in route.rolls]
    marks = [list(route.marks)] if hasattr(route, "marks") else []  # whole-move rules only
    state = [route.state] if hasattr(route, "state") else []  # state lines only
    state += [_drift(route)] if hasattr(route, "drift") else []  # a drift line only
    return [
        _cost(module, route.total),
        steps,
        route.legal,
        route.reason,
        route.move,
        rolls,
        *marks,
        *state,
    ]
