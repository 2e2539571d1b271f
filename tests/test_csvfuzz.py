"""The spreadsheet fuzz run (dev/csvfuzz.py): a short run of mutated charts through `import`,
alone and `--into` a copy of their ruleset, finds no traceback, hang or broken ruleset.
dev/README.md gives the long run and its figures."""

from __future__ import annotations

import json
import random
from pathlib import Path

from dev import csvfuzz


def test_each_mutation_changes_the_chart() -> None:
    rng = random.Random(3)
    data = csvfuzz.seeds()[0][3]
    for _ in range(40):
        mutated, how = csvfuzz.mutate(rng, data)
        assert how and (mutated != data or "delimiter" in how or "cell" in how)


def test_a_short_run_finds_nothing(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    code = csvfuzz.main(["--inputs", "60", "--seed", "11", "--report", str(report)])
    summary = json.loads(report.read_text("utf-8"))
    assert (code, summary["tracebacks"], summary["hangs"], summary["broken"]) == (0, 0, 0, 0)
