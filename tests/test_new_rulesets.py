"""The two rulesets of other games (issue 11), compiled through the library and asked the
answers their rules give: skirmish_keywords (inches, keywords, area terrain, obstacles, cover
and a clamped hit modifier, a d6 table) and hex_operational (a hex map with hexsides, rivers
and roads, a results table with odds columns, line of sight)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from rulesdsl.printed.sheets import render_sheet
from tests.conftest import RULESETS, bundled, import_rendered

NEW_RULESETS = ("skirmish_keywords", "hex_operational", "void_patrol")


def compiled(name: str) -> ir.Ruleset:
    result = bundled(name)
    assert result.ok, [(d.code, d.message) for d in result.diagnostics]
    assert result.ruleset is not None
    return result.ruleset


def module_of(name: str, folder: Path) -> ModuleType:
    """The ruleset's generated module, written to `folder` and imported from there."""
    return import_rendered(compiled(name), folder, f"new_{name}")


@pytest.fixture(scope="module")
def sk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield module_of("skirmish_keywords", tmp_path_factory.mktemp("skirmish"))


@pytest.fixture(scope="module")
def hx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield module_of("hex_operational", tmp_path_factory.mktemp("hex"))


def sheet(name: str, fmt: str, lang: str) -> str:
    text = render_sheet(compiled(name), fmt, lang).decode("utf-8")  # type: ignore[arg-type]
    return re.sub("[\u00a0\u202f\u2009]", " ", text)


# ---- both ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NEW_RULESETS)
def test_the_new_rulesets_compile_without_a_single_diagnostic(name: str) -> None:
    result = Compiler().compile_file(RULESETS / f"{name}.terrain")
    assert [(d.code, d.message) for d in result.diagnostics] == []
    assert result.ruleset is not None
    assert result.ruleset.languages == ("en", "fr")


# ---- skirmish_keywords: moves in inches --------------------------------------------------------


def test_woods_cost_a_trooper_two_inches_of_move_per_inch(sk: ModuleType) -> None:
    assert sk.move_cost("trooper", "woods", distance=3) == 6
    assert sk.move_cost("trooper", "open_ground", distance=3) == 3


def test_a_low_wall_costs_a_flat_two_inches_once_whatever_the_distance(sk: ModuleType) -> None:
    assert sk.move_cost("trooper", "open_ground", "low_wall", distance=4) == 4 + 2
    assert sk.move_cost("trooper", "open_ground", "low_wall", distance=1) == 1 + 2
    assert sk.move_cost("trooper", "woods", "low_wall", distance=2) == 2 * 2 + 2


def test_a_beast_leaps_a_low_wall_for_one_inch_and_a_vehicle_pushes_through(
    sk: ModuleType,
) -> None:
    assert sk.move_cost("hound", "open_ground", "low_wall", distance=4) == 4 + 1
    assert sk.move_cost("crawler", "open_ground", "low_wall", distance=4) == 4


def test_razor_wire_costs_half_the_models_move(sk: ModuleType) -> None:
    assert sk.move_cost("trooper", "open_ground", "wire", distance=2, allowance=6) == 2 + 3
    assert sk.move_cost("hound", "open_ground", "wire", distance=1, allowance=8) == 1 + 4


def test_razor_wire_asks_for_the_models_allowance(sk: ModuleType) -> None:
    with pytest.raises(sk.ArgumentError) as raised:
        sk.move_cost("trooper", "open_ground", "wire", distance=2)
    assert raised.value.argument == "allowance"


def test_vehicles_crush_razor_wire(sk: ModuleType) -> None:
    assert sk.move_cost("crawler", "open_ground", "wire", distance=2, allowance=10) == 2


def test_climbing_two_inches_or_less_costs_nothing_higher_counts_its_full_height(
    sk: ModuleType,
) -> None:
    assert sk.climb(2) == 0
    assert sk.climb(3) == 3
    assert sk.move_cost("trooper", "open_ground", "ledge", distance=1, height=2) == 1
    assert sk.move_cost("trooper", "open_ground", "ledge", distance=1, height=3) == 1 + 3


def test_vehicles_cannot_climb_and_fly_models_pay_nothing_for_a_ledge(sk: ModuleType) -> None:
    assert sk.move_cost("crawler", "open_ground", "ledge", height=1) is sk.IMPASSABLE
    assert sk.move_cost("jump_trooper", "open_ground", "ledge", distance=2, height=5) == 2


