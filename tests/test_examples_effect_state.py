"""Worked examples that ask ``effect()``, an effect's value by unit type (issue 40, item 7:
docs/language.md, "Effects by unit type" and "Worked examples"): checked at build against the
rules, misuse as E488 (E272 for an unknown name), exported as vectors the Python and JavaScript
modules both pass, and printed on sheets in every sheet language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.plan import examples as plan_examples
from rulesdsl.codegen.python import examples as python_examples
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_yaml
from rulesdsl.printed.sheets import build_sheet, render_markdown
from rulesdsl.versions import diff as semantic
from tests import js_queries
from tests.conftest import compile_snippet
from tests.test_examples_route_inputs import AIR, js_answers, replay_python
from tests.test_js_target import node, write_package

__all__ = ["node"]  # a fixture

FALLS = """\
ruleset falls "Falls"
version 1.0.0
languages en fr de ru
units distance hex, cost MP
mode mech "Mech" fr "Mech" de "Mech" ru "Шагоход"
mode infantry "Infantry" fr "Infanterie" de "Infanterie" ru "Пехота"
mode jump_infantry "Jump infantry" fr "Infanterie sauteuse" de "Sprunginfanterie" \\
    ru "Прыгающая пехота"
group foot "On foot" fr "À pied" de "Zu Fuß" ru "Пешие" : infantry, jump_infantry
layer ground "Ground" fr "Sol" de "Boden" ru "Земля" {
  clear "Clear" fr "Dégagé" de "Frei" ru "Открытая местность" | 1
}
dice fall "Falling" fr "Chute" de "Sturz" ru "Падение" : 1d6 {
  1-3 short "Short fall" fr "Chute courte" de "Kurzer Sturz" ru "Короткое падение" \\
      | levels 1, damage 1d6, damage & foot 2
  4+  long "Long fall" fr "Longue chute" de "Langer Sturz" ru "Долгое падение" \\
      | levels 2, damage 2d6, damage & foot 4, damage & jump_infantry 1
}
"""

FALLS_EXAMPLE = """\
example long_fall "A long fall" fr "Une longue chute" de "Ein langer Sturz" \\
    ru "Долгое падение" {
  effect(fall, long, damage, mech) = 2d6
  effect(fall, long, damage, infantry) = 4
  effect(fall, long, damage, jump_infantry) = 1
  effect(fall, short, levels, infantry) = 1
}
"""


def _errors(compiler: Compiler, text: str, tmp_path: Path) -> list[tuple[str, int, int, str]]:
    compiled = compile_snippet(compiler, text, tmp_path)
    return [
        (d.code, d.pos.line if d.pos else 0, d.pos.column if d.pos else 0, d.message)
        for d in compiled.diagnostics
        if d.severity == "error"
    ]


def _vectors(compiler: Compiler, text: str, tmp_path: Path) -> tuple[ir.Ruleset, list[dict]]:
    compiled = compile_snippet(compiler, text, tmp_path)
    assert compiled.ruleset is not None
    plan = plan_examples.build(compiled.ruleset)
    return compiled.ruleset, json.loads(python_examples.vectors_json(plan))["vectors"]


def test_an_effect_example_states_the_value_a_unit_type_gets(
    compiler: Compiler, tmp_path: Path
) -> None:
    """Its own entry (jump infantry 1), else its keyword's (infantry: foot 4), else the value
    for everyone (a mech's 2d6); a wrong one is E270 with the cell that gives the answer."""
    assert _errors(compiler, FALLS + FALLS_EXAMPLE, tmp_path) == []
    wrong = FALLS_EXAMPLE.replace("jump_infantry) = 1", "jump_infantry) = 4")
    [(code, line, _, message)] = _errors(compiler, FALLS + wrong, tmp_path)
    assert (code, line) == ("E270", FALLS.count("\n") + 5)
    assert message.endswith("is 1, not 4 as stated")


def test_an_effect_example_where_no_effect_is_keyed_by_unit_type_is_e488(
    compiler: Compiler, tmp_path: Path
) -> None:
    plain = FALLS.replace(", damage & foot 2", "").replace(
        ", damage & foot 4, damage & jump_infantry 1", ""
    )
    found = _errors(compiler, plain + FALLS_EXAMPLE, tmp_path)
    first = plain.count("\n") + 3
    assert [(c, line, column) for c, line, column, _ in found] == [
        ("E488", line, 3) for line in range(first, first + 4)
    ]
    assert "no effect of the rules is keyed by unit type" in found[0][3]


@pytest.mark.parametrize(
    ("question", "at", "words"),
    [
        ("effect(fal, long, damage, mech) = 2d6", "fal", "did you mean 'fall'?"),
        ("effect(fall, lng, damage, mech) = 2d6", "lng", "did you mean 'long'?"),
        ("effect(fall, long, damages, mech) = 2d6", "damages", "did you mean 'damage'?"),
        ("effect(fall, long, damage, tank) = 2d6", "tank", "is not a unit type"),
        ("effect(fall, long, damage) = 2d6", "effect", "takes a table, an outcome"),
    ],
)
def test_an_effect_example_with_an_unknown_name_is_e272_at_the_name(
    compiler: Compiler, tmp_path: Path, question: str, at: str, words: str
) -> None:
    text = FALLS + 'example bad "Bad" fr "x" de "x" ru "x" {\n  ' + question + "\n}\n"
    [(code, line, column, message)] = _errors(compiler, text, tmp_path)
    assert (code, line, column) == ("E272", text.count("\n") - 1, question.index(at) + 3)
    assert words in message


def test_the_vectors_ask_effect_as_the_module_takes_it(compiler: Compiler, tmp_path: Path) -> None:
    _, vectors = _vectors(compiler, FALLS + FALLS_EXAMPLE, tmp_path)
    assert [(v["kind"], v["args"], v["expected"]) for v in vectors[:2]] == [
        ("effect", ["fall", "long", "damage", "mech"], [{"dice": [2, 6, 0]}]),
        ("effect", ["fall", "long", "damage", "infantry"], [{"number": 4}]),
    ]


def test_the_python_module_replays_the_effect_examples(compiler: Compiler, tmp_path: Path) -> None:
    rs, _ = _vectors(compiler, FALLS + FALLS_EXAMPLE, tmp_path)
    assert "4 passed" in replay_python(rs, tmp_path)


def test_the_js_module_gives_the_same_answers_to_the_effect_examples(
    compiler: Compiler, tmp_path: Path, node: str
) -> None:
    rs, vectors = _vectors(compiler, FALLS + FALLS_EXAMPLE, tmp_path)
    assert js_answers(rs, vectors, tmp_path) == [v["expected"] for v in vectors]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Falling: Long fall, damage for Infantry | 4"),
        ("fr", "Chute : Longue chute, dégâts pour Infanterie | 4"),
        ("de", "Sturz: Langer Sturz, Schaden für Infanterie | 4"),
        ("ru", "Падение: Долгое падение, урон для Пехота | 4"),
    ],
)
def test_sheets_print_an_effect_example_in_every_language(
    compiler: Compiler, tmp_path: Path, lang: str, words: str
) -> None:
    rs = compile_snippet(compiler, FALLS + FALLS_EXAMPLE, tmp_path).ruleset
    assert rs is not None
    md = render_markdown(build_sheet(rs, lang)).replace("\u202f", " ").replace("\u00a0", " ")
    assert words in md, md[md.find("Worked") :][:2000]


