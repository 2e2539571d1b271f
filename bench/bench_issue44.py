"""Benchmark: the rows of issue 44's table, each with its reference, in one run.

Run: python bench/bench_issue44.py [--quick] [--skip PART ...]

Runs, one after the other, the scripts that time the rows, and prints their output under the
issue's row names (CPU time, the minimum of each script's rounds unless it says otherwise):

  pdf      PDF sheet minus HTML, battletech_tacops and hex_operational; PDF deck minus HTML,
           battletech_tacops (bench_speed.py --only pdf: fresh processes of `rulesdsl sheet`
           and `rulesdsl cards`, PDF against HTML)
  clean    a clean build of the bundled rulesets: CPU, and wall as a share of it
           (bench_speed.py --only clean)
  cards    build_deck, BattleTech ru and en, Heavy Gear en (bench_cards.py: against the
           deck's HTML render, and against the deck with no trial pack remembered)
  paths    route_cost of a found route, on rules without rolls and with them (bench_paths.py:
           against a sum of dict lookups)
  compile  compile + module, 5,000 features (bench_speed.py: against CSafeLoader on the YAML
           authoring twin)
  parse    the DSL parse of those 5,000 features and compile + module with today's parser,
           lark-cython's (when installed) and Lark's standalone parser (bench_parse.py)
  check    rulesdsl check heavy_gear (bench_speed.py: against the import line)
  import   module import, own time (bench_import.py --fresh: against a module of the same
           data as literals)
  facing   facing `reachable`, budget 10 (bench_facing.py, the 20 x 20 row: against a heapq
           Dijkstra over (place, heading))
  extends  extends chain 100 -> 200 (bench_extends.py: the ratio is the growth, 2.0 linear)

The language server's rows are bench_lsp.py's (``--house`` for the base edit with a house rule
open); `python -m pytest -q` is timed by hand (see bench/README.md). The load average is
printed before and after. Nothing is asserted.
``--quick`` runs each script's smoke form (tests/test_bench.py runs the scripts so).
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
    "pdf": ("bench_speed.py", "--only", "pdf", "--rounds", "3"),
    "clean": ("bench_speed.py", "--only", "clean", "--rounds", "2"),
    "cards": ("bench_cards.py", "--rounds", "5"),
    "paths": ("bench_paths.py", "--rounds", "7"),
    "compile": ("bench_speed.py", "--only", "compile", "--rounds", "3"),
    "parse": ("bench_parse.py", "--rounds", "3"),
    "check": ("bench_speed.py", "--only", "check", "--rounds", "7"),
    "import": ("bench_import.py", "--fresh", "--rounds", "7"),
    "facing": ("bench_facing.py", "--sizes", "20", "--rounds", "5"),
    "extends": ("bench_extends.py", "--depths", "100", "200"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="each script's smoke form")
    parser.add_argument("--skip", nargs="+", choices=PARTS, default=[], metavar="PART")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()}", flush=True)
    failed = []
    for name, argv in PARTS.items():
        if name in args.skip:
            continue
        if args.quick:
            argv = (argv[0], *argv[1:3], "--quick") if argv[1] == "--only" else (argv[0], "--quick")
        print(f"\n== {name}: {' '.join(argv)}", flush=True)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, str(BENCH / argv[0]), *argv[1:]], check=False)
        print(f"({time.perf_counter() - start:.0f} s on the clock)", flush=True)
        if done.returncode:
            failed.append(name)
    print(f"\nload average {os.getloadavg()}")
    if failed:
        sys.exit(f"failed: {' '.join(failed)}")


if __name__ == "__main__":
    main()