# ---- skirmish_keywords: keywords and their precedence ---------------------------------------


def test_unit_types_carry_several_keywords(sk: ModuleType) -> None:
    assert "rider" in sk.GROUPS["beast"] and "rider" in sk.GROUPS["infantry"]
    assert "skimmer" in sk.GROUPS["vehicle"] and "skimmer" in sk.GROUPS["fly"]
    assert "jump_trooper" in sk.GROUPS["fly"] and "jump_trooper" in sk.GROUPS["infantry"]


def test_a_rider_moves_through_ruins_as_its_mount_beast_before_infantry(sk: ModuleType) -> None:
    assert sk.move_cost("trooper", "ruins", distance=3) == 3
    assert sk.move_cost("hound", "ruins", distance=3) == 6
    assert sk.move_cost("rider", "ruins", distance=3) == 6


def test_fly_comes_before_vehicle_a_skimmer_floats_over_woods_and_marsh(sk: ModuleType) -> None:
    assert sk.move_cost("crawler", "woods", distance=2) == 6
    assert sk.move_cost("skimmer", "woods", distance=2) == 2
    assert sk.move_cost("skimmer", "marsh", distance=2) == 2
    assert sk.must_stop("skimmer", "marsh") is False


def test_a_vehicle_entering_a_marsh_must_stop(sk: ModuleType) -> None:
    assert sk.move_cost("crawler", "marsh", distance=1) == 3
    assert sk.must_stop("crawler", "marsh") is True
    assert sk.must_stop("trooper", "marsh") is False


def test_fly_models_may_cross_deep_water_but_not_end_over_it(sk: ModuleType) -> None:
    assert sk.move_cost("trooper", "deep_water") is sk.IMPASSABLE
    assert sk.move_cost("jump_trooper", "deep_water", distance=2) == 2
    assert sk.can_end("jump_trooper", "deep_water") is False
    assert sk.can_end("jump_trooper", "water") is True


# ---- skirmish_keywords: cover and the hit modifier -----------------------------------------


def test_only_the_best_cover_counts(sk: ModuleType) -> None:
    assert sk.modifier("cover", "ruins", "low_wall") == 2
    assert sk.modifier("cover", "rubble", "low_wall") == 1
    assert sk.modifier("cover", "rubble", "low_wall", "obscured") == 1
    assert sk.modifier("cover", "open_ground", "obscured") == 1


def test_woods_hide_a_target_from_rifles_but_a_blast_bursts_in_the_branches(
    sk: ModuleType,
) -> None:
    assert sk.modifier("hit", "woods", attack="rifle", mode="trooper") == -1
    assert sk.modifier("hit", "woods", attack="blast", mode="trooper") == 1


def test_a_fly_target_above_the_woods_takes_the_combination_entry(sk: ModuleType) -> None:
    # fly alone says 0, blast alone says +1: `blast & fly 0` settles it.
    assert sk.modifier("hit", "woods", attack="rifle", mode="jump_trooper") == 0
    assert sk.modifier("hit", "woods", attack="blast", mode="jump_trooper") == 0
    assert sk.modifier("hit", "woods", attack="blast", mode="skimmer") == 0


def test_the_hit_modifier_is_held_between_minus_one_and_plus_one(sk: ModuleType) -> None:
    # woods -1, long range -1, engaged -1: -3 in all, held at -1
    assert (
        sk.modifier("hit", "woods", "long_range", "engaged", attack="rifle", mode="trooper") == -1
    )
    assert (
        sk.modifier("hit", "open_ground", "aimed", "long_range", attack="rifle", mode="trooper")
        == 0
    )


def test_heavy_weapons_have_no_long_range_penalty_and_blasts_gain_nothing_from_aiming(
    sk: ModuleType,
) -> None:
    assert sk.modifier("hit", "open_ground", "long_range", attack="heavy", mode="trooper") == 0
    assert sk.modifier("hit", "open_ground", "aimed", attack="blast", mode="trooper") == 0
    assert sk.modifier("hit", "open_ground", "aimed", attack="rifle", mode="trooper") == 1


