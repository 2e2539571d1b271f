"""Facing (issue 24, item 1): a unit type's heading on hex and square grids, its turns, turn
modes by speed, backward moves, sideslips, pivots and `exact speed`, as the generated module
answers them (route_cost, cheapest_route, reachable), and the diagnostics for misuse."""

from __future__ import annotations

import heapq
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesdsl.compiler import Compiler
from tests.conftest import compile_snippet, import_rendered

HEADER = """ruleset demo "Demo"
version 1.0.0
units distance in, cost MP
mode ship "Ship"
mode walker "Walker"
grid hexes "Hex" : 1 hex, hex
grid squares "Square" : 1 in, square
grid eights "Square, diagonals" : 1 in, square, diagonals 1, 2
layer terrain "Terrain" {
  clear "Clear" | 1
  nebula "Nebula" | 2
  rock "Rock" | impassable
  port "Port" | 1 must stop
}
"""
HEADER_LINES = HEADER.count("\n")

SHIP = (
    "facing ship on hexes : turn 1 MP per hexside, turn mode 1 at speed 3 or less, "
    "turn mode 2, backward +1 MP, sideslip +1 MP once per move, "
    "pivot +1 MP at speed 2 or less once per move\n"
)


def _module(tmp_path: Path, facing: str, name: str) -> ModuleType:
    compiled = compile_snippet(Compiler(), HEADER + facing, tmp_path)
    assert compiled.ok, [str(d) for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    return import_rendered(compiled.ruleset, tmp_path, name)


@pytest.fixture(scope="module")
def ships(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return _module(tmp_path_factory.mktemp("facing"), SHIP, "facing_ships")


def _board(module: ModuleType, size: int = 6, **special: str) -> Any:
    places = {(q, r): ("clear",) for q in range(size) for r in range(size)}
    for key, feature in special.items():
        q, r = (int(n) for n in key[1:].split("_"))
        places[q, r] = (feature,)
    return module.Board(places, grid="hexes")


# ---- route_cost ------------------------------------------------------------------------------


def test_a_turn_after_the_turn_mode_is_legal_and_costs_its_hexside(ships: ModuleType) -> None:
    route = [((0, 0), 0), ((1, 0), 0), ((2, 0), 0), ((2, 0), 5), ((2, 1), 5)]
    answer = ships.route_cost(_board(ships), "ship", route, 4)
    assert (answer.total, answer.legal, answer.heading, answer.turn_mode) == (4.0, True, 5, 2)
    assert [s.move for s in answer.steps] == ["forward", "forward", "turn", "forward"]
    assert [s.straight for s in answer.steps] == [1, 2, 0, 1]


def test_a_turn_before_the_turn_mode_is_illegal_and_says_why(ships: ModuleType) -> None:
    route = [((0, 0), 0), ((1, 0), 0), ((1, 0), 5), ((1, 1), 5)]
    answer = ships.route_cost(_board(ships), "ship", route, 4)
    assert not answer.legal
    assert answer.reason == "step 2 turns after 1 place straight (turn mode 2 at speed 4)"


def test_the_turn_mode_depends_on_speed(ships: ModuleType) -> None:
    route = [((0, 0), 0), ((1, 0), 0), ((1, 0), 5), ((1, 1), 5)]
    answer = ships.route_cost(_board(ships), "ship", route, 3)
    assert (answer.legal, answer.turn_mode, answer.total) == (True, 1, 3.0)


def test_a_pivot_turns_before_the_turn_mode_at_low_speed_once_per_move(ships: ModuleType) -> None:
    route = [((0, 0), 0), ((0, 0), 5), ((0, 1), 5)]
    answer = ships.route_cost(_board(ships), "ship", route, 2)
    assert [s.move for s in answer.steps] == ["pivot", "forward"]
    assert (answer.total, answer.legal) == (3.0, False)  # 1 + 1 for the pivot, 1 to move: > 2
    again = [((0, 0), 0), ((0, 0), 5), ((0, 0), 4)]
    twice = ships.route_cost(_board(ships), "ship", again)
    assert not twice.legal and "turns after 0 places" in twice.reason


def test_backward_and_sideslip_keep_the_heading_and_cost_extra(ships: ModuleType) -> None:
    route = [((2, 2), 0), ((1, 2), 0), ((1, 3), 0)]  # back, then aside (heading 0's right)
    answer = ships.route_cost(_board(ships), "ship", route, 9)
    assert [(s.move, s.cost, s.heading) for s in answer.steps] == [
        ("backward", 2.0, 0),
        ("sideslip", 2.0, 0),
    ]
    assert answer.legal


def test_a_sideslip_once_per_move_is_refused_the_second_time(ships: ModuleType) -> None:
    route = [((2, 2), 0), ((2, 3), 0), ((2, 4), 0)]
    answer = ships.route_cost(_board(ships), "ship", route, 9)
    assert answer.reason == "step 2 sideslips, not allowed at speed 9"


def test_a_move_into_a_place_no_move_reaches_is_illegal(ships: ModuleType) -> None:
    route = [((2, 2), 0), ((2, 1), 0)]  # heading 0's left behind: not a sideslip
    answer = ships.route_cost(_board(ships), "ship", route, 9)
    assert answer.reason == "step 1 moves where its heading does not let it"


def test_a_unit_without_facing_keeps_the_plain_route_api(ships: ModuleType) -> None:
    answer = ships.route_cost(_board(ships), "walker", [(0, 0), (1, 0)])
    assert isinstance(answer, ships.Route) and answer.total == 1.0


def test_a_heading_out_of_range_is_an_invalid_argument(ships: ModuleType) -> None:
    with pytest.raises(ships.InvalidArgument, match="heading"):
        ships.route_cost(_board(ships), "ship", [((0, 0), 6)])


def test_places_without_headings_for_a_unit_with_facing_say_so(ships: ModuleType) -> None:
    with pytest.raises(ships.ArgumentTypeError, match="the unit has facing"):
        ships.route_cost(_board(ships), "ship", [(0, 0), (1, 0)])
    with pytest.raises(ships.InvalidArgument, match="hex grid board"):
        ships.reachable(ships.Board({(0, 0): ("clear",)}, grid="squares"), "ship", ((0, 0), 0), 1)


# ---- search -----------------------------------------------------------------------------------


def test_cheapest_route_returns_the_legal_route_with_its_end_heading(ships: ModuleType) -> None:
    answer = ships.cheapest_route(_board(ships), "ship", ((0, 0), 0), ((2, 2), 5), 9)
    assert answer is not None and answer.legal
    assert answer.heading == 5
    states = [((0, 0), 0)] + [(s.end, s.heading) for s in answer.steps]
    assert ships.route_cost(_board(ships), "ship", states, 9) == answer


def test_reachable_gives_each_end_state_with_its_heading(ships: ModuleType) -> None:
    found = ships.reachable(_board(ships), "ship", ((0, 0), 0), 2)
    assert found[(0, 0), 0] == 0.0
    assert found[(2, 0), 0] == 2.0
    assert found[(1, 0), 5] == 2.0  # at speed 2 the turn mode is 1: one place, then a turn
    assert found[(0, 0), 1] == 2.0  # a pivot: the hexside and 1 more


def _hand_dijkstra(module: ModuleType, board: Any, start: Any, budget: float) -> dict[Any, float]:
    """A plain Dijkstra over (place, heading, places straight, moves used), written out."""
    rule = module.FACINGS["ship"]
    steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    turn_mode = 2 if budget > 3 else 1
    best: dict[Any, float] = {}
    heap = [(0.0, (start[0], start[1], 0, 0))]
    seen: dict[Any, float] = {heap[0][1]: 0.0}
    while heap:
        cost, (place, h, straight, used) = heapq.heappop(heap)
        if cost > seen.get((place, h, straight, used), float("inf")):
            continue
        best[place, h] = min(best.get((place, h), float("inf")), cost)
        nexts = []
        moves = [(h, 0.0, used)]
        if cost <= budget:
            moves.append(((h + 3) % 6, 1.0, used))
            if not used & 2:
                moves += [((h + 1) % 6, 1.0, used | 2), ((h + 5) % 6, 1.0, used | 2)]
        for d, extra, u in moves:
            there = (place[0] + steps[d][0], place[1] + steps[d][1])
            if there in board.places:
                nexts.append((cost + 1 + extra, (there, h, min(straight + 1, turn_mode), u)))
        if straight >= turn_mode:
            nexts += [(cost + rule.turn_cost, (place, (h + t) % 6, 0, used)) for t in (1, 5)]
        elif budget <= 2 and not used & 4:
            nexts += [(cost + 2.0, (place, (h + t) % 6, 0, used | 4)) for t in (1, 5)]
        for total, state in nexts:
            if total <= budget and total < seen.get(state, float("inf")):
                seen[state] = total
                heapq.heappush(heap, (total, state))
    return best


@pytest.mark.parametrize("budget", [2, 3, 5])
def test_reachable_agrees_with_a_hand_written_dijkstra(ships: ModuleType, budget: int) -> None:
    board = _board(ships)
    found = dict(ships.reachable(board, "ship", ((2, 2), 0), budget))
    assert found == _hand_dijkstra(ships, board, ((2, 2), 0), budget)


def test_exact_speed_keeps_only_routes_that_spend_it_all(tmp_path: Path) -> None:
    module = _module(
        tmp_path, "facing ship on hexes : turn 1 MP per hexside, exact speed\n", "facing_exact"
    )
    board = _board(module)
    found = module.reachable(board, "ship", ((0, 0), 0), 2)
    assert set(found.values()) == {2.0}
    assert ((2, 0), 0) in found and ((1, 0), 0) not in found
    short = module.route_cost(board, "ship", [((0, 0), 0), ((1, 0), 0)], 2)
    assert short.reason == "the route spends 1 of a speed of 2, not all of it"
    with pytest.raises(module.InvalidArgument, match="allowance"):
        module.route_cost(board, "ship", [((0, 0), 0), ((1, 0), 0)])


def test_a_square_grid_turns_per_90_deg(tmp_path: Path) -> None:
    module = _module(tmp_path, "facing ship on squares : turn 2 MP per 90 deg\n", "facing_squares")
    board = module.Board({(x, y): ("clear",) for x in range(3) for y in range(3)}, grid="squares")
    route = [((0, 0), 0), ((1, 0), 0), ((1, 0), 3), ((1, 1), 3)]
    answer = module.route_cost(board, "ship", route)
    assert (answer.total, answer.legal) == (4.0, True)


# ---- diagnostics ------------------------------------------------------------------------------

BAD: list[tuple[str, str, int, int]] = [
    ("E280", "facing tank on hexes : turn 1 MP per hexside\n", 1, 8),
    ("E281", "facing ship on hexagons : turn 1 MP per hexside\n", 1, 16),
    ("E283", "facing ship on squares : turn 1 MP per hexside\n", 1, 40),
    ("E283", "facing ship on eights : turn 1 MP per 90 deg\n", 1, 39),
    ("E284", "facing ship on hexes : turn 1 MP per hexside, backward, backward\n", 1, 57),
    (
        "E285",
        "facing ship on hexes : turn 1 MP per hexside, turn mode 1 at speed 3 or less\n",
        1,
        47,
    ),
    ("E285", "facing ship on hexes : turn 1 MP per hexside, turn mode 2, turn mode 1\n", 1, 47),
    ("E286", "facing ship on hexes : backward\n", 1, 1),
    ("E287", "facing ship on hexes : turn 1 MP per hexside, backward -1 MP\n", 1, 56),
    (
        "E288",
        "facing ship on hexes : turn 1 MP per hexside\n"
        "facing ship on hexes : turn 2 MP per hexside\n",
        2,
        8,
    ),
]


@pytest.mark.parametrize(("code", "text", "line", "column"), BAD)
def test_each_misuse_of_facing_gets_its_code_at_its_place(
    code: str, text: str, line: int, column: int
) -> None:
    compiled = compile_snippet(Compiler(), HEADER + text)
    found = [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.pos]
    assert found == [(code, HEADER_LINES + line, column)]


def test_a_grid_with_no_shape_is_e282_through_the_yaml_front_end(tmp_path: Path) -> None:
    """The DSL's grids always have a shape (`, hex`, `, square` or diagonals); a YAML grid
    may give only its size."""
    path = tmp_path / "plain.yaml"
    path.write_text(
        "ruleset: plain\nversion: 1.0.0\nunits: {cost: MP}\nmodes: {ship: Ship}\n"
        "grids:\n  plain: {size: [1 in]}\n"
        "facing:\n  ship:\n    on: plain\n    rules: [turn 1 MP per 90 deg]\n",
        "utf-8",
    )
    found = [(d.code, d.pos and d.pos.line) for d in Compiler().compile_file(path).diagnostics]
    assert found == [("E282", 9)]


def test_a_facing_rule_round_trips_through_yaml(tmp_path: Path) -> None:
    from rulesdsl.frontends.dsl import Parser
    from rulesdsl.interchange.convert import to_yaml

    source, _ = Parser().parse(HEADER + SHIP, "demo.terrain")
    assert source is not None
    path = tmp_path / "demo.yaml"
    path.write_text(to_yaml(source), "utf-8")
    compiled = Compiler().compile_file(path)
    direct = compile_snippet(Compiler(), HEADER + SHIP)
    assert compiled.ruleset is not None and direct.ruleset is not None
    assert compiled.ruleset.facings == direct.ruleset.facings


def test_a_pivot_with_turn_mode_0_is_w280() -> None:
    compiled = compile_snippet(
        Compiler(), HEADER + "facing ship on hexes : turn 1 MP per hexside, pivot\n"
    )
    assert compiled.ok
    found = [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.pos]
    assert found == [("W280", HEADER_LINES + 1, 47)]


def test_a_house_rule_replaces_or_removes_a_facing_rule(tmp_path: Path) -> None:
    (tmp_path / "demo.terrain").write_text(HEADER + SHIP, "utf-8")
    variant = HEADER.replace('ruleset demo "Demo"', 'ruleset house "House"').split("mode ship")[0]
    text = variant + "extends demo@^1.0\nfacing ship on hexes : turn 2 MP per hexside\n"
    compiled = Compiler().compile_text(text, str(tmp_path / "house.terrain"), tmp_path)
    assert compiled.ok, [str(d) for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    [rule] = compiled.ruleset.facings
    assert rule.turn_cost == 2.0 and rule.manoeuvres == ()
    gone = variant + "extends demo@^1.0\nremove facing ship\n"
    removed = Compiler().compile_text(gone, str(tmp_path / "house.terrain"), tmp_path)
    assert removed.ruleset is not None and removed.ruleset.facings == ()
    wrong = variant + "extends demo@^1.0\nremove facing walker\n"
    bad = Compiler().compile_text(wrong, str(tmp_path / "house.terrain"), tmp_path)
    assert [(d.code, d.pos and d.pos.column) for d in bad.diagnostics] == [("E289", 15)]


# ---- rulesdsl diff -------------------------------------------------------------------------------


def _diff(old: str, new: str) -> list[tuple[str, str, str]]:
    from rulesdsl.versions import diff as semantic

    compiler = Compiler()
    a = compile_snippet(compiler, HEADER + old).ruleset
    b = compile_snippet(compiler, HEADER + new).ruleset
    assert a is not None and b is not None
    return [(c.level, c.action, c.path) for c in semantic.diff(a, b).changes]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "turn 1 MP per hexside",
            "turn 2 MP per hexside",
            ("breaking", "changed", "facing.ship.turn"),
        ),
        (
            "turn 1 MP per hexside",
            "turn 0 MP per hexside",
            ("rules", "changed", "facing.ship.turn"),
        ),
        ("turn mode 2", "turn mode 3", ("breaking", "changed", "facing.ship.turn_mode")),
        ("turn mode 2", "turn mode 1", ("rules", "changed", "facing.ship.turn_mode")),
        ("backward +1 MP", "backward +2 MP", ("breaking", "changed", "facing.ship.backward")),
        ("backward +1 MP", "backward", ("rules", "changed", "facing.ship.backward")),
        (", backward +1 MP", "", ("breaking", "changed", "facing.ship.backward")),
        (
            "sideslip +1 MP once per move",
            "sideslip +1 MP",
            ("rules", "changed", "facing.ship.sideslip"),
        ),
        (
            "once per move\n",
            "once per move, exact speed\n",
            ("breaking", "changed", "facing.ship.exact_speed"),
        ),
    ],
)
def test_diff_grades_a_facing_change_by_whether_a_legal_route_may_become_illegal(
    old: str, new: str, expected: tuple[str, str, str]
) -> None:
    assert SHIP.count(old) == 1
    assert _diff(SHIP, SHIP.replace(old, new)) == [expected]


