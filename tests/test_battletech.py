"""RULES.md section 2 (BattleTech Tactical Operations), checked against the generated module.

Numbers beyond RULES.md come from docs/sources/battletech.md and are cited in the ruleset.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesdsl.compiler import Compiler
from tests.conftest import compile_snippet, load_generated

bt = load_generated("battletech_tacops")

WOODS_HEX = ("light_woods", "deep_snow", "mud")
JUNGLE_HEX = ("ultra_heavy_jungle", "mud", "deep_snow")
INFANTRY = "conventional_infantry"


# ---- the worked example: movement ---------------------------------------------------------


def test_a_mech_into_light_woods_deep_snow_and_mud_pays_4_mp() -> None:
    assert bt.move_cost("mech", *WOODS_HEX) == 4


def test_infantry_into_the_same_hex_pays_3_mp_nothing_for_light_woods() -> None:
    assert bt.move_cost(INFANTRY, *WOODS_HEX) == 3
    assert bt.move_cost(INFANTRY, "light_woods") == 1


def test_infantry_into_ultra_heavy_jungle_mud_and_deep_snow_pays_7_mp() -> None:
    assert bt.move_cost(INFANTRY, *JUNGLE_HEX) == 7


def test_a_mech_is_prohibited_from_ultra_heavy_jungle() -> None:
    assert bt.move_cost("mech", *JUNGLE_HEX) is bt.PROHIBITED
    assert bt.move_cost("mech", "ultra_heavy_jungle") is bt.PROHIBITED
    assert not bt.can_enter("mech", *JUNGLE_HEX, available=10)


@pytest.mark.parametrize("hex_features", [WOODS_HEX, JUNGLE_HEX])
def test_infantry_with_2_mp_enters_both_hexes_by_minimum_movement(
    hex_features: tuple[str, ...],
) -> None:
    assert bt.MINIMUM_MOVE
    assert bt.move_cost(INFANTRY, *hex_features) > 2
    assert bt.can_enter(INFANTRY, *hex_features, available=2)


def test_entering_any_hex_costs_1_mp() -> None:
    assert bt.ENTRY_COST == 1
    assert bt.move_cost("mech", "clear") == 1
    assert bt.move_cost("tracked", "clear", "blizzard") == 1


def _bog_down(mode: str, *features: str) -> list[int]:
    """The modifiers of the bog-down rolls ``mode`` makes on entering the place."""
    return [due.modifier for due in bt.rolls_due(mode, *features) if due.roll == "bog_down"]


def test_mud_and_deep_snow_in_one_hex_call_for_one_bog_down_roll() -> None:
    assert _bog_down("tracked", "clear", "mud") == [-1]
    assert _bog_down("tracked", "clear", "deep_snow") == [-1]
    assert _bog_down("tracked", *WOODS_HEX) == [-1]
    assert _bog_down("tracked", "light_woods") == []


def test_the_bog_down_roll_is_the_one_answer_to_who_rolls_and_how_often() -> None:
    # Issue 43 item 3: a modifier counting bog-down rolls gave a Mech in mud 1 roll where
    # rolls_due gave it none; the roll alone answers now.
    assert "bog_down_rolls" not in bt.MODIFIERS
    with pytest.raises(KeyError):
        bt.modifier("bog_down_rolls", "mud")
    assert _bog_down("mech", "clear", "mud") == []
    assert _bog_down("mech", *WOODS_HEX) == [-1]  # deep snow bogs a Mech, mud does not


def test_infantry_bog_down_in_mud_at_0_as_megamek() -> None:
    # MegaMek units/Terrain.java getBogDownModifier, MUD: biped and quad never; leg, motorized,
    # jump and UMU infantry 0 ("any kind of infantry just gets a flat roll"); others -1.
    for mode in (INFANTRY, "battle_armor"):
        assert _bog_down(mode, "clear", "mud") == [0], mode
    for mode in ("tracked", "wheeled", "large_vehicle"):
        assert _bog_down(mode, "clear", "mud") == [-1], mode


def test_a_hex_of_mud_and_deep_snow_bogs_infantry_at_its_worst_terrain() -> None:
    # MegaMek's Hex.getBogDownModifier takes the worst (highest) of its terrains: mud 0 beats
    # deep snow -1 for infantry.
    assert _bog_down(INFANTRY, "clear", "deep_snow") == [-1]
    assert _bog_down(INFANTRY, *WOODS_HEX) == [0]
    assert _bog_down("battle_armor", *JUNGLE_HEX) == [0]
    assert (
        "| Rolls due: Conventional infantry (foot, jump, motorized), Light woods, Deep snow, Mud "
        "| Bog-down roll, 0 |" in SHEET_EN
    )


def test_no_unit_type_is_due_a_roll_on_a_place_it_may_not_enter() -> None:
    # Issue 43 item 4: wheeled vehicles may not enter piles of level 2 or 3, nor deep snow.
    assert bt.move_cost("wheeled", "gravel_pile_2") is bt.PROHIBITED
    assert bt.rolls_due("wheeled", "gravel_pile_2") == ()
    assert bt.rolls_due("wheeled", "clear", "deep_snow") == ()
    for mode in bt.MODES:
        for feature, info in bt.FEATURES.items():
            if info.layer in ("condition", "weather"):
                continue
            if bt.move_cost(mode, feature) in (bt.PROHIBITED, bt.IMPASSABLE):
                assert bt.rolls_due(mode, feature) == (), (mode, feature)


def test_one_base_terrain_per_hex() -> None:
    with pytest.raises(bt.InvalidPlace):
        bt.move_cost("mech", "light_woods", "rough")


# ---- the worked example: to-hit in a blizzard ---------------------------------------------


@pytest.mark.parametrize(
    ("target", "ballistic", "other"),
    [
        ("light_woods", 3, 2),
        ("ultra_heavy_jungle", 5, 4),
    ],
)
def test_blizzard_to_hit_into_the_hex(target: str, ballistic: int, other: int) -> None:
    assert bt.modifier("to_hit", target, "blizzard", weapon="ballistic") == ballistic
    for weapon in ("energy", "missile"):
        assert bt.modifier("to_hit", target, "blizzard", weapon=weapon) == other


def test_to_hit_without_weather_is_the_terrain_alone() -> None:
    assert bt.modifier("to_hit", "light_woods", weapon="ballistic") == 1
    assert bt.modifier("to_hit", "ultra_heavy_jungle", weapon="energy") == 3
    assert bt.modifier("to_hit", "heavy_industrial", weapon="missile") == 1


def test_heavy_fog_hinders_energy_weapons_only() -> None:
    assert bt.modifier("to_hit", "clear", "heavy_fog", weapon="energy") == 1
    assert bt.modifier("to_hit", "clear", "heavy_fog", weapon="ballistic") == 0


def test_an_unknown_weapon_class_suggests_the_right_one() -> None:
    with pytest.raises(bt.UnknownName, match="ballistic"):
        bt.modifier("to_hit", "light_woods", weapon="balistic")


# ---- the Terrain Effects table ------------------------------------------------------------

EXPECTED_ROWS = {
    **dict.fromkeys(range(2, 8), "no_effect"),
    8: "fire",
    9: "power_lines",
    10: "minor_explosion",
    11: "electrical_explosion",
    **dict.fromkeys(range(12, 17), "major_explosion"),
}


@pytest.mark.parametrize(("total", "row"), sorted(EXPECTED_ROWS.items()))
def test_terrain_effects_row_for_every_total_from_2_to_16(total: int, row: str) -> None:
    assert bt.roll("terrain_effects", total).id == row


def test_an_electrical_explosion_deals_1d6_plus_3_to_a_random_location() -> None:
    effects = bt.roll("terrain_effects", 11).effects
    assert effects["damage"] == bt.Dice(1, 6, 3)
    assert effects["location"] == "random"
    assert "ignites" not in effects


def test_power_lines_deal_3_and_a_minor_explosion_5() -> None:
    assert bt.roll("terrain_effects", 9).effects["damage"] == 3
    assert bt.roll("terrain_effects", 10).effects["damage"] == 5


def test_a_major_explosion_deals_2d6_with_1d6_inferno_hits() -> None:
    effects = bt.roll("terrain_effects", 12).effects
    assert effects["damage"] == bt.Dice(2, 6, 0)
    assert effects["inferno"] == bt.Dice(1, 6, 0)


@pytest.mark.parametrize("total", [8, 10, 12])
def test_8_10_and_12_set_the_hex_on_fire(total: int) -> None:
    assert bt.roll("terrain_effects", total).effects.get("ignites") is True


@pytest.mark.parametrize("total", [2, 7, 9, 11])
def test_other_totals_do_not_set_the_hex_on_fire(total: int) -> None:
    assert "ignites" not in bt.roll("terrain_effects", total).effects


def test_the_roll_modifiers_of_landing_craft() -> None:
    assert bt.DICE_TABLES["terrain_effects"].modifiers == {
        "aerodyne_dropship": 2,
        "spheroid_dropship": 4,
        "small_craft": 2,
    }


def test_a_missed_shot_starts_a_fire_with_chance_15_36_times_9_36() -> None:
    trigger = bt.TRIGGERS["missed_shot"]
    table = bt.DICE_TABLES[trigger.table]
    assert trigger.modifier is None
    assert trigger.check == bt.Dice(2, 6, 0) and trigger.at_least == 8
    fire = sum((row.chance for row in table.rows if row.effects.get("ignites")), Fraction(0))
    assert trigger.check_chance * fire == Fraction(15, 36) * Fraction(9, 36)


def test_a_spheroid_dropship_landing_pushes_fire_chances_up() -> None:
    table = bt.DICE_TABLES["terrain_effects"]
    major = next(row for row in table.rows if row.id == "major_explosion")
    assert major.chance == Fraction(1, 36)
    assert major.chance_with["spheroid_dropship"] == Fraction(15, 36)  # 8+ on 2d6


@pytest.mark.parametrize(
    ("trigger", "modifier", "times", "checked"),
    [
        ("missed_shot", None, 1, True),
        ("area_attack", None, 1, True),
        ("aerospace_landing", None, 1, False),
        ("aerodyne_dropship_landing", "aerodyne_dropship", 1, False),
        ("spheroid_landing", "spheroid_dropship", 1, False),
        ("spheroid_landing_high", "spheroid_dropship", 2, False),
        ("small_craft_landing", "small_craft", 1, False),
        ("airship_entry", None, 3, False),
        ("burning_zone", None, 1, False),
    ],
)
def test_what_rolls_on_the_terrain_effects_table(
    trigger: str, modifier: str | None, times: int, checked: bool
) -> None:
    t = bt.TRIGGERS[trigger]
    assert (t.table, t.modifier, t.times) == ("terrain_effects", modifier, times)
    assert (t.check is not None) is checked
    assert t.check_chance == (Fraction(15, 36) if checked else 1)


# ---- gravel piles ------------------------------------------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_mech_pays_the_pile_level_and_pilots_at_plus_the_level(level: int) -> None:
    pile = f"gravel_pile_{level}"
    assert bt.move_cost("mech", pile) == 1 + level
    assert bt.modifier("piloting", pile, mode="mech") == level


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_hover_cannot_enter_a_gravel_pile(level: int) -> None:
    assert bt.move_cost("hover", f"gravel_pile_{level}") is bt.PROHIBITED
    assert not bt.can_enter("hover", f"gravel_pile_{level}", available=10)


def test_a_wheeled_vehicle_enters_a_level_1_pile_only() -> None:
    assert bt.move_cost("wheeled", "gravel_pile_1") == 2
    assert bt.move_cost("wheeled", "gravel_pile_2") is bt.PROHIBITED
    assert bt.move_cost("wheeled", "gravel_pile_3") is bt.PROHIBITED


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_large_vehicle_pays_1_mp_flat_and_ignores_the_piloting_modifier(level: int) -> None:
    pile = f"gravel_pile_{level}"
    assert bt.move_cost("large_vehicle", pile) == 2
    assert bt.modifier("piloting", pile, mode="large_vehicle") == 0


@pytest.mark.parametrize("level", [1, 2, 3])
def test_infantry_pay_no_extra_mp_in_a_gravel_pile(level: int) -> None:
    assert bt.move_cost(INFANTRY, f"gravel_pile_{level}") == 1
    assert bt.move_cost("battle_armor", f"gravel_pile_{level}") == 1


def test_a_gravel_pile_ignores_the_other_terrain_of_the_hex() -> None:
    assert bt.move_cost("mech", "gravel_pile_2", "mud", "deep_snow") == 3
    assert bt.move_cost("wheeled", "gravel_pile_1", "deep_snow") == 2


# ---- other terrain ------------------------------------------------------------------------


def test_a_heavy_industrial_zone_costs_a_mech_1_mp_more() -> None:
    assert bt.move_cost("mech", "heavy_industrial") == 2
    assert bt.move_cost("tracked", "heavy_industrial") == 1
    assert bt.move_cost(INFANTRY, "heavy_industrial") == 1


@pytest.mark.parametrize(
    ("mode", "light", "heavy", "ultra"),
    [
        ("mech", 2, 3, bt.PROHIBITED),
        ("protomech", 2, 3, bt.PROHIBITED),
        ("tracked", 2, bt.PROHIBITED, bt.PROHIBITED),
        ("wheeled", bt.PROHIBITED, bt.PROHIBITED, bt.PROHIBITED),
        ("hover", bt.PROHIBITED, bt.PROHIBITED, bt.PROHIBITED),
        ("vtol", 1, 1, 1),
        (INFANTRY, 1, 2, 3),
    ],
)
def test_woods_by_unit_type(mode: str, light: object, heavy: object, ultra: object) -> None:
    assert bt.move_cost(mode, "light_woods") == light
    assert bt.move_cost(mode, "heavy_woods") == heavy
    assert bt.move_cost(mode, "ultra_heavy_woods") == ultra


@pytest.mark.parametrize(
    ("jungle", "mech", "infantry", "to_hit"),
    [
        ("light_jungle", 3, 3, 1),
        ("heavy_jungle", 4, 4, 2),
        ("ultra_heavy_jungle", bt.PROHIBITED, 5, 3),
    ],
)
def test_jungle_costs_and_fires_like_woods(
    jungle: str, mech: object, infantry: int, to_hit: int
) -> None:
    assert bt.move_cost("mech", jungle) == mech
    assert bt.move_cost(INFANTRY, jungle) == infantry
    assert bt.move_cost("tracked", jungle) is bt.PROHIBITED
    assert bt.modifier("to_hit", jungle, weapon="physical") == to_hit


def test_wheeled_vehicles_cannot_enter_deep_snow_or_rough() -> None:
    assert bt.move_cost("wheeled", "clear", "deep_snow") is bt.PROHIBITED
    assert bt.move_cost("wheeled", "rough") is bt.PROHIBITED
    assert bt.move_cost("wheeled", "clear", "mud") == 2


def test_hovers_skim_over_mud_and_deep_snow() -> None:
    assert bt.move_cost("hover", "clear", "mud", "deep_snow") == 1
    # Issue 16: deep snow is +1 to pilot for hovers too (mud is not); the old 0 was wrong.
    assert bt.modifier("piloting", "mud", "deep_snow", mode="hover") == 1
    assert bt.modifier("piloting", "mud", "deep_snow", mode="mech") == 2


def test_frozen_mud_is_rough() -> None:
    for mode in bt.MODES:
        assert bt.move_cost(mode, "clear", "frozen_mud") == bt.move_cost(mode, "rough")
    assert bt.rolls_due(mode, "clear", "frozen_mud") == ()


def test_ice_is_plus_4_to_pilot_but_not_for_hovers() -> None:
    assert bt.modifier("piloting", "ice", mode="tracked") == 4
    assert bt.modifier("piloting", "ice", mode="hover") == 0


def test_labels_are_in_english_and_russian() -> None:
    assert bt.RULESET.languages == ("en", "ru")
    assert bt.MODES["mech"].label == {"en": "BattleMech", "ru": "Мех"}  # noqa: RUF001
    assert all(set(f.label) == {"en", "ru"} for f in bt.FEATURES.values())


def test_the_four_layers_with_heavy_industrial_zones_and_gravel_piles_over_them() -> None:
    # Issue 16: gravel piles lie on any hex, so they left the one-per-hex base layer for a
    # layer of their own (one pile per hex). Issue 28: a heavy industrial zone lies on a clear
    # or paved hex, so it left the base layer too.
    assert [(layer.id, layer.scope) for layer in bt.LAYERS.values()] == [
        ("base", "one"),
        ("industrial", "one"),
        ("gravel", "one"),
        ("modification", "many"),
        ("condition", "map"),
        ("weather", "map"),
    ]


# ---- exclusions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cold", ["ice", "deep_snow", "light_snowfall", "heavy_snowfall", "blizzard"]
)
def test_extreme_heat_with_ice_snow_or_snowfall_warns(cold: str) -> None:
    place = ("clear", cold, "extreme_heat")
    with pytest.warns(bt.ConflictWarning, match="extreme_heat"):
        bt.move_cost("mech", *place)
    assert bt.conflicts(*place) == (f"{min(cold, 'extreme_heat')} + {max(cold, 'extreme_heat')}",)


def test_extreme_heat_alone_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert bt.move_cost("mech", "clear", "mud", "extreme_heat") == 2
        assert bt.modifier("to_hit", "light_woods", "extreme_heat", weapon="energy") == 1


# ---- the compiler's coverage check on dice tables -----------------------------------------

HEADER = 'ruleset t "T"\nversion 1.0.0\n'


def _dice_errors(compiler: Compiler, body: str, tmp_path: Path) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, HEADER + body, tmp_path)
    return [
        (d.code, d.pos.line, d.pos.column)
        for d in compiled.diagnostics
        if d.is_error and d.pos is not None
    ]


def test_a_dice_table_with_a_gap_is_e301(compiler: Compiler, tmp_path: Path) -> None:
    body = 'dice effects "E" : 2d6 {\n  2-7 nothing "N"\n  9-12 boom "B"\n}\n'
    assert _dice_errors(compiler, body, tmp_path) == [("E301", 3, 6)]


def test_overlapping_dice_rows_are_e302(compiler: Compiler, tmp_path: Path) -> None:
    body = 'dice effects "E" : 2d6 {\n  2-8 nothing "N"\n  8-12 boom "B"\n}\n'
    assert _dice_errors(compiler, body, tmp_path) == [("E302", 5, 3)]


def test_a_plus_4_modifier_without_an_open_last_row_is_e303(
    compiler: Compiler, tmp_path: Path
) -> None:
    body = (
        'dice effects "E" : 2d6 {\n  modifier dropship "D" +4\n  2-7 nothing "N"\n'
        '  8-12 boom "B"\n}\n'
    )
    assert _dice_errors(compiler, body, tmp_path) == [("E303", 3, 6)]
    fixed = body.replace("8-12", "8+")
    assert _dice_errors(compiler, fixed, tmp_path) == []


# ---- the language: a modifier keyed by unit type (`by mode`) -------------------------------

BY_MODE = (
    HEADER
    + """mode mech "M"