def test_smoke_and_models_in_the_way_screen_the_target_once(sk: ModuleType) -> None:
    """`best screen ... combine lowest` (issue 25): only the worse screen counts, then it adds
    up with aiming; the two screens alone would give -2 before the clamp."""
    rifle = {"attack": "rifle", "mode": "trooper"}
    assert sk.modifier("hit", "open_ground", "smoke", "models_in_the_way", **rifle) == -1
    assert sk.modifier("hit", "open_ground", "aimed", "smoke", "models_in_the_way", **rifle) == 0
    assert sk.modifier("hit", "open_ground", "aimed", "smoke", **rifle) == 0


# ---- skirmish_keywords: the injury roll and spotting ------------------------------------------


def test_the_injury_roll_reads_a_d6_and_its_modifiers(sk: ModuleType) -> None:
    assert sk.roll("injury", 1).id == "knocked_down"
    assert sk.roll("injury", 3).id == "pinned"
    assert sk.roll("injury", 5).id == "wounded"
    assert sk.roll("injury", 5).effects == {"wounds": 1}
    assert sk.roll("injury", 6 + 1).id == "out_of_action"
    assert sk.roll("injury", 1 - 1).id == "knocked_down"
    assert [row.chance for row in sk.DICE_TABLES["injury"].rows] == [
        Fraction(1, 6),
        Fraction(1, 3),
        Fraction(1, 3),
        Fraction(1, 6),
    ]


def test_a_target_deep_in_woods_and_far_away_is_hidden(sk: ModuleType) -> None:
    assert sk.spotting(depth=1, distance=12, flying=False).id == "seen"
    assert sk.spotting(depth=4, distance=3, flying=False).id == "seen"
    assert sk.spotting(depth=4, distance=12, flying=True).id == "seen"
    assert sk.spotting(depth=4, distance=12, flying=False).id == "hidden"


def test_the_spotting_outcomes_are_labelled_in_english_and_french(sk: ModuleType) -> None:
    hidden = sk.spotting(depth=4, distance=12, flying=False)
    assert hidden.label == "Hidden: may not be targeted"
    assert hidden.labels["fr"] == "Cachée : ne peut pas être prise pour cible"
    assert "Hidden: may not be targeted" in sheet("skirmish_keywords", "md", "en")
    assert "Cachée : ne peut pas être prise pour cible" in sheet("skirmish_keywords", "md", "fr")


# ---- hex_operational: a small board ----------------------------------------------------------
#
# Axial coordinates (q, r). A river runs between q = 1 and q = 2, bridged where the road
# crosses it; the road runs (0,0) - (1,0) - (2,0) - (3,0) - (3,1).
#
#   r = 0:  town    clear   forest  clear
#   r = 1:  clear   forest  hills   town
#   r = 2:  marsh   clear   clear   forest

Place = tuple[int, int]

TERRAIN: dict[Place, tuple[str, ...]] = {
    (0, 0): ("town",),
    (1, 0): ("clear",),
    (2, 0): ("forest",),
    (3, 0): ("clear",),
    (0, 1): ("clear",),
    (1, 1): ("forest",),
    (2, 1): ("hills",),
    (3, 1): ("town",),
    (0, 2): ("marsh",),
    (1, 2): ("clear",),
    (2, 2): ("clear",),
    (3, 2): ("forest",),
}


def both_ways(pairs: Iterable[tuple[Place, Place]], *features: str) -> dict:
    edges: dict[tuple[Place, Place], tuple[str, ...]] = {}
    for a, b in pairs:
        edges[(a, b)] = features
        edges[(b, a)] = features
    return edges


def hexsides() -> dict:
    river = [((1, 1), (2, 1)), ((1, 1), (2, 0)), ((1, 2), (2, 2)), ((1, 2), (2, 1))]
    road = [((0, 0), (1, 0)), ((2, 0), (3, 0)), ((3, 0), (3, 1))]
    return {
        **both_ways(river, "river"),
        **both_ways(road, "road"),
        **both_ways([((1, 0), (2, 0))], "bridge", "road"),
    }


@pytest.fixture(scope="module")
def board(hx: ModuleType) -> object:
    return hx.Board(TERRAIN, hexsides(), grid="hexes")


