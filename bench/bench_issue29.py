"""Benchmark: every row of issue 29's table, each with its reference, in one run.

Run: python bench/bench_issue29.py [--quick] [--skip large lsp ...]

Runs, one after the other, the scripts that time the rows (each times a row and its
reference interleaved or back to back in its own process, CPU time, the minimum of its
rounds; the language server's row prints the median of its runs, wall and CPU time) and
prints their output under the issue's row names:

  queries  modifier, results roll by column / by odds, lookup, move_cost, dice roll
           (bench_queries.py --fresh: against dict.get and hand-written functions)
  paths    Board 200 x 200, cheapest_route on a new board, route_cost
           (bench_paths.py: against dict(places), a heapq Dijkstra, a sum of dict lookups)
  import   generated module import, own time (bench_import.py --fresh: against a module
           of the same data as literals)
  check    rulesdsl check heavy_gear (bench_speed.py: against the import line)
  compile  compile + Python module, 5,000 features (bench_speed.py: against CSafeLoader
           on the YAML authoring twin)
  growth   5,000 -> 50,000 features (bench_speed.py; --quick stops at 5,000)
  lsp      language server, edit -> diagnostics, 5,000 features (bench_lsp.py: against
           one compile)
  large    rulesdsl build of 20,000 features, every output (bench_speed.py: < 60 s, < 1 GB)

The load average is printed before and after: the machine may be shared, and CPU-time
ratios are what its load disturbs least. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent

PARTS: dict[str, tuple[str, ...]] = {
    "queries": ("bench_queries.py", "--fresh", "--rounds", "60"),
    "paths": ("bench_paths.py", "--rounds", "7"),
    "import": ("bench_import.py", "--fresh", "--rounds", "7"),
    "check": ("bench_speed.py", "--only", "check", "--rounds", "7"),
    "compile": ("bench_speed.py", "--only", "compile", "--rounds", "3"),
    "growth": ("bench_speed.py", "--only", "growth", "--rounds", "2"),
    "lsp": ("bench_lsp.py", "5000", "--repeat", "3"),
    "large": ("bench_speed.py", "--only", "large", "--rounds", "1"),
}
QUICK: dict[str, tuple[str, ...]] = {
    "queries": ("bench_queries.py", "--fresh", "--rounds", "20"),
    "import": ("bench_import.py", "--fresh", "--rounds", "3", "--only", "heavy_gear"),
    "growth": ("bench_speed.py", "--only", "growth", "--rounds", "2", "--largest", "5000"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds, no 50,000 features")
    parser.add_argument("--skip", nargs="+", choices=PARTS, default=[], metavar="PART")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()}", flush=True)
    for name, argv in PARTS.items():
        if name in args.skip:
            continue
        if args.quick:
            argv = QUICK.get(name, argv)
        print(f"\n== {name}: {' '.join(argv)}", flush=True)
        start = time.perf_counter()
        subprocess.run([sys.executable, str(BENCH / argv[0]), *argv[1:]], check=False)
        print(f"({time.perf_counter() - start:.0f} s on the clock)", flush=True)
    print(f"\nload average {os.getloadavg()}")


if __name__ == "__main__":
    main()
