"""A build killed at any moment (SIGKILL) leaves every ruleset's outputs all old or all new.

Twenty runs on a temporary project, each after an edit that changes one or two rulesets'
outputs: a child process builds and is killed either at a random file-system call of its
writing (so the kill lands where it matters) or after a random delay. Then, before anything
repairs it, the output folder must be wholly old or wholly new unless the run is between its
commit point and its last move (the journal exists), in which case the build that finishes
the run is itself killed at a random point of its recovery; and after
:func:`rulesdsl.builder.transaction.recover` (which every build runs first, under the lock it
takes over from the killed build) each ruleset's files must be all old or all new, all new if
the run had committed, with no temporary file, staging folder, journal or lock file left.

Then builds killed while their workers render PDFs (SIGKILL or SIGTERM to the build alone):
no worker may outlive its build, and the next build must take the lock and finish.
"""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dev import kill_build
from rulesdsl.builder import transaction
from rulesdsl.builder.build import build, render_all
from tests.test_build import BASE, FAST, OTHER, VARIANT, new_compiler

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

FS_CALLS = ("open", "replace", "unlink", "mkdir", "rmdir", "fsync")
RUNS = 20


def outputs_by_ruleset(out: Path) -> dict[str, dict[str, bytes]]:
    """The visible output files, grouped by ruleset id (the name up to its first dot)."""
    files: dict[str, dict[str, bytes]] = {}
    for kind in ("python", "sheets"):
        for path in sorted((out / kind).glob("*")):
            if not path.name.startswith("."):
                rel = f"{kind}/{path.name}"
                files.setdefault(path.name.split(".")[0], {})[rel] = path.read_bytes()
    return files


def leftovers(out: Path) -> list[str]:
    return sorted(
        p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if (p.name.startswith(".rulesdsl-") and p.name != ".rulesdsl-manifest.json")
        or p.name.endswith(".tmp")
    )


def expected_outputs(project: Path) -> dict[str, dict[str, bytes]]:
    """What a build of the current sources makes, by ruleset (rendered, not written)."""
    compiler = new_compiler()
    rulesets = [compiler.compile_file(p).ruleset for p in sorted(project.glob("rulesets/*"))]
    files: dict[str, dict[str, bytes]] = {}
    for rel, content in render_all([r for r in rulesets if r is not None], FAST).items():
        assert isinstance(content, bytes)
        files.setdefault(rel.split("/")[1].split(".")[0], {})[rel] = content
    return files


def counting(stop_at: int | None, counter: list[int], during: str) -> None:
    """Count the os calls made inside ``transaction.<during>`` (``commit``: while the run
    writes; ``recover``); SIGKILL this process at call number ``stop_at``."""
    active = [False]
    for name in FS_CALLS:
        real: Callable[..., Any] = getattr(os, name)

        def wrapper(*args: Any, __real: Callable[..., Any] = real, **kwargs: Any) -> Any:
            if active[0]:
                counter[0] += 1
                if counter[0] == stop_at:
                    os.kill(os.getpid(), signal.SIGKILL)
            return __real(*args, **kwargs)

        setattr(os, name, wrapper)
    step = getattr(transaction, during)

    def counted(*args: Any) -> None:
        active[0] = True
        step(*args)
        active[0] = False

    setattr(transaction, during, counted)


