"""Worked examples of routes that give the unit's state at the start, ``state=(speed=5,
altitude=2)``, and the wind, ``wind=2`` (issue 40): checked at build against the rules,
misuse as E450-E455, exported as vectors the Python and JavaScript modules both pass, printed
on sheets in every sheet language, and written in YAML as in the language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.plan import examples as plan_examples
from rulesdsl.codegen.python import examples as python_examples
from rulesdsl.codegen.targets import render_python
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_yaml
from rulesdsl.printed.sheets import build_sheet, render_markdown
from tests import js_queries
from tests.conftest import compile_snippet, replay
from tests.test_js_target import node, write_package

__all__ = ["node"]  # a fixture

AIR = """\
ruleset air "Air"
version 1.0.0
languages en fr de ru
units distance hex, cost MP
mode fighter "Fighter"
mode bomber "Bomber"
move climb "Climb" : allowance times 1
grid hexes "Hex" : 1 hex, hex
layer sky "Sky" one per place {
  clear "Clear" | 1
  storm "Storm" | 2
}
layer hazards "Hazards" {
  debris "Debris field" | +1
}
state speed "Speed" fr "Vitesse" de "Tempo" ru "Скорость" : 0 to 8, debris -2, climb -2, \\
    bomber climb -3
state altitude "Altitude" fr "Altitude" de "Höhe" ru "Высота" : 0 to 9, climb +1, storm -1
"""

AIR_EXAMPLE = """\
example through_debris "Through the debris" fr "Par les débris" de "Durch die Trümmer" \\
    ru "Через обломки" {
  route_cost(fighter, (clear), (clear, debris), (clear), state=(speed=5, altitude=2)) = 3 MP
  route_cost(fighter, (clear), (clear, debris), state=(altitude=2, speed=1)) = 2 MP, illegal
  route_cost(bomber, (clear), (storm), state=(speed=3, altitude=0), move=climb) = 2 MP
}
"""

SAIL = """\
ruleset sail "Sail"
version 1.0.0
units distance hex, cost MP
grid ocean "Ocean hex" : 1 hex, hex
mode brig "Brig"
mode barque "Barque"
layer waters "Waters" {
  deep "Deep water" | 1
}
facing brig on ocean : turn 1 MP per hexside, tack +2 MP
facing barque on ocean : turn 1 MP per hexside, tack +1 MP, may not wear
"""

SAIL_EXAMPLE = """\
example coming_about "Coming about" {
  route_cost(brig, (deep), turn, turn, (deep), wind=2) = 5 MP
  route_cost(brig, (deep), turn, turn, (deep), wind=4) = 3 MP
  route_cost(barque, (deep), turn, (deep), wind=4) = 2 MP, illegal
}
"""


def _errors(compiler: Compiler, text: str, tmp_path: Path) -> list[tuple[str, int, str]]:
    compiled = compile_snippet(compiler, text, tmp_path)
    return [
        (d.code, d.pos.line if d.pos else 0, d.message)
        for d in compiled.diagnostics
        if d.severity == "error"
    ]


def test_a_route_example_gives_the_state_at_the_start(compiler: Compiler, tmp_path: Path) -> None:
    assert _errors(compiler, AIR + AIR_EXAMPLE, tmp_path) == []
    wrong = AIR_EXAMPLE.replace(
        "state=(speed=5, altitude=2)) = 3 MP", "state=(speed=5, altitude=2)) = 4 MP"
    )
    assert [c for c, _, _ in _errors(compiler, AIR + wrong, tmp_path)] == ["E270"]


def test_a_state_that_leaves_its_range_makes_the_example_route_illegal(
    compiler: Compiler, tmp_path: Path
) -> None:
    """At speed 1 the debris takes the speed below 0; at speed 2 it does not."""
    legal = AIR_EXAMPLE.replace("speed=1)) = 2 MP, illegal", "speed=2)) = 2 MP")
    assert _errors(compiler, AIR + legal, tmp_path) == []
    found = _errors(compiler, AIR + AIR_EXAMPLE.replace("speed=1)", "speed=2)"), tmp_path)
    assert [(c, m.split(" is ")[-1]) for c, _, m in found] == [
        ("E270", "2 MP, not 2 MP, illegal as stated")
    ]


def test_a_facing_route_example_gives_the_wind(compiler: Compiler, tmp_path: Path) -> None:
    """Turns count from heading 0: with the wind from 2 the second turn is a tack (+2 MP);
    from 4 the first turn (onto 1) is a wear, which the barque may not make."""
    assert _errors(compiler, SAIL + SAIL_EXAMPLE, tmp_path) == []
    without = SAIL_EXAMPLE.replace(", wind=2)", ")")
    found = _errors(compiler, SAIL + without, tmp_path)
    assert [(c, m) for c, _, m in found] == [
        ("E272", "example 'coming_about': route_cost() needs 'wind' here")
    ]


MISUSES = {
    "E450_state_without_state_lines": (
        SAIL,
        "route_cost(brig, (deep), (deep), state=(speed=1)) = 1 MP",
        "E450",
        "no `state` line",
    ),
    "E451_state_not_by_name": (
        AIR,
        "route_cost(fighter, (clear), (clear), state=(5, 2)) = 1 MP",
        "E451",
        "names each state",
    ),
    "E451_unknown_state": (
        AIR,
        "route_cost(fighter, (clear), (clear), state=(sped=5, altitude=2)) = 1 MP",
        "E451",
        "did you mean 'speed'",
    ),
    "E451_state_left_out": (
        AIR,
        "route_cost(fighter, (clear), (clear), state=(speed=5)) = 1 MP",
        "E451",
        "altitude is missing",
    ),
    "E451_state_twice": (
        AIR,
        "route_cost(fighter, (clear), (clear), state=(speed=5, speed=2)) = 1 MP",
        "E451",
        "given twice",
    ),
    "E452_state_out_of_range": (
        AIR,
        "route_cost(fighter, (clear), (clear), state=(speed=9, altitude=2)) = 1 MP",
        "E452",
        "from 0 to 8, not 9",
    ),
    "E452_state_not_whole": (
        AIR,
        "route_cost(fighter, (clear), (clear), state=(speed=1.5, altitude=2)) = 1 MP",
        "E452",
        "whole number",
    ),
    "E453_wind_without_tacking": (
        AIR,
        "route_cost(fighter, (clear), (clear), wind=2) = 1 MP",
        "E453",
        "tacks or wears",
    ),
    "E454_wind_not_a_heading": (
        SAIL,
        "route_cost(brig, (deep), (deep), wind=6) = 1 MP",
        "E454",
        "0 to 5, not 6",
    ),
    "E455_named_values_elsewhere": (
        AIR,
        "move_cost(fighter, clear, distance=(a=1)) = 1 MP",
        "E455",
        "only 'state'",
    ),
}


@pytest.mark.parametrize("case", sorted(MISUSES))
def test_a_misused_state_or_wind_is_its_own_error_at_the_argument(
    compiler: Compiler, tmp_path: Path, case: str
) -> None:
    rules, question, code, words = MISUSES[case]
    text = rules + 'example bad "Bad" {\n  ' + question + "\n}\n"
    compiled = compile_snippet(compiler, text, tmp_path)
    [found] = [d for d in compiled.diagnostics if d.severity == "error"]
    assert (found.code, words in found.message) == (code, True), found.message
    assert found.pos is not None and found.pos.line == text.count("\n") - 1
    keyword = "distance=" if code == "E455" else "wind=" if "wind=" in question else "state="
    assert found.pos.column == question.index(keyword) + 3, (found.pos, found.message)
    assert found.hint


def _vectors(compiler: Compiler, text: str, tmp_path: Path) -> tuple[ir.Ruleset, list[dict]]:
    compiled = compile_snippet(compiler, text, tmp_path)
    assert compiled.ruleset is not None
    plan = plan_examples.build(compiled.ruleset)
    return compiled.ruleset, json.loads(python_examples.vectors_json(plan))["vectors"]


def test_the_vectors_give_state_and_wind_as_the_module_takes_them(
    compiler: Compiler, tmp_path: Path
) -> None:
    _, vectors = _vectors(compiler, AIR + AIR_EXAMPLE, tmp_path)
    assert [v["kwargs"] for v in vectors] == [
        {"state": {"speed": 5.0, "altitude": 2.0}},
        {"state": {"altitude": 2.0, "speed": 1.0}},
        {"state": {"speed": 3.0, "altitude": 0.0}, "move": "climb"},
    ]
    _, vectors = _vectors(compiler, SAIL + SAIL_EXAMPLE, tmp_path)
    assert [v["kwargs"] for v in vectors] == [{"wind": 2}, {"wind": 4}, {"wind": 4}]
    assert vectors[0]["text"] == "route_cost(brig, (deep), turn, turn, (deep), wind=2) = 5 MP"


@pytest.mark.parametrize("rules", ["air", "sail", "free", "items"])
def test_the_python_module_replays_the_state_and_wind_examples(
    compiler: Compiler, tmp_path: Path, rules: str
) -> None:
    text = {"air": AIR + AIR_EXAMPLE, "sail": SAIL + SAIL_EXAMPLE, "free": FREE, "items": ITEMS}[
        rules
    ]
    rs, _ = _vectors(compiler, text, tmp_path)
    assert f"{3 + (rules == 'free')} passed" in replay_python(rs, tmp_path)


def replay_python(rs: ir.Ruleset, tmp_path: Path) -> str:
    """The pytest output of the module's own replay of its example vectors (it must pass)."""
    plan = plan_examples.build(rs)
    (tmp_path / f"{rs.id}.py").write_text(render_python(rs), "utf-8")
    (tmp_path / f"{rs.id}.examples.json").write_text(python_examples.vectors_json(plan), "utf-8")
    (tmp_path / f"test_{rs.id}_examples.py").write_text(python_examples.render_test(plan), "utf-8")
    done = replay(tmp_path)
    assert done.returncode == 0, done.stdout
    return done.stdout


