"""``rolls_due(mode, *features, state=...)`` (issue 40): in a module with a roll due only in a
band of a state (``on entering when altitude below 4``; a stall ``on any step when speed below
2``), the unit's state as it enters, checked as the route functions check theirs. The place's
own change applies first, as a route's step applies it (a storm's downdraft takes the unit into
the flak's band), and a roll in a band is listed only while the state is in it; a roll on any
step, which no feature calls for, is then due in its band. Without a state the answer is as
before (every roll the features call for), so a bundled ruleset's answers in its edition do not
change. A module without such a roll has no ``state`` on ``rolls_due``. The module answers as the
reference semantics, as a one-step route, and the JavaScript module as the Python one."""

from __future__ import annotations

import inspect
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.compiler import Compiler
from rulesdsl.semantics.routes import place_rolls
from tests import typescript
from tests.conftest import MYPY_CACHE, compile_snippet, import_rendered
from tests.guide_answers import js_differential
from tests.test_js_target import node, write_package
from tests.test_module_layout import ruff_would_reformat
from tests.test_state import HEADER

__all__ = ["node"]  # the fixture

BANDED = """roll flak "Flak" : 2d6 on entering when altitude below 4
roll icing "Icing" : 1d6 on crossing when altitude above 6
roll stall "Stall" : 1d6 on any step when speed below 2
roll guns "Guns" : 2d6 on entering
layer sky "Sky" one per place {
  columns cost, guns
  clear "Clear" | 1 |
  storm "Storm" | 2 | +1
}
layer ground "Ground" {
  columns cost, flak, guns
  battery "Flak guns" | +0 | 0, bomber +1 | 0
}
layer hexsides "Hexsides" edges {
  columns cost, icing
  front "Weather front" | +1 | -1
}
state speed "Speed" : 0 to 8, bomber 0 to 5, front -1, climb -2, dive +1
state altitude "Altitude" : 0 to 9, climb +1, dive -1, storm -1, front -1
"""
"""A roll in a band on entering, one on crossing, a stall on any step, a roll with no band,
and the bomber's own range of speed; a front crossed changes both states."""

ONE_RANGE = BANDED.replace("bomber 0 to 5, ", "")
UNBANDED = BANDED.replace(" when altitude below 4", "").replace(" when altitude above 6", "")
UNBANDED = UNBANDED.replace('roll stall "Stall" : 1d6 on any step when speed below 2\n', "")


