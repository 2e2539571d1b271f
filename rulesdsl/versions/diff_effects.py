"""The diff of the effects that feed the cost or a sight rule (issue 24, item 4).

A dice outcome whose effects give ``cost`` or a sight rule a value is graded as a feature's
value in that column is: a changed or added sight value of an outcome the module took before
is breaking (a line that was open may now be blocked); a cost, or the first effect of an
outcome the module did not take, is a change to the rules; an outcome that stops feeding
both is breaking (``move_cost`` and ``line_of_sight`` no longer take its name). An outcome
added or removed with its table or row is graded there. The dice tables' own diff leaves
these effects to this one, so each is reported once.
"""

from __future__ import annotations

from typing import Literal, Protocol

from rulesdsl import ir, spelling
from rulesdsl.semantics import effects as semantics_effects
from rulesdsl.spelling import number

Level = Literal["breaking", "rules", "additive", "wording"]


class Differ(Protocol):
    """What this module uses of :class:`rulesdsl.versions.diff._Differ`."""

    old: ir.Ruleset
    new: ir.Ruleset

    def add(
        self,
        level: Level,
        action: Literal["added", "removed", "changed"],
        path: str,
        message: str,
        old: str | None = None,
        new: str | None = None,
    ) -> None: ...

    def label(self, info: ir.Info, fallback: str, ruleset: ir.Ruleset | None = None) -> str: ...


def labels(d: Differ) -> dict[str, str]:
    """The words for each outcome and sight rule: its label where it has one (issue 40)."""
    items: list[tuple[str, ir.Info]] = [
        *((r.id, r.info) for t in d.new.dice_tables for r in t.rows),
        *((o.id, o.info) for t in d.new.results_tables for o in t.outcomes),
        *((r.id, r.info) for r in d.new.sights),
    ]
    return {i: d.label(info, i) for i, info in reversed(items)}  # the first of a name wins


def fed(d: Differ) -> frozenset[str]:
    """The effects graded here: ``cost`` and every sight rule, old or new."""
    return frozenset((*semantics_effects.fed_columns(d.old), *semantics_effects.fed_columns(d.new)))


def effects(d: Differ) -> None:
    old_all = {o for _, o, _ in semantics_effects.outcomes(d.old)}
    new_all = {o for _, o, _ in semantics_effects.outcomes(d.new)}
    old_fed = set(semantics_effects.fed_outcomes(d.old))
    new_fed = set(semantics_effects.fed_outcomes(d.new))
    shown = labels(d)
    for column in sorted(fed(d)):
        was = semantics_effects.outcome_values(d.old, column)
        now = semantics_effects.outcome_values(d.new, column)
        what = "move cost" if column == semantics_effects.COST else shown.get(column, column)
        for outcome in dict.fromkeys([*was, *now]):
            before, after = was.get(outcome), now.get(outcome)
            if before == after or outcome not in old_all or outcome not in new_all:
                continue  # an outcome added or removed with its table is graded there
            level: Level = (
                "breaking"
                if (outcome in old_fed and outcome not in new_fed)
                or (column != semantics_effects.COST and outcome in old_fed)
                else "rules"
            )
            shown_before = number(before) if before is not None else "nothing"
            shown_after = number(after) if after is not None else "nothing"
            d.add(
                level,
                "changed",
                f"{outcome}.{column}",
                f"outcome {shown.get(outcome, outcome)}, {what}: {shown_before} -> {shown_after}",
                shown_before,
                shown_after,
            )


def by_unit(
    d: Differ,
    path: str,
    what: str,
    old: dict[str, dict[str, ir.Value]],
    new: dict[str, dict[str, ir.Value]],
) -> None:
    """An outcome's effects keyed by unit type or keyword (issue 40), each entry at
    ``path.effect.unit``: a value added, removed or changed changes that unit's answer (rules);
    one whose kind changed (a number that became dice) is breaking, as a plain effect's is."""
    for effect in dict.fromkeys([*old, *new]):
        was, now = old.get(effect, {}), new.get(effect, {})
        for unit in dict.fromkeys([*was, *now]):
            a, b = was.get(unit), now.get(unit)
            if a == b:
                continue
            before = "nothing" if a is None else spelling.value(a)
            after = "nothing" if b is None else spelling.value(b)
            level: Level = "breaking" if None not in (a, b) and type(a) is not type(b) else "rules"
            d.add(
                level,
                "changed",
                f"{path}.{effect}.{unit}",
                f"{what}, {effect} for {unit}: {before} -> {after}",
                before,
                after,
            )