def test_terrain_costs_movement_points_per_hex_by_unit_type(hx: ModuleType) -> None:
    assert hx.move_cost("foot", "forest") == 2
    assert hx.move_cost("tracked", "forest") == 3
    assert hx.move_cost("motorized", "hills") == 3
    assert hx.move_cost("tracked", "mountain") is hx.IMPASSABLE
    assert hx.move_cost("foot", "lake") is hx.IMPASSABLE


def test_vehicles_may_cross_a_marsh_but_not_end_in_it(hx: ModuleType) -> None:
    assert hx.move_cost("tracked", "marsh") == 4
    assert hx.can_end("tracked", "marsh") is False
    assert hx.can_end("foot", "marsh") is True


def test_entering_an_enemy_zone_of_control_costs_one_more_and_ends_the_move(
    hx: ModuleType,
) -> None:
    assert hx.move_cost("foot", "clear", "enemy_zoc") == 2
    assert hx.must_stop("foot", "clear", "enemy_zoc") is True
    assert hx.must_stop("foot", "clear") is False


def test_a_road_followed_hex_to_hex_costs_half_a_point_a_hex(hx: ModuleType, board: object) -> None:
    route = hx.route_cost(board, "motorized", [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)])
    assert route.legal is True
    assert route.total == 2
    assert [step.cost for step in route.steps] == [0.5, 0.5, 0.5, 0.5]
    # the bridge carries the road over the river: the forest at (2,0) costs nothing extra
    assert set(route.steps[1].edge) == {"bridge", "road"}


def test_crossing_a_river_adds_its_cost_to_the_hex_entered(hx: ModuleType, board: object) -> None:
    assert hx.route_cost(board, "foot", [(1, 1), (2, 1)]).total == 1 + 2
    assert hx.route_cost(board, "tracked", [(1, 1), (2, 1)]).total == 2 + 2
    assert hx.route_cost(board, "motorized", [(1, 1), (2, 1)]).total == 2 + 3
    # leaving the road: the hex entered costs its terrain again
    route = hx.route_cost(board, "motorized", [(0, 0), (1, 0), (1, 1)])
    assert [step.cost for step in route.steps] == [0.5, 3]
    assert route.total == 3.5


def test_a_vehicle_route_that_ends_in_a_marsh_is_not_legal(hx: ModuleType, board: object) -> None:
    assert hx.route_cost(board, "tracked", [(0, 1), (0, 2)]).legal is False
    assert hx.route_cost(board, "foot", [(0, 1), (0, 2)]).legal is True


def test_the_cheapest_route_follows_the_road_over_the_bridge(hx: ModuleType, board: object) -> None:
    route = hx.cheapest_route(board, "motorized", (0, 0), (3, 1))
    assert route is not None
    assert route.total == 2
    assert [step.end for step in route.steps] == [(1, 0), (2, 0), (3, 0), (3, 1)]


def test_the_places_a_truck_can_reach_with_two_points(hx: ModuleType, board: object) -> None:
    assert dict(hx.reachable(board, "motorized", (0, 0), 2)) == {
        (0, 0): 0,
        (1, 0): 0.5,
        (0, 1): 1,
        (2, 0): 1,
        (3, 0): 1.5,
        (3, 1): 2,
    }


def test_a_vehicle_cannot_end_in_the_marsh_it_could_afford(hx: ModuleType, board: object) -> None:
    assert (0, 2) not in hx.reachable(board, "tracked", (0, 1), 6)
    assert hx.reachable(board, "foot", (0, 1), 3)[(0, 2)] == 3


def test_a_unit_may_always_move_one_hex(hx: ModuleType, board: object) -> None:
    # the forest costs a tracked unit 3 MP, more than its 1; the minimum move lets it in
    reached: Mapping[Place, float] = hx.reachable(board, "tracked", (0, 1), 1)
    assert (1, 1) in reached
    assert (2, 1) not in reached


def test_a_unit_that_enters_an_enemy_zone_of_control_goes_no_further(hx: ModuleType) -> None:
    places = {**TERRAIN, (2, 2): ("clear", "enemy_zoc")}
    zoc_board = hx.Board(places, hexsides(), grid="hexes")
    assert hx.route_cost(zoc_board, "foot", [(1, 2), (2, 2), (3, 2)]).legal is False
    reached = hx.reachable(zoc_board, "foot", (1, 2), 10)
    assert reached[(2, 2)] == 1 + 1 + 1  # river, clear, zone of control
    # not 3 + 2 through the zone of control: round by the hills and the town
    assert reached[(3, 2)] == 3 + 1 + 2


