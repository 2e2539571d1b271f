"""One build at a time in an output folder, and a lock whose owner died is taken over.

The lock is ``flock`` on ``generated/.rulesdsl-lock``, a file that exists only while a build
holds it (and after a build killed before it could remove it). Its content is the owner
record: the host name, process id and start time (``/proc/<pid>/stat``, where there is one)
of the build that holds it, so that a waiting build can tell a live owner from a dead one:

* the file is there and nobody holds its ``flock``: its owner died without removing it
  (a holder removes it before it lets go); the next build takes it over, with a message;
* someone holds the ``flock`` but the recorded owner is not running (no such process, a
  zombie, or another process with the same id, told apart by its start time): processes the
  dead build started still hold the file open (a build's own PDF workers close it and die
  with the build, but any other inheritor may not); the next build takes the lock over all
  the same, with a message, by putting a fresh lock file in its place;
* the recorded owner runs (or is on another host, where it cannot be looked at): the build
  says once that it waits, and waits.

Every change to the lock file's name (making it, replacing it, removing it) happens under a
short-lived mutex, ``flock`` on ``generated/.rulesdsl-lock.mutex``, held for a few system
calls and never across a ``fork``, so two builds never both take over one lock. Both files
are made with ``O_NOFOLLOW`` and never written once in place: a link, pipe or other stray
entry at either name in a cloned repository is removed (a folder there is an error).
"""

from __future__ import annotations

import json
import os
import socket
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from rulesdsl.outputs import TEMP_PREFIX, OutputFolderError, check_folder

LOCK = ".rulesdsl-lock"
MUTEX = ".rulesdsl-lock.mutex"
POLL = 0.1
"""Seconds between two looks at a lock held by a live build."""
_RECORD_LIMIT = 4096
_OPEN_FLAGS = (
    os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | os.O_CLOEXEC
)


@dataclass(frozen=True)
class Owner:
    """Who holds a lock: a build process, told apart from a later one with its id."""

    host: str
    pid: int
    start: int | None
    """The process's start time in clock ticks after boot (Linux); None elsewhere."""

    def dumps(self) -> bytes:
        return json.dumps({"host": self.host, "pid": self.pid, "start": self.start}).encode()

    @staticmethod
    def parse(raw: bytes) -> Owner | None:
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            return None
        if not isinstance(data, dict):
            return None
        host, pid, start = data.get("host"), data.get("pid"), data.get("start")
        if not (isinstance(host, str) and type(pid) is int and pid > 0):
            return None
        if not (start is None or type(start) is int):
            return None
        return Owner(host, pid, start)

    def describe(self) -> str:
        where = "" if self.host == _host() else f" on {self.host}"
        return f"process {self.pid}{where}"


@dataclass(frozen=True)
class Lock:
    """A held lock. ``fd`` is its descriptor: a process forked while the lock is held
    (a PDF worker) closes it, so that it never keeps the lock after the build is gone."""

    fd: int


Report = Callable[[str], None]


