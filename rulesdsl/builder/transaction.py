"""One build run as one transaction on the output folder: killed at any moment, the folder
ends up with the old set of outputs or the new one, never a mix, and no temporary file.

How a run changes ``generated/``:

1. every new file, and the new manifest, is written into ``generated/.rulesdsl-staging/``
   (private to the build, flushed to disk);
2. the journal, listing the files to move in and the outputs to remove, is renamed to
   ``generated/.rulesdsl-journal.json``. That rename is the commit point: before it, nothing
   outside the staging folder has changed; after it, the run is done in the sense that any
   later build finishes it;
3. each staged file is renamed over its output, the removed outputs are deleted, the manifest
   moved in; then the journal is deleted and the staging folder removed.

:func:`recover` runs at the start of every build: with a journal present it replays step 3
(each step can be repeated safely); otherwise it deletes a staging folder left by a run killed
before its commit point, and temporary files of the build's own naming. Files are never
written through a symbolic link: staged files are created with ``O_EXCL | O_NOFOLLOW`` and
renames replace a link rather than follow it; folders on the way are checked by :func:`preflight`.

A cloned repository's ``generated/`` is untrusted input: its journal, manifest and staging
folder may have been crafted. So the output folder itself must not be a symbolic link, the
journal and manifest are read only as regular files of bounded size (never through a link,
never a pipe), and :func:`recover` checks every path a journal names (no link on the way,
staged entries regular files, nothing outside the folder) before it moves or deletes
anything; a journal that fails the check stops the build with :class:`OutputFolderError`.

:func:`locked` serialises builds into one folder with ``flock`` on a lock file that also
records its owner (process id and start time); a lock whose owner is no longer running is
taken over, with a message (see :mod:`rulesdsl.builder.lock`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rulesdsl.builder.lock import LOCK, locked, stale_lock_files
from rulesdsl.builder.manifest import MANIFEST
from rulesdsl.outputs import (
    TEMP_PREFIX,
    OutputFolderError,
    check_folder,
    digest_inside,
    fsync_dir,
    output_path_problem,
    read_inside,
    way_problem,
    write_new,
)

STAGING = ".rulesdsl-staging"
JOURNAL = ".rulesdsl-journal.json"
JOURNAL_LIMIT = 16 * 1024 * 1024
"""The largest journal read, in bytes; a bigger one is not the build's."""
_STAGED_MANIFEST = "manifest.json"
_STAGED_JOURNAL = "journal.json"

_OWN_TEMP = re.compile(r"^(\.rulesdsl-.*\.tmp|\..+\.(py|html|md|pdf)\.[a-z0-9_]{8}\.tmp)$")
"""Temporary files the build makes (``.rulesdsl-XXXX.tmp``) and made before it had staging
(``.<output name>.XXXXXXXX.tmp``, from :func:`tempfile.mkstemp`)."""


@dataclass
class Change:
    """What one run does to the output folder."""

    write: dict[str, bytes] = field(default_factory=dict)
    """New contents by path relative to the output folder."""
    remove: dict[str, str] = field(default_factory=dict)
    """Outputs to delete, with the digest they must still have (else they stay)."""
    manifest: bytes | None = None

    def __bool__(self) -> bool:
        return bool(self.write or self.remove or self.manifest is not None)


