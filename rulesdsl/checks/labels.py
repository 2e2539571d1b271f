"""Labels: an item labelled in some of the ruleset's languages is labelled in all (W101), so
that no sheet falls back to another language's word for it."""

from __future__ import annotations

from rulesdsl import ir
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, warning
from rulesdsl.positions import Positions


def check(rs: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    seen: set[int] = set()  # an outcome that stands for a factor shares the factor's labels
    for node, owners in walk.nodes(rs) if nodes is None else nodes:
        info = getattr(node, "info", None)
        if not isinstance(info, ir.Info) or not info.labels or id(info) in seen:
            continue
        seen.add(id(info))
        missing = [lang for lang in rs.languages if lang not in info.labels]
        if missing:
            name = node.key if isinstance(node, ir.Row) else getattr(node, "id", "")
            out.append(
                warning(
                    "W101",
                    f"'{name}' has no {', '.join(missing)} label",
                    where.of_field(node, "id", *owners),
                    f'add {missing[0]} "..." after the other labels',
                )
            )
    return out