@pytest.mark.parametrize("rules", ["air", "sail", "free", "items"])
def test_the_js_module_gives_the_same_answers_to_state_and_wind_examples(
    compiler: Compiler, tmp_path: Path, node: str, rules: str
) -> None:
    text = {"air": AIR + AIR_EXAMPLE, "sail": SAIL + SAIL_EXAMPLE, "free": FREE, "items": ITEMS}[
        rules
    ]
    rs, vectors = _vectors(compiler, text, tmp_path)
    assert js_answers(rs, vectors, tmp_path) == [v["expected"] for v in vectors]


def js_answers(rs: ir.Ruleset, vectors: list[dict], tmp_path: Path) -> list[object]:
    """The JavaScript module's answers to the example vectors' questions."""
    package = write_package(module_plan.build(rs), tmp_path / "js")
    queries = [
        {"function": v["question"], "args": v["args"], "kwargs": v["kwargs"]} for v in vectors
    ]
    return [a.get("answer") for a in js_queries.ask_node(package, queries)]


@pytest.mark.parametrize(
    ("lang", "state", "wind"),
    [
        ("en", "state at the start (Speed 5, Altitude 2)", "wind from heading 2"),
        ("fr", "état au départ (Vitesse 5, Altitude 2)", "vent venant du cap 2"),
        ("de", "Zustand zu Beginn (Tempo 5, Höhe 2)", "Wind aus Richtung 2"),
        ("ru", "состояние в начале (Скорость 5, Высота 2)", "ветер с направления 2"),  # noqa: RUF001
    ],
)
def test_sheets_print_the_state_and_the_wind_of_an_example_in_every_language(
    compiler: Compiler, tmp_path: Path, lang: str, state: str, wind: str
) -> None:
    sail = SAIL.replace("version 1.0.0\n", "version 1.0.0\nlanguages en fr de ru\n")
    sail_example = SAIL_EXAMPLE.replace(
        '"Coming about"', '"Coming about" fr "Virer" de "Wenden" ru "Поворот"'
    )
    for text, words in ((AIR + AIR_EXAMPLE, state), (sail + sail_example, wind)):
        rs = compile_snippet(compiler, text, tmp_path).ruleset
        assert rs is not None
        md = render_markdown(build_sheet(rs, lang)).replace("\u202f", " ").replace("\u00a0", " ")
        assert words in md, md[md.find("|") :][:2000]


