"""Labels: an item labelled in some of the ruleset's languages is labelled in all (W101), so
that no sheet falls back to another language's word for it.

A language that many items miss (one just added to the `languages` line, most often) gets one
warning at its place on that line, with the count, a few of the names and the `i18n extract`
command that writes them all for a translator, instead of one warning per item."""

from __future__ import annotations

import dataclasses

from rulesdsl import ir
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, warning
from rulesdsl.positions import Positions, item_field

SUMMARY_AT = 4
"""A language missing from this many labelled items or more gets one warning, not one each."""
SHOWN = 3
"""How many of the items a summary names."""


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    gaps: list[tuple[str, list[str], object, tuple[object, ...]]] = []
    seen: set[int] = set()  # an outcome that stands for a factor shares the factor's labels
    listed = walk.nodes(rs) if nodes is None else nodes
    for i in listed.positions(_may_hold_info):
        node, owners = listed[i]
        info = getattr(node, "info", None)
        if not isinstance(info, ir.Info) or not info.labels or id(info) in seen:
            continue
        seen.add(id(info))
        missing = [lang for lang in rs.languages if lang not in info.labels]
        if missing:
            name = node.key if isinstance(node, ir.Row) else getattr(node, "id", "")
            gaps.append((name, missing, node, owners))
    count = {lang: sum(lang in m for _, m, _, _ in gaps) for lang in rs.languages}
    summed = [lang for lang in rs.languages if count[lang] >= SUMMARY_AT]
    out = [
        _summary(rs, where, lang, [name for name, m, _, _ in gaps if lang in m]) for lang in summed
    ]
    for name, missing, node, owners in gaps:
        left = [lang for lang in missing if lang not in summed]
        if left:
            out.append(
                warning(
                    "W101",
                    f"'{name}' has no {', '.join(left)} label",
                    where.of_field(node, "id", *owners),
                    f'add {left[0]} "..." after the other labels',
                )
            )
    return out


def _may_hold_info(kind: type) -> bool:
    """Whether a node of class ``kind`` may have an ``info`` (a field, or any attribute)."""
    return hasattr(kind, "info") or any(f.name == "info" for f in dataclasses.fields(kind))


def _summary(rs: ir.Ruleset, where: Positions, lang: str, names: list[str]) -> Diagnostic:
    shown = ", ".join(f"'{n}'" for n in names[:SHOWN]) + (", ..." if len(names) > SHOWN else "")
    return warning(
        "W101",
        f"{len(names)} labelled items have no {lang} label ({shown})",
        where.of_field(rs, item_field("languages", rs.languages.index(lang)), rs),
        f"`rulesdsl i18n extract {rs.id} --lang {lang} -o {rs.id}.{lang}.po` writes them for "
        f"a translator; `rulesdsl i18n merge {rs.id} {rs.id}.{lang}.po` puts them back",
    )
