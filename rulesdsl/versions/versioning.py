"""Semantic versions for rulesets: which bump a change needs, and the check against git.

Policy (docs/variants.md):

=========  =================  ==========================================
level      bump it needs      because
=========  =================  ==========================================
breaking   major (1.2.3 -> 2.0.0; before 1.0.0, a minor: 0.2.1 -> 0.3.0)
                              code using the module may stop working
rules      minor (1.2.3 -> 1.3.0)
                              the game plays differently: reprint the sheet
additive   minor (1.2.3 -> 1.3.0), or at least a patch
                              something new; old play is unchanged
wording    patch (1.2.3 -> 1.2.4)
                              labels, notes and sources only
=========  =================  ==========================================

``rulesdsl check --against REV`` compares each ruleset with the same file at a git revision
(``git show REV:path``) and warns (W601) when a breaking, rules-level or additive change comes
without the bump it needs; ``rulesdsl build --check --against REV`` fails on it, and
``rulesdsl diff`` warns of it when both sides are versions of one ruleset.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path
from typing import Literal

from rulesdsl import ir
from rulesdsl.compiler import Compiled, Compiler
from rulesdsl.diagnostics import Diagnostic, warning
from rulesdsl.frontends import registry
from rulesdsl.frontends import syntax as s
from rulesdsl.sources import DEFAULT, Limits, Loaded, decode
from rulesdsl.versions.diff import Diff, Level, diff

Bump = Literal["major", "minor", "patch", "none"]
BUMPS: tuple[Bump, ...] = ("major", "minor", "patch", "none")
"""Largest first."""

REQUIRED: dict[Level, Bump] = {
    "breaking": "major",
    "rules": "minor",
    "additive": "patch",
    "wording": "patch",
}
"""The least bump each level needs (additive: a minor is recommended, a patch accepted)."""

RECOMMENDED: dict[Level, Bump] = {
    "breaking": "major",
    "rules": "minor",
    "additive": "minor",
    "wording": "patch",
}

CHECKED: tuple[Level, ...] = ("breaking", "rules", "additive")
"""The levels `check --against`, `build --check --against` and `diff` hold a version to (a
ruleset's version obeys its own diff, issue 39)."""

SEMVER = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def parse(version: str) -> tuple[int, int, int]:
    match = SEMVER.fullmatch(version)
    if not match:
        raise ValueError(f"not a semantic version: {version!r}")
    major, minor, patch = (int(x) for x in match.groups())
    return major, minor, patch


def bump_between(old: str, new: str) -> Bump | Literal["downgrade"]:
    """Which part of the version went up from ``old`` to ``new``."""
    a, b = parse(old), parse(new)
    if b < a:
        return "downgrade"
    if b[0] > a[0]:
        return "major"
    if b[1] > a[1]:
        return "minor"
    if b[2] > a[2]:
        return "patch"
    return "none"


_PRE_1_DONE: dict[Bump, Bump] = {
    "major": "major",
    "minor": "major",
    "patch": "minor",
    "none": "none",
}
_PRE_1: dict[Bump, Bump] = {"major": "minor", "minor": "patch", "patch": "patch", "none": "none"}


def _effective(bump: Bump, version: str) -> Bump:
    """Before 1.0.0 every part moves down one: a minor counts as a major, a patch as a minor."""
    return bump if parse(version)[0] > 0 else _PRE_1_DONE[bump]


def required_bump(level: Level | None, table: dict[Level, Bump] | None = None) -> Bump:
    return "none" if level is None else (table or REQUIRED)[level]


def satisfied(old: str, new: str, level: Level | None) -> bool:
    """Whether going from ``old`` to ``new`` is a big enough bump for a change at ``level``."""
    done = bump_between(old, new)
    if done == "downgrade":
        return False
    need = required_bump(level)
    return BUMPS.index(_effective(done, old)) <= BUMPS.index(need)


def next_version(old: str, level: Level | None) -> str:
    """The version a change at ``level`` suggests (the recommended bump)."""
    major, minor, patch = parse(old)
    bump = required_bump(level, RECOMMENDED)
    if major == 0:
        bump = _PRE_1[bump]
    if bump == "major":
        return f"{major + 1}.0.0"
    if bump == "minor":
        return f"{major}.{minor + 1}.0"
    if bump == "patch":
        return f"{major}.{minor}.{patch + 1}"
    return old


def advice(d: Diff) -> str | None:
    """One line on the version, when the two sides are versions of the same ruleset."""
    if d.old_id != d.new_id or d.level is None:
        return None
    if satisfied(d.old_version, d.new_version, d.level):
        return f"version {d.old_version} -> {d.new_version}: enough for a {d.level} change"
    return (
        f"version {d.old_version} -> {d.new_version}: a {d.level} change needs "
        f"{next_version(d.old_version, d.level)} or later"
    )


# ---- git ----------------------------------------------------------------------------------


class RevisionError(Exception):
    """A file or revision git cannot show."""


def _git(args: list[str], cwd: Path, limit: int | None = None) -> bytes:
    """What ``git ARGS`` prints, as bytes; with ``limit``, at most ``limit`` + 1 bytes of it
    (git is stopped there), so a huge blob at a revision cannot fill the memory."""
    try:
        with subprocess.Popen(
            ["git", *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        ) as proc:
            assert proc.stdout is not None and proc.stderr is not None
            out = proc.stdout.read() if limit is None else proc.stdout.read(limit + 1)
            if limit is not None and len(out) > limit:
                proc.kill()
                proc.communicate()
                return out
            err = proc.stderr.read()
            code = proc.wait()
    except OSError as exc:
        raise RevisionError(f"cannot run git: {exc}") from exc
    if code != 0:
        said = err.decode("utf-8", "replace").strip()
        raise RevisionError(said.splitlines()[-1] if said else f"git {' '.join(args)} failed")
    return out


def _revision(rev: str) -> str:
    """``rev``, refused when git would read it as an option."""
    if rev.startswith("-"):
        raise RevisionError(f"'{rev}' is not a git revision (it starts with '-')")
    return rev


def _show(folder: Path, rev: str, name: str, limits: Limits) -> bytes:
    args = ["show", "--no-textconv", "--end-of-options", f"{_revision(rev)}:./{name}"]
    return _git(args, folder, limits.file_bytes)


def show(path: Path, rev: str, limits: Limits = DEFAULT) -> Loaded:
    """The text of ``path`` at git revision ``rev`` (``git show REV:./file``), read as a file on
    the disk is (:mod:`rulesdsl.sources`): over the size limit or not UTF-8, a diagnostic."""
    folder = path.resolve().parent
    if not folder.is_dir():
        raise RevisionError(f"no such folder: {folder}")
    return decode(_show(folder, rev, path.name, limits), f"{rev}:{path}", limits)


def compile_at(path: Path, rev: str, compiler: Compiler) -> Compiled:
    """Compile ``path`` as it was at ``rev``, its bases taken from the same revision. Its
    worked examples need not hold: an answer they state that this compiler gives otherwise
    (a fix since then) says nothing of what the old rules were, which the diff compares."""
    held = compiler.examples_hold
    compiler.examples_hold = False
    try:
        return _compile_at(path, rev, compiler)
    finally:
        compiler.examples_hold = held


def _compile_at(path: Path, rev: str, compiler: Compiler) -> Compiled:
    loaded = show(path, rev, compiler.limits)
    label = f"{rev}:{path}"
    if loaded.text is None:
        if loaded.quoted is not None:
            compiler.sources[label] = loaded.quoted
        return Compiled(label, None, list(loaded.diagnostics))
    folder = path.resolve().parent
    listing = _git(
        ["ls-tree", "-z", "--name-only", "--end-of-options", _revision(rev), "./"], folder
    ).split(b"\0")
    dsl = tuple(suffix.encode() for suffix in registry.DSL.suffixes)
    names = [n.decode("utf-8", "replace") for n in listing if n.endswith(dsl)]
    with tempfile.TemporaryDirectory(prefix="rulesdsl-rev-") as tmp:
        for name in names:
            if name != path.name and "/" not in name and "\ufffd" not in name:
                # the bytes as they are: the compiler reads them as it reads any file
                (Path(tmp) / name).write_bytes(_show(folder, rev, name, compiler.limits))
        return compiler.compile_text(loaded.text, label, Path(tmp))


def check_against(
    path: Path, ruleset: ir.Ruleset, rev: str, compiler: Compiler
) -> list[Diagnostic]:
    """W601 when ``ruleset`` (compiled from ``path``) changed since ``rev`` at breaking or
    rules level without the version bump that needs. Nothing when the file is new at ``rev``
    or the old version does not compile."""
    try:
        old = compile_at(path, rev, compiler)
    except RevisionError:
        return []
    if old.ruleset is None:
        return []
    return bump_warning(diff(old.ruleset, ruleset), f"since {rev}", path, compiler, f"--rev {rev}")


def unbumped(d: Diff) -> Level | None:
    """The highest level of ``d``'s changes whose bump the versions do not make (None when
    the version obeys the diff, or the two sides are not versions of one ruleset)."""
    if d.old_id != d.new_id:
        return None
    level = next((lv for lv in CHECKED if d.count(lv)), None)
    if level is None or satisfied(d.old_version, d.new_version, level):
        return None
    return level


def bump_warning(
    d: Diff, since: str, path: Path, compiler: Compiler, against: str
) -> list[Diagnostic]:
    """W601 at the version line of ``path`` when the version does not obey the diff ``d``."""
    level = unbumped(d)
    if level is None:
        return []
    first = next(c for c in d.changes if c.level == level)
    more = d.count(level) - 1
    return [
        warning(
            "W601",
            f"{d.count(level)} {level} change{'s' * (more > 0)} {since} "
            f"(e.g. {first.message}) but the version "
            + (
                f"stayed at {d.new_version}"
                if d.old_version == d.new_version
                else f"went {d.old_version} -> {d.new_version}"
            ),
            _version_pos(path, compiler),
            f"set `version {next_version(d.old_version, level)}`"
            + (f"; `rulesdsl diff {path} {against}` lists every change" if against else ""),
        )
    ]


def unbumped_in(paths: list[Path], rev: str, compiler: Compiler) -> list[Diagnostic]:
    """W601 for each ruleset of ``paths`` whose version does not obey its diff since ``rev``
    (`build --check --against REV`)."""
    out: list[Diagnostic] = []
    for path in paths:
        compiled = compiler.compile_file(path)
        if compiled.ruleset is not None:
            out += check_against(path, compiled.ruleset, rev, compiler)
    return out


def _version_pos(path: Path, compiler: Compiler) -> s.Pos:
    source, _ = compiler.parse_file(path)
    if source is not None:
        for st in source.statements:
            if isinstance(st, s.VersionDecl):
                return st.pos
    return s.Pos(str(path), 1, 1, 1, 1)
