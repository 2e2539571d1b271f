"""What headless Chromium costs the suite, test by test (issue 44): the CPU of the process
trees of the browsers the tests start, which no per-test row sees (a test's row counts its own
process and the children it reaped; the browser's renderers, GPU and utility processes run
beside the test and are reaped, if at all, when the browser closes).

As a pytest plugin it reads, before and after each test's setup, call and teardown, the CPU
(``/proc``, Linux) of every browser process tree under the test process (a process named
``chromium`` or ``chrome`` whose parent is not one), and writes each test's share to
``.pytest_cache/chromium-cost/<worker>.json``; run alone it sums those files by test file and
names the costliest tests::

    python -m pytest -p dev.chromium_cost tests/test_web_page.py tests/test_watch.py
    python dev/chromium_cost.py [FOLDER] [TOP]

A browser that closes during a teardown is counted up to its last reading (its shutdown is
not).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / ".pytest_cache" / "chromium-cost"
NAMES = ("chromium", "chrome")
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def processes() -> dict[int, tuple[str, int, float]]:
    """Each process's name, parent and CPU seconds: its own and its reaped children's."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = (Path("/proc") / entry / "stat").read_text()
            except OSError:  # gone meanwhile
                continue
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2 :].split()
            found[int(entry)] = (name, int(fields[1]), sum(map(int, fields[11:15])) / TICK)
    return found


def browsers(root: int, names: tuple[str, ...] = NAMES) -> dict[int, float]:
    """The CPU seconds of each browser process tree under ``root``, by its browser's pid: a
    renderer's time is its own while it runs and its parent's (reaped children) after, so
    each second is counted once."""
    table = processes()

    def named(pid: int) -> bool:
        return table[pid][0].startswith(names)

    out = {}
    for pid in tree(root, table):
        if pid != root and named(pid) and not named(table[pid][1]):
            out[pid] = sum(table[p][2] for p in tree(pid, table))
    return out


def tree(root: int, table: dict[int, tuple[str, int, float]] | None = None) -> list[int]:
    """``root`` and the processes under it, from ``table`` (:func:`processes`, read now if
    not given)."""
    table = processes() if table is None else table
    children: dict[int, list[int]] = defaultdict(list)
    for pid, (_, parent, _) in table.items():
        children[parent].append(pid)
    found = [root]
    for pid in found:  # grows as it goes: breadth first
        found.extend(children[pid])
    return found


class Plugin:
    """Each test's Chromium seconds: the growth of the trees seen before and after each phase
    (a tree new in the phase counts whole, a tree gone counts nothing)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.seconds: dict[str, float] = defaultdict(float)

    def _phase(self, nodeid: str) -> Iterator[None]:
        before = browsers(os.getpid())
        yield
        after = browsers(os.getpid())
        self.seconds[nodeid] += sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item: Any) -> Iterator[None]:
        yield from self._phase(item.nodeid)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: Any) -> Iterator[None]:
        yield from self._phase(item.nodeid)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item: Any) -> Iterator[None]:
        yield from self._phase(item.nodeid)

    def pytest_unconfigure(self, config: Any) -> None:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / f"{worker}.json").write_text(json.dumps(self.seconds, indent=0))


def pytest_configure(config: Any) -> None:
    if not hasattr(config, "workerinput"):  # the controller, or a run without xdist
        shutil.rmtree(FOLDER, ignore_errors=True)
    config.pluginmanager.register(Plugin(FOLDER), "chromium-cost")


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    seconds: dict[str, float] = {}
    for path in sorted(folder.glob("*.json")):
        seconds.update(json.loads(path.read_text()))
    if not seconds:
        print(f"no Chromium costs under {folder}: run pytest -p dev.chromium_cost", file=sys.stderr)
        return 1
    files: dict[str, list[float]] = defaultdict(list)
    for nodeid, cpu in seconds.items():
        files[nodeid.split("::")[0]].append(cpu)
    print(f"{'file':<40}{'tests':>6}{'CPU s':>8}")
    for name, cpus in sorted(files.items(), key=lambda kv: -sum(kv[1])):
        print(f"{name:<40}{len(cpus):>6}{sum(cpus):>8.2f}")
    print(f"{'all':<40}{len(seconds):>6}{sum(seconds.values()):>8.2f}")
    for nodeid, cpu in sorted(seconds.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{cpu:8.2f}  {nodeid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
