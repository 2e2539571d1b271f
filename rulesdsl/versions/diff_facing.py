"""`rulesdsl diff` for facing rules (issue 24).

Called by :class:`rulesdsl.versions.diff._Differ` with itself. A change that lets fewer moves
through (a turn or a move that costs more, a longer turn mode at some speed, a move taken away
or allowed at fewer speeds or only once, `exact speed` added) is breaking: a route that was
legal may no longer be. One that only lets more through is a rules change. A facing rule added
to or removed from a unit type changes what its routes take and answer, so it is breaking.
"""

from __future__ import annotations

from typing import get_args

from rulesdsl import ir
from rulesdsl.semantics import facing as semantics_facing
from rulesdsl.versions.diff_sight import Differ, Level

_INF = float("inf")


def _grade(worse: bool) -> Level:
    return "breaking" if worse else "rules"


def _turn_mode(rule: ir.Facing, speed: float, move: str | None = None) -> int:
    return semantics_facing.turn_mode(rule, speed, move)


def _modes_text(rule: ir.Facing) -> str:
    return ", ".join(
        f"{r.places}"
        + (f" at speed {r.up_to_speed:g} or less" if r.up_to_speed is not None else "")
        + (f" at {r.move}" if r.move is not None else "")
        for r in rule.turn_modes
    )


def _costs_text(rule: ir.Facing) -> str:
    rows = [f"{cost:g} at speed {up:g} or less, " for up, cost in rule.turn_costs]
    return "".join(rows) + f"{rule.turn_cost:g}"


def _move_text(move: ir.Manoeuvre | None) -> str:
    if move is None:
        return "not allowed"
    text = f"+{move.cost:g}"
    if move.up_to_speed is not None:
        text += f" at speed {move.up_to_speed:g} or less"
    return text + (" once per move" if move.once else "")


def facings(d: Differ) -> None:
    old = {f.mode: f for f in d.old.facings}
    new = {f.mode: f for f in d.new.facings}
    for mode in sorted(old.keys() | new.keys()):
        a, b = old.get(mode), new.get(mode)
        path = f"facing.{mode}"
        if a is None:
            assert b is not None
            d.add("breaking", "added", path, f"facing rule for {mode}: its routes take headings")
            continue
        if b is None:
            d.add("breaking", "removed", path, f"facing rule for {mode}: its routes lose headings")
            continue
        if a.grid != b.grid or a.headings != b.headings:
            d.add(
                "breaking", "changed", path, f"{mode} faces on {a.grid} -> {b.grid}", a.grid, b.grid
            )
        if (a.turn_cost, a.turn_costs) != (b.turn_cost, b.turn_costs):  # by speed: issue 40
            before, after = _costs_text(a), _costs_text(b)
            costs_at = [s for s, _ in (*a.turn_costs, *b.turn_costs)]
            probes = [*costs_at, *(s + 0.5 for s in costs_at), _INF]
            turn_cost = semantics_facing.turn_cost
            d.add(
                _grade(any(turn_cost(b, s) > turn_cost(a, s) for s in probes)),
                "changed",
                f"{path}.turn",
                f"{mode}: a turn costs {before} -> {after} per {b.turn_per}",
                before,
                after,
            )
        if a.turn_modes != b.turn_modes:
            speeds = {r.up_to_speed for r in (*a.turn_modes, *b.turn_modes)} - {None}
            probes = [s for s in speeds if s is not None] + [s + 0.5 for s in speeds if s] + [_INF]
            # a row for a kind of move the old rules did not have lets no old move fewer turns
            old_kinds = {k.id for k in d.old.moves}
            rows = (*a.turn_modes, *b.turn_modes)
            kinds = [None, *sorted({r.move for r in rows if r.move in old_kinds})]
            worse = any(_turn_mode(b, s, k) > _turn_mode(a, s, k) for s in probes for k in kinds)
            before, after = _modes_text(a), _modes_text(b)
            d.add(
                _grade(worse),
                "changed",
                f"{path}.turn_mode",
                f"{mode}: turn mode {before} -> {after}",
                before,
                after,
            )
        moves_a = {m.kind: m for m in a.manoeuvres}
        moves_b = {m.kind: m for m in b.manoeuvres}
        for kind in get_args(ir.FacingMove):
            ma, mb = moves_a.get(kind), moves_b.get(kind)
            if ma == mb:
                continue
            worse = mb is None or (
                ma is not None
                and (
                    mb.cost > ma.cost
                    or (mb.up_to_speed or _INF) < (ma.up_to_speed or _INF)
                    or (mb.once and not ma.once)
                )
            )
            before, after = _move_text(ma), _move_text(mb)
            d.add(
                _grade(worse),
                "changed",
                f"{path}.{kind}",
                f"{mode}: {kind} {before} -> {after}",
                before,
                after,
            )
        if a.until_spent != b.until_spent:  # more routes legal: rules; fewer: breaking
            before, after = ("yes", "no") if a.until_spent else ("no", "yes")
            d.add(
                _grade(a.until_spent),
                "changed",
                f"{path}.until_spent",
                f"{mode}: may end on the step that spends the rest of its speed {before} -> "
                f"{after}",
                before,
                after,
            )
        _turn_limit(d, path, mode, a, b)
        _by_wind(d, path, mode, a, b)
        _sail(d, path, mode, a, b)
        _speed_by(d, path, mode, a, b)
        _sail_when(d, path, mode, a, b)
        _speed_when(d, path, mode, a, b)
        if a.exact_speed != b.exact_speed:
            before, after = ("yes", "no") if a.exact_speed else ("no", "yes")
            d.add(
                _grade(b.exact_speed),
                "changed",
                f"{path}.exact_speed",
                f"{mode}: must spend exactly its speed {before} -> {after}",
                before,
                after,
            )


