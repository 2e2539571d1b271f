"""House-rule variants: `extends`, override, add, remove, their diagnostics and the bundled ones.

Snippets live in tmp_path (a base beside its variants); the bundled variants are checked
through their generated modules, like every spec test.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import ir
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiled, Compiler
from rulesdsl.diagnostics import Diagnostic
from rulesdsl.printed.sheets import render_sheet
from rulesdsl.variants import merge as merge_module
from rulesdsl.variants.changelog import path_text
from rulesdsl.variants.resolve import satisfies
from rulesdsl.versions import diff as semantic
from tests.conftest import RULESETS, import_rendered, load_generated

BASE = """\
ruleset base "Base" fr "Base"
version 1.2.0
languages en fr
book core "Core rules" fr "Règles"
units distance in, cost MP
mode walker "Walker" fr "Marcheur"
mode hover "Hover" fr "Glisseur"
mode ground "Ground" fr "Roulant"
group wheels "Wheels" fr "Roues": hover, ground
context weapon "Weapon" fr "Arme" {
  ballistic "Ballistic" fr "Balistique"
  energy "Energy" fr "Énergie"
}
modifier to_hit "To-hit" fr "Toucher" by weapon
layer terrain "Terrain" fr "Terrain" {
  columns cost, to_hit
  clear "Clear" fr "Dégagé" | 1 | 0
  soft "Soft" fr "Meuble" | 2, walker 3 | 0
  woods "Woods" fr "Bois" | 2, wheels 3 | +1, ballistic +2
}
layer weather "Weather" fr "Météo" whole map {
  columns cost, to_hit
  fog "Fog" fr "Brouillard" | 0 | +1
  heat "Heat" fr "Chaleur" | 0 | 0
}
exclude heat with fog
modifier cover "Cover" fr "Couvert" by weapon {
  full "Full" fr "Total" | -2, energy -3
  partial "Partial" fr "Partiel" | -1
}
table speed "Speed" fr "Vitesse" {
  column slow "Slow" fr "Lent"
  column fast "Fast" fr "Rapide"
  light "Light" fr "Léger" | 4 in | 6 in
  heavy "Heavy" fr "Lourd" | 2 in | 4 in
}
dice effects "Effects" fr "Effets" : 1d6 {
  1-3 nothing "Nothing" fr "Rien"
  4-6 fire "Fire" fr "Feu" | ignites
}
param reach "Reach" fr "Portée" : in = 10
"""

HEADER = 'ruleset var "Variant" fr "Variante"\nversion 1.0.0\nextends base@^1.0\n'
HEADER_LINES = 3
COMPILER = Compiler()  # one parser for every test: building it takes a while


def compile_variant(tmp_path: Path, body: str, base: str = BASE, name: str = "var") -> Compiled:
    (tmp_path / "base.terrain").write_text(base, "utf-8")
    path = tmp_path / f"{name}.terrain"
    path.write_text(HEADER.replace("var", name, 1) + body, "utf-8")
    return COMPILER.compile_file(path)


def errors(compiled: Compiled) -> list[Diagnostic]:
    return [d for d in compiled.diagnostics if d.is_error]


def where(diag: Diagnostic) -> tuple[str, str, int, int]:
    assert diag.pos is not None
    return diag.code, Path(diag.pos.file).name, diag.pos.line, diag.pos.column


def line(n: int) -> int:
    """Line n of a variant's body as a line of its file."""
    return HEADER_LINES + n


# ---- diagnostics ----------------------------------------------------------------------------


def test_unknown_base_is_E501_at_the_base_name(tmp_path: Path) -> None:
    path = tmp_path / "var.terrain"
    path.write_text('ruleset var "V"\nversion 1.0.0\nextends nowhere@^1.0\n', "utf-8")
    [diag] = errors(COMPILER.compile_file(path))
    assert where(diag) == ("E501", "var.terrain", 3, 9)
    assert diag.message == "no base ruleset 'nowhere'"


def test_unsatisfied_version_is_E502_and_shows_the_bases_version(tmp_path: Path) -> None:
    (tmp_path / "base.terrain").write_text(BASE, "utf-8")
    path = tmp_path / "var.terrain"
    path.write_text('ruleset var "V" fr "V"\nversion 1.0.0\nextends base@^2.0\n', "utf-8")
    [diag] = errors(COMPILER.compile_file(path))
    assert where(diag) == ("E502", "var.terrain", 3, 1)
    assert diag.message == "'base' is at 1.2.0, which does not satisfy ^2.0"
    [related] = diag.related
    assert (Path(related.pos.file).name, related.pos.line, related.pos.column) == (
        "base.terrain",
        2,
        9,
    )


@pytest.mark.parametrize(
    ("version", "requirement", "ok"),
    [
        ("1.2.0", "^1.0", True),
        ("1.2.0", "^1.3", False),
        ("2.0.0", "^1.0", False),
        ("0.2.5", "^0.2", True),
        ("0.3.0", "^0.2", False),
        ("0.0.3", "^0.0.3", True),
        ("0.0.4", "^0.0.3", False),
        ("1.2.9", "~1.2", True),
        ("1.3.0", "~1.2", False),
        ("1.2.0", ">=1.1", True),
        ("1.0.0", ">1.0.0", False),
        ("1.0.0", "==1.0.0", True),
        ("1.0.0", "<1.0.1", True),
        ("1.4.0", "1", True),
    ],
)
def test_version_requirements_read_like_cargos(version: str, requirement: str, ok: bool) -> None:
    assert satisfies(version, requirement) is ok


def test_a_cycle_in_extends_is_E503_with_both_extends_lines(tmp_path: Path) -> None:
    (tmp_path / "a.terrain").write_text('ruleset a "A"\nversion 1.0.0\nextends b@^1.0\n')
    (tmp_path / "b.terrain").write_text('ruleset b "B"\nversion 1.0.0\nextends a@^1.0\n')
    [diag] = errors(COMPILER.compile_file(tmp_path / "a.terrain"))
    assert where(diag) == ("E503", "b.terrain", 3, 9)
    assert diag.message == "a cycle in `extends`: a -> b -> a"
    assert [(Path(r.pos.file).name, r.pos.line, r.pos.column) for r in diag.related] == [
        ("a.terrain", 3, 9)
    ]


