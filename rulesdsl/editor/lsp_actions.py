"""Code actions: the fix a diagnostic's hint names, as an edit the editor applies.

- "did you mean 'walker'?" (an unknown name, E101, E504...): one quick fix per name offered,
  replacing the misspelt name; the first is preferred.
- "set `version 2.0.0`" (W601, a change without the version bump it needs): the version
  line's number replaced.
- "require @^1.2.0 if this variant fits that version" (E502): the `extends` requirement
  replaced.
- "add the line: precedence fly, vehicle" (E232, a cell ambiguous through two keyword groups):
  the line added where ``rulesdsl fmt --fix`` adds it (:mod:`rulesdsl.interchange.fixes`).
- "use `override` in a variant to change a value" (E102, a row of the base listed again in a
  variant's re-opened block): the row taken out of the block and written after it as
  `override NAME | CELLS` with the row's notes, which changes the base's cells and keeps its
  labels.

Positions here are in code points; the server converts to and from the client's encoding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulesdsl.interchange.fixes import insertion_point, line_to_add

_CANDIDATES = re.compile(r"did you mean ((?:'[^']+'(?: or )?)+)\?")
_VERSION = re.compile(r"set `version ([^`\s]+)`")
_REQUIRE = re.compile(r"require (@\S+) if")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


@dataclass(frozen=True)
class Edit:
    """Replace the code points from ``line``:``start`` to ``end_line``:``end`` (0-based)."""

    line: int
    start: int
    end_line: int
    end: int
    text: str


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[Edit, ...]
    preferred: bool = False


def _replace(title: str, line: int, start: int, end: int, text: str, preferred: bool) -> Fix:
    return Fix(title, (Edit(line, start, line, end, text),), preferred)


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
                at = start + len(head) + 1
                out.append(_replace(f"Change to '{name}'", line, at, end, name, i == 0))
            else:
                out.append(_replace(f"Change to '{name}'", line, start, end, name, i == 0))
    version, written = _VERSION.search(hint), re.search(r"\bversion\s+(\S+)", text)
    if version and written:
        new = version.group(1)
        out.append(_replace(f"Set version {new}", line, *written.span(1), new, True))
    require, written = _REQUIRE.search(hint), re.search(r"@\S+", text)
    if require and written:
        new = require.group(1)
        out.append(_replace(f"Require {new}", line, *written.span(), new, True))
    if code == "E102" and "use `override`" in hint:
        out += _override(lines, line, wrong)
    added = line_to_add(code, hint)
    if added is not None and added not in (t.strip() for t in lines):
        at = insertion_point(lines)
        out.append(Fix(f"Add `{added}`", (Edit(at, 0, at, 0, added + "\n"),), True))
    return out


def _override(lines: list[str], line: int, name: str) -> list[Fix]:
    """A row given again in a re-opened block, as an override after the block."""
    text = lines[line]
    cells = _cells(text)
    if not text[:1].isspace() or not _NAME.fullmatch(name) or cells is None:
        return []
    end = next((i for i in range(line + 1, len(lines)) if lines[i].startswith("}")), None)
    if end is None:
        return []
    last = line  # the row's own lines: it and its indented notes
    while last + 1 < end and lines[last + 1][:1].isspace() and _cells(lines[last + 1]) is None:
        if not lines[last + 1].lstrip().startswith("note"):
            break
        last += 1
    notes = "".join("    " + lines[i].strip() + "\n" for i in range(line + 1, last + 1))
    return [
        Fix(
            f"Override {name} of the base",
            (
                Edit(line, 0, last + 1, 0, ""),
                Edit(end + 1, 0, end + 1, 0, f"override {name} | {cells}\n" + notes),
            ),
            True,
        )
    ]


def _cells(text: str) -> str | None:
    """The cells after a row's first `|` outside strings (None: no `|`)."""
    code = re.sub(r'"([^"\\]|\\.)*"', lambda m: "_" * len(m.group()), text)
    bar = code.find("|")
    if bar < 0:
        return None
    hash_at = code.find("#", bar)
    return text[bar + 1 : hash_at if hash_at >= 0 else len(text)].strip()