# ---- hex_operational: combat ---------------------------------------------------------------


def test_the_combat_results_table_reads_the_odds_column(hx: ModuleType) -> None:
    assert hx.roll("crt", 4, column=2).id == "dr"
    assert hx.roll("crt", 4, column="odds_2_1").id == "dr"
    assert hx.roll("crt", 4, column=0.5).id == "ar"
    assert hx.roll("crt", 1, column=5).id == "ex"
    assert hx.roll("crt", 6, column=1).id == "dr"


def test_a_modified_roll_below_one_reads_the_first_row(hx: ModuleType) -> None:
    assert hx.roll("crt", -1, column=1).id == "ae"
    assert hx.roll("crt", 7, column=0.5).id == "dr"


def test_a_natural_six_eliminates_the_defender_whatever_the_odds_and_modifiers(
    hx: ModuleType,
) -> None:
    assert hx.roll("crt", 6, column=0.5).id == "dr"
    assert hx.roll("crt", 6, column=0.5, natural=6).id == "de"
    # at night out of supply a 6 is a 4: the natural 6 still wins
    assert hx.roll("crt", 4, column=1, natural=6).id == "de"
    assert hx.roll("crt", 4, column=1, natural=5).id == "ex"


def test_an_attack_at_night_out_of_supply_rolls_with_two_modifiers(hx: ModuleType) -> None:
    trigger = hx.TRIGGERS["night_attack"]
    assert trigger.table == "crt"
    named = (trigger.modifier, *trigger.more_modifiers)
    assert named == ("night", "no_supply")
    assert sum(hx.RESULTS_TABLES["crt"].modifiers[m] for m in named) == -2


def test_out_of_supply_a_unit_has_half_its_movement_rounded_down(hx: ModuleType) -> None:
    """`spent > half(allowance) rounded down` (arithmetic in decisions, issue 25): a 5 MP unit
    may spend 2 MP, not 2.5 or 3."""
    assert hx.unsupplied_move(allowance=5, spent=2).id == "allowed"
    assert hx.unsupplied_move(allowance=5, spent=3).id == "too_far"
    assert hx.unsupplied_move(allowance=4, spent=2).id == "allowed"
    assert hx.unsupplied_move(allowance=4, spent=2.5).id == "too_far"


def test_the_defenders_hex_and_the_hexside_crossed_add_to_the_combat_die(
    hx: ModuleType,
) -> None:
    assert hx.modifier("defence", "town") == -2
    assert hx.modifier("defence", "forest", "river") == -2
    assert hx.modifier("defence", "hills", "major_river") == -3


def test_supply_reaches_further_along_a_road(hx: ModuleType) -> None:
    assert hx.supply(distance=6, road=True).id == "supplied"
    assert hx.supply(distance=6, road=False).id == "unsupplied"
    assert hx.supply(distance=4, road=False).id == "supplied"


# ---- hex_operational: line of sight -----------------------------------------------------------


def test_two_forest_hexes_between_block_sight(hx: ModuleType) -> None:
    sight = hx.line_of_sight("los", ("clear",), ("forest",), ("forest",), ("clear",))
    assert sight.hindrance == 2
    assert sight.blocked is True


def test_one_forest_hex_between_does_not_block_sight(hx: ModuleType) -> None:
    sight = hx.line_of_sight("los", ("clear",), ("forest",), ("clear",), ("clear",))
    assert sight.hindrance == 1
    assert sight.blocked is False


def test_a_hill_between_blocks_sight_on_its_own(hx: ModuleType) -> None:
    assert hx.line_of_sight("los", ("town",), ("hills",), ("clear",)).blocked is True


def test_the_firers_and_the_targets_own_hexes_do_not_count(hx: ModuleType) -> None:
    sight = hx.line_of_sight("los", ("forest",), ("forest",), ("forest",))
    assert sight.hindrance == 1
    assert sight.blocked is False
    assert sight.by_place == (0, 1, 0)


# ---- void_patrol: ships with a heading (issue 24) ---------------------------------------------


