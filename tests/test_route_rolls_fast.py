"""route_cost's rolls read from what the module worked out once per unit type and kind of move
(issue 44: the rolls due at each step were 81-90 % of a route's cost): the same rolls, in the
same order, as the reference (rulesdsl.semantics.moves.route_rolls) on random walks that cross
edges, come back to places, end where a roll is due and start among places entered before."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesdsl.compiler import Compiler
from rulesdsl.semantics import moves as semantics_moves
from tests.conftest import compile_snippet, import_rendered
from tests.test_moves import SKIRMISH

GROUNDS = [("clear",), ("woods",), ("water",), ("bog_land",), ("woods", "rain"), ("clear", "rain")]
PRICED_ALONE = [g for g in GROUNDS if g != ("bog_land",)]
"""The grounds whose price needs no allowance (bog_land costs a share of it), so that a route
asked with none is kept on its board and read back when asked again."""


@pytest.fixture
def demo(tmp_path: Path) -> tuple[ModuleType, Any]:
    """A fresh module: nothing worked out before."""
    compiled = compile_snippet(Compiler(), SKIRMISH)
    assert compiled.ruleset is not None, [d.message for d in compiled.diagnostics]
    return import_rendered(compiled.ruleset, tmp_path, "route_rolls_module"), compiled.ruleset


def _board(m: ModuleType, rng: random.Random, grounds: list[tuple[str, ...]] = GROUNDS) -> Any:
    places = {(x, y): rng.choice(grounds) for x in range(4) for y in range(4)}
    edges: dict[Any, tuple[str, ...]] = {}
    for x, y in places:
        for there in ((x + 1, y), (x, y + 1)):
            if there in places and rng.random() < 0.3:
                edges[(x, y), there] = edges[there, (x, y)] = ("cliff",)
    return m.Board(places, edges, grid="square")


def _walk(rng: random.Random, length: int) -> list[tuple[int, int]]:
    route = [(rng.randrange(4), rng.randrange(4))]
    while len(route) <= length:
        x, y = route[-1]
        there = rng.choice([(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)])
        if 0 <= there[0] < 4 and 0 <= there[1] < 4:
            route.append(there)
    return route


def test_route_cost_s_rolls_are_the_reference_s_on_random_walks(
    demo: tuple[ModuleType, Any],
) -> None:
    m, rs = demo
    rng = random.Random(44)
    for _ in range(150):
        board = _board(m, rng)
        route = _walk(rng, rng.randrange(1, 12))
        mode = rng.choice(["ogre", "trooper", "harpy"])
        move = rng.choice([None, "run", "charge"])
        entered = rng.sample(sorted(board.places), rng.randrange(3))
        answer = m.route_cost(board, mode, route, 40, move=move, entered=entered)
        steps = [(s.features, s.edge) for s in answer.steps]
        reference = semantics_moves.route_rolls(
            rs, mode, steps, move=move, places=route, entered=entered
        )
        got = [(d.step, d.place, d.on, d.roll, d.modifier, d.features) for d in answer.rolls]
        assert got == [
            (d.step, route[d.step], d.on, d.roll, d.modifier, d.features) for d in reference
        ], (mode, move, route, entered)
        assert all(d.move == (move or "") for d in answer.rolls)


def test_a_place_s_rolls_are_worked_out_once_per_unit_type_and_kind_of_move(
    demo: tuple[ModuleType, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    m, _ = demo
    board = m.Board({(x, 0): ("woods",) for x in range(6)}, grid="square")
    route = [(x, 0) for x in range(6)]
    asked: list[tuple[str, ...]] = []
    place_roll = m._place_roll

    def counted(roll: str, mode: str, move: str | None, features: tuple[str, ...]) -> Any:
        asked.append((roll, mode, str(move)))
        return place_roll(roll, mode, move, features)

    monkeypatch.setattr(m, "_place_roll", counted)
    first = m.route_cost(board, "ogre", route, move="charge")
    assert first.rolls and asked
    asked.clear()
    again = m.route_cost(board, "ogre", route, move="charge")
    assert again.rolls == first.rolls and asked == []
    m.route_cost(board, "ogre", route)
    assert {move for _, _, move in asked} == {"None"}  # another kind of move: its own


def test_rolls_read_back_with_a_route_are_the_reference_s_whatever_was_entered(
    demo: tuple[ModuleType, Any],
) -> None:
    """Issue 44: a route asked again on its board (no allowance, no kind of move) is read back
    with the rolls that may be due at each step kept beside its steps; its rolls are still the
    reference's for what ``entered`` says this time, and its answer is a new board's, with the
    caller's places (the same places as floats: other objects)."""
    m, rs = demo
    rng = random.Random(45)
    read_back = 0
    for _ in range(60):
        board = _board(m, rng, PRICED_ALONE)
        route = _walk(rng, rng.randrange(1, 12))
        mode = rng.choice(["ogre", "trooper", "harpy"])
        m.route_cost(board, mode, route)
        for asked in (route, [(float(x), y) for x, y in route]):
            entered = rng.sample(sorted(board.places), rng.randrange(3))
            read_back += m._routed_again(board, mode, tuple(asked)) is not None
            answer = m.route_cost(board, mode, asked, entered=entered)
            new = m.Board(board.places, board.edges, grid="square")
            assert repr(answer) == repr(m.route_cost(new, mode, asked, entered=entered))
            steps = [(s.features, s.edge) for s in answer.steps]
            reference = semantics_moves.route_rolls(rs, mode, steps, places=route, entered=entered)
            got = [(d.step, d.place, d.on, d.roll, d.modifier, d.features) for d in answer.rolls]
            assert got == [
                (d.step, asked[d.step], d.on, d.roll, d.modifier, d.features) for d in reference
            ], (mode, route, entered)
    assert read_back > 100  # the read-back path is the one tested
