"""What a backend hands to the build (file contents, now or on demand), and how files are
written and read: atomically, never through a symbolic link, only at paths proven to stay
inside the output folder."""

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
    needs: str | None = None
    """The install extra whose packages ``render`` uses (``"pdf"``), if any: a build without
    it leaves the file as it is (:func:`rulesdsl.builder.build.build`)."""
    source_bytes: int = 0
    """The size of what it is made from (a PDF's HTML, in UTF-8): the build makes no PDF of
    more than :data:`MAX_PDF_SOURCE_BYTES` (W009)."""
    source_at_least: bool = False
    """``source_bytes`` is a lower bound: the source, sure to be over the limit, was not made
    (a deck of a huge ruleset, :mod:`rulesdsl.printed.deck_bound`)."""
    blank: bool = False
    """It would hold nothing (a deck of a ruleset with nothing to put on cards yet): the build
    makes no file of it (W010)."""


MAX_PDF_SOURCE_BYTES = 512 * 1024
"""The most HTML a PDF is made from: about 40 pages of a sheet, 45 sheets of cards. WeasyPrint
holds the whole laid-out document until the PDF is written, about 1.2 GB per MB of a sheet's
HTML (0.8 GB for cards), so this keeps a render under 1 GB (measured, bench/README.md: "A
build of 20,000 features"). The bundled rulesets' largest is 150 KB (a deck)."""


Output = bytes | Deferred

NAME_MAX = 255
"""The longest file name (in bytes) the build writes: the limit of every common file system."""

TEMP_PREFIX = ".rulesdsl-"
"""Every temporary file or folder the build makes starts with this, so it can find its own."""


class OutputFolderError(Exception):
    """The output folder cannot take the build's files, or holds something the build must
    not follow (a file where a folder should be, a symbolic link on the way, a journal that
    names paths through a link). Raised before anything is written, moved or deleted."""


def check_folder(out_dir: Path) -> None:
    """Raise :class:`OutputFolderError` if the output folder itself is a symbolic link or
    not a folder (a missing one is fine: the build makes it)."""
    try:
        mode = os.lstat(out_dir).st_mode
    except FileNotFoundError:
        return
    except NotADirectoryError:
        above = next((p for p in out_dir.parents if p.exists() and not p.is_dir()), out_dir)
        raise OutputFolderError(
            f"{above} is a file where a folder is needed on the way to {out_dir}; "
            "give --out a folder"
        ) from None
    if stat.S_ISLNK(mode):
        raise OutputFolderError(
            f"{out_dir} is a symbolic link; the build reads and writes only a real folder: "
            "replace the link with a folder, or give --out the folder itself"
        )
    if not stat.S_ISDIR(mode):
        raise OutputFolderError(f"{out_dir} is a file, not a folder; give --out a folder")


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


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_READ_FLAGS = os.O_RDONLY | _NOFOLLOW | _NONBLOCK | getattr(os, "O_BINARY", 0)
"""Opening an existing file to read it: a link is refused (ELOOP), a pipe does not block."""


def way_problem(folder: Path, rel: str) -> str | None:
    """Why ``folder/rel`` cannot be reached without going through a symbolic link: a link,
    or something that is not a folder, where ``rel`` needs a folder. None if it can (folders
    that do not exist yet are fine). ``rel`` is a path relative to ``folder`` with ``/``
    between its parts; its last part is not looked at, and ``folder`` itself is the caller's
    to check."""
    current = folder
    for part in rel.split("/")[:-1]:
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"{current} cannot be looked at ({exc.strerror})"
        if stat.S_ISLNK(mode):
            return f"{current} is a symbolic link"
        if not stat.S_ISDIR(mode):
            return f"{current} is a file where a folder should be"
    return None


def _open_regular(folder: Path, rel: str) -> tuple[int, int] | None:
    """An open descriptor and the size of the regular file ``folder/rel``, reached without
    any link; None if there is no such file (missing, a link, a pipe, a folder...)."""
    if way_problem(folder, rel) is not None:
        return None
    try:
        fd = os.open(folder / rel, _READ_FLAGS)
    except OSError:
        return None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        return None
    return fd, info.st_size


def read_inside(folder: Path, rel: str, limit: int) -> bytes | None:
    """The bytes of the regular file ``folder/rel`` if it has at most ``limit`` of them;
    None if it is missing, bigger, not a regular file, or reached only through a symbolic
    link (no link is followed, no pipe is opened for reading)."""
    opened = _open_regular(folder, rel)
    if opened is None:
        return None
    fd, size = opened
    with os.fdopen(fd, "rb") as handle:
        if size > limit:
            return None
        try:
            data = handle.read(limit + 1)
        except OSError:
            return None
    return data if len(data) <= limit else None


def digest_inside(folder: Path, rel: str) -> str | None:
    """The SHA-256 of the regular file ``folder/rel``, read in pieces; None where
    :func:`read_inside` gives None (no link is followed)."""
    opened = _open_regular(folder, rel)
    if opened is None:
        return None
    digest = hashlib.sha256()
    with os.fdopen(opened[0], "rb") as handle:
        try:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
        except OSError:
            return None
    return digest.hexdigest()


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
