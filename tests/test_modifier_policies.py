"""Modifier policies (`combine`, `clamp`), modifiers keyed by two contexts (`by a, b`, `a & b`)
and keywords (`mode NAME : groups`, `precedence`): the module's answers, and every misuse with
its code, line and column (issue 11, items 3-5). The example is tests/data/keywords_demo.terrain.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl.compiler import Compiler
from tests.conftest import ROOT, compile_snippet, import_rendered

DEMO = ROOT / "tests" / "data" / "keywords_demo.terrain"


def load_demo(compiler: Compiler, folder: Path) -> ModuleType:
    """The demo's generated module, written to ``folder`` and imported."""
    compiled = compiler.compile_file(DEMO)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    return import_rendered(compiled.ruleset, folder, "keywords_demo_module")


@pytest.fixture(scope="module")
def demo(compiler: Compiler, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return load_demo(compiler, tmp_path_factory.mktemp("demo"))


# ---- combine policies and clamp -------------------------------------------------------------


def test_combine_highest_counts_only_the_best_cover(demo: ModuleType) -> None:
    assert demo.modifier("cover", "light", "heavy") == 2
    assert demo.modifier("cover", "light") == 1
    assert demo.modifier("cover") == 0
    assert demo.COMBINE["cover"] == "highest"


def test_combine_lowest_counts_only_the_worst(demo: ModuleType) -> None:
    assert demo.modifier("penalty", "moved", "pinned") == -2
    assert demo.COMBINE["penalty"] == "lowest"


def test_combine_once_counts_each_source_once(demo: ModuleType) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert demo.modifier("aim", "aimed", "aimed") == 1
        assert demo.modifier("aim", "aimed", "spotter", "spotter") == 3


def test_clamp_bounds_the_total_on_both_sides(demo: ModuleType) -> None:
    assert demo.CLAMP["shooting"] == (-1, 1)
    # +1 for woods, +2 for ranged & fly: 3, clamped to +1
    assert demo.modifier("shooting", "woods", "smoke", attack="ranged", mode="jetbike") == 1
    # smoke -1 twice: -2, clamped to -1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert demo.modifier("shooting", "smoke", "smoke", "clear") == -1


def test_a_modifier_with_no_policy_still_sums(demo: ModuleType) -> None:
    assert demo.COMBINE["speed"] == "sum"
    assert "speed" not in demo.CLAMP


# ---- two contexts ---------------------------------------------------------------------------


def test_a_combination_wins_over_single_values_and_the_general_one(demo: ModuleType) -> None:
    # ruins: +1 for all, tank -1, ranged & tank +1
    assert demo.modifier("shooting", "ruins", attack="ranged", mode="tank") == 1
    assert demo.modifier("shooting", "ruins", attack="melee", mode="tank") == -1
    assert demo.modifier("shooting", "ruins", attack="melee", mode="trooper") == 1
    assert demo.modifier("shooting", "ruins") == 1


def test_a_combination_through_a_group_reaches_its_members(demo: ModuleType) -> None:
    # woods: +1, melee 0, ranged & fly +2 (clamped to +1); jump and jetbike fly
    assert demo.modifier("shooting", "woods", attack="melee", mode="jump") == 0
    assert demo.modifier("shooting", "woods", "smoke", attack="ranged", mode="jump") == 1
    assert demo.modifier("shooting", "woods", "smoke", attack="ranged", mode="tank") == 0


def test_either_context_may_be_given_alone(demo: ModuleType) -> None:
    assert demo.modifier("shooting", "ruins", mode="tank") == -1
    assert demo.modifier("shooting", "woods", attack="melee") == 0


def test_an_unknown_context_names_both(demo: ModuleType) -> None:
    with pytest.raises(demo.UnknownName, match="did you mean 'attack' or 'mode'"):
        demo.modifier("shooting", "woods", weapon="laser")
    with pytest.raises(demo.UnknownName, match="value of 'mode'"):
        demo.modifier("shooting", "woods", mode="plane")
    with pytest.raises(demo.ArgumentError):
        demo.modifier("shooting", "woods", attack=3)


# ---- keywords -------------------------------------------------------------------------------


def test_a_mode_names_its_keywords_and_joins_those_groups(demo: ModuleType) -> None:
    assert demo.MODES["jetbike"].keywords == ("vehicle", "fly")
    assert demo.MODES["trooper"].keywords == ()
    assert demo.GROUPS["fly"] == ("jump", "jetbike")
    assert demo.GROUPS["vehicle"] == ("jetbike", "tank")
    assert demo.GROUPS["infantry"] == ("trooper", "jump")
    assert demo.PRECEDENCE == (("fly", "vehicle"), ("infantry", "fly"))


def test_precedence_picks_the_group_whose_cost_counts(demo: ModuleType) -> None:
    # woods: 2, vehicle 3, fly 1; fly wins over vehicle
    assert demo.move_cost("jetbike", "woods") == 1
    assert demo.move_cost("tank", "woods") == 3
    # `precedence infantry, fly`: the cell names no value for infantry, so the jump trooper,
    # infantry first, pays what everyone pays (issue 25 item 7; it paid fly's 1 before)
    assert demo.move_cost("jump", "woods") == 2
    # ruins: 2, vehicle impassable: fly comes before vehicle and the cell does not name it, so
    # the jetbike pays the 2 everyone pays, as a flyer (it was impassable before issue 25)
    assert demo.move_cost("jetbike", "ruins") == 2
    assert demo.move_cost("tank", "ruins") == demo.IMPASSABLE


def test_precedence_picks_the_group_whose_modifier_counts(demo: ModuleType) -> None:
    # fast: +1, vehicle +2, fly +3
    assert demo.modifier("speed", "fast", mode="jetbike") == 3
    assert demo.modifier("speed", "fast", mode="tank") == 2
    assert demo.modifier("speed", "fast", mode="trooper") == 1
    # jump: infantry comes before fly and the cell does not name it: the value for everyone
    assert demo.modifier("speed", "fast", mode="jump") == 1


# ---- misuse ---------------------------------------------------------------------------------

HEADER = """ruleset demo "Demo"
version 1.0.0
edition 2026.12
units distance in, cost MP
group fly "Fly"
group vehicle "Vehicle"
mode walker "Walker"
mode jetbike "Jetbike" : vehicle, fly
context attack "Attack" {
  melee "Melee"
  ranged "Ranged"
}
"""
LINES = HEADER.count("\n")


def errors(compiler: Compiler, body: str) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, HEADER + body)
    return [
        (d.code, d.pos.line - LINES, d.pos.column)
        for d in compiled.diagnostics
        if d.is_error and d.pos is not None
    ]