def test_a_ruleset_extending_itself_is_E503(tmp_path: Path) -> None:
    (tmp_path / "a.terrain").write_text('ruleset a "A"\nversion 1.0.0\nextends a@^1.0\n')
    [diag] = errors(COMPILER.compile_file(tmp_path / "a.terrain"))
    assert where(diag) == ("E503", "a.terrain", 3, 9)


@pytest.mark.parametrize(
    ("body", "column", "message", "hint"),
    [
        (
            "override sotf.walker | 2\n",
            10,
            "the base has no feature, factor, table, dice table or parameter 'sotf'",
            "did you mean 'soft'?",
        ),
        (
            "override soft.walkr | 2\n",
            15,
            "'soft' has no column, mode or group 'walkr'",
            "did you mean 'walker'?",
        ),
        (
            "override soft.to_hit.balistic | 2\n",
            22,
            "no context value 'balistic' in the 'to_hit' cell of 'soft'",
            "did you mean 'ballistic'?",
        ),
        (
            "override full.enrgy | -4\n",
            15,
            "no context value 'enrgy' in the 'cost' cell of 'full'",
            "did you mean 'energy'?",
        ),
        (
            "override speed.slw.light | 3 in\n",
            16,
            "the table 'speed' has no column 'slw'",
            "did you mean 'slow'?",
        ),
        (
            "override speed.slow.hevy | 3 in\n",
            21,
            "the table 'speed' has no row 'hevy'",
            "did you mean 'heavy'?",
        ),
        (
            "override effects.fyre | ignites\n",
            18,
            "the dice table 'effects' has no row 'fyre'",
            "did you mean 'fire'?",
        ),
        (
            "override walker | 2\n",
            10,
            "'walker' is a mode: it has no cell to override",
            "override a feature, factor, table, dice table or parameter, e.g. "
            "`override <feature>.<mode> | 2`",
        ),
        (
            "remove hovr\n",
            8,
            "the base has no 'hovr' to remove",
            "did you mean 'hover' or 'cover'?",
        ),
        ("remove speed.hevy\n", 14, "'speed' has no 'hevy'", "did you mean 'heavy'?"),
    ],
)
def test_override_or_remove_of_something_missing_is_E504_with_did_you_mean(
    tmp_path: Path, body: str, column: int, message: str, hint: str
) -> None:
    [diag] = errors(compile_variant(tmp_path, body))
    assert where(diag) == ("E504", "var.terrain", line(1), column)
    assert diag.message == message
    assert diag.hint == hint


def test_two_overrides_of_the_same_cell_are_E505_with_both_positions(tmp_path: Path) -> None:
    compiled = compile_variant(tmp_path, "override soft.walker | 2\noverride soft.walker | 1\n")
    [diag] = errors(compiled)
    assert where(diag) == ("E505", "var.terrain", line(2), 10)
    assert diag.message == "'soft.walker' is overridden twice"
    [first] = diag.related
    assert (Path(first.pos.file).name, first.pos.line, first.pos.column) == (
        "var.terrain",
        line(1),
        10,
    )


def test_two_spellings_of_one_cell_are_the_same_cell(tmp_path: Path) -> None:
    compiled = compile_variant(
        tmp_path, "override soft.walker | 2\noverride soft.cost.walker | 1\n"
    )
    [diag] = errors(compiled)
    assert (diag.code, diag.message) == ("E505", "'soft.walker' is overridden twice")


def test_an_override_inside_a_cell_already_overridden_whole_is_E505(tmp_path: Path) -> None:
    compiled = compile_variant(tmp_path, "override soft | 2\noverride soft.walker | 1\n")
    [diag] = errors(compiled)
    assert where(diag) == ("E505", "var.terrain", line(2), 10)
    assert diag.message == "'soft.walker' overlaps the override of 'soft.cost'"


def test_redeclaring_a_base_name_is_E102_naming_the_base_and_the_variant(tmp_path: Path) -> None:
    compiled = compile_variant(tmp_path, 'mode walker "Walker" fr "Marcheur"\n')
    [diag] = errors(compiled)
    assert where(diag) == ("E102", "var.terrain", line(1), 6)
    [first] = diag.related
    assert (Path(first.pos.file).name, first.pos.line, first.pos.column) == ("base.terrain", 6, 6)


def test_a_row_added_to_a_reopened_block_must_be_new(tmp_path: Path) -> None:
    compiled = compile_variant(tmp_path, 'layer terrain {\n  soft "Soft" fr "M" | 1 | 0\n}\n')
    [diag] = errors(compiled)
    assert where(diag) == ("E102", "var.terrain", line(2), 3)
    assert [(Path(r.pos.file).name, r.pos.line) for r in diag.related] == [("base.terrain", 18)]


def test_a_keyed_override_takes_one_value(tmp_path: Path) -> None:
    [diag] = errors(compile_variant(tmp_path, "override soft.walker | 2, hover 1\n"))
    assert where(diag) == ("E201", "var.terrain", line(1), 24)


def test_a_variant_needs_its_own_version(tmp_path: Path) -> None:
    (tmp_path / "base.terrain").write_text(BASE, "utf-8")
    path = tmp_path / "var.terrain"
    path.write_text('ruleset var "V" fr "V"\nextends base@^1.0\n', "utf-8")
    [diag] = errors(COMPILER.compile_file(path))
    assert where(diag) == ("E110", "var.terrain", 1, 1)


def test_override_without_extends_is_E506(tmp_path: Path) -> None:
    path = tmp_path / "solo.terrain"
    path.write_text(BASE + "override soft.walker | 2\n", "utf-8")
    [diag] = errors(COMPILER.compile_file(path))
    assert diag.code == "E506"


def test_an_unknown_book_on_a_change_is_E101(tmp_path: Path) -> None:
    [diag] = errors(compile_variant(tmp_path, "override soft.walker | 2 [hous]\n"))
    assert where(diag) == ("E101", "var.terrain", line(1), 27)
    assert diag.hint == "expected one of: core"


# ---- what a variant does ------------------------------------------------------------------


def ok(compiled: Compiled) -> Compiled:
    assert errors(compiled) == [], compiled.diagnostics
    assert compiled.ruleset is not None
    return compiled


def costs(compiled: Compiled, feature: str) -> dict[str, float | str]:
    assert compiled.ruleset is not None
    [f] = [f for f in compiled.ruleset.features if f.id == feature]
    return {
        m: getattr(v, "value", None) or getattr(v, "marker", None)  # type: ignore[misc]
        for m, v in f.costs.items()
    }