def _guide_block(name: str) -> str:
    """The ruleset ``name`` of docs/language.md's "Worked examples", unindented."""
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("## Worked examples") : doc.index("## Variants")]
    start = section.index(f"```terrain\n  ruleset {name}")
    block = section[start : section.index("  ```\n", start)].split("\n", 1)[1]
    return "\n".join(line.removeprefix("  ") for line in block.splitlines()) + "\n"


def test_the_language_guide_asks_effect_as_the_rules_answer(
    compiler: Compiler, tmp_path: Path
) -> None:
    """docs/language.md, "Worked examples": the tumbles block builds, its answers checked."""
    text = _guide_block("tumbles")
    assert _errors(compiler, text, tmp_path) == []
    rs = compile_snippet(compiler, text, tmp_path).ruleset
    assert rs is not None and [q.ask for e in rs.examples for q in e.questions] == ["effect"] * 3
    wrong = text.replace("infantry) = 4", "infantry) = 2")
    assert [c for c, *_ in _errors(compiler, wrong, tmp_path)] == ["E270"]


def test_the_diff_lists_an_effect_examples_changed_answer(
    compiler: Compiler, tmp_path: Path
) -> None:
    """A unit type's own value changed: the cell and the example's answer, old and new."""
    old = compile_snippet(compiler, FALLS + FALLS_EXAMPLE, tmp_path / "old").ruleset
    text = (FALLS + FALLS_EXAMPLE).replace("jump_infantry 1", "jump_infantry 2")
    new = compile_snippet(
        compiler, text.replace("jump_infantry) = 1", "jump_infantry) = 2"), tmp_path
    ).ruleset
    assert old is not None and new is not None
    changed = [(c.path, c.old, c.new) for c in semantic.diff(old, new).changes]
    assert ("example.long_fall.3", "1", "2") in changed, changed


