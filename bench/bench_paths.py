"""Benchmark: the generated module's route search, as ratios to plain Python in the same run.

Run: python bench/bench_paths.py [--size N] [--rounds N] [--quick]

A random hex map of N x N places (200 x 200 by default: clear, woods, marsh, ford; rivers and
roads on some edges) is built once. Issue 29's rows: ``Board(...)`` against ``dict(places)``;
``cheapest_route`` from one corner to the other on a new board against a hand-written heapq
Dijkstra that copies the places into a dict and works out each step's cost from literal dicts
as it goes (``bench/hand_written.py``: board building included on both sides); ``route_cost``
of the route found against a sum of dict lookups of its steps' costs. Then issue 11's rows:
the search on a board already searched and ``reachable`` within a budget against a Dijkstra
over step costs worked out beforehand. The minimum per call over several rounds is taken, the
module and its reference interleaved, so a busy machine slows both alike. No thresholds: the
ratios are read, not asserted.
"""

from __future__ import annotations

import argparse
import heapq
import importlib.util
import itertools
import random
import sys
import tempfile
import time
import timeit
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import hand_written as hand  # noqa: E402

RULES = """ruleset bench_map "Bench map"
version 1.0.0
units distance hex, cost MP
minimum move 1 hex
mode foot "Foot"
mode vehicle "Vehicle"
layer terrain "Terrain" one per place {
  clear "Clear"  | 1
  woods "Woods"  | 2, vehicle 4
  marsh "Marsh"  | 2, vehicle 3 may not end
  ford "Ford"    | 1 must stop
}
layer hexsides "Hexsides" edges {
  river "River"  | +2
  road "Road"    | along 1/2
}
grid hexes "Hex" : 1 hex = 1 km, hex
"""

ROLLS = """roll bog "Bog" : 2d6 on entering
roll spot "Spotted" : 1d6 on first entering
roll current "Current" : 1d6 on crossing
"""
RULES_WITH_ROLLS = (
    RULES.replace('ruleset bench_map "Bench map"', 'ruleset bench_map "Bench map with rolls"')
    .replace("layer terrain", ROLLS + "layer terrain")
    .replace(" one per place {\n", " one per place {\n  columns cost, bog, spot\n")
    .replace('"Clear"  | 1\n', '"Clear"  | 1 | | \n')
    .replace("vehicle 4\n", "vehicle 4 | | 0\n")
    .replace("may not end\n", "may not end | 0, vehicle +1 | 0\n")
    .replace("must stop\n", "must stop | +1 | \n")
    .replace(" edges {\n", " edges {\n  columns cost, current\n")
    .replace("| +2\n", "| +2 | 0\n")
    .replace("along 1/2\n", "along 1/2 | \n")
)
"""The same rules with rolls due on entering woods, marsh and fords, on first entering woods
and marshes and on crossing a river (issue 44: ``route_cost``'s time is mostly the rolls due
at each step, which the rules above have none of). The costs are the same, so is the route."""

STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def load_module(source: Path | None = None, rules: str = RULES) -> ModuleType:
    """The bench map's module: compiled by this checkout from ``rules``, or read from
    ``source`` (a module rendered by another version of the compiler, for a before/after
    figure)."""
    out = Path(tempfile.mkdtemp()) / "bench_map.py"
    if source is not None:
        out.write_text(source.read_text("utf-8"), encoding="utf-8")
    else:
        from rulesdsl.codegen.targets import render_python as render
        from rulesdsl.compiler import Compiler

        compiled = Compiler().compile_text(rules, str(out.with_suffix(".terrain")), out.parent)
        assert compiled.ruleset is not None, [d.message for d in compiled.diagnostics]
        out.write_text(render(compiled.ruleset), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("bench_map", out)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_map(size: int, seed: int = 11) -> tuple[dict[Any, tuple[str, ...]], dict[Any, Any]]:
    rng = random.Random(seed)
    places = {
        (q, r): (rng.choices(["clear", "woods", "marsh", "ford"], [70, 20, 7, 3])[0],)
        for q in range(size)
        for r in range(size)
    }
    edges: dict[Any, tuple[str, ...]] = {}
    for q, r in places:
        for dq, dr in STEPS[:3]:
            other = (q + dq, r + dr)
            if other in places and rng.random() < 0.15:
                feature = ("river",) if rng.random() < 0.5 else ("road",)
                edges[(q, r), other] = edges[other, (q, r)] = feature
    return places, edges


FOOT = {
    "costs": {"clear": 1, "woods": 2, "marsh": 2, "ford": 1},
    "crossing": {"river": 2, "road": 0},
    "along": {"road": 0.5},
    "stops": frozenset({"ford"}),
}
"""The bench map's rules for ``foot``, as a hand-written program would hold them."""


def step_cost(places: dict[Any, tuple[str, ...]], edges: dict[Any, Any], a: Any, b: Any) -> float:
    crossed = edges.get((a, b), ())
    along = [FOOT["along"][f] for f in crossed if f in FOOT["along"]]  # type: ignore[index]
    cost = min(along) if along else sum(FOOT["costs"][f] for f in places[b])  # type: ignore[index]
    return cost + sum(FOOT["crossing"][f] for f in crossed)  # type: ignore[index,no-any-return]


def reference_graph(
    places: dict[Any, tuple[str, ...]], edges: dict[Any, Any]
) -> dict[Any, list[tuple[Any, float]]]:
    """Step costs worked out beforehand, as a plain program would keep them."""
    graph: dict[Any, list[tuple[Any, float]]] = {}
    for q, r in places:
        graph[q, r] = [
            ((q + dq, r + dr), step_cost(places, edges, (q, r), (q + dq, r + dr)))
            for dq, dr in STEPS
            if (q + dq, r + dr) in places
        ]
    return graph


def dijkstra(graph: dict[Any, list[tuple[Any, float]]], start: Any, budget: float) -> dict:
    best = {start: 0.0}
    heap = [(0.0, 0, start)]
    order = 1
    done = set()
    while heap:
        cost, _, here = heapq.heappop(heap)
        if here in done:
            continue
        done.add(here)
        for there, step in graph[here]:
            total = cost + step
            if total <= budget and total < best.get(there, float("inf")):
                best[there] = total
                heapq.heappush(heap, (total, order, there))
                order += 1
    return best


def not_asked_before(module: ModuleType, board: Any, route: list[Any]) -> Any:
    """route_cost of ``route`` as the first time on ``board``: the steps the board kept from
    the routes asked before on it (``Board._routed``, issue 44) forgotten before each call;
    the module's own tables (prices and rolls per kind of step) stay as earlier routes left
    them."""
    kept = getattr(board, "_routed", {})

    def call() -> Any:
        kept.clear()
        return module.route_cost(board, "foot", route)

    return call


def timed(call: Any, rounds: int, number: int) -> float:
    """CPU seconds per call, the best of ``rounds``."""
    timer = timeit.Timer(call, timer=time.process_time)
    return min(timer.repeat(repeat=rounds, number=number)) / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--module", type=Path, help="time this rendering of the bench map's rules instead"
    )
    parser.add_argument(
        "--quick", action="store_true", help="the smoke run CI makes (tests/test_bench.py)"
    )
    args = parser.parse_args()
    if args.quick:
        args.size, args.rounds = 12, 1
    module = load_module(args.module)
    rolled = load_module(rules=RULES_WITH_ROLLS)
    places, edges = make_map(args.size)
    graph = reference_graph(places, edges)
    corner, far = (0, 0), (args.size - 1, args.size - 1)
    board = module.Board(places, edges, grid="hexes")
    found = module.cheapest_route(board, "foot", corner, far)
    route = [corner, *(s.end for s in found.steps)]
    steps = {(a, b): step_cost(places, edges, a, b) for a, b in itertools.pairwise(route)}
    by_hand = hand.cheapest_total(places, edges, **FOOT, start=corner, goal=far)  # type: ignore[arg-type]
    assert by_hand is not None and abs(by_hand - found.total) < 1e-9, (by_hand, found.total)
    assert abs(hand.route_total(steps, route) - found.total) < 1e-9
    rolled_board = rolled.Board(places, edges, grid="hexes")
    due = rolled.route_cost(rolled_board, "foot", route)
    assert abs(due.total - found.total) < 1e-9 and due.rolls, due.total
    step_of = {(s.start, s.end): (s.features, s.edge, s.cost) for s in due.steps}
    rolls_at: dict[Any, list[Any]] = {}
    for roll in due.rolls:
        pair = (route[roll.step - 1], roll.place)
        rolls_at.setdefault(pair, []).append((roll.on == "first_entering", tuple(roll)[2:]))
    floor = (step_of, {pair: tuple(kept) for pair, kept in rolls_at.items()}, route)
    assert hand.route_records(*floor) == (due.total, due.steps, due.rolls)
    middle = (args.size // 2, args.size // 2)
    size = f"{args.size}x{args.size}"
    rows = [
        (
            f"Board(...), {size} hexes",
            "dict(places)",
            lambda: module.Board(places, edges, grid="hexes"),
            lambda: dict(places),
        ),
        (
            f"cheapest_route on a new board, {size}",
            "Dijkstra by hand",
            lambda: module.cheapest_route(
                module.Board(places, edges, grid="hexes"), "foot", corner, far
            ),
            lambda: hand.cheapest_total(places, edges, **FOOT, start=corner, goal=far),  # type: ignore[arg-type]
        ),
        (
            f"route_cost of that route ({len(route) - 1} steps)",
            "sum of dict lookups",
            lambda: module.route_cost(board, "foot", route),
            lambda: hand.route_total(steps, route),
        ),
        (
            "route_cost of that route, not asked before",
            "sum of dict lookups",
            not_asked_before(module, board, route),
            lambda: hand.route_total(steps, route),
        ),
        (
            f"route_cost, rules with rolls ({len(due.rolls)} due)",
            "sum of dict lookups",
            lambda: rolled.route_cost(rolled_board, "foot", route),
            lambda: hand.route_total(steps, route),
        ),
        (
            "route_cost with rolls, not asked before",
            "sum of dict lookups",
            not_asked_before(rolled, rolled_board, route),
            lambda: hand.route_total(steps, route),
        ),
        (
            "route_cost, rules with rolls",
            "the same records by hand",
            lambda: rolled.route_cost(rolled_board, "foot", route),
            lambda: hand.route_records(*floor),
        ),
        (
            "cheapest_route, board searched before",
            "Dijkstra, costs known",
            lambda: module.cheapest_route(board, "foot", corner, far),
            lambda: dijkstra(graph, corner, float("inf")),
        ),
        (
            f"reachable, budget 8, {size} hexes",
            "Dijkstra, costs known",
            lambda: module.reachable(board, "foot", middle, 8),
            lambda: dijkstra(graph, middle, 8),
        ),
    ]
    print(f"{'query':<44} {'module':>10} {'reference':>25} {'':>9} {'ratio':>7}")
    best: dict[tuple[int, str], float] = {}
    number = {  # calls per timing: enough for about 20 ms
        (i, kind): max(1, int(0.02 / timed(run, 1, 1)))
        for i, (_what, _ref, call, reference) in enumerate(rows)
        for kind, run in (("module", call), ("ref", reference))
    }
    for _ in range(args.rounds):  # interleaved: each round times everything once
        for i, (_what, _ref, call, reference) in enumerate(rows):
            for kind, run in (("module", call), ("ref", reference)):
                seconds = timed(run, 1, number[i, kind])
                best[i, kind] = min(best.get((i, kind), seconds), seconds)
    for i, (what, ref_name, _call, _reference) in enumerate(rows):
        mine, ref = best[i, "module"], best[i, "ref"]
        ratio = mine / ref
        print(f"{what:<44} {mine * 1e3:>8.2f}ms {ref_name:>25} {ref * 1e3:>7.2f}ms {ratio:>6.1f}x")
    print("(CPU time; a board keeps each place's exits once a search has found them, so the")
    print(" second search on it reads them back)")


if __name__ == "__main__":
    main()