def test_an_unknown_combine_policy_is_e230(compiler: Compiler) -> None:
    body = 'modifier m "M" combine best {\n  a "A" | +1\n}\n'
    assert errors(compiler, body) == [("E230", 1, 24)]


def test_a_clamp_written_backwards_is_e231(compiler: Compiler) -> None:
    body = 'modifier m "M" clamp +1 to -1 {\n  a "A" | +1\n}\n'
    assert errors(compiler, body) == [("E231", 1, 16)]


def test_a_cost_ambiguous_for_a_mode_in_two_groups_is_e232(compiler: Compiler) -> None:
    body = 'layer t "T" {\n  woods "Woods" | 2, vehicle 3, fly 1\n}\n'
    compiled = compile_snippet(compiler, HEADER + body)
    [diag] = [d for d in compiled.diagnostics if d.is_error]
    assert diag.pos is not None
    assert (diag.code, diag.pos.line - LINES, diag.pos.column) == ("E232", 2, 19)
    assert "'woods'" in diag.message and "'jetbike'" in diag.message
    assert "'fly' and 'vehicle'" in diag.message
    assert diag.hint is not None and "precedence fly, vehicle" in diag.hint


def test_precedence_or_an_own_value_or_agreeing_groups_resolve_e232(compiler: Compiler) -> None:
    cells = ("2, vehicle 3, fly 1", "2, vehicle 3, fly 1, jetbike 2", "2, vehicle 3, fly 3")
    for n, cell in enumerate(cells):
        prec = "precedence fly, vehicle\n" if n == 0 else ""
        assert errors(compiler, prec + f'layer t "T" {{\n  woods "Woods" | {cell}\n}}\n') == []