mode tracked "T"
mode hover "H"
group vehicle "V": tracked, hover
modifier piloting "P" by mode
layer terrain "T" {
  columns cost, piloting
  mud "Mud" | 1 | 1, vehicle 2, hover 0
}
"""
)


def test_a_modifier_by_mode_expands_groups_and_lets_a_mode_win(
    compiler: Compiler, tmp_path: Path
) -> None:
    compiled = compile_snippet(compiler, BY_MODE, tmp_path)
    assert compiled.ok and compiled.ruleset is not None
    values = compiled.ruleset.modifiers[0].values["mud"]
    assert {k: v.value for k, v in values.items()} == {"": 1, "tracked": 2, "hover": 0}


def test_a_modifier_by_mode_rejects_an_unknown_unit_type(
    compiler: Compiler, tmp_path: Path
) -> None:
    compiled = compile_snippet(compiler, BY_MODE.replace("hover 0", "hovre 0"), tmp_path)
    assert [(d.code, d.pos.line if d.pos else 0) for d in compiled.diagnostics if d.is_error] == [
        ("E101", 10)
    ]


def test_a_gravel_pile_silences_other_terrain_in_the_hex_for_piloting_too() -> None:
    # "Only the hex level counts, other terrain in the hex is ignored": mud's +1 piloting
    # does not add in a level-2 pile, and the pile alone gives +2.
    assert bt.modifier("piloting", "gravel_pile_2", "mud", mode="mech") == 2
    assert bt.move_cost("mech", "gravel_pile_2", "mud") == 3


# ---- issue 16: rules fidelity -------------------------------------------------------------

SHEETS = Path(__file__).resolve().parent.parent / "generated" / "sheets"
SHEET_EN = (SHEETS / "battletech_tacops.en.md").read_text(encoding="utf-8")
SHEET_RU = (SHEETS / "battletech_tacops.ru.md").read_text(encoding="utf-8")
PRECIPITATION = (
    "light_rain",
    "moderate_rain",
    "heavy_rain",
    "torrential_downpour",
    "light_snowfall",
    "moderate_snowfall",
    "heavy_snowfall",
    "blizzard",
)


def _readings(feature: str) -> list[str]:
    return [note["en"] for note in bt.FEATURES[feature].notes if note["en"].startswith("Reading")]


def test_a_gravel_pile_on_a_woods_hex_ignores_the_woods() -> None:
    # Seed: a pile "may be set on any hex ... any other terrain (woods, water...) is ignored".
    assert bt.move_cost("mech", "gravel_pile_1", "light_woods") == 2
    assert bt.move_cost("tracked", "gravel_pile_2", "heavy_woods") == 3
    assert bt.modifier("to_hit", "gravel_pile_1", "light_woods", weapon="ballistic") == 0
    assert bt.modifier("piloting", "gravel_pile_3", "ultra_heavy_jungle", mode="mech") == 3


def test_one_gravel_pile_per_hex() -> None:
    with pytest.raises(bt.InvalidPlace):
        bt.move_cost("mech", "gravel_pile_1", "gravel_pile_2")


def test_gravel_piles_cite_their_source() -> None:
    for level in (1, 2, 3):
        assert bt.FEATURES[f"gravel_pile_{level}"].source == "Tactical Operations, Gravel piles"


def test_a_wige_at_ground_level_is_prohibited_from_a_heavy_industrial_zone() -> None:
    assert bt.move_cost("wige", "heavy_industrial") is bt.PROHIBITED
    assert bt.move_cost("wige", "light_woods") is bt.PROHIBITED
    assert bt.move_cost("hover", "heavy_industrial") == 1


def test_deep_snow_is_plus_1_to_pilot_for_every_unit_type_hovers_and_wige_included() -> None:
    for mode in bt.MODES:
        assert bt.modifier("piloting", "deep_snow", mode=mode) == 1
    # the hover/WiGE exception stays on mud and ice
    assert bt.modifier("piloting", "mud", mode="wige") == 0
    assert bt.modifier("piloting", "ice", mode="wige") == 0


@pytest.mark.parametrize(
    ("deviation", "penalty"), [(0, 0), (0.19, 0), (0.2, 1), (0.4, 2), (0.5, 2), (0.8, 4), (1.0, 5)]
)
def test_gravity_to_hit_is_1_per_full_0_2_g_away_from_1_g(deviation: float, penalty: int) -> None:
    # MegaMek: floor(|g - 1| / 0.2) for direct-fire ballistic and missile attacks.
    assert bt.gravity_to_hit(deviation) == penalty


def test_gravity_to_hit_at_1_6_g_is_3() -> None:
    assert bt.gravity_to_hit(0.6) == 3


@pytest.mark.parametrize("gravity", ["high_gravity", "low_gravity"])
@pytest.mark.parametrize(("weapon", "penalty"), [("ballistic", 3), ("missile", 3), ("energy", 0)])
def test_gravity_to_hit_is_the_gravity_step_for_ballistic_and_missile_attacks_only(
    gravity: str, weapon: str, penalty: int
) -> None:
    # MegaMek: floor(|g - 1| / 0.2) for direct-fire ballistic and missile attacks; 1.6 g or
    # 0.4 g is 0.6 g from 1 g
    assert bt.modifier("to_hit", gravity, weapon=weapon, deviation=0.6) == penalty
    assert bt.modifier("to_hit", gravity, weapon="physical", deviation=0.6) == 0


def test_gravity_to_hit_adds_to_the_hex_it_fires_into() -> None:
    woods = ("light_woods", "high_gravity")
    assert bt.modifier("to_hit", *woods, weapon="ballistic", deviation=0.6) == 4
    assert bt.modifier("to_hit", *woods, weapon="energy", deviation=0.6) == 1


def test_gravity_to_hit_without_the_deviation_is_an_error_naming_it() -> None:
    with pytest.raises(bt.InvalidArgument, match="'deviation' must be given"):
        bt.modifier("to_hit", "high_gravity", weapon="ballistic")


def test_gravity_to_hit_holds_the_step_in_the_gravity_rows() -> None:
    for gravity in ("high_gravity", "low_gravity"):
        cell = bt.MODIFIERS["to_hit"][gravity]
        assert cell["ballistic"] == cell["missile"] == bt.StepCost("gravity_to_hit", "deviation")
        assert cell[""] == 0


def test_the_gravity_rows_state_the_piloting_rule_and_print_the_to_hit_step() -> None:
    for gravity in ("high_gravity", "low_gravity"):
        [note] = bt.FEATURES[gravity].notes
        assert "piloting +1 per full 0.5 g of |g - 1|" in note["en"]
    assert "### Gravity to-hit" in SHEET_EN
    assert "### Gravity piloting" in SHEET_EN
    assert (
        "| High gravity³ (MegaMek) | 0 | per step: Gravity to-hit | 0 "
        "| per step: Gravity piloting |" in SHEET_EN
    )
    assert (
        "| Высокая гравитация³ (MegaMek) | 0 | по шкале: Гравитация: попадание | 0 "
        "| по шкале: Гравитация: пилотирование |" in SHEET_RU
    )


def test_gravity_piloting_is_1_per_full_0_5_g_away_from_1_g_a_stated_reading() -> None:
    # Issue 43 item 2: MegaMek's getGravityPilotPenalty, floor(|g - 1| / 0.5), for every unit
    # type; before, the call gave 0 without a word.
    for mode in bt.MODES:
        assert bt.modifier("piloting", "high_gravity", mode=mode, deviation=0.6) == 1
    assert bt.modifier("piloting", "low_gravity", mode="tracked", deviation=0.4) == 0
    assert bt.modifier("piloting", "high_gravity", mode="mech", deviation=1.0) == 2
    with pytest.raises(bt.InvalidArgument, match="deviation"):
        bt.modifier("piloting", "high_gravity", mode="mech")
    for gravity in ("high_gravity", "low_gravity"):
        [reading] = _readings(gravity)
        assert 'names "vacuum, high or low gravity" but gives no number' in reading
    assert "«вакуум, высокая или низкая гравитации»" in SHEET_RU


def test_megamek_citations_name_the_current_paths() -> None:
    sources = [f.source for f in bt.FEATURES.values() if f.source.startswith("MegaMek")]
    assert sources
    for source in sources:
        for old in (
            " Compute.java",
            " PlanetaryConditions.java",
            " Infantry.java",
            " Terrain.java",
            " Tank.java",
            " MoveStep.java",
        ):
            assert old not in source, source
    assert any("planetaryConditions/PlanetaryConditions.java" in s for s in sources)
    assert any("units/Terrain.java" in s for s in sources)


def test_no_page_is_cited_that_the_seed_does_not_give() -> None:
    # The seed gives TO p.32 for the expanded movement table only.
    for feature in ("blizzard", "frozen_mud", "rough", "rubble"):
        assert "p.32" not in bt.FEATURES[feature].source, feature
    for feature in ("rough", "rubble"):
        assert bt.FEATURES[feature].source.startswith("MegaMek"), feature
    assert "p.32" not in SHEET_EN.split("### Terrain Effects", 1)[1].split("\n\n", 3)[1]


# ---- readings taken, stated in the ruleset and on the sheet --------------------------------


@pytest.mark.parametrize(
    "hex_features",
    [("mud", "swamp"), ("swamp", "deep_snow"), ("mud", "swamp", "deep_snow"), ("swamp",)],
)
def test_one_bog_down_roll_on_entering_whatever_the_bog_down_terrains(
    hex_features: tuple[str, ...],
) -> None:
    assert len(_bog_down("tracked", "clear", *hex_features)) == 1


def test_a_mech_stands_2_levels_so_only_piles_of_2_and_3_bog_it_a_stated_reading() -> None:
    # Issue 43 item 8: stated in a comment only before; now a note on the sheet and BT19.
    assert _bog_down("mech", "gravel_pile_1") == []
    assert _bog_down("mech", "gravel_pile_2") == [0]
    assert _bog_down("mech", "gravel_pile_3") == [0]
    readings = _readings("gravel_pile_1")
    assert any(
        "a Mech stands 2 levels" in r and "equal to or higher than their height" in r
        for r in readings
    )
    assert "Reading: a Mech stands 2 levels" in SHEET_EN
    assert "равную или более высокую, чем их уровень высоты" in SHEET_RU
    readings_md = (Path(__file__).parent.parent / "docs/sources/readings.md").read_text("utf-8")
    assert (
        "test_a_mech_stands_2_levels_so_only_piles_of_2_and_3_bog_it_a_stated_reading"
        in readings_md
    )


def test_the_one_roll_reading_is_on_the_sheet() -> None:
    assert "Reading: one roll on entering a hex" in SHEET_EN
    assert "производится только один бросок при вхождении в гекс" in SHEET_RU


def test_frozen_mud_counts_as_rough_for_every_unit_type_a_stated_reading() -> None:
    assert bt.move_cost("wheeled", "clear", "frozen_mud") is bt.PROHIBITED
    assert bt.move_cost("hover", "clear", "frozen_mud") == 2
    assert bt.move_cost("mech", "clear", "frozen_mud") == 2
    [reading] = _readings("frozen_mud")
    assert "only promises the Mech the same MP" in reading


@pytest.mark.parametrize("weather", PRECIPITATION)
def test_weather_to_hit_applies_to_weapon_attacks_not_physical_attacks(weather: str) -> None:
    assert bt.modifier("to_hit", "clear", weather, weapon="physical") == 0
    assert bt.modifier("to_hit", "clear", weather, weapon="ballistic") >= 0


def test_heavy_industrial_to_hit_is_for_weapon_attacks_a_stated_reading() -> None:
    assert bt.modifier("to_hit", "heavy_industrial", weapon="physical") == 0
    for weapon in ("ballistic", "energy", "missile"):
        assert bt.modifier("to_hit", "heavy_industrial", weapon=weapon) == 1
    [reading] = _readings("heavy_industrial")
    assert "for all weapon attacks" in reading
    assert "Reading: weather to-hit applies to weapon attacks only" in SHEET_EN


def test_large_vehicles_pay_1_mp_extra_on_every_pile_a_stated_reading() -> None:
    [reading] = [r for r in _readings("gravel_pile_1") if "large vehicles" in r]
    assert "still pay 1 MP to enter" in reading
    assert "оплачивают 1 ОД для входа в гекс с кучей гравия" in SHEET_RU  # noqa: RUF001


def test_a_large_vehicle_moves_as_tracked_outside_gravel_piles_a_stated_reading() -> None:
    for feature in bt.FEATURES.values():
        if feature.layer in ("base", "modification"):
            assert feature.costs["large_vehicle"] == feature.costs["tracked"], feature.id
    [reading] = _readings("heavy_woods")
    assert "as a tracked vehicle" in reading


def test_airships_pay_1_mp_a_hex_everywhere_a_stated_reading() -> None:
    for feature in bt.FEATURES:
        if bt.FEATURES[feature].layer != "weather":
            assert bt.move_cost("airship", feature) == 1, feature
    [reading] = _readings("clear")
    assert "VTOLs pay 1 for everything" in reading


def test_any_spheroid_unit_of_level_6_or_more_rolls_twice_small_craft_included() -> None:
    trigger = bt.TRIGGERS["small_craft_landing_high"]
    assert (trigger.table, trigger.modifier, trigger.times) == ("terrain_effects", "small_craft", 2)
    assert "сфероидный аэрокосмический юнит с уровнем 6 или выше" in SHEET_RU  # noqa: RUF001


# ---- combinations the rules exclude --------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("frozen_mud", "mud"),
        ("blizzard", "torrential_downpour"),
        ("heavy_rain", "light_rain"),
        ("heavy_fog", "light_fog"),
        ("extreme_cold", "extreme_heat"),
        ("high_gravity", "low_gravity"),
        ("light_rain", "vacuum"),
        ("thin_atmosphere", "vacuum"),
    ],
)
def test_combinations_the_rules_exclude_warn(first: str, second: str) -> None:
    with pytest.warns(bt.ConflictWarning, match=first):
        bt.move_cost("mech", "clear", first, second)
    assert bt.conflicts(first, second) == (f"{first} + {second}",)


def test_precipitations_exclude_each_other_pairwise() -> None:
    for i, first in enumerate(PRECIPITATION):
        for second in PRECIPITATION[i + 1 :]:
            assert bt.conflicts(first, second), (first, second)


def test_one_weather_of_each_kind_combines_without_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        place = ("clear", "mud", "heavy_snowfall", "light_fog", "extreme_cold", "high_gravity")
        assert bt.move_cost("mech", *place) == 2
        assert bt.conflicts(*place) == ()


def test_the_sheet_shows_the_exclusions() -> None:
    assert "One precipitation at a time" in SHEET_EN
    assert "Одновременно только одни осадки" in SHEET_RU


# ---- labels in the seed's own words (issue 13, item 4) --------------------------------------


@pytest.mark.parametrize(
    ("feature", "label"),
    [
        ("blizzard", "Снежная буря"),
        ("rough", "Неровная местность"),
        ("clear", "Ровная местность"),
        ("high_gravity", "Высокая гравитация"),
        ("low_gravity", "Низкая гравитация"),
        ("extreme_heat", "Экстремальная жара (выше 50 °C)"),
        ("heavy_industrial", "Плотная промышленная зона"),
    ],
)
def test_russian_labels_follow_the_seed(feature: str, label: str) -> None:
    assert bt.FEATURES[feature].label["ru"] == label


def test_russian_unit_and_weapon_labels_follow_the_seed() -> None:
    assert bt.MODES["wheeled"].label["ru"] == "Колёсное транспортное средство"
    assert bt.MODES["tracked"].label["ru"] == "Гусеничное транспортное средство"
    assert bt.LAYERS["weather"].label["ru"] == "Погодные условия"
    assert "Буран" not in SHEET_RU


# ---- line of sight: the `los` rule (sight ... blocks at 3, counts between) ---------------


def test_three_intervening_heavy_industrial_hexes_block_line_of_sight() -> None:
    """The seed: "as with woods hexes, 3 intervening heavy industrial zone hexes block line
    of sight" [to "Heavy industrial zone"]."""
    clear, industrial = ("clear",), ("heavy_industrial",)
    two = bt.line_of_sight("los", clear, industrial, industrial, clear)
    assert (two.hindrance, two.blocked) == (2, False)
    three = bt.line_of_sight("los", clear, industrial, industrial, industrial, clear)
    assert (three.hindrance, three.blocked) == (3, True)