def child_build(
    project: Path, stop_at: int | None, delay: float | None, during: str = "commit"
) -> int:
    """Build in a forked child; kill it at a call of ``transaction.<during>`` or after
    ``delay`` seconds. The number of such calls it made if it finished, else minus its wait
    status."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.close(read)
            counter = [0]
            counting(stop_at, counter, during)
            build(
                project / "rulesets", project / "generated", backends=FAST, compiler=new_compiler()
            )
            os.write(write, str(counter[0]).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    if delay is not None:
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    with os.fdopen(read, "rb") as pipe:
        calls = pipe.read()
    return int(calls) if calls else -status


def test_a_build_killed_at_random_points_leaves_each_ruleset_all_old_or_all_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # fsync makes writes survive a power cut; a killed process cannot tell (the page cache
    # outlives it), so the test skips the disk flushes but still kills at each of them
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    project = tmp_path / "project"
    (project / "rulesets").mkdir(parents=True)
    for name, text in (("base", BASE), ("var", VARIANT), ("other", OTHER)):
        (project / "rulesets" / f"{name}.terrain").write_text(text, "utf-8")
    out = project / "generated"
    build(project / "rulesets", out, backends=FAST, compiler=new_compiler())

    def edit(run: int) -> None:  # changes base (so var) or other, alternately
        path = project / "rulesets" / ("base.terrain" if run % 2 else "other.terrain")
        text = path.read_text("utf-8").split("\n")
        text[6] = f'  soft "Soft {run}" fr "Mou {run}" | {run + 2}'
        path.write_text("\n".join(text), "utf-8")

    calls = {}  # how many file-system calls a run's writing makes, and how long a run takes
    for run in (-2, -1):  # changes to other, then to base and var
        edit(run)
        started = time.perf_counter()
        calls[run % 2] = child_build(project, None, None)
        duration = time.perf_counter() - started
    assert calls[1] > calls[0] > 20  # a file, a folder or a rename at a time

    rng = random.Random(20261130)  # fixed: the same kill points on every run of the suite
    outcomes = {"old": 0, "new": 0}
    for run in range(1, RUNS + 1):
        old = outputs_by_ruleset(out)
        edit(run)
        new = expected_outputs(project)
        assert new != old
        if run % 4:
            finished = child_build(project, rng.randint(1, calls[run % 2]), None) > 0
        else:
            finished = child_build(project, None, rng.uniform(0, duration)) > 0

        committed = finished or (out / transaction.JOURNAL).exists()
        if not committed:  # killed before its commit point, or after its last move
            assert outputs_by_ruleset(out) in (old, new), f"run {run}"
        else:  # the next build finishes the run; kill that one too, while it recovers
            recovering = child_build(project, rng.randint(1, 12), None, "recover")
            assert recovering < 0 or not (out / transaction.JOURNAL).exists()
        with transaction.locked(out, report=lambda message: None):  # as every build does
            transaction.recover(out)
        assert leftovers(out) == [], f"run {run}"
        now = outputs_by_ruleset(out)
        assert sorted(now) == sorted(new) == sorted(old)
        for rid, files in now.items():
            assert files in (old[rid], new[rid]), f"run {run}: {rid} is a mix"
        assert now == new if committed else now in (old, new), f"run {run}"
        outcomes["new" if now == new else "old"] += 1
        stale = build(
            project / "rulesets", out, backends=FAST, compiler=new_compiler(), check=True
        ).stale
        assert (stale == []) == (now == new), f"run {run}: the manifest disagrees"
        if now != new:  # start the next run from this one's outputs, like a user would
            build(project / "rulesets", out, backends=FAST, compiler=new_compiler())
    assert outcomes["old"] >= 3 and outcomes["new"] >= 3, outcomes


# ---- a build killed while its workers render PDFs ---------------------------------------------


class Hung(Exception):
    pass


def build_within(seconds: float, project: Path) -> float:
    """Build ``project`` (the fast backends) in this process; raise :class:`Hung` if it takes
    longer than ``seconds``. The time it took."""

    def hung(signum: int, frame: object) -> None:
        raise Hung(f"the next build waited more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    started = time.perf_counter()
    try:
        result = build(
            project / "rulesets", project / "generated", backends=FAST, compiler=new_compiler()
        )
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert result.ok
    return time.perf_counter() - started


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("signame", ["KILL", "TERM"])
def test_a_build_killed_while_rendering_pdfs_leaves_no_worker_and_no_lock_behind(
    tmp_path: Path, signame: str
) -> None:
    """Issue 30: PDF workers outlived a killed build and kept its lock: the next build waited
    forever. The build is killed alone (its workers get no signal), as `kill PID` does; this
    is the short run of dev/kill_build.py, whose next build here is the fast one."""
    pytest.importorskip("weasyprint")
    project = kill_build.make_project(tmp_path / "project")
    build_within(60, project)  # generated/ exists: the killed build holds its lock as it renders
    kill = kill_build.kill_once(project, random.Random(signame), signame, "build", 0.3)
    try:
        assert kill.workers, "the build rendered no PDF in a worker process"
        assert kill.landed and kill.exited_after is not None
        assert kill.survivors == [], "a worker outlived its build"
        assert "Traceback" not in kill.stderr
        build_within(60, project)
    finally:
        kill_build.reap(kill.workers)


def dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid


def hold_open(path: Path) -> int:
    """A child process that holds ``path``'s flock, as a dead build's inheritor would."""
    import fcntl

    ready, go = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            fd = os.open(path, os.O_RDONLY)
            fcntl.flock(fd, fcntl.LOCK_EX)
            os.write(go, b"x")
            time.sleep(60)
        finally:
            os._exit(0)
    os.read(ready, 1)
    return pid


@pytest.mark.parametrize("inherited", [False, True])
def test_a_lock_left_by_a_dead_build_is_taken_over_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], inherited: bool
) -> None:
    project = tmp_path / "project"
    (project / "rulesets").mkdir(parents=True)
    (project / "rulesets" / "base.terrain").write_text(BASE, "utf-8")
    out = project / "generated"
    out.mkdir()
    from rulesdsl.builder.lock import LOCK, Owner

    dead = Owner(socket_host(), dead_pid(), None)
    (out / LOCK).write_bytes(dead.dumps())
    holder = hold_open(out / LOCK) if inherited else None
    try:
        assert build_within(20, project) < 10
    finally:
        if holder is not None:
            os.kill(holder, signal.SIGKILL)
            os.waitpid(holder, 0)
    err = capsys.readouterr().err
    assert f"was locked by a build that is no longer running (process {dead.pid})" in err
    assert "its lock is taken over" in err
    assert not (out / LOCK).exists() and leftovers(out) == []


def socket_host() -> str:
    import socket

    return socket.gethostname()


def test_a_build_waits_for_a_live_build_holding_the_lock_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    (project / "rulesets").mkdir(parents=True)
    (project / "rulesets" / "base.terrain").write_text(BASE, "utf-8")
    out = project / "generated"
    ready, go = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            with transaction.locked(out):
                os.write(go, b"x")
                time.sleep(1.0)
        finally:
            os._exit(0)
    os.read(ready, 1)
    took = build_within(20, project)
    os.waitpid(pid, 0)
    assert took > 0.5
    err = capsys.readouterr().err
    assert f"is locked by another build (process {pid}); waiting for it to finish" in err
    assert "taken over" not in err


def test_a_folder_the_build_cannot_write_its_lock_into_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import tempfile

    from rulesdsl.builder import lock

    out = tmp_path / "generated"
    out.mkdir()

    def refused(*args: object, **kwargs: object) -> object:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    expected = pytest.raises(
        transaction.OutputFolderError, match=r"cannot lock .*Permission denied"
    )
    with expected, lock.locked(out):
        pass
    assert sorted(p.name for p in out.iterdir()) == []
