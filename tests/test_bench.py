"""The benchmarks keep running (issue 44): each script in bench/ runs in its short form
(``--quick``: tiny sizes, one round) and prints its rows, so that a benchmark broken by a
change to the code it times fails the build (bench_extends.py had stopped running on main
when a class it patches was renamed). The figures of a quick run mean nothing and are not
read; speed is never asserted here.

Each script runs as ``python bench/<script> --quick`` would run it, in a child forked from one
Python per test process that has loaded the package and its parsing libraries once (``FORK``):
the fresh interpreter and those imports were a third of each short run (issue 44). A child
is a fresh copy: what one script patches or loads stays in it."""

from __future__ import annotations

import importlib
import os
import re
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

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

PDF_ROWS: dict[str, tuple[list[str], str]] = {
    "bench_speed.py": (["--only", "compile", "growth", "check", "build"], "PDF sheet"),
}
"""The scripts whose short form renders PDFs in rows of their own: a plain ``pytest -q`` runs
them without those rows (the arguments that leave them out, the words they print), which were
most of its CPU here (issue 44); README's command (``--layout-matrix``, CI) runs them whole."""

RATIO = re.compile(r"\d\.\d+x")


def test_every_timing_script_in_bench_is_run_here() -> None:
    scripts = {p.name for p in BENCH.glob("bench_*.py")} - {"bench_issue29.py", "bench_issue44.py"}
    assert scripts == set(ROWS)


FORK = r"""
import os, runpy, sys, traceback
import rulesdsl.compiler  # what every script loads, loaded once
for line in sys.stdin:
    script, out, err, *extra = line.rstrip("\n").split("\t")
    pid = os.fork()
    if pid == 0:  # as `python <script> --quick`, its stdout in `out`, its stderr in `err`
        for fd, path in ((1, out), (2, err)):
            os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
        sys.argv, sys.path[0] = [script, "--quick", *extra], os.path.dirname(script)
        code = 0
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
"""
"""The Python the scripts are forked from: a line ``script<TAB>stdout file<TAB>stderr file``
(then the script's arguments after ``--quick``, if any, each after a tab) in, the script's
exit status out."""


@pytest.fixture(scope="module")
def fork() -> Iterator[subprocess.Popen[str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(
        [sys.executable, "-c", FORK],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=env,
    ) as parent:
        yield parent
        assert parent.stdin is not None
        parent.stdin.close()
        try:
            parent.wait(timeout=60)
        except subprocess.TimeoutExpired:  # a script that never ended
            parent.kill()


@pytest.mark.parametrize("script", sorted(ROWS))
def test_the_benchmark_runs_in_its_short_form_and_prints_its_rows(
    script: str, fork: subprocess.Popen[str], tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    assert fork.stdin is not None and fork.stdout is not None
    out, err = tmp_path / "stdout", tmp_path / "stderr"
    whole = pytestconfig.getoption("--layout-matrix") or pytestconfig.getoption(
        "--layout-matrix-full"
    )
    extra, left = ([], "") if whole or script not in PDF_ROWS else PDF_ROWS[script]
    fork.stdin.write("\t".join([str(BENCH / script), str(out), str(err), *extra]) + "\n")
    fork.stdin.flush()
    if not select.select([fork.stdout], [], [], 300)[0]:
        fork.kill()  # the scripts after it fail too, rather than read its status as theirs
        pytest.fail(f"{script} still runs after 300 s")
    code = int(fork.stdout.readline())
    printed = out.read_text("utf-8")
    assert code == 0, printed[-2000:] + err.read_text("utf-8")[-3000:]
    for words in ROWS[script]:
        assert words in printed or words == left, (words, printed[-2000:])
    if script not in ("bench_compile.py", "bench_limits.py", "bench_extends.py"):
        assert RATIO.search(printed), printed[-2000:]


@pytest.mark.parametrize("run", ["bench_issue29", "bench_issue44"])
def test_each_part_of_an_issue_run_is_a_timing_script_run_here(run: str) -> None:
    module = importlib.import_module(f"bench.{run}")
    assert {argv[0] for argv in module.PARTS.values()} <= set(ROWS)
