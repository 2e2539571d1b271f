"""RULES.md section 4 (generic miniatures wargame, terrain), checked against the generated
modules: the template (generic_wargame) and the filled-in skirmish house rule."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from tests.conftest import load_generated

gw = load_generated("generic_wargame")
skirmish = load_generated("generic_wargame_skirmish")

UNITS = ("infantry", "wheeled", "tracked")


# ---- movement categories, per unit type ------------------------------------------------------


def test_four_movement_categories() -> None:
    assert gw.LAYERS["category"].features == ("road", "clear", "difficult", "impassable")


@pytest.mark.parametrize("unit", UNITS)
def test_impassable_is_impassable_for_every_unit_type(unit: str) -> None:
    assert gw.move_cost(unit, "impassable") is gw.IMPASSABLE
    assert gw.move_cost(unit, "cliffs") is gw.IMPASSABLE


@pytest.mark.parametrize(
    ("terrain", "category"),
    [
        ("paved_road", "road"),
        ("dry_track", "road"),
        ("meadow", "clear"),
        ("field", "clear"),
        ("rocky_ground", "difficult"),
        ("mud", "difficult"),
        ("ruins", "difficult"),
        ("deep_river", "impassable"),
    ],
)
@pytest.mark.parametrize("unit", UNITS)
def test_terrain_costs_what_its_category_costs(terrain: str, category: str, unit: str) -> None:
    assert skirmish.move_cost(unit, terrain) == skirmish.move_cost(unit, category)


def test_ploughed_field_is_clear_for_infantry() -> None:
    assert (
        skirmish.FEATURES["ploughed_field"].costs["infantry"]
        == (skirmish.FEATURES["clear"].costs["infantry"])
    )
    assert skirmish.move_cost("infantry", "ploughed_field") == skirmish.move_cost(
        "infantry", "clear"
    )


def test_ploughed_field_is_difficult_for_wheeled_vehicles() -> None:
    assert (
        skirmish.FEATURES["ploughed_field"].costs["wheeled"]
        == (skirmish.FEATURES["difficult"].costs["wheeled"])
    )
    assert skirmish.move_cost("wheeled", "ploughed_field") == skirmish.move_cost(
        "wheeled", "difficult"
    )
    assert skirmish.move_cost("wheeled", "ploughed_field") != skirmish.move_cost("wheeled", "clear")


# ---- the template leaves the allowances open ---------------------------------------------------


@pytest.mark.parametrize(
    ("unit", "terrain", "allowance"),
    [
        ("infantry", "ploughed_field", "infantry_clear"),
        ("wheeled", "ploughed_field", "wheeled_difficult"),
        ("tracked", "paved_road", "tracked_road"),
        ("infantry", "mud", "infantry_difficult"),
    ],
)
def test_template_raises_unfilled_parameter_naming_the_allowance(
    unit: str, terrain: str, allowance: str
) -> None:
    with pytest.raises(gw.UnfilledParameter) as caught:
        gw.move_cost(unit, terrain, distance=10)
    assert isinstance(caught.value, KeyError)
    assert caught.value.name == allowance
    assert f"'{allowance}'" in str(caught.value)


def test_template_allowances_are_unfilled_parameters() -> None:
    assert len(gw.PARAMS) == 9
    assert all(value is None for value in gw.PARAMS.values())
    with pytest.raises(gw.UnfilledParameter, match="'wheeled_road'"):
        gw.param("wheeled_road")


# ---- the skirmish house rule fills them --------------------------------------------------------


def test_house_rule_extends_the_template() -> None:
    assert [a.id for a in skirmish.RULESET.extends] == ["generic_wargame"]


@pytest.mark.parametrize(
    ("name", "cm"),
    [
        ("infantry_road", 15),
        ("infantry_clear", 10),
        ("infantry_difficult", 5),
        ("wheeled_road", 40),
        ("wheeled_clear", 20),
        ("wheeled_difficult", 8),
        ("tracked_road", 30),
        ("tracked_clear", 20),
        ("tracked_difficult", 10),
    ],
)
def test_house_rule_allowances(name: str, cm: float) -> None:
    assert skirmish.param(name) == cm


def test_infantry_crosses_30_cm_of_ploughed_field_for_3_pa() -> None:
    # clear for infantry: 10 cm per PA
    assert skirmish.move_cost("infantry", "ploughed_field", distance=30) == pytest.approx(3)


def test_wheeled_vehicle_crosses_16_cm_of_ploughed_field_for_2_pa() -> None:
    # difficult for wheeled vehicles: 8 cm per PA (20 cm per PA in clear terrain)
    assert skirmish.move_cost("wheeled", "ploughed_field", distance=16) == pytest.approx(2)
    assert skirmish.move_cost("wheeled", "meadow", distance=16) == pytest.approx(0.8)


@pytest.mark.parametrize(
    ("unit", "terrain", "cm", "pa"),
    [
        ("infantry", "paved_road", 30, 2),
        ("infantry", "ruins", 10, 2),
        ("wheeled", "dry_track", 80, 2),
        ("tracked", "ploughed_field", 40, 2),
        ("tracked", "rocky_ground", 30, 3),
    ],
)
def test_house_rule_distances_end_to_end(unit: str, terrain: str, cm: float, pa: float) -> None:
    assert skirmish.move_cost(unit, terrain, distance=cm) == pytest.approx(pa)


# ---- linear obstacles ------------------------------------------------------------------------


def test_every_linear_obstacle_costs_1_pa() -> None:
    for obstacle in ("low", "high", "ford", "climb"):
        cost = gw.lookup("obstacle", "cost", obstacle)
        assert cost == 1
        assert cost.unit == "PA"


def test_low_obstacle_no_test_placed_at_most_10_cm_beyond() -> None:
    assert gw.lookup("obstacle", "test", "low") == "none"
    assert gw.lookup("obstacle", "placed", "low") == "beyond"
    assert gw.lookup("obstacle", "distance", "low") == 10
    assert gw.lookup("obstacle", "distance", "low").unit == "cm"


def test_high_obstacle_needs_an_experience_test_on_a_d10() -> None:
    assert gw.lookup("obstacle", "test", "high") == "experience"
    assert gw.lookup("obstacle", "roll", "high") == gw.Dice(1, 10)
    assert gw.lookup("obstacle", "placed", "high") == "beyond"
    assert gw.lookup("obstacle", "on_failure", "high") == "stays"
    assert "leader" in gw.TABLES["obstacle"].column_notes["roll"][0]["en"]


def test_stream_or_ford_then_difficult_terrain_rate() -> None:
    assert gw.lookup("obstacle", "test", "ford") == "none"
    assert gw.lookup("obstacle", "placed", "ford") == "far_bank"
    assert gw.lookup("obstacle", "then", "ford") == "difficult"


def test_crossing_a_6_cm_ford_costs_a_wheeled_vehicle_1_pa_plus_difficult_rate() -> None:
    rate = skirmish.lookup("obstacle", "then", "ford")
    total = skirmish.lookup("obstacle", "cost", "ford") + skirmish.move_cost(
        "wheeled", rate, distance=6
    )
    assert total == pytest.approx(1 + 6 / 8)


def test_climb_needs_an_experience_test_and_ends_10_cm_from_the_start() -> None:
    assert gw.lookup("obstacle", "test", "climb") == "experience"
    assert gw.lookup("obstacle", "roll", "climb") == gw.Dice(1, 10)
    assert gw.lookup("obstacle", "placed", "climb") == "from_start"
    assert gw.lookup("obstacle", "distance", "climb") == 10
    assert gw.lookup("obstacle", "on_failure", "climb") == "stays"


# ---- visibility and camouflage ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("cover", "target", "reach"),
    [
        ("open", "fully_seen", "any"),
        ("light", "partly_hidden", 20),
        ("dense", "hidden", 10),
    ],
)
def test_visibility_table(cover: str, target: str, reach: object) -> None:
    assert gw.lookup("visibility", "target", cover) == target
    assert gw.lookup("visibility", "reach", cover) == reach


@pytest.mark.parametrize(
    ("cover", "distance", "verdict"),
    [
        ("open", 200, "line_of_sight"),
        ("light", 20, "line_of_sight"),
        ("light", 21, "no_line_of_sight"),
        ("dense", 10, "line_of_sight"),
        ("dense", 11, "no_line_of_sight"),
    ],
)
def test_line_of_sight_inside_cover(cover: str, distance: float, verdict: str) -> None:
    assert gw.sight_in_cover(cover, distance).id == verdict


def test_line_of_sight_rejects_an_unknown_cover() -> None:
    with pytest.raises(gw.UnknownName, match="'dense'"):
        gw.sight_in_cover("denes", 5)


@pytest.mark.parametrize(
    ("spotted", "distance", "verdict"),
    [
        (True, 50, "identified"),
        (False, 10, "identified"),
        (False, 5, "identified"),
        (False, 11, "unidentified"),
    ],
)
def test_camouflage_needs_a_spotting_test_or_10_cm(
    spotted: bool, distance: float, verdict: str
) -> None:
    assert gw.camouflage(spotted, distance).id == verdict


# ---- protection from fire --------------------------------------------------------------------


@pytest.mark.parametrize("level", range(1, 9))
def test_protection_modifier_on_the_d10(level: int) -> None:
    assert gw.modifier("protection", f"protection_{level}") == level


def test_protection_runs_from_1_to_8() -> None:
    values = [v[""] for v in gw.MODIFIERS["protection"].values()]
    assert values == [1, 2, 3, 4, 5, 6, 7, 8]


# ---- issue 16: combinations the rules exclude; the chapter's own terms -------------------------

# The French sheet's words (tests/test_print_typography.py reads its narrow spaces).
SHEET_FR = (
    (Path(__file__).resolve().parent.parent / "generated" / "sheets" / "generic_wargame.fr.md")
    .read_text(encoding="utf-8")
    .replace("\u202f", " ")
)


@pytest.mark.parametrize(
    ("category", "terrain"),
    [
        ("road", "paved_road"),
        ("clear", "meadow"),
        ("difficult", "ruins"),
        ("impassable", "cliffs"),
        ("clear", "mud"),
    ],
)
def test_a_category_and_a_terrain_in_one_place_warn(category: str, terrain: str) -> None:
    with pytest.warns(gw.ConflictWarning, match=terrain):
        gw.modifier("protection", category, terrain)
    assert gw.conflicts(category, terrain)


def test_protection_levels_exclude_each_other() -> None:
    with pytest.warns(gw.ConflictWarning, match="protection_1 \\+ protection_8"):
        assert gw.modifier("protection", "protection_1", "protection_8") == 9
    for low in range(1, 9):
        for high in range(low + 1, 9):
            assert gw.conflicts(f"protection_{low}", f"protection_{high}")
    assert "Un seul niveau de protection par terrain" in SHEET_FR


def test_one_protection_level_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert gw.modifier("protection", "protection_3") == 3
        assert gw.conflicts("road", "clear") == ()


@pytest.mark.parametrize(
    "label",
    [
        "Cible à découvert",
        "Cible sous couvert léger",
        "Cible sous couvert dense",
        "Protection aux tirs",
        "Terrain infranchissable",
    ],
)
def test_french_labels_follow_the_chapter(label: str) -> None:
    assert label in SHEET_FR


# ---- issue 28: what the sheets left out, readings stated with the seed's words ---------------

SHEET_EN = (
    Path(__file__).resolve().parent.parent / "generated" / "sheets" / "generic_wargame.en.md"
).read_text(encoding="utf-8")


def test_a_model_never_stops_on_a_linear_obstacle_is_on_the_sheet() -> None:
    # « ces obstacles ne permettent pas aux figurines de s'arrêter dessus, elles se trouvent
    # soit d'un côté, soit de l'autre. Une unité arrivant sur un obstacle doit s'arrêter à son
    # contact. »
    assert "A model never stops on an obstacle, only on one side or the other" in SHEET_EN
    assert "Une figurine ne s\u2019arrête jamais sur un obstacle" in SHEET_FR


def test_area_terrain_has_an_outline_is_on_the_sheet() -> None:
    # « La délimitation des contours de ces zones est importante afin de savoir précisément si
    # une figurine se trouve à l'intérieur ou a l'extérieur de la zone. »
    assert "Area terrain (woods, marsh) has a marked outline" in SHEET_EN
    assert "a un contour délimité" in SHEET_FR


def test_tracked_vehicles_and_their_ploughed_field_are_a_stated_reading() -> None:
    # The chapter's example: « Un champ labouré ne peut avoir aucune incidence pour le
    # déplacement de l'infanterie, mais sera considéré comme du terrain difficile, pour le
    # déplacement des véhicules à roues. » It has no tracked vehicles.
    assert skirmish.move_cost("tracked", "ploughed_field") == skirmish.move_cost("tracked", "clear")
    assert skirmish.move_cost("wheeled", "ploughed_field") == skirmish.move_cost(
        "wheeled", "difficult"
    )
    assert "Reading: the chapter has no tracked vehicles" in SHEET_EN
    assert "« pour le déplacement des véhicules à roues »" in SHEET_FR


def _cited_section(sheet: str, heading: str) -> str:
    """The section an example or block under ``### heading`` cites on the sheet."""
    after = sheet.split(f"### {heading}\n", 1)[1]
    return after.split("*[Rules “", 1)[1].split("”]*", 1)[0]


@pytest.mark.parametrize(
    ("heading", "section"),
    [
        ("Seeing into light cover", "7.D"),  # « 7.D) LE TERRAIN ET LA VISIBILITE »
        ("A camouflaged element is spotted", "7.E"),  # « 7.E) COUVERT ET CAMOUFLAGE »
        ("A camouflaged element within 10 cm", "7.E"),
        ("Identifying a camouflaged element", "7.E"),
        ("Protection from fire (d10 firepower test)", "7.F"),  # « 7.F) PROTECTION CONTRE LES TIRS »
        ("The weakest protection", "7.F"),
        ("The strongest protection", "7.F"),
    ],
)
def test_the_sheet_cites_the_seeds_own_section(heading: str, section: str) -> None:
    # Issue 43 item 5: camouflage was cited as 7.D and protection as 7.E.
    assert _cited_section(SHEET_EN, heading) == section
