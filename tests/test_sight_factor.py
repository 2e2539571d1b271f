"""A modifier's factor read along a line of sight (issue 40, item 7, "rules that feed rules":
"+1 to hit for each hex of light woods in between, +2 for smoke; no line of sight when the
sum reaches 3"). `sight line : haze` inside a modifier: ``modifier()`` takes the line by the
factor's name and asks the sight rule along it, so the caller asks once; a blocked line makes
the answer BLOCKED. In Python and JavaScript as the reference semantics says; E470/E471/E472
for a rule the places alone cannot answer or a name modifier() takes already; E432 for a
decision reading such a modifier's total; sheet words; diff grading; house rules; YAML."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir, semantics
from rulesdsl.codegen import js as js_target
from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.js.dts import dts
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.versions import diff as semantic
from tests import js_queries, js_queries_fog, test_js_target
from tests.conftest import compile_snippet, import_rendered, render

HEADER = (
    'ruleset demo "Demo" fr "Démo" de "Demo" ru "Демо"\nversion 1.0.0\nlanguages en fr de ru\n'
    "units distance hex, cost MP, modifier points\n"
    'mode foot "Foot" fr "Pied" de "Fuß" ru "Пеший"\n'
)
HEADER_LINES = HEADER.count("\n")

HAZE = """sight haze "Haze" fr "Brume" de "Dunst" ru "Дымка" : blocks at 3, counts between
layer terrain "Terrain" fr "Terrain" de "Gelände" ru "Местность" {
  columns cost, haze
  clear "Clear" fr "Dégagé" de "Offen" ru "Открытая"                    | 1 | 0
  light_woods "Light woods" fr "Bois clairs" de "Lichter Wald" ru "Лес" | 2 | 1
  smoke "Smoke" fr "Fumée" de "Rauch" ru "Дым"                          | 1 | 2
  wall "Wall" fr "Mur" de "Mauer" ru "Стена"                            | 3 | blocked
}
layer weather "Weather" fr "Météo" de "Wetter" ru "Погода" whole map {
  columns haze
  fog "Fog" fr "Brouillard" de "Nebel" ru "Туман" | +1
}
dice barrage "Barrage" fr "Barrage" de "Sperrfeuer" ru "Заградогонь" : 1d6 {
  1-3 no_effect "No effect" fr "Sans effet" de "Ohne Wirkung" ru "Без эффекта"
  4+ screen "Screen" fr "Écran" de "Schirm" ru "Завеса" | haze +1
}
"""
TO_HIT = """modifier to_hit "To hit" fr "Pour toucher" de "Trefferwurf" ru "Попадание" {
  aimed "Aimed" fr "Visé" de "Gezielt" ru "Прицельно"        | -1
  moving "Moving" fr "En mouvement" de "In Bewegung" ru "Движение" | +1
  sight line "In the line" fr "Dans la ligne" de "In der Linie" ru "Линия" : haze
}
"""
PLACES = (("clear",), ("light_woods",), ("smoke",), ("clear", "fog"), ("wall",), ("screen",), ())


def _ruleset(compiler: Compiler, body: str = HAZE + TO_HIT) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


def _errors(compiler: Compiler, body: str) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, HEADER + body)
    return [
        (d.code, d.pos.line - HEADER_LINES, d.pos.column)
        for d in compiled.diagnostics
        if d.is_error and d.pos
    ]


def _lines() -> list[tuple[tuple[str, ...], ...]]:
    """Lines of 2 to 4 places drawn from PLACES, the firer and the target in the open."""
    middles = [m for n in range(3) for m in itertools.product(PLACES, repeat=n)]
    return [(("clear",), *middle, ("clear",)) for middle in middles]


def test_the_factor_reads_the_line_as_the_semantics_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler)
    assert [(f.id, f.rule) for f in rs.modifiers[0].sights] == [("line", "haze")]
    m = import_rendered(rs, tmp_path, "sight_factor_module")
    seen: set[Any] = set()
    for line in _lines():
        for items in ((), ("aimed",), ("moving", "line")):
            expected = semantics.modifier(rs, "to_hit", items, lines={"line": line})
            answer = m.modifier("to_hit", *items, line=line)
            assert (str(answer) if isinstance(answer, m.Marker) else answer) == (
                "BLOCKED" if isinstance(expected, ir.Marker) else expected
            )
            seen.add(str(answer))
    assert {"BLOCKED", "-1", "0", "1", "2", "3"} <= seen
    light = (("clear",), ("light_woods",), ("clear",))
    assert m.modifier("to_hit", "aimed", line=light) == 0  # -1 + 1
    assert m.modifier("to_hit", "moving", line=[*light[:2], ("smoke",), ("clear",)]) is m.BLOCKED
    assert m.modifier("to_hit", "aimed", line=[("clear", "fog"), ("smoke",), ("clear",)]) is (
        m.BLOCKED  # 2 + the fog once: 3 blocks
    )
    assert m.modifier("to_hit", "aimed") == -1  # no line given: the factor does not count


def test_a_line_left_out_or_malformed_is_refused_in_the_modifiers_name(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = import_rendered(_ruleset(compiler), tmp_path, "sight_factor_refused")
    with pytest.raises(m.InvalidArgument, match=r"modifier\(\) argument 'line' must be given"):
        m.modifier("to_hit", "aimed", "line")
    with pytest.raises(m.ArgumentTypeError, match=r"argument 'line' must be the line"):
        m.modifier("to_hit", line="clear")
    with pytest.raises(m.ArgumentTypeError, match=r"modifier\(\) argument 'line' must be one"):
        m.modifier("to_hit", line=["clear"])
    with pytest.raises(m.UnknownName, match="'nope'"):
        m.modifier("to_hit", line=[("nope",)])
    with pytest.raises(m.ArgumentTypeError, match=r"argument 'aimed' must be a name or a number"):
        m.modifier("to_hit", aimed=[("clear",)])


def test_a_module_without_the_factor_carries_none_of_it(compiler: Compiler) -> None:
    rs = _ruleset(compiler, HAZE + TO_HIT.replace("  sight line", "# "))
    text = js_target.module_js(module_plan.build(rs))
    assert "_SIGHT_FACTORS" not in text and "sight factor]" not in text and "lines" not in text
    assert "_SIGHT_FACTORS" not in render(rs) and "Iterable[Iterable[str]]" not in render(rs)
    with_line = js_target.module_js(module_plan.build(_ruleset(compiler)))
    assert "_SIGHT_FACTORS" in with_line and "sight factor]" not in with_line


@pytest.fixture(scope="module")
def node() -> str:
    return test_js_target._needed("node")


def test_the_javascript_module_reads_the_line_as_python_does(
    compiler: Compiler, node: str, tmp_path: Path
) -> None:
    rs = _ruleset(compiler)
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "sight_factor_js")
    module = test_js_target.write_package(plan, tmp_path / "sight_factor")
    queries = list(js_queries_fog.sight_factor_queries(random.Random(40), plan))
    assert len(queries) == 300
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    answers = [e["answer"][0] for e in expected if "answer" in e]
    assert {"marker": "blocked"} in answers and {"number": 0} in answers
    assert {e["error"] for e in expected if "error" in e} >= {"InvalidArgument", "UnknownName"}
    pairs = zip(queries, expected, got, strict=True)
    assert [(q, e, g) for q, e, g in pairs if not js_queries.same(e, g)][:5] == []
    declared = dts(plan, "demo", "1.0.0")
    assert 'FactorName = "aimed" | "moving" | "line"' in declared
    assert "Record<string, string | number | readonly (readonly string[])[]>" in declared


STEPS = 'step deep "Deep" fr "Profond" de "Tief" ru "Глубоко" (crossed hex) : +1 per 1 hex\n'


@pytest.mark.parametrize(
    ("case", "change", "code"),
    [
        (
            "steps",
            (": blocks at 3, counts between", ": blocks at 3, counts between, crossed hex"),
            "E470",
        ),
        ("viewer", ("| 2 | 1\n", "| 2 | 1, foot 0\n"), "E471"),
        ("name", ("  sight line", "  sight name"), "E472"),
    ],
)
def test_a_rule_the_places_alone_cannot_answer_or_a_taken_name_is_refused_at_the_factor(
    compiler: Compiler, case: str, change: tuple[str, str], code: str
) -> None:
    body = (STEPS + HAZE + TO_HIT).replace(*change)
    if case == "steps":
        body = body.replace("| 2 | 1\n", "| 2 | step deep\n")
    line = (STEPS + HAZE + TO_HIT).count("\n") - 1
    assert _errors(compiler, body) == [(code, line, 9)]


def test_a_factor_that_reads_no_sight_rule_is_E101(compiler: Compiler) -> None:
    body = HAZE + TO_HIT.replace(": haze", ": aimed")
    line = body.splitlines()[-2]
    assert _errors(compiler, body) == [("E101", body.count("\n") - 1, line.index("aimed") + 1)]


def test_a_decision_reading_such_a_modifiers_total_is_E432(compiler: Compiler) -> None:
    shot = 'decision shot "Shot" fr "Tir" de "Schuss" ru "Выстрел" (mods to_hit) {\n'
    shot += '  mods >= 1 -> hit "Hit" fr "Touché" de "Treffer" ru "Treffer"\n'
    shot += '  otherwise -> miss "Miss" fr "Raté" de "Fehlschuss" ru "Промах"\n}\n'
    assert [e[0] for e in _errors(compiler, HAZE + TO_HIT + shot)] == ["E432"]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "In the line: the total of Haze along the line from the firer to the target"),
        ("fr", "Dans la ligne : le total de Brume le long de la ligne, du tireur à la cible"),
        ("de", "In der Linie: die Summe aus Dunst entlang der Linie vom Schützen zum Ziel"),
        ("ru", "Линия: сумма «Дымка» вдоль линии от стреляющего до цели"),
    ],
)
def test_the_sheet_says_what_the_factor_reads(tmp_path: Path, lang: str, said: str) -> None:
    ruleset = tmp_path / "demo.terrain"
    ruleset.write_text(HEADER + HAZE + TO_HIT, "utf-8")
    target = tmp_path / f"demo.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    text = target.read_text("utf-8").replace("\u00a0", " ").replace("\u202f", " ")
    assert said in text


def test_diff_grades_a_new_factor_as_rules_and_one_that_goes_as_breaking(
    compiler: Compiler,
) -> None:
    without = _ruleset(compiler, HAZE + TO_HIT.replace("  sight line", "# "))
    with_line = _ruleset(compiler)
    found = [(c.level, c.path) for c in semantic.diff(without, with_line).changes]
    assert found == [("rules", "to_hit.sight")]
    found = [(c.level, c.path) for c in semantic.diff(with_line, without).changes]
    assert found == [("breaking", "to_hit.sight")]


def _house(tmp_path: Path, body: str) -> tuple[ir.Ruleset | None, list[tuple[str, int]]]:
    (tmp_path / "demo.terrain").write_text(HEADER + HAZE + TO_HIT, "utf-8")
    house = tmp_path / "house.terrain"
    text = 'ruleset house "House" fr "Maison" de "Haus" ru "Дом"\nversion 1.0.0\n'
    text += "extends demo@^1.0\n"
    house.write_text(text + body, "utf-8")
    compiled = Compiler().compile_file(house)
    return compiled.ruleset, [(d.code, d.pos.line) for d in compiled.diagnostics if d.is_error]


DENSE = """sight dense "Dense" fr "Dense" de "Dicht" ru "Густо" : blocks at 2, counts between
layer mists "Mist" fr "Brume" de "Dunst" ru "Мгла" {
  columns dense
  mist "Mist" fr "Brume" de "Dunst" ru "Мгла" | 1
}
"""


def test_a_house_rule_replaces_the_factor_and_is_checked_again(tmp_path: Path) -> None:
    reopen = 'modifier to_hit {\n  sight line "In the mist" : dense\n}\n'
    rs, errors = _house(tmp_path, DENSE + reopen)
    assert rs is not None and errors == [], errors
    assert [(f.id, f.rule) for f in rs.modifiers[0].sights] == [("line", "dense")]
    m = import_rendered(rs, tmp_path, "sight_factor_house")
    assert m.modifier("to_hit", line=[("clear",), ("mist",), ("clear",)]) == 1
    assert m.modifier("to_hit", line=[("clear",), ("mist",), ("mist",), ("clear",)]) is m.BLOCKED
    _, errors = _house(tmp_path, DENSE.replace("| 1\n", "| 1, foot 0\n") + reopen)
    assert [e[0] for e in errors] == ["E471"]


def test_the_yaml_form_reads_the_factor_and_is_checked(compiler: Compiler, tmp_path: Path) -> None:
    source, errors = Parser().parse(HEADER + HAZE + TO_HIT, "fog.terrain")
    assert source is not None and errors == []
    yaml_text = to_yaml(source)
    assert "sight:\n      line:" in yaml_text and "rule: haze" in yaml_text
    (tmp_path / "fog.yaml").write_text(yaml_text, "utf-8")
    compiled = compiler.compile_file(tmp_path / "fog.yaml")
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert [(f.id, f.rule) for f in compiled.ruleset.modifiers[0].sights] == [("line", "haze")]
    assert '  sight line "In the line"' in to_terrain(yaml_text)
    bad_text = yaml_text.replace("cells: ['2', '1']", "cells: ['2', '1, foot 0']")
    (tmp_path / "bad.yaml").write_text(bad_text, "utf-8")
    bad = compiler.compile_file(tmp_path / "bad.yaml")
    assert [d.code for d in bad.diagnostics if d.is_error] == ["E471"]
    assert all(d.pos is not None and d.pos.line > 1 for d in bad.diagnostics if d.is_error)


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("### A line of sight that feeds a modifier") :]
    start = section.index("```terrain\n") + len("```terrain\n")
    snippet = section[start : section.index("```", start)]
    m = import_rendered(_ruleset(compiler, snippet), tmp_path, "sight_factor_docs")
    woods = [("clear",), ("light_woods",), ("clear",)]
    assert m.modifier("to_hit", "long_range", line=woods) == 2
    smoke = [("clear",), ("light_woods",), ("smoke",), ("clear",)]
    assert m.modifier("to_hit", "long_range", line=smoke) is m.BLOCKED


def test_a_worked_example_cannot_give_the_line(compiler: Compiler) -> None:
    example = 'example one "One" fr "Un" de "Eins" ru "Один" {\n'
    example += "  modifier(to_hit, aimed, line) = -1 points\n}\n"
    compiled = compile_snippet(compiler, HEADER + HAZE + TO_HIT + example)
    said = [(d.code, d.message) for d in compiled.diagnostics if d.is_error]
    assert [code for code, _ in said] == ["E272"]
    assert "'line' is read along a line of sight" in said[0][1]
    alone = example.replace(", line)", ")")  # the factor not named: its line is not needed
    assert compile_snippet(compiler, HEADER + HAZE + TO_HIT + alone).ok


def test_a_when_line_and_a_best_group_name_the_factor_in_both_modules(
    compiler: Compiler, node: str, tmp_path: Path
) -> None:
    combined = "  when aimed, line | +5\n"
    combined += '  best worst "Worst" fr "Pire" de "Schlimmste" ru "Худшее" combine lowest : '
    combined += "line, moving\n  sight line"
    rs = _ruleset(compiler, HAZE + TO_HIT.replace("  sight line", combined))
    m = import_rendered(rs, tmp_path, "sight_factor_combined")
    for line in _lines():
        for items in ((), ("aimed",), ("moving",), ("aimed", "moving")):
            expected = semantics.modifier(rs, "to_hit", items, lines={"line": line})
            answer = m.modifier("to_hit", *items, line=line)
            assert (str(answer) if isinstance(answer, m.Marker) else answer) == (
                "BLOCKED" if isinstance(expected, ir.Marker) else expected
            )
    woods = [("clear",), ("light_woods",), ("clear",)]
    assert m.modifier("to_hit", "aimed", line=woods) == 5  # -1, +5 together, the worst 1
    assert m.modifier("to_hit", "aimed", "moving", line=woods) == 5  # the worst of 1 and +1
    plan = module_plan.build(rs)
    module = test_js_target.write_package(plan, tmp_path / "sight_factor_combined")
    queries = list(js_queries_fog.sight_factor_queries(random.Random(7), plan))
    expected_js = js_queries.ask_python_all(m, queries)
    pairs = zip(queries, expected_js, js_queries.ask_node(module, queries), strict=True)
    assert [(q, e, g) for q, e, g in pairs if not js_queries.same(e, g)][:5] == []
