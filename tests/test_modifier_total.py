"""A decision that reads a modifier's total (issue 40, item 7, "rules that feed rules"):
`decision shot (mods to_hit, skill points)` where `to_hit` is a modifier. The caller gives the
modifier's items, the decision reads their total, in Python and JavaScript as the reference
semantics says; a modifier that needs more than its items, or may give a marker, is E432; a
decision that takes items cannot be called from arithmetic (E226); the sheet says whose
total the input is; `diff` grades the change of input; a house rule changes the total and is
checked again; YAML carries it."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from rulesdsl import ir, semantics
from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.js.dts import dts
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics import tables as semantics_tables
from rulesdsl.versions import diff as semantic
from rulesdsl.web.model import PageModel
from tests import js_queries, js_queries_feeds, test_js_target
from tests.conftest import compile_snippet, import_rendered

HEADER = (
    'ruleset demo "Demo" fr "Démo" de "Demo" ru "Демо"\nversion 1.0.0\nlanguages en fr de ru\n'
    "units distance hex, cost MP, modifier points\n"
    'mode foot "Foot" fr "Pied" de "Fuß" ru "Пеший"\n'
)
HEADER_LINES = HEADER.count("\n")

TO_HIT = """modifier to_hit "To-hit" fr "Pour toucher" de "Trefferwurf" ru "Попадание" {
  aimed "Aimed" fr "Visé" de "Gezielt" ru "Прицельно" | +1
  moving "Moving" fr "En mouvement" de "In Bewegung" ru "Движение" | -1
  smoke "Smoke" fr "Fumée" de "Rauch" ru "Дым" | -2
}
"""
SHOT = """decision shot "Shot" fr "Tir" de "Schuss" ru "Выстрел" (mods to_hit, skill points) {
  skill + mods >= 4 -> hit "Hit" fr "Touché" de "Treffer" ru "Попадание"
  otherwise         -> miss "Miss" fr "Raté" de "Fehlschuss" ru "Промах"
}
"""
ITEMS = ("aimed", "moving", "smoke")


def _ruleset(compiler: Compiler, body: str = TO_HIT + SHOT) -> ir.Ruleset:
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


def test_the_decision_reads_the_total_as_the_semantics_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler)
    decision = rs.decisions[0]
    assert decision.params[0].total_of == "to_hit" and decision.params[0].unit == "points"
    m = import_rendered(rs, tmp_path, "modifier_total_module")
    seen = set()
    for n in range(4):
        for mods in itertools.combinations_with_replacement(ITEMS, n):
            for skill in (1, 2, 3, 4, 5, 6):
                inputs = semantics.with_totals(rs, decision, {"mods": mods, "skill": skill})
                expected = semantics_tables.decide(decision, inputs)
                assert m.shot(list(mods), skill).id == expected
                assert m.shot(mods=mods, skill=skill).id == expected
                seen.add(expected)
    assert seen == {"hit", "miss"}
    assert m.shot(["aimed"], 3).id == "hit"
    assert m.shot(["aimed", "smoke"], 4).id == "miss"


def test_an_input_named_like_the_total_keeps_its_own_value(
    compiler: Compiler, tmp_path: Path
) -> None:
    shot = SHOT.replace("skill points", "mods_total points").replace("skill +", "mods_total +")
    m = import_rendered(_ruleset(compiler, TO_HIT + shot), tmp_path, "modifier_total_named")
    assert m.shot(["aimed"], mods_total=3).id == "hit"
    assert m.shot(["smoke"], mods_total=5).id == "miss"


def test_items_that_are_no_list_or_no_item_are_refused_in_the_decisions_name(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = import_rendered(_ruleset(compiler), tmp_path, "modifier_total_refused")
    with pytest.raises(m.ArgumentTypeError, match=r"shot\(\) argument 'mods' must be a list"):
        m.shot("aimed", 3)
    with pytest.raises(m.ArgumentTypeError, match=r"shot\(\) argument 'mods' must be a str"):
        m.shot([1], 3)
    with pytest.raises(m.UnknownName, match="'nope'"):
        m.shot(["nope"], 3)


@pytest.fixture(scope="module")
def node() -> str:
    return test_js_target._needed("node")


def test_the_javascript_module_reads_the_total_as_python_does(
    compiler: Compiler, node: str, tmp_path: Path
) -> None:
    rs = _ruleset(compiler)
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "modifier_total_js")
    module = test_js_target.write_package(plan, tmp_path / "modifier_total")
    queries = list(js_queries_feeds.modifier_total_queries(random.Random(40), plan))
    assert len(queries) == 300
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    assert {e["answer"][0]["word"] for e in expected if "answer" in e} == {"hit", "miss"}
    assert any("error" in e for e in expected)
    pairs = zip(queries, expected, got, strict=True)
    assert [(q, e, g) for q, e, g in pairs if not js_queries.same(e, g)][:5] == []
    assert "shot(options: { mods: string[]; skill: number })" in dts(plan, "demo", "1.0.0")


UNFIT = {
    "a_marker": "  when aimed, smoke | blocked\n",
    "a_given_value": '  perk "Perk" fr "Atout" de "Talent" ru "Перк" | given\n',
}


@pytest.mark.parametrize("unfit", sorted(UNFIT))
def test_a_modifier_that_needs_more_than_its_items_is_E432_at_the_input(
    compiler: Compiler, unfit: str
) -> None:
    body = TO_HIT.replace("| -2\n", "| -2\n" + UNFIT[unfit]) + SHOT
    assert _errors(compiler, body) == [("E432", TO_HIT.count("\n") + 2, 57)]


def test_a_modifier_keyed_by_a_context_is_E432(compiler: Compiler) -> None:
    context = 'context weapon "Weapon" fr "Arme" de "Waffe" ru "Оружие" {\n  gun "Gun"\n}\n'
    body = context + TO_HIT.replace('"Попадание" {', '"Попадание" by weapon {') + SHOT
    errors = _errors(compiler, body)
    assert [e[0] for e in errors] == ["E432"]


def test_arithmetic_cannot_give_a_modifiers_items_E226(compiler: Compiler) -> None:
    numbers = SHOT.replace("  skill + mods >= 4 -> hit", "  skill + mods >= 9 -> hit")
    numbers = numbers.replace('"Hit" fr "Touché" de "Treffer" ru "Попадание"', "= skill")
    numbers = numbers.replace('"Miss" fr "Raté" de "Fehlschuss" ru "Промах"', "= mods")
    caller = (
        'decision twice "Twice" fr "Deux" de "Zwei" ru "Два" (skill points) {\n'
        "  otherwise -> n = shot(skill, skill)\n}\n"
    )
    errors = _errors(compiler, TO_HIT + numbers + caller)
    line = (TO_HIT + numbers).count("\n") + 2
    assert [e for e in errors if e[0] == "E226"] == [("E226", line, 20)]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "mods (total of To-hit)"),
        ("fr", "mods (total de Pour toucher)"),
        ("de", "mods (Summe aus Trefferwurf)"),
        ("ru", "mods (сумма «Попадание»)"),
    ],
)
def test_the_sheet_says_whose_total_the_input_is(tmp_path: Path, lang: str, said: str) -> None:
    ruleset = tmp_path / "demo.terrain"
    ruleset.write_text(HEADER + TO_HIT + SHOT, "utf-8")
    target = tmp_path / f"demo.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert said in target.read_text("utf-8")


def test_diff_grades_an_input_that_starts_or_stops_taking_items_as_breaking(
    compiler: Compiler,
) -> None:
    plain = _ruleset(compiler, TO_HIT + SHOT.replace("mods to_hit", "mods points"))
    total = _ruleset(compiler)
    found = [(c.level, c.path, c.message) for c in semantic.diff(plain, total).changes]
    assert ("breaking", "shot.mods", "Shot: input 'mods' now takes the items of 'to_hit'") in found
    found = [(c.level, c.path, c.message) for c in semantic.diff(total, plain).changes]
    assert ("breaking", "shot.mods", "Shot: input 'mods' now takes a number") in found


def _house(tmp_path: Path, body: str) -> tuple[ir.Ruleset | None, list[tuple[str, int]]]:
    (tmp_path / "demo.terrain").write_text(HEADER + TO_HIT + SHOT, "utf-8")
    house = tmp_path / "house.terrain"
    text = 'ruleset house "House" fr "Maison" de "Haus" ru "Дом"\nversion 1.0.0\n'
    text += "extends demo@^1.0\n"
    house.write_text(text + body, "utf-8")
    compiled = Compiler().compile_file(house)
    return compiled.ruleset, [(d.code, d.pos.line) for d in compiled.diagnostics if d.is_error]


def test_a_house_rule_changes_the_total_and_is_checked_again(tmp_path: Path) -> None:
    rs, errors = _house(tmp_path, "override smoke | -3\n")
    assert rs is not None and errors == []
    m = import_rendered(rs, tmp_path, "modifier_total_house")
    assert m.shot(["aimed", "smoke"], 5).id == "miss"  # 5 + 1 - 3
    _, errors = _house(tmp_path, "override smoke | blocked\n")
    assert [e[0] for e in errors] == ["E432"]


def test_the_yaml_form_reads_the_total_and_is_checked(compiler: Compiler, tmp_path: Path) -> None:
    source, errors = Parser().parse(HEADER + TO_HIT + SHOT, "shots.terrain")
    assert source is not None and errors == []
    yaml_text = to_yaml(source)
    assert "mods to_hit" in yaml_text
    (tmp_path / "shots.yaml").write_text(yaml_text, "utf-8")
    compiled = compiler.compile_file(tmp_path / "shots.yaml")
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert compiled.ruleset.decisions[0].params[0].total_of == "to_hit"
    assert "(mods to_hit, skill points)" in to_terrain(yaml_text)
    bad_text = yaml_text.replace("-2", "blocked")
    (tmp_path / "bad.yaml").write_text(bad_text, "utf-8")
    bad = compiler.compile_file(tmp_path / "bad.yaml")
    assert [d.code for d in bad.diagnostics if d.is_error] == ["E432"]
    assert all(d.pos is not None and d.pos.line > 1 for d in bad.diagnostics if d.is_error)


def test_the_web_page_gives_the_items_to_tick_for_a_decision_that_takes_them(
    compiler: Compiler,
) -> None:
    plain = SHOT.replace("decision shot", "decision plain").replace("to_hit", "points")
    rs = _ruleset(compiler, TO_HIT + SHOT + plain)
    data = PageModel(rs, rs.languages[0]).data(None)
    assert [d["id"] for d in data["decisions"]] == ["shot", "plain"]
    mods, skill = data["decisions"][0]["inputs"]
    assert (mods["kind"], mods["label"], skill["kind"]) == (
        "items",
        "mods (total of To-hit)",
        "number",
    )
    assert [i["id"] for i in mods["items"]] == list(ITEMS)


def test_a_worked_example_gives_the_items_in_parentheses(compiler: Compiler) -> None:
    """Issue 40: the items are a list, even one of them (E457 without the parentheses)."""
    example = 'example one "One" fr "Un" de "Eins" ru "Один" {\n  shot(aimed, 3) = hit\n}\n'
    compiled = compile_snippet(compiler, HEADER + TO_HIT + SHOT + example)
    said = [(d.code, d.message) for d in compiled.diagnostics if d.is_error]
    assert [code for code, _ in said] == ["E457"]
    assert "give the items of 'to_hit' in parentheses" in said[0][1]
    listed = example.replace("shot(aimed, 3)", "shot((aimed), 3)")
    compiled = compile_snippet(compiler, HEADER + TO_HIT + SHOT + listed)
    assert [d.code for d in compiled.diagnostics if d.is_error] == []


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("### A decision that reads a modifier's total") :]
    start = section.index("```terrain\n") + len("```terrain\n")
    snippet = section[start : section.index("```", start)]
    m = import_rendered(_ruleset(compiler, snippet), tmp_path, "modifier_total_docs")
    assert m.shot(["aimed"], 3).id == "hit"
    assert m.shot(["aimed", "smoke"], 4).id == "miss"
