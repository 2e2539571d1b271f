"""Decisions that give a number (issue 40, item 7: "the new speed after a dive"): each row's
outcome says `= N`, an input or arithmetic of the inputs; the module returns the number of
the first row that holds, as the reference semantics says; misuse is E229/E225 at its place;
the YAML form, worked examples, the sheet's words in every language, `diff` grading, the
house-rule path and the JavaScript module's answers and errors."""

from __future__ import annotations

import dataclasses
import itertools
import random
import textwrap
from pathlib import Path

import pytest

from rulesdsl import ir, semantics
from rulesdsl.codegen import plan as module_plan
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.versions import diff as semantic
from tests import js_queries, js_queries_numbers, test_js_target
from tests.conftest import compile_snippet, import_rendered
from tests.test_sight_and_results import HEADER, HEADER_LINES, located

DIVE = """decision dive "Speed after a dive" (speed points, dived points, top points) {
  speed + dived > top -> held "Held at the top dive speed" = top
  otherwise           -> gained "1 speed per level dived" = speed + dived
}
decision climb "Speed after a climb" (speed points, climbed points, bomber bool = no) {
  bomber    -> heavy "3 speed per level" = max(speed - 3 * climbed, 0)
  otherwise -> light "2 speed per level" = max(speed - 2 * climbed, 0)
}
decision glide "Glide" (height level) {
  height > 4 -> high "High" = height / 2 rounded down
  otherwise  -> low "Low" = 1 level
}
"""
DIVE_LINE = HEADER_LINES + 2  # the `held` row
CAPPED = """table dive_limit "Top dive speed" {
  fighter "Fighter" | 8 points
  bomber "Bomber"   | 6 points
}
decision capped "Speed after a dive" (kind dive_limit, speed points, dived points) {
  speed + dived > dive_limit[kind] -> held "Held at the top dive speed" = dive_limit[kind]
  otherwise                        -> gained "1 speed per level dived" = speed + dived
}
table climb_cost "Speed a climb costs" {
  fighter "Fighter" | 2 points
  bomber "Bomber"   | 3 points
}
decision cost_of "Climb cost of a class" (kind climb_cost) {
  otherwise -> cost = climb_cost[kind]
}
"""
CLIMB = """step climb_rate "Speed a climb costs" (climbed level) -> points : +2 per 1 level
step heavy_cost "Bomber" (climbed level) -> points : +3 per 1 level, at least 1 from 0.5 level
decision climbs "Speed after a climb" (speed points, climbed level, bomber bool = no) {
  bomber and speed < heavy_cost(climbed) -> stall "Stall" = 0
  bomber                                 -> heavy "Bomber" = speed - heavy_cost(climbed)
  otherwise                              -> light "Other" = max(speed - climb_rate(climbed), 0)
}
decision half_climb "Half a climb" (climbed level) {
  otherwise -> half "Half" = climb_rate(climbed / 2) rounded down + 1
}
"""
CALLS = """table dive_limit "Top dive speed" {
  fighter "Fighter" | 8 points
  bomber "Bomber"   | 6 points
}
decision capped "Speed after a dive" (kind dive_limit, speed points, dived points = 1) {
  speed + dived > dive_limit[kind] -> held "Held" = dive_limit[kind]
  otherwise                        -> gained "Gained" = speed + dived
}
decision two_dives "Two dives" (kind dive_limit, speed points) {
  capped(kind, speed) < 3 -> slow "Slow" = 0
  otherwise               -> after "After two" = capped(kind, capped(kind, speed, 2), 2) - 1
}
"""
CALLS_LINE = HEADER_LINES + 10  # the first row of two_dives


def _ruleset(compiler: Compiler, body: str) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