def test_void_patrol_has_ten_worked_examples_and_a_facing_rule_per_warship() -> None:
    rs = compiled("void_patrol")
    assert len(rs.examples) >= 10
    assert [f.mode for f in rs.facings] == ["corvette", "frigate", "cruiser"]


def test_a_void_patrol_cruiser_must_spend_exactly_its_speed(tmp_path: Path) -> None:
    vp = module_of("void_patrol", tmp_path)
    board = vp.Board({(q, 0): ("open_space",) for q in range(5)}, grid="sector")
    short = vp.route_cost(board, "cruiser", [((0, 0), 0), ((1, 0), 0)], allowance=3)
    assert short.reason == "the route spends 1 of a speed of 3, not all of it"
    whole = vp.route_cost(board, "cruiser", [((q, 0), 0) for q in range(4)], allowance=3)
    assert whole.legal and whole.total == 3.0


# ---- void_patrol: kinds of move and hazards that roll on entry by speed (issue 24) -------------


@pytest.fixture(scope="module")
def vp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield module_of("void_patrol", tmp_path_factory.mktemp("void"))


def test_a_void_patrol_hazard_rolls_on_entering_worse_at_flank_speed(vp: ModuleType) -> None:
    for hazard in ("nebula", "asteroids", "debris", "gravity_well"):
        [cruise] = vp.rolls_due("corvette", hazard, move="cruise")
        [flank] = vp.rolls_due("corvette", hazard, move="flank")
        assert (cruise.roll, cruise.table) == ("hazard", "hazard_table")
        assert flank.modifier == cruise.modifier + 2, hazard  # faster is worse
        [plain] = vp.rolls_due("corvette", hazard)
        assert plain.modifier == cruise.modifier  # no kind: as at cruise
        assert (plain.move, cruise.move, flank.move) == ("", "cruise", "flank")  # says which
    assert vp.rolls_due("frigate", "open_space", move="flank") == ()
    assert vp.rolls_due("drone", "debris", move="flank") == ()  # drones slip through


def test_the_void_patrol_hazard_table_covers_every_total_a_modifier_can_reach(
    vp: ModuleType,
) -> None:
    assert vp.roll("hazard_table", 2 + 0).id == "clear_passage"
    assert vp.roll("hazard_table", 12 + 4).id == "crippled"  # a gravity well at flank
    assert vp.roll("hazard_table", 9 + 2).id == "hull_breach"


def test_a_void_patrol_frigates_route_lists_the_hazard_rolls_it_makes_due(vp: ModuleType) -> None:
    places = {(q, r): ("open_space",) for q in range(5) for r in range(4)}
    places[(2, 1)] = ("nebula",)
    places[(3, 1)] = ("asteroids",)
    board = vp.Board(places, grid="sector")
    route = [((0, 0), 0), ((1, 0), 0), ((2, 0), 0), ((2, 0), 5), ((2, 1), 5)]
    cruise = vp.route_cost(board, "frigate", route, allowance=5)
    assert [(d.step, d.place, d.on, d.roll, d.modifier) for d in cruise.rolls] == [
        (4, (2, 1), "entering", "hazard", 0),
        (4, (2, 1), "first_entering", "survey", 0),
    ]
    later = vp.route_cost(board, "frigate", route, allowance=5, entered=[(2, 1)])
    assert [d.roll for d in later.rolls] == ["hazard"]  # surveyed in an earlier turn
    fast = [((q, 0), 0) for q in range(4)] + [((3, 0), 5), ((3, 1), 5)]
    flank = vp.route_cost(board, "frigate", fast, allowance=4, move="flank")
    assert (flank.total, flank.legal, flank.speed, flank.turn_mode) == (8.0, True, 8, 3)
    assert [(d.step, d.place, d.modifier) for d in flank.rolls] == [(5, (3, 1), 3)]
    early = vp.route_cost(board, "frigate", [*fast[:3], ((2, 0), 5), ((2, 1), 5)], 4, "flank")
    assert early.reason == "step 3 turns after 2 places straight (turn mode 3 at speed 8)"