def test_diff_calls_a_facing_rule_added_or_removed_breaking() -> None:
    assert _diff("", SHIP) == [("breaking", "added", "facing.ship")]
    assert _diff(SHIP, "") == [("breaking", "removed", "facing.ship")]


# ---- sheets ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "title", "words"),
    [
        ("en", "## Facing", "A turn costs 1 MP per hexside."),
        ("fr", "## Orientation", "Un virage coûte 1 PM par côté d\u2019hexagone."),
        ("ru", "## Направление", "Поворот стоит 1 ОД за грань."),
        ("de", "## Ausrichtung", "Eine Drehung kostet 1 BP je Hexseite."),
    ],
)
def test_sheets_print_facing_rules_in_words_and_turn_modes_as_a_table(
    lang: str, title: str, words: str
) -> None:
    from rulesdsl.printed.sheets import render_sheet

    ruleset = compile_snippet(Compiler(), HEADER + SHIP).ruleset
    assert ruleset is not None
    text = render_sheet(ruleset, "md", lang).decode("utf-8").replace("\u00a0", " ")
    section = text[text.index(title) :]
    assert words in section.replace("\u202f", " ")
    assert section.count("\n| ") >= 3  # the speed table: a head and two rows


# ---- worked examples ---------------------------------------------------------------------------


