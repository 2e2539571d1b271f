"""An own range of a state by keyword (issue 40): ``state speed "Speed" : 0 to 8, heavy 0 to 6``
gives every unit type with the keyword ``heavy`` that range, unless it has its own. The module
(resolved per unit type), the reference semantics and the JavaScript module answer alike; two
keywords that give one unit type different ranges are refused (E487)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import routes as semantic_routes
from tests.conftest import compile_snippet, import_rendered
from tests.guide_answers import guide_answers, js_differential
from tests.test_js_target import node
from tests.test_sight_and_results import located

__all__ = ["node"]  # the fixture

HEADER = """ruleset kw "Keyword ranges"
version 1.0.0
units distance hex, cost MP
group heavy "Heavy"
group slow "Slow"
mode fighter "Fighter"
mode bomber "Bomber" : heavy
mode transport "Transport" : heavy, slow
mode gunship "Gunship" : heavy
move dive "Dive" : allowance times 1
grid hexes "Hex" : 1 hex, hex
layer sky "Sky" one per place {
  clear "Clear" | 1
  storm "Storm" | 2
}
"""
STATE = 'state speed "Speed" : 0 to 8, heavy 0 to 6, gunship 0 to 7, dive +1, storm -1\n'
LINE = HEADER.count("\n") + 1


def _ruleset(body: str = STATE) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def heavy(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset()
    return rs, import_rendered(rs, tmp_path_factory.mktemp("kw"), "keyword_ranges_module")


def test_a_keywords_range_is_each_of_its_unit_types_own(heavy: tuple[ir.Ruleset, Any]) -> None:
    rs, module = heavy
    board = module.Board({(q, 0): ("clear",) for q in range(3)}, grid="hexes")
    route = [(0, 0), (1, 0)]
    said = "the move 'Dive' takes 'Speed' to 7 (its range is 0 to 6)"
    for mode, reason in [("bomber", said), ("transport", said), ("gunship", ""), ("fighter", "")]:
        answer = module.route_cost(board, mode, route, state={"speed": 6}, move="dive")
        assert answer.reason == reason, mode
        steps = [(("clear",), ())]
        ref = semantic_routes.route(rs, mode, steps, move="dive", state={"speed": 6})
        assert (ref.reason, ref.state) == (answer.reason, answer.state), mode
    with pytest.raises(module.InvalidArgument, match="'speed' a whole number from 0 to 6"):
        module.route_cost(board, "bomber", route, state={"speed": 7})


def test_the_module_resolves_keyword_ranges_per_unit_type(heavy: tuple[ir.Ruleset, Any]) -> None:
    _, module = heavy
    assert dict(module._STATE_RANGES) == {
        "gunship": ((0, 7),),
        "bomber": ((0, 6),),
        "transport": ((0, 6),),
    }


def test_js_module_answers_keyword_range_questions_as_python(node: str, tmp_path: Path) -> None:
    expected = js_differential(_ruleset(), "state", 5, tmp_path)
    assert any("(its range is 0 to 6)" in str(e) or "from 0 to 6" in str(e) for e in expected)


@pytest.mark.parametrize(
    ("line", "code", "column"),
    [
        (STATE.replace("gunship 0 to 7,", "gunship 0 to 7, slow 0 to 4,"), "E487", 7),
        (STATE.replace("heavy 0 to 6", "bulky 0 to 6"), "E101", 31),
        (STATE.replace("heavy 0 to 6", "heavy 0 to 9"), "E466", 31),
    ],
)
def test_each_misuse_of_a_keyword_range_gets_its_code_at_its_place(
    line: str, code: str, column: int
) -> None:
    assert located(Compiler(), HEADER + line) == [(code, LINE, column)]


def test_a_unit_types_own_range_settles_a_keyword_clash() -> None:
    body = STATE.replace("gunship 0 to 7,", "gunship 0 to 7, slow 0 to 4, transport 0 to 5,")
    speed = _ruleset(body).states[0]
    assert semantic_routes.state_range(speed, "transport", ("heavy", "slow")) == (0, 5)


def test_the_sheet_names_the_keyword_in_the_range_cell(tmp_path: Path) -> None:
    ruleset = tmp_path / "kw.terrain"
    ruleset.write_text(HEADER + STATE, "utf-8")
    target = tmp_path / "kw.en.md"
    assert main(["sheet", str(ruleset), "--format", "md", "-o", str(target)]) == 0
    assert "0 to 8 (Heavy 0 to 6, Gunship 0 to 7)" in target.read_text("utf-8")


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    title, end = "### An own range by keyword", "### A change capped at the end of a range"
    assert guide_answers(title, end, tmp_path, "keyword_guide") == 3
