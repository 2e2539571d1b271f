"""Benchmark: the generated module's route search, as ratios to plain Python in the same run.

Run: python bench/bench_paths.py [--size N] [--rounds N]

A random hex map of N x N places (clear, woods, marsh, ford; rivers and roads on some edges) is
built once. ``cheapest_route`` from one corner to the other and ``reachable`` within a budget
are timed against a reference: a plain-dict Dijkstra with heapq over the same map whose step
costs were worked out beforehand (no argument checks, no place states, no minimum move). The
minimum per call over several rounds is taken, the module and its reference interleaved, so a
busy machine slows both alike. No thresholds: the ratios are read, not asserted.
"""

from __future__ import annotations

import argparse
import heapq
import importlib.util
import random
import sys
import tempfile
import timeit
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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

STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def load_module() -> ModuleType:
    from rulesdsl.compiler import Compiler
    from rulesdsl.target.python import render

    out = Path(tempfile.mkdtemp()) / "bench_map.py"
    compiled = Compiler().compile_text(RULES, str(out.with_suffix(".terrain")), out.parent)
    assert compiled.ruleset is not None
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


def reference_graph(
    module: ModuleType, places: dict[Any, tuple[str, ...]], edges: dict[Any, Any]
) -> dict[Any, list[tuple[Any, float]]]:
    """Step costs worked out beforehand, as a plain program would keep them."""
    board = module.Board(places, edges, grid="hexes")
    graph: dict[Any, list[tuple[Any, float]]] = {}
    for place in places:
        out = []
        for there, _ in board.neighbours(place):
            route = module.route_cost(board, "foot", [place, there])
            out.append((there, route.total))
        graph[place] = out
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


def timed(call: Any, rounds: int, number: int) -> float:
    return min(timeit.repeat(call, repeat=rounds, number=number)) / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    module = load_module()
    places, edges = make_map(args.size)
    graph = reference_graph(module, places, edges)
    corner, far = (0, 0), (args.size - 1, args.size - 1)
    board = module.Board(places, edges, grid="hexes")
    middle = (args.size // 2, args.size // 2)
    rows = [
        (
            f"Board(...), {args.size}x{args.size} hexes (checks every name)",
            lambda: module.Board(places, edges, grid="hexes"),
            lambda: {p: tuple(f) for p, f in places.items()},
        ),
        (
            f"cheapest_route, {args.size}x{args.size} hexes, corner to corner",
            lambda: module.cheapest_route(board, "foot", corner, far),
            lambda: dijkstra(graph, corner, float("inf")),
        ),
        (
            "the same, on a new board (its step costs found first)",
            lambda: module.cheapest_route(
                module.Board(places, edges, grid="hexes"), "foot", corner, far
            ),
            lambda: dijkstra(graph, corner, float("inf")),
        ),
        (
            f"reachable, budget 8, {args.size}x{args.size} hexes",
            lambda: module.reachable(board, "foot", middle, 8),
            lambda: dijkstra(graph, middle, 8),
        ),
        (
            "route_cost, 10 steps",
            lambda: module.route_cost(board, "foot", [(q, 0) for q in range(10)]),
            lambda: sum(dict(graph[(q, 0)])[(q + 1, 0)] for q in range(9)),
        ),
    ]
    print(f"{'query':<52} {'module':>10} {'reference':>10} {'ratio':>7}")
    for what, call, reference in rows:
        mine = timed(call, args.rounds, 3)
        ref = timed(reference, args.rounds, 3)
        print(f"{what:<52} {mine * 1e3:>8.2f}ms {ref * 1e3:>8.2f}ms {mine / ref:>6.1f}x")
    print("(the board is built once unless said: it keeps each place's exits once found;")
    print(" the reference searches the whole map, cheapest_route stops at its goal)")


if __name__ == "__main__":
    main()