def test_yaml_writes_an_effect_example_as_the_language_does(
    compiler: Compiler, tmp_path: Path
) -> None:
    source, _ = Parser().parse(FALLS + FALLS_EXAMPLE, "falls.terrain")
    yaml_text = to_yaml(source)
    assert "effect(fall, long, damage, infantry) = 4" in yaml_text
    (tmp_path / "falls.yaml").write_text(yaml_text, "utf-8")
    compiled = compiler.compile_file(tmp_path / "falls.yaml")
    assert [d.code for d in compiled.diagnostics if d.severity == "error"] == []


# ---- the state after a route: `route_cost(...).state = (speed=3, altitude=2)` --------------

CLIMB = """\
example climbing "Climbing through debris" fr "Monter dans les débris" de "Steigen" \\
    ru "Набор высоты" {
  route_cost(fighter, (clear), (clear, debris), (clear), state=(speed=5, altitude=2)).state \\
      = (speed=3, altitude=2)
  route_cost(bomber, (clear), (storm), state=(speed=6, altitude=0), move=climb).state \\
      = (altitude=0, speed=3)
  route_cost(fighter, (clear), (storm), state=(speed=4, altitude=3)).state \\
      = (speed=4, altitude=2)
}
"""  # noqa: RUF001
"""A fighter loses 2 speed in the debris; a bomber's climb costs it 3 speed and gains a level,
which the storm takes back; a storm takes a fighter's level."""


def test_a_route_example_states_the_state_after_the_route(
    compiler: Compiler, tmp_path: Path
) -> None:
    assert _errors(compiler, AIR + CLIMB, tmp_path) == []
    wrong = CLIMB.replace("= (speed=3, altitude=2)", "= (speed=5, altitude=2)")
    [(code, line, column, message)] = _errors(compiler, AIR + wrong, tmp_path)
    assert (code, line, column) == ("E270", AIR.count("\n") + 3, 3)
    assert message.endswith(".state is (speed=3, altitude=2), not (speed=5, altitude=2) as stated")


STATE_MISUSES = {
    "E489": "route_cost(fighter, (clear), (clear), state=(speed=5, altitude=2)).total = (a=1)",
    "E489 move_cost": "move_cost(fighter, clear).state = (speed=5, altitude=2)",
    "E490": "route_cost(fighter, (clear), (clear)).state = (speed=5, altitude=2)",
    "E491": "route_cost(fighter, (clear), (clear), state=(speed=5, altitude=2)).state = (speed=4)",
    "E491 twice": "route_cost(fighter, (clear), (clear), state=(speed=5, altitude=2)).state "
    "= (speed=4, speed=4)",
    "E491 unit": "route_cost(fighter, (clear), (clear), state=(speed=5, altitude=2)).state "
    "= (speed=4 MP, altitude=2)",
}


@pytest.mark.parametrize("case", sorted(STATE_MISUSES))
def test_a_misused_state_after_a_route_is_its_own_error_at_the_question(
    compiler: Compiler, tmp_path: Path, case: str
) -> None:
    question = STATE_MISUSES[case]
    text = AIR + 'example bad "Bad" fr "x" de "x" ru "x" {\n  ' + question + "\n}\n"
    compiled = compile_snippet(compiler, text, tmp_path)
    [found] = [d for d in compiled.diagnostics if d.severity == "error"]
    assert found.code == case.split()[0], found.message
    assert found.pos is not None and (found.pos.line, found.pos.column) == (text.count("\n") - 1, 3)
    assert found.hint


