"""Code actions: the fix a diagnostic's hint names, as an edit the editor applies.

- "did you mean 'walker'?" (an unknown name, E101, E504...): one quick fix per name offered,
  replacing the misspelt name; the first is preferred.
- "set `version 2.0.0`" (W601, a change without the version bump it needs): the version
  line's number replaced.
- "require @^1.2.0 if this variant fits that version" (E502): the `extends` requirement
  replaced.

Positions here are in code points; the server converts to and from the client's encoding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CANDIDATES = re.compile(r"did you mean ((?:'[^']+'(?: or )?)+)\?")
_VERSION = re.compile(r"set `version ([^`\s]+)`")
_REQUIRE = re.compile(r"require (@\S+) if")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


@dataclass(frozen=True)
class Fix:
    """Replace ``line``'s code points ``start:end`` (0-based) with ``text``."""

    title: str
    line: int
    start: int
    end: int
    text: str
    preferred: bool = False


def hint_of(message: str, data: object) -> str:
    """A diagnostic's hint: from its data (this server's), else its message's last line."""
    if isinstance(data, dict) and isinstance(data.get("hint"), str):
        return str(data["hint"])
    _, _, hint = message.rpartition("\nhint: ")
    return hint


def fixes(code: str, hint: str, lines: list[str], line: int, start: int, end: int) -> list[Fix]:
    """The fixes for a diagnostic of ``code`` with ``hint`` at ``line``:``start``-``end``
    (one line, code points) in a file of ``lines``."""
    if not 0 <= line < len(lines):
        return []
    text = lines[line]
    out: list[Fix] = []
    wrong = text[start:end]
    found = _CANDIDATES.search(hint)
    if found and _NAME.fullmatch(wrong):
        names = re.findall(r"'([^']+)'", found.group(1))
        for i, name in enumerate(names):
            if "." in wrong and "." not in name:  # `soft.walkr`: the part after the dot
                head, _, tail = wrong.rpartition(".")
                if not tail:
                    continue
                out.append(
                    Fix(f"Change to '{name}'", line, start + len(head) + 1, end, name, i == 0)
                )
            else:
                out.append(Fix(f"Change to '{name}'", line, start, end, name, i == 0))
    version = _VERSION.search(hint)
    if version:
        on_line = re.search(r"\bversion\s+(\S+)", text)
        if on_line:
            out.append(
                Fix(
                    f"Set version {version.group(1)}",
                    line,
                    on_line.start(1),
                    on_line.end(1),
                    version.group(1),
                    True,
                )
            )
    require = _REQUIRE.search(hint)
    if require:
        on_line = re.search(r"@\S+", text)
        if on_line:
            out.append(
                Fix(
                    f"Require {require.group(1)}",
                    line,
                    on_line.start(),
                    on_line.end(),
                    require.group(1),
                    True,
                )
            )
    return out