def test_a_worked_example_states_a_facing_routes_cost_and_is_checked() -> None:
    good = (
        'example turning "Turning" {\n'
        "  route_cost(ship, (clear), (clear), (clear), turn, (nebula), allowance=5 MP) = 5 MP\n"
        "  route_cost(ship, (clear), (clear), turn, (clear), allowance=5 MP) = 3 MP, illegal\n"
        "  route_cost(ship, (clear), backward, (clear), sideslip, (clear), allowance=9 MP)"
        " = 4 MP\n"
        "}\n"
    )
    assert compile_snippet(Compiler(), HEADER + SHIP + good).ok
    wrong = good.replace("= 5 MP\n", "= 4 MP\n")
    found = compile_snippet(Compiler(), HEADER + SHIP + wrong).diagnostics
    assert [(d.code, d.pos and d.pos.line, d.pos and d.pos.column) for d in found] == [
        ("E270", HEADER_LINES + 3, 3)
    ]


def test_a_facing_routes_words_are_checked() -> None:
    text = 'example e "E" {\n  route_cost(ship, (clear), spin, (clear)) = 1 MP\n}\n'
    found = compile_snippet(Compiler(), HEADER + SHIP + text).diagnostics
    assert [d.code for d in found] == ["E272"]


def test_the_module_and_the_reference_semantics_agree_on_random_moves(ships: ModuleType) -> None:
    """rulesdsl.semantics.facing (what worked examples and sheets use) and the generated
    module's route_cost give the same total, legality and reason for random moves."""
    import random

    from rulesdsl.semantics import facing as semantics_facing

    ruleset = compile_snippet(Compiler(), HEADER + SHIP).ruleset
    assert ruleset is not None
    rng = random.Random(24)
    kinds = ("clear", "nebula", "port")
    steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    for _ in range(300):
        place, heading = (0, 0), 0
        places = {place: ("clear",)}
        route = [(place, heading)]
        actions = []
        for _ in range(rng.randint(1, 6)):
            what = rng.choice(("forward", "forward", "backward", "sideslip", "turn"))
            if what == "turn":
                heading = (heading + 1) % 6
                route.append((place, heading))
                actions.append(semantics_facing.Action("turn"))
                continue
            side = {"forward": 0, "backward": 3, "sideslip": 1}[what]
            dq, dr = steps[(heading + side) % 6]
            there = (place[0] + dq, place[1] + dr)
            if there in places:
                break
            places[there] = (rng.choice(kinds),)
            actions.append(semantics_facing.Action(what, places[there]))  # type: ignore[arg-type]
            place = there
            route.append((place, heading))
        if not actions:
            continue
        allowance = rng.choice((None, 2.0, 3.0, 5.0, 9.0))
        board = ships.Board(places, grid="hexes")
        got = ships.route_cost(board, "ship", route, allowance)
        want = semantics_facing.route(ruleset, "ship", actions, allowance)
        assert (got.total, got.legal, got.reason) == (want.total, want.legal, want.reason), route


