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
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from rulesdsl.backends.outputs import TEMP_PREFIX, fsync_dir, output_path_problem, write_new
from rulesdsl.tools.manifest import MANIFEST, file_digest

STAGING = ".rulesdsl-staging"
JOURNAL = ".rulesdsl-journal.json"
_STAGED_MANIFEST = "manifest.json"
_STAGED_JOURNAL = "journal.json"

_OWN_TEMP = re.compile(r"^(\.rulesdsl-.*\.tmp|\..+\.(py|html|md|pdf)\.[a-z0-9_]{8}\.tmp)$")
"""Temporary files the build makes (``.rulesdsl-XXXX.tmp``) and made before it had staging
(``.<output name>.XXXXXXXX.tmp``, from :func:`tempfile.mkstemp`)."""


class OutputFolderError(Exception):
    """The output folder cannot take the build's files (a file where a folder should be, a
    symbolic link on the way). Raised before anything is written."""


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
    """Raise :class:`OutputFolderError` unless every folder on the way to every path in
    ``rels`` is a real folder or can be made as one."""
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputFolderError(f"{out_dir} is a file, not a folder; give --out a folder")
    if (out_dir / MANIFEST).is_dir() and not (out_dir / MANIFEST).is_symlink():
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


@contextmanager
def locked(out_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on the output folder (POSIX ``flock``), so two builds into the
    same folder run one after the other. The folder is created if needed."""
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock
        yield
        return
    fd = os.open(out_dir, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def pending(out_dir: Path) -> list[str]:
    """Traces of an interrupted run that :func:`recover` would clear (relative names)."""
    found = [name for name in (JOURNAL, STAGING) if os.path.lexists(out_dir / name)]
    return sorted(found + _own_temp_files(out_dir))


def recover(out_dir: Path) -> None:
    """Finish a run that reached its commit point, or undo the traces of one that did not."""
    journal = out_dir / JOURNAL
    if os.path.lexists(journal):
        data = _read_journal(journal)
        if data is not None:
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
        if file_digest(target) == sha:
            target.unlink()
            touched.add(target.parent)
    if manifest and os.path.lexists(staging / _STAGED_MANIFEST):
        os.replace(staging / _STAGED_MANIFEST, out_dir / MANIFEST)
    for folder in sorted(touched, reverse=True):
        fsync_dir(folder)
    (out_dir / JOURNAL).unlink()
    fsync_dir(out_dir)
    _remove_tree(staging)


def _read_journal(path: Path) -> tuple[list[str], dict[str, str], bool] | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != 1:
        return None
    write, remove, manifest = data.get("write"), data.get("remove"), data.get("manifest")
    if not (isinstance(write, list) and isinstance(remove, dict) and isinstance(manifest, bool)):
        return None
    rels = [*write, *remove]
    if not all(isinstance(r, str) and output_path_problem(r) is None for r in rels):
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
    "STAGING",
    "TEMP_PREFIX",
    "Change",
    "OutputFolderError",
    "commit",
    "locked",
    "pending",
    "preflight",
    "recover",
]
