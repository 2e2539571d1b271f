"""The processes that render PDFs for a build, and how they die with it.

A worker must never outlive its build: it would go on holding what it inherited (on Linux
workers are forked, and inherit every open file of the build, its lock among them), and a
killed build's workers would wait for work forever. So each worker, as it starts:

* closes the descriptors the build names (its lock), so that only the build holds them;
* asks the kernel to SIGKILL it when the build dies (Linux ``prctl(PR_SET_PDEATHSIG)``),
  then checks that the build did not die before that took effect;
* starts a watchdog thread that ends it when its parent changes (every platform; on Linux
  a second line of defence);
* takes back the default action of SIGTERM and SIGINT, so that a signal sent to the whole
  process group (``timeout``, Ctrl-C) ends it at once instead of raising inside a render.

And when the build stops while workers run (an error, or SIGTERM turned into an exception
by the command line), :func:`pool` kills them before it lets the exception go on.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager, suppress

WATCH_EVERY = 0.5
"""Seconds between two looks of a worker's watchdog at its parent."""
_PR_SET_PDEATHSIG = 1


@contextmanager
def pool(jobs: int, close: Sequence[int] = ()) -> Iterator[ProcessPoolExecutor]:
    """A process pool of ``jobs`` workers that die with this process; ``close`` are the
    descriptors the workers must not keep (the build's lock)."""
    import multiprocessing

    # On Linux, fork: the workers start with WeasyPrint already loaded (it takes a second to
    # import). Elsewhere the platform's default (spawn on macOS, where fork is unsafe).
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    executor = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=context,
        initializer=start_worker,
        initargs=(os.getpid(), tuple(close)),
    )
    try:
        yield executor
    except BaseException:
        kill(executor)
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def kill(executor: ProcessPoolExecutor) -> None:
    """End the executor's workers now (they only ever render: nothing is left half done)."""
    processes = dict(getattr(executor, "_processes", None) or {})
    for process in processes.values():
        with suppress(OSError, ValueError, AttributeError):  # already gone
            process.kill()
    for process in processes.values():
        with suppress(OSError, ValueError, AttributeError, AssertionError):
            process.join(5)


def start_worker(parent: int, close: tuple[int, ...]) -> None:
    """Run in each worker as it starts (see the module docstring)."""
    for fd in close:
        with suppress(OSError):
            os.close(fd)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, signal.SIG_DFL)
    _die_with_parent()
    if os.getppid() != parent:  # the build died before the kernel was told
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="rulesdsl-watchdog", daemon=True).start()


def _die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - no prctl: the watchdog remains
        pass


def _watch(parent: int) -> None:
    while True:
        time.sleep(WATCH_EVERY)
        if os.getppid() != parent:
            os._exit(1)


__all__ = ["WATCH_EVERY", "kill", "pool", "start_worker"]