def to_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@contextmanager
def locked(out_dir: Path, report: Report = to_stderr) -> Iterator[Lock | None]:
    """Hold the output folder's lock (the folder is made if needed). ``report`` gets the
    one-line messages: waiting for a live build, taking over from a dead one. Where there
    is no ``flock`` (Windows) there is no lock, and None is yielded."""
    check_folder(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    check_folder(out_dir)
    try:
        import fcntl  # noqa: F401
    except ImportError:  # pragma: no cover - Windows: no lock
        yield None
        return
    fd = _acquire(out_dir, report)
    try:
        yield Lock(fd)
    finally:
        _release(out_dir, fd)


def stale_lock_files(out_dir: Path) -> list[str]:
    """The lock files in ``out_dir`` that no process holds (left by a killed build)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock
        return []
    found = []
    for name in (LOCK, MUTEX):
        if not os.path.lexists(out_dir / name):
            continue
        fd = _open(out_dir / name)
        if fd is None:
            found.append(name)
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            found.append(name)
        except OSError:
            pass  # held: a build is running
        finally:
            os.close(fd)
    return found


# ---- taking and giving back -------------------------------------------------------------


def _acquire(out_dir: Path, report: Report) -> int:
    me = Owner(_host(), os.getpid(), _start_time(os.getpid()))
    told: Owner | None = None
    while True:
        with _mutex(out_dir):
            fd, held_by, took_from = _try_take(out_dir, me)
        if fd is not None:
            if took_from is not None:
                report(
                    f"rulesdsl: {out_dir} was locked by a build that is no longer running "
                    f"({took_from.describe()}); its lock is taken over"
                )
            return fd
        if held_by is not None and held_by != told:
            report(
                f"rulesdsl: {out_dir} is locked by another build ({held_by.describe()}); "
                "waiting for it to finish"
            )
            told = held_by
        time.sleep(POLL)


def _try_take(out_dir: Path, me: Owner) -> tuple[int | None, Owner | None, Owner | None]:
    """Under the mutex: (our lock's descriptor, None, the dead owner taken over from if
    any), or (None, the live owner if known, None) when the lock is held."""
    import fcntl

    path = out_dir / LOCK
    existing = _open(path) if os.path.lexists(path) else None
    if os.path.lexists(path) and existing is None:
        _remove_stray(path)  # a link, pipe...: not a lock file the build made
    owner = None
    if existing is not None:
        try:
            try:
                fcntl.flock(existing, fcntl.LOCK_EX | fcntl.LOCK_NB)
                free = True
            except OSError:
                free = False
            owner = Owner.parse(_read(existing))
            if not free and (owner is None or not _is_dead(owner)):
                return None, owner, None
        finally:
            os.close(existing)
    fd = _new_lock_file(out_dir, me)
    return fd, None, owner if owner is not None and owner != me else None


def _new_lock_file(out_dir: Path, me: Owner) -> int:
    """Make a lock file holding ``me``, lock it and put it in place; its descriptor."""
    import fcntl

    try:
        fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}lock-", suffix=".tmp", dir=out_dir)
    except OSError as exc:
        raise _cannot_lock(out_dir, exc) from None
    try:
        os.write(fd, me.dumps())
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: nobody else has it
        os.replace(tmp, out_dir / LOCK)
    except BaseException:
        os.close(fd)
        Path(tmp).unlink(missing_ok=True)
        raise
    return fd


def _release(out_dir: Path, fd: int) -> None:
    """Remove the lock file if it is still ours, then let go of it."""
    try:
        with _mutex(out_dir):
            if _same_file(out_dir / LOCK, fd):
                (out_dir / LOCK).unlink()
    except OSError:  # the folder went away: closing is all there is to do
        pass
    finally:
        os.close(fd)


@contextmanager
def _mutex(out_dir: Path) -> Iterator[None]:
    """Hold the mutex that every change to the lock file's name is made under."""
    import fcntl

    path = out_dir / MUTEX
    while True:
        try:
            fd = os.open(path, _OPEN_FLAGS | os.O_CREAT, 0o644)
        except IsADirectoryError:
            raise OutputFolderError(
                f"{path} is a folder; the build keeps its lock there: move it away"
            ) from None
        except OSError as exc:
            if not _is_stray(path):  # cannot be made: a folder the build may not write
                raise _cannot_lock(out_dir, exc) from None
            _remove_stray(path)  # a link (ELOOP), a socket...
            continue
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            _remove_stray(path)
            continue
        fcntl.flock(fd, fcntl.LOCK_EX)  # only ever held for a few system calls
        if _same_file(path, fd):
            break
        os.close(fd)  # removed or replaced while we waited: take the new one
    try:
        yield
    finally:
        try:
            if _same_file(path, fd):
                path.unlink()
        finally:
            os.close(fd)


# ---- files and processes ----------------------------------------------------------------


def _open(path: Path) -> int | None:
    """A descriptor on the regular file ``path`` (no link followed, no pipe opened); None
    if it is anything else, or missing. A folder there is an error."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except IsADirectoryError:
        raise OutputFolderError(
            f"{path} is a folder; the build keeps its lock there: move it away"
        ) from None
    except OSError:
        return None
    mode = os.fstat(fd).st_mode
    if stat.S_ISDIR(mode):
        os.close(fd)
        raise OutputFolderError(f"{path} is a folder; the build keeps its lock there: move it away")
    if not stat.S_ISREG(mode):
        os.close(fd)
        return None
    return fd


def _is_stray(path: Path) -> bool:
    """Whether something that is not a regular file or a folder is at ``path``."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _remove_stray(path: Path) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        raise OutputFolderError(f"{path} is a folder; the build keeps its lock there: move it away")
    try:
        path.unlink(missing_ok=True)  # the entry itself: a link's target is not touched
    except OSError as exc:
        raise _cannot_lock(path.parent, exc) from None


def _cannot_lock(out_dir: Path, exc: OSError) -> OutputFolderError:
    return OutputFolderError(
        f"cannot lock {out_dir} ({exc.strerror or exc}): the build writes its lock file "
        "there; make the folder writable"
    )


def _read(fd: int) -> bytes:
    try:
        return os.pread(fd, _RECORD_LIMIT, 0)
    except OSError:
        return b""


def _same_file(path: Path, fd: int) -> bool:
    try:
        on_disk, held = os.lstat(path), os.fstat(fd)
    except OSError:
        return False
    return (on_disk.st_dev, on_disk.st_ino) == (held.st_dev, held.st_ino)


def _host() -> str:
    return socket.gethostname()


def _proc_stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name (state first); None where
    there is no such file."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    return text.rpartition(")")[2].split()


def _start_time(pid: int) -> int | None:
    fields = _proc_stat(pid)
    try:
        return int(fields[19]) if fields else None
    except (IndexError, ValueError):
        return None


def _is_dead(owner: Owner) -> bool:
    """Whether the recorded owner is surely not running (on another host: never sure)."""
    if owner.host != _host():
        return False
    try:
        os.kill(owner.pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass  # it runs, as another user
    except OSError:
        return False
    fields = _proc_stat(owner.pid)
    if fields is None:
        return False
    if fields and fields[0] in ("Z", "X"):
        return True  # killed, not yet reaped
    start = _start_time(owner.pid)
    return owner.start is not None and start is not None and start != owner.start


__all__ = ["LOCK", "MUTEX", "Lock", "Owner", "locked", "stale_lock_files", "to_stderr"]
