"""A worked example's route (issue 27): ``route_cost(mode, (place), (place)...)``, its total,
each step's cost and the cells that give it, and what a route states besides (``.state``,
``.rolls``, issue 40); a unit type with facing gives its actions between the places (``turn``,
``backward``, ``sideslip``, issue 24), read through :mod:`rulesdsl.semantics.facing`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesdsl import ir, semantics, spelling
from rulesdsl.examples import route_inputs
from rulesdsl.examples.reading import (
    Args,
    cost_answer,
    features,
    modes,
    moved,
    name_in,
    names_in,
    number_in,
)
from rulesdsl.examples.statements import Answered, Plain, Unanswerable, answer_text
from rulesdsl.semantics import facing as semantics_facing
from rulesdsl.semantics import moves as semantics_moves
from rulesdsl.semantics import routes as semantics_routes
from rulesdsl.semantics.drift import EIGHT_STEPS, HEX_STEPS, SQUARE_STEPS


def _places(args: Args, start: int) -> list[tuple[str, ...]]:
    rs = args.rs
    return [names_in(a, features(rs), "feature") for a in args.rest(start)]


def split_edges(rs: ir.Ruleset, place: Sequence[str]) -> tuple[list[str], list[str]]:
    """A route's place as written, ``(hills, river)``: the features of the place entered and
    those of the edge crossed into it (the features of edge layers)."""
    edge_layers = {layer.id for layer in rs.layers if semantics.on_edges(layer)}
    by_id = {f.id: f for f in rs.features}
    edges = [n for n in place if n in by_id and by_id[n].layer in edge_layers]
    return [n for n in place if n not in edges], edges


def _facing_route(args: Args, mode: str) -> Answered:
    """``route_cost(frigate, (open_space), (nebula), turn, (nebula), allowance=5 MP)``: the
    start, then the unit's actions in order (issue 24)."""
    rs = args.rs
    written = args.rest(1)
    if not written or not written[0][1].grouped:
        raise Unanswerable("route_cost() needs the start place first")
    items: list[str | tuple[list[str], list[str]]] = [
        split_edges(rs, names_in((i, a), features(rs), "feature"))
        if a.grouped
        else name_in((i, a), semantics_facing.WORDS, "move (forward, backward, sideslip, turn)")
        for i, a in written[1:]
    ]
    _laid_once(rs, mode, written[1:])
    allowance_arg = args.keyword("allowance")
    allowance = (
        number_in(allowance_arg, rs.units.get("cost"), "allowance") if allowance_arg else None
    )
    found = args.keyword("move")
    move = name_in(found, [k.id for k in rs.moves], "kind of move") if found else None
    wind = route_inputs.wind(rs, mode, args.keyword("wind"))
    strength = route_inputs.strength(rs, mode, args.keyword("wind"))
    state = route_inputs.state(rs, args.keyword("state"))
    acts = route_inputs.headed(rs, mode, semantics_facing.actions(items))
    entered = _entered_places(args, acts)
    answer = semantics_facing.route(
        rs, mode, acts, allowance, move, wind, state, start=0, entered=entered, strength=strength
    )
    cells = tuple(
        " ".join((f"step {i}: {step.move}", *step.entered, *step.crossed))
        + f" = {answer_text([cost_answer(step.cost)])}"
        for i, step in enumerate(answer.steps, 1)
    )
    parts: tuple[Plain, ...] = (cost_answer(answer.total),)
    if not answer.legal:
        parts = (*parts, {"word": "illegal"})
    steps = tuple(
        ((f"@{step.move}", *step.entered, *step.crossed), cost_answer(step.cost))
        for step in answer.steps
    )
    due = route_inputs.rolls_parts(answer.rolls) if args.q.attribute == "rolls" else None
    return Answered(parts, rs.units.get("cost"), cells, places=steps, state=answer.state, rolls=due)


