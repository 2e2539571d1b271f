"""The workbook fuzz run: hostile .xlsx and .ods charts through `rulesdsl import`.

    python dev/workbookfuzz.py                         # 1,000 inputs, seed 0
    python dev/workbookfuzz.py --inputs 200 --seed 7 --report /tmp/workbookfuzz.json

Each input is a chart of a bundled ruleset's layer (or a small one) written as a workbook byte
by byte (dev/workbooks.py), then made hostile by one to three of: a far cell (up to
XFD1048576, with a value or without), a stale ``<dimension>``, shared strings of up to 64 MiB
(one huge string, or one referenced by many cells), formulas without their saved value (and
with it), error values, merged ranges (over the header, the data, or far away), a run of rows
or cells repeated up to 99,999,999 times (.ods), a part's XML mutated byte by byte, the zip's
bytes mutated. Each input runs `rulesdsl import` in the process.

Findings: a *traceback* (an exception out of the command, or an exit status other than 0, 1
or 2) and a *hang* (past ``--time-limit`` CPU seconds). The summary gives the slowest input's
CPU seconds and the process's peak memory (resident set) over the whole run. Exit status 0
when there was no finding and the peak stayed under 1 GiB, 1 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import signal
import sys
import tempfile
import time
import traceback
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dev import fuzz  # noqa: E402
from dev.workbooks import (  # noqa: E402
    Cell,
    Raw,
    big_shared_strings,
    column_letters,
    ods,
    sheet_xml,
    xlsx,
)
from rulesdsl.commands.cli import main as cli  # noqa: E402
from rulesdsl.compiler import Compiler  # noqa: E402
from rulesdsl.interchange.chart_export import chart_rows  # noqa: E402

GIB = 1024 * 1024 * 1024
SMALL: list[list[Cell]] = [
    ["feature", "label", "walker", "hover"],
    ["bog", "Bog", 2, 1],
    ["fen", "Fen", 3, "impassable"],
]


@dataclass
class Finding:
    kind: str  # "traceback" or "hang"
    what: str
    detail: str


def seeds() -> list[tuple[str, list[list[Cell]]]]:
    """(layer, rows) for the layers of the bundled rulesets, and a small chart."""
    out: list[tuple[str, list[list[Cell]]]] = [("marsh", SMALL)]
    compiler = Compiler()
    for path in sorted((ROOT / "rulesets").glob("*.terrain")):
        rs = compiler.compile_file(path).ruleset
        assert rs is not None
        for layer in rs.layers:
            found = chart_rows(rs, layer.id)
            assert found is not None
            rows: list[list[Cell]] = [list(r) for r in found[0]]
            out.append((layer.id, rows))
    return out


Rows = list[list[Cell]]


@dataclass
class Plan:
    """What is done to one workbook."""

    extra: list[str] = field(default_factory=list)  # rows of XML after the chart's
    dimension: str | None = None
    merges: list[str] = field(default_factory=list)
    shared: bytes | None = None
    ods_rows: list[str] = field(default_factory=list)  # set: the workbook is an .ods
    mutate_xml: int = 0
    mutate_zip: int = 0


Change = Callable[[random.Random, Rows, Plan], str]


def _far(rng: random.Random, rows: Rows, book: Plan) -> str:
    row, column = (
        rng.choice([1_048_576, 100_001, rng.randint(1, 200_000)]),
        rng.choice([16_384, 1_001, rng.randint(1, 2_000)]),
    )
    ref = f"{column_letters(column)}{row}"
    cell = f'<c r="{ref}"><v>1</v></c>' if rng.random() < 0.7 else f'<c r="{ref}" s="1"/>'
    book.extra.append(f'<row r="{row}">{cell}</row>')
    return f"far {ref}"


def _dimension(rng: random.Random, rows: Rows, book: Plan) -> str:
    book.dimension = f"A1:{column_letters(rng.randint(1, 4))}{rng.randint(1, 3)}"
    return f"dimension {book.dimension}"


def _shared(rng: random.Random, rows: Rows, book: Plan) -> str:
    megabytes = rng.choice([1, 8, 31, 33, 64])
    book.shared = big_shared_strings(megabytes)
    if rng.random() < 0.5:  # many cells naming the one huge string
        count = rng.choice([2, 100, 5_000])
        book.extra.append(
            f'<row r="{len(rows) + 1}">'
            + "".join(f'<c r="{column_letters(c)}{len(rows) + 1}" t="s"><v>0</v></c>'
                      for c in range(1, min(count, 1_000) + 1))
            + "</row>"
        )  # fmt: skip
        return f"shared {megabytes} MiB x {count}"
    return f"shared {megabytes} MiB"


def _cell_xml(rng: random.Random, rows: Rows) -> tuple[int, int, str]:
    r = rng.randrange(1, len(rows) + 1)
    c = rng.randrange(1, max(len(rows[r - 1]), 1) + 1)
    return r, c, f"{column_letters(c)}{r}"


def _formula(rng: random.Random, rows: Rows, book: Plan) -> str:
    r, c, ref = _cell_xml(rng, rows)
    xml = rng.choice(
        [f'<c r="{ref}"><f>1+2</f></c>', f'<c r="{ref}"><f>1+2</f><v>3</v></c>',
         f'<c r="{ref}" t="str"><f>"a"</f><v></v></c>', f'<c r="{ref}"><f t="shared" si="0"/></c>',
         f'<c r="{ref}" t="e"><f>1/0</f><v>#DIV/0!</v></c>', f'<c r="{ref}" t="s"><v>99</v></c>',
         f'<c r="{ref}"><v>1e999</v></c>', f'<c r="{ref}" t="b"><v>1</v></c>']
    )  # fmt: skip
    while len(rows[r - 1]) < c:
        rows[r - 1].append(None)
    rows[r - 1][c - 1] = Raw(xml)
    return f"cell {xml}"


def _merge(rng: random.Random, rows: Rows, book: Plan) -> str:
    top, left = rng.randint(1, 3), rng.randint(1, 4)
    bottom = top + rng.choice([0, 0, 1, 5, 1_048_000])
    right = left + rng.choice([0, 1, 2, 16_000])
    ref = f"A{top}" if bottom > 1_048_576 else f"{column_letters(left)}{top}"
    merge = f"{ref}:{column_letters(min(right, 16_384))}{min(bottom, 1_048_576)}"
    book.merges.append(merge)
    return f"merge {merge}"


def _repeat(rng: random.Random, rows: Rows, book: Plan) -> str:
    count = rng.choice([2, 1_000, 1_048_576, 99_999_999])
    filled = rng.random() < 0.5
    cell = (
        f'<table:table-cell table:number-columns-repeated="{rng.choice([1, 3, 16_384])}" '
        + ('office:value-type="float" office:value="1"' if filled else "")
        + "/>"
    )
    book.ods_rows.append(
        f'<table:table-row table:number-rows-repeated="{count}">{cell}</table:table-row>'
    )
    return f"ods rows x {count}, {'filled' if filled else 'empty'}"


def _xml_bytes(rng: random.Random, rows: Rows, book: Plan) -> str:
    book.mutate_xml = rng.randint(1, 8)
    return "xml bytes"


def _zip_bytes(rng: random.Random, rows: Rows, book: Plan) -> str:
    book.mutate_zip = rng.randint(1, 4)
    return "zip bytes"


CHANGES: list[Change] = [
    _far, _dimension, _shared, _formula, _formula, _merge, _repeat, _xml_bytes, _zip_bytes
]  # fmt: skip


def _flip(rng: random.Random, data: bytes, times: int) -> bytes:
    for _ in range(times):
        at = rng.randrange(len(data))
        data = data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
    return data


def make(rng: random.Random, rows: Rows, layer: str) -> tuple[bytes, str, list[str]]:
    """A hostile workbook: its bytes, its suffix and what was done to it."""
    rows = [list(r) for r in rows]
    book = Plan()
    how = [rng.choice(CHANGES)(rng, rows, book) for _ in range(rng.randint(1, 3))]
    if book.ods_rows:
        plain: list[list[Cell] | Raw] = [[c for c in r if not isinstance(c, Raw)] for r in rows]
        data, suffix = ods([*plain, *map(Raw, book.ods_rows)], name=layer), ".ods"
    else:
        body = sheet_xml(rows, book.dimension, tuple(book.merges))
        body = body.replace("</sheetData>", "".join(book.extra) + "</sheetData>")
        data, suffix = xlsx([], name=layer, shared=book.shared, sheet=body), ".xlsx"
    if book.mutate_xml:
        data = _mutate_part(rng, data, book.mutate_xml)
    if book.mutate_zip:
        data = _flip(rng, data, book.mutate_zip)
    return data, suffix, how


def _mutate_part(rng: random.Random, data: bytes, times: int) -> bytes:
    """The workbook with one of its parts' bytes flipped, zipped again (so the zip is sound)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        names = src.namelist()
        chosen = rng.choice(names)
        for name in names:
            part = src.read(name)
            if name == chosen and part:
                part = _flip(rng, part, times)
            dst.writestr(name, part)
    return out.getvalue()


