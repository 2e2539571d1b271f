"""TypeScript for the tests that type-check a consumer of a generated package's declarations:
``tsc`` from the test setup's lock file (tests/js/), installed once into pytest's cache, and
:func:`tsc`, which runs it.

A cold ``tsc`` spends most of its CPU (1.3 of about 1.6 s) loading TypeScript and parsing and
binding TypeScript's own lib files, the same for every run. :func:`tsc` asks one ``tsc``
kept running per test process instead (tests/js/tsc_server.mjs): TypeScript loaded once, its
lib files parsed and bound once, every other file (the packages, the consumer) read anew for
each run; it prints and exits as ``tsc`` does (tests/test_js_target.py's
``test_declarations_type_check_a_consumer`` holds the two to the same output on a consumer
with errors). The tests that run it carry :data:`TSC`, one xdist group: one server a run.
``RULESDSL_TSC=cli`` runs the ``tsc`` command for each check instead.
"""

from __future__ import annotations

import atexit
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

TESTS_JS = Path(__file__).parent / "js"
SERVER = TESTS_JS / "tsc_server.mjs"

TSC_STRICT = [
    *("--noEmit", "--strict", "--module", "nodenext", "--target", "es2022"),
    "--skipDefaultLibCheck",
]
"""The options of every ``tsc`` run of the suite. TypeScript's own lib files are read but not
checked again on each run (1.6 of a run's 2.8 s of CPU): they are TypeScript's, and the
declarations we write are modules that add no globals, so no error of ours can be in them."""


TSC = pytest.mark.xdist_group("tsc")
"""The mark of every test that runs :func:`tsc`: under ``-n 2`` the tests of one group run on
one worker, so one ``tsc`` server loads TypeScript and parses its lib files for the whole run
(about 1 s of CPU each server) instead of one on each worker."""


def _needed(tool: str) -> str:
    """The path of ``tool``; the test is skipped without it, but fails in CI."""
    found = shutil.which(tool)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} is missing in CI: .ci/run installs it")
        pytest.skip(f"{tool} is not installed (CI installs it: .ci/run)")
    return found


def _typescript(pytestconfig: pytest.Config) -> Path:
    """tsc from the test setup's lock file (tests/js/), installed once into pytest's cache."""
    npm = _needed("npm")
    store = getattr(pytestconfig, "cache", None)  # None under -p no:cacheprovider
    if store is not None:
        cache = Path(store.mkdir("js-typescript"))
    else:
        cache = Path(tempfile.gettempdir()) / "rulesdsl-js-typescript"
        cache.mkdir(exist_ok=True)
    lock = (TESTS_JS / "package-lock.json").read_text("utf-8")
    tsc = cache / "node_modules" / "typescript" / "bin" / "tsc"
    # The lock file of the last ``npm ci`` that finished (the copy ``npm ci`` reads is made
    # before it, so it would call an install cut short done).
    installed = cache / "installed-lock.json"
    # Both xdist workers ask on a clean clone (the tsc tests' group and the web page's axe):
    # ``npm ci`` starts by deleting node_modules, so two at once break each other's install.
    with open(cache / "install.lock", "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if not tsc.exists() or not installed.is_file() or installed.read_text("utf-8") != lock:
            for name in ("package.json", "package-lock.json"):
                shutil.copy(TESTS_JS / name, cache / name)
            subprocess.run(
                [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=cache, check=True
            )
            installed.write_text(lock, "utf-8")
    return tsc


_servers: dict[Path, subprocess.Popen[str]] = {}
"""The ``tsc`` kept running in this process, by TypeScript's install."""

SERVER_FLAGS = ("--no-opt",)
"""V8 without its optimising compiler (TurboFan) for the kept tsc: the suite's 18 type checks
are too few for TypeScript's optimised code to repay its compiling (the 18 tests, -n 0, the
server's CPU in two pairs: 4.43 / 4.30 s -> 3.55 / 3.63 s; the same diagnostics, the tests
compare tsc's output). As js_queries.NODE_FLAGS for the differential's runner."""


def _server(node: str, tsc_path: Path) -> subprocess.Popen[str]:
    server = _servers.get(tsc_path)
    if server is None or server.poll() is not None:
        library = tsc_path.parents[1] / "lib" / "typescript.js"
        server = subprocess.Popen(
            [node, *SERVER_FLAGS, str(SERVER), str(library)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        _servers[tsc_path] = server
    return server


@atexit.register
def _stop() -> None:
    for server in _servers.values():
        if server.stdin is not None:
            server.stdin.close()
        server.wait(timeout=30)


def tsc(
    pytestconfig: pytest.Config, args: list[str], cwd: Path, cli: bool = False
) -> subprocess.CompletedProcess[str]:
    """``tsc ARGS`` run in ``cwd``: its exit status and what it prints (all in stdout, as
    ``tsc`` prints its errors). ``cli``: the ``tsc`` command itself, not the one kept running."""
    node = _needed("node")
    tsc_path = _typescript(pytestconfig)
    if cli or os.environ.get("RULESDSL_TSC") == "cli":
        return subprocess.run(
            [node, str(tsc_path), *args], cwd=cwd, capture_output=True, text=True, check=False
        )
    server = _server(node, tsc_path)
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(json.dumps({"cwd": str(cwd), "args": args}) + "\n")
    server.stdin.flush()
    line = server.stdout.readline()
    assert line, f"tsc_server.mjs stopped (exit status {server.poll()})"
    reply: dict[str, Any] = json.loads(line)
    return subprocess.CompletedProcess(args, reply["status"], reply["stdout"], "")