def test_the_firer_and_target_hexes_do_not_count_only_intervening_ones() -> None:
    industrial = ("heavy_industrial",)
    line = bt.line_of_sight("los", industrial, industrial, industrial, industrial)
    assert (line.hindrance, line.blocked, line.by_place) == (2, False, (0, 1, 1, 0))


def test_woods_add_up_light_1_heavy_2_and_a_single_ultra_heavy_hex_blocks() -> None:
    clear = ("clear",)
    woods = bt.line_of_sight("los", clear, ("heavy_woods",), ("light_woods",), clear)
    assert (woods.hindrance, woods.blocked) == (3, True)
    light = bt.line_of_sight("los", clear, ("light_woods",), ("light_woods",), clear)
    assert (light.hindrance, light.blocked) == (2, False)
    ultra = bt.line_of_sight("los", clear, ("ultra_heavy_woods",), clear)
    assert ultra.blocked and ultra.by_place[1] is bt.BLOCKED


def test_jungle_blocks_line_of_sight_like_woods() -> None:
    """The seed: jungle hexes affect line of sight "the same way as woods hexes"; ultra-heavy
    jungle like ultra-heavy woods."""
    for jungle, woods in (
        ("light_jungle", "light_woods"),
        ("heavy_jungle", "heavy_woods"),
        ("ultra_heavy_jungle", "ultra_heavy_woods"),
    ):
        assert bt.line_of_sight("los", (), (jungle,), ()) == bt.line_of_sight(
            "los", (), (woods,), ()
        )


