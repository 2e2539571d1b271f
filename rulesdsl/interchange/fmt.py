"""`rulesdsl fmt`: lay out a ruleset the canonical way, changing nothing but whitespace.

- Blocks are indented by two spaces per level, and `note` (and `remark`) continuation lines
  by two more.
- Trailing spaces go. There is at most one blank line in a row, and one newline at the end.
- In each run of consecutive rows in a block, the `|` separators line up, and so do the `->`
  of decision rows, so a table in the source reads as a table.

Only syntactically valid files are formatted. Comments and strings are kept exactly.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

INDENT = "  "
ALIGN_LIMIT = 64
"""Segments longer than this are not padded, nor do they widen the column for the others."""


@dataclass(frozen=True)
class _Line:
    code: str
    """The line's code, stripped, without its comment."""
    comment: str
    """The comment (with its `#`), or empty."""


CONTINUATIONS = ("note", "remark")
"""Words that open a line continuing the item above (set two spaces further in)."""


def _outside_strings(code: str) -> Iterator[int]:
    """The indexes of the characters of ``code`` that are not inside a quoted string."""
    in_string = False
    escaped = False
    for i, ch in enumerate(code):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        else:
            yield i


def _split_comment(line: str) -> _Line:
    """Separate code from a trailing comment, minding `#` inside strings."""
    for i in _outside_strings(line):
        if line[i] == "#":
            return _Line(line[:i].strip(), line[i:].rstrip())
    return _Line(line.strip(), "")


def _split_outside_strings(code: str, separator: str) -> list[str]:
    parts: list[str] = []
    start = 0
    for i in _outside_strings(code):
        if i >= start and code.startswith(separator, i):
            parts.append(code[start:i])
            start = i + len(separator)
    parts.append(code[start:])
    return parts


def _aligned(codes: list[str], separator: str) -> list[str]:
    """Pad the segments between separators so that they line up across the run."""
    split = [[p.strip() for p in _split_outside_strings(c, separator)] for c in codes]
    widths: list[int] = []
    for parts in split:
        for i, part in enumerate(parts[:-1]):
            if i == len(widths):
                widths.append(0)
            if len(part) <= ALIGN_LIMIT:
                widths[i] = max(widths[i], len(part))
    out = []
    for parts in split:
        segments = [
            part.ljust(widths[i]) if len(part) <= ALIGN_LIMIT else part
            for i, part in enumerate(parts[:-1])
        ]
        joined = f" {separator} ".join([*segments, parts[-1]]) if len(parts) > 1 else parts[0]
        out.append(joined.rstrip())
    return out


def _row_separator(code: str) -> str | None:
    if len(_split_outside_strings(code, "|")) > 1 and not code.startswith(("override", "when")):
        return "|"
    if len(_split_outside_strings(code, "->")) > 1 and not code.startswith(("step", "decision")):
        return "->"
    return None


def format_text(text: str) -> str:
    """The canonical layout of a ruleset's text (which must parse)."""
    lines = [_split_comment(raw.expandtabs(4)) for raw in text.splitlines()]
    out: list[str] = []
    depth = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.code and not line.comment:
            if out and out[-1] != "":
                out.append("")
            i += 1
            continue
        if line.code.startswith("}"):
            depth = max(0, depth - 1)
        separator = _row_separator(line.code) if depth else None
        if separator is None:
            out.append(_render(line, depth))
            if line.code.endswith("{"):
                depth += 1
            i += 1
            continue
        run = [i]
        j = i + 1
        while j < len(lines):
            nxt = lines[j]
            if nxt.code.startswith(CONTINUATIONS) or (not nxt.code and nxt.comment):
                j += 1
                continue
            if nxt.code and _row_separator(nxt.code) == separator:
                run.append(j)
                j += 1
                continue
            break
        aligned = dict(zip(run, _aligned([lines[k].code for k in run], separator), strict=True))
        for k in range(i, j):
            current = lines[k]
            if k in aligned:
                out.append(_render(_Line(aligned[k], current.comment), depth))
            else:
                out.append(_render(current, depth))
        i = j
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _render(line: _Line, depth: int) -> str:
    indent = INDENT * (depth + 2 if line.code.startswith(CONTINUATIONS) else depth)
    if not line.code:
        return indent + line.comment
    if line.comment:
        return f"{indent}{line.code}  {line.comment}"
    return indent + line.code
