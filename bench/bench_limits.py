"""Peak memory of `rulesdsl check` on the largest inputs the size limits admit.

Run: python bench/bench_limits.py [KIND ...]   (about 2 minutes for every kind)
     python bench/bench_limits.py --quick      (the smoke run CI makes: one kind)

Each input is exactly at (or just under) the file limit, 2 MiB, and is checked in a fresh
process, which prints its own peak RSS (``resource.getrusage``, after the check). The figures
are in docs/language.md, "Size limits".
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rulesdsl.sources import MAX_FILE_BYTES, MAX_TABLE_ROWS

HEAD = 'ruleset adv "Adv"\nversion 1.0.0\nlanguages en\nunits distance in, cost MP\n'
HEAD += 'mode walker "Walker"\n'


def fill(line: Callable[[int], str], head: str = HEAD, tail: str = "") -> str:
    """``head``, then ``line(i)`` for i = 0, 1, ... while the file stays within the limit."""
    parts, size, i = [head], len(head.encode()) + len(tail.encode()), 0
    while True:
        text = line(i)
        if size + len(text.encode()) > MAX_FILE_BYTES:
            return "".join(parts) + tail
        parts.append(text)
        size += len(text.encode())
        i += 1


def bench_like() -> str:
    """The benchmark generator's ruleset, cut to whole features at the limit."""
    import gen_ruleset

    n = 2000
    while len(gen_ruleset.terrain(n + 500).encode()) <= MAX_FILE_BYTES:
        n += 500
    return gen_ruleset.terrain(n)


INPUTS: dict[str, Callable[[], str]] = {
    "bench": bench_like,
    "modes": lambda: fill(lambda i: f"mode m{i:07d}\n"),
    "dense-tokens": lambda: fill(lambda i: "languages" + " en" * 300 + "\n"),
    "table-rows": lambda: fill(
        lambda i: f'  r{i} "R{i}" | {i % 7}\n' if i < MAX_TABLE_ROWS else "#" * 60 + "\n",
        HEAD + 'table t "T" {\n',
        "}\n",
    ),
    "long-strings": lambda: fill(lambda i: f'mode m{i} "' + "x" * 19_900 + '"\n'),
    "one-string": lambda: HEAD + 'mode tank "' + "x" * (MAX_FILE_BYTES - len(HEAD) - 20) + '"\n',
    "blank-lines": lambda: HEAD + "\n" * (MAX_FILE_BYTES - len(HEAD)),
    "comments": lambda: fill(lambda i: "# a comment that says nothing\n"),
    "unknown-names": lambda: fill(lambda i: f"exclude n{i} n{i + 1}\n"),
    "one-wrong-line": lambda: (
        HEAD.replace("languages en\n", "")
        + "languages en"
        + " a" * ((MAX_FILE_BYTES - len(HEAD) - 20) // 2)
        + "\n"
    ),
}

CHILD = (
    "import resource, sys; from rulesdsl.commands.cli import main; "
    "code = main(['check', sys.argv[1]]);"
    "print(code, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, file=sys.__stdout__)"
)


def measure(kind: str, folder: Path) -> None:
    path = folder / f"{kind}.terrain"
    path.write_text(INPUTS[kind](), "utf-8")
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=False
    )
    code, peak = done.stdout.split()[-2:] if done.stdout.strip() else ("?", "?")
    first = next((ln for ln in done.stderr.splitlines() if "error[" in ln), "")
    code_seen = first.split("error[")[1][:4] if first else "-"
    print(
        f"{kind:<14} {path.stat().st_size:>10,} bytes  exit {code}  peak {peak:>5} MB  "
        f"first error {code_seen}",
        flush=True,
    )


def main(kinds: list[str]) -> None:
    if kinds == ["--quick"]:
        kinds = ["comments"]
    with tempfile.TemporaryDirectory(prefix="rulesdsl-limits-") as tmp:
        for kind in kinds or list(INPUTS):
            measure(kind, Path(tmp))


if __name__ == "__main__":
    main(sys.argv[1:])
