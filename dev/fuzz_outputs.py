"""Fuzz the build with crafted output folders: what a cloned repository's generated/ may hold.

    python dev/fuzz_outputs.py                            # 5,000 cases, seed 0
    python dev/fuzz_outputs.py --cases 500 --seed 7 --report /tmp/fuzz_outputs.json
    python dev/fuzz_outputs.py --seed 7 --case 123 -v     # replay one case, show it

Each case is a sandbox: a project (three rulesets, and its generated/ most of the time built
once and copied) and, beside it, an ``outside/`` folder of files that stand for the user's
(``.ssh/authorized_keys``, notes, a file, a named pipe, an empty folder, a copy of an output
folder). Then one to six crafted changes to generated/: a symbolic link in place of
generated/ itself, an output folder, the staging folder or a folder inside it (to an outside
folder, file or pipe, to the rulesets, dangling, relative); a link or a hard link in place of
an output, the manifest, the journal, a staged file, a lock file or a temporary file; a
journal naming outputs, files in linked folders, ``..`` and absolute paths, hidden and long
names, with the right digests of outside files to remove, or malformed, nested 100,000
deep, over its size limit, a pipe or a folder; a staging folder of files, links, pipes and
folders; a manifest whose entries own outside files reached through links, or malformed,
nested, oversized, a pipe, a link or a folder; a folder where an output goes; lock files of
dead owners, links, pipes and folders.

The build then runs on it, ``build --check`` first, then ``build`` (the library's, without
PDFs; every ``--cli-every``-th case the command line's, with PDFs in two processes). Before
that every outside entry's access time is set to 1970, so that a read through a link shows
(the file system is mounted ``relatime``: a read moves an access time older than the
modification time). A finding is:

* *outside*: an entry outside the output folder created, changed, moved, deleted, or read
  (its access time moved);
* *traceback*: an exception out of the build other than ``OutputFolderError`` (the clean
  refusal, exit status 2 on the command line), or an exit status other than 0, 1 or 2;
* *hang*: a case that takes more than ``--time-limit`` seconds (SIGALRM interrupts it);
* *inconsistent*: a build that succeeded and after which ``build --check`` is not clean.

Exit status 0 when there was no finding, 1 otherwise; the JSON report holds the figures
and, per kind, the first cases with their changes and traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import random
import shutil
import signal
import socket
import stat
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

if __package__ in (None, ""):  # run as a script: make `dev` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulesdsl.builder import transaction
from rulesdsl.builder.build import TargetOutputs, build
from rulesdsl.builder.manifest import MANIFEST
from rulesdsl.codegen.targets import PYTHON
from rulesdsl.outputs import Output

OutputFolderError = transaction.OutputFolderError
LOCK, MUTEX = ".rulesdsl-lock", ".rulesdsl-lock.mutex"  # written out: the run also fuzzes
# builds that have no lock files (an older rulesdsl on PYTHONPATH), to see it find faults

BASE = """\
ruleset base "Base" fr "Base"
version 1.0.0
languages en fr
units distance in, cost MP
mode walker "Walker" fr "Marcheur"
layer ground "Ground" fr "Sol" one per place {
  soft "Soft" fr "Mou" | 2
}
"""
VARIANT = """\
ruleset var "Variant" fr "Variante"
version 1.0.0
extends base@^1.0
override soft.cost | 3
"""
OTHER = BASE.replace('ruleset base "Base"', 'ruleset other "Other"')
RULESETS = {"base": BASE, "var": VARIANT, "other": OTHER}
EXIT_CODES = (0, 1, 2)
OLD = 0  # the access time set on every outside entry: 1970


def text_sheets(ruleset: Any) -> dict[str, Output]:
    """The sheet backend without PDFs: HTML and Markdown in every language."""
    from rulesdsl.printed.sheets import render_sheet

    return {
        f"sheets/{ruleset.id}.{lang}.{fmt}": render_sheet(ruleset, fmt, lang)
        for lang in ruleset.languages
        for fmt in ("html", "md")
    }


FAST = (TargetOutputs(PYTHON), text_sheets)


class Hang(BaseException):
    """Raised by SIGALRM when a case runs past its time limit."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang()


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ---- the sandbox --------------------------------------------------------------------------