# ---- issue 28: what a player would still call wrong ------------------------------------------


def test_a_unit_with_no_mp_left_cannot_make_the_minimum_move() -> None:
    # The seed's infantry "has only 2 ground MP" and enters by the minimum-movement rule; MegaMek
    # grants it as the first step to a unit whose walking MP is above 0 (moves/MoveStep.java,
    # "amnesty for the first step"). With nothing left to spend there is no minimum move.
    assert bt.can_enter(INFANTRY, *WOODS_HEX, available=2)
    assert not bt.can_enter(INFANTRY, *WOODS_HEX, available=0)
    assert not bt.can_enter("mech", "clear", available=0)
    assert not bt.can_enter(INFANTRY, *JUNGLE_HEX, available=0)


def test_a_route_or_a_reach_with_no_mp_makes_no_minimum_move() -> None:
    board = bt.Board(places={(0, 0): ("clear",), (1, 0): WOODS_HEX}, grid="hex")
    one_step = [(0, 0), (1, 0)]
    assert bt.route_cost(board, INFANTRY, one_step, allowance=2).legal
    route = bt.route_cost(board, INFANTRY, one_step, allowance=0)
    assert (route.legal, route.reason) == (False, "the route costs more than the allowance")
    assert dict(bt.reachable(board, INFANTRY, (0, 0), 2)) == {(0, 0): 0, (1, 0): 3}
    assert dict(bt.reachable(board, INFANTRY, (0, 0), 0)) == {(0, 0): 0}
    assert bt.cheapest_route(board, INFANTRY, (0, 0), (1, 0), allowance=0) is None


