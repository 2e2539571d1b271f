"""Conditions that read a unit's state (issue 40): a modifier's value in a band of a state,
``when altitude above 6 | +1`` in the modifier's block ("+1 to hit a target flying above
altitude 6"). ``modifier()`` takes ``state=`` as the route searches do (every state, a whole
number in its range: the target's ``Route.state``), needs it when the modifier has bands, and
adds the value of each band the state is in (a marker replaces the total). A sight rule with a
band (``sight clouds ... : blocks at 1, when altitude below 5``: "clouds block only for units
in their band") counts only while the viewer's ``state=`` is in it. The module and the
reference semantics answer alike, and the JavaScript module as the Python one."""

from __future__ import annotations

import dataclasses
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir, semantics, spelling
from rulesdsl.codegen import plan as module_plan
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics import MissingArgument
from rulesdsl.variants import changelog
from rulesdsl.versions import diff as semantic
from tests import js_queries, typescript
from tests.conftest import MYPY_CACHE, compile_snippet, import_rendered
from tests.test_js_target import node, write_package
from tests.test_module_layout import ruff_would_reformat
from tests.test_sight_and_results import located
from tests.test_state import HEADER, RULES

__all__ = ["node"]  # the fixture

BANDS = """modifier to_hit "To hit" {
  long "Long range" | -1
  cover "Cover" | -2
  when altitude above 6 | +1
  when speed below 2 | +2
  when altitude below 1 | blocked
}
"""


CLOUDS = """sight clouds "Clouds" : blocks at 1, counts between, when altitude below 5
layer cloud "Cloud" {
  columns cost, clouds
  cloudbank "Cloud bank" | +0 | 1
  thunderhead "Thunderhead" | +1 | blocked
}
"""


