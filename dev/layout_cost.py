"""What the test suite's PDF layouts cost: the CPU seconds WeasyPrint spent laying out each
document the last run of the suite laid out, read from the layout store it kept
(``.pytest_cache/rulesdsl-layouts/<digest>/``, tests/pdf_layout.py), summed by kind.

That sum is the floor of the layout tests: the suite lays out each of those documents once
(a second worker, or a second run of the same build, reads the store), so no test run that
checks them all spends less. Run it after ``python -m pytest -q --layout-matrix`` (README's
command) with an empty store (``--cache-clear``, or a clean clone):

    python dev/layout_cost.py [STORE]
"""

from __future__ import annotations

import pickle
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STORE = ROOT / ".pytest_cache" / "rulesdsl-layouts"


def kind(name: str) -> str:
    """``sheet``, ``deck``, ``written-sheet`` or ``written-deck`` (a PDF read too), from the
    store's file name (``deck-<ruleset>-<lang>-...``)."""
    parts = name.split("-")
    return "-".join(parts[:2]) if parts[0] == "written" else parts[0]


def main() -> int:
    sys.path.insert(0, str(ROOT))  # the pickles name tests.pdf_layout's records
    store = Path(sys.argv[1]) if len(sys.argv) > 1 else STORE
    builds = sorted(store.glob("*/"), key=lambda p: p.stat().st_mtime) if store.is_dir() else []
    if not builds:
        print(f"no layout store under {store}: run the suite first", file=sys.stderr)
        return 1
    seconds: dict[str, float] = defaultdict(float)
    documents: dict[str, int] = defaultdict(int)
    layouts: dict[str, int] = defaultdict(int)
    for path in sorted(builds[-1].glob("*.pickle")):
        if path.stem.startswith("subset-"):  # a face cut down, kept beside the layouts
            continue
        found = pickle.loads(path.read_bytes())
        layout = getattr(found, "layout", found)  # a Written holds its Layout
        key = kind(path.stem)
        seconds[key] += layout.seconds
        documents[key] += 1
        layouts[key] += layout.layouts
    print(f"{'kind':<16}{'documents':>10}{'layouts':>9}{'CPU s':>9}")
    for key in sorted(seconds):
        print(f"{key:<16}{documents[key]:>10}{layouts[key]:>9}{seconds[key]:>9.1f}")
    total = sum(seconds.values())
    print(f"{'all':<16}{sum(documents.values()):>10}{sum(layouts.values()):>9}{total:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
