"""RULES.md section 3 (d20 movement and flight), checked against the generated module."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import load_generated

d20 = load_generated("d20_movement")


# ---- the square grid -----------------------------------------------------------------------


def test_one_square_is_1_5_m_and_5_ft() -> None:
    assert d20.path_cost("s", unit="square") == 1
    assert d20.path_cost("s", unit="m") == 1.5
    assert d20.path_cost("s", unit="ft") == 5


def test_diagonal_then_three_straight_then_diagonal_is_9_m() -> None:
    path = ["diagonal", "straight", "straight", "straight", "diagonal"]
    assert d20.path_cost(path, unit="m") == 9  # 1.5 + 4.5 + 3


def test_the_9_m_path_is_6_squares_and_30_ft() -> None:
    assert d20.path_cost("dsssd") == 6  # squares: the grid's first unit
    assert d20.path_cost("dsssd", unit="square") == 6
    assert d20.path_cost("dsssd", unit="ft") == 30


def test_diagonals_alternate_1_5_m_then_3_m() -> None:
    assert d20.path_cost("d", unit="m") == 1.5
    assert d20.path_cost("dd", unit="m") == 4.5
    assert d20.path_cost("ddd", unit="m") == 6
    assert d20.path_cost("dddd", unit="m") == 9


def test_straight_steps_do_not_reset_the_diagonal_count() -> None:
    assert d20.path_cost("dsd", unit="m") == 1.5 + 1.5 + 3
    assert d20.path_cost("dsdsd", unit="m") == 1.5 + 1.5 + 3 + 1.5 + 1.5


def test_an_unknown_grid_unit_names_the_valid_ones() -> None:
    with pytest.raises(d20.UnknownName, match="'m'"):
        d20.path_cost("s", unit="metres")


# ---- armour and load -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "reduced"),
    [
        (6, 4.5),
        (9, 6),
        (12, 9),
        (15, 10.5),
        (18, 12),
        (21, 15),
        (24, 16.5),
        (27, 18),
        (30, 21),
    ],
)
def test_armor_speed_table(base: float, reduced: float) -> None:
    cell = d20.lookup("armor_speed", base)
    assert cell == reduced
    assert cell.unit == "m"


def test_armor_speed_30_m_becomes_21_m() -> None:
    assert d20.lookup("armor_speed", 30) == 21


def test_armor_speed_table_has_exactly_the_nine_speeds() -> None:
    assert list(d20.TABLES["armor_speed"].rows) == [6, 9, 12, 15, 18, 21, 24, 27, 30]


@pytest.mark.parametrize(
    ("speed", "nearest"), [(31, ("30", "27")), (7, ("6", "9")), (10.5, ("9", "12"))]
)
def test_a_speed_not_in_the_table_names_the_nearest_speeds(
    speed: float, nearest: tuple[str, str]
) -> None:
    with pytest.raises(d20.UnknownName) as caught:
        d20.lookup("armor_speed", speed)
    assert isinstance(caught.value, KeyError)
    assert caught.value.suggestions == nearest
    assert all(f"'{n}'" in str(caught.value) for n in nearest)


# ---- flight manoeuvrability ----------------------------------------------------------------

CLASSES = ("perfect", "good", "average", "poor", "clumsy")
ANY, NONE, HALF, FULL, DOUBLE, FREE = "any", "none", "half", "full", "double", "free"


def deg(n: float) -> Any:
    return ("deg", n)


def m(n: float) -> Any:
    return ("m", n)


def rate(angle: float, per: float) -> Any:
    return ("rate", angle, per)


def trade(angle: float, cost: float) -> Any:
    return ("trade", angle, cost)


FLIGHT: dict[str, tuple[Any, ...]] = {
    "minimum_speed": (NONE, NONE, HALF, HALF, HALF),
    "hover": (True, True, False, False, False),
    "backward": (True, True, False, False, False),
    "reverse": (FREE, m(-1.5), False, False, False),
    "turn": (ANY, rate(90, 1.5), rate(45, 1.5), rate(45, 1.5), rate(45, 3)),
    # Issue 16: turning in place is a rate (3 m buys a good flyer 180 degrees), not a fixed
    # trade of 90 degrees for 1.5 m; the old trade cells were wrong.
    "turn_in_place": (ANY, rate(90, 1.5), rate(45, 1.5), False, False),
    "maximum_turn": (ANY, ANY, deg(90), deg(45), deg(45)),
    "up_angle": (ANY, ANY, deg(60), deg(45), deg(45)),
    "up_speed": (FULL, HALF, HALF, HALF, HALF),
    "down_angle": (ANY, ANY, ANY, deg(45), deg(45)),
    "down_speed": (DOUBLE, DOUBLE, DOUBLE, DOUBLE, DOUBLE),
    "between_down_and_up": (m(0), m(0), m(1.5), m(3), m(6)),
}
CELLS = [(prop, cls, FLIGHT[prop][i]) for prop in FLIGHT for i, cls in enumerate(CLASSES)]


def test_flight_table_is_five_classes_by_twelve_properties() -> None:
    table = d20.TABLES["flight"]
    assert table.columns == CLASSES
    assert tuple(table.rows) == tuple(FLIGHT)
    assert len(CELLS) == 60


@pytest.mark.parametrize(("prop", "cls", "expected"), CELLS, ids=[f"{p}-{c}" for p, c, _ in CELLS])
def test_flight_cell(prop: str, cls: str, expected: Any) -> None:
    cell = d20.lookup("flight", cls, prop)
    match expected:
        case bool():
            assert cell is expected
        case str():
            assert cell == expected
        case ("deg" | "m" as unit, value):
            assert cell == value
            assert cell.unit == unit
        case ("rate", angle, per):
            assert isinstance(cell, d20.Rate)
            assert (cell.amount, cell.amount.unit) == (angle, "deg")
            assert (cell.per, cell.per.unit) == (per, "m")
        case ("trade", angle, cost):
            assert isinstance(cell, d20.Trade)
            assert (cell.gain, cell.gain.unit) == (angle, "deg")
            assert (cell.cost, cell.cost.unit) == (cost, "m")
        case _:  # pragma: no cover
            pytest.fail(f"unexpected expectation {expected!r}")


def test_good_class_turns_90_deg_per_1_5_m() -> None:
    assert d20.lookup("flight", "good", "turn") == d20.Rate(90, 1.5)


@pytest.mark.parametrize(
    ("cls", "creature"),
    [
        ("perfect", "will-o'-wisp"),
        ("good", "beholder"),
        ("average", "gargoyle"),
        ("poor", "wyvern"),
        ("clumsy", "manticore"),
    ],
)
def test_each_class_is_labelled_with_its_example_creature(cls: str, creature: str) -> None:
    table = d20.TABLES["flight"]
    assert table.column_labels[cls]["en"] == cls.capitalize()
    assert creature in table.column_notes[cls][0]["en"]
    assert table.column_labels[cls]["fr"]


def test_an_unknown_class_or_property_suggests_the_nearest() -> None:
    with pytest.raises(d20.UnknownName, match="'good'"):
        d20.lookup("flight", "goood", "turn")
    with pytest.raises(d20.UnknownName, match="'turn'"):
        d20.lookup("flight", "good", "turns")


# ---- legal flying moves ----------------------------------------------------------------------


def move(
    cls: str,
    *,
    hover: bool = False,
    backward: bool = False,
    turn: float = 0,
    after: float = 0,
    turn_in_place: float = 0,
    spent: float = 1.5,
    climb: float = 0,
    dive: float = 0,
    climb_after_dive: bool = False,
    level_flown: float = 0,
) -> str:
    outcome = d20.flying_move(
        cls,
        hover=hover,
        backward=backward,
        turn=turn,
        after=after,
        turn_in_place=turn_in_place,
        spent=spent,
        climb=climb,
        dive=dive,
        climb_after_dive=climb_after_dive,
        level_flown=level_flown,
    )
    return str(outcome.id)


@pytest.mark.parametrize("cls", CLASSES)
def test_flying_straight_and_level_is_legal_for_every_class(cls: str) -> None:
    assert move(cls) == "legal"


@pytest.mark.parametrize(
    ("cls", "verdict"),
    [
        ("perfect", "legal"),
        ("good", "legal"),
        ("average", "cannot_hover"),
        ("poor", "cannot_hover"),
        ("clumsy", "cannot_hover"),
    ],
)
def test_only_perfect_and_good_fliers_hover(cls: str, verdict: str) -> None:
    assert move(cls, hover=True) == verdict


@pytest.mark.parametrize(
    ("cls", "verdict"),
    [
        ("perfect", "legal"),
        ("good", "legal"),
        ("average", "cannot_fly_backward"),
        ("poor", "cannot_fly_backward"),
        ("clumsy", "cannot_fly_backward"),
    ],
)
def test_only_perfect_and_good_fliers_fly_backward(cls: str, verdict: str) -> None:
    assert move(cls, backward=True) == verdict


def test_perfect_flier_turns_any_angle_at_once() -> None:
    assert move("perfect", turn=180, after=0) == "legal"
    assert move("perfect", turn_in_place=360, climb=90, dive=90) == "legal"


def test_good_flier_turns_90_deg_after_1_5_m() -> None:
    assert move("good", turn=90, after=1.5) == "legal"
    assert move("good", turn=90, after=0) == "turn_too_soon"
    assert move("good", turn=180, after=1.5) == "turn_too_soon"
    assert move("good", turn=180, after=3) == "legal"  # no one-square limit


def test_good_flier_turns_90_deg_in_place_for_1_5_m() -> None:
    assert move("good", turn_in_place=90) == "legal"
    assert move("good", turn_in_place=135) == "cannot_turn_in_place"


def test_average_flier_turns_45_deg_per_1_5_m_and_90_deg_at_most() -> None:
    assert move("average", turn=45, after=1.5) == "legal"
    assert move("average", turn=90, after=1.5) == "turn_too_soon"
    assert move("average", turn=90, after=3) == "legal"
    assert move("average", turn=135, after=4.5) == "turn_too_sharp"


def test_only_whole_stretches_of_the_distance_count_for_a_turn() -> None:
    assert move("average", turn=90, after=2.9) == "turn_too_soon"


def test_average_flier_climbs_at_60_deg_and_dives_at_any_angle() -> None:
    assert move("average", climb=60) == "legal"
    assert move("average", climb=61) == "climb_too_steep"
    assert move("average", dive=90) == "legal"
    assert move("average", turn_in_place=45) == "legal"
    assert move("average", turn_in_place=90) == "cannot_turn_in_place"


def test_poor_flier_keeps_to_45_deg() -> None:
    assert move("poor", turn=45, after=1.5, climb=45, dive=45) == "legal"
    assert move("poor", turn=90, after=3) == "turn_too_sharp"
    assert move("poor", climb=60) == "climb_too_steep"
    assert move("poor", dive=60) == "dive_too_steep"
    assert move("poor", turn_in_place=45) == "cannot_turn_in_place"


def test_clumsy_flier_needs_3_m_for_each_45_deg() -> None:
    assert move("clumsy", turn=45, after=1.5) == "turn_too_soon"
    assert move("clumsy", turn=45, after=3) == "legal"
    assert move("clumsy", turn=90, after=6) == "turn_too_sharp"


def test_an_unknown_class_is_refused_with_suggestions() -> None:
    with pytest.raises(d20.UnknownName, match="'clumsy'"):
        d20.flying_move(
            "clumsey",
            hover=False,
            backward=False,
            turn=0,
            after=0,
            turn_in_place=0,
            spent=0,
            climb=0,
            dive=0,
            climb_after_dive=False,
            level_flown=0,
        )


def test_the_flying_move_decision_is_listed_by_name() -> None:
    assert d20.DECISIONS["flying_move"] is d20.flying_move


# ---- failing the minimum speed ---------------------------------------------------------------


def test_failing_the_minimum_speed_falls_45_m() -> None:
    assert d20.lookup("stall", "first_fall") == 45
    assert d20.lookup("stall", "first_fall").unit == "m"


def test_recovery_is_a_reflex_save_dc_20_the_next_round() -> None:
    assert d20.lookup("stall", "reflex_dc") == 20


def test_each_failed_save_falls_90_m_more() -> None:
    assert d20.lookup("stall", "next_fall") == 90
    total_after_two_failed_saves = d20.lookup("stall", "first_fall") + 2 * d20.lookup(
        "stall", "next_fall"
    )
    assert total_after_two_failed_saves == 225


def test_the_fall_rule_has_labels_for_the_sheet() -> None:
    table = d20.TABLES["stall"]
    assert table.label["en"] and table.label["fr"]
    assert list(table.rows) == ["first_fall", "reflex_dc", "next_fall"]


def test_chases_use_dexterity_then_constitution() -> None:
    assert d20.lookup("chase", "short") == "dexterity"
    assert d20.lookup("chase", "long") == "constitution"


# ---- issue 16: rules fidelity ----------------------------------------------------------------

# The French sheet's words (tests/test_print_typography.py reads its narrow spaces).
SHEET_FR = (
    (Path(__file__).resolve().parent.parent / "generated" / "sheets" / "d20_movement.fr.md")
    .read_text(encoding="utf-8")
    .replace("\u202f", " ")
)


def test_a_good_flyer_spends_3_m_to_turn_180_deg_in_place() -> None:
    # "dépenser une partie de sa vitesse de déplacement pour tourner sur place": a rate.
    assert move("good", turn_in_place=180, spent=3) == "legal"
    assert move("good", turn_in_place=270, spent=4.5) == "legal"
    assert move("good", turn_in_place=180, spent=1.5) == "cannot_turn_in_place"
    assert move("good", turn_in_place=90, spent=0) == "cannot_turn_in_place"


def test_only_whole_stretches_of_movement_spent_count_for_a_turn_in_place() -> None:
    assert move("good", turn_in_place=180, spent=2.9) == "cannot_turn_in_place"


def test_an_average_flyer_turns_in_place_by_the_table_a_stated_reading() -> None:
    # The text says good or perfect; the table gives average 45 degrees per 1.5 m.
    assert move("average", turn_in_place=90, spent=3) == "legal"
    assert move("poor", turn_in_place=45, spent=3) == "cannot_turn_in_place"
    assert "manœuvrabilité bonne ou parfaite" in SHEET_FR


def test_5_ft_is_stated_as_the_srds_not_the_chapters() -> None:
    assert "Case de 2,5 cm de côté = 1,50 m" in SHEET_FR
    assert "SRD" in SHEET_FR


def test_french_labels_follow_the_chapter() -> None:
    table = d20.TABLES["armor_speed"]
    assert table.column_labels["reduced"]["fr"] == "VD réduite"
    assert table.label["fr"] == "Armure et charge transportée"
    assert d20.TABLES["chase"].label["fr"] == "Poursuite"


# ---- issue 28: what a player would still call wrong ------------------------------------------

SHEET_EN = (
    Path(__file__).resolve().parent.parent / "generated" / "sheets" / "d20_movement.en.md"
).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("cls", "enough"), [("perfect", 0), ("good", 0), ("average", 1.5), ("poor", 3), ("clumsy", 6)]
)
def test_a_climb_after_a_dive_needs_the_class_s_level_flight_first(cls: str, enough: float) -> None:
    # "Transition descente/montée | 0 m | 0 m | 1,50 m | 3 m | 6 m": average, poor and clumsy
    # flyers "doit voler à l'horizontale sur une certaine distance pour pouvoir grimper après
    # être descendue".
    assert move(cls, climb_after_dive=True, level_flown=enough) == "legal"
    if enough:
        assert move(cls, climb_after_dive=True, level_flown=enough - 0.5) == (
            "climb_too_soon_after_dive"
        )
    # "n'importe quelle créature peut commencer à descendre dès qu'elle achève sa montée"
    assert move(cls, climb_after_dive=False, level_flown=0) == "legal"


def test_flying_move_is_labelled_for_what_it_checks_and_names_what_it_does_not() -> None:
    rows = "\n".join(SHEET_EN.split("### Flight limits", 1)[1].split("###", 1)[:1])
    assert "hover, backward, turns, angles, dive to climb" in SHEET_EN
    assert "Legal flying move" not in SHEET_EN
    assert (
        "Not checked here, see the flight table: the minimum forward speed, the climb and" in rows
    )
    assert "Non vérifiés ici, voir la table de manœuvrabilité : la vitesse minimale" in SHEET_FR
    assert "Trop peu de vol horizontal entre la descente et la montée" in SHEET_FR


def test_the_9_m_diagonal_example_is_on_the_sheet() -> None:
    # "1 case en diagonale (1,50 mètre), de 3 cases en ligne droite (4,50 mètres), puis d'une
    # autre case en diagonale (3 mètres), pour ton déplacement total de 9 mètres".
    assert d20.path_cost("dsssd", unit="m") == 9
    assert "1 square diagonally (1.5 m), 3 straight (4.5 m), then 1 more diagonally (3 m): 9 m" in (
        SHEET_EN
    )
    assert "1 case en diagonale (1,50 m), 3 cases en ligne droite (4,50 m)" in SHEET_FR


def test_5_ft_names_the_srd_section_it_comes_from() -> None:
    assert "Movement, Position, and Distance" in SHEET_EN
    assert "« Déplacement, position et distance »" in SHEET_FR


def test_a_perfect_flyer_reverses_for_free_a_stated_reading() -> None:
    # The table says "Oui" for perfect; only good manoeuvrability "perd 1,50 mètre".
    assert d20.lookup("flight", "perfect", "reverse") == "free"
    assert 'Reading: the table\'s "Oui" (yes) for perfect is read as free' in SHEET_EN
    assert "« Oui » de la table pour la manœuvrabilité parfaite est lu comme gratuit" in SHEET_FR


def test_a_call_written_for_1_0_0_leaves_the_new_inputs_to_their_defaults() -> None:
    # 1.0.0's flying_move took nine inputs; 1.1.0's two new ones default to no dive before the
    # climb and no level flight, so a 1.0.0 call keeps its answer (tests/test_released.py)
    for cls in CLASSES:
        assert d20.flying_move(cls, False, False, 0, 0, 0, 0, 30, 0).id == "legal"
    # a climb said to follow a dive, with no level distance given: none was flown
    assert d20.flying_move("clumsy", False, False, 0, 0, 0, 0, 30, 0, True).id == (
        "climb_too_soon_after_dive"
    )
