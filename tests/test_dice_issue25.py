"""Issue 25, items 2, 3 and 5: natural rolls on every dice table, outcomes that carry data,
results-table columns chosen by a value with units and a declared rounding, the chance of each
outcome per column, and the E303 gap reported once with the row to add."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path
from types import ModuleType

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.printed.sheets import render_sheet
from rulesdsl.versions import diff as semantic
from tests.conftest import RULESETS, compile_snippet, import_rendered

HEADER = """ruleset demo "Demo"
version 1.0.0
units distance hex, cost MP
mode foot "Foot"
"""
LINES = HEADER.count("\n")


def found(compiler: Compiler, body: str) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, HEADER + body)
    return [
        (d.code, d.pos.line - LINES, d.pos.column)
        for d in compiled.diagnostics
        if d.pos is not None
    ]


def messages(compiler: Compiler, body: str) -> list[tuple[str, str, str | None]]:
    compiled = compile_snippet(compiler, HEADER + body)
    return [(d.code, d.message, d.hint) for d in compiled.diagnostics]


def module(compiler: Compiler, tmp_path: Path, body: str) -> ModuleType:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok, [(d.code, d.message) for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    return load(compiled.ruleset, tmp_path)


def load(ruleset: ir.Ruleset, tmp_path: Path) -> ModuleType:
    return import_rendered(ruleset, tmp_path, f"dice25_{abs(hash(str(tmp_path)))}_{ruleset.id}")


# ---- E303: a gap is reported once, naming the totals and the row to add ---------------------

SIX_COLUMNS = """dice cc "Close combat" : 1d6 by odds {
  modifier night "Night" -1
  column cc_1_4 "1:4" up to 0.25
  column cc_1_2 "1:2" up to 0.5
  column cc_1_1 "1:1" up to 1
  column cc_2_1 "2:1" up to 2
  column cc_3_1 "3:1" up to 3
  column cc_4_1 "4:1" above 3
  outcome ae "Attacker eliminated"
  outcome de "Defender eliminated"
  1  | ae | ae | ae | ae | ae | de
  2  | ae | ae | ae | ae | de | de
  3  | ae | ae | ae | de | de | de
  4  | ae | ae | de | de | de | de
  5  | ae | de | de | de | de | de
  6+ | de | de | de | de | de | de
}
"""


def test_a_gap_a_modifier_opens_is_reported_once_for_all_columns(compiler: Compiler) -> None:
    """Was six E303s, one per column, hinting to open-end a row already open."""
    assert found(compiler, SIX_COLUMNS) == [("E303", 1, 6)]
    ((_, message, hint),) = messages(compiler, SIX_COLUMNS)
    assert message == "with its modifiers the roll reaches total 0, which no row covers"
    assert hint == (
        "write the row `1` as `1-`, or add `0- | OUTCOME | OUTCOME | OUTCOME | OUTCOME | "
        "OUTCOME | OUTCOME`"
    )


def test_a_gap_in_the_plain_totals_is_reported_once_with_the_row_to_add(
    compiler: Compiler,
) -> None:
    body = SIX_COLUMNS.replace("  3  | ae | ae | ae | de | de | de\n", "")
    assert found(compiler, body) == [("E301", 1, 6)]
    ((_, message, hint),) = messages(compiler, body)
    assert message == "total 3 of 1d6 is in no row"
    assert hint == "add the row `3 | OUTCOME | OUTCOME | OUTCOME | OUTCOME | OUTCOME | OUTCOME`"


# ---- columns chosen by a value: units, points and a declared rounding ---------------------

FIRE = """dice fire "Fire" : 1d6 by range {
  column near "Near" up to 6 in
  column far "Far" above 6 in
  outcome hit "Hit"
  outcome miss "Miss"
  1-3 | miss | miss
  4+  | hit  | miss
}
"""

ODDS = """dice crt "Combat results" : 1d6 by odds round down {
  column odds_1_2 "1:2 or less" at 1:2
  column odds_1_1 "1:1" at 1:1
  column odds_2_1 "2:1" at 2:1
  column odds_3_1 "3:1 or more" at 3:1
  outcome ae "Attacker eliminated"
  outcome dr "Defender retreats"
  outcome de "Defender eliminated"
  1- | ae | ae | ae | dr
  2  | ae | ae | dr | de
  3+ | ae | dr | de | de
}
"""


def test_a_column_bound_may_carry_a_unit(compiler: Compiler, tmp_path: Path) -> None:
    """Was `unexpected 'in' ... expected '[', 'ignores', 'note'` at the unit."""
    assert found(compiler, FIRE) == []
    m = module(compiler, tmp_path, FIRE)
    assert m.roll("fire", 4, column=6).column == "near"
    assert m.roll("fire", 4, column=6.5).column == "far"
    assert m.RESULTS_TABLES["fire"].columns[0].unit == "in"


def test_column_bounds_in_different_units_are_an_error(compiler: Compiler) -> None:
    body = FIRE.replace("above 6 in", "above 6 cm")
    assert found(compiler, body) == [("E322", 3, 20)]


def test_odds_round_down_to_the_lower_column(compiler: Compiler, tmp_path: Path) -> None:
    """ "Odds rounded down in the defender's favour": 7:3 is 2:1, 5:6 is 1:2, 3:2 is 1:1."""
    m = module(compiler, tmp_path, ODDS)
    assert m.roll("crt", 2, column=(7, 3)).column == "odds_2_1"
    assert m.roll("crt", 2, column=(5, 6)).column == "odds_1_2"
    assert m.roll("crt", 2, column=(3, 2)).column == "odds_1_1"
    assert m.roll("crt", 2, column=7 / 3).column == "odds_2_1"
    assert m.roll("crt", 2, column=(1, 3)).column == "odds_1_2"  # below every point: the first
    assert m.roll("crt", 2, column=(9, 1)).column == "odds_3_1"  # above every point: the last
    assert m.roll("crt", 2, column=2).column == "odds_2_1"  # on a point: that column


def test_odds_round_up_to_the_higher_column(compiler: Compiler, tmp_path: Path) -> None:
    m = module(compiler, tmp_path, ODDS.replace("round down", "round up"))
    assert m.roll("crt", 2, column=(7, 3)).column == "odds_3_1"
    assert m.roll("crt", 2, column=(5, 6)).column == "odds_1_1"
    assert m.roll("crt", 2, column=(1, 3)).column == "odds_1_2"
    assert m.roll("crt", 2, column=(9, 1)).column == "odds_3_1"


def test_a_rounding_other_than_down_or_up_is_an_error(compiler: Compiler) -> None:
    """One error at the word, and no follow-on E321 for a table without a rounding."""
    assert found(compiler, ODDS.replace("round down", "round nearest")) == [("E320", 1, 47)]
    ((_, message, _),) = messages(compiler, ODDS.replace("round down", "round nearest"))
    assert message == "a value between two columns rounds down or up, not 'nearest'"


def test_columns_at_points_need_a_rounding(compiler: Compiler) -> None:
    assert found(compiler, ODDS.replace(" round down", "")) == [("E321", 1, 36)]


def test_columns_at_points_are_not_mixed_with_up_to_and_above(compiler: Compiler) -> None:
    body = ODDS.replace('"3:1 or more" at 3:1', '"3:1 or more" above 2')
    assert found(compiler, body) == [("E321", 5, 33)]


def test_points_go_up_in_order(compiler: Compiler) -> None:
    body = ODDS.replace('"2:1" at 2:1', '"2:1" at 1:2')
    assert found(compiler, body) == [("E255", 4, 25)]


def test_a_rounding_on_up_to_columns_changes_nothing_and_says_so(compiler: Compiler) -> None:
    body = FIRE.replace("by range", "by range round down")
    compiled = compile_snippet(compiler, HEADER + body)
    got = [(d.code, d.pos.line - LINES, d.pos.column) for d in compiled.diagnostics if d.pos]
    assert got == [("W320", 1, 39)]


def test_hex_operational_close_combat_rounds_the_odds_down_as_its_rule_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    """Its comment: "rounded down in the defender's favour to a column's ratio"; it resolved
    7:3 as 3:1, 5:6 as 1:1 and 3:2 as 2:1."""
    compiled = compiler.compile_file(
        Path(__file__).parent.parent / "rulesets/hex_operational.terrain"
    )
    assert compiled.ruleset is not None
    hx = load(compiled.ruleset, tmp_path)
    assert hx.roll("crt", 3, column=(7, 3)).column == "odds_2_1"
    assert hx.roll("crt", 3, column=(5, 6)).column == "odds_1_2"
    assert hx.roll("crt", 3, column=(3, 2)).column == "odds_1_1"
    assert hx.roll("crt", 3, column=[3, 2]).column == "odds_1_1"  # a test vector's list
    assert hx.roll("crt", 3, column=(7, 2)).column == "odds_3_1"
    assert hx.RESULTS_TABLES["crt"].rounding == "down"


ROUNDING_LINES = {
    "en": "A value of odds between two columns is rounded down, to the lower column.",
    "fr": "Une valeur de rapport de forces entre deux colonnes est arrondie vers le bas",
    "ru": "округляется вниз, до меньшего столбца",
    "de": "zwischen zwei Spalten wird abgerundet, auf die niedrigere Spalte",
}


def test_the_sheet_prints_the_rounding_rule_in_every_language(compiler: Compiler) -> None:
    compiled = compiler.compile_file(RULESETS / "hex_operational.terrain")
    assert compiled.ruleset is not None
    for lang, line in ROUNDING_LINES.items():
        text = render_sheet(compiled.ruleset, "md", lang).decode("utf-8")
        assert line in text.replace("\u00a0", " ").replace("\u202f", " "), lang
        assert "| 2:1 |" in text, lang  # a column at a ratio its label says: the label alone
        assert "2:1 (" not in text, lang


# ---- the chance of each outcome per column -------------------------------------------------


def test_the_module_gives_each_outcomes_chance_per_column_naturals_included(
    compiler: Compiler, tmp_path: Path
) -> None:
    body = ODDS.replace("  1- |", "  natural 6 de\n  1- |").replace(
        "{\n", '{\n  modifier night "Night" -1\n', 1
    )
    m = module(compiler, tmp_path, body)
    crt = m.RESULTS_TABLES["crt"]
    # 1:2: totals 1-6 give ae, and the natural 6 gives de
    assert crt.chances["odds_1_2"] == {
        "ae": Fraction(5, 6),
        "dr": Fraction(0),
        "de": Fraction(1, 6),
    }
    # 2:1: 1 ae, 2 dr, 3-6 de
    assert crt.chances["odds_2_1"] == {
        "ae": Fraction(1, 6),
        "dr": Fraction(1, 6),
        "de": Fraction(4, 6),
    }
    # at night, 2:1: totals 0-5 -> ae ae dr de de, then the natural 6 de
    assert crt.chances_with["night"]["odds_2_1"] == {
        "ae": Fraction(2, 6),
        "dr": Fraction(1, 6),
        "de": Fraction(3, 6),
    }
    assert all(sum(c.values()) == 1 for c in crt.chances.values())


def test_the_sheet_prints_each_outcomes_chance_per_column(compiler: Compiler) -> None:
    compiled = compiler.compile_file(RULESETS / "hex_operational.terrain")
    assert compiled.ruleset is not None
    for lang, title in {
        "en": "Combat results: chance of each result (1d6)",
        "fr": "Table des résultats des combats : chances de chaque résultat",
        "ru": "вероятность каждого результата",
        "de": "Wahrscheinlichkeit jedes Ergebnisses",
    }.items():
        text = render_sheet(compiled.ruleset, "md", lang).decode("utf-8")
        assert title in text.replace("\u00a0", " ").replace("\u202f", " "), lang
    text = render_sheet(compiled.ruleset, "md", "en").decode("utf-8")
    assert (
        "| Defender eliminated | eliminated | 1/6 · 16.7% | 1/6 · 16.7% | 1/6 · 16.7% "
        "| 2/6 · 33.3% | 3/6 · 50.0% |" in text.replace("\u00a0", " ").replace("\u202f", " ")
    )


# ---- natural rolls on every dice table; "at least"; per column -----------------------------

EFFECTS = """dice terrain_effects "Terrain Effects" : 2d6 {
  modifier dropship "DropShip" +4
  modifier careful "Careful" -3
  natural 12 major
  natural 2 at least fire
  7-   no_effect "No effect"
  8-11 fire "Hex catches fire" | ignites
  12+  major "Major explosion" | damage 2d6
}
"""

WOUNDS = """dice wounds "Wounds" : 1d6 by damage {
  column light "Light" up to 2
  column heavy "Heavy" above 2
  outcome none "No effect"
  outcome pinned "Pinned"
  outcome wounded "Wounded"
  outcome dead "Dead"
  natural 6 at least wounded
  natural 1 | none | pinned
  1-2 | none   | pinned
  3-4 | pinned | wounded
  5+  | pinned | dead
}
"""


def test_a_natural_roll_on_a_plain_dice_table_gives_its_row_whatever_the_modifiers(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = module(compiler, tmp_path, EFFECTS)
    assert m.roll("terrain_effects", 9, natural=12).id == "major"  # careful: 12 - 3
    assert m.roll("terrain_effects", 9, natural=9).id == "fire"  # no natural row for 9
    assert m.roll("terrain_effects", 9).id == "fire"


def test_a_natural_at_least_row_gives_that_row_or_a_higher_one(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = module(compiler, tmp_path, EFFECTS)
    assert m.roll("terrain_effects", -1, natural=2).id == "fire"  # careful: 2 - 3
    assert m.roll("terrain_effects", 6, natural=2).id == "fire"  # dropship: 2 + 4
    assert m.roll("terrain_effects", 12, natural=2).id == "major"  # a higher row reached


def test_a_natural_row_counts_in_each_rows_chance(compiler: Compiler, tmp_path: Path) -> None:
    m = module(compiler, tmp_path, EFFECTS)
    rows = {r.id: r for r in m.DICE_TABLES["terrain_effects"].rows}
    assert rows["fire"].chance == Fraction(15, 36)  # 8-11, and the natural 2
    assert rows["no_effect"].chance == Fraction(20, 36)
    assert rows["major"].chance_with["careful"] == Fraction(1, 36)  # only the natural 12
    assert sum(r.chance_with["careful"] for r in rows.values()) == 1


def test_a_natural_at_least_outcome_is_raised_by_a_worse_column(
    compiler: Compiler, tmp_path: Path
) -> None:
    """ "A natural 6 is at least Wounded, and worse if the column says so"."""
    m = module(compiler, tmp_path, WOUNDS)
    assert m.roll("wounds", 6, column="light", natural=6).id == "wounded"
    assert m.roll("wounds", 6, column="heavy", natural=6).id == "dead"
    assert not m.roll("wounds", 6, column="heavy", natural=6).natural  # the total's, worse
    assert m.roll("wounds", 6, column="light", natural=6).natural
    assert m.roll("wounds", 6, column="heavy").id == "dead"


def test_a_natural_roll_may_give_one_outcome_per_column(compiler: Compiler, tmp_path: Path) -> None:
    m = module(compiler, tmp_path, WOUNDS)
    assert m.roll("wounds", 3, column="light", natural=1).id == "none"
    assert m.roll("wounds", 3, column="heavy", natural=1).id == "pinned"
    assert m.RESULTS_TABLES["wounds"].chances["light"] == {
        "none": Fraction(2, 6),
        "pinned": Fraction(3, 6),
        "wounded": Fraction(1, 6),
        "dead": Fraction(0),
    }


def test_a_natural_naming_no_row_of_a_plain_dice_table_is_an_error(compiler: Compiler) -> None:
    body = EFFECTS.replace("natural 12 major", "natural 12 majr")
    assert found(compiler, body) == [("E254", 4, 14)]
    ((_, message, hint),) = messages(compiler, body)
    assert message == "'majr' is not a row of 'terrain_effects'"
    assert hint == "did you mean 'major'?"


def test_a_natural_the_dice_cannot_roll_on_a_plain_table_is_an_error(compiler: Compiler) -> None:
    assert found(compiler, EFFECTS.replace("natural 12 major", "natural 13 major")) == [
        ("E256", 4, 3)
    ]


def test_a_natural_with_the_wrong_number_of_outcomes_per_column_is_an_error(
    compiler: Compiler,
) -> None:
    body = WOUNDS.replace("natural 1 | none | pinned", "natural 1 | none | pinned | dead")
    assert found(compiler, body) == [("E253", 9, 31)]


def test_the_sheet_prints_natural_rolls_in_every_language(compiler: Compiler) -> None:
    compiled = compile_snippet(compiler, HEADER + EFFECTS + WOUNDS)
    assert compiled.ruleset is not None
    lines = {
        "en": "A natural 12 (before modifiers) gives Major explosion, whatever the modifiers.",
        "fr": "donne au moins Hex catches fire",
        "ru": "не меньше чем «Wounded»",
        "de": "ergibt Spalte für Spalte: No effect, Pinned.",
    }
    for lang, line in lines.items():
        text = render_sheet(compiled.ruleset, "md", lang).decode("utf-8")
        assert line in text.replace("\u00a0", " ").replace("\u202f", " "), lang
    text = render_sheet(compiled.ruleset, "md", "en").decode("utf-8")
    assert "15/36 · 41.7%" in text.replace("\u00a0", " ").replace("\u202f", " ")


def test_a_natural_per_column_on_a_table_without_columns_is_an_error(compiler: Compiler) -> None:
    body = EFFECTS.replace("natural 12 major", "natural 12 | fire | major")
    assert found(compiler, body) == [("E323", 4, 16)]


# ---- house rules (re-opening a table) and `rulesdsl diff` ---------------------------------


def _variant(tmp_path: Path, base: str, house: str) -> tuple[ir.Ruleset, ir.Ruleset]:
    compiler = Compiler()
    (tmp_path / "demo.terrain").write_text(HEADER + base, "utf-8")
    header = 'ruleset house "House"\nversion 1.1.0\nextends demo@^1.0\n'
    (tmp_path / "house.terrain").write_text(header + house, "utf-8")
    old = compiler.compile_file(tmp_path / "demo.terrain")
    new = compiler.compile_file(tmp_path / "house.terrain")
    assert old.ruleset is not None and new.ruleset is not None, new.diagnostics
    assert new.ok, [(d.code, d.message) for d in new.diagnostics]
    return old.ruleset, new.ruleset


def test_a_house_rule_changes_the_rounding_and_a_natural_roll_by_reopening_the_table(
    tmp_path: Path,
) -> None:
    base = ODDS.replace("  1- |", "  natural 6 de\n  1- |")
    house = """dice crt : 1d6 by odds round up {
  natural 6 at least dr
  natural 1 ae
}
"""
    old, new = _variant(tmp_path, base, house)
    crt = new.results_tables[0]
    assert crt.rounding == "up"
    assert [(n.roll, n.outcome, n.at_least) for n in crt.naturals] == [
        (6, "dr", True),
        (1, "ae", False),
    ]
    m = load(new, tmp_path)
    assert m.roll("crt", 2, column=(7, 3)).column == "odds_3_1"
    d = semantic.diff(old, new)
    assert [(c.level, c.action, c.path) for c in d.changes if "crt" in c.path] == [
        ("breaking", "changed", "crt.rounding"),
        ("breaking", "added", "crt.natural.1"),
        ("breaking", "changed", "crt.natural.6"),
    ]
    assert "Combat results, rounding: round down -> round up" in [c.message for c in d.changes]


def test_diff_grades_a_natural_roll_changed_on_a_plain_dice_table(tmp_path: Path) -> None:
    old, new = _variant(
        tmp_path, EFFECTS, "dice terrain_effects : 2d6 {\n  natural 12 at least fire\n}\n"
    )
    d = semantic.diff(old, new)
    changes = [(c.level, c.action, c.path, c.message) for c in d.changes]
    assert (
        "rules",
        "changed",
        "terrain_effects.natural.12",
        "Terrain Effects, natural 12: Major explosion -> at least Hex catches fire",
    ) in changes


# ---- the YAML authoring front end ------------------------------------------------------------


def test_every_new_construct_survives_dsl_to_yaml_to_dsl(
    compiler: Compiler, tmp_path: Path
) -> None:
    text = HEADER + EFFECTS + WOUNDS + ODDS + FIRE + RAM + SHIFTING.replace("dice crt", "dice crt2")
    source, _ = Parser().parse(text, "demo.terrain")
    assert source is not None
    yaml_path = tmp_path / "demo.yaml"
    yaml_text = to_yaml(source)
    assert "round: down" in yaml_text and "point: '2:1'" in yaml_text
    assert "upto: 6 in" in yaml_text and "at_least: true" in yaml_text
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "back.terrain"
    back.write_text(to_terrain(yaml_path.read_text("utf-8")), "utf-8")
    compiled = [Compiler().compile_file(p) for p in (yaml_path, back)]
    assert all(c.ok for c in compiled), [c.diagnostics for c in compiled]
    rulesets = [c.ruleset for c in compiled] + [compile_snippet(compiler, text).ruleset]
    plain = [dataclasses.replace(r, digest="") for r in rulesets if r is not None]
    assert len(plain) == 3 and plain[0] == plain[1] == plain[2]
    assert plain[0].dice_tables[0].naturals[1].at_least
    assert plain[0].results_tables[0].naturals[1].by_column == ("none", "pinned")
    assert plain[0].results_tables[1].rounding == "down"
    assert plain[0].results_tables[2].columns[0].unit == "in"
    assert plain[0].results_tables[3].outcomes[1].effects["speed"] == ir.Number(0)
    assert plain[0].results_tables[4].modifiers[0].shift == -1


def test_a_natural_row_written_at_least_false_in_yaml_is_not_at_least() -> None:
    # The YAML is read as text on its way back to the DSL: "false" is a non-empty string,
    # and `at_least: false` came back as `natural 2 at least fire`.
    source, _ = Parser().parse(HEADER + EFFECTS, "demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "at_least: true" in yaml_text
    assert "natural 2 at least fire" in to_terrain(yaml_text)
    back = to_terrain(yaml_text.replace("at_least: true", "at_least: false"))
    assert "natural 2 fire" in back and "at least" not in back


# ---- outcomes that carry data ---------------------------------------------------------------

RAM = """dice ram "Ramming" : 2d6 by speed {
  column slow "Slow" up to 2 hex
  column fast "Fast" above 2 hex
  outcome glance "Glancing blow" | damage 1d6
  outcome hit "Solid hit"        | damage 2d6, speed 0
  outcome sunk "Sunk"            | hull_points 0, sinks
  natural 12 at least hit
  2-6  | glance | glance
  7-10 | glance | hit
  11+  | hit    | sunk
}
"""


def test_an_outcome_carries_effects_returned_by_roll(compiler: Compiler, tmp_path: Path) -> None:
    m = module(compiler, tmp_path, RAM)
    hit = m.roll("ram", 8, column=3)
    assert hit.id == "hit"
    assert hit.effects["damage"] == m.Dice(2, 6)
    assert hit.effects["speed"] == 0
    assert m.roll("ram", 12, column=3).effects == {"hull_points": 0, "sinks": True}
    assert m.roll("ram", 3, column=1, natural=12).effects["speed"] == 0  # the natural's outcome


def test_an_effect_that_is_not_a_name_and_value_is_an_error(compiler: Compiler) -> None:
    body = RAM.replace("| damage 1d6\n", "| 1d6\n")
    assert found(compiler, body) == [("E208", 4, 36)]


def test_the_sheet_prints_each_outcomes_effects(compiler: Compiler) -> None:
    compiled = compile_snippet(compiler, HEADER + RAM)
    assert compiled.ruleset is not None
    for lang, head in {"en": "effects", "fr": "effets", "ru": "эффекты", "de": "Wirkungen"}.items():
        text = render_sheet(compiled.ruleset, "md", lang).decode("utf-8")
        assert f"| {head} |" in text.lower() or f"| {head.lower()} |" in text.lower(), lang
        assert "speed" in text and "hull points" in text, lang


def test_a_house_rule_overrides_an_outcomes_effects(tmp_path: Path) -> None:
    old, new = _variant(tmp_path, RAM, "override ram.hit | damage 3d6, speed 0\n")
    hit = next(o for o in new.results_tables[0].outcomes if o.id == "hit")
    assert hit.effects["damage"] == ir.DiceValue(3, 6, 0)
    d = semantic.diff(old, new)
    assert ("rules", "changed", "ram.hit.damage") in [
        (c.level, c.action, c.path) for c in d.changes
    ]


# ---- column shifts ---------------------------------------------------------------------------

SHIFTING = ODDS.replace("{\n", '{\n  modifier doubles "Doubles" shift left 1 on doubles\n', 1)


def test_a_modifier_may_shift_the_column(compiler: Compiler, tmp_path: Path) -> None:
    """ "Doubles shift one column left": roll(..., shift=-1), as the modifier says."""
    m = module(compiler, tmp_path, SHIFTING)
    crt = m.RESULTS_TABLES["crt"]
    assert crt.shifts == {"doubles": -1}
    assert m.roll("crt", 2, column="odds_2_1", shift=-1).column == "odds_1_1"
    assert m.roll("crt", 2, column=(7, 3), shift=crt.shifts["doubles"]).id == "ae"
    assert m.roll("crt", 2, column="odds_1_2", shift=-1).column == "odds_1_2"  # stops at the edge
    assert m.roll("crt", 2, column="odds_3_1", shift=2).column == "odds_3_1"
    assert crt.chances_with["doubles"]["odds_2_1"] == crt.chances["odds_1_1"]


def test_a_shift_that_is_neither_left_nor_right_is_an_error(compiler: Compiler) -> None:
    body = SHIFTING.replace("shift left 1", "shift up 1")
    assert found(compiler, body) == [("E324", 2, 36)]


def test_a_shift_on_a_plain_dice_table_is_an_error(compiler: Compiler) -> None:
    body = EFFECTS.replace(
        'modifier careful "Careful" -3', 'modifier careful "Careful" shift left 1'
    )
    assert found(compiler, body) == [("E325", 3, 36)]


def test_the_sheet_prints_a_column_shift_in_every_language(compiler: Compiler) -> None:
    compiled = compile_snippet(compiler, HEADER + SHIFTING)
    assert compiled.ruleset is not None
    for lang, text in {
        "en": "with Doubles (shift left 1 on doubles)",
        "fr": "décalage à gauche de 1 sur un double",
        "ru": "сдвиг влево на 1 при дубле",
        "de": "Verschiebung nach links um 1 bei einem Pasch",
    }.items():
        sheet = render_sheet(compiled.ruleset, "md", lang).decode("utf-8")
        assert text in sheet.replace("\u00a0", " ").replace("\u202f", " "), lang


def test_a_column_shift_survives_yaml_and_is_graded_by_diff(
    compiler: Compiler, tmp_path: Path
) -> None:
    source, _ = Parser().parse(HEADER + SHIFTING, "demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "shift: left 1" in yaml_text
    path = tmp_path / "demo.yaml"
    path.write_text(yaml_text, "utf-8")
    back = Compiler().compile_file(path)
    assert back.ok and back.ruleset is not None
    assert back.ruleset.results_tables[0].modifiers[0].shift == -1
    old = back.ruleset
    table = old.results_tables[0]
    doubles = dataclasses.replace(table.modifiers[0], shift=-2)
    new = dataclasses.replace(
        old, results_tables=(dataclasses.replace(table, modifiers=(doubles,)),)
    )
    assert [(c.level, c.action, c.path, c.message) for c in semantic.diff(old, new).changes] == [
        ("rules", "changed", "crt.doubles.shift", "Combat results, Doubles: column shift -1 -> -2")
    ]


# ---- the bundled rulesets use the new constructs -------------------------------------------


def test_skirmish_injury_natural_one_only_knocks_down_and_natural_six_wounds_at_least(
    compiler: Compiler, tmp_path: Path
) -> None:
    compiled = compiler.compile_file(RULESETS / "skirmish_keywords.terrain")
    assert compiled.ruleset is not None and compiled.ok
    sk = load(compiled.ruleset, tmp_path)
    assert sk.roll("injury", 2, natural=1).id == "knocked_down"  # a heavy hit's natural 1
    assert sk.roll("injury", 4, natural=6).id == "wounded"  # -2 from a natural 6: still wounded
    assert sk.roll("injury", 7, natural=6).id == "out_of_action"
    rows = {r.id: r for r in sk.DICE_TABLES["injury"].rows}
    assert rows["knocked_down"].chance_with["heavy_hit"] == Fraction(1, 6)
    assert [r.chance for r in rows.values()] == [
        Fraction(1, 6),
        Fraction(1, 3),
        Fraction(1, 3),
        Fraction(1, 6),
    ]


def test_hex_operational_outcomes_carry_what_they_do(compiler: Compiler, tmp_path: Path) -> None:
    compiled = compiler.compile_file(RULESETS / "hex_operational.terrain")
    assert compiled.ruleset is not None
    hx = load(compiled.ruleset, tmp_path)
    assert hx.roll("crt", 3, column=(7, 3)).effects == {"step_losses": 1}
    assert hx.roll("crt", 4, column=(7, 3)).effects == {"retreat": 1}
    assert hx.roll("crt", 1, column=(1, 1)).effects == {"eliminated": True}


def test_an_unknown_unit_on_a_column_bound_is_one_error_at_the_bound(compiler: Compiler) -> None:
    body = FIRE.replace("up to 6 in", "up to 6 furlongs")
    assert found(compiler, body) == [("E104", 2, 22)]
    ((_, message, _),) = messages(compiler, body)
    assert message == "unknown unit 'furlongs'"
