"""The benchmarks keep running (issue 44): each script in bench/ runs in its short form
(``--quick``: tiny sizes, one round) and prints its rows, so that a benchmark broken by a
change to the code it times fails the build (bench_extends.py had stopped running on main
when a class it patches was renamed). The figures of a quick run mean nothing and are not
read; speed is never asserted here."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

BENCH = ROOT / "bench"

ROWS: dict[str, tuple[str, ...]] = {
    "bench_cards.py": ("build_deck", "HTML render", "trials forgotten"),
    "bench_compile.py": ("parse all", "compile all", "python backend"),
    "bench_extends.py": ("depth",),
    "bench_facing.py": ("cheapest_route", "reachable", 'move="flank"'),
    "bench_import.py": ("heavy_gear",),
    "bench_js.py": ("modifier", "results roll", "lineOfSight", "load"),
    "bench_limits.py": ("comments",),
    "bench_lsp.py": ("one edit -> diagnostics", "three edits 30 ms apart"),
    "bench_parse.py": ("parse", "lark alone"),
    "bench_paths.py": (
        "Board(...)",
        "route_cost of that route",
        "route_cost, rules with rolls",
        "not asked before",
    ),
    "bench_queries.py": ("modifier", "lookup"),
    "bench_readers.py": ("csv", "xlsx", "ods"),
    "bench_source_readers.py": ("terrain", "yaml", "po"),
    "bench_speed.py": (
        "check + module",
        "growth",
        "rulesdsl check",
        "no-op rulesdsl build",
        "PDF sheet",
    ),
}
"""Each timing script and words its rows print."""

RATIO = re.compile(r"\d\.\d+x")


def test_every_timing_script_in_bench_is_run_here() -> None:
    scripts = {p.name for p in BENCH.glob("bench_*.py")} - {"bench_issue29.py", "bench_issue44.py"}
    assert scripts == set(ROWS)


@pytest.mark.parametrize("script", sorted(ROWS))
def test_the_benchmark_runs_in_its_short_form_and_prints_its_rows(script: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(BENCH / script), "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    for words in ROWS[script]:
        assert words in done.stdout, (words, done.stdout[-2000:])
    if script not in ("bench_compile.py", "bench_limits.py", "bench_extends.py"):
        assert RATIO.search(done.stdout), done.stdout[-2000:]


@pytest.mark.parametrize("run", ["bench_issue29", "bench_issue44"])
def test_each_part_of_an_issue_run_is_a_timing_script_run_here(run: str) -> None:
    module = importlib.import_module(f"bench.{run}")
    assert {argv[0] for argv in module.PARTS.values()} <= set(ROWS)
