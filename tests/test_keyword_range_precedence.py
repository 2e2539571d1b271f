"""Own ranges by keyword settled by ``precedence`` (issue 40): when two keywords give one unit
type different ranges of a state (``heavy 0 to 6, slow 0 to 4`` for a transport that is both),
the keyword that comes first by the ruleset's ``precedence`` lines gives its range, as it gives
its value in a cost cell; with no order between them it is still E487. The module, the
reference semantics and the JavaScript module answer alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import routes as semantic_routes
from tests.conftest import compile_snippet, import_rendered
from tests.guide_answers import guide_answers, js_differential
from tests.test_js_target import node
from tests.test_keyword_ranges import HEADER, LINE
from tests.test_sight_and_results import located

__all__ = ["node"]  # the fixture

CLASH = 'state speed "Speed" : 0 to 8, heavy 0 to 6, slow 0 to 4, dive +1, storm -1\n'
"""The transport is heavy and slow: two ranges, 0 to 6 and 0 to 4."""


def _ruleset(order: str) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), HEADER + order + CLASH)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


def _transport_top(rs: ir.Ruleset, module: Any) -> int:
    """The transport's top speed, by the module's ``state=`` check, the same as the reference
    semantics' range and the module's routes."""
    speed = rs.states[0]
    keywords = semantic_routes.keywords_of(rs, "transport")
    low, high = semantic_routes.state_range(speed, "transport", keywords)
    board = module.Board({(q, 0): ("clear",) for q in range(3)}, grid="hexes")
    top = module.route_cost(board, "transport", [(0, 0), (1, 0)], state={"speed": high})
    assert top.legal and low == 0
    with pytest.raises(module.InvalidArgument, match=f"from 0 to {high}"):
        module.route_cost(board, "transport", [(0, 0), (1, 0)], state={"speed": high + 1})
    dive = module.route_cost(
        board, "transport", [(0, 0), (1, 0)], state={"speed": high}, move="dive"
    )
    steps = [(("clear",), ())]
    ref = semantic_routes.route(rs, "transport", steps, move="dive", state={"speed": high})
    assert (
        dive.reason
        == ref.reason
        == f"the move 'Dive' takes 'Speed' to {high + 1} (its range is 0 to {high})"
    )
    return high


@pytest.mark.parametrize(
    ("order", "top"),
    [
        ("precedence slow, heavy\n", 4),
        ("precedence heavy, slow\n", 6),
        ('group light "Light"\nprecedence slow, light\nprecedence light, heavy\n', 4),
    ],
    ids=["slow-first", "heavy-first", "chain"],
)
def test_precedence_settles_which_keywords_range_a_unit_type_takes(
    tmp_path: Path, order: str, top: int
) -> None:
    rs = _ruleset(order)
    module = import_rendered(rs, tmp_path, "keyword_precedence")
    assert _transport_top(rs, module) == top
    assert dict(module._STATE_RANGES)["bomber"] == ((0, 6),)  # heavy alone: as before


def test_a_clash_no_precedence_settles_is_still_e487() -> None:
    order = 'group light "Light"\nprecedence slow, light\n'  # orders slow, but not with heavy
    assert located(Compiler(), HEADER + order + CLASH) == [("E487", LINE + 2, 7)]


def test_the_hint_of_e487_offers_the_precedence_line() -> None:
    compiled = compile_snippet(Compiler(), HEADER + CLASH)
    found = [(d.code, d.hint) for d in compiled.diagnostics if d.is_error]
    assert found == [
        (
            "E487",
            "give 'transport' its own range (`transport 0 to 4`), or write "
            "`precedence heavy, slow`",
        )
    ]


def test_js_module_answers_settled_keyword_range_questions_as_python(
    node: str, tmp_path: Path
) -> None:
    expected = js_differential(_ruleset("precedence slow, heavy\n"), "state", 5, tmp_path)
    assert any("from 0 to 4" in str(e) or "(its range is 0 to 4)" in str(e) for e in expected)


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    title = "### Keyword ranges settled by precedence"
    end = "### A change capped at the end of a range"
    assert guide_answers(title, end, tmp_path, "keyword_precedence_guide") == 2
