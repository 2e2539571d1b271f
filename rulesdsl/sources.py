"""Reading ruleset sources: the one way every reader (compiler, diff, language server, watch)
turns a file, or a file at a git revision, into text, or into a diagnostic saying why not.

A ruleset file must be a regular file, not a link (it may point anywhere, and diagnostics quote
its lines), a FIFO (reading one waits for a writer forever), a device (``/dev/zero`` never
ends), a socket or a folder. It is opened with ``O_NOFOLLOW | O_NONBLOCK`` after an ``lstat``
check, then checked again on the open descriptor, so a file swapped for a link or a FIFO in
between is refused as well. At most :data:`MAX_FILE_BYTES` + 1 bytes are read, so no file can
fill the memory. The bytes are decoded as UTF-8 whatever the locale; a byte-order mark is
dropped; the first byte that is not UTF-8 is reported at its line and column.

Limits (docs/language.md, "Size limits") are chosen so that the compile of any input they
admit stays under 1 GB of memory; :class:`Limits` holds them, and a library caller that has
measured its own inputs may pass larger ones.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from rulesdsl.diagnostics import Diagnostic, Pos, error

MAX_FILE_BYTES = 2 * 1024 * 1024
"""A ruleset file's largest size in bytes (2 MiB): 2.3 times the 5,000-feature benchmark."""
MAX_STRING_CHARS = 20_000
"""The longest label, note or source reference, in characters."""
MAX_TABLE_ROWS = 10_000
"""The most rows in one table (step, decision, plain, dice or results table)."""


@dataclass(frozen=True)
class Limits:
    """The size limits a compiler enforces as it reads (the module's constants by default);
    strings and tables are checked by the checks stage (``rulesdsl.checks.sizes``)."""

    file_bytes: int = MAX_FILE_BYTES


DEFAULT = Limits()


@dataclass(frozen=True)
class Loaded:
    """What reading a source gave: its text (None when refused) and the diagnostics.

    ``quoted`` is what a diagnostic may quote for this file: the text itself, the readable
    part of a file that is not UTF-8, the first line of a file over the limit, or None when
    nothing of it may be shown (a link, a special file)."""

    text: str | None
    diagnostics: tuple[Diagnostic, ...] = ()
    quoted: str | None = None


_KINDS = {
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
    stat.S_IFLNK: "a symbolic link",
}


def _refused(file: str, why: str, hint: str) -> Loaded:
    return Loaded(None, (error("E003", f"cannot read {file}: {why}", _start(file), hint),))


def _start(file: str) -> Pos:
    return Pos(file, 1, 1, 1, 2)


_LINK_HINT = (
    "rulesets are read only from regular files (a link may point at any file, whose lines "
    "a diagnostic would quote): copy the file into the folder instead of linking it"
)
_SPECIAL_HINT = (
    "rulesdsl reads only regular files: replace it with a file, or move it out of the folder"
)


def read_ruleset(path: Path, limits: Limits = DEFAULT) -> Loaded:
    """The text of the ruleset file at ``path``, or why it cannot be read (E003, E006)."""
    data = read_bytes(path, limits)
    return data if isinstance(data, Loaded) else decode(data, str(path), limits)


def read_bytes(path: Path, limits: Limits = DEFAULT) -> bytes | Loaded:
    """The bytes of the file at ``path`` (at most the size limit and one more byte), read as a
    ruleset is read (no link, FIFO or device), or why it cannot be read (E003)."""
    file = str(path)
    try:
        kind = stat.S_IFMT(os.lstat(path).st_mode)
    except OSError as exc:
        return _refused(file, exc.strerror or str(exc), "check the path")
    if kind == stat.S_IFLNK:
        return _refused(file, "it is a symbolic link", _LINK_HINT)
    if kind != stat.S_IFREG:
        return _refused(file, f"it is {_KINDS.get(kind, 'not a regular file')}", _SPECIAL_HINT)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # swapped for a link since the lstat
            return _refused(file, "it is a symbolic link", _LINK_HINT)
        return _refused(file, exc.strerror or str(exc), "check the file's permissions")
    try:
        kind = stat.S_IFMT(os.fstat(fd).st_mode)
        if kind != stat.S_IFREG:  # swapped since the lstat
            return _refused(file, f"it is {_KINDS.get(kind, 'not a regular file')}", _SPECIAL_HINT)
        data = _read_at_most(fd, limits.file_bytes + 1)
    except OSError as exc:
        return _refused(file, exc.strerror or str(exc), "check the file")
    finally:
        os.close(fd)
    return data


def _read_at_most(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    left = size
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def decode(data: bytes, file: str, limits: Limits = DEFAULT) -> Loaded:
    """``data`` (a file's bytes, from the disk or from git) as text: refused when over the
    size limit (E006) or not UTF-8 (E003, at the first bad byte)."""
    if len(data) > limits.file_bytes:
        return too_large(file, data[: limits.file_bytes + 1], limits)
    if data.startswith(b"\xef\xbb\xbf"):  # a byte-order mark is not part of the text
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _not_utf8(file, data, exc)
    return Loaded(text, (), text)


def check_text(text: str, file: str, limits: Limits = DEFAULT) -> Loaded:
    """A text that did not come from a file (an editor's buffer, a test): refused like a file
    when its UTF-8 form is over the size limit."""
    size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
    if size > limits.file_bytes:
        return too_large(file, text[: limits.file_bytes + 1].encode("utf-8", "replace"), limits)
    return Loaded(text, (), text)


_SPLIT_RULESET = (
    "split it: move what several rulesets share into a base and `extends` it, "
    "or move large tables into a ruleset of their own"
)


def too_large(
    file: str, head: bytes, limits: Limits, what: str = "a ruleset file", hint: str = _SPLIT_RULESET
) -> Loaded:
    """E006 for a file over ``limits.file_bytes`` (``head``: its first bytes, for the line)."""
    first = head.split(b"\n", 1)[0][:200].decode("utf-8", "replace")
    return Loaded(
        None,
        (
            error(
                "E006",
                f"the file is larger than the {_size(limits.file_bytes)} limit of {what}",
                _start(file),
                hint,
            ),
        ),
        first,
    )


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n:,} bytes"


def _not_utf8(file: str, data: bytes, exc: UnicodeDecodeError) -> Loaded:
    """E003 at the line and column of the first byte that is not UTF-8; the lines quoted are
    the file decoded with U+FFFD for each bad byte."""
    line_start = data.rfind(b"\n", 0, exc.start) + 1
    line = data.count(b"\n", 0, exc.start) + 1
    column = len(data[line_start : exc.start].decode("utf-8")) + 1
    shown = data.decode("utf-8", "replace")
    return Loaded(
        None,
        (
            error(
                "E003",
                f"cannot read {file}: byte 0x{data[exc.start]:02X} is not UTF-8 "
                f"(line {line}, column {column})",
                Pos(file, line, column, line, column + 1),
                "save the file as UTF-8 (in most editors: File > Save with Encoding > UTF-8)",
            ),
        ),
        shown,
    )