def test_the_vectors_give_the_attribute_and_the_state_by_name(
    compiler: Compiler, tmp_path: Path
) -> None:
    _, vectors = _vectors(compiler, AIR + CLIMB, tmp_path)
    assert [(v["attribute"], v["expected"]) for v in vectors[:2]] == [
        ("state", [{"state": {"speed": 3, "altitude": 2}}]),
        ("state", [{"state": {"altitude": 0, "speed": 3}}]),
    ]
    assert vectors[0]["text"].endswith(".state = (speed=3, altitude=2)")
    _, plain = _vectors(compiler, FALLS + FALLS_EXAMPLE, tmp_path)
    assert all("attribute" not in v for v in plain)  # the vectors of other examples unchanged


def test_the_python_module_replays_the_state_after_a_route(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs, _ = _vectors(compiler, AIR + CLIMB, tmp_path)
    assert "3 passed" in replay_python(rs, tmp_path)


def test_the_js_module_gives_the_same_state_after_a_route(
    compiler: Compiler, tmp_path: Path, node: str
) -> None:
    rs, vectors = _vectors(compiler, AIR + CLIMB, tmp_path)
    package = write_package(module_plan.build(rs), tmp_path / "js")
    queries = [
        {"function": v["question"], "args": v["args"], "kwargs": v["kwargs"], "attribute": "state"}
        for v in vectors
    ]
    answers = [a.get("answer") for a in js_queries.ask_node(package, queries)]
    assert all(map(js_queries.same, answers, [v["expected"] for v in vectors])), answers


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "state at the end | Speed 3, Altitude 2"),
        ("fr", "état à l’arrivée | Vitesse 3, Altitude 2"),  # noqa: RUF001
        ("de", "Zustand am Ende | Tempo 3, Höhe 2"),
        ("ru", "состояние в конце | Скорость 3, Высота 2"),
    ],
)
def test_sheets_print_the_state_after_a_route_in_every_language(
    compiler: Compiler, tmp_path: Path, lang: str, words: str
) -> None:
    rs = compile_snippet(compiler, AIR + CLIMB, tmp_path).ruleset
    assert rs is not None
    md = render_markdown(build_sheet(rs, lang)).replace("\u202f", " ").replace("\u00a0", " ")
    assert words in md, md[md.find("|") :][:3000]


def test_yaml_writes_the_state_after_a_route_as_the_language_does(
    compiler: Compiler, tmp_path: Path
) -> None:
    source, _ = Parser().parse(AIR + CLIMB, "air.terrain")
    yaml_text = to_yaml(source)
    assert ").state = (speed=3, altitude=2)" in yaml_text
    (tmp_path / "air.yaml").write_text(yaml_text, "utf-8")
    compiled = compiler.compile_file(tmp_path / "air.yaml")
    assert [d.code for d in compiled.diagnostics if d.severity == "error"] == []
    assert compiled.ruleset is not None
    assert compiled.ruleset.examples[0].questions[0].answer_names == ("speed", "altitude")


def test_the_diff_lists_a_changed_state_after_a_route(compiler: Compiler, tmp_path: Path) -> None:
    old = compile_snippet(compiler, AIR + CLIMB, tmp_path / "old").ruleset
    text = (AIR + CLIMB).replace("debris -2", "debris -1")
    text = text.replace("= (speed=3, altitude=2)", "= (speed=4, altitude=2)")
    new = compile_snippet(compiler, text, tmp_path).ruleset
    assert old is not None and new is not None
    changed = [(c.path, c.old, c.new) for c in semantic.diff(old, new).changes]
    assert ("example.climbing.1", "(speed=3, altitude=2)", "(speed=4, altitude=2)") in changed


HOUSE = """\
ruleset air_house "Air house"
version 1.0.0
extends air@^1.0
override example climbing.1 | (altitude=2, speed=3)
"""


def test_a_variant_restates_the_state_after_a_route_by_name(
    compiler: Compiler, tmp_path: Path
) -> None:
    """``override example NAME.N | (speed=3, altitude=2)``, in the language and in YAML."""
    (tmp_path / "air.terrain").write_text(AIR + CLIMB, "utf-8")
    house = tmp_path / "air_house.terrain"
    house.write_text(HOUSE, "utf-8")
    assert [d.code for d in compiler.compile_file(house).diagnostics if d.is_error] == []
    house.write_text(HOUSE.replace("speed=3", "speed=4"), "utf-8")
    found = [d for d in Compiler().compile_file(house).diagnostics if d.is_error]
    assert [(d.code, d.pos.line if d.pos else 0) for d in found] == [("E270", 4)]
    house.write_text(HOUSE, "utf-8")
    source, _ = Parser().parse(HOUSE, str(house))
    yaml_text = to_yaml(source)
    assert "example.climbing.1: (altitude=2, speed=3)" in yaml_text, yaml_text
    (tmp_path / "air_house.yaml").write_text(yaml_text, "utf-8")
    house.unlink()
    compiled = Compiler().compile_file(tmp_path / "air_house.yaml")
    assert [d.code for d in compiled.diagnostics if d.is_error] == []
    assert compiled.ruleset is not None
    assert compiled.ruleset.examples[0].questions[0].answer_names == ("altitude", "speed")


