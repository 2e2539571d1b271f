"""dev/layout_cost.py sums the CPU the suite's PDF layouts took, from the layout store the
suite keeps (tests/pdf_layout.py): the floor of the layout tests README states."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

from tests import pdf_layout
from tests.conftest import ROOT


def test_the_layout_cost_sums_the_store_of_the_last_build_by_kind(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    (old / "sheet-x-en-a4.pickle").write_bytes(
        pickle.dumps(pdf_layout.Layout(1, (), (), seconds=9))
    )
    new.mkdir()  # made after the old one: the store of the build last run
    stored = {
        "sheet-d20_movement-en-a4": pdf_layout.Layout(2, (), (), layouts=2, seconds=1.5),
        "deck-d20_movement-en-tarot-None": pdf_layout.Layout(4, (), (), seconds=2.5),
        "deck-d20_movement-fr-a6-None": pdf_layout.Layout(4, (), (), seconds=0.5),
    }
    for key, layout in stored.items():
        (new / f"{key}.pickle").write_bytes(pickle.dumps(layout))
    written = pdf_layout.Written(b"%PDF", pdf_layout.Layout(3, (), (), seconds=4.0))  # type: ignore[arg-type]
    (new / "written-deck-d20_movement-en-poker-None-a4.pickle").write_bytes(pickle.dumps(written))
    done = subprocess.run(
        [sys.executable, str(ROOT / "dev" / "layout_cost.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()[1:]}
    assert rows == {
        "deck": ["2", "2", "3.0"],
        "sheet": ["1", "2", "1.5"],
        "written-deck": ["1", "1", "4.0"],
        "all": ["4", "5", "8.5"],
    }