def test_a_square_grid_with_diagonals_has_eight_headings_and_turns_per_45_deg(
    tmp_path: Path,
) -> None:
    module = _module(tmp_path, "facing ship on eights : turn 1 MP per 45 deg\n", "facing_eights")
    board = module.Board({(x, y): ("clear",) for x in range(3) for y in range(3)}, grid="eights")
    route = [((0, 2), 0), ((0, 2), 1), ((1, 1), 1)]  # turn 45 deg, then a diagonal step
    answer = module.route_cost(board, "ship", route)
    assert (answer.total, answer.legal) == (2.5, True)  # 1 + a diagonal's 1.5 cells
    found = module.reachable(board, "ship", ((0, 2), 0), 2.5)
    assert found[(1, 1), 1] == 2.5 and found[(2, 2), 0] == 2.0


def test_a_yaml_house_rule_removes_a_facing_rule(tmp_path: Path) -> None:
    (tmp_path / "demo.terrain").write_text(HEADER + SHIP, "utf-8")
    path = tmp_path / "house.yaml"
    path.write_text(
        "ruleset: house\nversion: 1.0.0\nextends: demo@^1.0\nremoves: [facing.ship]\n", "utf-8"
    )
    compiled = Compiler().compile_file(path)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert compiled.ruleset.facings == ()