def test_void_patrols_module_and_reference_agree_on_the_rolls_of_facing_routes(
    vp: ModuleType,
) -> None:
    """The module's FacingRoute.rolls and rulesdsl.semantics.facing's, for random routes of
    a frigate and a corvette at each kind, over random hazards."""
    import random

    from rulesdsl.semantics import facing as semantics_facing

    rs = compiled("void_patrol")
    rng = random.Random(246)
    steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    features = ("open_space", "nebula", "asteroids", "debris", "gravity_well")
    for _ in range(200):
        place, heading = (0, 0), 0
        places = {place: ("open_space",)}
        route = [(place, heading)]
        actions = []
        for _ in range(rng.randint(1, 6)):
            if rng.random() < 0.25:
                heading = (heading + 1) % 6
                route.append((place, heading))
                actions.append(semantics_facing.Action("turn"))
                continue
            dq, dr = steps[heading]
            place = (place[0] + dq, place[1] + dr)
            places[place] = (rng.choice(features),)
            actions.append(semantics_facing.Action("forward", places[place]))
            route.append((place, heading))
        mode = rng.choice(("frigate", "corvette"))
        move = rng.choice((None, "cruise", "flank"))
        allowance = rng.choice((2.0, 4.0, 8.0))
        got = vp.route_cost(vp.Board(places, grid="sector"), mode, route, allowance, move)
        want = semantics_facing.route(rs, mode, actions, allowance, move)
        assert [(d.step, d.on, d.roll, d.modifier) for d in got.rolls] == [
            (d.step, d.on, d.roll, d.modifier) for d in want.rolls
        ], (mode, move, route)
        assert (got.legal, got.reason) == (want.legal, want.reason)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            (
                "On entering: roll Hazard roll (Hazard table)",
                "| Flank | \u00d7 2 | — | Asteroid field 4 |",
                "| Flank, at any speed | 3 |",
                "| Nebula | 0 (Flank: +2) |",
                "Frigate, Nebula, on entering for the first time | Survey roll, 0 |",
            ),
        ),
        (
            "fr",
            (
                "En entrant : lancer Jet de danger (Table des dangers)",
                "| Pleine poussée | \u00d7 2 | — | Champ d\u2019astéroïdes 4 |",
                "| Pleine poussée, à toute vitesse | 3 |",
                "| Nébuleuse | 0 (Pleine poussée : +2) |",
                "Nébuleuse, en entrant pour la première fois | Jet de relevé, 0 |",
            ),
        ),
    ],
)
def test_void_patrols_sheets_print_its_kinds_hazard_roll_and_flank_turn_modes(
    lang: str, words: tuple[str, ...]
) -> None:
    text = sheet("void_patrol", "md", lang)
    for line in words:
        assert line in text, line


def test_a_void_patrol_house_rule_overrides_a_hazard_and_the_frigates_turns_at_flank(
    tmp_path: Path,
) -> None:
    import shutil

    from rulesdsl.versions import diff as semantic

    shutil.copy(RULESETS / "void_patrol.terrain", tmp_path)
    (tmp_path / "vp_house.terrain").write_text(
        'ruleset vp_house "House" fr "Maison"\nversion 1.1.0\nlanguages en fr\n'
        "extends void_patrol@^1.1\n"
        "override nebula.hazard | +1, flank +4\n"
        "facing frigate on sector : turn 1 MP per hexside, turn mode 2, turn mode 4 at flank\n"
        "remove example hazards_roll_worse_at_flank\nremove example frigate_at_flank\n"
        "remove example frigate_turn_mode\n",
        "utf-8",
    )
    compiler = Compiler()
    base = compiler.compile_file(tmp_path / "void_patrol.terrain").ruleset
    house = compiler.compile_file(tmp_path / "vp_house.terrain")
    assert house.ok and house.ruleset is not None and base is not None, [
        (d.code, d.message) for d in house.diagnostics
    ]
    m = import_rendered(house.ruleset, tmp_path, "vp_house_module")
    assert [d.modifier for d in m.rolls_due("frigate", "nebula", move="flank")] == [4]
    assert m.FACINGS["frigate"].turn_modes_by_move == (("flank", 4),)
    found = [(c.level, c.path) for c in semantic.diff(base, house.ruleset).changes]
    assert ("breaking", "facing.frigate.turn_mode") in found
    # the flank entry 2 -> 4 is a rules change, listed once for the cell (issue 39)
    assert ("rules", "hazard.nebula (flank)") in found
