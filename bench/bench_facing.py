"""Benchmark: routes with headings (issue 24), as ratios to a hand-written Dijkstra in the run.

Run: python bench/bench_facing.py [--sizes 50 200] [--rounds N] [--quick]

A random hex map of N x N places (clear, nebula, asteroids) is built once as a dict. A ship
faces one of six hexsides: it moves forward into the faced hex, backward for 1 MP more, and
turns one hexside for 1 MP (turn mode 0, so the state is (place, heading) alone). Each row
times the generated module (``Board(...)`` built in the timed call, then ``cheapest_route``
corner to corner, or ``reachable`` within a budget) against a plain heapq Dijkstra over
(place, heading) written out below, which reads the place costs from a literal dict and so
also builds its lookup in the call. A third row makes the same search for a ship making the
kind of move ``flank`` (nebulae cost it 3), against the same Dijkstra with those costs. The
minimum per call over several rounds is taken (each round times every call over about 20 ms
of calls), the module and its reference interleaved. No thresholds: the ratios are read, not
asserted.
"""

from __future__ import annotations

import argparse
import heapq
import importlib.util
import random
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RULES = """ruleset bench_facing "Bench facing"
version 1.0.0
units distance hex, cost MP
mode ship "Ship"
grid hexes "Hex" : 1 hex, hex
facing ship on hexes : turn 1 MP per hexside, backward +1 MP
move flank "Flank" : allowance times 2
layer space "Space" one per place {
  clear "Clear"        | 1
  nebula "Nebula"      | 2, flank 3
  asteroids "Asteroids" | impassable
}
"""

COSTS = {"clear": 1.0, "nebula": 2.0, "asteroids": float("inf")}
FLANK_COSTS = {**COSTS, "nebula": 3.0}
"""The place costs of a ship making the kind of move ``flank``."""
STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def load_module() -> ModuleType:
    from rulesdsl.codegen.targets import render_python as render
    from rulesdsl.compiler import Compiler

    folder = Path(tempfile.mkdtemp())
    compiled = Compiler().compile_text(RULES, str(folder / "bench_facing.terrain"), folder)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    path = folder / "bench_facing_module.py"
    path.write_text(render(compiled.ruleset), "utf-8")
    spec = importlib.util.spec_from_file_location("bench_facing_module", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_facing_module"] = module
    spec.loader.exec_module(module)
    return module


def make_map(size: int, seed: int = 24) -> dict[Any, tuple[str, ...]]:
    rng = random.Random(seed)
    places: dict[Any, tuple[str, ...]] = {}
    for q in range(size):
        for r in range(size):
            roll = rng.random()
            places[q, r] = (
                ("asteroids",) if roll < 0.08 else ("nebula",) if roll < 0.3 else ("clear",)
            )
    places[0, 0] = places[size - 1, size - 1] = ("clear",)
    return places


def hand_dijkstra(
    places: dict[Any, tuple[str, ...]],
    start: Any,
    budget: float,
    goal: Any = None,
    costs: dict[str, float] = COSTS,
) -> dict[Any, float]:
    """Dijkstra over (place, heading): forward, backward (+1), a hexside's turn (1)."""
    cost_of = {p: costs[f[0]] for p, f in places.items()}
    best: dict[Any, float] = {start: 0.0}
    done: set[Any] = set()
    heap = [(0.0, start)]
    while heap:
        cost, state = heapq.heappop(heap)
        if state in done:
            continue
        done.add(state)
        place, h = state
        if place == goal:
            break
        q, r = place
        nexts = []
        for d, extra in ((h, 0.0), ((h + 3) % 6, 1.0)):
            there = (q + STEPS[d][0], r + STEPS[d][1])
            step = cost_of.get(there)
            if step is not None and step < float("inf"):
                nexts.append((cost + step + extra, (there, h)))
        nexts.append((cost + 1.0, (place, (h + 1) % 6)))
        nexts.append((cost + 1.0, (place, (h + 5) % 6)))
        for total, there in nexts:
            if total <= budget and total < best.get(there, float("inf")) and there not in done:
                best[there] = total
                heapq.heappush(heap, (total, there))
    return best


def timed(call: Any, number: int) -> float:
    """CPU seconds per call of ``number`` calls in a row."""
    start = time.process_time()
    for _ in range(number):
        call()
    return (time.process_time() - start) / number


def interleaved(pairs: list[tuple[Any, Any]], rounds: int) -> list[tuple[float, float]]:
    """The best time per call of each (module, reference) pair over ``rounds`` rounds, each
    round timing every call once, the module and its reference back to back, each over
    enough calls for about 20 ms (one call of a small map takes under a millisecond, near the
    clock's grain)."""
    calls = [call for pair in pairs for call in pair]
    number = [max(1, int(0.02 / max(timed(call, 1), 1e-6))) for call in calls]
    best = [float("inf")] * len(calls)
    for _ in range(rounds):
        for i, call in enumerate(calls):
            best[i] = min(best[i], timed(call, number[i]))
    return list(zip(best[::2], best[1::2], strict=True))


def rows(module: ModuleType, size: int, rounds: int) -> list[str]:
    """The three rows of one map size."""
    places = make_map(size)
    corner = (size - 1, size - 1)
    budget = size / 2
    start = ((0, 0), 0)

    def cheapest() -> Any:
        board = module.Board(places, grid="hexes")
        return module.cheapest_route(board, "ship", start, corner)

    def hand_cheapest() -> Any:
        return hand_dijkstra(places, start, float("inf"), corner)

    def reach() -> Any:
        board = module.Board(places, grid="hexes")
        return module.reachable(board, "ship", start, budget)

    def hand_reach() -> Any:
        return hand_dijkstra(places, start, budget)

    def flank() -> Any:
        board = module.Board(places, grid="hexes")
        return module.cheapest_route(board, "ship", start, corner, move="flank")

    def hand_flank() -> Any:
        return hand_dijkstra(places, start, float("inf"), corner, FLANK_COSTS)

    found = cheapest()
    assert found is not None
    assert found.total == hand_dijkstra(places, start, float("inf"))[corner, found.heading]
    assert dict(reach()) == hand_reach()
    flanking = flank()
    assert flanking is not None and flanking.move == "flank"
    everywhere = hand_dijkstra(places, start, float("inf"), costs=FLANK_COSTS)
    assert flanking.total == everywhere[corner, flanking.heading]
    out = []
    named = (
        ("cheapest_route", cheapest, hand_cheapest),
        ("reachable", reach, hand_reach),
        ('cheapest_route, move="flank"', flank, hand_flank),
    )
    times = interleaved([(mine, theirs) for _, mine, theirs in named], rounds)
    for (name, _, _), (a, b) in zip(named, times, strict=True):
        out.append(
            f"| {size} x {size} | {name} | {a * 1000:.2f} ms | {b * 1000:.2f} ms | {a / b:.2f}x |"
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--quick", action="store_true", help="the smoke run CI makes (tests/test_bench.py)"
    )
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.rounds = [12], 1
    module = load_module()
    print("| map | call | module | hand-written | ratio |")
    print("|---|---|--:|--:|--:|")
    for size in args.sizes:
        for row in rows(module, size, args.rounds):
            print(row)


if __name__ == "__main__":
    main()
