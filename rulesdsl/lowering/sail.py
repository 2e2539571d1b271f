"""The point of sail in step costs (issue 40): ``sail by ARCS (running +0 MP, reach +1 MP,
in_irons impassable)``, a clause of a facing rule. The wind's bearing seen from the unit's
heading falls in an arc of ``ARCS``; a step with the wind there costs that arc's amount more
(``impassable``: no step). Checked here: E496 (no such arcs), E497 (an arc without a cost),
E510 (a name that is no arc of them), E511 (an arc given twice), E512 (every arc impassable).

``speed by ARCS (running 6, reach 5, in_irons 0)``, the unit's speed by the point of sail, is
read the same way with its own codes: E517 (no such arcs), E518 (an arc without a speed), E519
(a name that is no arc of them, or an arc given twice), E520 (a speed below 0, in the facing
lowering).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from rulesdsl.diagnostics import did_you_mean
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering.context import Context

Sail = tuple[tuple[str, float | None], ...]
"""Per arc, in the arcs' order: the extra cost of a step with the wind in it (None: impassable)."""


class Codes(NamedTuple):
    """The codes of a clause by the point of sail: no such arcs, an arc left out, a name that
    is no arc, an arc given twice; and what it gives each arc, with the hint for one left
    out (``{}``: its name)."""

    arcs: str
    missing: str
    unknown: str
    twice: str
    what: str
    fill: str


SAIL = Codes(
    "E496", "E497", "E510", "E511", "cost", "give each arc a cost or `impassable`: `{} +0 MP`"
)
SPEED = Codes(
    "E517",
    "E518",
    "E519",
    "E519",
    "speed",
    "give each arc a speed: `{} 0` where the unit does not move",
)


def sail(
    lw: Context,
    term: s.FacingTerm,
    arcs: Sequence[s.ArcsDecl],
    cost: Callable[[s.Located], float | None],
    codes: Codes = SAIL,
) -> Sail | None:
    """The clause's costs (or speeds, ``speed by``) per arc, or None after an error (reported
    at its line and column)."""
    assert term.arcs is not None and term.sails is not None
    clause = term.word.text
    block = next((a for a in arcs if a.item.name.text == term.arcs.text), None)
    if block is None:
        lw.err(
            codes.arcs,
            f"no arcs '{term.arcs.text}': `{clause}` names the arcs of the wind's bearing",
            term.arcs.pos,
            did_you_mean(term.arcs.text, [a.item.name.text for a in arcs])
            or "declare them: `arcs points { running | 150 to 210 ... }`",
        )
        return None
    names = [a.item.name.text for a in block.arcs]
    out: dict[str, float | None] = {}
    ok = True
    for name, amount in term.sails:
        if name.text not in names:
            lw.err(
                codes.unknown,
                f"'{name.text}' is no arc of '{block.item.name.text}'",
                name.pos,
                did_you_mean(name.text, names) or f"one of: {', '.join(names)}",
            )
            ok = False
        elif name.text in out:
            lw.err(
                codes.twice,
                f"the arc '{name.text}' is given twice in `{clause} {block.item.name.text}`",
                name.pos,
                "keep one cost per arc",
            )
            ok = False
        else:
            extra = cost(amount) if amount is not None else None
            ok = ok and (amount is None or extra is not None)
            out[name.text] = extra
    return _whole(lw, term, names, out, codes) if ok else None


def _whole(
    lw: Context,
    term: s.FacingTerm,
    names: list[str],
    out: dict[str, float | None],
    codes: Codes,
) -> Sail | None:
    """Every arc costed (E497, E518), and not every one impassable (E512)."""
    assert term.arcs is not None
    missing = [n for n in names if n not in out]
    if missing:
        lw.err(
            codes.missing,
            f"`{term.word.text} {term.arcs.text}` gives no {codes.what} for {', '.join(missing)}",
            term.word.pos,
            codes.fill.format(missing[0]),
        )
        return None
    if all(v is None for v in out.values()):
        lw.err(
            "E512",
            f"`sail by {term.arcs.text}` makes every point of sail impassable: no step is made",
            term.word.pos,
            "give at least one arc a cost",
        )
        return None
    return tuple((n, out[n]) for n in names)


Strengths = tuple[tuple[str, float | None], ...]
"""Per strength of the wind named, as written: what a step costs more (None: impassable)."""


def strengths(
    lw: Context, term: s.FacingTerm, cost: Callable[[s.Located], float | None]
) -> Strengths | None:
    """``sail when (calm impassable, gale +1 MP)`` (issue 40): the step's extra cost by the
    wind's strength (``speed when (calm 0, gale 3)``: the speed), or None after an error (E524:
    a strength given twice)."""
    assert term.sails is not None
    out: dict[str, float | None] = {}
    ok = True
    for name, amount in term.sails:
        if name.text in out:
            lw.err(
                "E524",
                f"the wind's strength '{name.text}' is given twice in `{term.word.text}`",
                name.pos,
                "keep one per strength",
            )
            ok = False
            continue
        extra = cost(amount) if amount is not None else None
        ok = ok and (amount is None or extra is not None)
        out[name.text] = extra
    return tuple(out.items()) if ok else None


def spellings(lw: Context, named: Sequence[s.Name]) -> None:
    """The strengths of every ``sail when`` and ``speed when`` of a ruleset are one set, the
    names a caller may give (issue 40): a name one letter from another (``gael``, ``gale``) is a
    typo (E523), said at the one written fewer times (of two written as often, the later)."""
    first: dict[str, s.Name] = {}
    count: dict[str, int] = {}
    for name in named:
        first.setdefault(name.text, name)
        count[name.text] = count.get(name.text, 0) + 1
    order = list(first)
    for word in order:
        twins = [o for o in order if o != word and _one_apart(word, o)]
        rank = (count[word], -order.index(word))
        twin = next((o for o in twins if (count[o], -order.index(o)) > rank), None)
        if twin is not None:
            lw.err(
                "E523",
                f"the wind's strength '{word}' is one letter from '{twin}': every "
                "`sail when` and `speed when` names the same strengths, those a caller may give",
                first[word].pos,
                f"did you mean '{twin}'?",
            )


def _one_apart(a: str, b: str) -> bool:
    """One letter added, dropped, changed, or two side by side swapped."""
    if abs(len(a) - len(b)) > 1 or min(len(a), len(b)) < 3:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        swapped = len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
        return len(diff) == 1 or (swapped and a[diff[1]] == b[diff[0]])
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
