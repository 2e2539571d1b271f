"""The rebase check: which of a house rule's overrides sit on what a new version of its base
changed (`rulesdsl diff HOUSE --rebase NEWBASE`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from rulesdsl import ir, words
from rulesdsl.variants.changelog import path_text
from rulesdsl.versions.diff import LEVELS, SIGNS, Change, Diff, diff, to_data


@dataclass(frozen=True)
class Rebase:
    """What moving ``house`` from one version of its base to another means for it.

    ``overridden``: the base's changes on cells (or items) the house rule overrides or removes:
    the house rule still wins there, so its author should look at each. ``inherited``: every
    other change of the base, which the house rule takes silently, graded like any diff.
    """

    house_id: str
    house_version: str
    base: Diff
    overridden: tuple[Change, ...]
    inherited: Diff


def rebase(old_base: ir.Ruleset, new_base: ir.Ruleset, house: ir.Ruleset) -> Rebase:
    """Compare two versions of ``house``'s base in the light of ``house``'s own changes."""
    base = diff(old_base, new_base)
    mine = [
        (change.action, _segments(path_text(change.path)))
        for change in house.changes
        if words.touches_base(change.action)
    ]

    def covered(c: Change) -> bool:
        theirs = _segments(c.path)
        for action, path in mine:
            shorter = min(len(path), len(theirs))
            if path[:shorter] == theirs[:shorter]:
                return True
            if words.removes(action) and len(path) == 1 and path[0] in theirs:
                return True  # the house rule removed what this change is about
        return False

    overridden = tuple(c for c in base.changes if covered(c))
    inherited = tuple(c for c in base.changes if not covered(c))
    return Rebase(
        house.id,
        house.version,
        base,
        overridden,
        Diff(old_base.id, old_base.version, new_base.id, new_base.version, inherited),
    )


def _segments(path: str) -> tuple[str, ...]:
    """A path's names; ``feature.cost`` (the whole cost cell) is the feature itself."""
    parts = tuple(path.split("."))
    return parts[:-1] if len(parts) == 2 and parts[1] == "cost" else parts


def render_rebase(r: Rebase) -> str:
    b = r.base
    out = [
        f"{r.house_id} {r.house_version} on {b.old_id} {b.old_version} -> "
        f"{b.new_id} {b.new_version}"
    ]
    if not b.changes:
        out.append("the base did not change: nothing to rebase")
    if r.overridden:
        out.append(f"overridden by {r.house_id}, changed by the base ({len(r.overridden)}):")
        out += [f"  ! {c.message}  [{c.path}] ({c.level})" for c in r.overridden]
    d = r.inherited
    for level in LEVELS:
        changes = [c for c in d.changes if c.level == level]
        if changes:
            out.append(f"inherited, {level} ({len(changes)}):")
            out += [f"  {SIGNS[c.action]} {c.message}  [{c.path}]" for c in changes]
    if b.changes:
        counts = ", ".join(f"{d.count(lv)} {lv}" for lv in LEVELS if d.count(lv))
        out.append(
            f"{len(b.changes)} base change{'s' * (len(b.changes) != 1)}: "
            f"{len(r.overridden)} on what {r.house_id} overrides, "
            f"{len(d.changes)} inherited" + (f" ({counts})" if counts else "")
        )
    return "\n".join(out) + "\n"


def rebase_to_json(r: Rebase) -> str:
    data = {
        "house": {"id": r.house_id, "version": r.house_version},
        "base": to_data(r.base),
        "overridden": to_data(Diff("", "", "", "", r.overridden))["changes"],
        "inherited": to_data(r.inherited),
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