def test_override_one_mode_keeps_the_rest_of_the_cell(tmp_path: Path) -> None:
    compiled = ok(compile_variant(tmp_path, "override soft.walker | 1\n"))
    assert costs(compiled, "soft") == {"walker": 1, "hover": 2, "ground": 2}
    assert costs(compiled, "woods") == {"walker": 2, "hover": 3, "ground": 3}


def test_override_a_mode_the_cell_did_not_name_adds_an_exception(tmp_path: Path) -> None:
    compiled = ok(compile_variant(tmp_path, "override soft.hover | impassable\n"))
    assert costs(compiled, "soft") == {"walker": 3, "hover": "impassable", "ground": 2}


def test_override_a_group_exception(tmp_path: Path) -> None:
    compiled = ok(compile_variant(tmp_path, "override woods.wheels | 4\n"))
    assert costs(compiled, "woods") == {"walker": 2, "hover": 4, "ground": 4}


def test_every_kind_of_override_is_recorded_under_its_canonical_path(tmp_path: Path) -> None:
    compiled = ok(
        compile_variant(
            tmp_path,
            """\
override soft.walker | 1
override clear | 2
override woods.to_hit.ballistic | +3
override fog.to_hit | +2
override full.energy | -4
override partial | -2
override speed.fast.heavy | 5 in
override effects.fire | ignites, damage 2
override reach | 12 in
""",
        )
    )
    assert compiled.ruleset is not None
    assert [(c.action, path_text(c.path)) for c in compiled.ruleset.changes] == [
        ("override", "soft.walker"),
        ("override", "clear.cost"),
        ("override", "woods.to_hit.ballistic"),
        ("override", "fog.to_hit"),
        ("override", "full.energy"),
        ("override", "partial"),
        ("override", "speed.fast.heavy"),
        ("override", "effects.fire"),
        ("override", "reach"),
    ]
    rs = compiled.ruleset
    [to_hit] = [m for m in rs.modifiers if m.id == "to_hit"]
    assert to_hit.values["woods"]["ballistic"].value == 3  # type: ignore[union-attr]
    assert to_hit.values["fog"][""].value == 2  # type: ignore[union-attr]
    [cover] = [m for m in rs.modifiers if m.id == "cover"]
    assert cover.values["full"]["energy"].value == -4  # type: ignore[union-attr]
    assert cover.values["partial"][""].value == -2  # type: ignore[union-attr]
    [speed] = rs.tables
    assert speed.rows[1].cells[1].value == 5  # type: ignore[union-attr]
    [fire] = [r for r in rs.dice_tables[0].rows if r.id == "fire"]
    assert fire.effects["damage"].value == 2  # type: ignore[union-attr]
    assert rs.params[0].value.value == 12  # type: ignore[union-attr]


def test_additions_and_removals_are_recorded(tmp_path: Path) -> None:
    compiled = ok(
        compile_variant(
            tmp_path,
            """\
mode jump "Jump" fr "Saut"
layer terrain {
  ice "Ice" fr "Glace" | 2, jump 1 | 0
}
table speed {
  medium "Medium" fr "Moyen" | 3 in | 5 in
}
context weapon {
  missile "Missile" fr "Missile"
}
remove ground
remove speed.light
remove effects.nothing
dice effects : 1d6 {
  1-3 calm "Calm" fr "Calme"
}
remove heat
remove speed.slow
""",
        )
    )
    assert compiled.ruleset is not None
    assert [(c.action, path_text(c.path)) for c in compiled.ruleset.changes] == [
        ("add", "jump"),
        ("add", "ice"),
        ("add", "speed.medium"),
        ("add", "missile"),
        ("remove", "ground"),
        ("remove", "speed.light"),
        ("remove", "effects.nothing"),
        ("add", "effects.calm"),
        ("remove", "heat"),
        ("remove", "speed.slow"),
    ]


def test_removing_a_mode_removes_its_exceptions_and_group_memberships(tmp_path: Path) -> None:
    compiled = ok(compile_variant(tmp_path, "remove hover\n"))
    rs = compiled.ruleset
    assert rs is not None
    assert [m.id for m in rs.modes] == ["walker", "ground"]
    assert [g.members for g in rs.groups] == [("ground",)]
    assert costs(compiled, "woods") == {"walker": 2, "ground": 3}


def test_removing_a_mode_drops_the_exceptions_it_keyed(tmp_path: Path) -> None:
    compiled = ok(compile_variant(tmp_path, "remove walker\n"))
    assert compiled.ruleset is not None
    [soft] = [f for f in compiled.ruleset.features if f.id == "soft"]
    assert soft.cells["cost"].exceptions == {}
    assert costs(compiled, "soft") == {"hover": 2, "ground": 2}


def test_removing_a_context_value_drops_its_modifier_exceptions(tmp_path: Path) -> None:
    compiled = ok(compile_variant(tmp_path, "remove weapon.energy\n"))
    rs = compiled.ruleset
    assert rs is not None
    assert [v.id for v in rs.contexts[0].values] == ["ballistic"]
    [cover] = [m for m in rs.modifiers if m.id == "cover"]
    assert set(cover.values["full"]) == {""}
    assert [(c.action, path_text(c.path)) for c in rs.changes] == [("remove", "energy")]


def test_removing_a_feature_removes_its_exclusions(tmp_path: Path) -> None:
    compiled = ok(compile_variant(tmp_path, "remove fog\n"))
    assert compiled.ruleset is not None
    assert compiled.ruleset.exclusions == ()


def test_removing_a_layer_removes_its_features_and_their_exclusions(tmp_path: Path) -> None:
    compiled = ok(compile_variant(tmp_path, "remove weather\n"))
    rs = compiled.ruleset
    assert rs is not None
    assert [f.id for f in rs.features] == ["clear", "soft", "woods"]
    assert rs.exclusions == ()
    assert [(c.action, path_text(c.path)) for c in rs.changes] == [("remove", "weather")]


def test_removing_a_modifier_removes_its_layer_column(tmp_path: Path) -> None:
    compiled = ok(compile_variant(tmp_path, "remove to_hit\n"))
    rs = compiled.ruleset
    assert rs is not None
    assert [layer.columns for layer in rs.layers] == [("cost",), ("cost",)]
    assert costs(compiled, "woods") == {"walker": 2, "hover": 3, "ground": 3}


