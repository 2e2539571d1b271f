"""The spreadsheet fuzz run: charts as spreadsheets save them, then mutated byte by byte and
cell by cell, through `rulesdsl import` alone and `--into` a copy of their ruleset.

    python dev/csvfuzz.py                        # 3,000 inputs, seed 0
    python dev/csvfuzz.py --inputs 500 --seed 7 --report /tmp/csvfuzz.json

Each input starts from a layer or table of a bundled ruleset exported as CSV (as it is, or
for French Excel: `;`, decimal commas, a byte-order mark), or the French Excel fixtures of
tests/data/charts; 1 to 4 mutations change it: bytes flipped, inserted or deleted, lines
doubled or dropped, delimiters swapped, quotes and line breaks (CR, LF, CRLF) put anywhere,
a byte-order mark or Excel's `sep=` line added, a cell replaced by a hostile one (a formula,
`1,500`, a control character, a language code as a header...), the whole re-encoded (cp1252,
UTF-16, Latin-1). Options are drawn too: `--encoding`, `--locale`, `--delimiter`, `--into`.

Findings: a *traceback* is an exception out of the command or an exit status other than 0, 1
or 2; a *hang* is an input past ``--time-limit`` CPU seconds; *broken* is an `--into` that
exited 0 but left a ruleset that does not compile, or exited non-zero and changed the file.
Exit status 0 when there was no finding, 1 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import random
import shutil
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dev import fuzz  # noqa: E402
from rulesdsl.checks.examples import ANSWER_CODES  # noqa: E402
from rulesdsl.commands.cli import main as cli  # noqa: E402
from rulesdsl.compiler import Compiler  # noqa: E402
from rulesdsl.interchange.chart_export import chart_rows, to_csv, with_decimal_comma  # noqa: E402


@dataclass
class Finding:
    kind: str  # "traceback", "hang" or "broken"
    what: str  # the command and the mutations
    detail: str
    file: str


RULESETS = ROOT / "rulesets"
CHARTS = ROOT / "tests" / "data" / "charts"
CELLS = [
    '=HYPERLINK("x")',
    "'=1",
    "+1",
    "-1",
    "@SUM(A1)",
    "1,500",
    "1,5",
    "0,25",
    "1.5",
    "as clear",
    "as nowhere",
    "impassable",
    "1 per 2 in",
    "3 may not end",
    "along 1/2",
    "walker 2",
    "step climb",
    "\x00",
    "\x1b[31m",
    "\u202e",
    "\ud800",
    "fr",
    "ar",
    "hq",
    "label fr",
    "note 2 ru",
    "column to_hit",
    "ignores others",
    "yes",
    "source",
    "hg p.12",
    "]]",
    '"',
    '""',
    "",
    " ",
    "x" * 300,
    "9" * 400,
]
ENCODINGS = ["cp1252", "latin-1", "utf-16", "utf-8-sig"]


@functools.cache
def seeds() -> tuple[tuple[str, str, bool, bytes], ...]:
    """(ruleset stem, layer or table, is a table, chart bytes) for every layer and table: made
    once a process (the suite's two tests of this script read them both)."""
    out = []
    compiler = Compiler()
    for path in sorted(RULESETS.glob("*.terrain")):
        rs = compiler.compile_file(path).ruleset
        assert rs is not None
        tables = [t.id for t in rs.tables]  # a list: a set's order follows the hash seed
        for name in [*(x.id for x in rs.layers), *tables]:
            found = chart_rows(rs, name)
            assert found is not None
            rows, values = found
            out.append((path.stem, name, name in tables, to_csv(rows).encode("utf-8")))
            french = to_csv(with_decimal_comma(rows, values), ";")
            out.append((path.stem, name, name in tables, b"\xef\xbb\xbf" + french.encode()))
    for chart in ("terrain_fr.csv", "terrain_fr_cp1252.csv", "terrain_unicode.txt"):
        out.append(("heavy_gear", "terrain", False, (CHARTS / chart).read_bytes()))
    return tuple(out)


def mutate(rng: random.Random, data: bytes) -> tuple[bytes, list[str]]:
    how = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(
            ["flip", "insert", "delete", "lines", "delimiter", "quote", "newline", "bom",
             "sep", "cell", "encode"]
        )  # fmt: skip
        how.append(kind)
        n = len(data)
        at = rng.randrange(n + 1)
        if kind == "flip" and n:
            data = data[: at % n] + bytes([rng.randrange(256)]) + data[at % n + 1 :]
        elif kind == "insert":
            data = (
                data[:at] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) + data[at:]
            )
        elif kind == "delete":
            data = data[:at] + data[at + rng.randint(1, 40) :]
        elif kind == "lines":
            lines = data.split(b"\n")
            i = rng.randrange(len(lines))
            lines.insert(i, lines[rng.randrange(len(lines))]) if rng.random() < 0.5 else lines.pop(
                i
            )
            data = b"\n".join(lines)
        elif kind == "delimiter":
            a, b = rng.sample([b",", b";", b"\t", b"|"], 2)
            data = (
                data.replace(a, b) if rng.random() < 0.5 else data[:at] + data[at:].replace(a, b, 3)
            )
        elif kind == "quote":
            data = data[:at] + rng.choice([b'"', b'""', b'"""', b"'"]) + data[at:]
        elif kind == "newline":
            data = data[:at] + rng.choice([b"\r", b"\n", b"\r\n", b"\n\n"]) + data[at:]
        elif kind == "bom":
            data = rng.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]) + data
        elif kind == "sep":
            data = b"sep=" + rng.choice([b";", b",", b"\t", b"|", b"x"]) + b"\r\n" + data
        elif kind == "cell":
            text = data.decode("utf-8", "replace")
            cells = [i for i, ch in enumerate(text) if ch in ",;\t\n"]
            if cells:
                i = rng.choice(cells) + 1
                j = min((k for k in cells if k >= i), default=len(text))
                cell = rng.choice(CELLS)
                if rng.random() < 0.3:
                    cell = '"' + cell.replace('"', '""') + '"'
                text = text[:i] + cell + text[j:]
            data = text.encode("utf-8", "surrogatepass")
        elif kind == "encode":
            text = data.decode("utf-8", "replace")
            data = text.encode(rng.choice(ENCODINGS), "replace")
    return data, how


