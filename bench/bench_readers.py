"""Benchmark: the chart readers' growth with their input (issue 45): CSV, .xlsx and .ods.

Run: python bench/bench_readers.py [--rows N] [--rounds R]

For each format, one chart of N rows (feature, label, two modes), then 4N and 16N, is read
from its bytes to its cells parsed with the DSL's grammar, as `rulesdsl import` reads it: the
CSV decoded (chart_read.decode_chart), a workbook's sheet made CSV text
(xlsx_chart.read_workbook), then csv_chart.read_chart. The figure is CPU time
(time.process_time), the minimum of the rounds; the ratio is to the same format's N-row
chart, timed in the same run: a linear reader gives 4x and 16x.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dev.workbooks import Cell, ods, xlsx  # noqa: E402
from rulesdsl.interchange.chart_read import decode_chart  # noqa: E402
from rulesdsl.interchange.csv_chart import Reading, read_chart  # noqa: E402
from rulesdsl.interchange.xlsx_chart import read_workbook  # noqa: E402


def rows(n: int) -> list[list[Cell]]:
    body: list[list[Cell]] = [
        [f"f{i}", f"Feature {i}", i % 7 + 1, "impassable" if i % 3 else 1.5] for i in range(n)
    ]
    return [["feature", "label", "walker", "hover"], *body]


def chart(kind: str, n: int) -> bytes:
    match kind:
        case "csv":
            return "".join(",".join(str(c) for c in r) + "\r\n" for r in rows(n)).encode()
        case "xlsx":
            return xlsx(rows(n))
        case "ods":
            return ods(rows(n))
    raise ValueError(kind)


def read(kind: str, data: bytes) -> int:
    """The chart's rows read, as `import` reads them (their count)."""
    if kind == "csv":
        loaded = decode_chart(data, "c.csv")
    else:
        loaded = read_workbook(data, f"c.{kind}", "xlsx" if kind == "xlsx" else "ods", "marsh")
    assert loaded.text is not None, loaded.diagnostics
    _, _, found, diags = read_chart(loaded.text, "c", reading=Reading(delimiter=","))
    assert not diags, diags[:3]
    return len(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="the smoke run CI makes: 20 rows")
    args = parser.parse_args()
    if args.quick:
        args.rows, args.rounds = 20, 1
    print(f"CPU seconds, min of {args.rounds}; ratio to the {args.rows:,}-row chart")
    print(f"{'format':<6} {'rows':>7} {'bytes':>10} {'seconds':>8} {'ratio':>6}")
    for kind in ("csv", "xlsx", "ods"):
        first = 0.0
        for scale in (1, 4, 16):
            n = args.rows * scale
            data = chart(kind, n)
            best = float("inf")
            for _ in range(args.rounds):
                start = time.process_time()
                assert read(kind, data) == n
                best = min(best, time.process_time() - start)
            first = first or best
            print(f"{kind:<6} {n:>7,} {len(data):>10,} {best:>8.3f} {best / first:>5.1f}x")


if __name__ == "__main__":
    main()
