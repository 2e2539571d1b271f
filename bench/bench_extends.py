"""Benchmark: compiling a chain of `extends` of growing depth, to show it grows linearly.

Run: python bench/bench_extends.py [--depths 25 50 100 200] [--repeat N] [--quick]
Each depth writes a base (the bundled heavy_gear) and a chain of variants on top of it, each
overriding one cell, then compiles every file of the folder with one Compiler (what `rulesdsl
check` and `build` do). Prints the median time per depth and the ratio to the previous depth:
linear growth doubles the time when the depth doubles (ratio ~2); before the compiler resolved
each base once, the ratio was ~4-7 (25/50/100/200 took 2/8/53/360 s). No thresholds here.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from rulesdsl.compiler import Compiler, ruleset_files
from rulesdsl.variants import merge

ROOT = Path(__file__).resolve().parent.parent


def write_chain(folder: Path, depth: int) -> None:
    (folder / "heavy_gear.terrain").write_text(
        (ROOT / "rulesets" / "heavy_gear.terrain").read_text("utf-8"), "utf-8"
    )
    previous = "heavy_gear"
    for i in range(depth):
        name = f"v{i:04d}"
        (folder / f"{name}.terrain").write_text(
            f'ruleset {name} "Variant {i}" fr "Variante {i}" de "Variante {i}"\n'
            f"version 1.0.{i}\nextends {previous}@>=1.0\noverride rough.walker | {i % 5 + 1}\n",
            "utf-8",
        )
        previous = name


class MergeMeter:
    """Counts the merges of a variant into its base, and the time they take (the part of a
    compile that `extends` adds; lowering and checks cost the same per file whatever the
    chain)."""

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0
        self._real = merge.Merger.apply

    def __enter__(self) -> MergeMeter:
        real = self._real

        def apply(merger: Any, variant: Any) -> Any:
            start = time.perf_counter()
            try:
                return real(merger, variant)
            finally:
                self.count += 1
                self.seconds += time.perf_counter() - start

        merge.Merger.apply = apply  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        merge.Merger.apply = self._real  # type: ignore[method-assign]


def compile_all(folder: Path) -> int:
    compiler = Compiler()
    compiler.parsed_texts = None  # every round parses (the process keeps small files' parses)
    compiled = [compiler.compile_file(p) for p in ruleset_files(folder)]
    assert all(c.ok for c in compiled), [d.message for c in compiled for d in c.diagnostics]
    return len(compiled)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depths", type=int, nargs="+", default=[25, 50, 100, 200])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--quick", action="store_true", help="the smoke run CI makes (tests/test_bench.py)"
    )
    args = parser.parse_args()
    if args.quick:
        args.depths, args.repeat = [4, 8], 1
    previous: tuple[float, float] | None = None
    print(
        f"{'depth':>6} {'files':>6} {'compile':>10} {'ratio':>6} {'merges':>7} "
        f"{'merging':>10} {'ratio':>6}"
    )
    for depth in args.depths:
        with tempfile.TemporaryDirectory(prefix="rulesdsl-bench-") as tmp:
            folder = Path(tmp)
            write_chain(folder, depth)
            samples, merging = [], []
            files = merges = 0
            for _ in range(args.repeat):
                with MergeMeter() as meter:
                    start = time.perf_counter()
                    files = compile_all(folder)
                    samples.append(time.perf_counter() - start)
                merging.append(meter.seconds)
                merges = meter.count
        median, merge_time = statistics.median(samples), statistics.median(merging)
        ratios = (
            (f"{median / previous[0]:6.2f}", f"{merge_time / previous[1]:6.2f}")
            if (previous)
            else ("     -", "     -")
        )
        print(
            f"{depth:>6} {files:>6} {median * 1000:7.0f} ms {ratios[0]} {merges:>7} "
            f"{merge_time * 1000:7.0f} ms {ratios[1]}"
        )
        previous = (median, merge_time)


if __name__ == "__main__":
    main()
