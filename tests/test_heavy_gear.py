"""RULES.md section 1 (Heavy Gear), checked against the generated module."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from tests.conftest import load_generated

hg = load_generated("heavy_gear")


# ---- movement cost, MP per inch -------------------------------------------------------------


@pytest.mark.parametrize(
    ("terrain", "mode", "per_inch"),
    [
        ("clear", "walker", 1),
        ("clear", "ground", 1),
        ("clear", "hover", 1),
        ("soft", "walker", 3),
        ("soft", "ground", 2),
        ("soft", "hover", 2),
        ("rough", "walker", 3),
        ("rough", "ground", 3),
        ("rough", "hover", 3),
        ("very_rough", "walker", 3),
        ("road", "walker", 1),
        ("road", "hover", 1),
        ("road", "ground", 0.5),
        ("shallow_water", "walker", 2),
        ("shallow_water", "ground", 2),
        ("shallow_water", "hover", 1),
        ("deep_water", "hover", 1),
    ],
)
def test_movement_cost_per_inch(terrain: str, mode: str, per_inch: float) -> None:
    assert hg.move_cost(mode, terrain) == per_inch


def test_soft_ground_for_a_walker_over_3_inches_costs_9_mp() -> None:
    assert hg.move_cost("walker", "soft", distance=3) == 9


def test_road_for_ground_mode_over_4_inches_costs_2_mp() -> None:
    assert hg.move_cost("ground", "road", distance=4) == 2


@pytest.mark.parametrize("mode", ["ground", "hover"])
def test_very_rough_is_impassable_for_ground_and_hover(mode: str) -> None:
    assert hg.move_cost(mode, "very_rough") is hg.IMPASSABLE


@pytest.mark.parametrize("terrain", ["cliffs", "structure"])
@pytest.mark.parametrize("mode", ["walker", "ground", "hover"])
def test_cliffs_and_structures_are_impassable(terrain: str, mode: str) -> None:
    assert hg.move_cost(mode, terrain) is hg.IMPASSABLE


@pytest.mark.parametrize("mode", ["walker", "ground"])
def test_deep_water_is_impassable_except_for_hover(mode: str) -> None:
    assert hg.move_cost(mode, "deep_water") is hg.IMPASSABLE
    assert hg.move_cost("hover", "deep_water", distance=2) == 2


@pytest.mark.parametrize(
    ("mode", "water", "per_inch"),
    [
        ("walker", "shallow_water", 3),
        ("ground", "shallow_water", 3),
        ("hover", "shallow_water", 2),
        ("hover", "deep_water", 2),
    ],
)
def test_rapid_water_adds_1_mp_per_inch_hover_included(
    mode: str, water: str, per_inch: int
) -> None:
    assert hg.move_cost(mode, water, "rapid_water") == per_inch
    assert hg.move_cost(mode, water, "rapid_water", distance=3) == 3 * per_inch


def test_rapid_water_does_not_make_deep_water_passable() -> None:
    assert hg.move_cost("walker", "deep_water", "rapid_water") is hg.IMPASSABLE


def test_two_base_terrains_in_one_place_are_refused() -> None:
    with pytest.raises(hg.InvalidPlace):
        hg.move_cost("walker", "soft", "rough")


@pytest.mark.parametrize(("rise", "extra"), [(0, 0), (0.5, 0.5), (1, 1), (1.5, 1.5)])
def test_climbing_costs_1_mp_per_inch_of_rise(rise: float, extra: float) -> None:
    assert hg.climb(rise) == extra


@pytest.mark.parametrize("rise", [2, 2.5, 4])
def test_a_rise_of_2_inches_or_more_is_impassable(rise: float) -> None:
    assert hg.climb(rise) is hg.IMPASSABLE


# ---- concealment ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("step", "inches", "points"),
    [
        ("light_concealment", 1.5, 0),
        ("light_concealment", 2, 1),
        ("light_concealment", 5, 1),
        ("light_concealment", 8, 2),
        ("medium_concealment", 1, 1),
        ("medium_concealment", 3, 1),
        ("medium_concealment", 4, 2),
        ("heavy_concealment", 0.5, 1),
        ("heavy_concealment", 3, 3),
    ],
)
def test_concealment_checks_from_rules_md(step: str, inches: float, points: int) -> None:
    assert hg.STEPS[step](inches) == points
    assert getattr(hg, step)(inches) == points


def test_light_terrain_5_inches_thick_gives_1_concealment_point() -> None:
    assert hg.light_concealment(5) == 1


@pytest.mark.parametrize(
    ("factors", "total"),
    [
        (("vehicle_between",), 1),
        (("solid_base",), 1),
        (("solid_half",), 2),
        (("stationary",), 0),
        (("combat_speed",), -1),
        (("top_speed",), -2),
        (("target_fired",), -1),
        (("vehicle_between", "solid_half", "top_speed"), 1),
        (("vehicle_between", "combat_speed", "target_fired"), -1),
    ],
)
def test_concealment_points_add_up(factors: tuple[str, ...], total: int) -> None:
    assert hg.modifier("concealment", *factors) == total


def test_a_solid_object_hiding_the_whole_model_blocks_lock_and_direct_fire() -> None:
    assert hg.modifier("concealment", "solid_whole") is hg.BLOCKED
    assert hg.modifier("concealment", "solid_whole", "top_speed") is hg.BLOCKED


# ---- lock procedure ---------------------------------------------------------------------------


def test_fully_hidden_target_cannot_be_locked() -> None:
    assert hg.lock(hidden=True, concealment=0, detection=9, distance=1, size=6).id == "no_lock"


def test_no_concealment_gives_a_passive_lock() -> None:
    assert hg.lock(hidden=False, concealment=0, detection=0, distance=30, size=6).id == "passive"


def test_detection_above_concealment_gives_a_passive_lock() -> None:
    assert hg.lock(hidden=False, concealment=2, detection=3, distance=30, size=6).id == "passive"
    assert hg.lock(hidden=False, concealment=3, detection=3, distance=30, size=6).id == "active"


def test_distance_equal_to_size_gives_a_passive_lock() -> None:
    # The texts disagree (< or <=); RULES.md takes "less than or equal".
    assert hg.lock(hidden=False, concealment=3, detection=1, distance=6, size=6).id == "passive"
    assert hg.lock(hidden=False, concealment=3, detection=1, distance=7, size=6).id == "active"


# ---- cover ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cover", "value"),
    [
        ("full", -2),
        ("partial", -1),
        ("some", 0),
        ("in_open", 1),
    ],
)
def test_cover_modifiers(cover: str, value: int) -> None:
    assert hg.modifier("cover", cover) == value


def test_solid_cover_is_an_extra_minus_one() -> None:
    assert hg.modifier("cover", "partial", "solid") == -2


def test_full_and_solid_cover_together_rule_out_direct_fire() -> None:
    assert hg.modifier("cover", "full", "solid") is hg.BLOCKED


@pytest.mark.parametrize("size", range(1, 7))
def test_cover_size_7_gives_full_cover_to_size_6_or_less(size: int) -> None:
    outcome = hg.abstract_cover(cover_size=7, size=size)
    assert (outcome.id, outcome.value) == ("full", -2)


def test_cover_size_4_against_size_5_is_partial() -> None:
    assert hg.abstract_cover(4, 5) == ("partial", "Partial cover", -1)


def test_cover_size_2_against_size_5_is_some() -> None:
    assert hg.abstract_cover(2, 5).id == "some"
    assert hg.abstract_cover(2, 5).value == 0


@pytest.mark.parametrize("size", range(1, 15))
def test_cover_size_15_hides_every_model(size: int) -> None:
    assert hg.abstract_cover(15, size).id == "full"


# ---- set-up guidelines ------------------------------------------------------------------------


def test_setup_guidelines_carry_the_numbers() -> None:
    assert str(hg.lookup("setup", "pieces_per_square")) == "1-2"
    assert str(hg.lookup("setup", "open_lane")) == "4-5 in"
    assert str(hg.lookup("setup", "house_height")) == "2-3 in"
    assert hg.lookup("setup", "residential_street") == 2
    assert str(hg.lookup("setup", "single_lane")) == "1-1.5 in"
    assert str(hg.lookup("setup", "two_lane")) == "3-4 in"
    assert hg.lookup("setup", "dual_carriageway") == 4


# ---- the module contract ----------------------------------------------------------------------


def test_unknown_names_raise_key_errors_that_suggest_the_nearest() -> None:
    with pytest.raises(KeyError, match="did you mean 'walker'"):
        hg.move_cost("walkr", "clear")
    with pytest.raises(hg.UnknownName, match="did you mean 'soft'"):
        hg.move_cost("walker", "sofft")
    with pytest.raises(KeyError, match="'cover'"):
        hg.modifier("covr", "full")


def test_ruleset_record() -> None:
    assert hg.RULESET.id == "heavy_gear"
    assert hg.RULESET.version == "1.0.0"
    assert hg.RULESET.digest.startswith("sha256:")
    assert hg.RULESET.extends == ()
    assert hg.MODES["walker"].label["fr"] == "Marcheur"


# ---- issue 16: rules fidelity -----------------------------------------------------------------

SHEETS = Path(__file__).resolve().parent.parent / "generated" / "sheets"
SHEET_EN = (SHEETS / "heavy_gear.en.md").read_text(encoding="utf-8")
# The French sheet's words (tests/test_print_typography.py reads its narrow spaces).
SHEET_FR = (SHEETS / "heavy_gear.fr.md").read_text(encoding="utf-8").replace("\u202f", " ")


def test_perk_or_flaw_concealment_is_on_the_sheet() -> None:
    # Seed: "Avantage/défaut : +/- n".
    assert "| Avantage/défaut (+/- n)" in SHEET_FR
    assert "| Perk or flaw (+/- n)" in SHEET_EN
    assert hg.modifier("concealment", "perk_or_flaw", "combat_speed", perk_or_flaw=0) == -1


def test_a_perk_of_2_adds_2_concealment_points() -> None:
    """The perk's n is each model's own: the caller gives it (`perk_or_flaw | given`)."""
    assert hg.modifier("concealment", "perk_or_flaw", "combat_speed", perk_or_flaw=2) == 1
    assert hg.modifier("concealment", "perk_or_flaw", perk_or_flaw=-1) == -1
    with pytest.raises(hg.InvalidArgument, match="perk_or_flaw"):
        hg.modifier("concealment", "perk_or_flaw", "combat_speed")
    with pytest.raises(hg.ArgumentTypeError):
        hg.modifier("concealment", "perk_or_flaw", perk_or_flaw="2")


@pytest.mark.parametrize(
    ("terrain_size", "size", "through", "touches", "counted"),
    [
        (3, 6, True, False, True),  # tall enough, line of sight through it
        (3, 6, False, True, True),  # tall enough, base touching
        (3, 6, False, False, False),  # tall enough but off to the side
        (2, 6, True, True, False),  # under half the model's Size: never counts
        (6, 6, False, False, False),
    ],
)
def test_terrain_counts_for_concealment_when_tall_enough_and_crossed_or_touching(
    terrain_size: int, size: int, through: bool, touches: bool, counted: bool
) -> None:
    outcome = hg.terrain_counts(
        terrain_size=terrain_size, size=size, line_through=through, base_touches=touches
    )
    assert (outcome.id == "counted") is counted


def test_the_concealment_conditions_reading_is_on_the_sheet() -> None:
    assert "la taille du terrain est \\>= à la moitié de la taille de la figurine ET" in SHEET_FR
    assert "tall AND the line of sight must pass through it" in SHEET_EN


@pytest.mark.parametrize(
    ("hidden", "limb", "more", "partly", "cover", "value"),
    [
        (True, False, False, False, "full", -2),
        (False, True, False, False, "full", -2),  # only a weapon or part of a limb visible
        (False, False, True, True, "partial", -1),
        (False, False, False, True, "some", 0),
        (False, False, False, False, "in_open", 1),
    ],
)
def test_representative_terrain_cover(
    hidden: bool, limb: bool, more: bool, partly: bool, cover: str, value: int
) -> None:
    outcome = hg.representative_cover(
        hidden=hidden, weapon_or_limb_only=limb, more_than_half=more, partly=partly
    )
    assert (outcome.id, outcome.value) == (cover, value)
    assert "Couvert en terrain représentatif" in SHEET_FR


def test_a_wholly_hidden_target_cannot_be_locked_even_actively_a_stated_reading() -> None:
    assert hg.lock(hidden=True, concealment=9, detection=0, distance=50, size=6).id == "no_lock"
    assert "ni passivement, ni activement" in SHEET_FR
    assert "neither passively nor actively" in SHEET_EN


def test_medium_terrain_gives_1_point_per_full_2_inches_not_the_examples_2() -> None:
    assert hg.medium_concealment(2) == 1
    assert hg.medium_concealment(4) == 2
    assert "2 points de dissimulation par tranche de 2 pouces" in SHEET_FR


def test_size_and_cover_size_are_not_lengths() -> None:
    # Size and Cover Size are numbers on the model's card, not inches to measure.
    assert "size (points)" in SHEET_EN and "size (in)" not in SHEET_EN
    assert "taille du couvert (points)" in SHEET_FR and "taille du couvert (po)" not in SHEET_FR
    assert "taille de la cible (points)" in SHEET_FR and "size (in)" not in SHEET_FR
    assert hg.abstract_cover(cover_size=4, size=5).id == "partial"


@pytest.mark.parametrize(
    "factors", [("full", "partial"), ("full", "some"), ("partial", "in_open"), ("in_open", "solid")]
)
def test_two_cover_tiers_at_once_warn(factors: tuple[str, ...]) -> None:
    with pytest.warns(hg.ConflictWarning):
        hg.modifier("cover", *factors)
    assert "Un seul niveau de couvert" in SHEET_FR  # the sheet lists the exclusion


def test_full_cover_twice_is_refused() -> None:
    """A cover tier counts once (`exclude full with full`): listed twice, the module warns as
    for every combination the rules exclude; a vehicle in the way may count twice."""
    with pytest.warns(hg.ConflictWarning, match="full \\+ full"):
        hg.modifier("cover", "full", "full")
    assert hg.conflicts("partial", "partial") == ("partial + partial",)
    assert hg.modifier("concealment", "vehicle_between", "vehicle_between") == 2


@pytest.mark.parametrize(
    "factors",
    [
        ("solid_base", "solid_half"),
        ("solid_half", "solid_whole"),
        ("solid_base", "solid_whole"),
        ("stationary", "top_speed"),
        ("combat_speed", "top_speed"),
    ],
)
def test_two_solid_object_tiers_or_two_speeds_at_once_warn(factors: tuple[str, ...]) -> None:
    with pytest.warns(hg.ConflictWarning):
        hg.modifier("concealment", *factors)


@pytest.mark.parametrize("ground", ["clear", "soft", "road"])
def test_rapid_water_on_dry_ground_warns(ground: str) -> None:
    with pytest.warns(hg.ConflictWarning, match="rapid_water"):
        hg.move_cost("walker", ground, "rapid_water")


def test_rapid_water_on_water_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert hg.move_cost("hover", "shallow_water", "rapid_water") == 2


@pytest.mark.parametrize(
    ("factor", "label"),
    [
        ("some", "Couvert sommaire"),
        ("in_open", "Cible à découvert"),
        ("stationary", "Cible stationnaire"),
        ("combat_speed", "Cible en vitesse de combat"),
        ("top_speed", "Cible en vitesse de pointe"),
    ],
)
def test_french_labels_follow_the_seed(factor: str, label: str) -> None:
    assert label in SHEET_FR


def test_soft_is_mou_and_the_active_lock_roll_is_ew() -> None:
    assert hg.FEATURES["soft"].label["fr"] == "Mou (sable, neige, boue)"
    assert "jet de compétence d\u2019EW" in SHEET_FR and "jet de GE" not in SHEET_FR
    assert "Couvert léger" not in SHEET_FR


# ---- issue 28: readings stated with the seed's words ----------------------------------------


def test_ground_models_pay_road_in_proportion_a_stated_reading() -> None:
    # « Mode Roulant : 1 MP pour 2 pouces »: 1 inch of road costs 1/2 MP, not 1 MP for the
    # 2 inches begun.
    assert hg.move_cost("ground", "road", distance=1) == 0.5
    assert hg.move_cost("ground", "road", distance=3) == 1.5
    assert "Reading: in proportion, 1/2 MP an inch" in SHEET_EN
    assert "« 1 MP pour 2 pouces »" in SHEET_FR


def test_climbing_counts_the_rise_in_proportion_a_stated_reading() -> None:
    # « En montée : +1 PM pour chaque pouce de dénivelé »: 1.5 in of rise costs 1.5 MP.
    assert hg.climb(1.5) == 1.5
    assert hg.climb(0.5) == 0.5
    assert "Reading: in proportion, 1.5 in costs 1.5 MP" in SHEET_EN
    assert "« +1 PM pour chaque pouce de dénivelé »" in SHEET_FR


def test_each_concealment_piece_scores_its_own_thickness_a_stated_reading() -> None:
    # « des points qui se cumulent »: two light pieces 2 in thick give 1 + 1, where one light
    # piece 4 in thick gives 1.
    two = hg.line_of_sight(
        "terrain_concealment", ("clear",), ("light",), ("light",), ("clear",), crossed=(0, 2, 2, 0)
    )
    one = hg.line_of_sight(
        "terrain_concealment", ("clear",), ("light",), ("clear",), crossed=(0, 4, 0)
    )
    assert (two.hindrance, one.hindrance) == (2, 1)
    assert "Reading: each piece scores its own thickness" in SHEET_EN
    assert "« se cumulent »" in SHEET_FR


def test_full_and_solid_cover_is_read_as_no_lock_with_the_seeds_words() -> None:
    # « Couvert Total et Solide : verrouillage passif impossible », twice in the seed.
    assert hg.lock(hidden=True, concealment=0, detection=9, distance=1, size=6).id == "no_lock"
    assert "full and solid cover" in SHEET_EN
    assert "« verrouillage passif impossible »" in SHEET_FR
