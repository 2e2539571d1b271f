"""Worked examples (issue 27): every question of every example is asked of the rules
(:func:`rulesdsl.examples.ask`, through :mod:`rulesdsl.semantics`, which the generated module
is held to) and its stated answer compared with the rules' own.

- E270: a ruleset's own example states another answer than the rules give; the message shows
  both, the hint the cells that give the rules' answer, the notes where those are written.
- E271: a variant inherits an example whose answer it changes without restating it
  (``override example NAME | answer``) or removing it (``remove example NAME``).
- E272: a question the module cannot answer as written (an unknown name, an argument too many).
- E273: an argument or an answer in another unit than the rules use there.
- E450-E455: a route's ``state=`` or ``wind=`` the rules do not take (issue 40,
  :mod:`rulesdsl.examples.route_inputs`); E456: a free move's leg written otherwise; E458: a
  line of sight's ``state=`` for a sight rule with no band of a state; E488: ``effect()``
  where no effect is keyed by unit type (:mod:`rulesdsl.examples.unit_effects`); E489-E491:
  a ``.state`` answer that is not a route's, a route with no state at the start, a state not
  stated by name; E492: a route's ``entered=`` that is not its steps, or without ``.rolls``;
  E521: a facing route's ``entered=`` that names a turn; E522: a facing route that comes
  back to a place it entered.
"""

from __future__ import annotations

from rulesdsl import examples, ir
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, Related, error
from rulesdsl.examples import statements as examples_stated
from rulesdsl.positions import Positions


