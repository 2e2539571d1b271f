"""Sizes pass: no string longer than MAX_STRING_CHARS (E007), no table with more rows than
MAX_TABLE_ROWS (E008), whichever front end wrote them.

A ruleset file is already at most ``sources.MAX_FILE_BYTES``; these bounds keep one label or
one table from filling a sheet, a card or an editor's hover with more than a reader can use
(docs/language.md, "Size limits").
"""

from __future__ import annotations

from rulesdsl import ir
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.positions import Positions
from rulesdsl.sources import MAX_STRING_CHARS, MAX_TABLE_ROWS

ROWS = ("rows", "naturals")
"""The fields that hold a table's rows."""


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for node, owners in walk.marked(walk.nodes(rs) if nodes is None else nodes):
        for name in walk.field_names(node):
            value = getattr(node, name)
            if name in ROWS and isinstance(value, tuple) and len(value) > MAX_TABLE_ROWS:
                out.append(
                    error(
                        "E008",
                        f"{len(value):,} rows in one table; the limit is {MAX_TABLE_ROWS:,}",
                        where.of(node, *owners[1:]),
                        "split the table into several, or into a ruleset of its own",
                    )
                )
            kind = type(value)
            if kind is str:
                if len(value) <= MAX_STRING_CHARS:
                    continue
            elif not isinstance(value, tuple | dict | str):
                continue  # a number, a flag, a node: no string of its own
            longest = _longest(value)
            if longest > MAX_STRING_CHARS:
                out.append(
                    error(
                        "E007",
                        f"a string of {longest:,} characters; the limit is {MAX_STRING_CHARS:,}",
                        where.of_field(node, name, *owners[1:]),
                        "shorten it: a label or note is read on a sheet; put long text in "
                        "the rulebook and cite it with a source reference",
                    )
                )
    return out


def _longest(value: object) -> int:
    """The length of the longest string held directly by a field (in a dict or tuple too)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return max((len(v) for v in value.values() if isinstance(v, str)), default=0)
    if isinstance(value, tuple):
        return max((len(v) for v in value if isinstance(v, str)), default=0)
    return 0
