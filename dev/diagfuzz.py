"""The many-diagnostics fuzz run: inputs that hold thousands of faults, up to the file limit,
through the verbs that read them (issue 45: a report quoted each diagnostic's line by
splitting the whole source again, and `import` listed every one of 32,000 duplicate rows).

    python dev/diagfuzz.py                          # 400 inputs, seed 0
    python dev/diagfuzz.py --inputs 100 --seed 7 --report /tmp/diagfuzz.json

Each input is one of four kinds, its size drawn up to the 2 MiB file limit, and its faults
drawn from the kind's list (`FAULTS`), one line or row each, between good ones:

- a `.terrain` ruleset (`check`, text and `--format json`): unknown modes and `as` names,
  negative costs, costs in another unit, duplicate features, numbers beyond a float, control
  characters in labels, lines the grammar refuses, worked examples with a wrong answer;
- its YAML twin (`check`): the same faults as YAML rows (no key written twice: the first
  one stops the YAML reader, E121);
- a CSV chart (`import --layer`): duplicate rows, names that are no names, cells that do not
  parse, rows with too many cells, control characters, ambiguous `1,500`;
- a gettext catalog (`i18n merge` into a small ruleset): entries for items the ruleset does
  not have, fuzzy and untranslated entries, and entries whose source label changed.

A *traceback* is an exception out of a verb or an exit status other than 0, 1 or 2; a *hang*
is an input past ``--time-limit`` CPU seconds (10; SIGPROF), or ten times that on the clock.
The run prints the slowest input's CPU time and the process's peak resident size
(``VmHWM``), which bounds every input's. Exit status 0 when there was no finding.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dev import fuzz  # noqa: E402
from rulesdsl.commands.cli import main as cli  # noqa: E402
from rulesdsl.sources import MAX_FILE_BYTES  # noqa: E402

HEAD = """ruleset many "Many faults"
version 1.0.0
languages en
units distance in, cost MP
mode walker "Walker"
mode hover "Hover"
"""

FAULTS: dict[str, tuple[str, ...]] = {
    "terrain": (
        'f{i} "F" | -{i}',
        'f{i} "F" | flyer 2',
        'dup "Dup" | 1',
        'f{i} "F" | 2 km',
        'f{i} "F" | as nowhere{i}',
        'f{i} "F" | 1e999',
        'f{i} "F\x07" | 1',
        'f{i} "F" | | |',
        'f{i} "F" | walker walker 2',
        "{i}bad",
    ),
    "yaml": (
        '      f{i}: {{label: F, cells: "-{i}"}}',
        '      f{i}: {{label: F, cells: "flyer 2"}}',
        '      f{i}: {{label: F, cells: "2 km"}}',
        '      f{i}: {{label: F, cells: "as nowhere{i}"}}',
        "      f{i}: {{cells: 1, colour: red}}",
        "      f{i}: [1, 2]",
    ),
    "csv": (
        "dup,Dup,1",
        "f{i},F,-{i}",
        "{i}x,F,1",
        "f{i},F,| |",
        "f{i},F,1,2,3",
        'f{i},"F\x07",1',
        "f{i},F,1,500",
        "f{i},F,as nowhere{i}",
    ),
    "po": (
        '#: x\nmsgctxt "feature:nowhere{i}"\nmsgid "Nowhere"\nmsgstr "Nulle part"\n',
        '#, fuzzy\nmsgctxt "feature:f{i}"\nmsgid "F"\nmsgstr "Ef"\n',
        'msgctxt "feature:f{i}"\nmsgid "F"\nmsgstr ""\n',
        'msgctxt "feature:f{i}"\nmsgid "Changed {i}"\nmsgstr "Changé"\n',
    ),
}
"""One fault per line (row, entry); ``{i}`` makes each one's names its own."""

GOOD: dict[str, str] = {
    "terrain": 'g{i} "G" | 1, hover 2',
    "yaml": "      g{i}: {{label: G, cells: '1, hover 2'}}",
    "csv": "g{i},G,1",
    "po": 'msgctxt "feature:f{i}"\nmsgid "F"\nmsgstr "Ef"\n',
}


def _lines(
    rng: random.Random, kind: str, size: int, faults: float, head: str, tail: str = ""
) -> str:
    """``head``, then good and faulty lines of ``kind`` (a share ``faults`` of them faulty)
    until the text is ``size`` bytes, then ``tail``."""
    parts, used, i = [head], len(head.encode()) + len(tail.encode()), 0
    while True:
        model = rng.choice(FAULTS[kind]) if rng.random() < faults else GOOD[kind]
        line = model.format(i=i) + ("" if kind == "po" else "\n")
        if kind == "po":
            line += "\n"
        if used + len(line.encode()) > size:
            return "".join(parts) + tail
        parts.append(line)
        used += len(line.encode())
        i += 1


def terrain(rng: random.Random, size: int, faults: float) -> str:
    """A ruleset of one layer of ``size`` bytes, with a wrong worked example per 50 lines."""
    text = _lines(rng, "terrain", size - 2_000, faults, HEAD + 'layer ground "Ground" {\n', "}\n")
    wrong = "".join(f"example e{n} {{\n  move_cost(walker, g{n}) = 9 MP\n}}\n" for n in range(20))
    return text + wrong


