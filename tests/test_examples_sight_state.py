"""Worked examples of a line of sight that give the viewer's state, ``state=(speed=3,
altitude=4)``, for a sight rule with a band of a state (``when altitude below 5``, issue 40):
checked at build against the rules, misuse as E450-E452 and E458, exported as vectors the
Python and JavaScript modules both pass, printed on sheets in every sheet language."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_yaml
from rulesdsl.printed.sheets import build_sheet, render_markdown
from tests.conftest import compile_snippet
from tests.test_examples_route_inputs import _errors, _vectors, js_answers, replay_python
from tests.test_js_target import node

__all__ = ["node"]  # a fixture

SKY = """\
ruleset sky "Sky"
version 1.0.0
languages en fr de ru
units distance hex, cost MP
mode fighter "Fighter"
grid hexes "Hex" : 1 hex, hex
state speed "Speed" fr "Vitesse" de "Tempo" ru "Скорость" : 0 to 8
state altitude "Altitude" fr "Altitude" de "Höhe" ru "Высота" : 0 to 9
sight spotting "Spotting" : blocks at 2, counts between
sight clouds "Clouds" : blocks at 1, counts between, when altitude below 5
layer sky "Sky" {
  columns cost, spotting, clouds
  clear "Clear" | 1 | 0 | 0
  cloudbank "Cloud bank" | 1 | 1 | 1
}
"""

SKY_EXAMPLE = """\
example in_the_clouds "In the clouds" fr "Dans les nuages" de "In den Wolken" \\
    ru "В облаках" {
  line_of_sight(clouds, (clear), (cloudbank), (clear), state=(speed=3, altitude=4)) = 1, blocked
  line_of_sight(clouds, (clear), (cloudbank), (clear), state=(speed=3, altitude=5)) = 0
  line_of_sight(spotting, (clear), (cloudbank), (clear)) = 1
}
"""  # noqa: RUF001


def test_a_sight_example_gives_the_viewers_state(compiler: Compiler, tmp_path: Path) -> None:
    """Below altitude 5 the cloud bank blocks the line; at 5 the rule sees nothing."""
    assert _errors(compiler, SKY + SKY_EXAMPLE, tmp_path) == []
    wrong = SKY_EXAMPLE.replace("altitude=5)) = 0", "altitude=5)) = 1, blocked")
    assert [c for c, _, _ in _errors(compiler, SKY + wrong, tmp_path)] == ["E270"]


def test_a_banded_sight_example_without_a_state_names_the_band(
    compiler: Compiler, tmp_path: Path
) -> None:
    without = SKY_EXAMPLE.replace(", state=(speed=3, altitude=5)", "")
    found = _errors(compiler, SKY + without, tmp_path)
    assert [(c, m) for c, _, m in found] == [
        (
            "E272",
            "example 'in_the_clouds': 'clouds' counts only while 'altitude' is below 5: "
            "give the viewer's state, state=(speed=0, altitude=0)",
        )
    ]


MISUSES = {
    "E450_state_without_state_lines": ("state=(speed=3)", "E450", "no `state` line"),
    "E451_state_left_out": ("state=(altitude=4)", "E451", "speed is missing"),
    "E452_state_out_of_range": ("state=(speed=3, altitude=10)", "E452", "0 to 9, not 10"),
    "E458_state_for_a_rule_without_a_band": (
        "state=(speed=3, altitude=4)",
        "E458",
        "'spotting' has no band",
    ),
}


@pytest.mark.parametrize("case", sorted(MISUSES))
def test_a_misused_sight_state_is_its_own_error_at_the_argument(
    compiler: Compiler, tmp_path: Path, case: str
) -> None:
    given, code, words = MISUSES[case]
    rules = SKY
    if code == "E450":  # the same rules without states (nor the band that reads one)
        rules = "\n".join(line for line in SKY.splitlines() if not line.startswith("state "))
        rules = rules.replace(", when altitude below 5", "") + "\n"
    rule = "spotting" if code == "E458" else "clouds"
    question = f"line_of_sight({rule}, (clear), (cloudbank), {given}) = 1"
    text = rules + 'example bad "Bad" {\n  ' + question + "\n}\n"
    compiled = compile_snippet(compiler, text, tmp_path)
    [found] = [d for d in compiled.diagnostics if d.severity == "error"]
    assert (found.code, words in found.message) == (code, True), found.message
    assert found.pos is not None and found.pos.column == question.index("state=") + 3
    assert found.hint


def test_the_vectors_give_the_viewers_state_as_the_module_takes_it(
    compiler: Compiler, tmp_path: Path
) -> None:
    _, vectors = _vectors(compiler, SKY + SKY_EXAMPLE, tmp_path)
    assert [v["kwargs"] for v in vectors] == [
        {"state": {"speed": 3.0, "altitude": 4.0}},
        {"state": {"speed": 3.0, "altitude": 5.0}},
        {},
    ]
    assert [v["expected"] for v in vectors] == [
        [{"number": 1.0}, {"marker": "blocked"}],
        [{"number": 0.0}],
        [{"number": 1.0}],
    ]


def test_the_python_module_replays_the_sight_state_examples(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs, _ = _vectors(compiler, SKY + SKY_EXAMPLE, tmp_path)
    assert "3 passed" in replay_python(rs, tmp_path)


def test_the_js_module_gives_the_same_answers_to_the_sight_state_examples(
    compiler: Compiler, tmp_path: Path, node: str
) -> None:
    rs, vectors = _vectors(compiler, SKY + SKY_EXAMPLE, tmp_path)
    assert js_answers(rs, vectors, tmp_path) == [v["expected"] for v in vectors]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "the viewer's state (Speed 3, Altitude 4)"),
        ("fr", "état de l’observateur (Vitesse 3, Altitude 4)"),  # noqa: RUF001
        ("de", "Zustand des Beobachters (Tempo 3, Höhe 4)"),
        ("ru", "состояние наблюдателя (Скорость 3, Высота 4)"),
    ],
)
def test_sheets_print_the_viewers_state_of_a_sight_example_in_every_language(
    compiler: Compiler, tmp_path: Path, lang: str, words: str
) -> None:
    rs = compile_snippet(compiler, SKY + SKY_EXAMPLE, tmp_path).ruleset
    assert rs is not None
    md = render_markdown(build_sheet(rs, lang)).replace("\u202f", " ").replace("\u00a0", " ")
    assert words in md, md[md.find("|") :][:2000]


def test_yaml_writes_a_sight_state_example_as_the_language_does(
    compiler: Compiler, tmp_path: Path
) -> None:
    source, _ = Parser().parse(SKY + SKY_EXAMPLE, "sky.terrain")
    yaml_text = to_yaml(source)
    assert "state=(speed=3, altitude=4)" in yaml_text
    (tmp_path / "sky.yaml").write_text(yaml_text, "utf-8")
    compiled = compiler.compile_file(tmp_path / "sky.yaml")
    assert [d.code for d in compiled.diagnostics if d.severity == "error"] == []
    assert compiled.ruleset is not None
    assert compiled.ruleset.examples[0].questions[0].args[-1].names == ("speed", "altitude")