def test_the_sheet_says_the_minimum_move_needs_movement_left() -> None:
    assert "as its first step, if it has movement left" in SHEET_EN
    assert "первым шагом, если у него осталось движение" in SHEET_RU  # noqa: RUF001


def test_a_heavy_industrial_zone_lies_on_a_paved_or_clear_hex() -> None:
    # The seed: a zone "must be set on a clear or paved hex" («для ровного гекса или гекса
    # с дорожным покрытием»): it lies on the base terrain, it does not replace it.  # noqa: RUF003
    assert bt.FEATURES["heavy_industrial"].layer != bt.FEATURES["paved"].layer
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert bt.move_cost("mech", "paved", "heavy_industrial") == 2
        assert bt.move_cost("mech", "clear", "heavy_industrial") == 2
        assert bt.modifier("to_hit", "paved", "heavy_industrial", weapon="energy") == 1
    assert bt.move_cost("mech", "heavy_industrial") == 2


@pytest.mark.parametrize("base", ["light_woods", "heavy_jungle", "rough", "rubble", "sand"])
def test_a_heavy_industrial_zone_on_any_other_base_terrain_warns(base: str) -> None:
    assert bt.conflicts(base, "heavy_industrial")
    with pytest.warns(bt.ConflictWarning):
        bt.move_cost("mech", base, "heavy_industrial")