@dataclass
class Sandbox:
    root: Path

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def out(self) -> Path:
        return self.project / "generated"

    @property
    def outside(self) -> Path:
        return self.root / "outside"

    def outside_files(self) -> list[Path]:
        return [
            self.outside / ".ssh" / "authorized_keys",
            self.outside / "notes" / "plan.txt",
            self.outside / "file.txt",
            self.project / "rulesets" / "base.terrain",
        ]

    def outside_folders(self) -> list[Path]:
        return [
            self.outside / ".ssh",
            self.outside / "notes",
            self.outside / "empty",
            self.outside / "copy",
            self.project / "rulesets",
            self.project,
        ]


def make_sandbox(root: Path, template: Path | None) -> Sandbox:
    box = Sandbox(root)
    (box.project / "rulesets").mkdir(parents=True)
    for name, text in RULESETS.items():
        (box.project / "rulesets" / f"{name}.terrain").write_text(text, "utf-8")
    (box.project / "README.md").write_text("the user's project\n", "utf-8")
    (box.outside / ".ssh").mkdir(parents=True)
    (box.outside / ".ssh" / "authorized_keys").write_text("ssh-ed25519 AAAA mine\n", "utf-8")
    (box.outside / "notes").mkdir()
    (box.outside / "notes" / "plan.txt").write_text("secret plan\n", "utf-8")
    (box.outside / "file.txt").write_text("a file\n", "utf-8")
    (box.outside / "empty").mkdir()
    os.mkfifo(box.outside / "fifo")
    if template is not None:
        shutil.copytree(template, box.out, symlinks=True)
        shutil.copytree(template, box.outside / "copy", symlinks=True)
    else:
        (box.outside / "copy").mkdir()
    return box


def outputs_template(folder: Path) -> Path:
    """A generated/ made by a real build of the three rulesets (made once per run)."""
    rulesets = folder / "rulesets"
    rulesets.mkdir(parents=True)
    for name, text in RULESETS.items():
        (rulesets / f"{name}.terrain").write_text(text, "utf-8")
    out = folder / "generated"
    build(rulesets, out, backends=FAST)
    return out


# ---- crafting -----------------------------------------------------------------------------


def sha(path: Path) -> str:
    """The digest of a regular file (through links: the crafter wants the target's), or
    zeros; a pipe is not opened."""
    try:
        if not path.is_file():
            return "0" * 64
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except (OSError, ValueError):
        return "0" * 64