def _ruleset(compiler: Compiler, body: str = RULES + BANDS + CLOUDS) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def air(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset(Compiler())
    return rs, import_rendered(rs, tmp_path_factory.mktemp("bands"), "bands_module")


def test_a_modifier_value_in_a_band_counts_only_while_the_state_is_in_it(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """Strictly above 6 or below 2: at altitude 6 the band above 6 gives nothing, at 7 +1;
    two bands add up with the items; a marker in a band replaces the total."""
    _, module = air
    asked = [
        ({"speed": 5, "altitude": 6}, -1),
        ({"speed": 5, "altitude": 7}, 0),
        ({"speed": 1, "altitude": 7}, 2),
        ({"speed": 2, "altitude": 3}, -1),
    ]
    for state, total in asked:
        assert module.modifier("to_hit", "long", state=state) == total, state
    assert module.modifier("to_hit", "long", state={"speed": 5, "altitude": 0}) is module.BLOCKED


def test_a_modifier_with_bands_needs_the_state_and_checks_it(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """Asked before with a state, and again without one, it still needs it (the shortcut for
    modifiers whose values simply add up leaves it out)."""
    _, module = air
    assert module.modifier("to_hit", "long", state={"speed": 5, "altitude": 3}) == -1
    with pytest.raises(module.InvalidArgument, match="must be given: 'to_hit' has values by"):
        module.modifier("to_hit", "long")
    with pytest.raises(module.InvalidArgument, match="'altitude' a whole number from 0 to 9"):
        module.modifier("to_hit", "long", state={"speed": 5, "altitude": 10})
    with pytest.raises(module.ArgumentTypeError, match="mapping of states"):
        module.modifier("to_hit", state=3)


def test_a_modifier_without_bands_takes_the_state_as_well(
    compiler: Compiler, tmp_path: Path
) -> None:
    """In a module with states, a caller may pass the target's state to every modifier: one
    without bands checks it and reads nothing from it."""
    body = RULES + BANDS + 'modifier reach "Reach" {\n  far "Far" | -1\n}\n'
    module = import_rendered(_ruleset(compiler, body), tmp_path, "bands_plain")
    assert module.modifier("reach", "far", state={"speed": 0, "altitude": 0}) == -1
    assert module.modifier("reach", "far") == -1
    with pytest.raises(module.InvalidArgument):
        module.modifier("reach", "far", state={"speed": 0})


def test_the_module_answers_bands_as_the_semantics(air: tuple[ir.Ruleset, Any]) -> None:
    rs, module = air
    rng = random.Random(40)
    for _ in range(300):
        state = {"speed": rng.randint(0, 8), "altitude": rng.randint(0, 9)}
        items = rng.sample(["long", "cover"], rng.randint(0, 2))
        expected = semantics.modifier(rs, "to_hit", items, state=state)
        got = module.modifier("to_hit", *items, state=state)
        assert (got is module.BLOCKED) if isinstance(expected, ir.Marker) else got == expected
    with pytest.raises(MissingArgument):
        semantics.modifier(rs, "to_hit", ["long"])


def test_js_module_answers_band_questions_as_python(node: str, tmp_path: Path) -> None:
    rs = _ruleset(Compiler())
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "js_bands")
    module = write_package(plan, tmp_path / "js")
    queries = list(js_queries.families()["state_bands"](random.Random(40), plan))
    queries += list(js_queries.families()["modifier"](random.Random(40), plan))
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
    answers = [str(e) for e in expected]  # the questions reach the bands
    assert any("blocked" in a for a in answers) and any("{'number': 3.0}" in a for a in answers)
    assert any("must be given" in a for a in answers)
    sights = [str(e) for q, e in zip(queries, expected, strict=True) if q["args"][0] == "clouds"]
    assert any("'marker': 'blocked'" in a for a in sights)
    assert any("must be given: 'clouds'" in a for a in sights)


def test_a_module_with_bands_comes_out_formatted_and_typed(
    compiler: Compiler, tmp_path: Path
) -> None:
    import_rendered(_ruleset(compiler), tmp_path, "bands_layout")
    assert ruff_would_reformat(tmp_path) == []
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(MYPY_CACHE),
            str(tmp_path / "bands_layout.py"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout


def test_a_sight_rule_with_a_band_counts_only_while_the_viewer_is_in_it(
    air: tuple[ir.Ruleset, Any],
) -> None:
    """Below altitude 5 the cloud bank between blocks the line; at 5 and above the rule sees
    nothing (the line is open, every place 0), however thick the cloud."""
    _, module = air
    line = [("clear",), ("clear", "cloudbank"), ("clear", "thunderhead"), ("clear",)]
    low = module.line_of_sight("clouds", *line, state={"speed": 3, "altitude": 4})
    assert (low.hindrance, low.blocked, low.by_place) == (1, True, (0, 1, module.BLOCKED, 0))
    high = module.line_of_sight("clouds", *line, state={"speed": 3, "altitude": 5})
    assert (high.hindrance, high.blocked, high.by_place) == (0, False, (0, 0, 0, 0))
    with pytest.raises(module.InvalidArgument, match="must be given: 'clouds' counts only while"):
        module.line_of_sight("clouds", *line)
    with pytest.raises(module.InvalidArgument, match="'altitude' a whole number"):
        module.line_of_sight("clouds", *line, state={"speed": 3})


def test_the_module_answers_sight_in_a_band_as_the_semantics(air: tuple[ir.Ruleset, Any]) -> None:
    rs, module = air
    rule = next(r for r in rs.sights if r.id == "clouds")
    rng = random.Random(41)
    for _ in range(200):
        state = {"speed": rng.randint(0, 8), "altitude": rng.randint(0, 9)}
        places = [
            ("clear", *rng.sample(["cloudbank", "thunderhead"], rng.randint(0, 1)))
            for _ in range(rng.randint(1, 5))
        ]
        expected = semantics.line_of_sight(rs, rule, places, state=state)
        got = module.line_of_sight("clouds", *places, state=state)
        assert (got.hindrance, got.blocked) == (expected.hindrance, expected.blocked), places
    with pytest.raises(MissingArgument):
        semantics.line_of_sight(rs, rule, [("clear",)])


# ---- checks -----------------------------------------------------------------------------------

LINE = (HEADER + RULES).count("\n") + 3


@pytest.mark.parametrize(
    ("band", "code", "column"),
    [
        ("when altitude above 6.5 | +1", "E460", 8),
        ("when altitude above 6 | +1, bomber +2", "E461", 31),
        ("when height above 6 | +1", "E101", 8),
    ],
)
def test_each_misuse_of_a_band_gets_its_code_at_its_place(
    compiler: Compiler, band: str, code: str, column: int
) -> None:
    source = HEADER + RULES + 'modifier to_hit "To hit" {\n  long "Long" | -1\n  ' + band + "\n}\n"
    assert located(compiler, source) == [(code, LINE, column)]


@pytest.mark.parametrize(
    ("extra", "line", "column"),
    [
        ('modifier m "M" {\n  state "State" | given\n}\n', 2, 3),
        ('context state "S" {\n  a "A"\n}\nmodifier m "M" by state {\n  x "X" | 1\n}\n', 4, 19),
    ],
)
def test_a_context_or_given_value_named_state_beside_state_lines_is_e462(
    compiler: Compiler, extra: str, line: int, column: int
) -> None:
    """``modifier()`` takes ``state=`` in a ruleset with states; without states the name is
    free."""
    start = (HEADER + RULES).count("\n")
    assert located(compiler, HEADER + RULES + extra) == [("E462", start + line, column)]
    stateless = RULES.split("state ")[0].replace(" when altitude below 4", "")
    assert located(compiler, HEADER + stateless + extra) == []


def test_a_decision_reading_the_total_of_a_modifier_with_bands_is_e432(compiler: Compiler) -> None:
    """The decision asks the modifier with its items alone, and a band needs the state."""
    decision = (
        'decision shot "Shot" (mods to_hit, skill points) {\n'
        '  skill + mods >= 4 -> hit "Hit"\n'
        '  otherwise -> miss "Miss"\n'
        "}\n"
    )
    found = located(compiler, HEADER + RULES + BANDS + decision)
    assert [code for code, _, _ in found] == ["E432"]


# ---- YAML, sheets, diff, house rules ---------------------------------------------------------


def test_bands_survive_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + RULES + BANDS, "air.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "band: altitude above 6" in yaml_text
    yaml_path = tmp_path / "air.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "air.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p) for p in (yaml_path, back)]
    plain = [dataclasses.replace(c.ruleset, digest="") for c in found if c.ruleset is not None]
    assert len(plain) == 2 and plain[0] == plain[1], [str(d) for c in found for d in c.diagnostics]
    bands = next(m for m in plain[0].modifiers if m.id == "to_hit").bands
    assert [(b.state, b.side, b.bound) for b in bands] == [
        ("altitude", "above", 6),
        ("speed", "below", 2),
        ("altitude", "below", 1),
    ]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "| while Altitude is above 6 | +1 |"),
        ("fr", "| tant que Speed est inférieur à 2 | +2 |"),
        ("de", "| solange Altitude über 6 liegt | +1 |"),
        ("ru", "| пока Speed ниже 2 | +2 |"),
        ("en", "only for a viewer whose Altitude is below 5."),
        ("fr", "seulement pour un observateur dont Altitude est inférieur à 5."),
        ("de", "nur für Beobachter, deren Altitude unter 5 liegt."),
        ("ru", "только для наблюдателя, у которого Altitude ниже 5."),  # noqa: RUF001
    ],
)
def test_the_sheet_says_each_band_of_a_modifier_or_sight_rule_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "air.terrain"
    header = HEADER.replace("version 1.0.0\n", "version 1.0.0\nlanguages en fr de ru\n")
    ruleset.write_text(header + RULES + BANDS + CLOUDS, "utf-8")
    target = tmp_path / f"air.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert words in target.read_text("utf-8")