def test_the_language_guide_states_the_state_after_a_route_as_the_rules_answer(
    compiler: Compiler, tmp_path: Path
) -> None:
    """docs/language.md, "Worked examples": the sortie block builds, its answers checked."""
    text = _guide_block("sortie")
    assert _errors(compiler, text, tmp_path) == []
    rs = compile_snippet(compiler, text, tmp_path).ruleset
    assert rs is not None
    assert [q.attribute for e in rs.examples for q in e.questions] == ["", "state", "state"]
    wrong = text.replace("= (speed=3, altitude=3)", "= (speed=3, altitude=2)")
    assert [c for c, *_ in _errors(compiler, wrong, tmp_path)] == ["E270"]


# ---- the rolls due along a route, and the places entered earlier: `entered=(1)` ------------

SURVEY = """\
ruleset survey "Survey"
version 1.0.0
languages en fr de ru
units distance hex, cost MP
mode ship "Ship" fr "Vaisseau" de "Schiff" ru "Корабль"
roll survey "Survey roll" fr "Jet de relevé" de "Vermessungswurf" ru "Бросок разведки" \\
    : 1d6 on first entering
roll hazard "Hazard roll" fr "Jet de danger" de "Gefahrenwurf" ru "Бросок опасности" \\
    : 2d6 on entering
layer space "Space" fr "Espace" de "Raum" ru "Космос" one per place {
  columns cost, hazard, survey
  clear "Open space" fr "Espace libre" de "Freier Raum" ru "Открытый космос" | 1 |    |
  nebula "Nebula" fr "Nébuleuse" de "Nebel" ru "Туманность"                 | 2 | +2 | +1
}
"""

SURVEY_EXAMPLE = """\
example surveying "Surveying a nebula" fr "Relever une nébuleuse" de "Einen Nebel vermessen" \\
    ru "Разведка туманности" {
  route_cost(ship, (clear), (nebula), (clear), (nebula)).rolls \\
      = hazard, +2, survey, +1, hazard, +2, survey, +1
  route_cost(ship, (clear), (nebula), (clear), (nebula), entered=(1, 3)).rolls \\
      = hazard, +2, hazard, +2
  route_cost(ship, (clear), (clear), entered=(1)).rolls = none
}
"""
"""Two nebulae entered for the first time: a survey roll in each; entered earlier in the turn
(steps 1 and 3), the hazard rolls alone."""


def test_a_route_example_states_its_rolls_and_the_places_entered_before(
    compiler: Compiler, tmp_path: Path
) -> None:
    assert _errors(compiler, SURVEY + SURVEY_EXAMPLE, tmp_path) == []
    wrong = SURVEY_EXAMPLE.replace("entered=(1, 3)", "entered=(1)")
    [(code, line, column, message)] = _errors(compiler, SURVEY + wrong, tmp_path)
    assert (code, line, column) == ("E270", SURVEY.count("\n") + 5, 3)
    assert message.endswith(
        ".rolls is hazard, 2, hazard, 2, survey, 1, not hazard, 2, hazard, 2 as stated"
    )


ENTERED_MISUSES = {
    "without .rolls": "route_cost(ship, (clear), (nebula), entered=(1)) = 2 MP",
    "a step too far": "route_cost(ship, (clear), (nebula), entered=(2)).rolls = hazard, +2",
    "not a step": "route_cost(ship, (clear), (nebula), entered=(0.5)).rolls = hazard, +2",
}


