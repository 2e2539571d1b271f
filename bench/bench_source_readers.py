"""How the readers of user files grow with their input: DSL, YAML and .po (issue 45).

Run: python bench/bench_source_readers.py [--base BYTES] [--quick]   (about a minute)

Each reader gets inputs of 1x, 4x and 16x ``--base`` bytes (128 KiB by default, so 16x is the
2 MiB file limit), made by dev/diagfuzz.py's generators: clean ones, and ones with 30 % of
their lines faulty (thousands of diagnostics). Each is read in this process through the verb
that reads it (`check` for a ruleset in the DSL or YAML, `i18n merge` for a catalog) with its
report written to a buffer, and the CPU time printed with its ratio to the 1x input of the
same row: a linear reader prints about 4 and 16 (less where a fixed cost dominates the 1x).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import resource
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dev import diagfuzz  # noqa: E402
from rulesdsl.commands.cli import main as cli  # noqa: E402

SUFFIX = {"terrain": ".terrain", "yaml": ".yaml", "po": ".po"}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(kind: str, size: int, faults: float, work: Path) -> float:
    """CPU seconds to read one input of ``kind`` (the verb's first command line only)."""
    path = work / f"input{SUFFIX[kind]}"
    path.write_text(diagfuzz.MAKERS[kind](random.Random(size), size, faults), "utf-8")
    argv = diagfuzz.verbs(kind, path, work)[0]
    start = _cpu()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        cli(argv)
    return _cpu() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=int, default=128 << 10)
    parser.add_argument("--quick", action="store_true", help="the smoke run CI makes: 256 bytes")
    args = parser.parse_args()
    if args.quick:  # 16x is 4 KiB: the faulty DSL still reparses after each of its errors
        args.base = 256  # (at 1 KiB, its 50 reparses of 16 KiB were half the smoke's CPU)
    print(f"{'reader':<10} {'faults':>6} " + " ".join(f"{f'{m}x':>14}" for m in (1, 4, 16)))
    with tempfile.TemporaryDirectory(prefix="rulesdsl-readers-") as tmp:
        work = Path(tmp)
        timed("terrain", 4_000, 0.0, work)  # the grammar and imports loaded once
        for kind in SUFFIX:
            for faults in (0.0, 0.3):
                times = [timed(kind, args.base * m, faults, work) for m in (1, 4, 16)]
                cells = [f"{t:6.2f} s {t / times[0]:4.1f}x" for t in times]
                print(f"{kind:<10} {faults:>6.0%} " + " ".join(f"{c:>14}" for c in cells))


if __name__ == "__main__":
    main()