def run_case(rng: random.Random, seed: tuple[str, str, bool, bytes], work: Path) -> list[Finding]:
    stem, name, table, data = seed
    data, how = mutate(rng, data)
    chart = work / rng.choice(["c.csv", "c.txt", "c.tsv"])
    chart.write_bytes(data)
    args = ["import", str(chart), "--table" if table else "--layer", name]
    target = None
    if table or rng.random() < 0.6:
        for path in RULESETS.glob("*.terrain"):
            shutil.copy(path, work)
        target = work / f"{stem}.terrain"
        args += ["--into", str(target)]
    if rng.random() < 0.2:
        args += ["--encoding", rng.choice(["cp1252", "utf-16", "latin-1", "utf-8"])]
    if rng.random() < 0.2:
        args += ["--locale", rng.choice(["fr", "en", "de", "ru"])]
    if rng.random() < 0.1:
        args += ["--delimiter", rng.choice(["comma", "semicolon", "tab", ";"])]
    before = target.read_bytes() if target else b""
    what = f"{' '.join(a if a != str(chart) else chart.name for a in args)}; {', '.join(how)}"
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    except fuzz.Hang:
        raise
    except BaseException:
        return [Finding("traceback", what, traceback.format_exc(limit=6), str(chart))]
    found = []
    if code not in (0, 1, 2):
        found.append(Finding("traceback", what, f"exit status {code}", str(chart)))
    if target is not None:
        after = target.read_bytes()
        if code != 0 and after != before and not _only_answers_to_restate(target):
            found.append(Finding("broken", what, "changed on failure", str(chart)))
        if code == 0 and after != before and not Compiler().compile_file(target).ok:
            found.append(Finding("broken", what, "wrote a ruleset with errors", str(chart)))
    return found


def _only_answers_to_restate(target: Path) -> bool:
    """Whether the ruleset ``--into`` wrote fails only on worked examples whose answers the
    chart changed (E270, E271): `import` writes the chart then and exits 1, asking the user
    to restate them (docs/editors.md, "With `--into`"), which is no broken write."""
    found = Compiler().compile_file(target).diagnostics
    errors = [d for d in found if d.is_error]
    return bool(errors) and all(d.code in ANSWER_CODES for d in errors)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=3_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--report", default="csvfuzz-report.json")
    parser.add_argument("--progress", type=int, default=500)
    args = parser.parse_args(argv)
    with fuzz.hang_alarms():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    starts = seeds()
    findings: list[Finding] = []
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="rulesdsl-csvfuzz-") as tmp:
        for i in range(args.inputs):
            work = Path(tmp) / str(i)
            work.mkdir()
            signal.setitimer(signal.ITIMER_PROF, args.time_limit)
            signal.setitimer(signal.ITIMER_REAL, 10 * args.time_limit)
            try:
                findings += run_case(rng, rng.choice(starts), work)
            except fuzz.Hang:
                findings.append(Finding("hang", f"input {i}", "", str(work)))
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.setitimer(signal.ITIMER_REAL, 0)
            shutil.rmtree(work, ignore_errors=True)
            if args.progress and (i + 1) % args.progress == 0:
                print(f"{i + 1} inputs, {len(findings)} findings", file=sys.stderr)
    summary = {
        "seed": args.seed,
        "inputs": args.inputs,
        "seconds": round(time.monotonic() - start),
        "tracebacks": sum(f.kind == "traceback" for f in findings),
        "hangs": sum(f.kind == "hang" for f in findings),
        "broken": sum(f.kind == "broken" for f in findings),
        "findings": [f.__dict__ for f in findings[:50]],
    }
    Path(args.report).write_text(json.dumps(summary, indent=1), "utf-8")
    print(json.dumps({k: v for k, v in summary.items() if k != "findings"}))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