def test_a_wige_is_barred_from_gravel_piles_as_hovers_are_a_stated_reading() -> None:
    for level in (1, 2, 3):
        assert bt.move_cost("wige", f"gravel_pile_{level}") is bt.PROHIBITED
    [reading] = _readings("gravel_pile_2")
    assert "WiGEs are barred as hovers are" in reading
    assert "ховеры не могут входить" in SHEET_RU


def test_the_gravel_pile_rules_for_aerospace_units_are_on_the_sheet() -> None:
    assert "a non-spheroid unit landing or taking off takes crash damage" in SHEET_EN
    assert "a spheroid landing levels the pile" in SHEET_EN
    assert "несфероидный при посадке или взлёте получает урон падения" in SHEET_RU
    assert "сфероидный сравнивает кучу" in SHEET_RU


def _ir() -> Any:
    ruleset = Path(__file__).resolve().parent.parent / "rulesets" / "battletech_tacops.terrain"
    compiled = Compiler().compile_file(ruleset)
    assert compiled.ruleset is not None
    return compiled.ruleset


def test_the_airship_is_not_cited_to_megameks_vtol_only_rule() -> None:
    [airship] = [m for m in _ir().modes if m.id == "airship"]
    assert airship.info.source is not None
    assert airship.info.source.book == "to"  # the seed names airships in its table's key


def test_the_heavy_industrial_zone_cites_the_seeds_own_section() -> None:
    assert bt.FEATURES["heavy_industrial"].source.startswith("Tactical Operations")
    assert "Heavy industrial zones" in bt.FEATURES["heavy_industrial"].source
