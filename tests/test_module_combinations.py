"""Generated modules are ruff-clean, laid out by ruff format and mypy --strict clean for the
route features together, not only one at a time: state lines, step inputs, dice outcomes in
places, facing with tacking by the wind, drift, whole-move limits and bonuses, a unit type's own
ranges, rolls on any step and on the first step, and capped changes (at a bound too). No
bundled ruleset has most of these pairs, so the tests on generated/ do not see them; these
rulesets take each pair at least once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.targets import render_python
from rulesdsl.compiler import Compiler
from tests import typescript
from tests.conftest import MYPY_CACHE, compile_snippet
from tests.test_facing_shares import BOG
from tests.test_free_facing import HEADER as FREE_HEADER
from tests.test_free_facing import JEEP, TANK
from tests.test_free_facing_whole_move import BONUS as FREE_BONUS
from tests.test_free_facing_whole_move import MARK as FREE_MARK
from tests.test_free_facing_whole_move import RULES as FREE_WHOLE
from tests.test_free_facing_whole_move import WATER as FREE_WATER
from tests.test_js_target import node, write_package
from tests.test_module_layout import ruff_would_reformat
from tests.test_route_inputs import FACING as LEDGES_FACING
from tests.test_route_inputs import RULES as LEDGES
from tests.test_stall import STALL
from tests.test_state import HEADER as AIR
from tests.test_state import RULES as AIR_RULES

TACKING = "facing walker on field : turn 1 MP per hexside, tack +2 MP\n"
WHOLE = (
    'whole move one_wall "One wall a move" : at most 1 wall\n'
    'whole move clear_run "Clear run" : on clear, allowance +1 MP\n'
)
OWN_RANGES = AIR_RULES.replace(
    'state speed "Speed" : 0 to 8,', 'state speed "Speed" : 0 to 8, bomber 0 to 6,'
)

FREE = FREE_HEADER + TANK + JEEP

__all__ = ["node"]  # the fixture

COMBINATIONS = {
    # state, step inputs, outcomes, facing with tacking (the wind): issue 40's last finding
    "sailing": LEDGES_FACING.replace("facing walker on field : turn 1 MP per hexside\n", "")
    + TACKING
    + 'state fuel "Fuel" : 0 to 6, rubble -4\n',
    # the same with drift besides
    "sailing_drift": LEDGES_FACING.replace("facing walker on field : turn 1 MP per hexside\n", "")
    + TACKING
    + 'state fuel "Fuel" : 0 to 6, rubble -4\n'
    + 'drift gust "Gust" : 1 when fuel below 3\n',
    # facing with tacking, whole-move rules, step inputs and outcomes, with and without state
    "sailing_whole": LEDGES_FACING.replace("facing walker on field : turn 1 MP per hexside\n", "")
    + TACKING
    + WHOLE,
    "sailing_state_whole": LEDGES_FACING.replace(
        "facing walker on field : turn 1 MP per hexside\n", ""
    )
    + TACKING
    + WHOLE
    + 'state fuel "Fuel" : 0 to 6, rubble -4\n'
    + 'drift gust "Gust" : 1 when fuel below 3\n',
    # facing with tacking, the point of sail and the wind's strength in step costs and in the
    # speed (issue 40), whole-move rules, state, drift
    "sailing_points_state_whole": LEDGES_FACING.replace(
        "facing walker on field : turn 1 MP per hexside\n", ""
    )
    + TACKING.replace(
        "tack +2 MP",
        "tack +2 MP, sail by points (behind +0 MP, ahead impassable), "
        "speed by points (behind 6, ahead 2), sail when (calm impassable, gale +1 MP), "
        "speed when (gale 2)",
    )
    + 'arcs points "Points" : hexsides {\n  ahead "Ahead" | 5 to 1\n  behind "Behind" | 2 to 4\n}\n'
    + WHOLE
    + 'state fuel "Fuel" : 0 to 6, rubble -4\n'
    + 'drift gust "Gust" : 1 when fuel below 3\n',
    # step inputs and outcomes with whole-move rules and drift, no state, no facing
    "ledges_whole_drift": LEDGES_FACING.replace(
        "facing walker on field : turn 1 MP per hexside\n", ""
    )
    + WHOLE
    + 'drift gust "Gust" : 1\n',
    # state, whole-move rules, step inputs and outcomes without facing
    "ledges_state_whole": LEDGES
    + 'state fuel "Fuel" : 0 to 6, rubble -4\n'
    + WHOLE.replace("MP", "in"),
    # state with own ranges, rolls on entering and on any step, facing with tacking, drift
    "air_stall_facing": AIR
    + OWN_RANGES
    + STALL
    + "facing bomber on hexes : turn 1 MP per hexside, tack +1 MP\n"
    + 'drift wind "Wind drift" : 1 when altitude below 3, bomber 0\n',
    # a share of the allowance with facing, alone and with state, inputs, outcomes and wind
    "bog": BOG,
    "sailing_shares": LEDGES_FACING.replace(
        "facing walker on field : turn 1 MP per hexside\n", ""
    ).replace('  rubble "Rubble" | 2\n', '  rubble "Rubble" | 2\n  bog "Bog" | share 1/2\n')
    + TACKING.replace(
        "tack +2 MP", "tack +2 MP, speed by points (behind 6, ahead 2), speed when (calm 0)"
    )
    + 'arcs points "Points" : hexsides {\n  ahead "Ahead" | 5 to 1\n  behind "Behind" | 2 to 4\n}\n'
    + 'state fuel "Fuel" : 0 to 6, rubble -4\n',
    # rolls on any step, own ranges and whole-move rules without facing
    "air_stall_whole": AIR
    + OWN_RANGES
    + STALL
    + 'whole move low "Low" : on clear, allowance +2 MP\n'
    + 'whole move one "One front" : at most 1 front\n',
    # capped changes beside own ranges, rolls on any step and on the first step, facing with
    # tacking and drift; and a capped change with step inputs, outcomes and tacking
    "air_capped_first": AIR
    + OWN_RANGES.replace("dive +1\n", "dive +1 capped\n").replace("-1\n", "-1 capped\n")
    + STALL
    + 'roll spin "Spin" : 1d6 on first step when altitude below 2\n'
    + "facing bomber on hexes : turn 1 MP per hexside, tack +1 MP\n"
    + 'drift wind "Wind drift" : 1 when altitude below 3, bomber 0\n',
    "sailing_capped": LEDGES_FACING.replace("facing walker on field : turn 1 MP per hexside\n", "")
    + TACKING
    + 'state fuel "Fuel" : 0 to 6, rubble -4 capped\n',
    # changes capped at a bound (one per unit type too) beside own ranges, a first-step roll,
    # facing with tacking and whole-move rules; and one with step inputs, outcomes and tacking
    "air_capped_at": AIR
    + OWN_RANGES.replace("dive +1\n", "dive +1 capped at 5, bomber dive +1 capped at 4\n").replace(
        "storm -1\n", "storm -1 capped at 2\n"
    )
    + 'roll spin "Spin" : 1d6 on first step when altitude below 2\n'
    + "facing bomber on hexes : turn 1 MP per hexside, tack +1 MP\n"
    + 'whole move low "Low" : on clear, allowance +2 MP\n'
    + 'whole move one "One front" : at most 1 front\n',
    "sailing_capped_at": LEDGES_FACING.replace(
        "facing walker on field : turn 1 MP per hexside\n", ""
    )
    + TACKING
    + 'state fuel "Fuel" : 0 to 6, rubble -4 capped at 1\n',
    # facing off the grid (free moves whose legs name features) with whole-move rules: all
    # three kinds, a bonus alone, a crosses rule alone
    "free_whole": FREE_HEADER + FREE_WHOLE,
    "free_bonus": FREE + FREE_WATER + FREE_BONUS,
    "free_marks": FREE + FREE_WATER + FREE_MARK,
}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("combinations")
    compiler = Compiler()
    for name, text in COMBINATIONS.items():
        compiled = compile_snippet(compiler, text)
        assert compiled.ok and compiled.ruleset is not None, (
            name,
            [str(d) for d in compiled.diagnostics],
        )
        (folder / f"{name}.py").write_text(render_python(compiled.ruleset), "utf-8")
    return folder


def _compiled(text: str) -> module_plan.ModulePlan:
    compiled = compile_snippet(Compiler(), text)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return module_plan.build(compiled.ruleset)


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, check=False)


def test_modules_of_combined_route_features_are_ruff_clean(rendered: Path) -> None:
    done = _run(sys.executable, "-m", "ruff", "check", "--line-length", "100", str(rendered))
    assert done.returncode == 0, done.stdout + done.stderr


def test_modules_of_combined_route_features_are_laid_out_by_ruff_format(rendered: Path) -> None:
    assert ruff_would_reformat(rendered) == []


def test_modules_of_combined_route_features_are_mypy_strict_clean(rendered: Path) -> None:
    modules = sorted(str(p) for p in rendered.glob("*.py"))
    done = _run(sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(MYPY_CACHE), *modules)
    assert done.returncode == 0, done.stdout


@typescript.TSC
def test_declarations_of_combined_route_features_pass_tsc_strict(
    node: str, tmp_path: Path, pytestconfig: Any
) -> None:
    typed = [
        str(write_package(_compiled(text), tmp_path / name).with_suffix(".d.ts"))
        for name, text in COMBINATIONS.items()
    ]
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, *typed], Path.cwd())
    assert done.returncode == 0, done.stdout + done.stderr
