"""The suite's ``--dist loadgroup`` (pyproject.toml) keeps the tests of one ``xdist_group`` on
one worker: the tests reading one rendered document, one probe of the closed unions or one built
starter project share a module fixture only there. pytest 9.2 with pytest-xdist 3.8 dropped
the groups without a word (pytest-dev/pytest-xdist#1386): each worker computed each shared
fixture again, and the probe's mypy run, about 25 s of CPU, ran twice (issue 44)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GROUPED = """import os

import pytest


@pytest.mark.xdist_group("one")
@pytest.mark.parametrize("n", range(6))
def test_grouped(n):
    print("worker", os.environ["PYTEST_XDIST_WORKER"])


@pytest.mark.parametrize("n", range(6))
def test_free(n):
    pass
"""


SUITE_SCHEDULER = """from tests.xdist_start import GroupScheduling


def pytest_xdist_make_scheduler(config, log):
    return GroupScheduling(config, log)
"""


def test_the_tests_of_one_xdist_group_run_on_one_worker(tmp_path: Path) -> None:
    """Under the suite's scheduler (tests/conftest.py: xdist's loadgroup letting each
    worker's finished units go, tests/xdist_start.py), every test runs and the group's on one
    worker."""
    (tmp_path / "test_grouped.py").write_text(GROUPED, "utf-8")
    (tmp_path / "conftest.py").write_text(SUITE_SCHEDULER, "utf-8")
    # xdist alone: quicker; the suite's own modules importable (tests.xdist_start)
    path = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "xdist",
            "-n",
            "2",
            "--dist",
            "loadgroup",
            "-rA",
            "-p",
            "no:cacheprovider",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONPATH": path},
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "12 passed" in done.stdout, done.stdout[-2000:]
    workers = {line.split()[1] for line in done.stdout.splitlines() if line.startswith("worker ")}
    assert len(workers) == 1, done.stdout[-3000:]
