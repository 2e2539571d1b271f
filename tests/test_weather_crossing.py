"""Weather that reaches the rolls made on crossing (issue 40, item 7, "rules that feed
rules"): a whole-map layer (weather) may hold a column of a roll due on crossing an edge, and
its value adds to that roll wherever an edge's features make it due, as it adds to a roll on
entering a place. Other layers of places keep E292. The module answers as the reference
semantics, in Python and JavaScript; the sheet prints the condition's value in every
language; `diff` grades a changed value as a rules change; a house rule overrides it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics.moves import place_roll, route_rolls
from rulesdsl.versions import diff as semantic
from tests import js_queries, test_js_target
from tests.conftest import compile_snippet, import_rendered

FORD = """ruleset ford "Ford" fr "Gué"
version 1.0.0
languages en fr
units distance hex, cost MP
mode foot "Foot" fr "À pied"
mode truck "Truck" fr "Camion"
grid hexes "Hexes" fr "Hexagones" : 1 hex = 1 km, hex
dice swept "Swept away" fr "Emporté" : 1d6 {
  1- swept "Swept away" fr "Emporté"
  2+ across "Across" fr "Traversé"
}
roll ford_check "Fording" fr "Passage à gué" : swept on crossing
roll bog_check "Bogging" fr "Enlisement" : swept on entering
layer terrain "Terrain" fr "Terrain" one per place {
  columns cost, bog_check
  clear "Clear" fr "Clair" | 1 |
  marsh "Marsh" fr "Marais" | 2 | 0, truck -1
}
layer river "River" fr "Rivière" edges {
  columns cost, ford_check
  stream "Stream" fr "Ruisseau" | +1 | 0, truck -1
}
layer weather "Weather" fr "Météo" whole map {
  columns ford_check, bog_check
  flood "Flood" fr "Crue" | -2 | -1
}
"""
LINES = {line.strip(): n for n, line in enumerate(FORD.splitlines(), 1)}


def _ruleset(compiler: Compiler, text: str = FORD) -> ir.Ruleset:
    compiled = compile_snippet(compiler, text)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


def test_weather_adds_to_a_roll_on_crossing_as_the_semantics_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler)
    m = import_rendered(rs, tmp_path, "weather_crossing")
    rule = next(r for r in rs.rolls if r.id == "ford_check")
    for mode in ("foot", "truck"):
        for names in (("stream",), ("stream", "flood"), ("flood",), ()):
            due = m.rolls_due(mode, *names, on="crossing")
            found = place_roll(rs, rule, mode, names)
            assert [(d.modifier, d.features) for d in due] == ([found] if found else [])
    assert [d.modifier for d in m.rolls_due("truck", "stream", "flood", on="crossing")] == [-3]
    assert m.rolls_due("truck", "flood", on="crossing") == ()  # weather alone calls for none
    edges = {((0, 0), (1, 0)): ("stream",)}
    board = m.Board({(q, 0): ("clear", "flood") for q in range(3)}, grid="hexes", edges=edges)
    rolls = m.route_cost(board, "truck", [(0, 0), (1, 0), (2, 0)]).rolls
    assert [(d.step, d.on, d.roll, d.modifier) for d in rolls] == [
        (1, "crossing", "ford_check", -3)
    ]
    steps = [(("clear", "flood"), ("stream",)), (("clear", "flood"), ())]
    expected = route_rolls(rs, "truck", steps)
    assert [(d.step, d.roll, d.modifier) for d in rolls] == [
        (d.step, d.roll, d.modifier) for d in expected
    ]


def test_a_roll_on_crossing_in_a_layer_of_places_is_still_e292(compiler: Compiler) -> None:
    text = FORD.replace("columns cost, bog_check", "columns cost, bog_check, ford_check").replace(
        "| 2 | 0, truck -1", "| 2 | 0, truck -1 | -1"
    )
    compiled = compile_snippet(compiler, text)
    found = [(d.code, d.pos.line) for d in compiled.diagnostics if d.is_error and d.pos]
    assert found == [("E292", LINES["columns cost, bog_check"])]


@pytest.fixture(scope="module")
def node() -> str:
    return test_js_target._needed("node")


def test_the_javascript_module_adds_the_weather_to_crossing_rolls_as_python_does(
    compiler: Compiler, node: str, tmp_path: Path
) -> None:
    rs = _ruleset(compiler)
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "weather_crossing_js")
    module = test_js_target.write_package(plan, tmp_path / "ford")
    queries = js_queries.queries(plan, seed=40)
    crossing = [
        q for q in queries if q["function"] == "rolls_due" and q["kwargs"].get("on") == "crossing"
    ]
    crossing += [
        {
            "function": "rolls_due",
            "args": ["truck", *names],
            "kwargs": {"on": "crossing"},
            "full": True,
        }
        for names in (["stream", "flood"], ["flood", "stream", "clear"], ["flood"])
    ]
    asked = queries + crossing
    expected = js_queries.ask_python_all(python, asked)
    [[due]] = expected[-3]["answer"][0].values()
    assert (due[3], due[6], due[7]) == ("ford_check", -3, ["stream", "flood"])
    weathered = [e for q, e in zip(asked, expected, strict=True) if "flood" in q["args"]]
    assert len(crossing) > 10 and len(weathered) > 10
    got = js_queries.ask_node(module, asked)
    pairs = zip(asked, expected, got, strict=True)
    assert [(q, e, g) for q, e, g in pairs if not js_queries.same(e, g)][:5] == []


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "| Flood | where a roll is due: -2 |"),
        ("fr", "| Crue | là où un jet est dû\u202f: -2 |"),
    ],
)
def test_the_sheet_prints_the_weathers_value_for_the_roll_on_crossing(
    tmp_path: Path, lang: str, said: str
) -> None:
    ruleset = tmp_path / "ford.terrain"
    ruleset.write_text(FORD, "utf-8")
    target = tmp_path / f"ford.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert said in target.read_text("utf-8")


def test_diff_and_a_house_rule_change_the_weathers_value_on_crossing(
    compiler: Compiler, tmp_path: Path
) -> None:
    worse = FORD.replace("| -2 | -1", "| -3 | -1")
    changes = semantic.diff(_ruleset(compiler), _ruleset(compiler, worse)).changes
    assert [(c.level, c.path) for c in changes] == [("rules", "ford_check.flood")]
    (tmp_path / "ford.terrain").write_text(FORD, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends ford@^1.0\noverride flood.ford_check | -3\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = import_rendered(compiled.ruleset, tmp_path, "weather_crossing_house")
    assert [d.modifier for d in m.rolls_due("truck", "stream", "flood", on="crossing")] == [-4]


def test_the_yaml_form_keeps_the_weathers_roll_on_crossing(
    compiler: Compiler, tmp_path: Path
) -> None:
    source, errors = Parser().parse(FORD, "ford.terrain")
    assert source is not None and errors == []
    yaml_text = to_yaml(source)
    (tmp_path / "ford.yaml").write_text(yaml_text, "utf-8")
    compiled = compiler.compile_file(tmp_path / "ford.yaml")
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert compiled.ruleset.features == _ruleset(compiler).features
    assert "columns ford_check, bog_check" in to_terrain(yaml_text)


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("- **Weather on crossing.**") :]
    start = section.index("```terrain\n") + len("```terrain\n")
    snippet = textwrap.dedent(section[start : section.index("```", start)])
    header = FORD[: FORD.index("grid hexes")]
    m = import_rendered(_ruleset(compiler, header + snippet), tmp_path, "weather_docs")
    assert [
        (d.roll, d.modifier) for d in m.rolls_due("truck", "stream", "flood", on="crossing")
    ] == [("ford_check", -3)]
    assert m.rolls_due("truck", "flood", on="crossing") == ()
    for shown in (
        '`rolls_due("truck", "stream", "flood", on="crossing")` is one `ford_check` at `-3`',
        '`rolls_due("truck", "flood", on="crossing")` is `()`',
    ):
        assert shown in doc