def test_yaml_writes_a_state_example_as_the_language_does(
    compiler: Compiler, tmp_path: Path
) -> None:
    source, _ = Parser().parse(AIR + AIR_EXAMPLE, "air.terrain")
    yaml_text = to_yaml(source)
    assert "state=(speed=5, altitude=2)" in yaml_text
    (tmp_path / "air.yaml").write_text(yaml_text, "utf-8")
    compiled = compiler.compile_file(tmp_path / "air.yaml")
    assert [d.code for d in compiled.diagnostics if d.severity == "error"] == []
    assert compiled.ruleset is not None
    assert compiled.ruleset.examples[0].questions[0].args[-1].names == ("speed", "altitude")


def test_the_language_guide_states_a_state_and_a_wind_as_the_rules_answer(
    compiler: Compiler, tmp_path: Path
) -> None:
    """docs/language.md, "Worked examples": the convoy block builds, its answers checked."""
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("## Worked examples") : doc.index("## Variants")]
    start = section.index("```terrain\n  ruleset convoy")
    block = section[start : section.index("  ```\n", start)].split("\n", 1)[1]
    text = "\n".join(line.removeprefix("  ") for line in block.splitlines()) + "\n"
    assert _errors(compiler, text, tmp_path) == []
    rs = compile_snippet(compiler, text, tmp_path).ruleset
    assert rs is not None and len([q for e in rs.examples for q in e.questions]) == 4
    wrong = text.replace("wind=2) = 5 MP", "wind=2) = 3 MP")
    assert [c for c, _, _ in _errors(compiler, wrong, tmp_path)] == ["E270"]


