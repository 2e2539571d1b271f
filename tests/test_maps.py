"""Maps (issue 11, items 6-8): place states, edge layers with `along`, grid shapes, and the
generated module's Board, route_cost, cheapest_route and reachable.

The worked examples use one small map drawn twice, on a hex board (axial (q, r)) and on a
square board ((x, y)): a river between two columns of places, a road along the top row, a
marsh a vehicle may cross but not stop in, and a ford where everyone must stop.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import ir, semantics
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import routes as semantics_routes
from tests.conftest import compile_snippet, import_rendered

RULES = """ruleset hexmap "Hex map"
version 1.0.0
units distance hex, cost MP
minimum move 1 hex
mode foot "Foot"
mode vehicle "Vehicle"
layer terrain "Terrain" one per place {
  clear "Clear"  | 1
  marsh "Marsh"  | 2, vehicle 3 may not end
  ford "Ford"    | 1 must stop
  woods "Woods"  | 2, vehicle impassable
}
layer hexsides "Hexsides" edges {
  river "River"  | +2, vehicle impassable
  road "Road"    | along 1/2
}
grid hexes "Hex" : 1 hex = 1 km, hex
grid squares "Square" : 1 hex, square
"""


@pytest.fixture(scope="module")
def compiled() -> ir.Ruleset:
    result = compile_snippet(Compiler(), RULES)
    assert [d for d in result.diagnostics if d.severity == "error"] == []
    assert result.ruleset is not None
    return result.ruleset


@pytest.fixture(scope="module")
def mod(compiled: ir.Ruleset, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return import_rendered(compiled, tmp_path_factory.mktemp("maps"), "hexmap_rules")


def both_ways(edges: dict[tuple[object, object], tuple[str, ...]]) -> dict:
    return {**edges, **{(b, a): f for (a, b), f in edges.items()}}


# A 3 x 3 map, the same on both grids: column 0 and column 1 are split by a river except at
# the ford row; a road runs along the top row (y/r = 0) from column 1 to column 2.
def hex_board(mod: ModuleType) -> object:
    places = {(q, r): ("clear",) for q in range(3) for r in range(3)}
    places[(1, 1)] = ("marsh",)
    places[(1, 2)] = ("ford",)
    river = {((0, r), (1, r)): ("river",) for r in range(2)}
    river |= {((0, r), (1, r - 1)): ("river",) for r in range(1, 3)}
    road = {((1, 0), (2, 0)): ("road",)}
    return mod.Board(places, both_ways(river | road), grid="hexes")


def square_board(mod: ModuleType) -> object:
    places = {(x, y): ("clear",) for x in range(3) for y in range(3)}
    places[(1, 1)] = ("marsh",)
    places[(1, 2)] = ("ford",)
    river = {((0, y), (1, y)): ("river",) for y in range(2)}
    road = {((1, 0), (2, 0)): ("road",)}
    return mod.Board(places, both_ways(river | road), grid="squares")


# ---- syntax, IR and the meaning -------------------------------------------------------------


def test_place_states_belong_to_the_entry_they_follow(compiled: ir.Ruleset) -> None:
    features = {f.id: f for f in compiled.features}
    assert features["marsh"].states == {"vehicle": "may_not_end"}
    assert features["ford"].states == {"foot": "must_stop", "vehicle": "must_stop"}
    assert features["clear"].states == {}


def test_an_edge_layer_keeps_crossing_costs_and_along_costs_apart(compiled: ir.Ruleset) -> None:
    features = {f.id: f for f in compiled.features}
    assert [layer.scope for layer in compiled.layers] == ["one", "edges"]
    assert features["road"].along == {"foot": 0.5, "vehicle": 0.5}
    assert features["road"].costs["foot"] == ir.Number(0)
    assert features["river"].costs["foot"] == ir.Number(2, None, True)
    assert features["river"].costs["vehicle"] == ir.Marker("impassable")


def test_grids_carry_their_neighbourhood(compiled: ir.Ruleset) -> None:
    assert [(g.id, g.shape, g.diagonals) for g in compiled.grids] == [
        ("hexes", "hex", ()),
        ("squares", "square", ()),
    ]


def test_step_cost_adds_the_edge_and_along_replaces_the_place(compiled: ir.Ruleset) -> None:
    assert semantics_routes.step_cost(compiled, "foot", ["woods"], ["river"]) == 4
    assert semantics_routes.step_cost(compiled, "foot", ["woods"], ["road"]) == 0.5
    assert semantics_routes.step_cost(compiled, "vehicle", ["woods"], ["road"]) == 0.5
    assert (
        semantics_routes.step_cost(compiled, "vehicle", ["clear"], ["river"])
        == semantics.IMPASSABLE
    )


# ---- the module: can_end, must_stop, route_cost -----------------------------------------------


def test_can_end_and_must_stop_read_the_place_states(mod: ModuleType) -> None:
    assert mod.can_end("foot", "marsh") is True
    assert mod.can_end("vehicle", "marsh") is False
    assert mod.must_stop("foot", "ford") is True
    assert mod.must_stop("foot", "clear") is False
    with pytest.raises(mod.UnknownName):
        mod.can_end("boat", "marsh")


@pytest.mark.parametrize("board", [hex_board, square_board], ids=["hex", "square"])
def test_a_route_has_a_total_and_a_breakdown_per_step(mod: ModuleType, board: object) -> None:
    route = mod.route_cost(board(mod), "foot", [(0, 0), (1, 0), (2, 0)])
    assert route.total == 3.5  # across the river into clear (1 + 2), then along the road (1/2)
    assert [(s.start, s.end, s.features, s.edge, s.cost) for s in route.steps] == [
        ((0, 0), (1, 0), ("clear",), ("river",), 3.0),
        ((1, 0), (2, 0), ("clear",), ("road",), 0.5),
    ]
    assert (route.legal, route.reason) == (True, "")


@pytest.mark.parametrize("board", [hex_board, square_board], ids=["hex", "square"])
def test_a_route_that_ends_in_a_marsh_is_illegal_for_a_vehicle(
    mod: ModuleType, board: object
) -> None:
    route = mod.route_cost(board(mod), "vehicle", [(2, 0), (2, 1), (1, 1)])
    assert route.total == 4.0
    assert (route.legal, route.reason) == (False, "the unit may not end its move in the last place")
    assert mod.route_cost(board(mod), "foot", [(2, 0), (2, 1), (1, 1)]).legal is True


def test_a_route_through_a_ford_stops_there(mod: ModuleType) -> None:
    route = mod.route_cost(square_board(mod), "foot", [(2, 2), (1, 2), (0, 2)])
    assert route.total == 2.0
    assert (route.legal, route.reason) == (False, "step 1 enters a place where the unit must stop")


def test_an_impassable_river_makes_the_route_impassable(mod: ModuleType) -> None:
    route = mod.route_cost(square_board(mod), "vehicle", [(0, 0), (1, 0)])
    assert route.total is mod.IMPASSABLE
    assert (route.legal, route.reason) == (False, "step 1 is impassable")


def test_the_minimum_move_allows_one_step_over_the_allowance(mod: ModuleType) -> None:
    one = mod.route_cost(square_board(mod), "foot", [(0, 0), (1, 0)], allowance=1)
    assert (one.total, one.legal) == (3.0, True)
    two = mod.route_cost(square_board(mod), "foot", [(0, 0), (1, 0), (2, 0)], allowance=1)
    assert (two.legal, two.reason) == (False, "the route costs more than the allowance")


def test_route_arguments_are_checked(mod: ModuleType) -> None:
    board = square_board(mod)
    with pytest.raises(mod.InvalidArgument, match="is not next to"):
        mod.route_cost(board, "foot", [(0, 0), (2, 2)])
    with pytest.raises(mod.ArgumentTypeError):
        mod.route_cost("board", "foot", [(0, 0)])
    with pytest.raises(mod.InvalidArgument, match="edge feature"):
        mod.Board({(0, 0): ("road",)}, grid="square")
    with pytest.raises(mod.InvalidArgument, match="not a feature of an edge layer"):
        mod.Board({(0, 0): ("clear",)}, {((0, 0), (1, 0)): ("woods",)}, grid="square")
    with pytest.raises(mod.InvalidArgument, match="give neighbours or a grid"):
        mod.Board({(0, 0): ("clear",)})


# ---- cheapest_route and reachable ------------------------------------------------------------


def test_the_cheapest_vehicle_route_goes_round_the_river(mod: ModuleType) -> None:
    board = square_board(mod)
    open_row = mod.Board({**board.places, (1, 2): ("clear",)}, board.edges, grid="squares")
    route = mod.cheapest_route(open_row, "vehicle", (0, 0), (2, 0))
    assert route is not None and route.legal
    # The river is impassable to vehicles: down column 0, across the open bottom row, up.
    assert [s.end for s in route.steps] == [(0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0)]
    assert route.total == 6.0
    assert mod.cheapest_route(open_row, "vehicle", (0, 0), (2, 0), allowance=5) is None


def test_cheapest_route_on_the_square_board_crosses_at_the_ford(mod: ModuleType) -> None:
    route = mod.cheapest_route(square_board(mod), "vehicle", (0, 0), (2, 0))
    assert route is None  # the ford is on the way and a vehicle must stop there
    foot = mod.cheapest_route(square_board(mod), "foot", (0, 0), (2, 0))
    assert foot is not None
    assert [s.end for s in foot.steps] == [(1, 0), (2, 0)]
    assert foot.total == 3.5


def test_cheapest_route_to_a_marsh_is_none_for_a_vehicle(mod: ModuleType) -> None:
    assert mod.cheapest_route(square_board(mod), "vehicle", (2, 1), (1, 1)) is None
    foot = mod.cheapest_route(square_board(mod), "foot", (2, 1), (1, 1))
    assert foot is not None and foot.total == 2.0


def test_reachable_on_a_square_board_with_a_marsh_and_a_ford(mod: ModuleType) -> None:
    reach = mod.reachable(square_board(mod), "vehicle", (2, 0), 4)
    # (1, 1) the marsh: crossed but not an end; (1, 2) the ford: an end, never left.
    assert dict(reach) == {
        (2, 0): 0.0,
        (1, 0): 0.5,
        (2, 1): 1.0,
        (2, 2): 2.0,
        (1, 2): 3.0,
    }


def test_reachable_on_a_hex_board_with_a_marsh_and_a_ford(mod: ModuleType) -> None:
    reach = mod.reachable(hex_board(mod), "vehicle", (2, 0), 4)
    assert (1, 1) not in reach  # a marsh: the vehicle may pass but not end there
    assert reach[(1, 0)] == 0.5 and reach[(1, 2)] == 2.0
    assert (0, 2) not in reach  # beyond the ford, where the vehicle must stop


def test_reachable_allows_the_minimum_move(mod: ModuleType) -> None:
    reach = mod.reachable(square_board(mod), "foot", (0, 0), 1)
    assert reach[(1, 0)] == 3.0  # one step across the river, over the budget
    assert (2, 0) not in reach


# ---- the module agrees with the meaning in rulesdsl.semantics --------------------------------


def test_routes_and_reachable_sets_agree_with_the_reference(
    mod: ModuleType, compiled: ir.Ruleset
) -> None:
    rng = random.Random(11)
    names = ["clear", "marsh", "ford", "woods"]
    for _ in range(20):
        places = {(q, r): (rng.choice(names),) for q in range(5) for r in range(5)}
        edges = {}
        for q, r in places:
            for dq, dr in ((1, 0), (0, 1), (1, -1)):
                if (q + dq, r + dr) in places and rng.random() < 0.3:
                    edges[(q, r), (q + dq, r + dr)] = (rng.choice(["river", "road"]),)
        edges = both_ways(edges)
        board = mod.Board(places, edges, grid="hex")
        neighbours = {p: [n for n, _ in board.neighbours(p)] for p in places}
        for mode in ("foot", "vehicle"):
            start = (rng.randrange(5), rng.randrange(5))
            budget = rng.choice([2, 3.5, 6])
            expected = semantics_routes.reachable(
                compiled, mode, start, budget, places, neighbours, edges
            )
            assert dict(mod.reachable(board, mode, start, budget)) == expected
            walk = [start]
            for _ in range(4):
                walk.append(rng.choice(neighbours[walk[-1]]))
            got = mod.route_cost(board, mode, walk, allowance=budget)
            ref = semantics_routes.route(
                compiled,
                mode,
                [(places[b], edges.get((a, b), ())) for a, b in itertools.pairwise(walk)],
                budget,
            )
            total = ref.total if isinstance(ref.total, ir.Marker) else float(ref.total)
            assert (getattr(got.total, "value", got.total), got.legal) == (
                getattr(total, "marker", total),
                ref.legal,
            )


# ---- diagnostics -----------------------------------------------------------------------------

HEAD = """ruleset demo "Demo"
version 1.0.0
units distance hex, cost MP
mode foot "Foot"
"""


@pytest.mark.parametrize(
    ("code", "body", "line", "column"),
    [
        ("E240", 'layer t "T" one per place {\n  road "Road" | along 1/2\n}\n', 2, 23),
        ("E240", 'modifier m "M" {\n  a "A" | along 1\n}\n', 2, 17),
        ("E241", 'layer e "E" edges {\n  river "River" | +2 must stop\n}\n', 2, 22),
        ("E241", 'modifier m "M" {\n  a "A" | +1 may not end\n}\n', 2, 14),
        ("E242", 'layer e "E" edges {\n  road "Road" | along -1\n}\n', 2, 23),
        ("E243", 'grid h "H" : 1 hex, hex, diagonals 1\n', 1, 21),
        ("E244", 'layer e "E" one per place edges {\n  wall "Wall" | +1\n}\n', 1, 27),
        ("W240", 'layer t "T" {\n  pit "Pit" | impassable may not end\n}\n', 2, 26),
    ],
)
def test_misuse_is_reported_where_it_is_written(
    code: str, body: str, line: int, column: int, tmp_path: Path
) -> None:
    result = compile_snippet(Compiler(), HEAD + body, tmp_path)
    found = [(d.code, d.pos.line, d.pos.column) for d in result.diagnostics if d.code == code]
    assert found == [(code, HEAD.count("\n") + line, column)]


# ---- sheets, diff, convert -------------------------------------------------------------------

TRILINGUAL = """ruleset hexmap "Hex map" fr "Carte hex" ru "Гекс-карта"
version 1.0.0
languages en fr ru
units distance hex, cost MP
mode foot "Foot" fr "Pied" ru "Пехота"
mode vehicle "Vehicle" fr "Véhicule" ru "Техника"
layer terrain "Terrain" fr "Terrain" ru "Местность" one per place {
  clear "Clear" fr "Dégagé" ru "Открытая" | 1
  marsh "Marsh" fr "Marais" ru "Болото"   | 2, vehicle 3 may not end
  ford "Ford" fr "Gué" ru "Брод"          | 1 must stop
}
layer hexsides "Hexsides" fr "Bords d'hex" ru "Грани" edges {
  river "River" fr "Rivière" ru "Река" | +2, vehicle impassable
  road "Road" fr "Route" ru "Дорога"   | along 1/2
}
grid hexes "Hex" fr "Hex" ru "Гекс" : 1 hex = 1 km, hex
"""


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["3 · may not end here", "1 · must stop here", "along it: 0.5 instead", "edges"]),
        ("fr", ["3 · ne peut pas y finir", "1 · doit s\u2019y arrêter", "à la place", "bords"]),
        ("ru", ["3 · нельзя закончить здесь", "нужно остановиться здесь", "вдоль неё", "граница"]),
    ],
)
def test_sheets_print_place_states_and_edge_layers_in_every_language(
    lang: str, words: list[str], tmp_path: Path
) -> None:
    from rulesdsl.printed.sheets import render_sheet

    result = compile_snippet(Compiler(), TRILINGUAL, tmp_path)
    assert result.ruleset is not None
    text = render_sheet(result.ruleset, "md", lang).decode("utf-8")  # type: ignore[arg-type]
    text = text.replace("\u00a0", " ").replace("\u202f", " ")
    for word in words:
        assert word in text, (lang, word)


def test_every_new_sheet_word_is_in_all_three_catalogs() -> None:
    root = Path(__file__).resolve().parent.parent / "rulesdsl" / "i18n"
    keys = ["scope_edges", "state_may_not_end", "state_must_stop", "along_cost", "grid_hex"]
    for lang in ("en", "fr", "ru", "de"):
        catalog = (root / f"{lang}.po").read_text(encoding="utf-8")
        assert all(f'msgid "{k}"' in catalog for k in keys), lang


def _diff(old: str, new: str, tmp_path: Path) -> list[tuple[str, str, str]]:
    from rulesdsl.versions import diff

    a = compile_snippet(Compiler(), old, tmp_path, "a.terrain").ruleset
    b = compile_snippet(Compiler(), new, tmp_path, "b.terrain").ruleset
    assert a is not None and b is not None
    return [(c.level, c.path, c.message) for c in diff.diff(a, b).changes]


def test_a_changed_place_state_is_breaking(tmp_path: Path) -> None:
    changed = RULES.replace("| 1 must stop", "| 1 may not end")
    found = _diff(RULES, changed, tmp_path)
    assert ("breaking", "ford.foot", "Ford, Foot: place state must stop -> may not end") in found
    assert all(level == "breaking" for level, _, _ in found)


def test_a_changed_along_cost_is_breaking(tmp_path: Path) -> None:
    found = _diff(RULES, RULES.replace("along 1/2", "along 1/3"), tmp_path)
    assert ("breaking", "road.vehicle", "Road, Vehicle: along 0.5 -> 0.3333333333333333") in found


def test_a_changed_edge_cost_is_graded_like_a_place_cost(tmp_path: Path) -> None:
    found = _diff(
        RULES, RULES.replace("+2, vehicle impassable", "+3, vehicle impassable"), tmp_path
    )
    assert [level for level, path, _ in found if path.startswith("river")] == ["rules"]
    found = _diff(RULES, RULES.replace("+2, vehicle impassable", "+2"), tmp_path)
    assert [level for level, path, _ in found if path.startswith("river")] == ["breaking"]


def test_a_grid_that_changes_its_neighbourhood_is_breaking(tmp_path: Path) -> None:
    found = _diff(RULES, RULES.replace("1 hex = 1 km, hex", "1 hex = 1 km, square"), tmp_path)
    assert ("breaking", "hexes", "Hex: neighbourhood hex -> square") in found


def test_convert_round_trips_place_states_edges_and_grid_shapes(tmp_path: Path) -> None:
    from rulesdsl.commands.cli import main

    source = tmp_path / "hexmap.terrain"
    source.write_text(RULES, encoding="utf-8")
    yaml_path = tmp_path / "hexmap.yaml"
    back = tmp_path / "back" / "hexmap.terrain"
    back.parent.mkdir()
    assert main(["convert", str(source), "-o", str(yaml_path)]) == 0
    text = yaml_path.read_text(encoding="utf-8")
    assert "scope: edges" in text and "shape: hex" in text and "may not end" in text
    assert main(["convert", str(yaml_path), "-o", str(back)]) == 0
    first = compile_snippet(Compiler(), RULES, tmp_path, "x.terrain").ruleset
    again = Compiler().compile_file(yaml_path).ruleset
    assert first is not None and again is not None
    assert first.features == again.features and first.layers == again.layers
    assert first.grids == again.grids
    assert 'layer hexsides "Hexsides" edges {' in back.read_text(encoding="utf-8")


def test_a_variant_may_override_a_place_state(tmp_path: Path) -> None:
    (tmp_path / "hexmap.terrain").write_text(RULES, encoding="utf-8")
    variant = tmp_path / "hexmap_dry.terrain"
    variant.write_text(
        'ruleset hexmap_dry "Dry season"\nversion 1.0.0\nextends hexmap@^1.0\n'
        "override marsh.vehicle | 2\noverride ford.foot | 1 may not end\n",
        encoding="utf-8",
    )
    result = Compiler().compile_file(variant)
    assert [d for d in result.diagnostics if d.severity == "error"] == []
    assert result.ruleset is not None
    features = {f.id: f for f in result.ruleset.features}
    assert features["marsh"].states == {}
    assert features["ford"].states == {"foot": "may_not_end", "vehicle": "must_stop"}


def test_misuse_in_a_yaml_ruleset_is_reported_where_it_is_written(tmp_path: Path) -> None:
    yaml_text = (
        "ruleset: demo\nlabel: Demo\nversion: 1.0.0\nunits: {distance: hex, cost: MP}\n"
        "modes:\n  foot: Foot\nlayers:\n  terrain:\n    label: Terrain\n"
        "    scope: one per place\n    rows:\n      road: {label: Road, cells: along 1/2}\n"
    )
    path = tmp_path / "demo.yaml"
    path.write_text(yaml_text, encoding="utf-8")
    result = Compiler().compile_file(path)
    found = [(d.code, d.pos.line, d.pos.column) for d in result.diagnostics if d.code == "E240"]
    line = yaml_text.splitlines()[11]
    assert found == [("E240", 12, line.index("1/2") + 1)]


# ---- costs paid once per crossing on an edge (maps x costs) ---------------------------------

WALLED = """ruleset walled "Walled fields"
version 1.0.0
units distance hex, cost MP
mode foot "Foot"
mode horse "Horse"
layer terrain "Terrain" one per place {
  clear "Clear"  | 1
  bog "Bog"      | share 1/2
}
layer hexsides "Hexsides" edges {
  wall "Wall"    | flat 1 MP, horse flat 2 MP
  hedge "Hedge"  | share 1/2
}
grid squares "Square" : 1 hex, square
"""


def test_a_walls_flat_cost_is_paid_on_each_crossing_and_a_hedge_takes_its_share(
    tmp_path: Path,
) -> None:
    result = compile_snippet(Compiler(), WALLED)
    assert [d for d in result.diagnostics if d.severity == "error"] == []
    rs = result.ruleset
    assert rs is not None
    module = import_rendered(rs, tmp_path, "walled_rules")
    places = {(x, 0): ("clear",) for x in range(4)}
    places[(3, 0)] = ("bog",)
    edges = both_ways({((0, 0), (1, 0)): ("wall",), ((1, 0), (2, 0)): ("hedge",)})
    board = module.Board(places, edges, grid="squares")
    route = [(0, 0), (1, 0), (2, 0), (3, 0)]
    foot = module.route_cost(board, "foot", route, allowance=6)
    # clear + wall 1, clear + hedge 6/2, the bog's half of 6
    assert [s.cost for s in foot.steps] == [2, 4, 3]
    horse = module.route_cost(board, "horse", route[:2])
    assert horse.total == 3
    for mode in ("foot", "horse"):
        reference = semantics_routes.route(
            rs, mode, [(places[b], edges.get((a, b), ())) for a, b in itertools.pairwise(route)], 6
        )
        assert module.route_cost(board, mode, route, allowance=6).total == reference.total
    with pytest.raises(module.InvalidArgument, match="allowance"):
        module.route_cost(board, "foot", route)


def test_a_hex_grid_refuses_a_diagonal_step_of_path_cost(mod: ModuleType) -> None:
    # the fuzz run's module driver found `path_cost("sd")` dividing by zero on a hex grid
    assert mod.GRID_DIAGONALS == ()
    with pytest.raises(mod.InvalidArgument, match="no diagonals"):
        mod.path_cost("sd")
    assert mod.path_cost("ss") == 2


def test_an_along_fraction_over_zero_is_e212_not_a_crash() -> None:
    # found by the long fuzz run: `along 1/0` raised ZeroDivisionError in the parser
    result = compile_snippet(Compiler(), RULES.replace("along 1/2", "along 1/0"))
    errors = [(d.code, d.pos.line, d.pos.column) for d in result.diagnostics if d.is_error]
    assert errors == [("E212", RULES.splitlines().index('  road "Road"    | along 1/2') + 1, 26)]
