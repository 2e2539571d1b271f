"""The workbook fuzz run (dev/workbookfuzz.py): a short run of hostile .xlsx and .ods charts
through `import` finds no traceback or hang, within 1 GiB. dev/README.md gives the long run."""

from __future__ import annotations

import json
import random
from pathlib import Path

from dev import workbookfuzz


def test_each_change_makes_another_workbook() -> None:
    rng = random.Random(5)
    rows = workbookfuzz.SMALL
    for change in workbookfuzz.CHANGES:
        book = workbookfuzz.Plan()
        copy = [list(r) for r in rows]
        assert change(rng, copy, book)
        assert book != workbookfuzz.Plan() or copy != rows


def test_a_short_run_finds_nothing(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    code = workbookfuzz.main(["--inputs", "30", "--seed", "3", "--report", str(report)])
    summary = json.loads(report.read_text("utf-8"))
    assert (code, summary["tracebacks"], summary["hangs"]) == (0, 0, 0)
