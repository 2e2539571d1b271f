"""Generated modules do not trust their callers (issue 15, item 5).

A wrong argument raises the module's own ``ArgumentTypeError`` (a ``TypeError``) or
``InvalidArgument`` (a ``ValueError``), whose message and attributes name the function and the
argument; an unknown name still raises ``UnknownName``. And a step or decision named after a
builtin (``sorted``, ``max``, ...) cannot change what the module's own functions do.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import subprocess
import sys
import warnings
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from ruff import find_ruff_bin

from rulesdsl import ir
from rulesdsl.codegen.targets import render_python as render
from rulesdsl.compiler import Compiler
from tests.conftest import RULESETS, bundled, import_source, load_generated

hg = load_generated("heavy_gear")
bt = load_generated("battletech_tacops")
d20 = load_generated("d20_movement")
gw = load_generated("generic_wargame")

NOT_FINITE = [math.nan, math.inf, -math.inf]


def raises_type_error(
    module: ModuleType, function: str, argument: str, call: Callable[[], object]
) -> None:
    with pytest.raises(module.ArgumentTypeError) as caught:
        call()
    assert isinstance(caught.value, TypeError)
    assert isinstance(caught.value, module.ArgumentError)
    assert (caught.value.function, caught.value.argument) == (function, argument)
    assert f"{function}() argument {argument!r}" in str(caught.value)


def raises_invalid(
    module: ModuleType, function: str, argument: str, call: Callable[[], object], why: str
) -> None:
    with pytest.raises(module.InvalidArgument, match=why) as caught:
        call()
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, module.ArgumentError)
    assert (caught.value.function, caught.value.argument) == (function, argument)
    assert f"{function}() argument {argument!r}" in str(caught.value)


# ---- the errors are part of every module's API ----------------------------------------------


@pytest.mark.parametrize("module", [hg, bt, d20, gw], ids=lambda m: m.RULESET.id)
def test_every_module_exports_its_argument_errors(module: ModuleType) -> None:
    assert {"ArgumentError", "InvalidArgument", "ArgumentTypeError"} <= set(module.__all__)
    assert issubclass(module.InvalidArgument, ValueError)
    assert issubclass(module.ArgumentTypeError, TypeError)
    assert not issubclass(module.InvalidArgument, TypeError)
    assert not issubclass(module.ArgumentTypeError, ValueError)


# ---- move_cost and can_enter ----------------------------------------------------------------


def test_a_string_distance_is_a_type_error_not_a_repeated_string() -> None:
    # On main this returned '333': the cost 3 times the string "3".
    raises_type_error(
        hg, "move_cost", "distance", lambda: hg.move_cost("walker", "soft", distance="3")
    )


@pytest.mark.parametrize("distance", [None, [3], 2j])
def test_a_distance_that_is_no_real_number_is_a_type_error(distance: object) -> None:
    raises_type_error(
        bt, "move_cost", "distance", lambda: bt.move_cost("mech", "light_woods", distance=distance)
    )


def test_a_negative_distance_is_refused() -> None:
    raises_invalid(
        hg,
        "move_cost",
        "distance",
        lambda: hg.move_cost("walker", "soft", distance=-1),
        "at least 0",
    )


@pytest.mark.parametrize("distance", NOT_FINITE)
def test_a_distance_that_is_not_finite_is_refused(distance: float) -> None:
    raises_invalid(
        hg,
        "move_cost",
        "distance",
        lambda: hg.move_cost("walker", "soft", distance=distance),
        "finite",
    )


def test_an_impassable_place_still_checks_the_distance() -> None:
    assert hg.move_cost("walker", "deep_water") is hg.IMPASSABLE
    raises_invalid(
        hg,
        "move_cost",
        "distance",
        lambda: hg.move_cost("walker", "deep_water", distance=math.nan),
        "finite",
    )


def test_any_real_number_is_a_distance() -> None:
    assert hg.move_cost("walker", "soft", distance=Fraction(1, 2)) == Fraction(3, 2)
    assert hg.move_cost("walker", "soft", distance=2.5) == 7.5
    assert hg.move_cost("walker", "soft", distance=0) == 0
    assert hg.move_cost("walker", "soft", distance=hg.Quantity(2, "in")) == 6


@pytest.mark.parametrize(
    ("mode", "features", "argument"),
    [
        (None, ("soft",), "mode"),
        (["walker"], ("soft",), "mode"),
        ("walker", (3,), "features"),
        ("walker", (["soft"],), "features"),
    ],
)
def test_names_of_the_wrong_type_are_type_errors(
    mode: Any, features: tuple[Any, ...], argument: str
) -> None:
    raises_type_error(hg, "move_cost", argument, lambda: hg.move_cost(mode, *features))


def test_an_unknown_mode_is_still_an_unknown_name() -> None:
    with pytest.raises(hg.UnknownName, match="did you mean 'walker'"):
        hg.move_cost("walkr", "soft")


@pytest.mark.parametrize("available", ["3", [3]])
def test_available_movement_must_be_a_number(available: object) -> None:
    raises_type_error(
        bt,
        "can_enter",
        "available",
        lambda: bt.can_enter("mech", "light_woods", available=available),
    )


@pytest.mark.parametrize("available", [-1, *NOT_FINITE])
def test_available_movement_must_be_finite_and_not_negative(available: float) -> None:
    raises_invalid(
        bt,
        "can_enter",
        "available",
        lambda: bt.can_enter("mech", "light_woods", available=available),
        "at least 0|finite",
    )


def test_an_answer_remembered_by_move_cost_still_warns_and_raises_every_time() -> None:
    for _ in range(2):
        with pytest.raises(bt.InvalidPlace):
            bt.move_cost("mech", "light_woods", "heavy_woods")
    for _ in range(2):
        with pytest.warns(bt.ConflictWarning, match="blizzard \\+ extreme_heat"):
            bt.move_cost("mech", "clear", "blizzard", "extreme_heat")


def test_remembered_answers_are_the_answers() -> None:
    # Entry 1 MP, then +1 each for light woods, deep snow and mud.
    place = ("light_woods", "deep_snow", "mud")
    assert bt.ENTRY_COST + sum(bt.FEATURES[f].costs["mech"] for f in place) == 4
    assert [bt.move_cost("mech", *place) for _ in range(3)] == [4, 4, 4]
    assert bt.move_cost("mech", *place, distance=2) == 8


# ---- steps ------------------------------------------------------------------------------------


def test_climbing_a_negative_rise_is_refused() -> None:
    # On main climb(-1) gave -1 MP.
    raises_invalid(hg, "climb", "rise", lambda: hg.climb(-1), "at least 0")


def test_negative_thickness_gives_no_concealment_points() -> None:
    # On main light_concealment(-4) gave -1 point.
    raises_invalid(
        hg, "light_concealment", "thickness", lambda: hg.light_concealment(-4), "at least 0"
    )


@pytest.mark.parametrize(
    "step", ["climb", "light_concealment", "medium_concealment", "heavy_concealment"]
)
@pytest.mark.parametrize("value", NOT_FINITE)
def test_steps_refuse_numbers_that_are_not_finite(step: str, value: float) -> None:
    raises_invalid(
        hg, step, hg.STEPS[step].__code__.co_varnames[0], lambda: hg.STEPS[step](value), "finite"
    )


@pytest.mark.parametrize("value", ["1", None, [1]])
def test_steps_refuse_what_is_not_a_number(value: object) -> None:
    raises_type_error(hg, "climb", "rise", lambda: hg.climb(value))
    raises_type_error(hg, "light_concealment", "thickness", lambda: hg.light_concealment(value))


def test_steps_take_any_real_number() -> None:
    assert hg.climb(Fraction(3, 2)) == Fraction(3, 2)
    assert hg.light_concealment(hg.Quantity(5, "in")) == 1
    assert hg.heavy_concealment(0) == 0


# ---- decisions --------------------------------------------------------------------------------


def test_a_negative_distance_does_not_give_a_lock() -> None:
    # On main a target at -5 in counted as within the 1 in of its size: a passive lock.
    raises_invalid(hg, "lock", "distance", lambda: hg.lock(False, 3, 1, -5, 1), "at least 0")


def test_a_negative_distance_is_not_inside_the_line_of_sight_reach() -> None:
    raises_invalid(
        gw, "sight_in_cover", "distance", lambda: gw.sight_in_cover("dense", -50), "at least 0"
    )


def test_a_negative_distance_does_not_identify_a_camouflaged_element() -> None:
    raises_invalid(gw, "camouflage", "distance", lambda: gw.camouflage(False, -50), "at least 0")


@pytest.mark.parametrize("value", NOT_FINITE)
def test_decisions_refuse_numbers_that_are_not_finite(value: float) -> None:
    raises_invalid(hg, "lock", "detection", lambda: hg.lock(False, 3, value, 2, 1), "finite")
    raises_invalid(
        d20,
        "flying_move",
        "turn",
        lambda: d20.flying_move("good", False, False, value, 0, 0, 0, 0, 0, False, 0),
        "finite",
    )


def test_scores_may_be_negative_but_distances_may_not() -> None:
    assert hg.lock(False, 3, -1, 6, 2).id == "active"
    raises_invalid(hg, "lock", "distance", lambda: hg.lock(False, 3, 1, -6, 2), "at least 0")


@pytest.mark.parametrize(
    ("module", "function", "argument", "call"),
    [
        (hg, "lock", "distance", lambda: hg.lock(False, 1, 2, "3", 4)),
        (hg, "lock", "hidden", lambda: hg.lock("no", 1, 2, 3, 4)),
        (hg, "abstract_cover", "size", lambda: hg.abstract_cover(2, None)),
        (gw, "sight_in_cover", "cover", lambda: gw.sight_in_cover(["open"], 3)),
        (gw, "sight_in_cover", "distance", lambda: gw.sight_in_cover("open", "3")),
        (gw, "camouflage", "distance", lambda: gw.camouflage(False, "3")),
        (gw, "camouflage", "spotting_test", lambda: gw.camouflage("yes", 3)),
        (
            d20,
            "flying_move",
            "maneuverability",
            lambda: d20.flying_move(["good"], False, False, 1, 0, 0, 0, 0, 0, False, 0),
        ),
        (
            d20,
            "flying_move",
            "turn",
            lambda: d20.flying_move("good", False, False, "1", 0, 0, 0, 0, 0, False, 0),
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_decisions_name_the_argument_of_the_wrong_type(
    module: ModuleType, function: str, argument: str, call: Callable[[], object]
) -> None:
    raises_type_error(module, function, argument, call)


def test_an_unknown_key_of_a_decision_is_still_an_unknown_name() -> None:
    with pytest.raises(gw.UnknownName, match="did you mean 'dense'"):
        gw.sight_in_cover("dnse", 3)


# ---- the other questions: the raw TypeErrors of main ------------------------------------------


@pytest.mark.parametrize(
    ("module", "function", "argument", "call"),
    [
        (bt, "modifier", "items", lambda: bt.modifier("to_hit", ["light_woods"])),
        (bt, "modifier", "weapon", lambda: bt.modifier("to_hit", weapon=3)),
        (bt, "roll", "total", lambda: bt.roll("terrain_effects", "11")),
        (bt, "roll", "total", lambda: bt.roll("terrain_effects", None)),
        (d20, "lookup", "row", lambda: d20.lookup("armor_speed", [30])),
        (d20, "lookup", "keys", lambda: d20.lookup("armor_speed", 30, 30)),
        (d20, "path_cost", "steps", lambda: d20.path_cost(None)),
        (d20, "path_cost", "steps", lambda: d20.path_cost([1])),
        (d20, "path_cost", "unit", lambda: d20.path_cost("s", unit=["m"])),
        (bt, "conflicts", "names", lambda: bt.conflicts(["blizzard"])),
        (gw, "param", "name", lambda: gw.param(["infantry_road"])),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_questions_name_the_argument_of_the_wrong_type(
    module: ModuleType, function: str, argument: str, call: Callable[[], object]
) -> None:
    raises_type_error(module, function, argument, call)


def test_a_dice_total_is_a_whole_number() -> None:
    raises_invalid(bt, "roll", "total", lambda: bt.roll("terrain_effects", 11.5), "whole")
    raises_invalid(bt, "roll", "total", lambda: bt.roll("terrain_effects", math.nan), "finite")
    assert bt.roll("terrain_effects", 11.0) is bt.roll("terrain_effects", 11)


def test_a_total_beyond_the_dice_still_finds_an_open_ended_row() -> None:
    top = bt.DICE_TABLES["terrain_effects"].rows[-1]
    assert top.high is None
    assert bt.roll("terrain_effects", 99) is top


def test_a_table_key_that_is_not_finite_is_refused() -> None:
    raises_invalid(d20, "lookup", "row", lambda: d20.lookup("armor_speed", math.nan), "finite")


# ---- names that shadow builtins ---------------------------------------------------------------

SHADOWS = [
    "sorted",
    "max",
    "isinstance",
    "str",
    "len",
    "tuple",
    "float",
    "int",
    "iter",
    "next",
    "type",
    "repr",
    "abs",
    "dict",
    "zip",
    "frozenset",
    "setattr",
    "property",
    "bool",
]


@functools.cache
def heavy_gear_ir() -> ir.Ruleset:
    """heavy_gear's IR, compiled once for the tests that write variants of its module (the IR
    is frozen: each test makes its variant with ``dataclasses.replace``)."""
    compiled = bundled("heavy_gear")
    assert compiled.ruleset is not None
    return compiled.ruleset


RUFF = find_ruff_bin()
"""The ruff that ``python -m ruff`` runs (it execs this binary): without the Python that
would start only to find it, 20 ms of CPU a variant."""


def import_rendered(rs: ir.Ruleset, tmp_path: Path, name: str) -> ModuleType:
    path = tmp_path / f"{name}.py"
    path.write_text(render(rs), "utf-8")
    result = subprocess.run(
        [RUFF, "check", "--isolated", "--select", "F", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout
    sys.path.insert(0, str(tmp_path))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(name, None)


@pytest.mark.parametrize("builtin", SHADOWS)
def test_a_step_named_after_a_builtin_breaks_nothing(builtin: str, tmp_path: Path) -> None:
    rs = heavy_gear_ir()
    steps = (dataclasses.replace(rs.steps[0], id=builtin), *rs.steps[1:])
    decisions = (dataclasses.replace(rs.decisions[0], id=f"{builtin}_"), *rs.decisions[1:])
    module = import_rendered(
        dataclasses.replace(rs, steps=steps, decisions=decisions), tmp_path, f"shadow_{builtin}"
    )
    assert module.STEPS[builtin](1) == 1  # the step itself, under its name
    with pytest.raises(module.UnknownName, match="did you mean 'walker'"):
        module.move_cost("walkr", "soft")
    assert module.move_cost("walker", "soft", distance=3) == 9
    with pytest.raises(module.InvalidArgument):
        module.move_cost("walker", "soft", distance=-1)
    with pytest.raises(module.ArgumentTypeError):
        module.move_cost("walker", "soft", distance="3")
    with pytest.raises(module.InvalidPlace):
        module.move_cost("walker", "soft", "rough")
    assert module.modifier("cover", "full", "solid") is module.BLOCKED
    assert module.light_concealment(5) == 1
    assert module.lookup("setup", "pieces_per_square") == hg.lookup("setup", "pieces_per_square")
    assert repr(module.FEATURES["soft"]).startswith("Feature(id='soft'")
    assert module.conflicts("soft") == ()
    with pytest.raises(module.ArgumentTypeError):
        module.STEPS["light_concealment"]("5")


@pytest.mark.parametrize("builtin", ["max", "value", "valid"])
def test_a_step_input_named_like_a_local_of_the_module_breaks_nothing(
    builtin: str, tmp_path: Path
) -> None:
    # light_concealment: +1 per full 4 in, at least 1 from 2 in. On main an input named
    # `value` was overwritten by the running total before the "at least" test read it.
    rs = heavy_gear_ir()
    steps = tuple(
        dataclasses.replace(st, param=builtin) if st.id == "light_concealment" else st
        for st in rs.steps
    )
    module = import_rendered(dataclasses.replace(rs, steps=steps), tmp_path, f"input_{builtin}")
    assert [module.light_concealment(x) for x in (0, 1, 2.5, 5, 8)] == [0, 0, 1, 1, 2]
    with pytest.raises(module.InvalidArgument):
        module.light_concealment(-4)


def test_no_warning_is_left_behind_by_a_valid_question() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert hg.move_cost("walker", "soft", distance=3) == 9
        assert hg.climb(1) == 1


# ---- numbers beyond a float, and arguments that are no places (issue 30, item 11) ------------
# Rendered from the rulesets by this compiler, not read from generated/: these check the
# templates as they are now.

HUGE = [10**400, -(10**400), Fraction(10**400)]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], ModuleType]:
    folder = tmp_path_factory.mktemp("fresh_modules")
    made: dict[str, ModuleType] = {}

    def module(name: str) -> ModuleType:
        if name not in made:
            compiled = bundled(name)
            assert compiled.ruleset is not None, compiled.diagnostics
            made[name] = import_source(render(compiled.ruleset), folder, f"fresh_{name}")
        return made[name]

    return module


def _board(m: ModuleType) -> Any:
    return m.Board({(0, 0): ["clear"], (1, 0): ["clear"], (0, 1): ["clear"]}, grid="hex")


NUMBER_ARGUMENTS: list[tuple[str, str, str, Callable[[ModuleType, object], object]]] = [
    (
        "battletech_tacops",
        "move_cost",
        "allowance",
        lambda m, x: m.move_cost("mech", "light_woods", allowance=x),
    ),
    (
        "heavy_gear",
        "can_enter",
        "available",
        lambda m, x: m.can_enter("walker", "soft", available=x),
    ),
    ("battletech_tacops", "roll", "total", lambda m, x: m.roll("terrain_effects", x)),
    ("d20_movement", "lookup", "row", lambda m, x: m.lookup("armor_speed", x)),
    ("heavy_gear", "light_concealment", "thickness", lambda m, x: m.light_concealment(x)),
    ("heavy_gear", "abstract_cover", "cover_size", lambda m, x: m.abstract_cover(x, x)),
    (
        "d20_movement",
        "flying_move",
        "after",
        lambda m, x: m.flying_move("good", False, False, 90, x, 0, 30, 0, 0, False, 0),
    ),
    (
        "battletech_tacops",
        "line_of_sight",
        "crossed",
        lambda m, x: m.line_of_sight("los", ("clear",), ("clear",), crossed=[1, x]),
    ),
    (
        "hex_operational",
        "reachable",
        "budget",
        lambda m, x: m.reachable(_board(m), "foot", (0, 0), x),
    ),
    (
        "hex_operational",
        "route_cost",
        "allowance",
        lambda m, x: m.route_cost(_board(m), "foot", [(0, 0), (1, 0)], x),
    ),
    (
        "hex_operational",
        "cheapest_route",
        "allowance",
        lambda m, x: m.cheapest_route(_board(m), "foot", (0, 0), (1, 0), x),
    ),
    ("hex_operational", "roll", "column", lambda m, x: m.roll("crt", 3, x)),
    ("hex_operational", "roll", "total", lambda m, x: m.roll("crt", x, "odds_1_1")),
    ("hex_operational", "roll", "natural", lambda m, x: m.roll("crt", 3, "odds_1_1", x)),
]


@pytest.mark.parametrize("number", HUGE, ids=["1e400", "-1e400", "Fraction(1e400)"])
@pytest.mark.parametrize(
    ("ruleset", "function", "argument", "call"),
    NUMBER_ARGUMENTS,
    ids=[f"{f}-{a}-{r}" for r, f, a, _ in NUMBER_ARGUMENTS],
)
def test_a_number_beyond_the_largest_float_is_an_invalid_argument_not_an_overflow(
    fresh: Callable[[str], ModuleType],
    ruleset: str,
    function: str,
    argument: str,
    call: Callable[[ModuleType, object], object],
    number: object,
) -> None:
    # On main: OverflowError (int too large to convert to float), from the checks themselves.
    m = fresh(ruleset)
    raises_invalid(m, function, argument, lambda: call(m, number), "float")


def test_an_int_up_to_the_largest_float_is_exact_and_one_beyond_it_is_refused(
    fresh: Callable[[str], ModuleType],
) -> None:
    # An int within a float's range is compared exactly, and an int cost times an int
    # distance stays an int; beyond it an int is refused on either side, as `-10**400` was
    # (issue 45, item 8: `10**400` was let through and answered).
    m = fresh("heavy_gear")
    largest = int(sys.float_info.max)
    assert m.move_cost("walker", "soft", distance=largest) == 3 * largest
    assert m.climb(largest) is m.IMPASSABLE
    assert m.abstract_cover(largest, 1).id == "full"
    assert m.lock(False, 3, 1, largest, 2).id == "active"
    assert m.light_concealment(largest) == math.floor(largest / 4)
    assert m.abstract_cover(1, largest).id == "some"
    huge = 10**400
    for call in (
        lambda: m.move_cost("walker", "soft", distance=huge),
        lambda: m.climb(huge),
        lambda: m.abstract_cover(huge, 1),
        lambda: m.lock(False, 3, 1, huge, 2),
    ):
        with pytest.raises(m.InvalidArgument, match="range of a float"):
            call()


def test_an_int_beyond_a_float_times_a_cost_that_is_a_float_is_an_invalid_distance(
    fresh: Callable[[str], ModuleType],
) -> None:
    m = fresh("heavy_gear")
    mode, feature = next(
        (mode, f.id)
        for f in m.FEATURES.values()
        for mode, cost in f.costs.items()
        if type(cost) is float
    )
    raises_invalid(
        m,
        "move_cost",
        "distance",
        lambda: m.move_cost(mode, feature, distance=10**400),
        "range of a float",
    )


NOT_PLACES: list[tuple[str, str, str, Callable[[ModuleType], object]]] = [
    # On main each of these raised a bare TypeError (or ValueError) from inside the function.
    ("battletech_tacops", "line_of_sight", "places", lambda m: m.line_of_sight("los", 5)),
    ("battletech_tacops", "line_of_sight", "places", lambda m: m.line_of_sight("los", None)),
    ("battletech_tacops", "line_of_sight", "places", lambda m: m.line_of_sight("los", [["x"]])),
    ("hex_operational", "Board", "places", lambda m: m.Board({(0, 0): [["clear"]]}, grid="hex")),
    ("hex_operational", "Board", "places", lambda m: m.Board({(0, 0): [{}]}, grid="hex")),
    ("hex_operational", "Board", "places", lambda m: m.Board({"a": ["clear"]}, grid="hex")),
    ("hex_operational", "Board", "places", lambda m: m.Board({(0, "b"): ["clear"]}, grid="hex")),
    ("hex_operational", "roll", "table", lambda m: m.roll([1], 7)),
    ("hex_operational", "roll", "table", lambda m: m.roll({}, 7, "odds_1_1")),
    (
        "hex_operational",
        "cheapest_route",
        "start",
        lambda m: m.cheapest_route(_board(m), "foot", [0], (1, 0)),
    ),
    (
        "hex_operational",
        "cheapest_route",
        "goal",
        lambda m: m.cheapest_route(_board(m), "foot", (0, 0), {}),
    ),
    ("hex_operational", "reachable", "start", lambda m: m.reachable(_board(m), "foot", [0, 0], 3)),
    ("hex_operational", "route_cost", "route", lambda m: m.route_cost(_board(m), "foot", [[0, 0]])),
]


@pytest.mark.parametrize(
    ("ruleset", "function", "argument", "call"),
    NOT_PLACES,
    ids=[f"{f}-{a}-{i}" for i, (_, f, a, _) in enumerate(NOT_PLACES)],
)
def test_an_argument_of_the_wrong_type_is_an_argument_type_error_naming_it(
    fresh: Callable[[str], ModuleType],
    ruleset: str,
    function: str,
    argument: str,
    call: Callable[[ModuleType], object],
) -> None:
    m = fresh(ruleset)
    raises_type_error(m, function, argument, lambda: call(m))


def test_the_neighbours_of_a_place_not_on_the_board_are_an_invalid_argument(
    fresh: Callable[[str], ModuleType],
) -> None:
    m = fresh("hex_operational")
    board = _board(m)
    assert {p for p, _ in board.neighbours((0, 0))} == {(1, 0), (0, 1)}
    raises_invalid(m, "neighbours", "place", lambda: board.neighbours((5, 5)), "not a place")
    raises_invalid(m, "neighbours", "place", lambda: board.neighbours("z"), "not a place")
    raises_type_error(m, "neighbours", "place", lambda: board.neighbours([0, 0]))


@pytest.mark.parametrize(
    ("ruleset", "function", "argument", "call"),
    [
        ("skirmish_keywords", "Share.of", "allowance", lambda m, x: m.Share(1, 2).of(x)),
        ("d20_movement", "Limit.over", "distance", lambda m, x: m.Limit(90, 1.5).over(x)),
        ("d20_movement", "Quantity", "value", lambda m, x: m.Quantity(x, "m")),
    ],
    ids=["Share.of", "Limit.over", "Quantity"],
)
def test_the_records_that_compute_check_their_number_too(
    fresh: Callable[[str], ModuleType],
    ruleset: str,
    function: str,
    argument: str,
    call: Callable[[ModuleType, object], object],
) -> None:
    # On main: OverflowError, or a bare TypeError from the arithmetic.
    m = fresh(ruleset)
    for huge in HUGE:
        raises_invalid(m, function, argument, lambda h=huge: call(m, h), "range of a float")
    raises_type_error(m, function, argument, lambda: call(m, [3]))
    if function != "Quantity":  # a Quantity is any float, negative ones included
        raises_invalid(m, function, argument, lambda: call(m, math.nan), "finite")
        raises_invalid(m, function, argument, lambda: call(m, -1), "at least 0")
    assert call(m, 3) == {"Share.of": 1.5, "Limit.over": 180, "Quantity": 3}[function]


# ---- a number beyond the largest float, on either side (issue 45, item 8) -----------------

BEYOND = 10**400
"""An int no float holds: `flying_move(turn=10**400)` answered where `-10**400` was refused."""

BUNDLED = sorted(p.stem for p in RULESETS.glob("*.terrain"))


def _answering_args(module: ModuleType, decide: Callable[..., Any]) -> list[Any] | None:
    """Arguments the decision answers (numbers 0, flags False, names tried in turn)."""
    import inspect
    import itertools

    names = sorted(
        {k for t in module.TABLES.values() for k in (*t.rows, *t.columns) if isinstance(k, str)}
    )
    params = list(inspect.signature(decide).parameters.values())
    choices = [
        [False] if "bool" in str(p.annotation) else names if "str" in str(p.annotation) else [0]
        for p in params
    ]
    for args in itertools.islice(itertools.product(*choices), 2000):
        try:
            decide(*args)
        except (module.ArgumentError, module.UnknownName):
            continue
        return list(args)
    return None


@pytest.mark.parametrize("name", BUNDLED)
def test_numbers_beyond_a_float_are_refused_on_both_sides(name: str) -> None:
    module = load_generated(name)
    asked = 0
    calls: list[tuple[str, Callable[[Any], object]]] = []
    for step_name, step in module.STEPS.items():
        calls.append((f"step {step_name}", step))
    for decision_name, decide in module.DECISIONS.items():
        args = _answering_args(module, decide)
        if args is None:
            continue
        for i, value in enumerate(args):
            if type(value) is int:
                calls.append(
                    (
                        f"{decision_name} argument {i}",
                        lambda x, d=decide, a=args, i=i: d(*a[:i], x, *a[i + 1 :]),
                    )
                )
    for mode in module.MODES:
        calls.append(
            (f"move_cost distance {mode}", lambda x, m=mode: module.move_cost(m, distance=x))
        )
    for what, call in calls:
        for value in (BEYOND, -BEYOND):
            with pytest.raises(module.InvalidArgument, match="range of a float"):
                call(value)
                pytest.fail(f"{name}: {what} answered {'-' * (value < 0)}10**400")
            asked += 1
    assert asked


# ---- no wrong argument escapes as Python's own error (issues 36, 37) ----------------------------
#
# Before these, the module tested a caller's name for membership of a dict or set before it
# checked that it was a str, so a list or a dict met Python's "unhashable type" TypeError; a
# facing route read the fields of its board before checking it was a Board (AttributeError);
# the dice's shift on doubles was added to the caller's before the caller's was checked; a
# board's neighbours function giving a list as a place met a TypeError. Each now raises the
# module's ArgumentTypeError naming the function and argument (the JavaScript module alike).

ho = load_generated("hex_operational")
vp = load_generated("void_patrol")

UNHASHABLE: list[Any] = [[1], {"a": 1}, {1, 2}]


@pytest.mark.parametrize("name", UNHASHABLE, ids=["list", "dict", "set"])
@pytest.mark.parametrize("function", ["move_cost", "can_enter"])
def test_an_unhashable_feature_is_a_type_error_where_dice_outcomes_feed_costs(
    function: str, name: Any
) -> None:
    assert ho._OUTCOMES  # hex_operational's dice outcomes feed costs: tested first
    call = getattr(ho, function)
    raises_type_error(ho, function, "features", lambda: call("tracked", name, "lake"))


@pytest.mark.parametrize("name", UNHASHABLE, ids=["list", "dict", "set"])
def test_an_unhashable_dice_table_with_a_natural_roll_is_a_type_error(name: Any) -> None:
    raises_type_error(ho, "roll", "table", lambda: ho.roll(name, 7, natural=1))


@pytest.mark.parametrize("name", UNHASHABLE, ids=["list", "dict", "set"])
def test_an_unhashable_condition_of_a_line_of_sight_is_a_type_error(name: Any) -> None:
    raises_type_error(
        bt,
        "line_of_sight",
        "conditions",
        lambda: bt.line_of_sight("los", [], ["light_jungle"], conditions=[name]),
    )


def _sector() -> Any:
    return vp.Board({(0, 0): ("open_space",), (1, 0): ("open_space",)}, grid="sector")


@pytest.mark.parametrize("name", UNHASHABLE, ids=["list", "dict", "set"])
@pytest.mark.parametrize(
    ("function", "rest"),
    [
        ("route_cost", ([(0, 0), (1, 0)],)),
        ("cheapest_route", ((0, 0), (1, 0))),
        ("reachable", ((0, 0), 3)),
    ],
)
def test_an_unhashable_mode_of_a_route_is_a_type_error_where_units_have_facing(
    function: str, rest: tuple[Any, ...], name: Any
) -> None:
    assert vp.FACINGS  # void_patrol's modes with facing: looked up first
    call = getattr(vp, function)
    raises_type_error(vp, function, "mode", lambda: call(_sector(), name, *rest))


@pytest.mark.parametrize("board", [None, {}, "sector"])
@pytest.mark.parametrize(
    ("function", "rest"),
    [
        ("route_cost", ([((0, 0), 0), ((1, 0), 0)],)),
        ("cheapest_route", (((0, 0), 0), (1, 0))),
        ("reachable", (((0, 0), 0), 3)),
    ],
)
def test_a_route_of_a_unit_with_facing_on_no_board_is_a_type_error(
    function: str, rest: tuple[Any, ...], board: Any
) -> None:
    call = getattr(vp, function)
    raises_type_error(vp, function, "board", lambda: call(board, "cruiser", *rest))


@pytest.mark.parametrize(
    ("gives", "why"),
    [([["b"]], "must give hashable places"), (None, "must give an iterable of places")],
)
def test_a_neighbours_function_giving_no_places_is_a_type_error(gives: Any, why: str) -> None:
    board = bt.Board({"a": ("clear",), "b": ("clear",)}, neighbours=lambda place: gives)
    raises_type_error(bt, "Board", "neighbours", lambda: board.neighbours("a"))
    with pytest.raises(bt.ArgumentTypeError, match=why) as caught:
        bt.cheapest_route(board, "mech", "a", "b")
    assert (caught.value.function, caught.value.argument) == ("cheapest_route", "neighbours")


@pytest.mark.parametrize("shift", ["1", [1], None])
def test_a_shift_of_the_wrong_type_is_a_type_error_when_the_dice_show_doubles(
    shift: Any, tmp_path: Path
) -> None:
    from tests.test_on_doubles import PAIR, _module

    m = _module(Compiler(), tmp_path, PAIR, "doubles_shift")
    assert m.roll("crt", 6, column="odds_2_1", dice=(3, 3), shift=0).id == "ae"
    raises_type_error(
        m, "roll", "shift", lambda: m.roll("crt", 6, column="odds_2_1", dice=(3, 3), shift=shift)
    )


_WRONG: list[Any] = [None, True, [1], {"a": 1}, "3", {"$float": "nan"}, {"$float": "inf"}, -1]
"""Wrong kinds of argument, as tests/js_queries.py writes them (a float as ``$float``)."""

_OWN = {"UnknownName", "UnfilledParameter", "InvalidPlace", "InvalidArgument", "ArgumentTypeError"}
_OWN |= {"IllegalMove"}  # free_move's answer to a move its facing rule refuses (armour_inches)


def _wrong_calls(plan: Any) -> list[dict[str, Any]]:
    """Each shape of question the differential test asks (function, arguments, keywords),
    once with a wrong kind of argument in each position in turn."""
    from tests import js_queries

    shapes: dict[Any, dict[str, Any]] = {}
    for q in js_queries.queries(plan, seed=5, at_least=200):
        shape = (q["function"], len(q["args"]), tuple(sorted(q["kwargs"])), "board" in q)
        shapes.setdefault(shape, q)
    calls = []
    for q in shapes.values():
        for wrong in _WRONG:
            calls += [
                {**q, "args": [*q["args"][:i], wrong, *q["args"][i + 1 :]]}
                for i in range(len(q["args"]))
            ]
            calls += [{**q, "kwargs": {**q["kwargs"], k: wrong}} for k in q["kwargs"]]
    return calls


@pytest.mark.parametrize("name", BUNDLED)
def test_no_wrong_kind_of_argument_escapes_as_a_bare_python_error(name: str) -> None:
    """Every public function the differential test asks, each argument in turn of a wrong
    kind: the module's own errors only (a keyword a function does not take is Python's
    TypeError of the call itself, left as it is)."""
    from rulesdsl.codegen import plan as module_plan
    from tests import js_queries

    compiled = bundled(name)
    assert compiled.ruleset is not None
    module = load_generated(name)
    escaped = set()
    for call in _wrong_calls(module_plan.build(compiled.ruleset)):
        answer = js_queries.ask_python(module, call)
        error, message = answer.get("error"), answer.get("message", "")
        if error is not None and error not in _OWN and "unexpected keyword" not in message:
            escaped.add((call["function"], error, message))
    assert sorted(escaped) == []


def test_a_check_of_the_plan_is_written_by_both_targets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36: the argument checks are the plan's (its surface section), not each target's:
    a check changed there (the routes' board, reachable's budget) changes the Python module
    and the JavaScript one alike, with no edit in either emitter or runtime."""
    from rulesdsl.codegen import js
    from rulesdsl.codegen import plan as module_plan
    from rulesdsl.codegen.plan import surface as plan_surface

    def changed(f: plan_surface.FunctionChecks) -> plan_surface.FunctionChecks:
        if f.function in ("reachable", "route_cost"):
            new = {"budget": plan_surface.Number(1), "board": plan_surface.Made("Grid")}
            return dataclasses.replace(
                f,
                arguments=tuple(
                    dataclasses.replace(a, check=new.get(a.argument, a.check)) for a in f.arguments
                ),
            )
        return f

    checks = {p: tuple(map(changed, c)) for p, c in plan_surface.CHECKS.items()}
    monkeypatch.setattr(plan_surface, "CHECKS", checks)
    rs = heavy_gear_ir()
    python = render(rs)
    javascript = js.module_js(module_plan.build(rs))
    assert '_number("reachable", "budget", budget, 1)' in python
    assert '_checkNumber("reachable", "budget", budget, 1);' in javascript
    assert (
        'if not _isinstance(board, Grid):\n        raise ArgumentTypeError(function, "board"'
        in python
    )
    assert 'if (!(board instanceof Grid)) throw new ArgumentTypeError(fn, "board"' in javascript