def test_remove_then_declare_again_replaces_an_item(tmp_path: Path) -> None:
    compiled = ok(
        compile_variant(tmp_path, 'remove reach\nparam reach "Reach" fr "Portée" : cm = 25\n')
    )
    assert compiled.ruleset is not None
    assert compiled.ruleset.params[0].unit == "cm"


def test_change_notes_are_in_the_rulesets_first_language(tmp_path: Path) -> None:
    base = BASE.replace("languages en fr", "languages fr en")
    compiled = ok(
        compile_variant(
            tmp_path,
            'override soft.walker | 2 [core p.3]\n    note "Plus léger." en "Lighter."\n',
            base,
        )
    )
    assert compiled.ruleset is not None
    [change] = compiled.ruleset.changes
    assert change.info.notes == ({"fr": "Plus léger.", "en": "Lighter."},)
    assert (
        change.info.source and change.info.source.book,
        change.info.source and change.info.source.page,
    ) == ("core", "p.3")


# ---- a chain of three ---------------------------------------------------------------------


def test_a_chain_of_three_flattens_every_level(tmp_path: Path) -> None:
    (tmp_path / "base.terrain").write_text(BASE, "utf-8")
    (tmp_path / "mid.terrain").write_text(
        'ruleset mid "Mid" fr "Milieu"\nversion 1.1.0\nextends base@^1.2\n'
        'override soft.walker | 2\nmode jump "Jump" fr "Saut"\n',
        "utf-8",
    )
    (tmp_path / "top.terrain").write_text(
        'ruleset top "Top" fr "Haut"\nversion 2.0.0\nextends mid@~1.1\n'
        "override soft.walker | 1\noverride clear.jump | 0.5\nremove hover\n",
        "utf-8",
    )
    compiled = ok(COMPILER.compile_file(tmp_path / "top.terrain"))
    rs = compiled.ruleset
    assert rs is not None
    assert [(a.id, a.version) for a in rs.extends] == [("mid", "1.1.0"), ("base", "1.2.0")]
    assert all(a.digest.startswith("sha256:") for a in rs.extends)
    assert costs(compiled, "soft") == {"walker": 1, "ground": 2, "jump": 2}
    assert costs(compiled, "clear") == {"walker": 1, "ground": 1, "jump": 0.5}
    assert [(c.action, path_text(c.path)) for c in rs.changes] == [
        ("override", "soft.walker"),
        ("override", "clear.jump"),
        ("remove", "hover"),
    ]


def test_an_error_in_the_middle_of_a_chain_is_reported_for_that_file_once(tmp_path: Path) -> None:
    (tmp_path / "base.terrain").write_text(BASE, "utf-8")
    (tmp_path / "mid.terrain").write_text(
        'ruleset mid "Mid" fr "M"\nversion 1.0.0\nextends base@^1.0\noverride sfot | 2\n'
    )
    (tmp_path / "top.terrain").write_text(
        'ruleset top "Top" fr "T"\nversion 1.0.0\nextends mid@^1.0\n'
    )
    compiler = Compiler()
    [own] = errors(compiler.compile_file(tmp_path / "mid.terrain"))
    assert where(own) == ("E504", "mid.terrain", 4, 10)
    [diag] = errors(compiler.compile_file(tmp_path / "top.terrain"))
    assert where(diag) == ("E507", "top.terrain", 3, 9)
    assert diag.message == "the base 'mid' has 1 error, reported for its own file"
    [first] = diag.related
    assert (Path(first.pos.file).name, first.pos.line, first.pos.column) == ("mid.terrain", 4, 10)


# ---- the bundled variants -----------------------------------------------------------------

hg = load_generated("heavy_gear")
house = load_generated("heavy_gear_house")
winter = load_generated("heavy_gear_house_winter")
bt = load_generated("battletech_tacops")
desert = load_generated("battletech_tacops_desert")


def test_house_rule_walkers_pay_2_mp_per_inch_on_soft_ground() -> None:
    assert house.move_cost("walker", "soft") == 2
    assert house.move_cost("walker", "soft", distance=3) == 6
    assert hg.move_cost("walker", "soft") == 3


def test_house_rule_rapid_water_adds_2_mp_per_inch_for_every_mode() -> None:
    assert house.move_cost("walker", "shallow_water", "rapid_water") == 4
    assert house.move_cost("hover", "shallow_water", "rapid_water") == 3
    assert hg.move_cost("walker", "shallow_water", "rapid_water") == 3


def test_house_rule_keeps_the_bases_values_elsewhere() -> None:
    assert list(house.MODES) == list(hg.MODES)
    assert list(house.FEATURES) == list(hg.FEATURES)
    for feature in hg.FEATURES:
        for mode in hg.MODES:
            if (feature, mode) in {("soft", "walker")} or feature == "rapid_water":
                continue
            assert str(house.move_cost(mode, feature)) == str(hg.move_cost(mode, feature)), (
                feature,
                mode,
            )
    assert house.climb(1.5) == hg.climb(1.5)
    assert house.light_concealment(8) == 2
    assert house.lookup("setup", "house_height") == hg.lookup("setup", "house_height")


def test_a_variants_module_records_its_extends_chain() -> None:
    assert house.RULESET.id == "heavy_gear_house"
    assert house.RULESET.version == "1.0.0"
    assert [(a.id, a.version) for a in house.RULESET.extends] == [("heavy_gear", "1.0.0")]
    assert house.RULESET.extends[0].digest == hg.RULESET.digest
    assert [(a.id, a.version) for a in winter.RULESET.extends] == [
        ("heavy_gear_house", "1.0.0"),
        ("heavy_gear", "1.0.0"),
    ]
    assert winter.RULESET.extends[0].digest == house.RULESET.digest


def test_winter_campaign_builds_on_the_house_rule() -> None:
    assert winter.move_cost("walker", "soft") == 2  # the house rule still holds
    assert winter.move_cost("ground", "soft") == 3
    assert winter.move_cost("hover", "soft") == 2
    assert winter.move_cost("hover", "ice") == 1
    assert winter.move_cost("walker", "ice") == 2
    assert winter.move_cost("walker", "shallow_water", "rapid_water") == 4


def test_desert_campaign_has_no_airships() -> None:
    assert "airship" in bt.MODES
    assert "airship" not in desert.MODES
    assert "airship" not in desert.GROUPS["vehicle"]
    assert "airship" in bt.GROUPS["vehicle"]
    with pytest.raises(KeyError):
        desert.move_cost("airship", "light_woods")


