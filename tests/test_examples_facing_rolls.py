"""Worked examples that state the rolls due along a facing route and the places entered
before (issue 40, item 7: docs/language.md, "Worked examples"): `.rolls` and `entered=` on a
`facing` unit's route, its steps numbered as the module numbers its actions (turns included),
checked at build against :mod:`rulesdsl.semantics.facing`, misuse as E492 and E521 at the
argument, and replayed by the Python and JavaScript modules on the grid they lay the route on.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.codegen import plan as module_plan
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_yaml
from rulesdsl.printed.sheets import build_sheet, render_markdown
from rulesdsl.versions import diff as semantic
from tests import js_queries
from tests.conftest import compile_snippet
from tests.test_examples_effect_state import _errors, _guide_block, _vectors
from tests.test_examples_route_inputs import replay_python
from tests.test_js_target import node, write_package

__all__ = ["node"]  # a fixture

PICKET = """\
ruleset picket "Picket"
version 1.0.0
languages en fr
units distance hex, cost MP
grid sector "Sector" fr "Secteur" : 1 hex, hex
mode frigate "Frigate" fr "Frégate"
roll survey "Survey roll" fr "Jet de relevé" : 1d6 on first entering
roll hazard "Hazard roll" fr "Jet de danger" : 2d6 on entering
layer space "Space" fr "Espace" one per place {
  columns cost, hazard, survey
  clear "Open space" fr "Espace libre" | 1 |    |
  nebula "Nebula" fr "Nébuleuse"      | 2 | +2 | +1
}
facing frigate on sector : turn 1 MP per hexside, sideslip +1 MP
"""

PICKET_EXAMPLE = """\
example picket_line "A frigate on picket" fr "Une frégate en piquet" {
  route_cost(frigate, (clear), (nebula), turn, (nebula)).rolls \\
      = hazard, +2, survey, +1, hazard, +2, survey, +1
  route_cost(frigate, (clear), (nebula), turn, (nebula), entered=(3)).rolls \\
      = hazard, +2, survey, +1, hazard, +2
  route_cost(frigate, (nebula), turn, sideslip, (nebula), (clear), entered=(2)).rolls \\
      = hazard, +2
  route_cost(frigate, (clear), turn, (clear)).rolls = none
}
"""
"""A nebula entered twice in one move is two places on the grid, each surveyed once; step 3
(after the turn) entered earlier in the turn, its survey roll is not due again; a sideslip is
a step like any other, and the start counts as entered."""


def test_a_facing_route_example_states_its_rolls_and_the_places_entered_before(
    compiler: Compiler, tmp_path: Path
) -> None:
    assert _errors(compiler, PICKET + PICKET_EXAMPLE, tmp_path) == []
    wrong = PICKET_EXAMPLE.replace("entered=(3)", "entered=(1)")
    [(code, line, column, message)] = _errors(compiler, PICKET + wrong, tmp_path)
    assert (code, line, column) == ("E270", PICKET.count("\n") + 4, 3)
    assert message.endswith(
        ".rolls is hazard, 2, hazard, 2, survey, 1, not hazard, 2, survey, 1, hazard, 2 as stated"
    )


FACING_MISUSES = {
    "a turn": ("route_cost(frigate, (clear), (nebula), turn, (nebula), entered=(2))", "E521"),
    "a step too far": ("route_cost(frigate, (clear), turn, (nebula), entered=(3))", "E492"),
    "without .rolls": ("route_cost(frigate, (clear), (nebula), entered=(1)) = 2 MP", "E492"),
}


@pytest.mark.parametrize("case", sorted(FACING_MISUSES))
def test_entered_that_is_not_a_step_into_a_place_of_a_facing_route_is_an_error_at_the_argument(
    compiler: Compiler, tmp_path: Path, case: str
) -> None:
    question, want = FACING_MISUSES[case]
    if "=" not in question.rsplit(")", 1)[1]:
        question += ".rolls = hazard, +2"
    text = PICKET + 'example bad "Bad" fr "x" {\n  ' + question + "\n}\n"
    [(code, line, column, message)] = _errors(compiler, text, tmp_path)
    assert (code, line, column) == (want, text.count("\n") - 1, question.index("entered") + 3)
    if want == "E521":
        assert message.endswith(
            "step 2 of the route is a turn, which enters no place: 'entered' gives the steps "
            "into a place, here 1, 3"
        )


def test_the_python_and_js_modules_replay_a_facing_routes_rolls_on_the_grid(
    compiler: Compiler, tmp_path: Path, node: str
) -> None:
    rs, vectors = _vectors(compiler, PICKET + PICKET_EXAMPLE, tmp_path)
    assert [(v["attribute"], v["kwargs"]) for v in vectors] == [
        ("rolls", {}),
        ("rolls", {"entered": [3]}),
        ("rolls", {"entered": [2]}),
        ("rolls", {}),
    ]
    assert "4 passed" in replay_python(rs, tmp_path)
    package = write_package(module_plan.build(rs), tmp_path / "js")
    queries = [
        {"function": v["question"], "args": v["args"], "kwargs": v["kwargs"], "attribute": "rolls"}
        for v in vectors
    ]
    answers = [a.get("answer") for a in js_queries.ask_node(package, queries)]
    assert all(map(js_queries.same, answers, [v["expected"] for v in vectors])), answers


def test_sheets_print_a_facing_routes_rolls_and_the_places_entered_before(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = compile_snippet(compiler, PICKET + PICKET_EXAMPLE, tmp_path).ruleset
    assert rs is not None
    md = render_markdown(build_sheet(rs, "en"))
    assert "entered before (step 3), Rolls due | Hazard roll, +2, Survey roll, +1, Hazard" in md


def test_the_language_guide_states_a_facing_routes_rolls(
    compiler: Compiler, tmp_path: Path
) -> None:
    """docs/language.md, "Worked examples": the picket block builds, its answers checked."""
    text = _guide_block("picket")
    assert _errors(compiler, text, tmp_path) == []
    wrong = text.replace("entered=(3)", "entered=(1)")
    assert [c for c, *_ in _errors(compiler, wrong, tmp_path)] == ["E270"]


def test_a_facing_route_that_comes_back_to_a_place_is_e522_at_the_place(
    compiler: Compiler, tmp_path: Path
) -> None:
    """The replays lay the route on the grid with one place for each written: round a hex, the
    sixth place entered is the start (five are not: only the stated rolls are then wrong)."""
    around = "(clear), " + ", turn, ".join(["(nebula)"] * 6)
    question = f"route_cost(frigate, {around}).rolls = none"
    text = PICKET + 'example bad "Bad" fr "x" {\n  ' + question + "\n}\n"
    [(code, line, column, message)] = _errors(compiler, text, tmp_path)
    last = question.rindex("(nebula)")
    assert (code, line, column) == ("E522", text.count("\n") - 1, last + 3)
    assert message.startswith("example 'bad': step 11 comes back to the place of the start")
    short = text.replace(", turn, (nebula)).rolls", ").rolls")  # five sides of the hex
    assert [c for c, *_ in _errors(compiler, short, tmp_path)] == ["E270"]


def test_yaml_writes_a_facing_routes_rolls_as_the_language_does(
    compiler: Compiler, tmp_path: Path
) -> None:
    source, _ = Parser().parse(PICKET + PICKET_EXAMPLE, "picket.terrain")
    yaml_text = to_yaml(source)
    assert "turn, (nebula), entered=(3)).rolls = hazard, +2, survey, +1, hazard, +2" in yaml_text
    (tmp_path / "picket.yaml").write_text(yaml_text, "utf-8")
    compiled = compiler.compile_file(tmp_path / "picket.yaml")
    assert [d.code for d in compiled.diagnostics if d.severity == "error"] == []
    assert compiled.ruleset is not None
    assert compiled.ruleset.examples[0].questions[1].attribute == "rolls"


def test_the_diff_lists_a_facing_routes_changed_rolls(compiler: Compiler, tmp_path: Path) -> None:
    """A nebula's hazard roll at +3: each stated .rolls restated, the diff lists old -> new."""
    old = compile_snippet(compiler, PICKET + PICKET_EXAMPLE, tmp_path / "old").ruleset
    text = (PICKET + PICKET_EXAMPLE).replace("| 2 | +2 | +1", "| 2 | +3 | +1")
    new = compile_snippet(compiler, text.replace("hazard, +2", "hazard, +3"), tmp_path).ruleset
    assert old is not None and new is not None
    changed = [(c.path, c.old, c.new) for c in semantic.diff(old, new).changes]
    assert ("example.picket_line.3", "hazard, 2", "hazard, 3") in changed, changed
