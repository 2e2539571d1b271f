"""Moving a ruleset to the current edition of the language (issue 39): ``rulesdsl migrate`` and
``check``'s note that a newer edition would change a file's answers.

The file is compiled both ways, as written and with ``edition <current>``, and the two are
asked the same questions (:mod:`rulesdsl.versions.answers`); each answer that differs is
listed with its call and both values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rulesdsl import editions, ir
from rulesdsl.compiler import Compiled, Compiler
from rulesdsl.diagnostics import Diagnostic, warning
from rulesdsl.frontends import registry
from rulesdsl.frontends import syntax as s
from rulesdsl.versions.answers import answers


@dataclass(frozen=True)
class Changed:
    call: str
    was: str
    now: str


@dataclass(frozen=True)
class Migration:
    """A file moved to the current edition: its new text, what it compiles to (with its
    diagnostics) and the answers that change."""

    path: Path
    edition: str
    text: str
    compiled: Compiled
    changed: tuple[Changed, ...]


def moved_text(text: str, source: s.SourceFile, yaml: bool) -> str:
    """``text`` with its edition line set to the current edition: the line rewritten where
    the file has one, else added after the version line (or first)."""
    lines = text.splitlines(keepends=True)
    line = f"edition: {editions.CURRENT}\n" if yaml else f"edition {editions.CURRENT}\n"
    stated = s.of_kind(source.statements, s.EditionDecl)
    versions = s.of_kind(source.statements, s.VersionDecl)
    if stated:
        n = stated[-1].pos.line - 1
        lines[n] = re.sub(r"\d+\.\d+", editions.CURRENT, lines[n], count=1)
    elif yaml:  # a top-level key: after the `version:` line, whose value is on it
        at = next((i for i, t in enumerate(lines) if t.startswith("version:")), -1)
        lines.insert(at + 1, line)
    else:
        at = versions[-1].pos.line if versions else 0
        if at and not lines[at - 1].endswith("\n"):
            lines[at - 1] += "\n"
        lines.insert(at, line)
    return "".join(lines)


def migrate(path: Path, compiler: Compiler) -> Migration | None:
    """``path`` moved to the current edition, or None when it does not compile as written."""
    compiled = compiler.compile_file(path)
    text, _ = compiler.read(path)
    source, _ = compiler.parse_file(path)
    if compiled.ruleset is None or text is None or source is None:
        return None
    moved = moved_text(text, source, registry.named(path.name) is registry.YAML)
    after = Compiler(compiler.limits).compile_text(moved, str(path), path.parent)
    changed: tuple[Changed, ...] = ()
    if after.ruleset is not None and compiled.ruleset.edition != after.ruleset.edition:
        changed = differences(compiled.ruleset, after.ruleset)
    return Migration(path, compiled.ruleset.edition, moved, after, changed)


def differences(old: ir.Ruleset, new: ir.Ruleset) -> tuple[Changed, ...]:
    """The answers that differ between two compilations of one ruleset."""
    was, now = answers(old), answers(new)
    return tuple(
        Changed(call, was[call], now.get(call, "(not asked)"))
        for call in was
        if was[call] != now.get(call, "(not asked)")
    )


def may_change(rs: ir.Ruleset) -> bool:
    """Whether a newer edition could change ``rs``'s answers at all: it is in an older edition
    and uses a construct a newer one reads otherwise (keyword precedence, the manoeuvres of a
    facing rule)."""
    manoeuvres = any(f.manoeuvres for f in rs.facings)  # pivots too: only a pre-check
    return editions.newer(rs.edition) and (bool(rs.precedence and rs.groups) or manoeuvres)


def edition_note(path: Path, rs: ir.Ruleset, compiler: Compiler) -> list[Diagnostic]:
    """W112, once per file: a newer edition would change the file's answers."""
    if not may_change(rs):
        return []
    moved = migrate(path, compiler)
    if moved is None or not moved.changed:
        return []
    first = moved.changed[0]
    count = len(moved.changed)
    return [
        warning(
            "W112",
            f"edition {editions.CURRENT} would change {count} answer{'s' * (count != 1)} of "
            f"this ruleset, read as edition {rs.edition} (e.g. {first.call}: "
            f"{first.was} -> {first.now})",
            _edition_pos(path, compiler),
            f"`rulesdsl migrate {path}` moves it to edition {editions.CURRENT} and lists them",
        )
    ]


def _edition_pos(path: Path, compiler: Compiler) -> s.Pos:
    source, _ = compiler.parse_file(path)
    if source is not None:
        for st in source.statements:
            if isinstance(st, s.EditionDecl | s.VersionDecl):
                return st.pos
    return s.Pos(str(path), 1, 1, 1, 1)