def test_desert_campaign_adds_dust_storms_to_the_weather() -> None:
    assert desert.FEATURES["dust_storm"].layer == "weather"
    assert desert.move_cost("mech", "clear", "dust_storm") == 2
    assert desert.move_cost("vtol", "clear", "dust_storm") == 3
    assert desert.modifier("to_hit", "dust_storm", weapon="energy") == 2
    assert desert.modifier("to_hit", "dust_storm", weapon="ballistic") == 1


def test_desert_campaign_keeps_the_bases_values_elsewhere() -> None:
    for feature in bt.FEATURES:
        for mode in desert.MODES:
            assert str(desert.move_cost(mode, feature)) == str(bt.move_cost(mode, feature)), (
                feature,
                mode,
            )
    assert desert.move_cost("mech", "light_woods", "deep_snow", "mud") == 4
    assert desert.modifier("to_hit", "light_woods", "blizzard", weapon="ballistic") == 3


# ---- rulesdsl new ---------------------------------------------------------------------------


def _project(tmp_path: Path) -> Path:
    rulesets = tmp_path / "rulesets"
    rulesets.mkdir()
    for name in ("heavy_gear", "battletech_tacops"):
        (rulesets / f"{name}.terrain").write_text(
            (RULESETS / f"{name}.terrain").read_text("utf-8"), "utf-8"
        )
    return rulesets