def test_the_module_returns_the_number_of_the_first_row_that_holds_as_the_semantics_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler, DIVE)
    m = import_rendered(rs, tmp_path, "decision_numbers_module")
    assert (m.dive(speed=4, dived=2, top=5), m.dive(speed=3, dived=1, top=5)) == (5, 4)
    assert (m.climb(6, 1), m.climb(6, 1, bomber=True), m.climb(2, 2)) == (4, 3, 0)
    assert (m.glide(9), m.glide(3.5)) == (4, 1)
    decisions = {d.id: d for d in rs.decisions}
    values = [0, 1, 2, 3.5, 5, 9]
    for name, function in m.DECISIONS.items():
        d = decisions[name]
        numbers = [p.name for p in d.params if p.unit != "bool"]
        for picked in itertools.product(values, repeat=len(numbers)):
            for bomber in (False, True) if name == "climb" else (None,):
                given: dict[str, float | bool] = dict(zip(numbers, picked, strict=True))
                if bomber is not None:
                    given["bomber"] = bomber
                reference = semantics.decision_answer(d, {"bomber": False, **given})
                assert function(**given) == reference, (name, given)


def test_a_decision_that_gives_outcomes_still_returns_its_outcome(
    compiler: Compiler, tmp_path: Path
) -> None:
    body = DIVE + 'decision fast "Fast" (speed points) {\n  speed > 4 -> yes_fast\n'
    body += "  otherwise -> not_fast\n}\n"
    m = import_rendered(_ruleset(compiler, body), tmp_path, "decision_numbers_outcome")
    assert m.fast(5).id == "yes_fast" and m.dive(1, 1, 5) == 2


def test_a_row_without_a_number_among_rows_with_one_is_e229_at_its_outcome(
    compiler: Compiler,
) -> None:
    text = HEADER + DIVE.replace('"Held at the top dive speed" = top', '"Held"')
    assert located(compiler, text) == [("E229", DIVE_LINE, 26)]


def test_a_number_in_a_decision_of_a_modifiers_factors_is_e229(compiler: Compiler) -> None:
    body = (
        'modifier cover "Cover" {\n  full "Full" | -2\n  none "None" | 0\n}\n'
        'decision c "C" (size points) -> cover {\n'
        "  size > 2 -> full = size\n  otherwise -> none = 0\n}\n"
    )
    assert located(compiler, HEADER + body) == [("E229", HEADER_LINES + 6, 22)]


def test_numbers_in_two_units_are_e225_at_the_decision(compiler: Compiler) -> None:
    body = 'decision d "D" (speed points, reach hex) {\n  speed > 2 -> fast = speed\n'
    body += "  otherwise -> slow = reach\n}\n"
    assert located(compiler, HEADER + body) == [("E225", HEADER_LINES + 1, 10)]


def test_a_row_gives_the_table_cell_its_key_input_picks_as_the_semantics_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler, CAPPED)
    m = import_rendered(rs, tmp_path, "decision_numbers_cell")
    assert (m.capped("fighter", 4, 2), m.capped("bomber", 4, 3), m.capped("fighter", 7, 3)) == (
        6,
        6,
        8,
    )
    assert (m.cost_of("fighter"), m.cost_of(kind="bomber")) == (2, 3)
    for kind, speed, dived in itertools.product(("fighter", "bomber"), range(9), (0, 1, 2.5)):
        given = {"kind": kind, "speed": speed, "dived": dived}
        assert m.capped(**given) == semantics.decision_answer(rs.decisions[0], given), given


def test_a_row_computes_with_a_steps_answer_as_the_semantics_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler, CLIMB)
    m = import_rendered(rs, tmp_path, "decision_numbers_step")
    assert (m.climbs(6, 1), m.climbs(6, 1, bomber=True), m.climbs(2, 1, True)) == (4, 3, 0)
    assert (m.half_climb(3), m.half_climb(0.25)) == (4, 1)
    steps = semantics.Rules.of(rs)
    for d in rs.decisions:
        function = m.DECISIONS[d.id]
        for climbed, speed, bomber in itertools.product((0, 0.25, 1, 2.5, 4), range(-1, 9), (0, 1)):
            given = {"climbed": climbed} | (
                {"speed": speed, "bomber": bool(bomber)} if d.id == "climbs" else {}
            )
            assert function(**given) == semantics.decision_answer(d, given, steps), given


