"""Benchmark: how fast the generated JavaScript modules answer in Node (issue 37, item 6), as
ratios to a hand-written JavaScript function of the same signature timed in the same run (the
floor, bench/hand_written.mjs); and each module's size and load time.

Run: python bench/bench_js.py [--rounds N] [--number N] [--loads N] [--quick]

The bundled rulesets' JavaScript packages are written from this checkout's compiler into a
temporary folder. Node times each row's call and its floor in turn, ``--number`` calls a run,
the minimum CPU time per call over ``--rounds`` rounds (bench/bench_js.mjs). A module's load
time is the wall time of its ``import()`` in a fresh Node process, the minimum of ``--loads``
processes, against the import of an empty module the same way. No thresholds: the
goal (at most 1.5x the floor) is read, not asserted.

A row is one line of ROWS: ``Row(what, ruleset, call, floor)``, the call of the module ``m`` and
of its floor ``h`` as JavaScript expressions; a row for a new question needs its floor, a
function of ``handWritten(m)`` in bench/hand_written.mjs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BENCH = Path(__file__).resolve().parent
GOAL = 1.5
"""Issue 37: at most 1.5x a hand-written JavaScript function of the same signature."""


class Row(NamedTuple):
    what: str
    ruleset: str
    call: str
    """The module's call, a JavaScript expression of ``m``."""
    floor: str
    """The same question asked of the hand-written function, an expression of ``h``."""
    calls: int = 1
    """One call in ``calls`` of ``--number`` is made (a route search takes about 10,000 times
    a lookup's time)."""


ROWS = [
    Row(
        "modifier, 2 items + context",
        "battletech_tacops",
        'm.modifier("to_hit", ["light_woods", "blizzard"], { weapon: "ballistic" })',
        'h.modifier("to_hit", ["light_woods", "blizzard"], { weapon: "ballistic" })',
    ),
    Row(
        "modifier, 1 item (hex defence)",
        "hex_operational",
        'm.modifier("defence", ["forest"])',
        'h.modifier("defence", ["forest"])',
    ),
    Row(
        "roll(table, total), dice table",
        "battletech_tacops",
        'm.roll("terrain_effects", 11)',
        'h.roll("terrain_effects", 11)',
    ),
    Row(
        "results roll, column by name",
        "hex_operational",
        'm.roll("crt", 4, { column: "odds_3_1" })',
        'h.resultsRoll("crt", 4, { column: "odds_3_1" })',
    ),
    Row(
        "results roll, column by odds",
        "hex_operational",
        'm.roll("crt", 4, { column: 2.5 })',
        'h.resultsRoll("crt", 4, { column: 2.5 })',
    ),
    Row(
        "lineOfSight, 4 places",
        "battletech_tacops",
        'm.lineOfSight("los", [["clear"], ["light_woods"], ["heavy_woods"], ["clear"]])',
        'h.lineOfSight("los", [["clear"], ["light_woods"], ["heavy_woods"], ["clear"]])',
    ),
    Row(
        "moveCost, one feature",
        "battletech_tacops",
        'm.moveCost("mech", ["light_woods"])',
        'h.moveCost("mech", ["light_woods"])',
    ),
    Row(
        "moveCost, three features",
        "battletech_tacops",
        'm.moveCost("mech", ["light_woods", "deep_snow", "mud"])',
        'h.moveCost("mech", ["light_woods", "deep_snow", "mud"])',
    ),
    Row(
        "moveCost, distance 3",
        "heavy_gear",
        'm.moveCost("walker", ["soft"], { distance: 3 })',
        'h.moveCost("walker", ["soft"], { distance: 3 })',
    ),
    Row(
        "cheapestRoute on a new board, 20 x 20 hexes",
        "hex_operational",
        'm.cheapestRoute(new m.Board(h.hexMap20, { grid: "hex" }), "foot", [0, 0], [19, 19]).total',
        'h.cheapestRoute(h.hexMap20, "foot", [0, 0], [19, 19])',
        calls=10_000,
    ),
]


def packages(names: set[str], into: Path) -> dict[str, Path]:
    """The bundled rulesets ``names`` as JavaScript packages in ``into``: each module's path."""
    from rulesdsl.codegen import js, plan
    from rulesdsl.compiler import Compiler

    compiler = Compiler()
    paths = {}
    for name in sorted(names):
        compiled = compiler.compile_file(ROOT / "rulesets" / f"{name}.terrain")
        assert compiled.ruleset is not None, name
        folder = into / name
        folder.mkdir()
        for file, text in js.emit(plan.build(compiled.ruleset)).items():
            (folder / file).write_text(text, "utf-8")
        paths[name] = folder / f"{name}.js"
    return paths


def node(script: Path | str, stdin: str = "", *args: str) -> str:
    done = subprocess.run(
        ["node", str(script), *args], input=stdin, capture_output=True, text=True, check=True
    )
    return done.stdout


LOAD = """import { pathToFileURL } from "node:url";
const start = performance.now();
await import(pathToFileURL(process.argv[2]).href);
console.log(performance.now() - start);
"""
"""A fresh process's first import() of a module, in milliseconds."""


def load_time(path: Path, script: Path, times: int) -> float:
    return min(float(node(script, "", str(path))) for _ in range(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--number", type=int, default=200_000, help="calls per timing run")
    parser.add_argument("--loads", type=int, default=5, help="fresh processes per load time")
    parser.add_argument(
        "--quick", action="store_true", help="the smoke run CI makes (tests/test_bench.py)"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.number, args.loads = 1, 200, 1
    with tempfile.TemporaryDirectory() as tmp:
        paths = packages({r.ruleset for r in ROWS}, Path(tmp))
        rows = [
            {
                "module": str(paths[r.ruleset]),
                "call": r.call,
                "floor": r.floor,
                "number": max(1, args.number // r.calls),
            }
            for r in ROWS
        ]
        request = json.dumps({"rows": rows, "rounds": args.rounds})
        timed = json.loads(node(BENCH / "bench_js.mjs", request))
        empty, script = Path(tmp) / "empty.mjs", Path(tmp) / "load.mjs"
        empty.write_text("export {};\n", "utf-8")
        script.write_text(LOAD, "utf-8")
        loads = {n: load_time(p, script, args.loads) for n, p in paths.items()}
        reference = load_time(empty, script, args.loads)
        sizes = {n: p.stat().st_size for n, p in paths.items()}

    print(f"Node, min of {args.rounds} rounds of {args.number} calls (a route search: fewer)")
    print(f"{'query':<44} {'ns':>10} {'floor ns':>10} {'ratio':>6} {'goal':>5}")
    for row, t in zip(ROWS, timed, strict=True):
        ratio = t["call"] / t["floor"]
        print(f"{row.what:<44} {t['call']:10.1f} {t['floor']:10.1f} {ratio:5.2f}x {GOAL:4g}x")
    print(f"\nload: import() in a fresh Node process, min of {args.loads}; ratio = module / empty")
    print(f"{'module':<20} {'size KB':>8} {'load ms':>8} {'empty ms':>9} {'ratio':>6}")
    for name in sorted(paths):
        ms = loads[name]
        ratio = ms / reference
        print(f"{name:<20} {sizes[name] / 1024:8.1f} {ms:8.2f} {reference:9.2f} {ratio:5.1f}x")


if __name__ == "__main__":
    main()
