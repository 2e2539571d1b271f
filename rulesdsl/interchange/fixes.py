"""The mechanical fixes ``rulesdsl fmt --fix`` applies: edits a diagnostic's hint spells out
exactly, so that a ruleset an earlier release compiled compiles again with the answers it gave.

- E232 (a cell ambiguous for a mode in two groups, no ``precedence``): the hint's ``add the
  line: precedence a, b`` (the first-declared group first, the group that won before
  ``precedence`` existed) is added after the file's last ``precedence``, ``mode`` or ``group``
  line (its notes included), once however many cells asked for it.

A fix is found from the diagnostic, never guessed from the text; the caller compiles the fixed
text again before writing it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rulesdsl.diagnostics import Diagnostic
from rulesdsl.frontends.registry import ADD_LINE

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_LINE = re.compile(re.escape(ADD_LINE) + rf"(precedence {_NAME}(?:, {_NAME})+)")
_AFTER = (("precedence",), ("mode", "group"), ("extends", "version", "ruleset"))
"""Where a line is added: after the last top-level line of the first kind the file has."""


@dataclass(frozen=True)
class Fixed:
    """One line added: its number in the fixed text, the line, and the diagnostics it fixes."""

    line: int
    text: str
    fixes: tuple[Diagnostic, ...]


def fix_text(text: str, diagnostics: Sequence[Diagnostic]) -> tuple[str, list[Fixed]]:
    """``text`` with the mechanical fixes of ``diagnostics`` (those of this file) applied,
    and what was added; ``text`` itself when nothing applies."""
    wanted: dict[str, list[Diagnostic]] = {}
    for diag in diagnostics:
        found = line_to_add(diag.code, diag.hint or "")
        if found is not None:
            wanted.setdefault(found, []).append(diag)
    lines = text.splitlines(keepends=True)
    present = {line.strip() for line in lines}
    new = [line for line in wanted if line not in present]
    if not new:
        return text, []
    at = insertion_point(lines)
    if at > 0 and not lines[at - 1].endswith("\n"):
        lines[at - 1] += "\n"
    lines[at:at] = [f"{line}\n" for line in new]
    fixed = [Fixed(at + 1 + i, line, tuple(wanted[line])) for i, line in enumerate(new)]
    return "".join(lines), fixed


def line_to_add(code: str, hint: str) -> str | None:
    """The line a diagnostic's hint says to add exactly (E232's ``precedence`` line)."""
    found = _LINE.search(hint) if code == "E232" else None
    return found.group(1) if found else None


def insertion_point(lines: Sequence[str]) -> int:
    """The index after the last top-level line of the first kind in :data:`_AFTER` (and the
    indented lines that continue it: its notes), or 0."""
    for kinds in _AFTER:
        last = None
        for i, line in enumerate(lines):
            if line.split(" ", 1)[0].rstrip("\n") in kinds:
                last = i
        if last is not None:
            end = last + 1
            while end < len(lines) and lines[end][:1] in (" ", "\t") and lines[end].strip():
                end += 1
            return end
    return 0
