"""The workbook fuzz run (dev/workbookfuzz.py): a short run of hostile .xlsx and .ods charts
through `import` finds no traceback or hang, within 1 GiB. dev/README.md gives the long run."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from dev import workbookfuzz
from tests.conftest import ROOT


def test_each_change_makes_another_workbook() -> None:
    rng = random.Random(5)
    rows = workbookfuzz.SMALL
    for change in workbookfuzz.CHANGES:
        book = workbookfuzz.Plan()
        copy = [list(r) for r in rows]
        assert change(rng, copy, book)
        assert book != workbookfuzz.Plan() or copy != rows


def test_a_short_run_finds_nothing(tmp_path: Path) -> None:
    """In a process of its own, which reads its own peak memory (fuzz.peak_rss_bytes): the
    run's 1 GiB bound was read off a test worker that had laid out the layout matrix."""
    report = tmp_path / "report.json"
    argv = ["--inputs", "30", "--seed", "3", "--report", str(report)]
    done = subprocess.run(
        [sys.executable, "-m", "dev.workbookfuzz", *argv],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    summary = json.loads(report.read_text("utf-8"))
    assert (done.returncode, summary["tracebacks"], summary["hangs"]) == (0, 0, 0), summary
    assert summary["peak_rss_mib"] < 1024
