"""Tests for rulesdsl.semantics.dice: exact dice probabilities, parsing and formatting."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesdsl.semantics.dice import (
    MAX_COUNT,
    MAX_SIDES,
    Dice,
    DiceError,
    chance_at_least,
    chance_between,
    parse_dice,
    percent,
    reachable_totals,
)

counts = st.integers(min_value=1, max_value=8)
sides = st.integers(min_value=1, max_value=12)
bonuses = st.integers(min_value=-20, max_value=20)
dice_st = st.builds(Dice, counts, sides, bonuses)
plain_dice_st = st.builds(Dice, counts, sides)


# --- the numbers the rules sheets rely on ---------------------------------------------


def test_2d6_distribution_sums_to_one() -> None:
    dist = parse_dice("2d6").distribution()
    assert sum(dist.values()) == 1
    assert dist[7] == Fraction(6, 36)
    assert dist[2] == dist[12] == Fraction(1, 36)


def test_2d6_between_2_and_7() -> None:
    p = chance_between(parse_dice("2d6"), 2, 7)
    assert p == Fraction(21, 36)
    assert percent(p) == "58.3 %"


def test_2d6_at_least_8() -> None:
    dice = parse_dice("2d6")
    assert chance_at_least(dice, 8) == Fraction(15, 36)
    assert chance_between(dice, 8, None) == Fraction(15, 36)


def test_1d6_plus_3_ranges_4_to_9() -> None:
    dice = parse_dice("1d6+3")
    assert (dice.minimum, dice.maximum) == (4, 9)
    assert list(dice.distribution()) == [4, 5, 6, 7, 8, 9]
    assert set(dice.distribution().values()) == {Fraction(1, 6)}
    assert reachable_totals(dice, []) == range(4, 10)


def test_chance_edges() -> None:
    dice = parse_dice("2d6")
    assert chance_at_least(dice, 2) == 1
    assert chance_at_least(dice, -100) == 1
    assert chance_at_least(dice, 12) == Fraction(1, 36)
    assert chance_at_least(dice, 13) == 0
    assert chance_between(dice, 7, 7) == Fraction(1, 6)
    assert chance_between(dice, 8, 6) == 0  # empty range
    assert chance_between(dice, 13, None) == 0
    assert chance_between(dice, -5, 100) == 1


def test_distribution_is_a_fresh_copy() -> None:
    dice = parse_dice("2d6")
    dice.distribution()[7] = Fraction(0)
    assert dice.distribution()[7] == Fraction(1, 6)


def test_3d6_minus_2_known_values() -> None:
    dice = parse_dice("3d6-2")
    dist = dice.distribution()
    assert (dice.minimum, dice.maximum) == (1, 16)
    assert dist[8] == dist[9] == Fraction(27, 216)  # 10 and 11 on 3d6
    assert dist[10] == Fraction(25, 216)  # 12 on 3d6


# --- parsing and canonical text -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected", "canonical"),
    [
        ("2d6", Dice(2, 6), "2d6"),
        ("1d6+3", Dice(1, 6, 3), "1d6+3"),
        ("d10", Dice(1, 10), "1d10"),
        ("3d6-2", Dice(3, 6, -2), "3d6-2"),
        (" 2D6 ", Dice(2, 6), "2d6"),
        ("2d6 - 1", Dice(2, 6, -1), "2d6-1"),
        ("1d6+0", Dice(1, 6), "1d6"),
        ("1d1", Dice(1, 1), "1d1"),
        ("d100", Dice(1, 100), "1d100"),
    ],
)
def test_parse(text: str, expected: Dice, canonical: str) -> None:
    dice = parse_dice(text)
    assert dice == expected
    assert str(dice) == canonical


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("0d6", "at least one die"),
        ("2d0", "at least one side"),
        ("", "invalid dice expression"),
        ("   ", "invalid dice expression"),
        ("abc", "invalid dice expression 'abc'"),
        ("2d", "expected NdS"),
        ("d", "expected NdS"),
        ("6", "expected NdS"),
        ("2d6+", "expected NdS"),
        ("2d6+1+1", "expected NdS"),
        ("2x6", "expected NdS"),
        ("-1d6", "expected NdS"),
        ("2d6.5", "expected NdS"),
        ("2 d6", "expected NdS"),
        ("\uff12d6", "expected NdS"),  # fullwidth digit
        (f"{MAX_COUNT + 1}d6", f"between 1 and {MAX_COUNT}"),
        (f"1d{MAX_SIDES + 1}", f"between 1 and {MAX_SIDES}"),
    ],
)
def test_parse_errors(text: str, fragment: str) -> None:
    with pytest.raises(DiceError) as info:
        parse_dice(text)
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_parse_rejects_non_string() -> None:
    with pytest.raises(DiceError, match="must be a string"):
        parse_dice(6)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("count", "sides", "bonus"), [(0, 6, 0), (1, 0, 0), (-1, 6, 0), (2, 6.0, 0), (True, 6, 0)]
)
def test_dice_constructor_validates(count: object, sides: object, bonus: object) -> None:
    with pytest.raises(DiceError):
        Dice(count, sides, bonus)  # type: ignore[arg-type]


def test_dice_is_frozen_and_hashable() -> None:
    dice = Dice(2, 6)
    with pytest.raises(AttributeError):
        dice.count = 3  # type: ignore[misc]
    assert {dice: "x"}[Dice(2, 6, 0)] == "x"


# --- formatting and spans -------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(21, 36), "58.3 %"),
        (Fraction(15, 36), "41.7 %"),
        (Fraction(1, 3), "33.3 %"),
        (Fraction(2, 3), "66.7 %"),
        (Fraction(1), "100.0 %"),
        (Fraction(0), "0.0 %"),
        (Fraction(1, 2000), "0.1 %"),  # exactly 0.05 %: half rounds up
        (Fraction(3, 2000), "0.2 %"),  # 0.15 %: no binary float error
        (Fraction(1, 2001), "0.0 %"),
        (Fraction(1, 36), "2.8 %"),
    ],
)
def test_percent(value: Fraction, text: str) -> None:
    assert percent(value) == text


def test_reachable_totals() -> None:
    dice = parse_dice("2d6")
    assert reachable_totals(dice, []) == range(2, 13)
    assert reachable_totals(dice, [-2, 1]) == range(0, 14)
    assert reachable_totals(dice, [3]) == range(2, 16)  # 0 is always included
    assert reachable_totals(dice, iter([-1, -1])) == range(1, 13)


# --- properties -----------------------------------------------------------------------


@given(dice_st)
def test_distribution_keys_are_min_to_max(dice: Dice) -> None:
    dist = dice.distribution()
    assert list(dist) == list(range(dice.minimum, dice.maximum + 1))
    assert sum(dist.values()) == 1
    assert all(p > 0 for p in dist.values())


@given(plain_dice_st)
def test_plain_distribution_is_symmetric(dice: Dice) -> None:
    dist = dice.distribution()
    for total, p in dist.items():
        assert dist[dice.minimum + dice.maximum - total] == p


@given(
    st.builds(
        Dice,
        st.integers(min_value=1, max_value=4),
        st.integers(min_value=1, max_value=8),
        bonuses,
    )
)
def test_distribution_matches_brute_force(dice: Dice) -> None:
    rolls = itertools.product(range(1, dice.sides + 1), repeat=dice.count)
    tally = Counter(sum(roll) + dice.bonus for roll in rolls)
    total = dice.sides**dice.count
    assert dice.distribution() == {t: Fraction(n, total) for t, n in sorted(tally.items())}


@given(dice_st, st.integers(min_value=-60, max_value=120))
def test_chance_at_least_matches_distribution(dice: Dice, target: int) -> None:
    expected = sum((p for t, p in dice.distribution().items() if t >= target), Fraction(0))
    assert chance_at_least(dice, target) == expected
    assert chance_between(dice, target, None) == expected


@given(dice_st, st.integers(-60, 120), st.integers(-60, 120))
def test_chance_between_matches_distribution(dice: Dice, low: int, high: int) -> None:
    expected = sum((p for t, p in dice.distribution().items() if low <= t <= high), Fraction(0))
    assert chance_between(dice, low, high) == expected


@given(dice_st)
def test_str_round_trips(dice: Dice) -> None:
    assert parse_dice(str(dice)) == dice
    assert parse_dice(f"  {str(dice).upper()}  ") == dice


@given(st.fractions(min_value=0, max_value=1))
def test_percent_is_nearest_tenth(value: Fraction) -> None:
    text = percent(value)
    assert text.endswith(" %")
    shown = Fraction(text.removesuffix(" %"))
    assert abs(shown - value * 100) <= Fraction(1, 20)


@given(dice_st, st.lists(st.integers(-10, 10), max_size=5))
def test_reachable_totals_span(dice: Dice, modifiers: list[int]) -> None:
    span = reachable_totals(dice, modifiers)
    mods = [0, *modifiers]
    assert span.start == dice.minimum + min(mods)
    assert span.stop - 1 == dice.maximum + max(mods)