def test_a_modifier_by_mode_ambiguous_through_groups_is_e232(compiler: Compiler) -> None:
    body = 'modifier m "M" by mode {\n  fast "Fast" | +1, vehicle +2, fly +3\n}\n'
    assert errors(compiler, body) == [("E232", 2, 17)]


def test_two_single_context_values_that_disagree_are_e233(compiler: Compiler) -> None:
    body = 'modifier m "M" by attack, mode {\n  a "A" | +1, ranged +2, jetbike -1\n}\n'
    assert errors(compiler, body) == [("E233", 2, 11)]
    fixed = body.replace("jetbike -1", "jetbike -1, ranged & jetbike 0")
    assert errors(compiler, fixed) == []


def test_a_combination_where_no_two_contexts_read_it_is_e234(compiler: Compiler) -> None:
    cost = 'layer t "T" {\n  woods "Woods" | 2, ranged & fly 1\n}\n'
    assert errors(compiler, cost) == [("E234", 2, 22)]
    single = 'modifier m "M" by attack {\n  a "A" | +1, ranged & fly 1\n}\n'
    assert errors(compiler, single) == [("E234", 2, 15)]
    when = 'modifier m "M" {\n  a "A" | +1\n  b "B" | +1\n  when a, b | melee & fly 1\n}\n'
    assert errors(compiler, when) == [("E234", 4, 15)]


def test_precedence_lines_that_contradict_are_e235(compiler: Compiler) -> None:
    body = "precedence fly, vehicle\nprecedence vehicle, fly\n"
    assert ("E235", 2, 12) in errors(compiler, body)
    assert errors(compiler, "precedence fly, fly\n") == [("E235", 1, 17)]


def test_a_modifier_keyed_twice_by_one_context_is_e236(compiler: Compiler) -> None:
    body = 'modifier m "M" by attack, attack {\n  a "A" | +1\n}\n'
    assert errors(compiler, body) == [("E236", 1, 27)]


def test_keywords_and_precedence_name_declared_groups(compiler: Compiler) -> None:
    assert errors(compiler, 'mode hover "Hover" : flyer\n') == [("E101", 1, 22)]
    assert errors(compiler, "precedence fly, wheels\n") == [("E101", 1, 17)]


def test_a_combination_value_must_belong_to_its_context(compiler: Compiler) -> None:
    body = 'modifier m "M" by attack, mode {\n  a "A" | +1, thrown & fly 1\n}\n'
    assert errors(compiler, body) == [("E101", 2, 15)]


def test_a_group_with_no_members_is_a_keyword(compiler: Compiler, tmp_path: Path) -> None:
    compiled = compile_snippet(compiler, HEADER)
    assert compiled.ok and compiled.ruleset is not None
    groups = {g.id: g.members for g in compiled.ruleset.groups}
    assert groups == {"fly": ("jetbike",), "vehicle": ("jetbike",)}


# ---- the YAML authoring format, convert and fmt ---------------------------------------------