def _laid_once(rs: ir.Ruleset, mode: str, written: Sequence[tuple[int, ir.ExampleArg]]) -> None:
    """A facing route laid on the unit's grid as the replays lay it (the start at (0, 0),
    heading 0, each ``turn`` one heading more) enters each place once: the replays' board has
    one place for each written, and a place entered again is not first entered (E522)."""
    count = next(f.headings for f in rs.facings if f.mode == mode)
    offsets = {6: HEX_STEPS, 4: SQUARE_STEPS, 8: EIGHT_STEPS}[count]
    place, heading, side, step = (0, 0), 0, 0, 0
    seen = {place: "the start"}
    for i, a in written:
        word = None if a.grouped else spelling.value(a.values[0])
        step += word in (None, "turn")
        if word == "turn":
            heading = (heading + 1) % count
        elif word is not None:  # how the next place is entered
            side = count // 2 if word == "backward" else 1 if word == "sideslip" else 0
        else:
            dq, dr = offsets[(heading + side) % count]
            place, side = (place[0] + dq, place[1] + dr), 0
            if place in seen:
                raise Unanswerable(
                    f"step {step} comes back to the place of {seen[place]}: a facing route is "
                    "laid on the grid from heading 0, each place entered once; ask the rest as "
                    "a route of its own, with entered=",
                    i,
                    code="E522",
                )
            seen[place] = f"step {step}"


def _entered_places(args: Args, acts: Sequence[semantics_facing.Action]) -> list[int]:
    """A facing route's ``entered=(1, 3)``: its actions, by number as the module numbers its
    steps, whose places the unit entered earlier in the turn (issue 40): E492 as without
    facing, and E521 for a turn, which enters no place."""
    entered = route_inputs.entered_steps(args, len(acts))
    turn = next((n for n in entered if acts[n - 1].move == "turn"), None)
    if turn is not None:
        found = args.keyword("entered")
        assert found is not None  # entered_steps read it
        steps = ", ".join(str(n) for n, a in enumerate(acts, 1) if a.move != "turn")
        raise Unanswerable(
            f"step {turn} of the route is a turn, which enters no place: 'entered' gives the "
            f"steps into a place, here {steps}",
            found[0],
            code="E521",
        )
    return entered


def ask(args: Args) -> Answered:
    """``route_cost(mode, (place), (place)...)``: the route's total (then ``illegal``)."""
    rs = args.rs
    mode = name_in(args.at(0, "a mode"), modes(rs), "mode")
    if any(f.mode == mode for f in rs.facings):
        return _facing_route(args, mode)
    places = _places(args, 1)
    if len(places) < 2:
        raise Unanswerable("route_cost() needs the start and at least one more place")
    view = moved(args)
    allowance_arg = args.keyword("allowance")
    allowance = (
        number_in(allowance_arg, rs.units.get("cost"), "allowance") if allowance_arg else None
    )
    allowance = semantics_routes.own_allowance(rs, mode, allowance)  # scaled by the kind too
    if args.kind is not None:
        allowance = semantics_moves.kind_allowance(args.kind, allowance)
    state = route_inputs.state(rs, args.keyword("state"))
    route_inputs.wind(rs, mode, args.keyword("wind"))  # checked; a unit without facing ignores it
    route_inputs.strength(rs, mode, args.keyword("wind"))
    move = args.kind.id if args.kind is not None else None
    written = [split_edges(rs, p) for p in places[1:]]
    answer = semantics_routes.route(view, mode, written, allowance, move=move, state=state)
    cells = tuple(
        f"step {i}: {' + '.join((*step.entered, *step.crossed)) or 'nothing'} = "
        + answer_text([cost_answer(step.cost)])
        for i, step in enumerate(answer.steps, 1)
    )
    parts: tuple[Plain, ...] = (cost_answer(answer.total),)
    if not answer.legal:
        parts = (*parts, {"word": "illegal"})
    steps = tuple(((*s.entered, *s.crossed), cost_answer(s.cost)) for s in answer.steps)
    due = route_inputs.rolls(view, args, mode, written, move, state, answer.steps)  # issue 40
    return Answered(parts, rs.units.get("cost"), cells, places=steps, state=answer.state, rolls=due)
