"""An open DSL document parsed again after an edit: only the statements the edit touched.

An editor sends the whole text at each edit, and a keystroke changes one line of it. When the
last parse of the document was clean and the edit kept its number of lines, the statements
the changed lines belong to are parsed alone (the text before them given as as many empty
lines, so every position is the one a whole parse gives) and put in the place of the old
ones; every other statement is the old parse's own object. A statement starts on a line whose
first character is a letter and that no backslash continues (as the parser's recovery reads
a file): the splice is made only when every such line of both texts starts exactly one
statement (their counts match the statements'), and the part parsed again is clean. In any
other case :func:`reparse` gives None and the caller parses the whole text.
"""

from __future__ import annotations

from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.dsl import Parser


def reparse(parser: Parser, path: str, old: s.SourceFile, text: str) -> s.SourceFile | None:
    """``text`` parsed by parsing again only what changed since ``old`` (a clean parse of the
    same file), or None when that cannot be done safely."""
    if old.lost or old.path != path or text.startswith("\ufeff"):
        return None
    lines, before = text.split("\n"), old.text.split("\n")
    if len(lines) != len(before):
        return None
    first = next((i for i, (a, b) in enumerate(zip(lines, before, strict=True)) if a != b), None)
    if first is None:
        return s.SourceFile(path, text, old.statements)
    last = next(i for i in range(len(lines) - 1, -1, -1) if lines[i] != before[i])
    starts, old_starts = _starts(lines), _starts(before)
    if len(old_starts) != len(old.statements):
        return None
    start = next((i for i in range(first, -1, -1) if i in starts and i in old_starts), None)
    if start is None:
        return None
    end = next(
        (i for i in range(last + 1, len(lines)) if i in starts and i in old_starts), len(lines)
    )
    tail = "\n" if end < len(lines) else ""  # the text up to the next statement, exactly
    chunk, errors = parser.parse("\n" * start + "\n".join(lines[start:end]) + tail, path)
    if chunk is None or errors or chunk.lost:
        return None
    if len(chunk.statements) != sum(1 for i in starts if start <= i < end):
        return None
    low = sum(1 for i in old_starts if i < start)
    high = sum(1 for i in old_starts if i < end)
    statements = old.statements[:low] + chunk.statements + old.statements[high:]
    return s.SourceFile(path, text, statements)


def _starts(lines: list[str]) -> set[int]:
    """The lines (from 0) where a top-level statement starts."""
    return {
        i
        for i, line in enumerate(lines)
        if line[:1].isalpha() and (i == 0 or not lines[i - 1].rstrip().endswith("\\"))
    }