def test_the_demo_round_trips_through_yaml_with_the_same_ir(
    compiler: Compiler, tmp_path: Path
) -> None:
    from rulesdsl.commands.cli import main
    from rulesdsl.interchange.fmt import format_text
    from rulesdsl.ir.serial import to_data

    yml, back = tmp_path / "keywords_demo.yaml", tmp_path / "back" / "keywords_demo.terrain"
    back.parent.mkdir()
    assert main(["convert", str(DEMO), "-o", str(yml)]) == 0
    text = yml.read_text("utf-8")
    assert "keywords: [vehicle, fly]" in text and "combine: highest" in text
    assert "context: [attack, mode]" in text and "clamp: ['-1', '+1']" in text
    assert main(["convert", str(yml), "-o", str(back)]) == 0
    assert format_text(back.read_text("utf-8")) == back.read_text("utf-8")
    original = DEMO.read_text("utf-8")
    assert format_text(original) == original
    rulesets = [compiler.compile_file(p).ruleset for p in (DEMO, yml, back)]
    data = [{k: v for k, v in to_data(r).items() if k != "digest"} for r in rulesets if r]
    assert len(data) == 3 and data[0] == data[1] == data[2]
    assert data[0]["precedence"][0]["groups"] == ["fly", "vehicle"]


YAML_HEADER = """ruleset: demo
version: 1.0.0
units: {distance: in, cost: MP}
groups:
  fly: Fly
  vehicle: Vehicle
modes:
  jetbike: {label: Jetbike, keywords: [vehicle, fly]}
"""


def yaml_errors(compiler: Compiler, body: str) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, YAML_HEADER + body, name="demo.yaml")
    lines = YAML_HEADER.count("\n")
    return [
        (d.code, d.pos.line - lines, d.pos.column)
        for d in compiled.diagnostics
        if d.is_error and d.pos is not None
    ]


def test_yaml_misuse_has_the_same_codes(compiler: Compiler) -> None:
    policy = "modifiers:\n  m:\n    combine: best\n    rows: {a: '+1'}\n"
    assert yaml_errors(compiler, policy) == [("E230", 3, 14)]
    clamp = "modifiers:\n  m:\n    clamp: [1, -1]\n    rows: {a: '+1'}\n"
    assert yaml_errors(compiler, clamp) == [("E231", 3, 12)]
    cost = "layers:\n  t:\n    rows:\n      woods: '2, vehicle 3, fly 1'\n"
    assert yaml_errors(compiler, cost) == [("E232", 4, 15)]
    assert yaml_errors(compiler, "precedence:\n- [fly, vehicle]\n") == []
    both = "precedence:\n- [fly, vehicle]\n- groups: [vehicle, fly]\n"
    assert ("E235", 3, 12) in yaml_errors(compiler, both)


def test_a_yaml_clamp_bound_that_is_not_a_number_is_a_diagnostic(compiler: Compiler) -> None:
    # found by the long fuzz run: `clamp: [def, '+1']` reached the lowering as a name and
    # ended in an AssertionError; YAML bounds are read as the DSL's signed numbers
    clamp = "modifiers:\n  m:\n    clamp: [def, '+1']\n    rows: {a: '+1'}\n"
    assert yaml_errors(compiler, clamp) == [("E001", 3, 13)]
    unit = "modifiers:\n  m:\n    clamp: [2 in, '+1']\n    rows: {a: '+1'}\n"
    assert yaml_errors(compiler, unit) == [("E001", 3, 15)]


# ---- variants -------------------------------------------------------------------------------

HOUSE = """ruleset kd_house "House rules" fr "Règles maison"
version 1.0.0
extends keywords_demo@1.0.0
languages en fr
remove vehicle
group armoured "Armoured" fr "Blindé"
mode walker "Walker" fr "Marcheur" : armoured, infantry
precedence armoured, infantry
override woods.shooting | +1, melee 0, ranged & jump +1
"""


def test_a_variant_removes_a_keyword_adds_one_and_overrides_a_combination(
    compiler: Compiler, tmp_path: Path
) -> None:
    import shutil

    shutil.copy(DEMO, tmp_path)
    compiled = compile_snippet(compiler, HOUSE, tmp_path, "kd_house.terrain")
    assert compiled.ok, [(d.code, d.message) for d in compiled.diagnostics]
    rs = compiled.ruleset
    assert rs is not None
    modes = {m.id: m.keywords for m in rs.modes}
    assert modes["jetbike"] == ("fly",) and modes["walker"] == ("armoured", "infantry")
    # the removed group leaves the precedence lines; one left with one group goes
    assert [p.groups for p in rs.precedence] == [("infantry", "fly"), ("armoured", "infantry")]
    shooting = next(m for m in rs.modifiers if m.id == "shooting")
    assert [(p.first, p.second) for p in shooting.pairs["woods"]] == [("ranged", "jump")]