def run_case(rng: random.Random, seed: tuple[str, Rows], work: Path) -> tuple[list[Finding], str]:
    layer, rows = seed
    data, suffix, how = make(rng, rows, layer)
    path = work / f"chart{suffix}"
    path.write_bytes(data)
    what = f"{layer}{suffix}: {'; '.join(how)}"
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli(["import", str(path), "--layer", layer])
    except fuzz.Hang:
        raise
    except BaseException:  # a traceback, SystemExit included: the command must return
        return [Finding("traceback", what, traceback.format_exc()[-2000:])], what
    if code not in (0, 1, 2):
        return [Finding("traceback", what, f"exit status {code}")], what
    return [], what


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--inputs", type=int, default=1_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--time-limit", type=float, default=30.0, help="CPU seconds per input")
    p.add_argument("--report", default="workbookfuzz.json")
    p.add_argument("--progress", type=int, default=0, help="print a line every N inputs")
    args = p.parse_args(argv)
    with fuzz.hang_alarms():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    starts = seeds()
    findings: list[Finding] = []
    slowest, slowest_what = 0.0, ""
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.inputs):
            work = Path(tmp) / str(i)
            work.mkdir()
            before = time.process_time()
            signal.setitimer(signal.ITIMER_PROF, args.time_limit)
            signal.setitimer(signal.ITIMER_REAL, 10 * args.time_limit)
            what = f"input {i}"
            try:
                found, what = run_case(rng, rng.choice(starts), work)
                findings += found
            except fuzz.Hang:
                findings.append(Finding("hang", what, ""))
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.setitimer(signal.ITIMER_REAL, 0)
            spent = time.process_time() - before
            if spent > slowest:
                slowest, slowest_what = spent, what
            for path in work.iterdir():
                path.unlink()
            work.rmdir()
            if args.progress and (i + 1) % args.progress == 0:
                print(f"{i + 1} inputs, {len(findings)} findings", file=sys.stderr)
    peak = fuzz.peak_rss_bytes()
    summary = {
        "seed": args.seed,
        "inputs": args.inputs,
        "seconds": round(time.monotonic() - start),
        "tracebacks": sum(f.kind == "traceback" for f in findings),
        "hangs": sum(f.kind == "hang" for f in findings),
        "slowest_cpu_seconds": round(slowest, 2),
        "slowest": slowest_what,
        "peak_rss_mib": round(peak / 1024 / 1024),
        "findings": [f.__dict__ for f in findings[:50]],
    }
    Path(args.report).write_text(json.dumps(summary, indent=1), "utf-8")
    print(json.dumps({k: v for k, v in summary.items() if k != "findings"}))
    return 1 if findings or peak >= GIB else 0


if __name__ == "__main__":
    sys.exit(main())
