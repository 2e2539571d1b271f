"""An outcome's effect keyed by unit type or keyword (issue 40, item 7, "rules that feed rules":
"a hit does 2 damage, 3 to infantry"; "a fall: mechs take 1d6, infantry 2"). In a dice row's
or a results table's outcome's effects, ``damage & infantry 3`` is the value of ``damage`` for
that unit type or keyword, beside the value for everyone, read as a cost cell reads keywords
(a unit's own entry, then its keyword's by precedence, then the value for everyone). E473-E476
for its misuse. The Python and JavaScript modules answer ``effect(table, outcome, name, mode)``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import js as js_target
from rulesdsl.codegen import plan as module_plan
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics import effects as semantics_effects
from rulesdsl.versions import diff as semantic
from tests import js_queries, js_queries_unitvalue, test_js_target, typescript
from tests.conftest import compile_snippet, import_rendered, render

HEADER = (
    'ruleset snippet "Demo"\nversion 1.0.0\nunits distance hex, cost MP\n'
    'mode mech "Mech"\nmode infantry "Infantry"\nmode jump_infantry "Jump infantry"\n'
    'group foot "On foot" : infantry, jump_infantry\n'
    'layer terrain "Terrain" {\n  columns cost\n  clear "Clear" | 1\n}\n'
)
FALL = """dice fall "Falling" : 1d6 {
  1-3 short "Short fall" | falls 1d6, falls & foot 2
  4+ long "Long fall"   | falls 2d6, falls & foot 4, falls & jump_infantry 1, prone
}
"""
SHOT = """dice shot "Shot" : 2d6 by range {
  column near "Near" up to 3 hex
  column far "Far" above 3 hex
  outcome miss "Miss"
  outcome hit "Hit" | damage 2, damage & infantry 3
  2-7 | miss | miss
  8+  | hit  | miss
}
"""


def _ruleset(compiler: Compiler, text: str, tmp_path: Path) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + text, tmp_path)
    assert compiled.ok, [d.message for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    return compiled.ruleset


def _codes(compiler: Compiler, text: str, tmp_path: Path) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, HEADER + text, tmp_path)
    lines = HEADER.count("\n")
    return [(d.code, d.pos.line - lines, d.pos.column) for d in compiled.diagnostics if d.pos]


def test_a_fall_by_unit_type_reads_the_unit_then_its_keyword_then_everyone(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler, FALL, tmp_path)

    def falls(row: str, mode: str) -> ir.Value:
        return semantics_effects.unit_effect(rs, "fall", row, "falls", mode)

    assert falls("long", "mech") == ir.DiceValue(2, 6, 0)
    assert falls("long", "infantry") == ir.Number(4)
    assert falls("long", "jump_infantry") == ir.Number(1)
    assert falls("short", "mech") == ir.DiceValue(1, 6, 0)
    assert falls("short", "jump_infantry") == ir.Number(2)
    assert semantics_effects.unit_effect(rs, "fall", "long", "prone", "infantry") == ir.Flag(True)


def test_a_results_outcome_by_unit_type_keeps_its_value_for_everyone(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler, SHOT, tmp_path)
    assert semantics_effects.unit_effect(rs, "shot", "hit", "damage", "infantry") == ir.Number(3)
    assert semantics_effects.unit_effect(rs, "shot", "hit", "damage", "mech") == ir.Number(2)
    (hit,) = [o for o in rs.results_tables[0].outcomes if o.id == "hit"]
    assert hit.effects == {"damage": ir.Number(2)}
    assert semantics_effects.uses_unit_effects(rs)


def test_a_ruleset_without_keyed_effects_keeps_them_empty(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(
        compiler,
        FALL.replace(", falls & foot 2", "").split("  4+")[0] + '  4+ long "Long" | falls 2d6\n}\n',
        tmp_path,
    )
    assert not semantics_effects.uses_unit_effects(rs)
    assert all(not r.by_unit for r in rs.dice_tables[0].rows)


@pytest.mark.parametrize(
    ("cell", "code", "column"),
    [
        ("falls 1d6, falls & foo 2", "E473", 47),
        ("falls & foot 2", "E474", 28),
        ("falls 1d6, falls & foot 2, falls & foot 3", "E475", 63),
        ("cost 1, cost & foot 2", "E476", 43),
    ],
)
def test_misused_keyed_effects_are_reported_at_their_place(
    compiler: Compiler, tmp_path: Path, cell: str, code: str, column: int
) -> None:
    rows = f'  1-3 short "Short fall" | {cell}\n  4+ long "Long" | falls 2d6\n'
    text = f'dice fall "Falling" : 1d6 {{\n{rows}}}\n'
    assert (code, 2, column) in _codes(compiler, text, tmp_path)


def test_a_keyed_effect_is_no_longer_a_stray_combination(
    compiler: Compiler, tmp_path: Path
) -> None:
    assert not [c for c, *_ in _codes(compiler, FALL, tmp_path) if c == "E234"]


def test_the_module_answers_each_unit_type_as_the_semantics_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler, FALL + SHOT, tmp_path)
    m = import_rendered(rs, tmp_path, "unit_effects_py")
    asked = 0
    for table, outcome, plain, _ in semantics_effects.keyed_outcomes(rs):
        for name in plain:
            for mode in ("mech", "infantry", "jump_infantry"):
                expected = semantics_effects.unit_effect(rs, table, outcome, name, mode)
                assert m.effect(table, outcome, name, mode) == _py(m, expected)
                asked += 1
    assert asked == 12
    assert m.effect("fall", "long", "falls", "mech") == m.Dice(2, 6, 0)
    assert m.effect("shot", "hit", "damage", "infantry") == 3


def _py(m: Any, value: ir.Value) -> object:
    match value:
        case ir.Number(value=n):
            return n
        case ir.DiceValue(count=c, sides=s, bonus=b):
            return m.Dice(c, s, b)
        case ir.Flag(value=f):
            return f
        case _:
            raise AssertionError(value)


@pytest.mark.parametrize(
    ("args", "error", "says"),
    [
        (("falls", "long", "falls", "mech"), "UnknownName", "dice table 'falls'"),
        (("fall", "hit", "falls", "mech"), "UnknownName", "outcome of 'fall' 'hit'"),
        (("fall", "long", "damage", "mech"), "UnknownName", "effect of 'long' 'damage'"),
        (("fall", "long", "falls", "tank"), "UnknownName", "mode 'tank'"),
        (("fall", "long", "falls", None), "ArgumentTypeError", "'mode'"),
        ((["fall"], "long", "falls", "mech"), "ArgumentTypeError", "'table'"),
    ],
)
def test_the_module_refuses_names_it_does_not_know(
    compiler: Compiler, tmp_path: Path, args: tuple[object, ...], error: str, says: str
) -> None:
    m = import_rendered(_ruleset(compiler, FALL, tmp_path), tmp_path, "unit_effects_refusals")
    with pytest.raises(getattr(m, error)) as raised:
        m.effect(*args)
    assert says in str(raised.value)


def test_a_module_without_keyed_effects_has_no_trace_of_them(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler, SHOT.replace(", damage & infantry 3", ""), tmp_path)
    plan = module_plan.build(rs)
    assert "_UNIT_EFFECTS" not in render(rs)
    assert "effect" not in import_rendered(rs, tmp_path, "no_unit_effects").__all__
    js = js_target.emit(plan)
    assert "_UNIT_EFFECTS" not in js["snippet.js"] and "function effect(" not in js["snippet.d.ts"]


@pytest.fixture
def node() -> str:
    return test_js_target._needed("node")


def test_the_javascript_module_answers_as_python_does(
    compiler: Compiler, node: str, tmp_path: Path
) -> None:
    rs = _ruleset(compiler, FALL + SHOT, tmp_path)
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "unit_effects_js")
    module = test_js_target.write_package(plan, tmp_path / "unit_effects")
    queries = list(js_queries_unitvalue.unit_effect_queries(random.Random(40), plan))
    assert len(queries) == 300
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    assert {e["error"] for e in expected if "error" in e} >= {"UnknownName", "ArgumentTypeError"}
    assert len([e for e in expected if "answer" in e]) > 150
    pairs = zip(queries, expected, got, strict=True)
    assert [(q, e, g) for q, e, g in pairs if not js_queries.same(e, g)][:5] == []
    declared = js_target.emit(plan)["snippet.d.ts"]
    assert 'export declare function effect(\n  table: "fall" | "shot",' in declared


def test_diff_grades_a_value_by_unit_type_as_rules_and_a_kind_change_as_breaking(
    compiler: Compiler, tmp_path: Path
) -> None:
    base = _ruleset(compiler, FALL + SHOT, tmp_path)
    more = _ruleset(compiler, FALL + SHOT.replace("infantry 3", "infantry 4"), tmp_path)
    found = [(c.level, c.path) for c in semantic.diff(base, more).changes]
    assert found == [("rules", "shot.hit.damage.infantry")]
    dice = _ruleset(compiler, FALL.replace("falls & foot 2", "falls & foot 1d3") + SHOT, tmp_path)
    found = [(c.level, c.path) for c in semantic.diff(base, dice).changes]
    assert found == [("breaking", "fall.short.falls.foot")]
    plain = _ruleset(compiler, FALL.replace(", falls & jump_infantry 1", "") + SHOT, tmp_path)
    found = [(c.level, c.path) for c in semantic.diff(base, plain).changes]
    assert found == [("rules", "fall.long.falls.jump_infantry")]


def test_a_house_rule_overrides_the_values_by_unit_type_and_is_checked_again(
    tmp_path: Path,
) -> None:
    (tmp_path / "snippet.terrain").write_text(HEADER + FALL, "utf-8")
    house = tmp_path / "house.terrain"
    head = 'ruleset house "House"\nversion 1.0.0\nextends snippet@^1.0\n'
    house.write_text(head + "override fall.long | falls 2d6, falls & infantry 3\n", "utf-8")
    compiled = Compiler().compile_file(house)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    m = import_rendered(compiled.ruleset, tmp_path, "unit_effects_house")
    assert m.effect("fall", "long", "falls", "infantry") == 3
    assert m.effect("fall", "long", "falls", "jump_infantry") == m.Dice(2, 6, 0)
    house.write_text(head + "override fall.long | falls 2d6, falls & tank 3\n", "utf-8")
    errors = [d.code for d in Compiler().compile_file(house).diagnostics if d.is_error]
    assert errors == ["E473"]


LANGS = (
    'ruleset snippet "Demo" fr "Démo" de "Demo" ru "Демо"\nversion 1.0.0\nlanguages en fr de ru\n'
    "units distance hex, cost MP\n"
    'mode mech "Mech" fr "Méca" de "Mech" ru "Шагоход"\n'
    'mode infantry "Infantry" fr "Infanterie" de "Infanterie" ru "Пехота"\n'
    'layer terrain "Terrain" fr "Terrain" de "Gelände" ru "Местность" {\n  columns cost\n'
    '  clear "Clear" fr "Dégagé" de "Offen" ru "Открытая" | 1\n}\n'
    'dice fall "Falling" fr "Chute" de "Sturz" ru "Падение" : 1d6 {\n'
    '  1-3 short "Short" fr "Courte" de "Kurz" ru "Короткое" | falls 1d6, falls & infantry 2\n'
    '  4+ long "Long" fr "Longue" de "Lang" ru "Долгое" | falls 2d6\n}\n'
)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "falls 1d6 (Infantry: 2)"),
        ("fr", "falls 1D6 (Infanterie : 2)"),
        ("de", "falls 1W6 (Infanterie: 2)"),
        ("ru", "falls: 1к6 (Пехота: 2)"),
    ],
)
def test_the_sheet_prints_the_values_by_unit_type(tmp_path: Path, lang: str, said: str) -> None:
    ruleset = tmp_path / "snippet.terrain"
    ruleset.write_text(LANGS, "utf-8")
    target = tmp_path / f"snippet.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert said in target.read_text("utf-8").replace("\u00a0", " ").replace("\u202f", " ")


def test_yaml_writes_the_values_by_unit_type_as_written_and_checks_them_at_their_line(
    compiler: Compiler, tmp_path: Path
) -> None:
    source, errors = Parser().parse(HEADER + FALL + SHOT, "snippet.terrain")
    assert source is not None and not errors
    yaml_text = to_yaml(source)
    assert "effects: falls 2d6, falls & foot 4, falls & jump_infantry 1, prone" in yaml_text
    assert "effects: 'damage 2, damage & infantry 3'" in yaml_text
    (tmp_path / "snippet.yaml").write_text(yaml_text, "utf-8")
    compiled = compiler.compile_file(tmp_path / "snippet.yaml")
    assert compiled.ruleset is not None
    assert semantics_effects.unit_effect(compiled.ruleset, "shot", "hit", "damage", "infantry") == (
        ir.Number(3)
    )
    assert "falls & foot 4" in to_terrain(yaml_text)
    bad = yaml_text.replace("falls & foot 2", "falls & feet 2")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "snippet.yaml").write_text(bad, "utf-8")
    line = bad.splitlines().index("      effects: falls 1d6, falls & feet 2") + 1
    checked = Compiler().compile_file(tmp_path / "bad" / "snippet.yaml")
    found = [(d.code, d.pos.line) for d in checked.diagnostics if d.pos]
    assert found == [("E473", line)]


def test_the_csv_chart_of_a_dice_table_writes_the_values_by_unit_type(tmp_path: Path) -> None:
    (tmp_path / "snippet.terrain").write_text(HEADER + FALL, "utf-8")
    out = tmp_path / "fall.csv"
    args = ["export", str(tmp_path / "snippet.terrain"), "--table", "fall", "--format", "csv"]
    assert main([*args, "-o", str(out)]) == 0
    assert '"falls 1d6, falls & foot 2"' in out.read_text("utf-8")


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("### Effects by unit type") :]
    start = section.index("```terrain\n") + len("```terrain\n")
    snippet = section[start : section.index("```", start)]
    head = HEADER[: HEADER.index("mode ")] + HEADER[HEADER.index("layer ") :]
    compiled = compile_snippet(compiler, head + snippet, tmp_path)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    m = import_rendered(compiled.ruleset, tmp_path, "unit_effects_docs")
    assert m.effect("fall", "long", "damage", "jump_infantry") == 1
    assert m.effect("fall", "long", "damage", "infantry") == 4
    assert m.effect("fall", "long", "damage", "mech") == m.Dice(2, 6, 0)
    assert m.effect("shot", "hit", "damage", "infantry") == 3
    assert m.effect("shot", "hit", "damage", "mech") == 2


ARMOURED = 'group armoured "Armoured" : jump_infantry, mech\n'
CLASH = (
    'dice fall "Falling" : 1d6 {\n  1+ any "Any" | falls 1, falls & foot 2, falls & armoured 3\n}\n'
)


def test_two_keywords_that_disagree_with_no_precedence_are_reported(
    compiler: Compiler, tmp_path: Path
) -> None:
    said = [(c, line) for c, line, _ in _codes(compiler, ARMOURED + CLASH, tmp_path)]
    assert said == [("E477", 3)]
    rs = _ruleset(compiler, ARMOURED + "precedence armoured, foot\n" + CLASH, tmp_path)
    assert semantics_effects.unit_effect(rs, "fall", "any", "falls", "jump_infantry") == (
        ir.Number(3)
    )
    same = CLASH.replace("armoured 3", "armoured 2")
    assert _codes(compiler, ARMOURED + same, tmp_path) == []


@typescript.TSC
def test_the_declarations_type_check_a_consumer_of_effect(
    compiler: Compiler, node: str, tmp_path: Path, pytestconfig: Any
) -> None:
    rs = _ruleset(compiler, FALL + SHOT, tmp_path)
    test_js_target.write_package(module_plan.build(rs), tmp_path / "snippet")
    consumer = (
        'import { effect } from "./snippet/snippet.js";\n'
        'const hit = effect("shot", "hit", "damage", "infantry");\n'
        "console.log(hit);\n"
        '// @ts-expect-error: "tank" is no unit type\n'
        'effect("fall", "long", "falls", "tank");\n'
    )
    (tmp_path / "consumer.mts").write_text(consumer, "utf-8")
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "consumer.mts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