FREE = """\
ruleset armour "Armour"
version 1.0.0
languages en fr de ru
units distance in, cost in
mode tank "Tank" fr "Char" de "Panzer" ru "Танк" allowance 8 in
facing tank : turn 1 in per 45 deg, pivot 2 in, straight 2 in before turn, \\
    turn above 90 deg ends move, reverse at half speed
example turning "Turning" fr "Tourner" de "Drehen" ru "Поворот" {
  free_move(tank, (straight, 2 in), (turn, 45 deg), (straight, 2 in), (turn, -60 deg)) = 7 in
  free_move(tank, (straight, 2 in), (turn, 135 deg), allowance=8 in) = 5 in, ends
  free_move(tank, (reverse, 4 in)) = 8 in, ends
  free_move(tank, (straight, 1.5 in), (turn, 45 deg)) = illegal
}
"""


def test_a_free_move_example_gives_its_legs_in_order(compiler: Compiler, tmp_path: Path) -> None:
    """docs/language.md's free moves ("Facing off the grid"), stated as worked examples."""
    assert _errors(compiler, FREE, tmp_path) == []
    wrong = FREE.replace("(turn, -60 deg)) = 7 in", "(turn, -60 deg)) = 6 in")
    assert [c for c, _, _ in _errors(compiler, wrong, tmp_path)] == ["E270"]
    legal = FREE.replace(
        "(straight, 1.5 in), (turn, 45 deg)) = illegal", "(straight, 2 in)) = 2 in"
    )
    assert _errors(compiler, legal, tmp_path) == []


@pytest.mark.parametrize(
    ("leg", "code"),
    [("straight", "E456"), ("(run, 2 in)", "E456"), ("(turn, 45 in)", "E273")],
    ids=["not_grouped", "not_a_leg", "angle_in_inches"],
)
def test_a_free_move_leg_written_otherwise_is_an_error_at_the_leg(
    compiler: Compiler, tmp_path: Path, leg: str, code: str
) -> None:
    question = f"free_move(tank, (straight, 2 in), {leg}) = 3 in"
    text = FREE.split("example")[0] + 'example bad "Bad" {\n  ' + question + "\n}\n"
    compiled = compile_snippet(compiler, text, tmp_path)
    [found] = [d for d in compiled.diagnostics if d.severity == "error"]
    assert found.code == code, found.message
    assert found.pos is not None and found.pos.column == question.rindex(leg) + 3


def test_a_free_move_vector_gives_the_legs_as_one_list(compiler: Compiler, tmp_path: Path) -> None:
    _, vectors = _vectors(compiler, FREE, tmp_path)
    assert vectors[1]["args"] == ["tank", [["straight", 2.0], ["turn", 135.0]]]
    assert vectors[1]["kwargs"] == {"allowance": 8.0}
    assert [v["expected"] for v in vectors] == [
        [{"number": 7.0}],
        [{"number": 5.0}, {"word": "ends"}],
        [{"number": 8.0}, {"word": "ends"}],
        [{"word": "illegal"}],
    ]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Free move: Tank, straight 2 in, turn 135°, allowance 8 in | 5 in, the move ends"),
        (
            "fr",
            "Mouvement libre : Char, tout droit 2 po, virage 135°, allocation 8 po | 5 po, "
            "le mouvement s\u2019achève",
        ),
        (
            "de",
            "Freie Bewegung: Panzer, geradeaus 2 Zoll, Drehung 135°, Bewegungsweite 8 Zoll | "
            "5 Zoll, die Bewegung endet",
        ),
        (
            "ru",
            "Свободное движение: Танк, прямо 2 дюйм., поворот 135°, запас движения 8 дюйм. | "
            "5 дюйм., движение окончено",
        ),
    ],
)
def test_sheets_print_a_free_move_example_in_every_language(
    compiler: Compiler, tmp_path: Path, lang: str, words: str
) -> None:
    rs = compile_snippet(compiler, FREE, tmp_path).ruleset
    assert rs is not None
    md = render_markdown(build_sheet(rs, lang)).replace("\u202f", " ").replace("\u00a0", " ")
    assert words in md, [line for line in md.splitlines() if "135" in line]