def yaml(rng: random.Random, size: int, faults: float) -> str:
    head = (
        "ruleset: many\nlabel: Many faults\nversion: 1.0.0\nlanguages: [en]\n"
        "units: {distance: in, cost: MP}\n"
        "modes:\n  walker: {label: Walker}\n  hover: {label: Hover}\n"
        "layers:\n  ground:\n    label: Ground\n    rows:\n"
    )
    return _lines(rng, "yaml", size, faults, head)


def csv(rng: random.Random, size: int, faults: float) -> str:
    return _lines(rng, "csv", size, faults, "feature,label,walker\n")


PO_HEAD = 'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'


def po(rng: random.Random, size: int, faults: float) -> str:
    return _lines(rng, "po", size, faults, PO_HEAD)


SMALL_RULESET = (
    HEAD + 'layer ground "Ground" {\n' + "".join(f'  f{i} "F"  | 1\n' for i in range(50)) + "}\n"
)
"""The ruleset a catalog is merged into: the features the catalog's good entries name."""

MAKERS: dict[str, Callable[[random.Random, int, float], str]] = {
    "terrain": terrain,
    "yaml": yaml,
    "csv": csv,
    "po": po,
}


def verbs(kind: str, path: Path, work: Path) -> list[list[str]]:
    """The command lines that read an input of ``kind``."""
    if kind in ("terrain", "yaml"):
        return [["check", str(path)], ["check", "--format", "json", str(path)]]
    if kind == "csv":
        return [["import", str(path), "--layer", "ground"]]
    target = work / "many.terrain"
    target.write_text(SMALL_RULESET, "utf-8")
    return [["i18n", "merge", str(target), str(path)]]


@dataclass
class Finding:
    kind: str  # "traceback" or "hang"
    input: str
    detail: str


def make_case(rng: random.Random, work: Path) -> tuple[str, Path, str]:
    """An input written into ``work``: its kind, path and description."""
    kind = rng.choice(list(MAKERS))
    size = int(MAX_FILE_BYTES * rng.choice([0.01, 0.1, 0.5, 1.0]) * rng.uniform(0.5, 1.0))
    faults = rng.choice([0.05, 0.3, 1.0])
    suffix = {"terrain": ".terrain", "yaml": ".yaml", "csv": ".csv", "po": ".po"}[kind]
    path = work / f"many{suffix}"
    path.write_text(MAKERS[kind](rng, size, faults), "utf-8")
    return kind, path, f"{kind}, {path.stat().st_size:,} bytes, {faults:.0%} faulty lines"


def run_case(kind: str, path: Path, what: str, work: Path) -> list[Finding]:
    found = []
    for argv in verbs(kind, path, work):
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = cli(argv)
        except fuzz.Hang:
            raise
        except BaseException:
            found.append(Finding("traceback", f"{what}: {argv[0]}", traceback.format_exc(limit=6)))
            continue
        if code not in (0, 1, 2):
            found.append(Finding("traceback", f"{what}: {argv[0]}", f"exit status {code}"))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--report", default="diagfuzz-report.json")
    parser.add_argument("--progress", type=int, default=50)
    args = parser.parse_args(argv)
    with fuzz.hang_alarms():
        return _run(args)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    findings: list[Finding] = []
    slowest = (0.0, "")
    total_bytes = 0
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="rulesdsl-diagfuzz-") as tmp:
        for i in range(args.inputs):
            work = Path(tmp) / str(i)
            work.mkdir()
            kind, path, what = make_case(rng, work)
            total_bytes += path.stat().st_size
            before = _cpu()
            signal.setitimer(signal.ITIMER_PROF, args.time_limit)
            signal.setitimer(signal.ITIMER_REAL, 10 * args.time_limit)
            try:
                findings += run_case(kind, path, what, work)
            except fuzz.Hang:
                findings.append(Finding("hang", what, str(work)))
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.setitimer(signal.ITIMER_REAL, 0)
            spent = _cpu() - before
            if spent > slowest[0]:
                slowest = (spent, what)
            shutil.rmtree(work, ignore_errors=True)
            if args.progress and (i + 1) % args.progress == 0:
                print(f"{i + 1} inputs, {len(findings)} findings", file=sys.stderr)
    summary = {
        "seed": args.seed,
        "inputs": args.inputs,
        "megabytes": round(total_bytes / 2**20, 1),
        "seconds": round(time.monotonic() - start),
        "tracebacks": sum(f.kind == "traceback" for f in findings),
        "hangs": sum(f.kind == "hang" for f in findings),
        "slowest_cpu_seconds": round(slowest[0], 2),
        "slowest_input": slowest[1],
        "peak_rss_mib": round(fuzz.peak_rss_bytes() / 1024 / 1024),
        "findings": [f.__dict__ for f in findings[:50]],
    }
    Path(args.report).write_text(json.dumps(summary, indent=1), "utf-8")
    print(json.dumps({k: v for k, v in summary.items() if k != "findings"}))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
