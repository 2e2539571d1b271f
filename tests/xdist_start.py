"""What the suite's xdist processes do before and between the tests (tests/conftest.py's hooks):
the workers share the first run's rewriting of the test modules, and the controller schedules
each finished test in constant time (issue 44)."""

from __future__ import annotations

import importlib.util
import os
import struct
from pathlib import Path

import pytest
from _pytest.assertion import rewrite
from xdist.scheduler import LoadGroupScheduling
from xdist.workermanage import WorkerController

TESTS = Path(__file__).resolve().parent


def rewrite_my_share(config: pytest.Config) -> None:
    """In an xdist worker, store pytest's rewritten code of this worker's share of the test
    modules (every n-th, n the workers) before collection, as pytest's own import of a test
    module does (``AssertionRewritingHook.exec_module``: the same ``.pyc`` under the same
    name, written atomically), so each worker finds the others' share done instead of
    rewriting every module too. On a clean clone, where no ``.pyc`` is stored yet (CI), every
    worker rewrote all of the ~200 modules at once: about 6 s of CPU each, the same work
    twice on two cores. Nothing is imported or run here: the workers still collect every
    module as before, and a module whose ``.pyc`` is stored already is left alone."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    state = config.stash.get(rewrite.assertstate_key, None)
    if not worker.startswith("gw") or count < 2 or state is None:
        return  # one process, or --assert=plain: nothing to share
    cache_dir = rewrite.get_cache_dir(TESTS / "conftest.py")
    if not rewrite.try_makedirs(cache_dir):  # pragma: no cover  (read-only tree)
        return
    for path in _named(config)[int(worker[2:]) :: count]:
        pyc = cache_dir / (path.name[:-3] + rewrite.PYC_TAIL)
        if not _current(path, pyc):
            source_stat, code = rewrite._rewrite_test(path, config)
            rewrite._write_pyc(state, code, source_stat, pyc)


def _named(config: pytest.Config) -> list[Path]:
    """The test modules of the suite the run's arguments name: all of them for the suite's
    folder or the repository (README's command), else the modules named one by one (a run of
    a few files leaves the others alone)."""
    named: set[Path] = set()
    for arg in config.args:
        path = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        if path in (TESTS, TESTS.parent):
            return sorted(TESTS.glob("test_*.py"))
        if path.parent == TESTS and path.name.startswith("test_") and path.suffix == ".py":
            named.add(path)
    return sorted(named)


def _current(source: Path, pyc: Path) -> bool:
    """Whether ``pyc`` holds code of ``source`` as it is now, by the header pytest writes and
    checks (``rewrite._read_pyc``: magic number, no flags, the source's mtime and size), without
    reading the code (a warm run only looks)."""
    stat = source.stat()
    header = importlib.util.MAGIC_NUMBER + bytes(4)
    header += struct.pack("<LL", int(stat.st_mtime) & 0xFFFFFFFF, stat.st_size & 0xFFFFFFFF)
    try:
        with pyc.open("rb") as stored:
            return stored.read(16) == header
    except OSError:
        return False


class GroupScheduling(LoadGroupScheduling):
    """xdist's ``--dist loadgroup`` with each worker's finished work units let go. xdist kept
    every unit a worker was ever given, and after each test counted the tests still pending
    in all of them: every test outside a group is a unit of its own (about 5,300 of the
    suite's units), so the controller's count grew with the run, ~6,500 counts over ~2,600
    units each. Here a unit leaves a worker's list when its last test is done; only the
    units still running are counted. Which test runs where, and when, is as before; each
    test's place in a worker's collection is found in a table made once (:meth:`_place`), not
    by searching the list of ~7,600 ids for each test sent."""

    def __init__(self, config: pytest.Config, log: object = None) -> None:
        super().__init__(config, log)
        self._places: dict[WorkerController, dict[str, int]] = {}

    def _place(self, node: WorkerController) -> dict[str, int]:
        """Each test's index in ``node``'s collection, the first if an id comes twice (as
        ``list.index`` gives)."""
        places = self._places.get(node)
        if places is None:
            places = {}
            for index, nodeid in enumerate(self.registered_collections[node]):
                places.setdefault(nodeid, index)
            self._places[node] = places
        return places

    def _assign_work_unit(self, node: WorkerController) -> None:
        """xdist's: the next unit of the queue to ``node``, its tests still to run sent by
        their indexes."""
        assert self.workqueue
        scope, work_unit = self.workqueue.popitem(last=False)
        self.assigned_work.setdefault(node, {})[scope] = work_unit
        places = self._place(node)
        node.send_runtest_some([places[n] for n, completed in work_unit.items() if not completed])

    def mark_test_complete(
        self, node: WorkerController, item_index: int, duration: float = 0
    ) -> None:
        nodeid = self.registered_collections[node][item_index]
        scope = self._split_scope(nodeid)
        units = self.assigned_work[node]
        units[scope][nodeid] = True
        if all(units[scope].values()):
            del units[scope]
        self._reschedule(node)