def _turn_limit(d: Differ, path: str, mode: str, a: ir.Facing, b: ir.Facing) -> None:
    """``turn at most N hexsides per hex`` (issue 40): a lower limit, or one added, lets fewer
    routes through (breaking); a higher one, or none, more (rules)."""
    if a.turn_limit == b.turn_limit:
        return
    worse = (b.turn_limit or _INF) < (a.turn_limit or _INF)
    before, after = (
        "any" if r.turn_limit is None else semantics_facing.turned(r, r.turn_limit) for r in (a, b)
    )
    d.add(
        _grade(worse),
        "changed",
        f"{path}.turn_limit",
        f"{mode}: turns in one place at most {before} -> {after}",
        before,
        after,
    )


def _by_wind(d: Differ, path: str, mode: str, a: ir.Facing, b: ir.Facing) -> None:
    """``tack +2 MP``, ``may not wear`` (issue 40): a dearer tack or wear, one added or refused,
    lets fewer routes through (breaking); the other way round, more (rules)."""
    for which, old, new in (("tack", a.tack, b.tack), ("wear", a.wear, b.wear)):
        said = [
            (_INF, "refused")
            if which in r.refused
            else (c or 0.0, "no rule" if c is None else f"+{c:g}")
            for r, c in ((a, old), (b, new))
        ]
        if said[0] == said[1]:
            continue
        (before, before_text), (after, after_text) = said
        d.add(
            _grade(after > before),
            "changed",
            f"{path}.{which}",
            f"{mode}: {which} {before_text} -> {after_text}",
            before_text,
            after_text,
        )


