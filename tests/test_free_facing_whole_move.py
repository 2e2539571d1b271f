"""Whole-move rules beside facing off the grid (issue 40). A free move (`free_move`, legs in
inches) names no features, so no leg could count for `at most 1 river`, carry `crosses hedge`
or keep `on road, allowance +2 in`: such a rule beside a `facing MODE : turn ...` line is
refused at its place, E494 for a limit or a crosses rule, E495 for a bonus, rather than left
silently out of the free move's answers. Rulesets with whole-move rules and no facing off the
grid are unchanged."""

from __future__ import annotations

from pathlib import Path

from rulesdsl.compiler import Compiler
from tests.test_free_facing import HEADER, JEEP, TANK
from tests.test_sight_and_results import located, yaml_errors

WATER = 'layer water "Water" {\n  columns cost\n  river "River" | 2\n  ford "Ford" | 1\n}\n'
LIMIT = 'whole move one_river "One river a move" : at most 1 river\n'
MARK = 'whole move no_fire "May not fire" : crosses ford or river\n'
BONUS = 'whole move open_ground "Open ground" : on clear, allowance +2 in\n'


def _at(text: str, line: str, part: str) -> tuple[int, int]:
    """The line and column of ``part`` in ``line`` of ``text``."""
    number = text.split("\n").index(line.rstrip("\n")) + 1
    return number, line.index(part) + 1


def test_a_whole_move_limit_beside_facing_off_the_grid_is_e494_at_the_limit() -> None:
    text = HEADER + TANK + JEEP + WATER + LIMIT
    assert located(Compiler(), text) == [("E494", *_at(text, LIMIT, "1 river"))]


def test_a_crosses_rule_beside_facing_off_the_grid_is_e494_at_its_first_feature() -> None:
    text = HEADER + TANK + WATER + MARK
    assert located(Compiler(), text) == [("E494", *_at(text, MARK, "ford"))]


def test_a_whole_move_bonus_beside_facing_off_the_grid_is_e495_at_the_bonus() -> None:
    text = HEADER + JEEP + WATER + BONUS
    assert located(Compiler(), text) == [("E495", *_at(text, BONUS, "+2 in"))]


def test_every_whole_move_rule_beside_facing_off_the_grid_is_reported_in_one_run() -> None:
    compiled = Compiler().compile_text(HEADER + TANK + WATER + LIMIT + MARK + BONUS, "w.terrain")
    errors = [d for d in compiled.diagnostics if d.is_error]
    assert [d.code for d in errors] == ["E494", "E494", "E495"]
    assert all("(tank)" in d.message and "legs name no features" in d.hint for d in errors)


def test_whole_move_rules_without_facing_off_the_grid_still_compile_clean() -> None:
    assert located(Compiler(), HEADER + WATER + LIMIT + MARK + BONUS) == []
    assert located(Compiler(), HEADER + TANK + JEEP + WATER) == []


def test_a_whole_move_rule_beside_facing_off_the_grid_in_yaml_is_reported_at_its_entry(
    tmp_path: Path,
) -> None:
    found = yaml_errors(HEADER + TANK + WATER + LIMIT + BONUS, tmp_path)
    assert [d.code for d in found] == ["E494", "E495"]


def test_a_house_rule_that_drops_the_facing_off_the_grid_may_add_whole_move_rules(
    tmp_path: Path,
) -> None:
    (tmp_path / "tanks.terrain").write_text(HEADER + TANK + WATER, "utf-8")
    house = tmp_path / "house.terrain"
    head = 'ruleset house "House"\nversion 1.0.0\nextends tanks@^1.0\n'
    house.write_text(head + LIMIT, "utf-8")
    compiled = Compiler().compile_file(house)
    assert [d.code for d in compiled.diagnostics if d.is_error] == ["E494"]
    house.write_text(head + "remove facing tank\n" + LIMIT, "utf-8")
    compiled = Compiler().compile_file(house)
    assert [d.code for d in compiled.diagnostics if d.is_error] == []
