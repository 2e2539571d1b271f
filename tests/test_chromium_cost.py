"""dev/chromium_cost.py: the CPU of the browsers the tests start, test by test, which no
per-test row sees (issue 44)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from dev import chromium_cost
from tests.conftest import ROOT


def test_a_browser_s_tree_counts_its_children_running_and_reaped(tmp_path: Path) -> None:
    """A "chromium" (a shell named so) whose "chromium" child has burnt CPU and exited
    (reaped: in its parent's children's time), while another child still runs."""
    named = tmp_path / "chromium"
    named.symlink_to(sys.executable)
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.1: pass"
    parent = (
        "import subprocess, time\n"
        f"subprocess.run([{str(named)!r}, '-c', {burn!r}])\n"
        f"child = subprocess.Popen([{str(named)!r}, '-c', 'import time; time.sleep(30)'])\n"
        "print(child.pid, flush=True)\n"
        "time.sleep(30)\n"
    )
    browser = subprocess.Popen([str(named), "-c", parent], stdout=subprocess.PIPE, text=True)
    assert browser.stdout is not None
    child = int(browser.stdout.readline())
    try:
        assert chromium_cost.tree(browser.pid)[:1] == [browser.pid]
        assert child in chromium_cost.tree(browser.pid)
        seconds = chromium_cost.browsers(os.getpid())
        # the child is in its browser's tree, not a browser of its own (this test process may
        # have a real Chromium of its own running too: the web page tests keep one)
        assert browser.pid in seconds and child not in seconds
        assert seconds[browser.pid] >= 0.1
        assert chromium_cost.browsers(os.getpid(), names=("firefox",)) == {}
    finally:
        os.kill(child, 9)
        browser.kill()
        browser.wait()


def test_the_report_sums_the_workers_files_by_test_file(tmp_path: Path) -> None:
    (tmp_path / "gw0.json").write_text(json.dumps({"tests/a.py::t1": 1.5, "tests/b.py::t": 0.25}))
    (tmp_path / "gw1.json").write_text(json.dumps({"tests/a.py::t2[x]": 2.0}))
    done = subprocess.run(
        [sys.executable, str(ROOT / "dev" / "chromium_cost.py"), str(tmp_path), "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.splitlines()[1:] == [
        f"{'tests/a.py':<40}{2:>6}{3.5:>8.2f}",
        f"{'tests/b.py':<40}{1:>6}{0.25:>8.2f}",
        f"{'all':<40}{3:>6}{3.75:>8.2f}",
        f"{2.0:8.2f}  tests/a.py::t2[x]",
    ]
