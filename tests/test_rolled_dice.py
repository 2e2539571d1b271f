"""The module reads the dice as rolled (issue 25, item 2): `roll(table, total, ...,
dice=(3, 3))` finds the natural roll and doubles itself, so a column shift written `modifier
doubles shift left 1 on doubles` and a `natural N` row apply without the caller working them
out; the old `natural=` and `shift=` keep working, and dice the table cannot roll (the wrong
number, a face out of range) are the module's InvalidArgument naming roll()."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl.compiler import Compiler
from tests.conftest import compile_snippet, import_rendered

HEADER = """ruleset demo "Demo"
version 1.0.0
units distance hex, cost MP
mode foot "Foot"
"""

CRT = """dice crt "Combat results" : 2d6 by odds round down {
  modifier doubles "Doubles" shift left 1 on doubles
  column odds_1_1 "1:1 or less" at 1:1
  column odds_2_1 "2:1" at 2:1
  column odds_3_1 "3:1 or more" at 3:1
  outcome ae "Attacker eliminated"
  outcome dr "Defender retreats"
  outcome de "Defender eliminated"
  natural 12 de
  2-5  | ae | ae | dr
  6-8  | ae | dr | de
  9+   | dr | de | de
}
"""

EFFECTS = """dice terrain_effects "Terrain effects" : 2d6 {
  natural 12 major
  2-7  no_effect "No effect"
  8-11 fire "Fire"
  12+  major "Major explosion"
}
"""

D66 = """dice events "Events" : d66 {
  11-32 quiet "Quiet"
  33    storm "Storm"
  34-66 calm "Calm"
}
"""


def _module(compiler: Compiler, tmp_path: Path, body: str, name: str) -> ModuleType:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    return import_rendered(compiled.ruleset, tmp_path, name)


@pytest.fixture(scope="module")
def crt(compiler: Compiler, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    folder = tmp_path_factory.mktemp("rolled")
    return _module(compiler, folder, CRT + EFFECTS + D66, "rolled_dice_results")


@pytest.fixture(scope="module")
def plain(compiler: Compiler, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """A module with plain dice tables only (its roll() has no column or shift)."""
    folder = tmp_path_factory.mktemp("rolled_plain")
    return _module(compiler, folder, EFFECTS + D66, "rolled_dice_plain")


def test_doubles_shift_the_column_as_the_doubles_modifier_says(crt: ModuleType) -> None:
    # 3 + 3 = 6 at 2:1 is "dr"; doubles move one column left, to 1:1: "ae"
    assert crt.roll("crt", 6, column="odds_2_1", dice=(3, 3)).column == "odds_1_1"
    assert crt.roll("crt", 6, column="odds_2_1", dice=(3, 3)).id == "ae"
    assert crt.roll("crt", 6, column=(7, 3), dice=[3, 3]).id == "ae"


def test_dice_that_are_not_doubles_do_not_shift(crt: ModuleType) -> None:
    assert crt.roll("crt", 6, column="odds_2_1", dice=(2, 4)).column == "odds_2_1"


def test_doubles_stop_at_the_first_column(crt: ModuleType) -> None:
    assert crt.roll("crt", 6, column="odds_1_1", dice=(3, 3)).column == "odds_1_1"


def test_the_dice_give_the_natural_roll_on_a_results_table(crt: ModuleType) -> None:
    # natural 12 is "de" whatever the column; 12 is doubles too, so the column moves left
    rolled = crt.roll("crt", 9, column="odds_2_1", dice=(6, 6))
    assert (rolled.id, rolled.natural, rolled.column) == ("de", True, "odds_1_1")
    assert crt.roll("crt", 9, column="odds_2_1", dice=(5, 6)).natural is False


def test_the_dice_give_the_natural_roll_on_a_plain_table(
    crt: ModuleType, plain: ModuleType
) -> None:
    for m in (crt, plain):
        assert m.roll("terrain_effects", 9, dice=(6, 6)).id == "major"  # natural 12
        assert m.roll("terrain_effects", 9, dice=(4, 5)).id == "fire"


def test_a_d66_reads_tens_and_units(plain: ModuleType) -> None:
    # a d66 reads (3, 3) as 33: the natural roll is 33, whatever the total
    assert plain.roll("events", 40, dice=(3, 3)).id == "calm"  # no natural row: the total's
    assert plain._rolled(plain.DICE_TABLES["events"].dice, (3, 4), None) == (34, False)
    assert plain._rolled(plain.DICE_TABLES["events"].dice, (3, 3), None) == (33, True)


def test_the_old_natural_and_shift_arguments_still_work(crt: ModuleType) -> None:
    assert crt.roll("crt", 6, column="odds_2_1", shift=-1).column == "odds_1_1"
    assert crt.roll("crt", 3, column="odds_1_1", natural=12).id == "de"
    assert crt.roll("terrain_effects", 9, natural=12).id == "major"
    # a natural given with the dice that make it is the same question
    assert crt.roll("terrain_effects", 9, natural=12, dice=(6, 6)).id == "major"


@pytest.mark.parametrize("which", ["crt", "plain"])
@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ((3,), "roll() argument 'dice' must hold 2 faces for 2d6, not 1"),
        ((3, 3, 3), "roll() argument 'dice' must hold 2 faces for 2d6, not 3"),
        ((7, 1), "roll() argument 'dice' holds 7, which a d6 cannot show (1 to 6)"),
        ((0, 1), "roll() argument 'dice' holds 0, which a d6 cannot show (1 to 6)"),
    ],
)
def test_dice_the_table_cannot_roll_are_invalid_arguments_of_roll(
    crt: ModuleType, plain: ModuleType, which: str, dice: tuple[int, ...], message: str
) -> None:
    m = crt if which == "crt" else plain
    with pytest.raises(m.InvalidArgument) as raised:
        m.roll("terrain_effects", 7, dice=dice)
    assert str(raised.value).startswith(message)
    assert (raised.value.function, raised.value.argument) == ("roll", "dice")
    if which == "crt":
        with pytest.raises(m.InvalidArgument, match=r"^roll\(\) argument 'dice'"):
            m.roll("crt", 7, column="odds_1_1", dice=dice)


def test_a_natural_the_dice_do_not_make_is_an_invalid_argument(crt: ModuleType) -> None:
    with pytest.raises(crt.InvalidArgument, match=r"roll\(\) argument 'natural' differs"):
        crt.roll("crt", 7, column="odds_1_1", natural=12, dice=(5, 6))


@pytest.mark.parametrize("dice", ["33", (3.0, 3), (True, 1), 33])
def test_dice_of_the_wrong_type_are_argument_type_errors(crt: ModuleType, dice: object) -> None:
    with pytest.raises(crt.ArgumentTypeError, match=r"^roll\(\) argument 'dice'"):
        crt.roll("terrain_effects", 7, dice=dice)


def test_dice_for_an_unknown_table_name_the_tables(crt: ModuleType, plain: ModuleType) -> None:
    with pytest.raises(crt.UnknownName, match="crt"):
        crt.roll("crtt", 7, column="odds_1_1", dice=(3, 4))
    with pytest.raises(plain.UnknownName, match="terrain_effects"):
        plain.roll("terrain_effect", 7, dice=(3, 4))