def preflight(out_dir: Path, rels: Iterable[str]) -> None:
    """Raise :class:`OutputFolderError` unless the output folder is a real folder and every
    folder on the way to every path in ``rels`` is a real folder or can be made as one, and
    no path in ``rels`` is a folder."""
    check_folder(out_dir)
    for rel in sorted(rels):
        if way_problem(out_dir, rel) is None and _is_real_dir(out_dir / rel):
            raise OutputFolderError(
                f"{out_dir / rel} is a folder where the build writes a file; "
                "move it away and build again"
            )
    if _is_real_dir(out_dir / MANIFEST):
        raise OutputFolderError(
            f"{out_dir / MANIFEST} is a folder; the build keeps its "
            "manifest there: move it away and build again"
        )
    folders = {out_dir / Path(rel).parent for rel in rels} - {out_dir}
    checked: set[Path] = set()
    for folder in sorted(folders):
        for part in (folder, *folder.parents):
            if part == out_dir or part in checked or out_dir not in part.parents:
                continue
            checked.add(part)
            try:
                mode = os.lstat(part).st_mode
            except FileNotFoundError:
                continue
            if stat.S_ISLNK(mode):
                raise OutputFolderError(
                    f"{part} is a symbolic link; the build writes only "
                    "inside the output folder: replace it with a folder"
                )
            if not stat.S_ISDIR(mode):
                raise OutputFolderError(
                    f"{part} is a file where the build needs a folder; move it away and build again"
                )


def pending(out_dir: Path) -> list[str]:
    """Traces of an interrupted run that :func:`recover` or the next lock would clear
    (relative names)."""
    check_folder(out_dir)
    found = [name for name in (JOURNAL, STAGING) if os.path.lexists(out_dir / name)]
    return sorted(found + _own_temp_files(out_dir) + stale_lock_files(out_dir))


def recover(out_dir: Path) -> None:
    """Finish a run that reached its commit point, or undo the traces of one that did not.

    Raises :class:`OutputFolderError`, before anything is read through a link, moved or
    deleted, if the output folder is a link or its journal names a path it cannot replay
    inside the folder."""
    check_folder(out_dir)
    if not os.path.isdir(out_dir):
        return
    journal = out_dir / JOURNAL
    if os.path.lexists(journal):
        data = _read_journal(out_dir)
        if data is not None:
            _check_replay(out_dir, *data)
            _apply(out_dir, *data)
        else:  # not written by a build (only complete journals are ever renamed in)
            _remove_tree(journal)
    _remove_tree(out_dir / STAGING)
    for rel in _own_temp_files(out_dir):
        (out_dir / rel).unlink(missing_ok=True)


def commit(out_dir: Path, change: Change) -> None:
    """Carry out ``change`` as one transaction (see the module docstring)."""
    staging = out_dir / STAGING
    _remove_tree(staging)
    staging.mkdir()
    folders = {staging}
    for rel, content in sorted(change.write.items()):
        target = staging / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        folders.add(target.parent)
        write_new(target, content)
    if change.manifest is not None:
        write_new(staging / _STAGED_MANIFEST, change.manifest)
    journal = {
        "format": 1,
        "write": sorted(change.write),
        "remove": dict(sorted(change.remove.items())),
        "manifest": change.manifest is not None,
    }
    write_new(staging / _STAGED_JOURNAL, json.dumps(journal, sort_keys=True).encode())
    for folder in sorted(folders, reverse=True):
        fsync_dir(folder)
    os.replace(staging / _STAGED_JOURNAL, out_dir / JOURNAL)  # the commit point
    fsync_dir(out_dir)
    _apply(out_dir, sorted(change.write), dict(change.remove), change.manifest is not None)


def _apply(out_dir: Path, write: list[str], remove: Mapping[str, str], manifest: bool) -> None:
    """Move staged files in, delete removed outputs, then forget the run. Repeatable."""
    staging = out_dir / STAGING
    touched = {out_dir}
    for rel in write:
        source, target = staging / rel, out_dir / rel
        if os.path.lexists(source):
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, target)
            touched.add(target.parent)
    for rel, sha in remove.items():
        target = out_dir / rel
        if digest_inside(out_dir, rel) == sha:
            target.unlink()
            touched.add(target.parent)
    if manifest and os.path.lexists(staging / _STAGED_MANIFEST):
        os.replace(staging / _STAGED_MANIFEST, out_dir / MANIFEST)
    for folder in sorted(touched, reverse=True):
        fsync_dir(folder)
    (out_dir / JOURNAL).unlink()
    fsync_dir(out_dir)
    _remove_tree(staging)


