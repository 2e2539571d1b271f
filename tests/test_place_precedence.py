"""Keyword precedence per place (issue 40, item 9): a layer or a feature says which keyword wins
in its own cells (`precedence infantry, fly`), so Infantry can win in ruins and Fly elsewhere.
The module and the reference semantics answer alike (costs, a modifier keyed by unit type, line
of sight seen by a unit type), JavaScript as Python, misuse at its place, the YAML form, the
sheet's words in every language, `diff` grading, the house-rule path and the guide's example."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rulesdsl import ir, semantics
from rulesdsl.codegen import plan as module_plan
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.versions import diff as semantic
from tests import js_queries
from tests.conftest import compile_snippet, import_rendered
from tests.js_queries_precedence import place_order_queries
from tests.test_sight_and_results import located

HEADER = """ruleset demo "Demo"
version 1.0.0
units distance in, cost in
group infantry "Infantry"
group fly "Fly"
mode jump "Jump infantry" : infantry, fly
mode trooper "Trooper" : infantry
mode skimmer "Skimmer" : fly
precedence fly, infantry
"""
LINES = HEADER.count("\n")
PLACES = """modifier cover "Cover" by mode
sight los "Line of sight" : blocks at 3, counts between
layer terrain "Terrain" one per place {
  columns cost, cover, los
  clear "Clear" | 1 | 0 | 0
  woods "Woods" | 2, infantry 2, fly 1 | +1, infantry +2, fly 0 | 1, infantry 2, fly 0
  ruins "Ruins" | 2, infantry 1, fly 3 | +1, infantry +2, fly 0 | 1, infantry 2, fly 0 \\
    precedence infantry, fly
}
layer rubble "Rubble" precedence infantry, fly {
  debris "Debris" | 1, infantry 0, fly 2
}
"""


def _ruleset(compiler: Compiler, body: str, header: str = HEADER) -> ir.Ruleset:
    compiled = compile_snippet(compiler, header + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


def test_infantry_wins_in_ruins_and_fly_elsewhere_in_module_and_semantics(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler, PLACES)
    m = import_rendered(rs, tmp_path, "place_precedence_costs")
    expected = {
        ("jump", "woods"): 1,  # fly first, by the ruleset's line
        ("jump", "ruins"): 1,  # infantry first, by the feature's line (fly would give 3)
        ("jump", "debris"): 0,  # infantry first, by the layer's line (fly would give 2)
        ("trooper", "ruins"): 1,
        ("skimmer", "ruins"): 3,
        ("jump", "ruins", "debris"): 1,  # each feature read in its own order, then added up
        ("jump", "woods", "debris"): 1,
    }
    for (mode, *place), cost in expected.items():
        assert m.move_cost(mode, *place) == cost, (mode, place)
        assert semantics.move_cost(rs, mode, place) == cost, (mode, place)


def test_a_modifier_and_a_sight_value_keyed_by_unit_type_follow_the_features_order(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler, PLACES)
    m = import_rendered(rs, tmp_path, "place_precedence_columns")
    assert m.modifier("cover", "ruins", mode="jump") == 2  # infantry's, there
    assert m.modifier("cover", "woods", mode="jump") == 0  # fly's, elsewhere
    rule = rs.sights[0]
    for place, seen in ((("ruins",), 2), (("woods",), 0)):
        line = (("clear",), place, ("clear",))
        assert m.line_of_sight("los", *line, mode="jump").hindrance == seen
        assert semantics.line_of_sight(rs, rule, line, mode="jump").hindrance == seen


def test_javascript_gives_the_same_answers_as_python_for_every_unit_in_every_place(
    compiler: Compiler, tmp_path: Path
) -> None:
    from tests.test_js_target import _needed, write_package

    _needed("node")
    rs = _ruleset(compiler, PLACES)
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "place_precedence_js")
    queries = list(place_order_queries(plan))
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(write_package(plan, tmp_path / "js"), queries)
    wrong = [(q, e, g) for q, e, g in zip(queries, expected, got, strict=True)]
    assert [w for w in wrong if not js_queries.same(w[1], w[2])][:5] == []
    ruins = {"function": "move_cost", "args": ["jump", "ruins"], "kwargs": {}}
    assert got[queries.index(ruins)].get("answer") == [{"number": 1}]


@pytest.mark.parametrize(
    ("body", "line", "column", "code"),
    [
        ('layer t "T" {\n  a "A" | 1 precedence fly\n}\n', 2, 24, "E235"),
        ('layer t "T" {\n  a "A" | 1 precedence fly, infantry, fly\n}\n', 2, 39, "E235"),
        ('layer t "T" {\n  a "A" | 1 precedence fly, walker\n}\n', 2, 29, "E101"),
        ('table t "T" {\n  a "A" | 1 precedence infantry, fly\n}\n', 2, 24, "E237"),
        ('modifier m "M" {\n  a "A" | +1 precedence infantry, fly\n}\n', 2, 25, "E237"),
    ],
    ids=["one keyword", "listed twice", "not a group", "table row", "modifier row"],
)
def test_each_misuse_of_a_places_precedence_has_its_code_at_its_place(
    compiler: Compiler, body: str, line: int, column: int, code: str
) -> None:
    assert (code, LINES + line, column) in located(compiler, HEADER + body)


def test_a_places_order_that_loops_through_the_rulesets_lines_is_e235(
    compiler: Compiler,
) -> None:
    header = HEADER.replace(
        "precedence fly, infantry\n",
        'group heavy "Heavy"\nprecedence fly, heavy\nprecedence heavy, infantry\n',
    )
    body = 'layer t "T" {\n  a "A" | 1 precedence infantry, fly\n}\n'
    assert located(compiler, header + body) == [("E235", header.count("\n") + 2, 24)]


def test_a_layers_order_that_loops_is_e235_on_the_layer_and_not_again_on_its_rows(
    compiler: Compiler,
) -> None:
    header = HEADER.replace(
        "precedence fly, infantry\n",
        'group heavy "Heavy"\nprecedence fly, heavy\nprecedence heavy, infantry\n',
    )
    body = 'layer t "T" precedence infantry, fly {\n  a "A" | 1 precedence fly, heavy\n}\n'
    assert located(compiler, header + body) == [("E235", header.count("\n") + 1, 24)]


def test_a_places_precedence_survives_dsl_to_yaml_to_dsl(
    compiler: Compiler, tmp_path: Path
) -> None:
    source, _ = Parser().parse(HEADER + PLACES, "demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert yaml_text.count("precedence: [infantry, fly]") == 2
    yaml_path = tmp_path / "demo.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "back.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p).ruleset for p in (yaml_path, back)]
    plain = [dataclasses.replace(r, digest="") for r in found if r is not None]
    assert len(plain) == 2 and plain[0] == plain[1]
    ruins = next(f for f in plain[0].features if f.id == "ruins")
    assert ruins.precedence == ("infantry", "fly") and plain[0].layers[1].precedence == (
        "infantry",
        "fly",
    )


def test_a_yaml_table_row_with_a_precedence_is_e237(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + 'table t "T" {\n  a "A" | 1\n}\n', "demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source).replace(
        "a: {label: A, cells: '1'}", "a: {label: A, cells: '1', precedence: [infantry, fly]}"
    )
    path = tmp_path / "demo.yaml"
    path.write_text(yaml_text, "utf-8")
    assert [d.code for d in Compiler().compile_file(path).diagnostics if d.is_error] == ["E237"]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Ruins: when several give a value, the first counts there: Infantry \\> Fly."),
        ("fr", "Ruins\u202f: quand plusieurs donnent une valeur, la première y compte\u202f:"),
        ("de", "Rubble: Geben mehrere einen Wert, zählt dort der erste: Infantry \\> Fly."),
        ("ru", "«Ruins»: если значение дают несколько, там учитывается первое:"),
    ],
)
def test_the_sheet_says_a_places_order_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "demo.terrain"
    ruleset.write_text(HEADER + PLACES, "utf-8")
    target = tmp_path / f"demo.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert words in target.read_text("utf-8")


def _changes(compiler: Compiler, old: str, new: str) -> list[tuple[str, str, str]]:
    d = semantic.diff(_ruleset(compiler, old), _ruleset(compiler, new))
    return [(c.level, c.path, c.message) for c in d.changes if c.path.endswith("precedence")]


def test_diff_grades_a_places_order_by_whether_an_answer_changes(compiler: Compiler) -> None:
    dropped = PLACES.replace(" \\\n    precedence infantry, fly\n}\nlayer", "\n}\nlayer")
    assert _changes(compiler, PLACES, dropped) == [
        (
            "breaking",
            "ruins.precedence",
            "Ruins: precedence between groups there: none (was infantry, fly)",
        )
    ]
    quiet = PLACES.replace(
        'clear "Clear" | 1 | 0 | 0', 'clear "Clear" | 1 | 0 | 0 precedence infantry, fly'
    )
    assert [c[:2] for c in _changes(compiler, PLACES, quiet)] == [("rules", "clear.precedence")]


def test_diff_of_the_rulesets_lines_reads_each_feature_in_its_own_order(
    compiler: Compiler,
) -> None:
    """Only ruins and debris would change with `precedence infantry, fly` for the whole
    ruleset, and they already say so: no answer changes, so the change is `rules`."""
    only = PLACES.replace('woods "Woods" | 2, infantry 2, fly 1', 'woods "Woods" | 2')
    only = only.replace("+1, infantry +2, fly 0 | 1, infantry 2, fly 0\n  ruins", "+1 | 1\n  ruins")
    turned = HEADER.replace("precedence fly, infantry", "precedence infantry, fly")
    d = semantic.diff(_ruleset(compiler, only), _ruleset(compiler, only, turned))
    assert [(c.level, c.path) for c in d.changes] == [("rules", "precedence")]


def test_a_house_rule_reopens_the_layer_with_another_order(tmp_path: Path) -> None:
    (tmp_path / "demo.terrain").write_text(HEADER + PLACES, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends demo@^1.0\n'
        "layer rubble precedence fly, infantry {\n}\n"
        "remove terrain.ruins\n"
        'layer terrain {\n  ruins "Ruins" | 2, infantry 1, fly 3 | | precedence fly, infantry\n}\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert [d.code for d in compiled.diagnostics if d.is_error] == []
    costs = {f.id: f.costs["jump"] for f in compiled.ruleset.features}
    assert (costs["debris"], costs["ruins"]) == (ir.Number(2), ir.Number(3))


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index('```terrain\nruleset jump_troops "Jump troops"')
    snippet = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    rs = _ruleset(compiler, snippet, header="")
    m = import_rendered(rs, tmp_path, "place_precedence_doc")
    assert (m.move_cost("jump", "woods"), m.move_cost("jump", "ruins")) == (1, 1)
    assert m.move_cost("jump", "debris") == 0
    assert (m.move_cost("jump", "ruins", "debris"), m.move_cost("jump", "woods", "debris")) == (
        1,
        1,
    )