# ---- facing combined with kinds of move --------------------------------------------------------

KINDS = HEADER.replace(
    "layer terrain",
    'move cruise "Cruise" : allowance times 1\n'
    'move flank "Flank" : allowance times 2, not port\n'
    "layer terrain",
).replace('nebula "Nebula" | 2', 'nebula "Nebula" | 2, flank 3')
KIND_SHIP = (
    "facing ship on hexes : turn 1 MP per hexside, turn mode 1 at speed 3 or less, "
    "turn mode 2, turn mode 3 at flank, backward +1 MP, sideslip +1 MP once per move, "
    "pivot +1 MP at speed 2 or less once per move\n"
)


@pytest.fixture(scope="module")
def kinds(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    folder = tmp_path_factory.mktemp("facing_kinds")
    compiled = compile_snippet(Compiler(), KINDS + KIND_SHIP, folder)
    assert compiled.ok, [str(d) for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    return import_rendered(compiled.ruleset, folder, "facing_kinds")


def test_a_facing_unit_moves_by_a_kind_its_speed_scaled_and_its_costs_used(
    kinds: ModuleType,
) -> None:
    board = _board(kinds, n1_0="nebula")
    route = [((0, 0), 0), ((1, 0), 0), ((2, 0), 0)]
    walk = kinds.route_cost(board, "ship", route, 2)
    assert (walk.total, walk.legal, walk.speed, walk.move) == (3.0, False, 2.0, "")
    cruise = kinds.route_cost(board, "ship", route, 3, move="cruise")
    assert (cruise.total, cruise.legal, cruise.speed, cruise.move) == (3.0, True, 3.0, "cruise")
    flank = kinds.route_cost(board, "ship", route, 2, move="flank")  # speed 4, nebula 3
    assert (flank.total, flank.legal, flank.speed, flank.move) == (4.0, True, 4.0, "flank")


def test_a_turn_mode_row_at_a_kind_wins_over_the_rows_by_speed(kinds: ModuleType) -> None:
    board = _board(kinds)
    route = [((0, 0), 0), ((1, 0), 0), ((2, 0), 0), ((2, 0), 5), ((2, 1), 5)]
    cruise = kinds.route_cost(board, "ship", route, 4, move="cruise")
    assert (cruise.legal, cruise.turn_mode) == (True, 2)  # by speed 4
    flank = kinds.route_cost(board, "ship", route, 2, move="flank")  # speed 4, but flank: 3
    assert flank.turn_mode == 3
    assert flank.reason == "step 3 turns after 2 places straight (turn mode 3 at speed 4)"


def test_a_kinds_barred_feature_prohibits_a_facing_step(kinds: ModuleType) -> None:
    board = _board(kinds, n1_0="port")
    answer = kinds.route_cost(board, "ship", [((0, 0), 0), ((1, 0), 0)], 3, move="flank")
    assert answer.total is kinds.PROHIBITED and answer.reason == "step 1 is prohibited"
    assert kinds.route_cost(board, "ship", [((0, 0), 0), ((1, 0), 0)], 3).legal


def test_cheapest_route_and_reachable_with_facing_take_the_kind(kinds: ModuleType) -> None:
    board = _board(kinds, n1_0="port")
    best = kinds.cheapest_route(board, "ship", ((0, 0), 0), (2, 1), 2, move="flank")
    assert best is not None and best.move == "flank" and best.legal
    assert (1, 0) not in [s.end for s in best.steps]  # the port is barred to a flank move
    found = kinds.reachable(board, "ship", ((0, 0), 0), 2, move="flank")
    assert (found.move, found.budget, found.speed, found.turn_mode) == ("flank", 4.0, 4.0, 3)
    assert ((1, 0), 0) not in found and ((3, 0), 0) not in found  # behind the port
    plain = kinds.reachable(board, "ship", ((0, 0), 0), 2)
    assert (plain.move, plain.budget, plain.speed, plain.turn_mode) == ("", 2.0, 2.0, 1)
    for (place, heading), cost in found.items():
        route = kinds.cheapest_route(board, "ship", ((0, 0), 0), (place, heading), 2, "flank")
        assert route is not None and route.total == cost and route.legal, (place, heading)


def test_a_plain_reachable_says_its_kind_and_budget(kinds: ModuleType) -> None:
    found = kinds.reachable(_board(kinds), "walker", (0, 0), 1, move="flank")
    assert (found.move, found.budget, found.speed, found.turn_mode) == ("flank", 2.0, None, None)
    assert dict(found) == {
        (0, 0): 0.0,
        (1, 0): 1.0,
        (0, 1): 1.0,
        (2, 0): 2.0,
        (1, 1): 2.0,
        (0, 2): 2.0,
    }


def test_the_module_and_the_reference_agree_on_random_moves_of_each_kind(
    kinds: ModuleType,
) -> None:
    """semantics_facing.route with ``move`` and the module's route_cost with ``move=`` give
    the same total, legality, reason and turn mode for random moves of every kind."""
    import random

    from rulesdsl.semantics import facing as semantics_facing

    ruleset = compile_snippet(Compiler(), KINDS + KIND_SHIP).ruleset
    assert ruleset is not None
    rng = random.Random(2424)
    steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    for _ in range(400):
        place, heading = (0, 0), 0
        places = {place: ("clear",)}
        route = [(place, heading)]
        actions = []
        for _ in range(rng.randint(1, 7)):
            what = rng.choice(("forward", "forward", "forward", "backward", "sideslip", "turn"))
            if what == "turn":
                heading = (heading + rng.choice((1, 5))) % 6
                route.append((place, heading))
                actions.append(semantics_facing.Action("turn"))
                continue
            side = {"forward": 0, "backward": 3, "sideslip": rng.choice((1, 5))}[what]
            dq, dr = steps[(heading + side) % 6]
            there = (place[0] + dq, place[1] + dr)
            if there in places:
                break
            places[there] = (rng.choice(("clear", "nebula", "port", "nebula")),)
            actions.append(semantics_facing.Action(what, places[there]))  # type: ignore[arg-type]
            place = there
            route.append((place, heading))
        if not actions:
            continue
        allowance = rng.choice((None, 1.0, 2.0, 3.0, 5.0))
        move = rng.choice((None, "cruise", "flank"))
        board = kinds.Board(places, grid="hexes")
        got = kinds.route_cost(board, "ship", route, allowance, move=move)
        want = semantics_facing.route(ruleset, "ship", actions, allowance, move)
        total = got.total.value if isinstance(got.total, kinds.Marker) else got.total
        assert (total, got.legal, got.reason, got.turn_mode) == (
            getattr(want.total, "marker", want.total),
            want.legal,
            want.reason,
            want.turn_mode,
        ), (route, move)


@pytest.mark.parametrize(
    ("text", "code", "column"),
    [
        ("turn mode 3 at flnak", "E340", 107),
        ("turn mode 3 at flank, turn mode 1 at flank", "E341", 129),
    ],
)
def test_a_turn_mode_at_a_kind_is_checked_where_written(text: str, code: str, column: int) -> None:
    line = KIND_SHIP.replace("turn mode 3 at flank", text)
    compiled = compile_snippet(Compiler(), KINDS + line)
    found = [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.pos]
    assert found == [(code, KINDS.count("\n") + 1, column)]


def test_a_turn_mode_at_a_kind_round_trips_through_yaml(tmp_path: Path) -> None:
    from rulesdsl.frontends.dsl import Parser
    from rulesdsl.interchange.convert import to_yaml

    source, _ = Parser().parse(KINDS + KIND_SHIP, "demo.terrain")
    assert source is not None
    path = tmp_path / "demo.yaml"
    text = to_yaml(source)
    assert "turn mode 3 at flank" in text
    path.write_text(text, "utf-8")
    compiled = Compiler().compile_file(path)
    direct = compile_snippet(Compiler(), KINDS + KIND_SHIP)
    assert compiled.ruleset is not None and direct.ruleset is not None
    assert compiled.ruleset.facings == direct.ruleset.facings


def test_diff_grades_a_turn_mode_at_a_kind_by_whether_it_grows() -> None:
    from rulesdsl.versions import diff as semantic

    compiler = Compiler()

    def graded(old: str, new: str) -> list[tuple[str, str, str]]:
        a = compile_snippet(compiler, KINDS + old).ruleset
        b = compile_snippet(compiler, KINDS + new).ruleset
        assert a is not None and b is not None
        return [(c.level, c.action, c.path) for c in semantic.diff(a, b).changes]

    longer = KIND_SHIP.replace("turn mode 3 at flank", "turn mode 4 at flank")
    assert graded(KIND_SHIP, longer) == [("breaking", "changed", "facing.ship.turn_mode")]
    assert graded(longer, KIND_SHIP) == [("rules", "changed", "facing.ship.turn_mode")]
    gone = KIND_SHIP.replace(", turn mode 3 at flank", "")
    assert graded(KIND_SHIP, gone) == [("rules", "changed", "facing.ship.turn_mode")]
    assert graded(gone, KIND_SHIP) == [("breaking", "changed", "facing.ship.turn_mode")]
    a = compile_snippet(compiler, HEADER + gone.replace(", turn mode 3 at flank", "")).ruleset
    b = compile_snippet(compiler, KINDS + KIND_SHIP).ruleset  # the kind and its row, new
    assert a is not None and b is not None
    found = [(c.level, c.path) for c in semantic.diff(a, b).changes]
    assert ("rules", "facing.ship.turn_mode") in found


@pytest.mark.parametrize(
    ("lang", "row"),
    [
        ("en", "| Flank, at any speed | 3 |"),
        ("fr", "| Flank, à toute vitesse | 3 |"),
        ("ru", "| Flank, при любой скорости | 3 |"),
        ("de", "| Flank, bei jeder Geschwindigkeit | 3 |"),
    ],
)
def test_sheets_print_a_turn_mode_at_a_kind_as_its_own_row(lang: str, row: str) -> None:
    from rulesdsl.printed.sheets import render_sheet

    ruleset = compile_snippet(Compiler(), KINDS + KIND_SHIP).ruleset
    assert ruleset is not None
    text = render_sheet(ruleset, "md", lang).decode("utf-8").replace("\u00a0", " ")
    assert row in text


def test_a_worked_example_states_a_facing_route_made_by_a_kind() -> None:
    good = (
        'example flanking "Flanking" {\n'
        "  route_cost(ship, (clear), (nebula), (clear), allowance=2 MP, move=flank) = 4 MP\n"
        "  route_cost(ship, (clear), (clear), turn, (clear), allowance=2 MP, move=flank)"
        " = 3 MP, illegal\n"
        "}\n"
    )
    compiled = compile_snippet(Compiler(), KINDS + KIND_SHIP + good)
    assert compiled.ok, [str(d) for d in compiled.diagnostics]
    wrong = good.replace("= 4 MP\n", "= 5 MP\n")
    found = compile_snippet(Compiler(), KINDS + KIND_SHIP + wrong).diagnostics
    assert [(d.code, d.pos and d.pos.line) for d in found] == [("E270", KINDS.count("\n") + 3)]


def test_a_facing_route_lists_its_rolls_and_first_entering_counts_the_game(
    tmp_path: Path,
) -> None:
    text = HEADER.replace(
        "layer terrain",
        'roll spot "Spotted" : 1d6 on first entering\nroll drift "Drift" : 2d6 on entering\n'
        "layer terrain",
    ).replace('nebula "Nebula" | 2', 'columns cost, spot, drift\n  nebula "Nebula" | 2 | 0 | +1')
    compiled = compile_snippet(
        Compiler(), text.replace('clear "Clear" | 1', 'clear "Clear" | 1 | |') + SHIP, tmp_path
    )
    assert compiled.ok, [str(d) for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    module = import_rendered(compiled.ruleset, tmp_path, "facing_rolls")
    board = _board(module, n1_0="nebula", n2_0="nebula")
    route = [((0, 0), 0), ((1, 0), 0), ((2, 0), 0), ((2, 0), 5)]
    answer = module.route_cost(board, "ship", route, entered=[(2, 0)])
    assert [(d.step, d.place, d.on, d.roll, d.modifier) for d in answer.rolls] == [
        (1, (1, 0), "entering", "drift", 1),
        (1, (1, 0), "first_entering", "spot", 0),
        (2, (2, 0), "entering", "drift", 1),
    ]
    best = module.cheapest_route(board, "ship", ((0, 0), 0), (2, 0), entered=iter([(1, 0)]))
    assert best is not None
    assert [(d.step, d.on) for d in best.rolls] == [
        (1, "entering"),
        (2, "entering"),
        (2, "first_entering"),
    ]
    with pytest.raises(module.InvalidArgument, match="entered"):
        module.route_cost(board, "ship", route, entered=[((2, 0), 0)])


def test_a_turn_cost_in_the_headers_cost_unit_is_accepted_when_that_unit_is_a_length() -> None:
    """Issue 40: `cost hex` in the header made `turn 0 hex per hexside` an E203."""
    text = (
        'ruleset demo "Demo"\nversion 1.0.0\nunits distance hex, cost hex\n'
        'grid hexes "Hex" : 1 hex = 100 m, hex\nmode ship "Ship"\n'
        'layer terrain "Terrain" {\n  sea "Sea" | 1\n}\n'
        "facing ship on hexes : turn 0 hex per hexside\n"
    )
    compiled = compile_snippet(Compiler(), text)
    assert compiled.ok, [str(d) for d in compiled.diagnostics]