def check(rs: ir.Ruleset, where: Positions, _nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    nodes = _named_nodes(rs)
    for example in rs.examples:
        for n, q in enumerate(example.questions, 1):
            pos = where.of(q, example)
            line = _line_factor(rs, q)
            if line is not None:  # the module takes a line of places by its name (issue 40)
                message = f"example '{example.id}': '{line}' is read along a line of sight, "
                message += "whose places (a list) an example cannot give"
                out.append(error("E272", message, pos, "test this modifier in your own tests"))
                continue
            try:
                answered = examples.ask(rs, q)
            except examples.Unanswerable as exc:
                at = where.of(q.args[exc.arg], q, example) if exc.arg is not None else pos
                message = f"example '{example.id}': {exc.message}"
                hint = (
                    f"the example comes from {example.inherited}, and this variant changed what "
                    f"it asks about: `remove example {example.id}`, or declare it again"
                    if example.inherited
                    else None
                )
                if exc.wrong_unit:
                    out.append(error("E273", message, at, hint))
                elif exc.code:  # a route's state= or wind= (issue 40)
                    out.append(error(exc.code, message, at, hint or _inputs_hint(exc.code)))
                else:
                    out.append(error("E272", message, at, hint or _asks()))
                continue
            problem = examples.unit_problem(q, answered)
            if problem is not None:
                out.append(error("E273", f"example '{example.id}': {problem}", pos))
                continue
            stated = examples_stated.stated(q)
            if examples_stated.same(stated, answered.parts):
                continue
            actual = examples_stated.answer_text(answered.parts, answered.unit)
            wrote = examples_stated.answer_text(stated, examples_stated.unit_of(q))
            asked = examples_stated.question_text(q)
            cells = "; ".join(answered.cells) or "none"
            related = [
                Related(p, f"'{name}' is written here")
                for name in _names_in(q)
                if (node := nodes.get(name)) is not None
                and (p := where.of(node)) != where.fallback
                and p != pos
            ]
            if not example.inherited:
                out.append(
                    error(
                        "E270",
                        f"example '{example.id}': {asked} is {actual}, not {wrote} as stated",
                        pos,
                        f"the cells that give {actual}: {cells}",
                        related,
                    )
                )
                continue
            path = example.id if len(example.questions) == 1 else f"{example.id}.{n}"
            out.append(
                error(
                    "E271",
                    f"example '{example.id}' from {example.inherited}: {asked} is now "
                    f"{actual}, not {wrote} as {example.inherited} states",
                    pos,
                    f"the cells that give {actual}: {cells}; restate it for your players with "
                    f"`override example {path} | {actual}`, or `remove example {example.id}`",
                    related,
                )
            )
    return out


ANSWER_CODES = ("E270", "E271")
"""A stated answer that differs from the rules' own."""


def sound_only(found: list[Diagnostic], earlier: list[Diagnostic]) -> list[Diagnostic]:
    """``found`` without the answers checked (E270, E271) when the ruleset has other errors
    (in ``found`` or ``earlier``): an answer is only as good as the rules it was asked of (a
    misspelt mode in a cell would otherwise also fail every example asking about that mode)."""
    if not any(d.is_error and d.code not in ANSWER_CODES for d in (*earlier, *found)):
        return found
    return [d for d in found if d.code not in ANSWER_CODES]


_ROUTE_INPUTS = {
    "`state=(speed=5, altitude=2)`: each `state` line by name, a whole number in its range": (
        "E450",
        "E451",
        "E452",
        "E455",
        "E458",
    ),
    "`wind=2`: the heading the wind blows from; the route starts at heading 0": ("E453", "E454"),
    "`wind=(2, gale)`: the heading and a strength a `sail when` or `speed when` names, where "
    "the unit's rules "
    "read it": ("E525", "E526"),
    "a free move's legs in order: (straight, 2 in), (reverse, 1 in), (turn, -45 deg)": ("E456",),
    "a modifier's items in parentheses, `mods=(aimed, smoke)`, read as their total": ("E457",),
    "`roll(table, total)` gives the effects every unit gets; effect() is the module's where an "
    "effect is keyed by unit type (`damage & infantry 3`)": ("E488",),
    "a route's state after it: route_cost(..., state=(speed=5, altitude=2)).state = (speed=3, "
    "altitude=2), every state by name": ("E489", "E490", "E491"),
    "`entered=(1, 3)`: the steps of the route entered earlier in the turn, which change only "
    "the rolls due on first entering: state them, route_cost(...).rolls = survey, +1": ("E492",),
    "`entered=(1, 3)` on a facing route: its steps into a place, numbered as the module numbers "
    "its actions (a turn is one, and enters no place)": ("E521",),
    "a facing route is laid on the grid from heading 0, each `turn` one heading more: split a "
    "route that comes back to a place into two questions, the second with `entered=`": ("E522",),
}
"""The codes of a route example's ``state=`` and ``wind=`` and a free move's legs (issue 40),
by what they take."""


def _inputs_hint(code: str) -> str:
    return next(hint for hint, codes in _ROUTE_INPUTS.items() if code in codes)


def _line_factor(rs: ir.Ruleset, q: ir.Question) -> str | None:
    """The factor read along a line of sight that the question names, if any."""
    lines = {f.id for m in rs.modifiers for f in m.sights}
    if not lines:
        return None
    named = _names_in(q) + [a.keyword for a in q.args]
    return next((n for n in named if n in lines), None)


def _asks() -> str:
    return "an example asks " + ", ".join(examples.QUESTIONS) + ", or a step or decision by name"


def _names_in(q: ir.Question) -> list[str]:
    names = [q.ask]
    for a in q.args:
        names += [v.name for v in a.values if isinstance(v, ir.Symbol)]
    return list(dict.fromkeys(names))


def _named_nodes(rs: ir.Ruleset) -> dict[str, object]:
    """The IR node of each name a question may give, for the notes' positions."""
    nodes: dict[str, object] = {}
    for group in (
        rs.features,
        rs.modifiers,
        [f for m in rs.modifiers for f in m.factors],
        rs.steps,
        rs.decisions,
        rs.tables,
        rs.dice_tables,
        rs.results_tables,
        rs.sights,
    ):
        for node in group:
            nodes.setdefault(node.id, node)
    return nodes
