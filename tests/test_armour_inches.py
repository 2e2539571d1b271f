"""Armour in Inches (issue 40): the bundled original vehicle game, its prose rules
(docs/games/armour_inches.md) checked one by one against the generated module, each worked
example by its number there. Example 17 (an arc from positions, then its penetration) is not a
worked example of the ruleset (it would take the French sheet to a third page), so it is asked
here, as are 13 to 16 (free moves and an arc from positions, worked examples since they may give
legs and places), of the Python module and of the JavaScript one alike; the soft-ground house
rule's changed answers are checked the same way."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesdsl.compiler import Compiler
from rulesdsl.printed.sheets import render_sheet
from tests import js_queries
from tests.conftest import RULESETS, bundled, load_generated
from tests.test_js_target import node, plan_of, write_package

__all__ = ["node"]  # the fixture, imported for the JavaScript test below

PROSE = Path(__file__).resolve().parent.parent / "docs" / "games" / "armour_inches.md"


@pytest.fixture(scope="module")
def ai() -> ModuleType:
    return load_generated("armour_inches")


@pytest.fixture(scope="module")
def house() -> ModuleType:
    return load_generated("armour_inches_house")


def _board(ai: ModuleType, *row: str) -> Any:
    return ai.Board({(x, 0): (f,) for x, f in enumerate(row)}, grid="square")


# ---- the game as a whole ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["armour_inches", "armour_inches_house"])
def test_the_game_and_its_house_rule_compile_without_a_single_diagnostic(name: str) -> None:
    result = Compiler().compile_file(RULESETS / f"{name}.terrain")
    assert [(d.code, d.message) for d in result.diagnostics] == []
    assert result.ruleset is not None and result.ruleset.languages == ("en", "fr")


def test_every_worked_example_of_the_prose_is_a_ruleset_example_or_a_test_here() -> None:
    """The prose numbers its worked examples; the ruleset's titles start with the same number,
    but for 17, asked by the tests below."""
    prose = {int(n) for n in re.findall(r"^\*Example (\d+)\.\*", PROSE.read_text(), re.M)}
    result = bundled("armour_inches")
    assert result.ruleset is not None
    titled = {int(e.info.labels["en"].split(".")[0]) for e in result.ruleset.examples}
    assert len(prose) >= 12 and len(titled) >= 10
    assert prose == titled | {17}


# ---- §1 units and §2 kinds of move ------------------------------------------------------------


def test_each_unit_type_carries_its_own_allowance_in_inches(ai: ModuleType) -> None:
    allowances = {m: ai.MODES[m].allowance for m in ai.MODES}
    assert allowances == {"heavy_tank": 5, "medium_tank": 6, "scout_car": 9, "rifles": 4}


def test_a_tank_cannot_dash_and_only_infantry_may_crawl(ai: ModuleType) -> None:
    for mode in ("heavy_tank", "medium_tank"):
        with pytest.raises(ai.InvalidArgument, match="kind of move"):
            ai.move_cost(mode, "open_ground", move="dash")
    with pytest.raises(ai.InvalidArgument, match="kind of move"):
        ai.move_cost("scout_car", "open_ground", move="crawl")
    assert ai.move_cost("scout_car", "open_ground", move="dash") == 1


def test_example_5_a_dash_takes_riflemen_5_in_where_an_advance_does_not(ai: ModuleType) -> None:
    board = _board(ai, *["open_ground"] * 6)
    route = [(x, 0) for x in range(6)]
    dash = ai.route_cost(board, "rifles", route, move="dash")
    advance = ai.route_cost(board, "rifles", route)
    assert (dash.total, dash.legal) == (5.0, True)  # 4 in x 1.5 = 6 in
    assert (advance.total, advance.legal) == (5.0, False)


def test_example_6_nobody_dashes_into_marsh(ai: ModuleType) -> None:
    assert ai.can_enter("rifles", "marsh", move="dash") is False
    assert ai.can_enter("rifles", "marsh") is True


# ---- §3 facing and turning --------------------------------------------------------------------


def test_example_13_a_heavy_tank_rolls_1_in_turns_45_degrees_and_rolls_3_in(ai: ModuleType) -> None:
    move = ai.free_move("heavy_tank", [("straight", 1), ("turn", 45), ("straight", 3)], 5)
    assert tuple(move) == (5.0, 0.0, True, "the allowance is spent")


def test_example_14_a_heavy_tank_pivoting_about_ends_its_move_a_medium_tank_goes_on(
    ai: ModuleType,
) -> None:
    heavy = ai.free_move("heavy_tank", [("pivot", 180)], 5)
    assert tuple(heavy) == (2.0, 3.0, True, "leg 1 turns more than 90.0 degrees")
    with pytest.raises(ai.IllegalMove, match="after the move ended"):
        ai.free_move("heavy_tank", [("pivot", 180), ("straight", 1)], 5)
    medium = ai.free_move("medium_tank", [("pivot", 180), ("straight", 3)], 6)
    assert tuple(medium) == (4.0, 2.0, False, "")


def test_example_15_a_scout_car_runs_2_in_straight_before_it_turns(ai: ModuleType) -> None:
    with pytest.raises(ai.IllegalMove, match=r"2\.0 straight before a turn"):
        ai.free_move("scout_car", [("straight", 1), ("turn", 45)], 9)
    legs = [("straight", 2), ("turn", 90), ("straight", 4), ("reverse", 1)]
    assert tuple(ai.free_move("scout_car", legs, 9)) == (9.0, 0.0, True, "the allowance is spent")


def test_a_turn_of_30_degrees_costs_a_whole_45_degrees(ai: ModuleType) -> None:
    assert ai.free_move("medium_tank", [("turn", 30)], 6).used == 1.0
    assert ai.free_move("medium_tank", [("turn", 60)], 6).used == 2.0


def test_a_scout_car_cannot_pivot_and_riflemen_have_no_facing(ai: ModuleType) -> None:
    with pytest.raises(ai.IllegalMove, match="may not pivot"):
        ai.free_move("scout_car", [("pivot", 90)], 9)
    with pytest.raises(ai.UnknownName):
        ai.free_move("rifles", [("straight", 1)], 4)


def test_reversing_costs_every_vehicle_two_inches_an_inch(ai: ModuleType) -> None:
    for mode, allowance in (("heavy_tank", 5), ("medium_tank", 6), ("scout_car", 9)):
        assert ai.free_move(mode, [("reverse", 2)], allowance).used == 4.0


# ---- §4 terrain -------------------------------------------------------------------------------


def test_example_1_a_medium_tank_pays_6_in_for_2_in_of_woods(ai: ModuleType) -> None:
    assert ai.move_cost("medium_tank", "woods", distance=2) == 6
    assert ai.move_cost("rifles", "woods", distance=2) == 4


def test_example_2_a_scout_car_runs_4_in_of_road_for_2_in(ai: ModuleType) -> None:
    assert ai.move_cost("scout_car", "road", distance=4) == 2
    assert ai.move_cost("rifles", "road", distance=4) == 4


def test_example_3_a_scout_car_stays_out_of_woods_and_rubble(ai: ModuleType) -> None:
    assert ai.can_enter("scout_car", "woods") is False
    assert ai.can_enter("scout_car", "rubble") is False
    assert ai.move_cost("heavy_tank", "rubble", distance=1) == 2


def test_example_4_only_riflemen_enter_a_building(ai: ModuleType) -> None:
    assert ai.move_cost("rifles", "building", distance=1) == 2
    for mode in ("heavy_tank", "medium_tank", "scout_car"):
        assert ai.can_enter(mode, "building") is False


def test_example_19_a_heavy_tank_bogs_in_marsh_on_2_or_less(ai: ModuleType) -> None:
    [due] = ai.rolls_due("heavy_tank", "marsh")
    assert (due.roll, due.table, due.modifier) == ("bog_check", "bog", -1)
    assert ai.roll("bog", 2 + due.modifier).id == "bogged"
    assert ai.roll("bog", 3 + due.modifier).id == "free"
    assert ai.rolls_due("rifles", "marsh") == ()
    assert [d.modifier for d in ai.rolls_due("scout_car", "marsh")] == [0]


def test_example_20_a_hedge_costs_riflemen_1_in_and_a_tank_2_in(ai: ModuleType) -> None:
    places = {(x, 0): ("open_ground",) for x in range(3)}
    edges = {((0, 0), (1, 0)): ("hedge",), ((1, 0), (0, 0)): ("hedge",)}
    board = ai.Board(places, edges, grid="square")
    route = [(0, 0), (1, 0), (2, 0)]
    assert ai.route_cost(board, "rifles", route).total == 3.0
    assert ai.route_cost(board, "medium_tank", route).total == 4.0


# ---- §5 line of sight -------------------------------------------------------------------------


def test_example_7_exactly_2_in_of_woods_does_not_hide_a_target(ai: ModuleType) -> None:
    sight = ai.line_of_sight(
        "los", ("open_ground",), ("woods",), ("open_ground",), crossed=(0, 2, 0)
    )
    assert (sight.hindrance, sight.blocked) == (2, False)


def test_example_8_3_in_of_woods_or_a_building_hides_it(ai: ModuleType) -> None:
    woods = ai.line_of_sight(
        "los", ("open_ground",), ("woods",), ("open_ground",), crossed=(0, 3, 0)
    )
    assert (woods.hindrance, woods.blocked) == (3, True)
    building = ai.line_of_sight(
        "los", ("open_ground",), ("building",), ("open_ground",), crossed=(0, 0.5, 0)
    )
    assert building.blocked is True


def test_the_firers_and_the_targets_own_woods_do_not_count(ai: ModuleType) -> None:
    sight = ai.line_of_sight("los", ("woods",), ("open_ground",), ("woods",), crossed=(5, 1, 5))
    assert (sight.hindrance, sight.blocked) == (0, False)


# ---- §6 to hit --------------------------------------------------------------------------------


def test_example_9_a_moving_tank_firing_beyond_24_in_into_woods_is_at_minus_4(
    ai: ModuleType,
) -> None:
    assert ai.modifier("to_hit", "woods", "moved", "long") == -4
    assert ai.roll("hit_table", 11 - 4).id == "hit"
    assert ai.roll("hit_table", 10 - 4).id == "miss"


def test_example_10_a_close_shot_at_a_hull_down_tank_is_at_minus_1(ai: ModuleType) -> None:
    assert ai.modifier("to_hit", "open_ground", "close", "hull_down") == -1
    assert ai.roll("hit_table", 6).id == "miss"


def test_cover_by_terrain_and_a_prone_target(ai: ModuleType) -> None:
    assert ai.modifier("to_hit", "building") == -2
    assert ai.modifier("to_hit", "rubble", "prone") == -2
    assert ai.modifier("to_hit", "road") == 0


# ---- §7 armour arcs, hull-down and penetration ------------------------------------------------


def test_example_11_a_medium_gun_pierces_the_side_a_light_gun_bounces_off_the_rear(
    ai: ModuleType,
) -> None:
    assert ai.lookup("guns", "medium") == 4
    assert ai.penetrates(struck="side", gun=4, dice=7).id == "pierced"
    assert ai.penetrates(struck="rear", gun=2, dice=6).id == "bounced"  # 8 is not more than 8


def test_example_12_hull_down_turns_a_heavy_shot_on_the_turret(ai: ModuleType) -> None:
    assert ai.penetrates(struck="front", gun=6, dice=7).id == "pierced"
    assert ai.penetrates(struck="front", gun=6, dice=7, hull_down=True).id == "bounced"


def test_example_16_the_arc_is_where_the_firer_stands_and_a_45_degree_line_hits_the_side(
    ai: ModuleType,
) -> None:
    """The target at (0, 0) faces the top of the table (heading 0; y grows down the table)."""
    firers = {(3, -10): "front", (10, -10): "side", (0, 12): "rear", (-10, 0): "side"}
    assert {f: ai.arc_between("armour", (0, 0), 0, f) for f in firers} == firers
    assert ai.arc("armour", 45) == "side"
    assert ai.arc("armour", 135) == "side"


def test_example_17_a_firer_166_degrees_round_hits_the_rear_and_pierces(ai: ModuleType) -> None:
    assert ai.arc_between("armour", (0, 0), 90, (-20, 5)) == "rear"
    assert ai.arc("armour", 166) == "rear"
    assert ai.penetrates(struck="rear", gun=4, dice=5).id == "pierced"


# ---- §8 damage --------------------------------------------------------------------------------


def test_example_18_a_4_knocks_out_for_a_heavy_gun_and_shakes_for_a_light_one(
    ai: ModuleType,
) -> None:
    assert ai.roll("damage", 4, column="heavy").id == "knocked_out"
    assert ai.roll("damage", 4, column="medium").id == "immobilised"
    assert ai.roll("damage", 4, column="light").id == "shaken"
    with pytest.raises(ai.InvalidArgument):
        ai.roll("damage", 4, column=2)  # gun classes are categories, not numbers


# ---- the house rule: soft ground --------------------------------------------------------------


def test_house_marsh_costs_vehicles_4_in_and_bogs_every_vehicle_at_minus_1(
    house: ModuleType,
) -> None:
    assert house.move_cost("medium_tank", "marsh", distance=2) == 8
    assert house.move_cost("rifles", "marsh", distance=2) == 4
    modifiers = {m: [d.modifier for d in house.rolls_due(m, "marsh")] for m in house.MODES}
    assert modifiers == {"heavy_tank": [-1], "medium_tank": [-1], "scout_car": [-1], "rifles": []}
    assert house.roll("bog", 2 - 1).id == "bogged"


def test_house_hull_down_is_minus_3_to_hit(house: ModuleType) -> None:
    assert house.modifier("to_hit", "open_ground", "close", "hull_down") == -2


def test_house_scout_car_moves_8_in(house: ModuleType) -> None:
    assert house.MODES["scout_car"].allowance == 8
    board = _board(house, *["open_ground"] * 10)
    assert not house.route_cost(board, "scout_car", [(x, 0) for x in range(10)]).legal  # 9 in


def test_the_house_sheet_lists_its_changes_in_french_words() -> None:
    """The list of changes on the house sheet: the old and new answers of the restated
    question, and no name as the file spells it (the sheet prints a whole restated example's
    old answers and a changed sight threshold that way, so the house rule restates one
    question and changes no threshold)."""
    result = bundled("armour_inches_house")
    assert result.ruleset is not None
    text = render_sheet(result.ruleset, "md", "fr").decode("utf-8")  # type: ignore[union-attr]
    changes = re.sub("[\u00a0\u202f\u2009]", " ", text.split("## Changements")[1].split("## ")[0])
    assert "défilement : -1 points → -2 points" in changes
    assert not re.search(r"bog\\?_check|blocks|\bnone\b|\bmiss\b", changes), changes


def test_house_keeps_the_base_rules_it_does_not_change(house: ModuleType, ai: ModuleType) -> None:
    assert house.free_move("heavy_tank", [("pivot", 180)], 5) == ai.free_move(
        "heavy_tank", [("pivot", 180)], 5
    )
    assert house.penetrates(struck="side", gun=4, dice=7).id == "pierced"


# ---- the JavaScript module --------------------------------------------------------------------


def test_the_javascript_module_answers_examples_13_to_17_as_python_does(
    node: str, tmp_path: Path
) -> None:
    legs = {
        "heavy_tank": [[["straight", 1], ["turn", 45], ["straight", 3]], [["pivot", 180]]],
        "medium_tank": [[["pivot", 180], ["straight", 3]]],
        "scout_car": [[["straight", 1], ["turn", 45]], [["straight", 2], ["turn", 90]]],
    }
    allowance = {"heavy_tank": 5, "medium_tank": 6, "scout_car": 9}
    queries: list[js_queries.Query] = [
        {
            "function": "free_move",
            "args": [m, legs_, allowance[m]],
            "kwargs": {},
            "freefacing": True,
        }
        for m, moves in legs.items()
        for legs_ in moves
    ]
    queries += [
        {"function": "arc_between", "args": ["armour", [0, 0], h, f], "kwargs": {}}
        for h, f in ((0, [3, -10]), (0, [10, -10]), (0, [0, 12]), (90, [-20, 5]))
    ]
    queries.append(
        {"function": "penetrates", "args": [], "kwargs": {"struck": "rear", "gun": 4, "dice": 5}}
    )
    python = load_generated("armour_inches")
    expected = js_queries.ask_python_all(python, queries)
    assert [e.get("answer") or e["error"] for e in expected] == [
        [5.0, 0.0, True, "the allowance is spent"],
        [2.0, 3.0, True, "leg 1 turns more than 90.0 degrees"],
        [4.0, 2.0, False, ""],
        "IllegalMove",
        [3.0, 6.0, False, ""],
        *([{"word": arc}] for arc in ("front", "side", "rear", "rear")),
        [{"word": "pierced"}],
    ]
    assert (
        js_queries.ask_node(write_package(plan_of("armour_inches"), tmp_path), queries) == expected
    )