@pytest.mark.parametrize("case", sorted(ENTERED_MISUSES))
def test_entered_that_is_not_a_step_of_a_route_stating_its_rolls_is_e492_at_the_argument(
    compiler: Compiler, tmp_path: Path, case: str
) -> None:
    question = ENTERED_MISUSES[case]
    text = SURVEY + 'example bad "Bad" fr "x" de "x" ru "x" {\n  ' + question + "\n}\n"
    [(code, line, column, message)] = _errors(compiler, text, tmp_path)
    assert (code, line, column) == ("E492", text.count("\n") - 1, question.index("entered") + 3)
    assert "the steps of the route entered earlier" in message


def test_rolls_of_no_route_are_e489(compiler: Compiler, tmp_path: Path) -> None:
    """A facing route states its rolls too (tests/test_examples_facing_rolls.py)."""
    question = "move_cost(ship, nebula).rolls = hazard, +2"
    text = SURVEY + 'example bad "Bad" fr "x" de "x" ru "x" {\n  ' + question + "\n}\n"
    assert [c for c, *_ in _errors(compiler, text, tmp_path)] == ["E489"]


def test_the_python_and_js_modules_replay_the_rolls_and_the_places_entered_before(
    compiler: Compiler, tmp_path: Path, node: str
) -> None:
    rs, vectors = _vectors(compiler, SURVEY + SURVEY_EXAMPLE, tmp_path)
    assert [(v["attribute"], v["kwargs"]) for v in vectors] == [
        ("rolls", {}),
        ("rolls", {"entered": [1, 3]}),
        ("rolls", {"entered": [1]}),
    ]
    assert "3 passed" in replay_python(rs, tmp_path)
    package = write_package(module_plan.build(rs), tmp_path / "js")
    queries = [
        {"function": v["question"], "args": v["args"], "kwargs": v["kwargs"], "attribute": "rolls"}
        for v in vectors
    ]
    answers = [a.get("answer") for a in js_queries.ask_node(package, queries)]
    assert all(map(js_queries.same, answers, [v["expected"] for v in vectors])), answers


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "entered before (step 1, 3), Rolls due | Hazard roll, +2, Hazard roll, +2"),
        ("fr", "déjà entré (pas 1, 3), Jets dus | Jet de danger, +2, Jet de danger, +2"),
        ("de", "schon betreten (Schritt 1, 3), Fällige Würfe | Gefahrenwurf, +2, Gefahrenwurf, +2"),
        (
            "ru",
            "уже пройдено (шаг 1, 3), Обязательные броски | Бросок опасности, +2, "
            "Бросок опасности, +2",
        ),
    ],
)
def test_sheets_print_the_rolls_and_the_places_entered_before_in_every_language(
    compiler: Compiler, tmp_path: Path, lang: str, words: str
) -> None:
    rs = compile_snippet(compiler, SURVEY + SURVEY_EXAMPLE, tmp_path).ruleset
    assert rs is not None
    md = render_markdown(build_sheet(rs, lang)).replace("\u202f", " ").replace("\u00a0", " ")
    assert words in md, md[md.find("Surveying") :][:3000]


def test_the_language_guide_states_the_rolls_and_the_places_entered_before(
    compiler: Compiler, tmp_path: Path
) -> None:
    """docs/language.md, "Worked examples": the survey block builds, its answers checked."""
    text = _guide_block("survey")
    assert _errors(compiler, text, tmp_path) == []
    wrong = text.replace("entered=(1, 3)", "entered=(3)")
    assert [c for c, *_ in _errors(compiler, wrong, tmp_path)] == ["E270"]


# ---- an arc from two places: `arc_between(armour, (0, 0), 0, (1, 1), grid=hex)` ------------

TANKS = """\
ruleset tanks "Tanks"
version 1.0.0
languages en fr de ru
units distance hex, cost MP
grid squares "Squares" fr "Cases" de "Felder" ru "Клетки" : 1 hex, square, diagonals 1
mode tank "Tank" fr "Char" de "Panzer" ru "Танк"
layer ground "Ground" fr "Sol" de "Boden" ru "Земля" {
  clear "Clear" fr "Dégagé" de "Frei" ru "Открыто" | 1
}
arcs armour "Armour arcs" fr "Arcs de blindage" de "Panzerbögen" ru "Секторы брони" {
  front "Front" fr "Avant" de "Front" ru "Перед" | -60 to 60
  side "Side" fr "Flanc" de "Flanke" ru "Борт"   | 60 to 120, -120 to -60
  rear "Rear" fr "Arrière" de "Heck" ru "Корма"  | 120 to 240
}
example flank_shot "Where the shooter stands" fr "Où se tient le tireur" \\
    de "Wo der Schütze steht" ru "Где стоит стрелок" {
  arc_between(armour, (0, 0), 0, (-1, 2), grid=hex) = side
  arc_between(armour, (2, 3), 3, (3, 3), grid=hex) = rear
  arc_between(armour, (0, 0), 1, (0, -3), grid=squares) = front
  arc_between(armour, (0, 0), 90 deg, (0, -5)) = side
}
"""
"""On a hex grid heading 0 looks along +q, so (-1, 2) is 90 degrees off (a spine: the side);
heading 3 looks along -q, so a shooter at +q is behind; off the grid a heading is in degrees
clockwise from the top of the map."""


