"""Benchmark: how long compiling the bundled rulesets and generating their modules takes.

Run: python bench/bench_compile.py [--repeat N] [--quick]
Prints the median wall time per stage; there are no thresholds here (speed goals are read,
not asserted, so CI never fails on a slow machine).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from rulesdsl.codegen.targets import render_python as render
from rulesdsl.compiler import Compiler, ruleset_files
from rulesdsl.frontends.dsl import Parser

ROOT = Path(__file__).resolve().parent.parent


def timed(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument(
        "--quick", action="store_true", help="the smoke run CI makes (tests/test_bench.py)"
    )
    args = parser.parse_args()
    files = ruleset_files(ROOT / "rulesets")
    if args.quick:  # the smoke run: every row, of the first two bundled rulesets, once
        args.repeat, files = 1, files[:2]
    texts = {p: p.read_text("utf-8") for p in files}
    print(f"{len(files)} rulesets, {sum(t.count(chr(10)) for t in texts.values())} lines")
    print(f"grammar load      {timed(Parser, args.repeat) * 1000:8.1f} ms")
    shared = Parser()
    parse = timed(lambda: [shared.parse(t, str(p)) for p, t in texts.items()], args.repeat)
    print(f"parse all         {parse * 1000:8.1f} ms")
    compile_all = timed(lambda: [fresh().compile_file(p) for p in files], args.repeat)
    print(f"compile all       {compile_all * 1000:8.1f} ms  (fresh compiler each, with parse)")
    compiled = [Compiler().compile_file(p).ruleset for p in files]
    rulesets = [r for r in compiled if r is not None]
    emit = timed(lambda: [render(r) for r in rulesets], args.repeat)
    print(f"python backend    {emit * 1000:8.1f} ms")


def fresh() -> Compiler:
    """A compiler that parses every file it reads (the process keeps small files' parses,
    which would make every round after the first time a kept parse)."""
    compiler = Compiler()
    compiler.parsed_texts = None
    return compiler


if __name__ == "__main__":
    main()