def _sail(d: Differ, path: str, mode: str, a: ir.Facing, b: ir.Facing) -> None:
    """``sail by ARCS (...)`` (issue 40): a point of sail that costs a step more, or is made
    impassable, lets fewer routes through (breaking); one that costs less, more (rules). Other
    arcs, or the clause added or dropped, change which arc a wind falls in: breaking."""
    if a.sail_by != b.sail_by:
        before, after = (f"sail by {r.sail_by}" if r.sail_by else "no rule" for r in (a, b))
        d.add("breaking", "changed", f"{path}.sail", f"{mode}: {before} -> {after}", before, after)
        return
    old, new = dict(a.sail), dict(b.sail)
    for arc in sorted(old.keys() | new.keys()):
        if old.get(arc) == new.get(arc):
            continue
        costs = [_INF if c is None else c for c in (old.get(arc), new.get(arc))]
        shown = ["impassable" if c == _INF else f"+{c:g}" for c in costs]
        d.add(
            _grade(costs[1] > costs[0]),
            "changed",
            f"{path}.sail.{arc}",
            f"{mode}: {arc} {shown[0]} -> {shown[1]}",
            *shown,
        )


def _sail_when(d: Differ, path: str, mode: str, a: ir.Facing, b: ir.Facing) -> None:
    """``sail when (...)`` (issue 40): the clause added or dropped changes what ``wind`` must
    give (breaking); a strength dropped is one a caller may no longer give (breaking); a step
    that costs more in a strength, or is made impassable, lets fewer routes through (breaking),
    one that costs less more (rules); a strength added costs from nothing more."""
    if bool(a.strengths) != bool(b.strengths):
        before, after = ("sail when" if r.strengths else "no rule" for r in (a, b))
        d.add(
            "breaking",
            "changed",
            f"{path}.sail_when",
            f"{mode}: {before} -> {after}",
            before,
            after,
        )
        return
    old, new = dict(a.strengths), dict(b.strengths)
    for name in sorted(old.keys() | new.keys()):
        if old.get(name, 0.0) == new.get(name, 0.0) and (name in old) == (name in new):
            continue
        costs = [_INF if c is None else c for c in (old.get(name, 0.0), new.get(name, 0.0))]
        shown = ["impassable" if c == _INF else f"+{c:g}" for c in costs]
        shown = [s if name in r else "none" for s, r in zip(shown, (old, new), strict=True)]
        d.add(
            _grade(name not in new or costs[1] > costs[0]),
            "changed",
            f"{path}.sail_when.{name}",
            f"{mode}: {name} {shown[0]} -> {shown[1]}",
            *shown,
        )


def _speed_when(d: Differ, path: str, mode: str, a: ir.Facing, b: ir.Facing) -> None:
    """``speed when (...)`` (issue 40): a lower speed in a strength of the wind lets fewer
    routes through (breaking), a higher one more (rules); a strength added or dropped changes
    the speed a wind gives (or whether it may be given): breaking."""
    old, new = dict(a.strength_speeds), dict(b.strength_speeds)
    for name in sorted(old.keys() | new.keys()):
        if old.get(name) == new.get(name):
            continue
        shown = ["none" if v is None else f"{v:g}" for v in (old.get(name), new.get(name))]
        worse = name not in old or name not in new or new[name] < old[name]
        message = f"{mode}: speed {shown[0]} -> {shown[1]} {name}"
        d.add(_grade(worse), "changed", f"{path}.speed_when.{name}", message, *shown)


def _speed_by(d: Differ, path: str, mode: str, a: ir.Facing, b: ir.Facing) -> None:
    """``speed by ARCS (...)`` (issue 40): a lower speed at a point of sail lets fewer routes
    through (breaking), a higher one more (rules); other arcs, or the clause added or dropped,
    change the speed a wind gives: breaking."""
    if a.speed_by != b.speed_by:
        before, after = (f"speed by {r.speed_by}" if r.speed_by else "no rule" for r in (a, b))
        d.add(
            "breaking", "changed", f"{path}.speed_by", f"{mode}: {before} -> {after}", before, after
        )
        return
    old, new = dict(a.speeds), dict(b.speeds)
    for arc in sorted(old.keys() | new.keys()):
        if old.get(arc) != new.get(arc):
            shown = [f"{old[arc]:g}", f"{new[arc]:g}"]
            message = f"{mode}: speed {shown[0]} -> {shown[1]} {arc}"
            d.add(_grade(new[arc] < old[arc]), "changed", f"{path}.speed_by.{arc}", message, *shown)