def _ruleset(compiler: Compiler, body: str = BANDED) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def air(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset(Compiler())
    return rs, import_rendered(rs, tmp_path_factory.mktemp("roll_bands"), "roll_bands_module")


def _rolls(module: Any, *args: Any, **kwargs: Any) -> list[tuple[str, float]]:
    return [(d.roll, d.modifier) for d in module.rolls_due(*args, **kwargs)]


def test_a_roll_in_a_band_is_due_only_while_the_state_as_it_enters_is_in_it(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """Flak below altitude 4: due at 3, not at 4; a storm's downdraft takes 4 to 3 first (as a
    route's step would). A change that breaks a range leaves the state as it was, as a route
    keeps it: a front crossed at speed 0 leaves altitude 7 above the icing's 6. The roll
    without a band is due whatever the state."""
    _, module = air
    low, high = {"speed": 4, "altitude": 3}, {"speed": 4, "altitude": 4}
    assert _rolls(module, "fighter", "battery", state=low) == [("flak", 0), ("guns", 0)]
    assert _rolls(module, "fighter", "battery", state=high) == [("guns", 0)]
    assert _rolls(module, "fighter", "clear", "battery", state=high) == [("guns", 0)]
    into_storm = _rolls(module, "fighter", "storm", "battery", state=high)
    assert into_storm == [("flak", 0), ("guns", 1)]
    at_ground = {"speed": 4, "altitude": 0}
    assert _rolls(module, "fighter", "storm", "battery", state=at_ground)[0] == ("flak", 0)
    assert _rolls(module, "bomber", "battery", state=low) == [("flak", 1), ("guns", 0)]
    edge = {"on": "crossing"}
    icing = [("icing", -1)]
    assert _rolls(module, "fighter", "front", state={"speed": 4, "altitude": 8}, **edge) == icing
    assert _rolls(module, "fighter", "front", state={"speed": 4, "altitude": 7}, **edge) == []
    assert _rolls(module, "fighter", "front", state={"speed": 0, "altitude": 7}, **edge) == icing


def test_without_a_state_every_roll_the_features_call_for_is_listed_as_before(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """The answer without ``state=`` does not change: every roll a feature calls for, whatever
    its band; a roll on any step, which no feature calls for, is not listed."""
    _, module = air
    assert _rolls(module, "fighter", "battery") == [("flak", 0), ("guns", 0)]
    assert _rolls(module, "fighter", "battery", state=None) == [("flak", 0), ("guns", 0)]
    assert _rolls(module, "fighter", "front", on="crossing") == [("icing", -1)]
    assert module.rolls_due("fighter", "clear", on="any_step") == ()


def test_a_roll_on_any_step_is_due_given_a_state_in_its_band(air: tuple[ir.Ruleset, Any]) -> None:
    """The stall below speed 2, wherever the unit is, read after the place's change (a front
    crossed takes speed 2 to 1)."""
    _, module = air
    [due] = module.rolls_due("fighter", "clear", on="any_step", state={"speed": 1, "altitude": 5})
    assert (due.step, due.place, due.on, due.roll, due.modifier, due.features) == (
        1,
        None,
        "any_step",
        "stall",
        0,
        (),
    )
    slow = {"speed": 2, "altitude": 5}
    assert module.rolls_due("fighter", "clear", on="any_step", state=slow) == ()
    assert _rolls(module, "fighter", "front", on="any_step", state=slow) == [("stall", 0)]


@pytest.mark.parametrize(
    "state",
    [
        {"speed": 4},
        {"speed": 4, "altitude": 10},
        {"speed": 4, "altitude": 1, "fuel": 2},
        {"speed": True, "altitude": 1},
        {"speed": 4, "altitude": 1.5},
        [4, 1],
        3,
        {"speed": 6, "altitude": 1},  # above the bomber's own top speed
    ],
)
def test_rolls_due_checks_the_state_as_route_cost_does(
    air: tuple[ir.Ruleset, Any], state: Any
) -> None:
    """The same error, kind and words, as ``route_cost``'s for the same state (the bomber's own
    range included), named after ``rolls_due``."""
    _, module = air
    board = module.Board({(0, 0): ("clear",), (1, 0): ("clear",)}, grid="hexes")
    with pytest.raises(module.ArgumentError) as route:
        module.route_cost(board, "bomber", [(0, 0), (1, 0)], state=state)
    with pytest.raises(module.ArgumentError) as place:
        module.rolls_due("bomber", "clear", state=state)
    assert type(place.value) is type(route.value)
    assert str(place.value) == str(route.value).replace("route_cost()", "rolls_due()")


def _question(rng: random.Random) -> tuple[str, list[str], str, str | None, dict[str, int]]:
    mode = rng.choice(["fighter", "bomber"])
    on = rng.choice(["entering", "crossing", "any_step"])
    names = ["front"] if on == "crossing" and rng.random() < 0.7 else []
    names += rng.sample(["clear", "storm"], rng.randint(0, 1))
    if rng.random() < 0.4:
        names.append("battery")
    move = rng.choice([None, "climb", "dive"])
    top = 5 if mode == "bomber" else 8
    return mode, names, on, move, {"speed": rng.randint(0, top), "altitude": rng.randint(0, 9)}


def test_rolls_due_answers_as_the_semantics(air: tuple[ir.Ruleset, Any]) -> None:
    rs, module = air
    rng = random.Random(40)
    for _ in range(400):
        mode, names, on, move, state = _question(rng)
        given = state if rng.random() < 0.85 else None
        expected = place_rolls(rs, mode, names, on, move, given)  # type: ignore[arg-type]
        got = module.rolls_due(mode, *names, on=on, move=move, state=given)
        assert [(d.on, d.roll, d.modifier, d.features) for d in expected] == [
            (d.on, d.roll, d.modifier, d.features) for d in got
        ], (mode, names, on, move, given)


def test_rolls_due_given_a_state_answers_as_the_first_step_of_a_route(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """A one-step route from a state lists, for each time of roll, what ``rolls_due`` lists for
    the place entered given that state (the place's change made on the way in)."""
    _, module = air
    rng = random.Random(41)
    for _ in range(200):
        mode, names, _, _, state = _question(rng)
        names = [n for n in names if n != "front"]
        board = module.Board({(0, 0): ("clear",), (1, 0): tuple(names)}, grid="hexes")
        route = module.route_cost(board, mode, [(0, 0), (1, 0)], state=state)
        for on in ("entering", "first_entering", "ending", "any_step"):
            along = [(d.roll, d.modifier) for d in route.rolls if d.on == on]
            assert along == _rolls(module, mode, *names, on=on, state=state), (names, state, on)


@pytest.mark.parametrize("body", [BANDED, ONE_RANGE], ids=["own range", "one range"])
def test_js_module_answers_rolls_due_with_a_state_as_python(
    node: str, tmp_path: Path, body: str
) -> None:
    rs = _ruleset(Compiler(), body)
    answers = [str(e) for e in js_differential(rs, "roll_bands", 40, tmp_path)]
    # the questions reach the bands and the checks (the Python answers; the JavaScript agrees)
    assert any("'flak'" in a for a in answers) and any("'stall'" in a for a in answers)
    assert any("[{'rolls': []}]" in a for a in answers)
    assert any("argument 'state'" in a for a in answers)


def test_a_module_without_a_roll_in_a_band_has_no_state_on_rolls_due(
    node: str, tmp_path: Path
) -> None:
    """Rules with states but no roll in a band: ``rolls_due`` is as it was, in Python and in
    JavaScript (no line of the runtime marked for roll bands is left)."""
    rs = _ruleset(Compiler(), UNBANDED)
    module = import_rendered(rs, tmp_path, "no_roll_bands")
    assert "state" not in inspect.signature(module.rolls_due).parameters
    text = write_package(module_plan.build(rs), tmp_path / "js").read_text("utf-8")
    assert "roll bands]" not in text and '["move", "on"]' in text
    banded = write_package(module_plan.build(_ruleset(Compiler())), tmp_path / "banded")
    assert "roll bands]" not in banded.read_text("utf-8")


def test_a_module_with_a_roll_in_a_band_comes_out_formatted_and_typed(
    compiler: Compiler, tmp_path: Path
) -> None:
    import_rendered(_ruleset(compiler), tmp_path, "roll_bands_layout")
    assert ruff_would_reformat(tmp_path) == []
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(MYPY_CACHE), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout


@typescript.TSC
def test_the_declarations_type_rolls_due_given_a_state(
    node: str, tmp_path: Path, pytestconfig: Any
) -> None:
    write_package(module_plan.build(_ruleset(Compiler())), tmp_path)
    shutil.copy(Path(__file__).parent / "js" / "roll_band_consumer.ts", tmp_path / "consumer.ts")
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "consumer.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