def test_diff_grades_a_band_moved_as_breaking_and_a_value_as_a_rules_change(
    compiler: Compiler,
) -> None:
    old = _ruleset(compiler, RULES + BANDS)
    moved = _ruleset(compiler, RULES + BANDS.replace("above 6 | +1", "above 5 | +1"))
    valued = _ruleset(compiler, RULES + BANDS.replace("above 6 | +1", "above 6 | +2"))
    found = [
        [(c.level, c.path) for c in semantic.diff(old, new).changes if c.path == "to_hit.when"]
        for new in (moved, valued)
    ]
    assert found == [[("breaking", "to_hit.when")], [("rules", "to_hit.when")]]
    message = next(c.message for c in semantic.diff(old, valued).changes)
    assert "when altitude above 6 | +1; " in message and "when altitude above 6 | +2; " in message


def test_a_house_rule_reopens_the_modifier_to_change_a_band(tmp_path: Path) -> None:
    """``modifier to_hit { when altitude above 6 | +2 }`` replaces the base's band above on
    that state (it does not add a second one); the changelog names ``to_hit.bands``."""
    (tmp_path / "air.terrain").write_text(HEADER + RULES + BANDS, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends air@^1.0\n'
        "modifier to_hit {\n  when altitude above 6 | +2\n}\n",
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    bands = next(m for m in compiled.ruleset.modifiers if m.id == "to_hit").bands
    said = [(b.state, b.side, b.bound, spelling.value(b.value)) for b in bands]
    assert said == [
        ("speed", "below", 2, "+2"),
        ("altitude", "below", 1, "blocked"),
        ("altitude", "above", 6, "+2"),
    ]
    state = {"speed": 5, "altitude": 7}
    assert semantics.modifier(compiled.ruleset, "to_hit", ["long"], state=state) == 1
    assert "to_hit.bands" in [changelog.path_text(c.path) for c in compiled.ruleset.changes]


def _guide_answers(tmp_path: Path, title: str, names: tuple[str, ...]) -> int:
    """Compile the terrain block of the guide's section ``title`` and check each commented
    answer of its python block against the module (``BLOCKED`` for the marker); how many."""
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index(title) : doc.index("## Rolls due on the map")]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    start = section.index("```python\n") + len("```python\n")
    python = section[start : section.index("```", start)].splitlines()
    compiled = compile_snippet(Compiler(), terrain)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    module = import_rendered(compiled.ruleset, tmp_path, "guide")
    scope: dict[str, Any] = {n: getattr(module, n) for n in names}
    asked = 0
    for i, line in enumerate(python):
        if line.startswith("#"):
            continue
        if i + 1 < len(python) and python[i + 1].startswith("# "):
            said = python[i + 1][2:]
            answer = eval(line, scope)
            assert answer is module.BLOCKED if said == "BLOCKED" else repr(answer) == said, line
            asked += 1
        else:
            exec(line, scope)
    return asked