@pytest.mark.parametrize(
    ("change", "code", "column"),
    [
        ("at least 1 from 0.5 level", "impassable from 9 level", 22),
        ("heavy_cost(climbed) ->", "heavy_cost(speed) ->", 33),
        ("(speed points, climbed level,", "(speed points, heavy_cost level, climbed level,", 22),
    ],
    ids=["may_be_impassable", "another_unit", "input_named_like_the_step"],
)
def test_misuse_of_a_step_in_a_decisions_arithmetic_is_reported_at_its_place(
    compiler: Compiler, change: str, code: str, column: int
) -> None:
    text = HEADER + CLIMB.replace(change, code, 1)
    errors = located(compiler, text)
    want = "E225" if "speed)" in code else "E226"
    assert errors[0] == (want, HEADER_LINES + 4, column), errors


def test_a_row_computes_with_another_decisions_number_as_the_semantics_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler, CALLS)
    m = import_rendered(rs, tmp_path, "decision_numbers_calls")
    assert (m.two_dives("fighter", 1), m.two_dives("fighter", 3), m.two_dives("bomber", 5)) == (
        0,
        6,
        5,
    )
    rules = semantics.Rules.of(rs)
    for kind, speed in itertools.product(("fighter", "bomber"), (-2, 0, 1, 1.5, 2, 3, 7)):
        given = {"kind": kind, "speed": speed}
        assert m.two_dives(**given) == semantics.decision_answer(rs.decisions[1], given, rules)


@pytest.mark.parametrize(
    ("change", "code", "found"),
    [
        ('"Held" = dive_limit[kind]', '"Held"', ("E226", CALLS_LINE, 3)),
        ("capped(kind, speed) <", "capped(kind) <", ("E226", CALLS_LINE, 3)),
        ("capped(kind, speed) <", "capped(kind, speed, 2, 3) <", ("E226", CALLS_LINE, 3)),
        ("capped(kind, speed) <", "capped(speed, speed) <", ("E211", CALLS_LINE, 10)),
        ("capped(kind, speed) <", "capped(kind, 1 hex) <", ("E225", CALLS_LINE, 16)),
        ("capped(kind, speed) <", "capped(kind, speed) rounded up <", ("E226", CALLS_LINE, 3)),
        ("capped(kind, speed) <", "later(speed) <", ("E226", CALLS_LINE, 3)),
    ],
    ids=["gives_outcomes", "too_few", "too_many", "not_a_key", "another_unit", "rounded", "below"],
)
def test_misuse_of_a_decision_in_anothers_arithmetic_is_reported_at_its_place(
    compiler: Compiler, change: str, code: str, found: tuple[str, int, int]
) -> None:
    text = HEADER + CALLS.replace(change, code, 1)
    if "later" in code:
        text += 'decision later "Later" (speed points) {\n  otherwise -> x = speed\n}\n'
    if code == '"Held"':  # capped then gives outcomes: no row may give a number either
        text = text.replace('"Gained" = speed + dived', '"Gained"')
    errors = located(compiler, text)
    assert found in errors, errors


def test_a_cell_in_another_unit_than_the_other_rows_numbers_is_e225(compiler: Compiler) -> None:
    text = HEADER + CAPPED.replace("= speed + dived", "= 1 hex")
    assert located(compiler, text) == [("E225", HEADER_LINES + 5, 10)]


def test_the_numbers_survive_dsl_to_yaml_to_dsl_with_the_source_and_notes(
    tmp_path: Path,
) -> None:
    text = (
        HEADER
        + 'book rb "Rule book"\n'
        + DIVE.replace(
            '"Held at the top dive speed" = top',
            '"Held at the top dive speed" [rb p.4] = top\n    note "The class\'s top dive speed."',
        )
    )
    source, errors = Parser().parse(text, "demo.terrain")
    assert source is not None and errors == []
    yaml_text = to_yaml(source)
    assert "gives: speed + dived" in yaml_text and "source: rb p.4" in yaml_text
    yaml_path = tmp_path / "demo.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "back.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p).ruleset for p in (yaml_path, back)]
    plain = [dataclasses.replace(r, digest="") for r in found if r is not None]
    assert len(plain) == 2 and plain[0] == plain[1]
    held = plain[0].decisions[0].rows[0]
    assert held.answer is not None and held.info.source is not None and held.info.notes