def test_an_arc_example_gives_the_places_and_states_the_arc(
    compiler: Compiler, tmp_path: Path
) -> None:
    assert _errors(compiler, TANKS, tmp_path) == []
    [(code, line, column, message)] = _errors(
        compiler,
        TANKS.replace("3, (3, 3), grid=hex) = rear", "3, (3, 3), grid=hex) = front"),
        tmp_path,
    )
    assert (code, line, column) == ("E270", TANKS.count("\n") - 3, 3)
    assert message.endswith("is rear, not front as stated")


@pytest.mark.parametrize(
    ("question", "at", "words"),
    [
        ("arc_between(armour, 0, 0, (1, 1), grid=hex) = front", "0, 0,", "a pair of numbers"),
        ("arc_between(armour, (0, 0), 6, (1, 1), grid=hex) = front", "6,", "0 to 5"),
        ("arc_between(armour, (0, 0.5), 0, (1, 1), grid=hex) = front", "(0, 0.5)", "whole"),
        ("arc_between(armour, (0, 0), 0, (1, 1), grid=hexes) = front", "grid", "not a grid"),
        ("arc_between(armor, (0, 0), 0, (1, 1), grid=hex) = front", "armor", "did you mean"),
    ],
)
def test_an_arc_example_written_otherwise_is_e272_at_the_argument(
    compiler: Compiler, tmp_path: Path, question: str, at: str, words: str
) -> None:
    text = TANKS + 'example bad "Bad" fr "x" de "x" ru "x" {\n  ' + question + "\n}\n"
    [(code, line, column, message)] = _errors(compiler, text, tmp_path)
    assert (code, line, column) == ("E272", text.count("\n") - 1, question.index(at) + 3)
    assert words in message


def test_the_python_and_js_modules_replay_the_arc_examples(
    compiler: Compiler, tmp_path: Path, node: str
) -> None:
    rs, vectors = _vectors(compiler, TANKS, tmp_path)
    assert vectors[0]["args"] == ["armour", [0, 0], 0, [-1, 2]]
    assert "4 passed" in replay_python(rs, tmp_path)
    assert js_answers(rs, vectors, tmp_path) == [v["expected"] for v in vectors]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Armour arcs: the target at (0, 0) facing 0, the other at (-1, 2), grid hex | Side"),
        ("fr", "Arcs de blindage : la cible en (0, 0) face au cap 0, l’autre en (-1, 2)"),  # noqa: RUF001
        ("de", "Panzerbögen: das Ziel auf (0, 0) mit Richtung 0, der andere auf (-1, 2)"),
        ("ru", "Секторы брони: цель в (0, 0) с направлением 0, другой в (-1, 2)"),  # noqa: RUF001
    ],
)
def test_sheets_print_an_arc_example_in_every_language(
    compiler: Compiler, tmp_path: Path, lang: str, words: str
) -> None:
    rs = compile_snippet(compiler, TANKS, tmp_path).ruleset
    assert rs is not None
    md = render_markdown(build_sheet(rs, lang)).replace("\u202f", " ").replace("\u00a0", " ")
    assert words in md, md[md.find("| Q") :][:3000]


def test_the_language_guide_gives_an_arc_two_places(compiler: Compiler, tmp_path: Path) -> None:
    """docs/language.md, "Worked examples": the raking block builds, its answers checked."""
    text = _guide_block("raking")
    assert _errors(compiler, text, tmp_path) == []
    wrong = text.replace("(1, 0), grid=hex) = rear", "(1, 0), grid=hex) = side")
    assert [c for c, *_ in _errors(compiler, wrong, tmp_path)] == ["E270"]