def test_the_language_guide_band_example_answers_as_it_says(tmp_path: Path) -> None:
    assert _guide_answers(tmp_path, "### A modifier in a band of a state", ("modifier",)) == 4


@typescript.TSC
def test_the_declarations_type_a_modifier_and_a_sight_rule_given_a_state(
    node: str, tmp_path: Path, pytestconfig: Any
) -> None:
    write_package(module_plan.build(_ruleset(Compiler())), tmp_path)
    shutil.copy(Path(__file__).parent / "js" / "band_consumer.ts", tmp_path / "consumer.ts")
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "consumer.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_sight_band_survives_yaml_and_shows_on_the_sheet(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + RULES + CLOUDS, "air.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "band: altitude below 5" in yaml_text
    assert "counts between, when altitude below 5" in to_terrain(yaml_text)
    path = tmp_path / "air.yaml"
    path.write_text(yaml_text, "utf-8")
    compiled = Compiler().compile_file(path)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert [r.state for r in compiled.ruleset.sights] == [("altitude", "below", 5)]


def test_diff_grades_a_sight_band_changed_as_breaking(compiler: Compiler) -> None:
    old = _ruleset(compiler, RULES + CLOUDS)
    new = _ruleset(compiler, RULES + CLOUDS.replace("below 5", "below 6"))
    found = [(c.level, c.path, c.message) for c in semantic.diff(old, new).changes]
    assert found == [
        ("breaking", "clouds.band", "Clouds: band altitude below 5 -> altitude below 6")
    ]


def test_a_house_rule_overrides_a_sight_band(tmp_path: Path) -> None:
    (tmp_path / "air.terrain").write_text(HEADER + RULES + CLOUDS, "utf-8")
    house = tmp_path / "house.terrain"
    head = 'ruleset house "House"\nversion 1.0.0\nextends air@^1.0\n'
    house.write_text(head + "override clouds.altitude | below 6\n", "utf-8")
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert [r.state for r in compiled.ruleset.sights] == [("altitude", "below", 6)]
    assert [changelog.path_text(c.path) for c in compiled.ruleset.changes] == ["clouds.band"]
    house.write_text(head + "override clouds.altitude | 6\n", "utf-8")
    found = [d.code for d in Compiler().compile_file(house).diagnostics if d.is_error]
    assert found == ["E464"]


def test_a_sight_band_bound_that_is_not_whole_is_e463(compiler: Compiler) -> None:
    source = HEADER + RULES + CLOUDS.replace("below 5", "below 4.5")
    line = (HEADER + RULES).count("\n") + 1
    assert located(compiler, source) == [("E463", line, 59)]


def test_the_language_guide_sight_band_example_answers_as_it_says(tmp_path: Path) -> None:
    assert _guide_answers(tmp_path, "### Sight in a band of a state", ("line_of_sight",)) == 2