def test_a_bad_number_in_yaml_is_reported_at_its_place(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + DIVE, "demo.terrain")
    assert source is not None
    path = tmp_path / "demo.yaml"
    path.write_text(to_yaml(source).replace("gives: top", "gives: top +"), "utf-8")
    found = [d for d in Compiler().compile_file(path).diagnostics if d.is_error]
    assert [d.code for d in found] == ["E001"] and found[0].pos is not None


def test_worked_examples_state_the_number_and_a_wrong_one_is_e270(compiler: Compiler) -> None:
    example = "example dives {\n  dive(4, 2, 5) = 5\n  climb(6, 1, yes) = 3 points\n}\n"
    assert _ruleset(compiler, DIVE + example).examples
    wrong = compile_snippet(compiler, HEADER + DIVE + example.replace("= 5", "= 6"))
    assert [d.code for d in wrong.diagnostics if d.is_error] == ["E270"]
    assert "is 5 points, not 6" in wrong.diagnostics[0].message


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "| gives |"), ("fr", "| donne |"), ("de", "| ergibt |"), ("ru", "| даёт |")],
)
def test_the_sheet_prints_the_number_column_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "demo.terrain"
    ruleset.write_text(HEADER + DIVE, "utf-8")
    target = tmp_path / f"demo.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    text = target.read_text("utf-8")
    assert words in text and "speed + dived" in text


def test_diff_grades_a_changed_number_as_a_rules_change_named_by_its_outcome(
    compiler: Compiler,
) -> None:
    old = _ruleset(compiler, DIVE)
    new = _ruleset(compiler, DIVE.replace("= top\n", "= top - 1\n"))
    assert [(c.level, c.action, c.path, c.message) for c in semantic.diff(old, new).changes] == [
        (
            "rules",
            "changed",
            "dive.held",
            "Speed after a dive, row Held at the top dive speed: speed + dived > top, gives top"
            " -> speed + dived > top, gives top - 1",
        )
    ]


def test_diff_grades_a_decision_that_now_gives_a_number_as_breaking(compiler: Compiler) -> None:
    outcomes = DIVE.replace(" = top\n", "\n").replace(" = speed + dived\n", "\n")
    old, new = _ruleset(compiler, outcomes), _ruleset(compiler, DIVE)
    found = [(c.level, c.path, c.message) for c in semantic.diff(old, new).changes]
    assert ("breaking", "dive", "Speed after a dive: gives an outcome -> a number") in found
    back = [(c.level, c.message) for c in semantic.diff(new, old).changes]
    assert ("breaking", "Speed after a dive: gives a number -> an outcome") in back


def _house(tmp_path: Path, overrides: str) -> tuple[ir.Ruleset | None, list[str]]:
    (tmp_path / "demo.terrain").write_text(HEADER + DIVE, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends demo@^1.0\n' + overrides, "utf-8"
    )
    compiled = Compiler().compile_file(house)
    return compiled.ruleset, [d.code for d in compiled.diagnostics if d.is_error]


def test_a_house_rule_replaces_a_rows_number(tmp_path: Path) -> None:
    rs, errors = _house(tmp_path, "override dive.held: speed + dived > top -> held = top - 1\n")
    assert rs is not None and errors == []
    dive = rs.decisions[0]
    assert semantics.decision_answer(dive, {"speed": 4, "dived": 2, "top": 5}) == 4
    assert dive.outcomes[0].info.labels["en"] == "Held at the top dive speed"


