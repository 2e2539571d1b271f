"""The generated module's quick answers (issue 29) are the answers it works out: ``modifier``,
``roll`` on a results table and ``lookup`` keep what they found the first time (per context,
per column, per table), and asking again, with the same or other arguments, gives exactly
what working it out gives -- values, warnings and errors alike."""

from __future__ import annotations

import itertools
import math
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesdsl.compiler import Compiler
from tests.conftest import RULESETS, bundled, import_rendered

BUNDLED = sorted(p.stem for p in RULESETS.glob("*.terrain"))


@pytest.fixture(scope="module", params=BUNDLED)
def module(
    request: pytest.FixtureRequest, compiler: Compiler, tmp_path_factory: pytest.TempPathFactory
) -> ModuleType:
    compiled = compiler.compile_file(RULESETS / f"{request.param}.terrain")
    assert compiled.ruleset is not None
    folder = tmp_path_factory.mktemp(request.param)
    return import_rendered(compiled.ruleset, folder, f"fast_{request.param}")


def outcome(call: Any) -> tuple[object, list[str]]:
    """What a call gives: its answer or its error (type and message), and its warnings."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            answer: object = call()
        except Exception as error:  # the error is part of the answer
            answer = (type(error).__name__, str(error))
    return answer, [str(w.message) for w in seen]


def same(first: tuple[object, list[str]], again: tuple[object, list[str]]) -> bool:
    if isinstance(first[0], float) and math.isnan(first[0]):  # pragma: no cover
        return isinstance(again[0], float) and math.isnan(again[0])
    return first == again and type(first[0]) is type(again[0])


def modifier_questions(m: ModuleType) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """Each modifier with no item, each feature or factor alone, pairs of them, and an unknown
    item; without a context and with each value of its contexts, and with a wrong one."""
    questions = []
    for name, values in m.MODIFIERS.items():
        items = sorted({*m.FEATURES, *values})
        groups: list[tuple[Any, ...]] = [(), *((i,) for i in items)]
        groups += list(itertools.combinations(items, 2))[:: max(1, len(items) // 3)]
        groups += [("no_such_item",), (3,), (items[0], items[0])]
        contexts: list[dict[str, Any]] = [{}]
        for context in (m._MODIFIER_CONTEXT[name], m._MODIFIER_CONTEXT2.get(name)):
            if context:
                contexts += [{context: v} for v in m.CONTEXTS[context]]
                contexts += [{context: "no_such_value"}, {context: ["unhashable"]}]
        contexts += [{"no_such_context": "x"}]
        contexts += [{factor: 2} for factor, by in values.items() if by.get("") is m.GIVEN]
        questions += [(name, g, c) for g in groups for c in contexts]
    return [*questions, ("no_such_modifier", (), {})]


def test_modifier_answers_again_as_it_worked_out_first(module: ModuleType) -> None:
    m = module
    for name, items, context in modifier_questions(m):
        first = outcome(lambda: m.modifier(name, *items, **context))  # noqa: B023
        again = outcome(lambda: m.modifier(name, *items, **context))  # noqa: B023
        worked_out = outcome(lambda: m._modifier(name, items, dict(context)))  # noqa: B023
        assert same(first, again), (name, items, context, first, again)
        assert same(first, worked_out), (name, items, context, first, worked_out)


def test_excluded_conditions_warn_on_every_call_not_only_the_first(tmp_path: Path) -> None:
    compiled = bundled("battletech_tacops")
    assert compiled.ruleset is not None
    m = import_rendered(compiled.ruleset, tmp_path, "fast_bt_warnings")
    pair = next(
        (a, b) for a, others in sorted(m.EXCLUSIONS.items()) for b in sorted(others) if a < b
    )
    for _ in range(3):
        with pytest.warns(m.ConflictWarning):
            m.modifier("to_hit", *pair, weapon="ballistic")
    assert pair not in m._CONFLICT_FREE


def test_results_rolls_answer_again_as_they_worked_out_first(module: ModuleType) -> None:
    m = module
    for table, results in getattr(m, "RESULTS_TABLES", {}).items():
        odds = sorted({c.value for c in results.columns})
        columns: list[Any] = [c.id for c in results.columns]
        columns += [*odds, *(v + 0.5 for v in odds), 0, 1.5, True, "no_such_column"]
        columns += [float("nan"), float("inf"), [1]]
        totals: list[Any] = [*range(-2, 15), 4.0, 4.5, "4", None]
        for column, total in itertools.product(columns, totals):
            first = outcome(lambda: m.roll(table, total, column=column))  # noqa: B023
            again = outcome(lambda: m.roll(table, total, column=column))  # noqa: B023
            worked_out = outcome(lambda: m._roll(table, total, column, None))  # noqa: B023
            assert same(first, again), (table, total, column, first, again)
            assert same(first, worked_out), (table, total, column, first, worked_out)


def test_lookups_answer_again_as_they_worked_out_first(module: ModuleType) -> None:
    m = module
    for table in [*m.TABLES, "no_such_table"]:
        entry = m.TABLES.get(table)
        rows = [*(entry.rows if entry else ()), "no_such_row", 99, [1]]
        columns = [*(entry.columns if entry else ()), "no_such_column", 1]
        keys: list[tuple[Any, ...]] = [(r,) for r in rows]
        keys += [(c, r) for c in columns for r in rows]
        keys += [(), ("a", "b", "c")]
        for key in keys:
            first = outcome(lambda: m.lookup(table, *key))  # noqa: B023
            again = outcome(lambda: m.lookup(table, *key))  # noqa: B023
            worked_out = outcome(lambda: m._lookup(table, key))  # noqa: B023
            assert same(first, again), (table, key, first, again)
            assert same(first, worked_out), (table, key, first, worked_out)


# ---- maps: a board checked in one pass, grid searches, route_cost -----------------------------

MAP_RULES = """ruleset fast_map "Fast map"
version 1.0.0
units distance hex, cost MP
minimum move 1 hex
mode foot "Foot"
mode vehicle "Vehicle"
layer terrain "Terrain" one per place {
  clear "Clear"  | 1
  woods "Woods"  | 2, vehicle 4
  marsh "Marsh"  | 2, vehicle 3 may not end
  ford "Ford"    | 1 must stop
  rock "Rock"    | impassable, vehicle prohibited
}
layer hexsides "Hexsides" edges {
  river "River"  | +2
  road "Road"    | along 1/2
  cliff "Cliff"  | impassable
}
grid hexes "Hex" : 1 hex = 1 km, hex
"""

HEX = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@pytest.fixture(scope="module")
def fast_map(compiler: Compiler, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    folder = tmp_path_factory.mktemp("fast_map")
    compiled = compiler.compile_text(MAP_RULES, str(folder / "fast_map.terrain"), folder)
    assert compiled.ruleset is not None, compiled.diagnostics
    return import_rendered(compiled.ruleset, folder, "fast_map_module")


def random_map(seed: int, size: int = 12) -> tuple[dict[Any, Any], dict[Any, Any]]:
    import random

    rng = random.Random(seed)
    kinds = ["clear", "woods", "marsh", "ford", "rock"]
    places = {
        (q, r): (rng.choices(kinds, [60, 20, 8, 6, 6])[0],)
        for q in range(size)
        for r in range(size)
    }
    edges: dict[Any, Any] = {}
    for q, r in places:
        for dq, dr in HEX[:3]:
            there = (q + dq, r + dr)
            if there in places and rng.random() < 0.25:
                feature = (rng.choice(["river", "road", "cliff"]),)
                edges[(q, r), there] = edges[there, (q, r)] = feature
    return places, edges


@pytest.mark.parametrize("seed", range(6))
def test_a_grid_board_searches_as_a_board_with_a_neighbours_function(
    fast_map: ModuleType, seed: int
) -> None:
    # The grid search (places' costs worked out once per board) and the general search
    # (neighbours asked of a function) must find the same costs, routes and reasons.
    m = fast_map
    places, edges = random_map(seed)

    def neighbours(place: Any) -> list[Any]:
        q, r = place
        return [(q + dq, r + dr) for dq, dr in HEX]

    grid = m.Board(places, edges, grid="hexes")
    general = m.Board({p: list(f) for p, f in places.items()}, edges, neighbours=neighbours)
    assert grid.places == general.places and grid.edges == general.edges
    for mode in ("foot", "vehicle"):
        for budget in (0, 1, 3.5, 8):
            assert dict(m.reachable(grid, mode, (5, 5), budget)) == dict(
                m.reachable(general, mode, (5, 5), budget)
            )
        for goal in [(11, 11), (0, 11), (11, 0), (6, 5)]:
            found = m.cheapest_route(grid, mode, (0, 0), goal)
            again = m.cheapest_route(grid, mode, (0, 0), goal)  # the board searched before
            other = m.cheapest_route(general, mode, (0, 0), goal)
            assert found == again
            assert (found is None) == (other is None)
            if found is not None and other is not None:
                assert found.total == other.total and found.legal == other.legal
                route = [(0, 0), *(s.end for s in found.steps)]
                assert m.route_cost(grid, mode, route) == m.route_cost(general, mode, route)
        line = [(q, 3) for q in range(12)]
        assert m.route_cost(grid, mode, line, allowance=6) == m.route_cost(
            general, mode, line, allowance=6
        )


def test_a_board_checked_in_one_pass_raises_as_one_checked_place_by_place(
    fast_map: ModuleType,
) -> None:
    m = fast_map
    places, edges = random_map(1)
    cases: list[tuple[dict[Any, Any], dict[Any, Any]]] = [
        ({**places, (3, 3): ("wodos",)}, edges),
        ({**places, (3, 3): ("river",)}, edges),
        ({**places, (3, 3): ("clear", "woods")}, edges),
        ({**places, (3, "x"): ("clear",)}, edges),
        ({**places, (3, 3): "clear"}, edges),
        ({**places, (3, 3): (["clear"],)}, edges),
        (places, {**edges, ((0, 0), (1, 0)): ("woods",)}),
        (places, {**edges, ((0, 0), (1, 0)): ("rivr",)}),
        (places, {**edges, ((0, 0), (1, 0), (2, 0)): ("river",)}),
    ]
    for bad_places, bad_edges in cases:
        as_lists = {p: list(f) if isinstance(f, tuple) else f for p, f in bad_places.items()}
        edge_lists = {e: list(f) for e, f in bad_edges.items()}
        one_pass = outcome(lambda: m.Board(bad_places, bad_edges, grid="hexes"))  # noqa: B023
        by_place = outcome(lambda: m.Board(as_lists, edge_lists, grid="hexes"))  # noqa: B023
        assert isinstance(one_pass[0], tuple), one_pass  # an error, not a board
        assert one_pass == by_place, (one_pass, by_place)