# ---- sheets ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            [
                "Cover: only the highest value counts.",
                "Penalty: only the lowest value counts.",
                "Aim: each source counts once, however often it is given.",
                "Shooting: the total stays between -1 and +1.",
                "Jetbike: Vehicle, Fly",
                "When several give a value, the first counts: Fly > Vehicle.¹",
                "Ranged & Fly",  # the keyword its unit types make up (issue 43)
            ],
        ),
        (
            "fr",
            [
                "Couvert : seule la valeur la plus haute compte.",
                "Visée : le total reste compris entre 0 et +3.",
                "Motojet : Véhicule, Vol",
                "Quand plusieurs donnent une valeur, la première compte : Infanterie > Vol.",
            ],
        ),
        (
            "ru",
            [
                "Cover: учитывается только наибольшее значение.",
                "Aim: итог остаётся в пределах от 0 до +3.",
                "Если значение дают несколько, учитывается первое: Fly > Vehicle.",
            ],
        ),
    ],
)
def test_the_sheet_prints_policies_clamps_combinations_and_keywords(
    compiler: Compiler, lang: str, expected: list[str]
) -> None:
    from rulesdsl.printed.sheet_model import build_sheet
    from rulesdsl.printed.sheets import md_escape, render_markdown

    rs = compiler.compile_file(DEMO).ruleset
    assert rs is not None
    # French spaces before a colon are narrow no-break ones (issue 23; test_print_typography)
    md = render_markdown(build_sheet(rs, lang)).replace("\u202f", " ")
    for text in expected:
        assert md_escape(text) in md, text


# ---- diff -----------------------------------------------------------------------------------


def graded(compiler: Compiler, old_text: str, new_text: str) -> list[tuple[str, str, str]]:
    from rulesdsl.versions.diff import diff

    old = compile_snippet(compiler, old_text).ruleset
    new = compile_snippet(compiler, new_text).ruleset
    assert old is not None and new is not None
    return [(c.level, c.action, c.path) for c in diff(old, new).changes]


def test_a_policy_change_that_changes_answers_is_breaking(compiler: Compiler) -> None:
    text = DEMO.read_text("utf-8")
    summed = text.replace('"Couvert" combine highest', '"Couvert"')
    assert graded(compiler, text, summed) == [("breaking", "changed", "cover.combine")]


def test_a_policy_change_that_changes_no_answer_is_a_rules_change(compiler: Compiler) -> None:
    # one factor: its highest value is its lowest (given twice too)
    text = HEADER + 'modifier m "M" combine highest {\n  a "A" | +1\n}\n'
    lowest = text.replace("combine highest", "combine lowest")
    assert graded(compiler, text, lowest) == [("rules", "changed", "m.combine")]


def test_a_clamp_change_is_graded_by_its_answers(compiler: Compiler) -> None:
    text = DEMO.read_text("utf-8")
    wider = text.replace("clamp -1 to +1", "clamp -1 to +2")
    assert graded(compiler, text, wider) == [("breaking", "changed", "shooting.clamp")]
    loose = text.replace("clamp 0 to +3", "clamp -1 to +3")  # aim is never below 0
    assert graded(compiler, text, loose) == [("rules", "changed", "aim.clamp")]


def test_a_precedence_change_is_graded_by_its_answers(compiler: Compiler) -> None:
    text = DEMO.read_text("utf-8")
    swapped = text.replace("precedence fly, vehicle", "precedence vehicle, fly")
    changes = graded(compiler, text, swapped)
    assert ("breaking", "changed", "precedence") in changes
    # the costs and values it changes are listed too
    assert ("rules", "changed", "woods.jetbike") in changes
    extra = text + 'group heavy_gear_kw "Heavy" fr "Lourd"\nprecedence heavy_gear_kw, fly\n'
    assert ("rules", "changed", "precedence") in graded(compiler, text, extra)


