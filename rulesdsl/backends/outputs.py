"""What a backend hands to the build (file contents, now or on demand), and how files are
written: atomically, never through a symbolic link, only at paths proven to stay inside the
output folder."""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Deferred:
    """An output that is costly to make (a PDF): made only when the file on disk is not
    already it. ``is_current(existing_bytes)`` says whether the file on disk can stay."""

    render: Callable[[], bytes]
    is_current: Callable[[bytes], bool]


Output = bytes | Deferred

NAME_MAX = 255
"""The longest file name (in bytes) the build writes: the limit of every common file system."""

TEMP_PREFIX = ".rulesdsl-"
"""Every temporary file or folder the build makes starts with this, so it can find its own."""


def digest_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def output_path_problem(rel: str) -> str | None:
    """Why ``rel`` cannot be an output path relative to the output folder, or None if it can.

    A valid path is relative, uses ``/``, has no empty, ``.`` or ``..`` part, no part that
    starts with a dot (those names are the build's own bookkeeping), no control character or
    backslash, and no part longer than :data:`NAME_MAX` bytes. So it cannot leave the folder.
    """
    if not isinstance(rel, str) or not rel:
        return "it is empty"
    if rel.startswith("/") or "\\" in rel:
        return "it is not a relative path"
    for part in rel.split("/"):
        if part in ("", ".", ".."):
            return f"it has a '{part}' part"
        if part.startswith("."):
            return f"'{part}' would be a hidden file"
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in part):
            return "it has a control character"
        if len(part.encode("utf-8", "surrogatepass")) > NAME_MAX:
            return (
                f"a file name of {len(part.encode('utf-8', 'surrogatepass'))} bytes is "
                f"longer than the {NAME_MAX} bytes file systems allow"
            )
    return None


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse fsync on a folder
        pass
    finally:
        os.close(fd)


def write_new(path: Path, content: bytes) -> None:
    """Create ``path`` (it must not exist), write ``content``, flush it to disk. Used inside
    the build's private staging folder, where no other file can be in the way."""
    flags = (
        os.O_WRONLY
        | os.O_CREAT
        | os.O_EXCL
        | getattr(os, "O_NOFOLLOW", 0)
        | getattr(os, "O_BINARY", 0)
    )
    fd = os.open(path, flags, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)
        handle.flush()
        os.fsync(handle.fileno())


def atomic_write(path: Path, content: bytes) -> None:
    """Replace ``path`` with ``content`` in one step: readers see the old file or the new one.

    The bytes go to a temporary file beside ``path`` that is then renamed over it. A symbolic
    link at ``path`` is replaced by the file, never followed. A device or pipe (``/dev/null``,
    a FIFO) cannot be renamed over, so it is written to directly.
    """
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(21, "is a folder", str(path))
    if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        with open(path, "wb") as handle:
            handle.write(content)
        return
    fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