class Crafter:
    """Makes the crafted changes of one case, and says what it did."""

    def __init__(self, rng: random.Random, box: Sandbox) -> None:
        self.rng, self.box = rng, box
        self.done: list[str] = []
        self.hard_linked: set[str] = set()
        """Outside files given a second name inside generated/: reading that name is no
        read through a link, so their access time is not watched."""

    def note(self, text: str) -> None:
        self.done.append(text.replace(str(self.box.root), "<case>"))

    # the pieces

    def target(self) -> Path | str:
        """Somewhere a link may point."""
        box, rng = self.box, self.rng
        choices: list[Path | str] = [
            *box.outside_files(),
            *box.outside_folders(),
            box.outside / "fifo",
            box.outside / "missing",
            "../../outside/.ssh",
            "../outside/notes",
            "/nonexistent/rulesdsl",
        ]
        return rng.choice(choices)

    def output_rels(self) -> list[str]:
        out = self.box.out
        if not out.is_dir() or out.is_symlink():
            return ["python/base.py", "sheets/base.en.md"]
        found = [
            p.relative_to(out).as_posix()
            for p in out.rglob("*")
            if not p.name.startswith(".") and not p.is_dir()
        ]
        return found or ["python/base.py"]

    def rel(self) -> Any:
        """A path for a journal or manifest entry: mostly plausible, sometimes hostile."""
        rng = self.rng
        plausible = [
            *self.output_rels(),
            ".ssh/authorized_keys",
            "sheets/authorized_keys",
            "python/authorized_keys",
            "python/plan.txt",
            "sheets/plan.txt",
            "sheets/file.txt",
            "notes/plan.txt",
            "copy/python/base.py",
            "python/new.py",
        ]
        hostile = [
            "../outside/file.txt",
            "../../outside/.ssh/authorized_keys",
            "/etc/passwd",
            str(self.box.outside / "file.txt"),
            ".rulesdsl-manifest.json",
            ".rulesdsl-lock",
            "python/../../README.md",
            "a//b",
            "./x",
            "",
            "x" * 300,
            "python/\x00x",
            "python\\..\\x",
            7,
            None,
            ["python/base.py"],
        ]
        return rng.choice(plausible) if rng.random() < 0.8 else rng.choice(hostile)

    def remove_entries(self) -> dict[Any, Any]:
        """Removals with the digests that would let the build delete the named file."""
        entries: dict[Any, Any] = {}
        for _ in range(self.rng.randint(0, 5)):
            rel = self.rel()
            victim = self.rng.choice(
                [*self.box.outside_files(), self.box.out / str(rel), self.box.outside / "x"]
            )
            key = rel if isinstance(rel, str) else str(rel)
            entries[key] = sha(victim) if self.rng.random() < 0.9 else self.rng.choice([1, None])
        return entries

    def replace_with_link(self, path: Path) -> None:
        _remove(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        target = self.target()
        path.symlink_to(target)
        self.note(f"link {self.where(path)} -> {target}")

    def where(self, path: Path) -> str:
        try:
            return path.relative_to(self.box.root).as_posix()
        except ValueError:
            return str(path)

    def bookkeeping(self, path: Path, content: Callable[[], bytes]) -> None:
        """Put a crafted journal, manifest or lock file at ``path``, in some form."""
        rng = self.rng
        form = rng.choices(
            ["file", "link", "hardlink", "fifo", "folder", "huge", "nested", "garbage"],
            weights=[10, 2, 1, 1, 1, 0.2, 0.5, 1],
        )[0]
        _remove(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if form == "file":
            path.write_bytes(content())
        elif form == "link":  # to an outside file that holds the crafted content
            holder = self.box.outside / f"crafted-{path.name}"
            holder.write_bytes(content())
            path.symlink_to(holder if rng.random() < 0.7 else self.target())
        elif form == "hardlink":
            holder = self.box.outside / f"crafted-{path.name}"
            holder.write_bytes(content())
            os.link(holder, path)
            self.hard_linked.add(self.where(holder))
        elif form == "fifo":
            os.mkfifo(path)
        elif form == "folder":
            (path / "x").mkdir(parents=True)
            if rng.random() < 0.5:
                (path / "y").symlink_to(self.box.outside / "notes")
        elif form == "huge":
            with open(path, "wb") as handle:
                handle.write(b'{"format": 1, "write": [' + b" " * (17 * 1024 * 1024) + b"]}")
        elif form == "nested":
            path.write_bytes(b"[" * 100_000 + b"]" * 100_000)
        else:
            path.write_bytes(rng.randbytes(rng.randint(0, 200)))
        self.note(f"{form} {self.where(path)}")

    def journal(self) -> bytes:
        rng = self.rng
        data: dict[str, Any] = {
            "format": 1 if rng.random() < 0.9 else rng.choice([0, 2, "1", None]),
            "write": [self.rel() for _ in range(rng.randint(0, 5))],
            "remove": self.remove_entries(),
            "manifest": rng.random() < 0.5 if rng.random() < 0.9 else "yes",
        }
        if rng.random() < 0.1:
            del data[rng.choice(list(data))]
        if rng.random() < 0.1:
            data["write"] = {"python/base.py": 1}
        return json.dumps(data).encode()

    def manifest(self) -> bytes:
        rng = self.rng
        rulesets: dict[str, Any] = {}
        for rid in rng.sample(["base", "other", "var", "gone", "elsewhere"], rng.randint(1, 4)):
            outputs = self.remove_entries()
            sources = {rng.choice([f"{rid}.terrain", "base.terrain", "../outside/file.txt"]): "0"}
            if rng.random() < 0.3:
                sources = {"x": 1}  # type: ignore[dict-item]
            rulesets[rid] = {
                rng.choice(["target:python", "dev.fuzz_outputs:text_sheets"]): {
                    "compiler": rng.choice(["x", "0" * 64]),
                    "outputs": outputs,
                    "sources": sources,
                }
            }
        return json.dumps({"format": 1, "rulesets": rulesets}).encode()

    def lock_record(self) -> bytes:
        rng = self.rng
        pid = rng.choice([_dead_pid(), 1, os.getpid(), 2**22 + 17, 0, -5])
        host = rng.choice([socket.gethostname(), "elsewhere"])
        start = rng.choice([None, 0, 123, "x"])
        return json.dumps({"host": host, "pid": pid, "start": start}).encode()

    # the changes

    def change(self) -> None:
        box, rng = self.box, self.rng
        staging = box.out / transaction.STAGING
        kind = rng.choices(
            [
                "link-generated",
                "link-folder",
                "link-file",
                "hardlink-file",
                "journal",
                "staging",
                "manifest",
                "in-the-way",
                "lock",
                "temp",
                "remove-generated",
            ],
            weights=[0.5, 4, 3, 1, 5, 3, 4, 1, 2, 1.5, 0.3],
        )[0]
        if kind == "link-generated":
            _remove(box.out)
            target = rng.choice([box.outside / "copy", box.outside / ".ssh", box.outside / "empty"])
            box.out.symlink_to(target)
            self.note(f"link project/generated -> {target}")
        elif kind == "remove-generated":
            _remove(box.out)
            self.note("no generated/")
        elif kind == "link-folder":
            name = rng.choice(["python", "sheets", "cards", "python/sub"])
            parent = staging if rng.random() < 0.4 else box.out
            if parent == staging and rng.random() < 0.3:
                self.replace_with_link(staging)
            else:
                self.replace_with_link(parent / name)
        elif kind in ("link-file", "hardlink-file"):
            path = box.out / rng.choice(self.output_rels())
            if rng.random() < 0.3:
                path = staging / rng.choice(self.output_rels())
            if kind == "link-file":
                self.replace_with_link(path)
            else:
                _remove(path)
                path.parent.mkdir(parents=True, exist_ok=True)
                victim = rng.choice(box.outside_files())
                os.link(victim, path)
                self.hard_linked.add(self.where(victim))
                self.note(f"hard link {self.where(path)} = {self.where(victim)}")
        elif kind == "journal":
            self.bookkeeping(box.out / transaction.JOURNAL, self.journal)
            if rng.random() < 0.7:
                self.stage()
        elif kind == "staging":
            self.stage()
        elif kind == "manifest":
            self.bookkeeping(box.out / MANIFEST, self.manifest)
        elif kind == "in-the-way":
            rel = rng.choice([*self.output_rels(), "python", "sheets", MANIFEST])
            path = box.out / rel
            _remove(path)
            if rng.random() < 0.7:
                (path / "inner").mkdir(parents=True)
                self.note(f"folder at {self.where(path)}")
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                os.mkfifo(path)
                self.note(f"pipe at {self.where(path)}")
        elif kind == "lock":
            self.bookkeeping(box.out / rng.choice([LOCK, MUTEX]), self.lock_record)
        else:
            name = rng.choice(
                [".rulesdsl-x.tmp", "python/.base.py.abcdefgh.tmp", ".rulesdsl-lock-1.tmp"]
            )
            path = box.out / name
            if rng.random() < 0.7:
                self.replace_with_link(path)
            else:
                _remove(path)
                path.mkdir(parents=True)
                (path / "keep").write_text("x", "utf-8")
                self.note(f"folder at {self.where(path)}")

    def stage(self) -> None:
        """Fill the staging folder with files, links, pipes and folders."""
        rng = self.rng
        staging = self.box.out / transaction.STAGING
        if staging.is_symlink() or (staging.exists() and not staging.is_dir()):
            return
        for _ in range(rng.randint(1, 5)):
            rel = self.rel()
            if not isinstance(rel, str) or not rel or rel[0] == "/" or ".." in rel or "\0" in rel:
                rel = "python/planted.py"
            path = staging / rel
            try:
                _remove(path)
                path.parent.mkdir(parents=True, exist_ok=True)
                form = rng.choice(["file", "file", "link", "fifo", "folder", "hardlink"])
                if form == "file":
                    path.write_text("planted\n", "utf-8")
                elif form == "link":
                    path.symlink_to(self.target())
                elif form == "fifo":
                    os.mkfifo(path)
                elif form == "folder":
                    path.mkdir()
                else:
                    victim = rng.choice(self.box.outside_files())
                    os.link(victim, path)
                    self.hard_linked.add(self.where(victim))
                self.note(f"staged {form} {rel}")
            except (OSError, ValueError):
                continue
        if rng.random() < 0.3:
            self.bookkeeping(staging / "manifest.json", self.manifest)


def _remove(path: Path) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except NotADirectoryError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(path)
    else:
        path.unlink()


def _dead_pid() -> int:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid


# ---- watching the outside -----------------------------------------------------------------

Entry = tuple[str, bytes, int]


def snapshot(box: Sandbox) -> dict[str, Entry]:
    """Every entry of the sandbox outside the output folder: kind, bytes (or link target,
    or nothing) and inode; links are not followed. generated/ itself counts when it is a
    link (where it points); what is inside a real generated/ does not."""
    found: dict[str, Entry] = {}
    for folder, dirs, files in os.walk(box.root):
        for name in [*dirs, *files]:
            path = Path(folder) / name
            rel = path.relative_to(box.root).as_posix()
            if rel.startswith("project/generated/"):
                continue
            info = os.lstat(path)
            if rel == "project/generated" and stat.S_ISDIR(info.st_mode):
                continue
            if stat.S_ISLNK(info.st_mode):
                found[rel] = ("link", os.readlink(path).encode(), 0)
            elif stat.S_ISREG(info.st_mode):
                found[rel] = ("file", path.read_bytes(), info.st_ino)
            else:
                found[rel] = (stat.filemode(info.st_mode)[0], b"", info.st_ino)
        dirs[:] = [d for d in dirs if not (Path(folder) / d).is_symlink()]
    return found


def age(box: Sandbox, entries: dict[str, Entry]) -> None:
    """Set every outside entry's access time to 1970, keeping its modification time."""
    for rel in entries:
        path = box.root / rel
        info = os.lstat(path)
        if not stat.S_ISLNK(info.st_mode):
            os.utime(path, ns=(OLD, info.st_mtime_ns), follow_symlinks=False)


def read_since(box: Sandbox, entries: dict[str, Entry], skip: set[str]) -> list[str]:
    """The outside entries whose access time moved (read, or listed, since :func:`age`),
    but the rulesets (the build reads them), the entries in ``skip`` and other names (hard
    links) of those files: they share one access time."""
    skipped = {rel for rel in entries if rel in skip or rel.startswith("project/rulesets")}
    aliases = {entries[rel][2] for rel in skipped if entries[rel][0] == "file"}
    moved = []
    for rel, (kind, _, inode) in entries.items():
        if kind in ("link", "p") or rel in skipped:
            continue
        if kind == "file" and inode in aliases:  # a hard link to a file the build may read
            continue
        try:
            if os.lstat(box.root / rel).st_atime_ns != OLD:
                moved.append(rel)
        except OSError:
            continue
    return moved


def compare(before: dict[str, Entry], after: dict[str, Entry]) -> list[str]:
    changes = []
    for rel in sorted(set(before) | set(after)):
        if rel not in after:
            changes.append(f"deleted or moved: {rel}")
        elif rel not in before:
            changes.append(f"created: {rel}")
        elif before[rel] != after[rel]:
            changes.append(f"changed: {rel}")
    return changes


# ---- one case -----------------------------------------------------------------------------


@dataclass
class Outcome:
    kind: str  # "ok", "refused", "outside", "traceback", "hang", "inconsistent"
    changes: list[str]
    detail: str = ""


def run_case(
    seed: int, number: int, work: Path, template: Path, *, cli: bool, limit: float
) -> Outcome:
    rng = random.Random(f"{seed}:{number}")
    box = make_sandbox(work / f"case{number}", template if rng.random() < 0.85 else None)
    crafter = Crafter(rng, box)
    for _ in range(rng.randint(1, 6)):
        try:
            crafter.change()
        except (OSError, ValueError) as exc:  # a change that cannot be made on another one
            crafter.note(f"(skipped: {exc})")
    before = snapshot(box)
    age(box, before)
    refused = False
    try:
        with time_limit(limit * (4 if cli else 1)):
            refused = _build(box, check=True, cli=False)
            refused = _build(box, check=False, cli=cli) or refused
            consistent = refused or _consistent(box)
    except Hang:
        return Outcome("hang", crafter.done, f"over {limit} s")
    except Exception:  # that is the finding
        return Outcome("traceback", crafter.done, traceback.format_exc())
    read = read_since(box, before, crafter.hard_linked)  # before the snapshot reads them
    changed = compare(before, snapshot(box)) + [f"read: {rel}" for rel in read]
    if changed:
        return Outcome("outside", crafter.done, "\n".join(changed))
    if not consistent:
        return Outcome("inconsistent", crafter.done, "build --check is not clean after a build")
    return Outcome("refused" if refused else "ok", crafter.done)


def _build(box: Sandbox, *, check: bool, cli: bool) -> bool:
    """Run a build; True if it refused the folder (OutputFolderError, exit status 2)."""
    if cli:
        from rulesdsl.commands.cli import main

        argv = ["build", "--rulesets", str(box.project / "rulesets"), "--out", str(box.out)]
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main([*argv, "-j", "2", *(["--check"] if check else [])])
        if code not in EXIT_CODES or "Traceback" in err.getvalue():
            raise AssertionError(f"exit status {code}: {err.getvalue()}")
        return code == 2
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            build(box.project / "rulesets", box.out, backends=FAST, check=check)
    except OutputFolderError:
        return True
    return False


def _consistent(box: Sandbox) -> bool:
    with contextlib.redirect_stderr(io.StringIO()):
        result = build(box.project / "rulesets", box.out, backends=FAST, check=True)
    return result.ok and result.stale == []


# ---- the run ------------------------------------------------------------------------------


@dataclass
class Report:
    seed: int
    cases: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    changes: int = 0
    examples: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    seconds: float = 0.0
    last: dict[str, Any] = field(default_factory=dict)

    def add(self, number: int, outcome: Outcome) -> None:
        self.last = {"case": number, "outcome": outcome.kind, "changes": outcome.changes}
        self.cases += 1
        self.changes += len(outcome.changes)
        self.outcomes[outcome.kind] = self.outcomes.get(outcome.kind, 0) + 1
        if outcome.kind not in ("ok", "refused"):
            kept = self.examples.setdefault(outcome.kind, [])
            if len(kept) < 5:
                kept.append({"case": number, "changes": outcome.changes, "detail": outcome.detail})

    @property
    def findings(self) -> int:
        return sum(n for kind, n in self.outcomes.items() if kind not in ("ok", "refused"))

    def to_data(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "cases": self.cases,
            "crafted changes": self.changes,
            "outcomes": dict(sorted(self.outcomes.items())),
            "findings": self.findings,
            "seconds": round(self.seconds, 1),
            "examples": self.examples,
        }


def run(
    cases: int,
    seed: int,
    *,
    cli_every: int = 0,
    limit: float = 20.0,
    only: int | None = None,
    progress: Callable[[Report], None] | None = None,
    every: int = 100,
) -> Report:
    """Run ``cases`` cases (or only case ``only``) and return the figures."""
    report = Report(seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rulesdsl-fuzz-outputs-") as tmp:
        work = Path(tmp)
        template = outputs_template(work / "template")
        numbers = [only] if only is not None else list(range(cases))
        for number in numbers:
            cli = bool(cli_every) and number % cli_every == cli_every - 1
            outcome = run_case(seed, number, work, template, cli=cli, limit=limit)
            report.add(number, outcome)
            shutil.rmtree(work / f"case{number}", ignore_errors=True)
            with contextlib.suppress(OSError):  # a case may leave generated/ read-only
                _remove(work / f"case{number}")
            report.seconds = time.perf_counter() - started
            if progress is not None and (report.cases % every == 0 or only is not None):
                progress(report)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--case", type=int, default=None, help="run only this case")
    parser.add_argument("--cli-every", type=int, default=100, help="every Nth case: CLI, PDFs")
    parser.add_argument("--time-limit", type=float, default=20.0, help="seconds per case")
    parser.add_argument("--report", type=Path, default=None, help="write the JSON report here")
    parser.add_argument("--progress", type=int, default=100, help="a line every N cases")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each case's changes")
    args = parser.parse_args(argv)

    def show(report: Report) -> None:
        print(
            f"{report.cases} cases, {report.findings} findings {report.outcomes} "
            f"in {report.seconds:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        if args.report is not None:
            args.report.write_text(json.dumps(report.to_data(), indent=1) + "\n", "utf-8")

    report = run(
        args.cases,
        args.seed,
        cli_every=args.cli_every,
        limit=args.time_limit,
        only=args.case,
        progress=show,
        every=args.progress,
    )
    show(report)
    if args.verbose:
        print(json.dumps(report.last, indent=1), file=sys.stderr)
    if report.findings:
        print(json.dumps(report.examples, indent=1), file=sys.stderr)
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