def _check_replay(
    out_dir: Path, write: list[str], remove: Mapping[str, str], manifest: bool
) -> None:
    """Raise :class:`OutputFolderError` unless :func:`_apply` can replay this journal inside
    the output folder: the staging folder a real folder, every staged entry a regular file
    reached without a link, every target reached without a link and not a folder."""
    staging = out_dir / STAGING
    problems: list[str] = []
    try:
        mode: int | None = os.lstat(staging).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISLNK(mode):
        problems.append(f"{staging} is a symbolic link")
    elif mode is not None and not stat.S_ISDIR(mode):
        problems.append(f"{staging} is not a folder")
    staged = [*write, _STAGED_MANIFEST] if manifest else list(write)
    for rel in staged if not problems and mode is not None else []:
        problem = way_problem(staging, rel)
        if problem is None and _kind(staging / rel) not in (None, stat.S_IFREG):
            problem = f"{staging / rel} is not a file the build staged"
        if problem is not None:
            problems.append(problem)
    for rel in [*write, *remove]:
        problem = way_problem(out_dir, rel)
        if problem is None and rel in write and _is_real_dir(out_dir / rel):
            problem = f"{out_dir / rel} is a folder where the journal moves a file"
        if problem is not None:
            problems.append(problem)
    if manifest and _is_real_dir(out_dir / MANIFEST):
        problems.append(f"{out_dir / MANIFEST} is a folder")
    if problems:
        raise OutputFolderError(
            f"{problems[0]}: the journal {out_dir / JOURNAL} of an interrupted build would move "
            "or delete files there, and the build moves and deletes only inside the output "
            "folder. Nothing was changed; if this folder came from someone else, remove the "
            "journal (or the link) and build again"
        )


def _kind(path: Path) -> int | None:
    """The file type of ``path`` itself (``stat.S_IFREG``...); None if it is missing."""
    try:
        return stat.S_IFMT(os.lstat(path).st_mode)
    except FileNotFoundError:
        return None


def _is_real_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _read_journal(out_dir: Path) -> tuple[list[str], dict[str, str], bool] | None:
    """The journal's moves, removals and manifest flag; None if it is not a journal the
    build wrote (a link, not a regular file, too big, malformed, or naming a path that could
    leave the folder)."""
    raw = read_inside(out_dir, JOURNAL, JOURNAL_LIMIT)
    if raw is None:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != 1:
        return None
    write, remove, manifest = data.get("write"), data.get("remove"), data.get("manifest")
    if not (isinstance(write, list) and isinstance(remove, dict) and isinstance(manifest, bool)):
        return None
    rels = [*write, *remove]
    if not all(isinstance(r, str) and output_path_problem(r) is None for r in rels):
        return None
    if len(set(write)) != len(write) or set(write) & set(remove):
        return None
    if not all(isinstance(sha, str) for sha in remove.values()):
        return None
    return list(write), dict(remove), manifest


def _remove_tree(path: Path) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(path)
    else:
        path.unlink()


def _own_temp_files(out_dir: Path) -> list[str]:
    """The build's temporary files in the output folder and its subfolders (one level)."""
    found: list[str] = []
    if not out_dir.is_dir() or out_dir.is_symlink():
        return found
    folders = [
        out_dir,
        *(p for p in out_dir.iterdir() if p.is_dir() and not p.is_symlink() and p.name != STAGING),
    ]
    for folder in folders:
        for path in folder.iterdir():
            if _OWN_TEMP.match(path.name) and not path.is_dir():
                found.append(path.relative_to(out_dir).as_posix())
    return sorted(found)


__all__ = [
    "JOURNAL",
    "LOCK",
    "STAGING",
    "TEMP_PREFIX",
    "Change",
    "OutputFolderError",
    "check_folder",
    "commit",
    "locked",
    "pending",
    "preflight",
    "recover",
]