def test_a_combination_change_is_a_value_change(compiler: Compiler) -> None:
    text = DEMO.read_text("utf-8")
    changed = text.replace("ranged & tank +1", "ranged & tank +2")
    assert graded(compiler, text, changed) == [("rules", "changed", "ruins.shooting.ranged&tank")]


# ---- editors --------------------------------------------------------------------------------


def test_the_textmate_grammar_knows_the_new_words() -> None:
    from tests.test_editors import scopes_of, tokenize

    head = scopes_of('modifier shooting "S" by attack, mode combine highest clamp -1 to +1 {')
    assert head["combine"] == head["highest"] == head["clamp"] == "keyword.control.terrain"
    assert head["to"] == "keyword.control.terrain"
    assert scopes_of("precedence fly, vehicle")["precedence"] == "keyword.other.terrain"
    assert scopes_of("  woods | +1, ranged & fly +2")["&"] == "keyword.operator.terrain"
    unscoped = [
        text
        for line in DEMO.read_text("utf-8").splitlines()
        for text, scope in tokenize(line)
        if not scope and text.strip()
    ]
    assert unscoped == []


def test_a_variant_reopens_a_modifier_to_change_its_policy_and_clamp(
    compiler: Compiler, tmp_path: Path
) -> None:
    import shutil

    from rulesdsl.printed.sheet_model import build_sheet
    from rulesdsl.printed.sheets import render_markdown

    shutil.copy(DEMO, tmp_path)
    text = (
        'ruleset kd_sum "Summed cover" fr "Couvert cumulé"\nversion 1.0.0\n'
        "extends keywords_demo@1.0.0\nlanguages en fr\n"
        "modifier cover combine sum\n"
        '    note "Cover adds up in this campaign." fr "Le couvert se cumule."\n'
        "modifier aim clamp 0 to +2\n"
    )
    compiled = compile_snippet(compiler, text, tmp_path, "kd_sum.terrain")
    assert compiled.ok, [(d.code, d.message) for d in compiled.diagnostics]
    rs = compiled.ruleset
    assert rs is not None
    mods = {m.id: m for m in rs.modifiers}
    assert mods["cover"].combine == "sum" and mods["aim"].clamp is not None
    assert (mods["aim"].clamp.low, mods["aim"].clamp.high) == (0, 2)
    from rulesdsl.variants.changelog import path_text

    policies = [(c.action, path_text(c.path)) for c in rs.changes if c.path.kind == "policy"]
    assert policies == [("override", "cover.combine"), ("override", "aim.clamp")]
    md = render_markdown(build_sheet(rs, "en"))
    assert "changed: Cover: only the highest → added up. Cover adds up in this campaign." in md
    assert "changed: Aim: 0–3 → 0–2" in md  # noqa: RUF001 (the sheet's en dash)
    assert "Cover: only the highest value counts." not in md
    fr = render_markdown(build_sheet(rs, "fr")).replace("\u202f", " ")
    assert "Couvert : seule la plus haute → additionnées. Le couvert se cumule." in fr


def test_a_modifier_that_is_only_a_column_prints_its_policy_over_its_layer(
    compiler: Compiler,
) -> None:
    from rulesdsl.printed.sheet_model import build_sheet

    body = (
        'modifier hide "Hide" combine highest clamp 0 to +2\n'
        'layer t "T" {\n  columns cost, hide\n  woods "Woods" | 2 | +1\n}\n'
    )
    rs = compile_snippet(compiler, HEADER + body).ruleset
    assert rs is not None
    block = next(b for s in build_sheet(rs, "en").sections for b in s.blocks if b.id == "t")
    assert block.lines == [
        "Hide: only the highest value counts.",
        "Hide: the total stays between 0 and +2.",
    ]