ITEMS = """\
ruleset shot "Shot"
version 1.0.0
languages en fr de ru
units modifier points
modifier to_hit "To-hit" fr "Pour toucher" de "Treffer" ru "Попадание" {
  aimed "Aimed" fr "Visé" de "Gezielt" ru "Прицельно"   | +1
  moving "Moving" fr "En mouvement" de "Bewegt" ru "Едет" | -1
  smoke "Smoke" fr "Fumée" de "Rauch" ru "Дым"   | -2
}
decision shot "Shot" fr "Tir" de "Schuss" ru "Выстрел" (mods to_hit, skill points) {
  skill + mods >= 4 -> hit "Hit" fr "Touché" de "Treffer" ru "Попадание"
  otherwise         -> miss "Miss" fr "Raté" de "Fehlschuss" ru "Промах"
}
example aimed_shot "An aimed shot" fr "Un tir visé" de "Ein gezielter Schuss" \\
    ru "Прицельный выстрел" {
  shot(mods=(aimed), skill=3) = hit
  shot(mods=(aimed, smoke), skill=4) = miss
  shot(mods=(), skill=4) = hit
}
"""


def test_an_example_gives_a_decision_the_items_of_a_modifier(
    compiler: Compiler, tmp_path: Path
) -> None:
    """docs/language.md, "A decision that reads a modifier's total": ``shot(["aimed"], 3)``
    is a hit (3 + 1), ``shot(["aimed", "smoke"], 4)`` a miss (4 + 1 - 2)."""
    assert _errors(compiler, ITEMS, tmp_path) == []
    wrong = ITEMS.replace(
        "shot(mods=(aimed, smoke), skill=4) = miss", "shot(mods=(aimed, smoke), skill=4) = hit"
    )
    assert [c for c, _, _ in _errors(compiler, wrong, tmp_path)] == ["E270"]
    _, vectors = _vectors(compiler, ITEMS, tmp_path)
    assert [v["kwargs"]["mods"] for v in vectors] == [["aimed"], ["aimed", "smoke"], []]


@pytest.mark.parametrize(
    ("mods", "code", "words"),
    [("aimed", "E457", "in parentheses"), ("(aimed, fog)", "E272", "'fog' is not an item")],
    ids=["not_in_parentheses", "unknown_item"],
)
def test_a_modifiers_items_written_otherwise_are_an_error_at_the_input(
    compiler: Compiler, tmp_path: Path, mods: str, code: str, words: str
) -> None:
    question = f"shot(mods={mods}, skill=3) = hit"
    text = ITEMS.split("example")[0] + 'example bad "Bad" {\n  ' + question + "\n}\n"
    compiled = compile_snippet(compiler, text, tmp_path)
    [found] = [d for d in compiled.diagnostics if d.severity == "error"]
    assert (found.code, words in found.message) == (code, True), found.message
    assert found.pos is not None and found.pos.column == question.index("mods=") + 3


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Shot: mods (Aimed + Smoke), skill 4 | Miss"),
        ("fr", "Tir : mods (Visé + Fumée), skill 4 | Raté"),
        ("de", "Schuss: mods (Gezielt + Rauch), skill 4 | Fehlschuss"),
        ("ru", "Выстрел: mods (Прицельно + Дым), skill 4 | Промах"),
    ],
)
def test_sheets_print_a_modifiers_items_by_their_labels_in_every_language(
    compiler: Compiler, tmp_path: Path, lang: str, words: str
) -> None:
    rs = compile_snippet(compiler, ITEMS, tmp_path).ruleset
    assert rs is not None
    md = render_markdown(build_sheet(rs, lang)).replace("\u202f", " ").replace("\u00a0", " ")
    assert words in md
