"""Effects that feed other rules (issue 24, item 4): a whole-map condition adds to a line of
sight once per line, and a dice outcome whose effects name a sight rule or ``cost`` is taken
by ``line_of_sight`` and ``move_cost`` beside a place's features. The generated module's
answers, the reference in rulesdsl.semantics agreeing with them, and the diagnostics for
misuse (E350-E354, code, line and column)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import semantics
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.ir import Ruleset
from rulesdsl.printed.sheets import render_sheet
from rulesdsl.versions import diff as semantic
from tests.conftest import compile_snippet, import_rendered

EFFECTS = """\
ruleset effects_demo "Effects"
version 1.0.0
languages en fr
units distance hex, cost MP
group vehicle "Vehicles"
mode foot "Foot"
mode tank "Tank" : vehicle
mode plane "Plane"
move run "Run" : allowance times 2
sight los "Line of sight" : blocks at 3, counts between
layer terrain "Terrain" one per place {
  columns cost, los
  clear "Clear" | 1, vehicle 1 | 0
  woods "Woods" | 2, vehicle 3 | 1, plane 0
}
layer weather "Weather" whole map {
  columns cost, los
  fog "Fog"     | 0 | 1, plane 2
  night "Night" | 0 | blocked
}
dice barrage "Barrage" : 1d6 {
  1-2 no_effect "No effect"
  3-4 smoke "Smoke" | los +1
  5+ cratered "Cratered" | cost +1, los +1
}
dice crt "Results" : 1d6 by odds {
  column low "Low" up to 1
  column high "High" above 1
  outcome held "Held"
  outcome routed "Routed" | cost +2
  1-3 | held | held
  4+  | held | routed
}
"""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Ruleset, ModuleType]:
    folder = tmp_path_factory.mktemp("effects")
    result = compile_snippet(Compiler(), EFFECTS, folder)
    assert not [d for d in result.diagnostics if d.is_error], result.diagnostics
    assert result.ruleset is not None
    return result.ruleset, import_rendered(result.ruleset, folder, "effects_demo")


LINES = [
    ((("clear",), ("woods",), ("clear",)), (), None),
    ((("clear", "fog"), ("woods", "fog"), ("woods", "fog"), ("clear", "fog")), (), None),
    ((("clear",), ("woods",), ("clear",)), ("fog",), None),
    ((("clear",), ("woods",), ("clear",)), ("fog",), "plane"),
    ((("clear",), ("woods", "fog"), ("clear",)), ("fog",), None),
    ((("clear",), ("clear",)), ("fog",), None),
    ((("clear",), ("woods",), ("clear",)), ("night",), None),
    ((("clear",), ("woods", "smoke"), ("clear",)), (), None),
    ((("clear", "smoke"), ("woods",), ("clear", "smoke")), (), None),
    ((("clear",), ("woods", "cratered"), ("woods", "smoke"), ("clear",)), (), None),
    ((("clear",), ("woods",), ("clear",)), ("smoke",), None),
]


def test_a_whole_map_condition_adds_to_the_line_once(
    compiled: tuple[Ruleset, ModuleType],
) -> None:
    _, m = compiled
    woods = (("clear",), ("woods",), ("woods",), ("clear",))
    assert m.line_of_sight("los", *woods) == m.Sight(2, False, (0, 1, 1, 0))
    # fog on every place of the map, as a Board lists it: +1 to the line, not +1 a place
    foggy = tuple((*p, "fog") for p in woods)
    assert m.line_of_sight("los", *foggy) == m.Sight(3, True, (0, 1, 1, 0))
    # the same, given once for the line
    assert m.line_of_sight("los", *woods, conditions=("fog",)) == m.Sight(3, True, (0, 1, 1, 0))
    # given in the firer's place only, a place the rule does not count: still the whole map
    firer = (("clear", "fog"), ("woods",), ("clear",))
    assert m.line_of_sight("los", *firer) == m.Sight(2, False, (0, 1, 0))
    # with nothing in between, the line still has the fog
    assert m.line_of_sight("los", ("clear",), ("clear",), conditions=("fog",)).hindrance == 1


def test_a_condition_keyed_by_unit_type_gives_the_viewer_its_value(
    compiled: tuple[Ruleset, ModuleType],
) -> None:
    _, m = compiled
    line = (("clear",), ("woods",), ("clear",))
    assert m.line_of_sight("los", *line, conditions=("fog",), mode="plane") == m.Sight(
        2, False, (0, 0, 0)
    )


def test_a_blocking_condition_blocks_every_line(compiled: tuple[Ruleset, ModuleType]) -> None:
    _, m = compiled
    sight = m.line_of_sight("los", ("clear",), ("clear",), ("clear",), conditions=("night",))
    assert sight == m.Sight(0, True, (0, 0, 0))


def test_an_outcome_in_a_place_adds_to_that_place(compiled: tuple[Ruleset, ModuleType]) -> None:
    _, m = compiled
    line = m.line_of_sight("los", ("clear",), ("woods", "smoke"), ("clear",))
    assert line == m.Sight(2, False, (0, 2, 0))
    # in the firer's and the target's places, which the rule does not count: nothing
    ends = m.line_of_sight("los", ("clear", "smoke"), ("woods",), ("clear", "smoke"))
    assert ends == m.Sight(1, False, (0, 1, 0))
    # an outcome given as a condition of the line counts once for it
    assert m.line_of_sight("los", ("clear",), ("woods",), ("clear",), conditions=("smoke",)) == (
        m.Sight(2, False, (0, 1, 0))
    )
    assert m.SIGHTS["los"].values["smoke"] == 1


def test_an_outcome_feeds_the_movement_cost(compiled: tuple[Ruleset, ModuleType]) -> None:
    _, m = compiled
    assert m.move_cost("tank", "clear") == 1
    assert m.move_cost("tank", "clear", "cratered") == 2
    assert m.move_cost("tank", "woods", "cratered", distance=2) == 8
    assert m.move_cost("foot", "clear", "routed") == 3  # a results table's outcome
    assert m.move_cost("tank", "clear", "cratered", move="run") == 2
    assert m.can_enter("foot", "clear", "cratered", available=1) is False
    assert m.move_cost("foot", "clear", "smoke") == 1  # it feeds the sight rule only


def test_the_reference_agrees_with_the_module(compiled: tuple[Ruleset, ModuleType]) -> None:
    rs, m = compiled
    rule = next(r for r in rs.sights if r.id == "los")
    for places, conditions, mode in LINES:
        got = m.line_of_sight("los", *places, conditions=conditions, mode=mode)
        ref = semantics.line_of_sight(rs, rule, places, None, mode, conditions)
        assert (got.hindrance, got.blocked, got.by_place) == (
            ref.hindrance,
            ref.blocked,
            tuple(m.BLOCKED if not isinstance(v, float | int) else v for v in ref.by_place),
        ), (places, conditions, mode)
    for mode in ("foot", "tank"):
        for place in (("clear", "cratered"), ("woods", "routed"), ("clear", "smoke", "fog")):
            assert m.move_cost(mode, *place) == semantics.move_cost(rs, mode, place)


def test_line_of_sight_checks_its_conditions(compiled: tuple[Ruleset, ModuleType]) -> None:
    _, m = compiled
    with pytest.raises(m.ArgumentTypeError):
        m.line_of_sight("los", ("clear",), ("clear",), conditions="fog")
    with pytest.raises(m.InvalidArgument):
        m.line_of_sight("los", ("clear",), ("clear",), conditions=("woods",))
    with pytest.raises(m.UnknownName):
        m.line_of_sight("los", ("clear",), ("clear",), conditions=("rain",))
    with pytest.raises(m.UnknownName):
        m.move_cost("foot", "clear", "no_effect")  # an outcome that feeds nothing


def test_a_module_with_no_outcome_effects_keeps_its_code(tmp_path: Path) -> None:
    text = EFFECTS.split("dice barrage")[0]
    result = compile_snippet(Compiler(), text, tmp_path)
    assert result.ruleset is not None
    m = import_rendered(result.ruleset, tmp_path, "effects_plain")
    assert not hasattr(m, "_OUTCOMES")
    assert m.line_of_sight("los", ("clear",), ("woods",), ("clear",), conditions=("fog",)) == (
        m.Sight(2, False, (0, 1, 0))
    )


BASE = (
    'ruleset x "X"\nversion 1.0.0\nunits distance hex, cost MP\nmode foot "Foot"\n'
    'sight los "LOS" : blocks at 3\n'
    'layer terrain "Terrain" {\n  columns cost, los\n  clear "Clear" | 1 | 0\n}\n'
)


def _found(text: str, tmp_path: Path) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(Compiler(), BASE + text, tmp_path)
    return [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics]


def test_an_outcome_effect_on_sight_or_cost_that_is_not_a_number_is_e350(tmp_path: Path) -> None:
    text = 'dice art "Art" : 1d6 {\n  1-3 smoke "Smoke" | los 1d6\n  4+ mud "Mud" | cost\n}\n'
    found = _found(text, tmp_path)
    assert ("E350", 11, 3) in found
    assert ("E350", 12, 3) in found


def test_an_outcome_named_like_a_feature_is_e351(tmp_path: Path) -> None:
    text = 'dice art "Art" : 1d6 {\n  1-3 clear "Clear" | cost +1\n  4+ other "Other"\n}\n'
    assert ("E351", 11, 3) in _found(text, tmp_path)


def test_an_outcome_name_that_gives_a_value_twice_is_e352(tmp_path: Path) -> None:
    text = (
        'dice a "A" : 1d6 {\n  1-3 smoke "Smoke" | los +1\n  4+ other "Other"\n}\n'
        'dice b "B" : 1d6 {\n  1-3 smoke "Smoke" | los +2\n  4+ more "More"\n}\n'
    )
    assert ("E352", 15, 3) in _found(text, tmp_path)


def test_a_sight_or_cost_effect_given_twice_in_one_row_is_e352_at_the_second(
    tmp_path: Path,
) -> None:
    text = 'dice a "A" : 1d6 {\n  1-3 mud "Mud" | cost +1, los +1, cost +2\n  4+ dry "Dry"\n}\n'
    assert ("E352", 11, 36) in _found(text, tmp_path)
    fine = 'dice a "A" : 1d6 {\n  1-3 mud "Mud" | damage 1, damage 2\n  4+ dry "Dry"\n}\n'
    assert not [f for f in _found(fine, tmp_path) if f[0] == "E352"]


def test_an_outcome_effect_in_the_wrong_unit_is_e353(tmp_path: Path) -> None:
    text = 'dice a "A" : 1d6 {\n  1-3 mud "Mud" | cost 2 in\n  4+ haze "Haze" | los 1 in\n}\n'
    found = _found(text, tmp_path)
    assert ("E353", 11, 3) in found
    assert ("E353", 12, 3) in found
    fine = 'dice a "A" : 1d6 {\n  1-3 mud "Mud" | cost 2 MP\n  4+ haze "Haze" | los 1\n}\n'
    assert not [f for f in _found(fine, tmp_path) if f[0].startswith("E")]


def test_a_whole_map_condition_with_a_step_sight_value_is_e354(tmp_path: Path) -> None:
    text = (
        'step haze "Haze" (length hex) -> points : +1 per full 2 hex\n'
        'sight far "Far" : counts target, crossed hex\n'
        'layer weather "Weather" whole map {\n  columns far\n  mist "Mist" | step haze\n}\n'
    )
    assert ("E354", 14, 3) in _found(text, tmp_path)


# ---- YAML, convert, sheets, diff, variants --------------------------------------------------


def test_effects_survive_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(EFFECTS, "effects_demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "los +1" in yaml_text and "cost +1" in yaml_text
    yaml_path = tmp_path / "effects_demo.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "back.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    compiled = [Compiler().compile_file(p) for p in (yaml_path, back)]
    assert all(c.ok for c in compiled), [c.diagnostics for c in compiled]
    original = compile_snippet(Compiler(), EFFECTS, tmp_path).ruleset
    rulesets = [c.ruleset for c in compiled] + [original]
    plain = [dataclasses.replace(r, digest="") for r in rulesets if r is not None]
    assert len(plain) == 3 and plain[0] == plain[1] == plain[2]
    m = import_rendered(plain[0], tmp_path, "effects_from_yaml")
    assert m.move_cost("tank", "clear", "cratered") == 2


def test_yaml_checks_an_outcome_effect_like_the_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(EFFECTS.replace("| los +1\n  5+", "| los heavy\n  5+"), "x")
    assert source is not None
    path = tmp_path / "bad.yaml"
    path.write_text(to_yaml(source), "utf-8")
    compiled = Compiler().compile_file(path)
    assert [d.code for d in compiled.diagnostics if d.is_error] == ["E350"]


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        (
            "en",
            [
                "+1 MP to the move cost per hex",
                "+1 to the place's count for Line of sight",
                "a whole-map condition (weather) adds its value once to the line",
                "| Smoke (Barrage) | +1 |",
            ],
        ),
        (
            "fr",
            [
                "+1 PM au coût de déplacement par hex",
                "+1 au décompte du lieu pour Line of sight",
                "ajoute sa valeur une seule fois à la ligne",
            ],
        ),
        ("ru", ["+1 ОД к стоимости движения за гекс", "добавляет своё значение к линии один раз"]),
        ("de", ["+1 BP auf die Bewegungskosten je Hex", "zählt einmal für die Linie"]),
    ],
)
def test_the_sheet_prints_the_effects_in_words(
    compiled: tuple[Ruleset, ModuleType], lang: str, texts: list[str]
) -> None:
    rs, _ = compiled
    sheet = render_sheet(rs, "md", lang).decode("utf-8")
    sheet = sheet.replace("\u00a0", " ").replace("\u202f", " ")
    for text in texts:
        assert text in sheet, (lang, text)


def test_diff_grades_an_outcomes_sight_value_as_breaking_and_its_cost_as_rules(
    tmp_path: Path,
) -> None:
    old = compile_snippet(Compiler(), EFFECTS, tmp_path, "a.terrain").ruleset
    changed = EFFECTS.replace("| los +1\n  5+", "| los +2\n  5+").replace(
        "| cost +1, los +1", "| cost +2, los +1"
    )
    new = compile_snippet(Compiler(), changed.replace("| cost +2\n", "\n"), tmp_path).ruleset
    assert old is not None and new is not None
    found = sorted((c.level, c.path, c.message) for c in semantic.diff(old, new).changes)
    assert found == [
        ("breaking", "routed.cost", "outcome Routed, move cost: 2 -> nothing"),
        ("breaking", "smoke.los", "outcome Smoke, Line of sight: 1 -> 2"),
        ("rules", "cratered.cost", "outcome Cratered, move cost: 1 -> 2"),
    ]


HOUSE = """\
ruleset effects_house "House"
version 1.0.0
languages en fr
extends effects_demo@^1.0
override barrage.smoke | los +2
override fog.los | 2
"""


def test_a_house_rule_overrides_an_outcomes_effect_and_a_conditions_value(
    tmp_path: Path,
) -> None:
    (tmp_path / "effects_demo.terrain").write_text(EFFECTS, "utf-8")
    (tmp_path / "effects_house.terrain").write_text(HOUSE, "utf-8")
    compiler = Compiler()
    base = compiler.compile_file(tmp_path / "effects_demo.terrain").ruleset
    house = compiler.compile_file(tmp_path / "effects_house.terrain")
    assert house.ok, [(d.code, d.message) for d in house.diagnostics if d.is_error]
    assert base is not None and house.ruleset is not None
    m = import_rendered(house.ruleset, tmp_path, "effects_house")
    assert m.line_of_sight("los", ("clear",), ("clear", "smoke"), ("clear",)).hindrance == 2
    line = m.line_of_sight("los", ("clear",), ("woods",), ("clear",), conditions=("fog",))
    assert line == m.Sight(3, True, (0, 1, 0))
    paths = {(c.level, c.path) for c in semantic.diff(base, house.ruleset).changes}
    assert {("breaking", "smoke.los"), ("breaking", "fog.los")} <= paths


def test_the_language_docs_example_compiles_and_answers_as_it_says(tmp_path: Path) -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index('```terrain\nsight los "Line of sight" : blocks at 2, counts between\n')
    snippet = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    header = 'ruleset doc "Doc"\nversion 1.0.0\nunits distance hex, cost MP\n'
    header += 'group vehicle "Vehicles"\nmode motorized "Motorized" : vehicle\n'
    result = compile_snippet(Compiler(), header + snippet, tmp_path)
    assert result.ok and result.ruleset is not None, result.diagnostics
    m = import_rendered(result.ruleset, tmp_path, "effects_doc")
    line = m.line_of_sight("los", ("clear",), ("forest",), ("clear",), conditions=("fog",))
    assert line == m.Sight(2, True, (0, 1, 0))
    assert m.move_cost("motorized", "clear", "cratered") == 2


def test_an_effect_named_nearly_like_a_feed_warns_w350_at_the_effect(tmp_path: Path) -> None:
    text = (
        'modifier defence "Defence"\n'
        'dice a "A" : 1d6 {\n  1-3 mud "Mud" | cots +1, defense +1, damage 2\n  4+ dry "Dry"\n}\n'
    )
    found = _found(text, tmp_path)
    assert ("W350", 12, 19) in found and ("W350", 12, 28) in found
    assert len([f for f in found if f[0] == "W350"]) == 2  # not for damage
