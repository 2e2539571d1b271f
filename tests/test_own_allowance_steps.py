"""A unit type's own allowance outside route searches (issue 40): ``mode tank "Tank" allowance
6 in`` is read by ``move_cost`` and ``can_enter`` (for a share of the allowance) and by
``free_move`` as the route searches read it, when the caller gives none; a caller's value
wins, a kind of move scales it, and a unit type without one answers as before. The module, the
reference semantics and the JavaScript module answer alike."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir, semantics
from rulesdsl.codegen import plan as module_plan
from rulesdsl.compiler import Compiler
from tests import js_queries
from tests.conftest import compile_snippet, import_rendered
from tests.test_js_target import node, write_package

__all__ = ["node"]  # the fixture

RULES = """ruleset platoon "Platoon"
version 1.0.0
units distance in, cost in
mode tank "Tank" allowance 6 in
mode scout "Scout"
move run "Run" : allowance times 2
layer terrain "Terrain" one per place {
  clear "Clear" | 1
  wire "Wire" | share 1/2
}
facing tank : turn 1 in per 45 deg
"""


@pytest.fixture(scope="module")
def platoon(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    compiled = compile_snippet(Compiler(), RULES)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    rs = compiled.ruleset
    return rs, import_rendered(rs, tmp_path_factory.mktemp("own"), "own_allowance_steps")


def test_move_cost_takes_a_share_of_the_unit_types_own_allowance(
    platoon: tuple[ir.Ruleset, Any],
) -> None:
    rs, module = platoon
    assert module.move_cost("tank", "wire") == 3 == semantics.move_cost(rs, "tank", ["wire"])
    assert module.move_cost("tank", "wire", allowance=4) == 2  # the caller's wins
    assert module.move_cost("tank", "wire", move="run") == 6  # the kind scales it
    assert module.move_cost("tank", "clear") == 1


def test_a_unit_type_without_an_allowance_must_still_be_given_one(
    platoon: tuple[ir.Ruleset, Any],
) -> None:
    _, module = platoon
    with pytest.raises(module.InvalidArgument, match="'allowance' must be given"):
        module.move_cost("scout", "wire")
    assert module.move_cost("scout", "wire", allowance=8) == 4


def test_can_enter_reads_the_unit_types_own_allowance(platoon: tuple[ir.Ruleset, Any]) -> None:
    rs, module = platoon
    assert module.can_enter("tank", "wire", available=3)
    assert not module.can_enter("tank", "wire", available=2)
    assert semantics.routes.can_enter(rs, "tank", ["wire"], 2) is False


def test_free_move_without_an_allowance_uses_the_unit_types_own(
    platoon: tuple[ir.Ruleset, Any],
) -> None:
    _, module = platoon
    move = module.free_move("tank", [("straight", 2), ("turn", 45)])
    assert (move.used, move.left) == (3.0, 3.0)
    assert module.free_move("tank", [("straight", 2)], 8).left == 6.0
    with pytest.raises(module.IllegalMove, match=r"more than the allowance of 6\.0"):
        module.free_move("tank", [("straight", 7)])


def test_js_module_reads_the_own_allowance_as_python(node: str, tmp_path: Path) -> None:
    compiled = compile_snippet(Compiler(), RULES)
    assert compiled.ruleset is not None
    plan = module_plan.build(compiled.ruleset)
    python = import_rendered(compiled.ruleset, tmp_path, "js_own_allowance_steps")
    module = write_package(plan, tmp_path / "js")
    queries = list(js_queries.families()["allowance_steps"](random.Random(40), plan))
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
    answers = [str(e) for e in expected]
    assert any("must be given" in a for a in answers)
    assert any("IllegalMove" in a for a in answers)


def test_the_docs_example_reads_the_own_allowance_outside_routes(tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    blocks = []
    for marker in ('```terrain\n  ruleset platoon "Platoon"', "```terrain\n  layer obstacles"):
        start = doc.index(marker)
        blocks.append(doc[start + len("```terrain\n") : doc.index("```", start + 10)])
    text = "\n".join(x[2:] for block in blocks for x in block.splitlines()) + "\n"
    compiled = compile_snippet(Compiler(), text)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = import_rendered(compiled.ruleset, tmp_path, "own_allowance_steps_docs")
    assert m.move_cost("infantry", "clear", "wire") == 3
    assert m.move_cost("infantry", "clear", "wire", move="run") == 5
    assert not m.can_enter("infantry", "clear", "wire", available=2)
    assert m.free_move("tank", [("straight", 2), ("turn", 45)]).left == 3
    with pytest.raises(m.InvalidArgument):
        m.move_cost("scout", "wire")
    flat = " ".join(doc.split())
    for shown in ("is 3 in (1, and half of 4 in), running 5 in", "leaves 3 in of 6"):
        assert shown in flat