def test_a_house_rule_row_without_its_number_is_e229(tmp_path: Path) -> None:
    _, errors = _house(tmp_path, "override dive.held: speed + dived > top -> held\n")
    assert errors == ["E229"]


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index('```terrain\ndecision dive "Speed after a dive"')
    snippet = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    header = 'ruleset demo "Demo"\nversion 1.0.0\nlanguages en fr\nunits distance in, cost MP\n'
    compiled = compile_snippet(compiler, header + snippet)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = import_rendered(compiled.ruleset, tmp_path, "decision_numbers_docs")
    assert (m.dive(speed=4, dived=2, top=5), m.dive(speed=3, dived=1, top=5)) == (5, 4)
    assert m.climb(speed=6, climbed=1, bomber=True) == 3
    start = doc.index('  ```terrain\n  table dive_limit "Top dive speed"')
    block = doc[start + len("  ```terrain\n") : doc.index("  ```\n", start + 10)]
    capped = compile_snippet(compiler, header + textwrap.dedent(block))
    assert capped.ok and capped.ruleset is not None, [str(d) for d in capped.diagnostics]
    m2 = import_rendered(capped.ruleset, tmp_path, "decision_numbers_docs_cell")
    assert m2.capped(kind="bomber", speed=4, dived=3) == 6
    start = doc.index('  ```terrain\n  step climb_rate "Speed a climb costs"')
    block = doc[start + len("  ```terrain\n") : doc.index("  ```\n", start + 10)]
    climbs = compile_snippet(compiler, header + textwrap.dedent(block))
    assert climbs.ok and climbs.ruleset is not None, [str(d) for d in climbs.diagnostics]
    m3 = import_rendered(climbs.ruleset, tmp_path, "decision_numbers_docs_step")
    assert (m3.climbs(speed=6, climbed=1), m3.climbs(speed=1, climbed=1)) == (4, 0)
    start = doc.index("  ```terrain\n  table dive_limit", doc.index("Another decision's number"))
    block = doc[start + len("  ```terrain\n") : doc.index("  ```\n", start + 10)]
    calls = compile_snippet(compiler, header + textwrap.dedent(block))
    assert calls.ok and calls.ruleset is not None, [str(d) for d in calls.diagnostics]
    m4 = import_rendered(calls.ruleset, tmp_path, "decision_numbers_docs_calls")
    assert (m4.two_dives(kind="fighter", speed=3), m4.two_dives(kind="bomber", speed=3)) == (7, 6)
    for shown in (
        '`two_dives(kind="fighter", speed=3)` is `7` (3 + 2 + 2) and\n'
        '  `two_dives(kind="bomber", speed=3)` is `6`',
        "`climbs(speed=6, climbed=1)` is `4` and `climbs(speed=1, climbed=1)` is `0`",
        '`capped(kind="bomber", speed=4, dived=3)` is `6`',
        "`dive(speed=4, dived=2,\n  top=5)` is `5`",
        "`dive(speed=3, dived=1, top=5)` is `4`",
        "`climb(speed=6, climbed=1,\n  bomber=True)` is `3`",
    ):
        assert shown in doc


@pytest.fixture(scope="module")
def node() -> str:
    return test_js_target._needed("node")


def test_js_module_gives_the_same_numbers_and_errors_as_python(
    compiler: Compiler, node: str, tmp_path: Path
) -> None:
    bodies = {"numbers": DIVE + CAPPED + CLIMB.replace("climbs", "climbs_"), "calls": CALLS}
    for name, body in bodies.items():
        rs = _ruleset(compiler, body)
        plan = module_plan.build(rs)
        python = import_rendered(rs, tmp_path, f"decision_numbers_js_{name}")
        module = test_js_target.write_package(plan, tmp_path / name)
        queries = list(js_queries_numbers.number_queries(random.Random(40), plan))
        assert len(queries) >= 600
        expected = js_queries.ask_python_all(python, queries)
        got = js_queries.ask_node(module, queries)
        assert any("answer" in e for e in expected) and any("error" in e for e in expected)
        pairs = zip(queries, expected, got, strict=True)
        assert [(q, e, g) for q, e, g in pairs if not js_queries.same(e, g)][:5] == [], name
