"""One rule for a route's allowance at build and at run time: with a minimum move in the
rules, a route of one step is legal whatever it costs only when the allowance is above 0
(the generated module's rule, which :func:`rulesdsl.semantics.routes.route` and the worked
examples' check follow)."""

from __future__ import annotations

from pathlib import Path

from rulesdsl.codegen.plan import examples as plan_examples
from rulesdsl.codegen.python import examples as python_examples
from rulesdsl.codegen.targets import render_python
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import routes as semantics_routes
from tests.conftest import compile_snippet, replay

SOURCE = """\
ruleset zero "Zero allowance"
version 1.0.0
units distance hex, cost MP
minimum move 1 hex
mode foot "Foot"
layer terrain "Terrain" {
  clear "Clear" | 1
  swamp "Swamp" | 3
}
example one_step "One step" {
  route_cost(foot, (clear), (swamp), allowance=0) = STATED
  route_cost(foot, (clear), (swamp), allowance=1) = 3 MP
}
"""


def test_a_one_step_route_with_allowance_0_is_illegal_even_with_a_minimum_move(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = compile_snippet(compiler, SOURCE.replace("STATED", "3 MP, illegal"), tmp_path).ruleset
    assert rs is not None
    assert not semantics_routes.route(rs, "foot", [(["swamp"], [])], 0).legal
    assert semantics_routes.route(rs, "foot", [(["swamp"], [])], 1).legal
    assert semantics_routes.reachable(
        rs, "foot", 0, 0, {0: ["clear"], 1: ["swamp"]}, {0: [1]}, {}
    ) == {0: 0.0}


def test_an_allowance_0_example_gets_the_same_answer_at_build_and_in_the_replay(
    compiler: Compiler, tmp_path: Path
) -> None:
    legal = compile_snippet(compiler, SOURCE.replace("STATED", "3 MP"), tmp_path)
    assert [d.code for d in legal.diagnostics] == ["E270"]  # the module says illegal
    compiled = compile_snippet(compiler, SOURCE.replace("STATED", "3 MP, illegal"), tmp_path)
    assert [d.code for d in compiled.diagnostics] == []
    rs = compiled.ruleset
    assert rs is not None
    (tmp_path / "zero.py").write_text(render_python(rs), "utf-8")
    vectors = plan_examples.build(rs)
    (tmp_path / "zero.examples.json").write_text(python_examples.vectors_json(vectors), "utf-8")
    (tmp_path / "test_zero_examples.py").write_text(python_examples.render_test(vectors), "utf-8")
    done = replay(tmp_path)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "2 passed" in done.stdout