@pytest.mark.parametrize("base", ["heavy_gear", "battletech_tacops"])
def test_new_scaffolds_a_variant_that_compiles_as_is(
    tmp_path: Path, base: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rulesets = _project(tmp_path)
    assert main(["new", "my_house", "--extends", base, "--dir", str(rulesets)]) == 0
    path = rulesets / "my_house.terrain"
    text = path.read_text("utf-8")
    base_text = (RULESETS / f"{base}.terrain").read_text("utf-8")
    major = base_text.split("\nversion ", 1)[1].split(".", 1)[0]
    assert f"extends {base}@^{major}.0" in text
    for word in ("# override ", "# remove ", "# layer "):
        assert word in text
    compiled = COMPILER.compile_file(path)
    assert compiled.ok and not compiled.diagnostics, compiled.diagnostics
    assert compiled.ruleset is not None and compiled.ruleset.changes == ()
    assert "wrote" in capsys.readouterr().err


@pytest.mark.parametrize("base", ["heavy_gear", "battletech_tacops"])
def test_each_example_in_a_scaffold_compiles_once_uncommented(tmp_path: Path, base: str) -> None:
    rulesets = _project(tmp_path)
    assert main(["new", "my_house", "--extends", base, "--dir", str(rulesets)]) == 0
    lines = (rulesets / "my_house.terrain").read_text("utf-8").splitlines()
    examples = [
        i
        for i, text in enumerate(lines)
        if text.startswith(("# override ", "# remove ", "# mode "))
    ]
    assert len(examples) >= 4
    for i in examples:
        trial = list(lines)
        trial[i] = trial[i][2:]
        # with the worked examples it changes restated, as listed under it (issue 27)
        for j in range(i + 1, len(lines)):
            if lines[j].startswith("#     note "):
                continue
            if not lines[j].startswith(("#   override example ", "#   remove example ")):
                break
            trial[j] = lines[j][4:]
        compiled = COMPILER.compile_text(
            "\n".join(trial) + "\n", str(rulesets / "my_house.terrain"), rulesets
        )
        assert not [d for d in compiled.diagnostics if d.is_error], (lines[i], compiled.diagnostics)
    start = lines.index(next(t for t in lines if t.startswith("# layer ")))
    block = [t[2:] for t in lines[start : start + 3]]
    compiled = COMPILER.compile_text(
        "\n".join(lines + block) + "\n", str(rulesets / "my_house.terrain"), rulesets
    )
    assert compiled.ok, compiled.diagnostics


def test_new_refuses_to_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rulesets = _project(tmp_path)
    target = rulesets / "my_house.terrain"
    target.write_text("# mine\n", "utf-8")
    assert main(["new", "my_house", "--extends", "heavy_gear", "--dir", str(rulesets)]) == 2
    assert target.read_text("utf-8") == "# mine\n"
    assert "already exists" in capsys.readouterr().err


def test_new_needs_a_known_base_and_a_valid_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rulesets = _project(tmp_path)
    assert main(["new", "x", "--extends", "heavy_gaer", "--dir", str(rulesets)]) == 2
    assert "no base ruleset 'heavy_gaer'" in capsys.readouterr().err
    assert main(["new", "class", "--extends", "heavy_gear", "--dir", str(rulesets)]) == 2
    assert main(["new", "my-house", "--extends", "heavy_gear", "--dir", str(rulesets)]) == 2
    assert sorted(p.name for p in rulesets.iterdir()) == [
        "battletech_tacops.terrain",
        "heavy_gear.terrain",
    ]


# ---- every addressable item: paths through the module, the diff and the sheet ------------

RICH = """\
ruleset rich "Rich" fr "Riche"
version 1.2.0
languages en fr
units distance in, cost MP
mode walker "Walker" fr "Marcheur"
mode hover "Hover" fr "Glisseur"
modifier cover "Cover" fr "Couvert" {
  full "Full" fr "Total" | -2
  partial "Partial" fr "Partiel" | -1
  when full, partial | -4
}
layer terrain "Terrain" fr "Terrain" {
  clear "Clear" fr "Dégagé" | 1
  soft "Soft" fr "Meuble" | 2, walker 3
    note "Sand and mud." fr "Sable et boue."
}
step climb "Climbing" fr "Montée" (rise in) -> MP : +1 per 1 in, impassable from 2 in
decision lock "Lock" fr "Verrouillage" (hidden bool, distance in) {
  hidden          -> no_lock "No lock" fr "Impossible"
  distance <= 6   -> auto "Automatic" fr "Automatique"
  otherwise       -> roll "Roll" fr "Jet"
}
table armour "Armour speed" fr "Vitesse en armure" {
  6 in "Speed 6" fr "Vitesse 6" | 4 in
  7.5 in "Speed 7.5" fr "Vitesse 7,5" | 5 in
  9 in "Speed 9" fr "Vitesse 9" | 6 in
}
dice effects "Effects" fr "Effets" : 2d6 {
  modifier landing "Landing" fr "Atterrissage" +2
  2-6 nothing "Nothing" fr "Rien"
  7-9 smoke "Smoke" fr "Fumée" | smoke
  10-11 fire "Fire" fr "Feu" | ignites
  12+ blast "Blast" fr "Explosion" | damage 5
}
trigger landing_zone "Landing" fr "Atterrissage" : roll effects with landing times 1
"""
RICH_HEADER = 'ruleset house "House" fr "Maison"\nversion 1.0.0\nextends rich@^1.2\n'


def rich_variant(tmp_path: Path, body: str) -> Compiled:
    (tmp_path / "rich.terrain").write_text(RICH, "utf-8")
    path = tmp_path / "house.terrain"
    path.write_text(RICH_HEADER + body, "utf-8")
    return Compiler().compile_file(path)


def module_of(compiled: Compiled, tmp_path: Path) -> ModuleType:
    """The generated module of a compiled snippet, imported."""
    assert compiled.ruleset is not None, compiled.diagnostics
    return import_rendered(compiled.ruleset, tmp_path, f"house_{abs(hash(str(tmp_path)))}")


def base_and_house(tmp_path: Path, body: str) -> tuple[ir.Ruleset, ir.Ruleset]:
    house = ok(rich_variant(tmp_path, body)).ruleset
    base = Compiler().compile_file(tmp_path / "rich.terrain").ruleset
    assert base is not None and house is not None
    return base, house


PATH_KINDS = [
    # (variant body, the change's canonical path, a module answer: expression -> value,
    #  the diff's path, the sheet's changelog line in French)
    (
        "override armour.6 | 5 in\n",
        "armour.6",
        ("float(lookup('armour', 6))", 5),
        "armour.6",
        "modifié : Vitesse en armure \u203a Vitesse 6 : 4 po → 5 po",
    ),
    (
        "override armour.7.5 | 6 in\n",
        "armour.7.5",
        ("float(lookup('armour', 7.5))", 6),
        "armour.7.5",
        "modifié : Vitesse en armure \u203a Vitesse 7,5 : 5 po → 6 po",
    ),
    (
        "override climb.rate.amount | +2\n",
        "climb.rate.amount",
        ("climb(1)", 2),
        "climb",
        "modifié : Montée : +1 PM → +2 PM",
    ),
    (
        "override climb.impassable.at | 3 in\n",
        "climb.impassable.at",
        ("climb(2)", 2),
        "climb",
        "modifié : Montée : 2 po → 3 po",
    ),
    (
        'override lock.auto: distance <= 8 -> auto "Automatic" fr "Automatique"\n',
        "lock.auto",
        ("lock(hidden=False, distance=7).id", "auto"),
        "lock.auto",
        "modifié : Verrouillage \u203a Automatique",
    ),
    (
        'insert lock before auto: distance <= 2 -> point_blank "Point blank" fr "À bout"\n',
        "lock.point_blank",
        ("lock(hidden=False, distance=1).id", "point_blank"),
        "lock.point_blank",
        "ajouté : Verrouillage \u203a À bout",
    ),
    (
        'insert lock after no_lock: distance > 20 -> too_far "Too far" fr "Trop loin"\n',
        "lock.too_far",
        ("lock(hidden=False, distance=30).id", "too_far"),
        "lock.too_far",
        "ajouté : Verrouillage \u203a Trop loin",
    ),
    (
        "remove lock.auto\n",
        "lock.auto",
        ("lock(hidden=False, distance=1).id", "roll"),
        "lock.auto",
        "supprimé : Verrouillage \u203a Automatique",
    ),
    (
        "override effects.fire range 10+\nremove effects.blast\n",
        "effects.fire.range",
        ("roll('effects', 12).id", "fire"),
        "effects.fire",
        "modifié : Effets \u203a Feu : 10-11 → 10+",
    ),
    (
        "override effects.smoke range 7-8\noverride effects.fire range 9-11\n",
        "effects.smoke.range",
        ("roll('effects', 9).id", "fire"),
        "effects.smoke",
        "modifié : Effets \u203a Fumée : 7-9 → 7-8",
    ),
    (
        "override effects.landing | +3\n",
        "landing",
        ("DICE_TABLES['effects'].modifiers['landing']", 3),
        "landing",
        "modifié : Effets \u203a Atterrissage : +2 → +3",
    ),
    (
        "override effects.fire | ignites, damage 2\n",
        "effects.fire",
        ("roll('effects', 10).effects['damage']", 2),
        "effects.fire",
        "modifié : Effets \u203a Feu : prend feu → prend feu, dégâts 2",
    ),
    (
        "override cover.when.partial.full | -5\n",
        "cover.when.full+partial",
        ("modifier('cover', 'full', 'partial')", -8),
        "cover.when.full+partial",
        "modifié : Couvert \u203a Total + Partiel : -4 → -5",
    ),
    (
        "remove cover.when.full.partial\n",
        "cover.when.full+partial",
        ("modifier('cover', 'full', 'partial')", -3),
        "cover.when.full+partial",
        "supprimé : Couvert \u203a Total + Partiel",
    ),
    (
        "override full | -3\n",
        "full",
        ("modifier('cover', 'full')", -3),
        "full",
        "modifié : Total : -2 → -3",
    ),
    (
        "override landing_zone.times | 2\n",
        "landing_zone.times",
        ("TRIGGERS['landing_zone'].times", 2),
        "landing_zone",
        "modifié : Atterrissage : 1 → 2",
    ),
    (
        'dice effects : 2d6 {\n  modifier crash "Crash" fr "Crash" +1\n}\n'
        "override landing_zone.modifier | crash\n",
        "landing_zone.modifier",
        ("TRIGGERS['landing_zone'].modifier", "crash"),
        "landing_zone",
        "modifié : Atterrissage : Atterrissage → Crash",
    ),
    (
        'override soft.label.fr | "Sol meuble"\n',
        "soft.label.fr",
        ("FEATURES['soft'].label['fr']", "Sol meuble"),
        "soft",
        "modifié : Sol meuble : Meuble → Sol meuble",
    ),
    (
        'override soft.note.en | "Sand, mud and snow."\n',
        "soft.note.en",
        ("FEATURES['soft'].notes[0]['en']", "Sand, mud and snow."),
        "soft",
        "modifié : Meuble : Sand and mud. → Sand, mud and snow.",
    ),
    (
        'override armour.9.label.fr | "Vitesse neuf"\n',
        "armour.9.label.fr",
        ("TABLES['armour'].rows[9]", ("6 in",)),
        "armour.9",
        "Vitesse neuf",
    ),
]


@pytest.mark.parametrize(
    ("body", "path", "answer", "diff_path", "sheet_line"),
    PATH_KINDS,
    ids=[p[1] for p in PATH_KINDS],
)
def test_every_path_kind_changes_the_module_the_diff_and_the_sheet(
    tmp_path: Path,
    body: str,
    path: str,
    answer: tuple[str, object],
    diff_path: str | None,
    sheet_line: str | None,
) -> None:
    compiled = ok(rich_variant(tmp_path, body))
    assert compiled.ruleset is not None
    assert path in [path_text(c.path) for c in compiled.ruleset.changes]
    module = module_of(compiled, tmp_path)
    expression, expected = answer
    got = eval(expression, vars(module))
    if isinstance(expected, tuple):
        got = tuple(str(v) for v in got)
    assert got == expected
    base, house = base_and_house(tmp_path, body)
    d = semantic.diff(base, house)
    if diff_path is not None:
        assert diff_path in [c.path for c in d.changes]
    assert d.changes  # every override is a difference the diff sees
    if sheet_line is not None:
        markdown = render_sheet(house, "md", "fr").decode("utf-8")
        # (French narrow no-break spaces read as spaces here: test_print_typography)
        assert sheet_line in markdown.replace("\\", "").replace("\u202f", " ")


def test_the_diff_names_decision_rows_as_a_variant_does(tmp_path: Path) -> None:
    base, house = base_and_house(
        tmp_path,
        """\
override lock.auto: distance <= 8 -> auto "Automatic" fr "Automatique"
insert lock before auto: distance <= 2 -> point_blank "Point blank" fr "À bout"
""",
    )
    rows = [
        (c.level, c.action, c.path, c.message)
        for c in semantic.diff(base, house).changes
        if c.level == "rules"
    ]
    assert rows == [
        (
            "rules",
            "added",
            "lock.point_blank",
            "Lock: row added after 'No lock': distance <= 2 -> Point blank",
        ),
        ("rules", "changed", "lock.auto", "Lock, row Automatic: distance <= 6 -> distance <= 8"),
    ]


def test_a_numeric_row_key_is_removed_by_its_number(tmp_path: Path) -> None:
    compiled = ok(rich_variant(tmp_path, "remove armour.7.5\n"))
    assert compiled.ruleset is not None
    [armour] = compiled.ruleset.tables
    assert [r.key for r in armour.rows] == ["6", "9"]


def test_a_removed_dice_row_is_merged_into_its_neighbour_by_a_re_range(tmp_path: Path) -> None:
    """Merge: remove one row, re-range its neighbour over its totals; nothing re-added."""
    compiled = ok(
        rich_variant(tmp_path, "remove effects.smoke\noverride effects.nothing range 2-9\n")
    )
    module = module_of(compiled, tmp_path)
    assert [module.roll("effects", t).id for t in (2, 7, 9, 10)] == [
        "nothing",
        "nothing",
        "nothing",
        "fire",
    ]


def test_a_dice_row_is_split_by_a_re_range_and_a_new_row(tmp_path: Path) -> None:
    compiled = ok(
        rich_variant(
            tmp_path,
            """\
override effects.fire range 10
dice effects : 2d6 {
  11 inferno "Inferno" fr "Brasier" | ignites, damage 3
}
""",
        )
    )
    module = module_of(compiled, tmp_path)
    assert [module.roll("effects", t).id for t in (10, 11, 12)] == ["fire", "inferno", "blast"]


@pytest.mark.parametrize(
    ("body", "code", "column", "message"),
    [
        (
            "override climb.rate.every | 2 in\n",
            "E504",
            21,
            "a parameter of the step 'climb' is written `step.<term>.<parameter>`",
        ),
        (
            "override lock.manual: distance <= 8 -> manual\n",
            "E504",
            15,
            "the decision 'lock' has no row that ends in 'manual'",
        ),
        (
            "insert lock before manul: distance <= 2 -> close\n",
            "E504",
            20,
            "the decision 'lock' has no row that ends in 'manul'",
        ),
        (
            "override effects.fire | ignites, damage 1\noverride effects.fire range 10+\n"
            "remove effects.blast\n",
            None,
            0,
            "",
        ),
        (
            "override effects.fyre range 10+\n",
            "E504",
            18,
            "the dice table 'effects' has no row 'fyre'",
        ),
        (
            "override cover.when.full.clear | -5\n",
            "E504",
            26,
            "'cover' has no `when` combination of full and clear",
        ),
        (
            "override landing_zone.dice | 2\n",
            "E504",
            23,
            "a part of the trigger 'landing_zone' is written `landing_zone.<part>`",
        ),
        (
            'override soft.label.ru | "Мягкий"\n',
            "E504",
            21,
            "a label is overridden one language at a time: `soft.label.<lang>`",
        ),
        (
            "override soft.label.fr | 3\n",
            "E201",
            26,
            "`override soft.label.fr` takes one quoted text",
        ),
        ("override effects.fire range 10-12\n", "E302", 1, "total 12 in both 'fire' and 'blast'"),
    ],
)
def test_a_path_that_does_not_fit_is_reported_at_the_variants_line(
    tmp_path: Path, body: str, code: str | None, column: int, message: str
) -> None:
    compiled = rich_variant(tmp_path, body)
    if code is None:  # the effects and the range of one row are separate cells
        assert errors(compiled) == []
        return
    [diag] = errors(compiled)
    assert where(diag) == (code, "house.terrain", 4, column)
    assert diag.message == message


def test_a_removed_dice_row_is_reported_at_the_remove_line_with_the_row_to_re_range(
    tmp_path: Path,
) -> None:
    """Was `<base>.terrain:NN: E301` in the base file the user never edited."""
    [diag] = errors(rich_variant(tmp_path, "remove effects.fire\n"))
    assert where(diag) == ("E301", "house.terrain", 4, 1)
    assert diag.message == "totals 10-11 of 2d6 are in no row"
    assert diag.hint == (
        "re-range a neighbour of the removed row to cover 10-11: "
        "`override effects.smoke range 7-11` or "
        "`override effects.blast range 10+`"
    )
    [base_line] = diag.related
    assert (Path(base_line.pos.file).name, base_line.pos.line) == ("rich.terrain", 28)


def test_an_error_a_variant_causes_in_a_base_line_points_at_the_variant(tmp_path: Path) -> None:
    [diag] = errors(rich_variant(tmp_path, "remove effects\n"))
    assert where(diag) == ("E101", "house.terrain", 4, 1)
    assert "effects" in diag.message
    [base_line, *_] = diag.related
    assert (Path(base_line.pos.file).name, base_line.pos.line) == ("rich.terrain", 35)


def test_a_bases_own_error_is_reported_once_not_again_for_each_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = RICH.replace("2-6 nothing", "2-5 nothing")
    (tmp_path / "rich.terrain").write_text(broken, "utf-8")
    for name in ("house_a", "house_b"):
        (tmp_path / f"{name}.terrain").write_text(RICH_HEADER.replace("house", name, 1), "utf-8")
    assert main(["check", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("error[E301]") == 1
    assert err.count("error[E507]") == 2
    assert "the base 'rich' has 1 error, reported for its own file" in err


def test_a_bases_warnings_are_not_repeated_for_its_variant(tmp_path: Path) -> None:
    (tmp_path / "rich.terrain").write_text(RICH.replace(' fr "Glisseur"', ""), "utf-8")
    path = tmp_path / "house.terrain"
    path.write_text(RICH_HEADER, "utf-8")
    compiler = Compiler()
    base = compiler.compile_file(tmp_path / "rich.terrain")
    assert [d.code for d in base.diagnostics] == ["W101"]
    assert compiler.compile_file(path).diagnostics == []


# ---- the digest is of the meaning, not the text --------------------------------------------


def test_comments_blank_lines_and_layout_leave_the_digest_alone(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    source = (RULESETS / "heavy_gear.terrain").read_text("utf-8")
    relaid = "# a comment on top\n\n" + source.replace("\n", "   # trailing\n", 3).replace(
        " | ", "    |   "
    )
    (tmp_path / "a" / "heavy_gear.terrain").write_text(source, "utf-8")
    (tmp_path / "b" / "heavy_gear.terrain").write_text(relaid, "utf-8")
    a = Compiler().compile_file(tmp_path / "a" / "heavy_gear.terrain").ruleset
    b = Compiler().compile_file(tmp_path / "b" / "heavy_gear.terrain").ruleset
    assert a is not None and b is not None
    assert a.digest == b.digest
    changed = source.replace('soft "Soft', 'soft "Soft!', 1)
    (tmp_path / "a" / "c.terrain").write_text(changed, "utf-8")
    c = Compiler().compile_file(tmp_path / "a" / "c.terrain").ruleset
    assert c is not None and c.digest != a.digest


def test_fmt_never_changes_a_digest(tmp_path: Path) -> None:
    for path in sorted(RULESETS.glob("*.terrain")):
        (tmp_path / path.name).write_text(path.read_text("utf-8"), "utf-8")
    first, second = Compiler(), Compiler()
    before = {p.stem: first.compile_file(p).ruleset for p in tmp_path.glob("*.terrain")}
    scrambled = tmp_path / "heavy_gear.terrain"
    scrambled.write_text(scrambled.read_text("utf-8").replace(" | ", "|"), "utf-8")
    assert main(["fmt", str(tmp_path)]) in (0, 1)
    after = {p.stem: second.compile_file(p).ruleset for p in tmp_path.glob("*.terrain")}
    for name, rs in before.items():
        assert rs is not None and after[name] is not None
        assert after[name].digest == rs.digest, name  # type: ignore[union-attr]
        assert after[name].extends == rs.extends, name  # type: ignore[union-attr]


# ---- long chains, cycles by file, long names (issue 15) ------------------------------------


def test_a_chain_of_a_hundred_variants_compiles_each_file_once(tmp_path: Path) -> None:
    (tmp_path / "rich.terrain").write_text(RICH, "utf-8")
    previous = "rich"
    for i in range(100):
        name = f"v{i:03d}"
        (tmp_path / f"{name}.terrain").write_text(
            f'ruleset {name} "V{i}" fr "V{i}"\nversion 1.0.{i}\nextends {previous}@>=1.0\n'
            f"override soft.walker | {i + 1}\n"
            if i == 0
            else f'ruleset {name} "V{i}" fr "V{i}"\nversion 1.0.{i}\nextends {previous}@>=1.0\n',
            "utf-8",
        )
        previous = name
    compiler = Compiler()
    merges = 0
    real = merge_module.Merger.apply

    def counted(self: object, variant: object) -> object:
        nonlocal merges
        merges += 1
        return real(self, variant)  # type: ignore[arg-type]

    merge_module.Merger.apply = counted  # type: ignore[method-assign,assignment]
    try:
        compiled = compiler.compile_file(tmp_path / "v099.terrain")
        for i in range(100):
            assert compiler.compile_file(tmp_path / f"v{i:03d}.terrain").ok
    finally:
        merge_module.Merger.apply = real  # type: ignore[method-assign]
    assert compiled.ok and compiled.ruleset is not None
    assert merges == 100
    assert len(compiled.ruleset.extends) == 100
    assert costs(compiled, "soft")["walker"] == 1


def test_a_file_that_extends_itself_under_another_id_is_E503(tmp_path: Path) -> None:
    """`x.terrain` declaring `ruleset y` and `extends x` was a RecursionError."""
    (tmp_path / "x.terrain").write_text('ruleset y "Y"\nversion 1.0.0\nextends x@^1.0\n', "utf-8")
    [diag] = errors(Compiler().compile_file(tmp_path / "x.terrain"))
    assert where(diag) == ("E503", "x.terrain", 3, 9)
    assert diag.message == "a cycle in `extends`: y (x.terrain) -> x"


def test_a_very_long_base_name_is_a_diagnostic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`extends` with a 300-character base name was an OSError at build."""
    path = tmp_path / "var.terrain"
    path.write_text(f'ruleset var "V"\nversion 1.0.0\nextends {"b" * 300}@^1.0\n', "utf-8")
    [diag] = errors(Compiler().compile_file(path))
    assert where(diag) == ("E501", "var.terrain", 3, 9)
    assert "at most 64 characters" in diag.message
    assert main(["check", str(path)]) == 1
    assert "Traceback" not in capsys.readouterr().err


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
