"""Benchmark: import time and query speed of the generated modules.

Run: python bench/bench_queries.py
Each generated module is imported in a fresh interpreter and the import itself is timed from
inside it (standard-library imports included), then common queries are timed with timeit.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated" / "python"

QUERIES = {
    "heavy_gear": [
        'm.move_cost("walker", "soft", distance=3)',
        'm.modifier("cover", "full", "solid")',
        "m.light_concealment(5)",
        "m.abstract_cover(7, 6)",
    ],
    "battletech_tacops": [
        'm.move_cost("mech", "light_woods", "deep_snow", "mud")',
        'm.modifier("to_hit", "light_woods", "blizzard", weapon="ballistic")',
        'm.roll("terrain_effects", 11)',
    ],
    "d20_movement": ['m.path_cost("dsssd")', 'm.lookup("flight", "good", "turn")'],
}


def import_ms(name: str, runs: int = 9) -> float:
    """Median in-process time of `import name` in a fresh interpreter (pyc cache warm)."""
    code = ("import sys, time; sys.path.insert(0, '.'); t = time.perf_counter(); "
            f"import {name}; print(time.perf_counter() - t)")
    samples = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-I", "-S", "-c", code], check=True,
                             cwd=GENERATED, capture_output=True, text=True).stdout
        samples.append(float(out) * 1000)
    return statistics.median(samples)


def main() -> None:
    sys.path.insert(0, str(GENERATED))
    for path in sorted(GENERATED.glob("*.py")):
        name = path.stem
        print(f"{name}: import {import_ms(name):.1f} ms")
        module = __import__(name)
        for query in QUERIES.get(name, []):
            number = 100_000
            seconds = timeit.timeit(query, globals={"m": module}, number=number)
            print(f"    {query:<70} {seconds / number * 1e6:6.2f} us")


if __name__ == "__main__":
    main()
