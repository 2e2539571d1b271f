"""Line of sight along a line of places and results tables with columns chosen by a value
(issue 11, items 9 and 10): the module's answers on worked examples, its argument checks,
the diagnostics for misuse (code, line, column) through both front ends, and the round trip
DSL -> YAML -> DSL."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from rulesdsl.diagnostics import Diagnostic
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from tests.conftest import compile_snippet, import_rendered

HEADER = """ruleset demo "Demo"
version 1.0.0
units distance hex, cost MP
mode foot "Foot"
"""
HEADER_LINES = HEADER.count("\n")

SIGHT = """sight los "Line of sight" : blocks at 3, counts between
layer terrain "Terrain" {
  columns cost, los
  clear "Clear"             | 1
  light_woods "Light woods" | 2 | 1
  heavy_woods "Heavy woods" | 3 | 2
  tower "Tower"             | impassable | blocked
}
layer smoke "Smoke" {
  columns cost, los
  haze "Haze" | 0 | 1
}
"""

CRT = """dice crt "Combat results" : 1d6 by odds {
  modifier river "River crossing" -1
  modifier night "Night" -1
  column low "1:1 or less" up to 1
  column mid "2:1" up to 2
  column high "3:1+" above 2
  outcome ae "Attacker eliminated"
  outcome dr "Defender retreats"
  outcome de "Defender eliminated"
  natural 6 de
  1-  | ae | ae | dr
  2   | ae | dr | dr
  3-4 | dr | dr | de
  5+  | dr | de | de
}
trigger assault "Assault" : roll crt with river, night
"""


def module(compiler: Compiler, tmp_path: Path, body: str) -> ModuleType:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok, [(d.code, d.message) for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    return load(compiled.ruleset, tmp_path)


def load(ruleset: ir.Ruleset, tmp_path: Path) -> ModuleType:
    return import_rendered(ruleset, tmp_path, f"sight_{abs(hash(str(tmp_path)))}_{ruleset.id}")


# ---- line of sight -----------------------------------------------------------------------


def test_two_light_woods_between_do_not_block_a_third_does(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = module(compiler, tmp_path, SIGHT)
    clear, light = ("clear",), ("light_woods",)
    two = m.line_of_sight("los", clear, light, light, clear)
    assert (two.hindrance, two.blocked, two.by_place) == (2, False, (0, 1, 1, 0))
    three = m.line_of_sight("los", clear, light, light, light, clear)
    assert (three.hindrance, three.blocked) == (3, True)


def test_one_heavy_and_one_light_woods_block_at_three(compiler: Compiler, tmp_path: Path) -> None:
    m = module(compiler, tmp_path, SIGHT)
    line = m.line_of_sight("los", ("clear",), ("heavy_woods",), ("light_woods",), ("clear",))
    assert (line.hindrance, line.blocked, line.by_place) == (3, True, (0, 2, 1, 0))


def test_counts_between_leaves_out_the_firer_and_the_target(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = module(compiler, tmp_path, SIGHT)
    heavy = ("heavy_woods",)
    line = m.line_of_sight("los", heavy, ("clear",), heavy)
    assert (line.hindrance, line.blocked, line.by_place) == (0, False, (0, 0, 0))


def test_counts_target_adds_the_target_place_and_both_adds_the_firer(
    compiler: Compiler, tmp_path: Path
) -> None:
    heavy = ("heavy_woods",)
    target = module(compiler, tmp_path, SIGHT.replace("counts between", "counts target"))
    line = target.line_of_sight("los", heavy, ("light_woods",), heavy)
    assert (line.hindrance, line.blocked, line.by_place) == (3, True, (0, 1, 2))
    both_dir = tmp_path / "both"
    both_dir.mkdir()
    both = module(compiler, both_dir, SIGHT.replace("counts between", "counts both"))
    line = both.line_of_sight("los", heavy, ("clear",), ("clear",))
    assert (line.hindrance, line.blocked, line.by_place) == (2, False, (2, 0, 0))


def test_a_blocked_place_blocks_alone_and_features_of_a_place_add_up(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = module(compiler, tmp_path, SIGHT)
    line = m.line_of_sight("los", ("clear",), ("tower",), ("clear",))
    assert (line.hindrance, line.blocked, line.by_place) == (0, True, (0, m.BLOCKED, 0))
    hazy = m.line_of_sight("los", ("clear",), ("light_woods", "haze"), ("clear",))
    assert (hazy.hindrance, hazy.blocked, hazy.by_place) == (2, False, (0, 2, 0))


def test_a_sight_rule_with_no_threshold_blocks_only_on_blocked_places(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = module(compiler, tmp_path, SIGHT.replace("blocks at 3, counts between", "counts target"))
    woods = ("heavy_woods",)
    line = m.line_of_sight("los", woods, woods, woods, woods, woods)
    assert (line.hindrance, line.blocked) == (8, False)
    assert m.SIGHTS["los"].blocks_at is None


def test_line_of_sight_checks_its_arguments(compiler: Compiler, tmp_path: Path) -> None:
    m = module(compiler, tmp_path, SIGHT)
    with pytest.raises(m.UnknownName, match="lso"):
        m.line_of_sight("lso", ("clear",), ("clear",))
    with pytest.raises(m.UnknownName, match="wods"):
        m.line_of_sight("los", ("clear",), ("wods",), ("clear",))
    with pytest.raises(m.ArgumentTypeError, match="one tuple of feature names per place"):
        m.line_of_sight("los", "clear", "clear")
    with pytest.raises(m.InvalidPlace, match="listed twice"):
        m.line_of_sight("los", ("clear",), ("clear", "clear"), ("clear",))


# ---- results tables -----------------------------------------------------------------------


def test_the_column_is_picked_by_the_odds_and_the_row_by_the_total(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = module(compiler, tmp_path, CRT)
    assert m.roll("crt", 3, column=0.5).id == "dr"  # 1:2 is "1:1 or less"
    assert m.roll("crt", 2, column=1).id == "ae"
    assert m.roll("crt", 2, column=1.5).id == "dr"  # 3:2 falls in "2:1"
    result = m.roll("crt", 4, column=3)
    assert (result.id, result.column, result.low, result.high, result.natural) == (
        "de",
        "high",
        3,
        4,
        False,
    )
    assert result.label == {"en": "Defender eliminated"}
    assert m.roll("crt", 4, column="mid").id == "dr"  # a column by name


def test_a_natural_six_eliminates_the_defender_whatever_the_column_and_modifiers(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = module(compiler, tmp_path, CRT)
    result = m.roll("crt", 4, column="low", natural=6)  # 6 - 2 for river and night
    assert (result.id, result.natural, result.low, result.high) == ("de", True, 6, 6)
    assert m.roll("crt", 3, column="low", natural=5).id == "dr"  # not a natural row


def test_several_modifiers_on_one_trigger_are_carried_to_the_module(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = module(compiler, tmp_path, CRT)
    trigger = m.TRIGGERS["assault"]
    assert (trigger.modifier, trigger.more_modifiers) == ("river", ("night",))
    assert m.roll("crt", 1 - 2, column="high").id == "dr"  # a natural 1 with both: -1


def test_roll_on_a_results_table_checks_its_arguments(compiler: Compiler, tmp_path: Path) -> None:
    m = module(compiler, tmp_path, CRT)
    with pytest.raises(m.InvalidArgument, match="column"):
        m.roll("crt", 3)
    with pytest.raises(m.UnknownName, match="midd"):
        m.roll("crt", 3, column="midd")
    with pytest.raises(m.InvalidArgument, match="finite"):
        m.roll("crt", 3, column=float("nan"))
    with pytest.raises(m.InvalidArgument, match="whole number"):
        m.roll("crt", 2.5, column="low")
    with pytest.raises(m.ArgumentTypeError, match="total"):
        m.roll("crt", "3", column="low")
    with pytest.raises(m.UnknownName, match="crtt"):
        m.roll("crtt", 3, column="low")


def test_the_results_table_is_data_in_the_module(compiler: Compiler, tmp_path: Path) -> None:
    m = module(compiler, tmp_path, CRT)
    table = m.RESULTS_TABLES["crt"]
    assert table.by == "odds"
    assert [(c.id, c.bound, c.value) for c in table.columns] == [
        ("low", "up_to", 1),
        ("mid", "up_to", 2),
        ("high", "above", 2),
    ]
    assert table.naturals == {6: "de"}
    assert table.rows[2] == (3, 4, ("dr", "dr", "de"))
    assert table.modifiers == {"river": -1, "night": -1}


# ---- diagnostics --------------------------------------------------------------------------

CORPUS: list[tuple[str, str, int, int]] = [
    # (code, body after the header, line in the body, column)
    ("E250", 'sight los "LOS" : blocks at 0, counts between\n', 1, 19),
    ("E251", 'sight los "LOS" : blocks at 3, counts around\n', 1, 39),
    (
        "E252",
        'sight los "LOS" : blocks at 3\nlayer t "T" {\n  columns cost, los\n'
        '  woods "Woods" | 2 | 1, foot & foot 2\n}\n',
        4,
        26,
    ),
    (
        "E253",
        CRT.replace("3-4 | dr | dr | de", "3-4 | dr | dr | de | de"),
        13,
        24,
    ),
    ("E254", CRT.replace("2   | ae | dr | dr", "2   | ae | rd | dr"), 12, 14),
    ("E255", CRT.replace('column low "1:1 or less" up to 1', 'column low "1:1" up to 2'), 5, 20),
    ("E255", CRT.replace('column high "3:1+" above 2', 'column high "3:1+" above 3'), 6, 22),
    ("E255", CRT.replace('column high "3:1+" above 2', 'column high "3:1+" up to 9'), 6, 10),
    ("E256", CRT.replace("natural 6 de", "natural 7 de"), 10, 3),
    ("E257", CRT.replace(": 1d6 by odds {", ": 1d6 {"), 1, 6),
    ("E258", CRT.replace("with river, night", "with river, river"), 16, 50),
    ("E259", CRT.replace("natural 6 de", "natural 6 de\n  natural 6 dr"), 11, 3),
    ("E313", CRT.replace("1-  |", "0-1 |"), 16, 9),
]


def located(compiler: Compiler, text: str) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, text)
    return [
        (d.code, d.pos.line, d.pos.column)
        for d in compiled.diagnostics
        if d.is_error and d.pos is not None
    ]


@pytest.mark.parametrize(
    ("code", "text", "line", "column"), CORPUS, ids=[f"{c[0]}-{i}" for i, c in enumerate(CORPUS)]
)
def test_each_misuse_gets_its_code_at_its_place(
    compiler: Compiler, code: str, text: str, line: int, column: int
) -> None:
    assert located(compiler, HEADER + text) == [(code, HEADER_LINES + line, column)]


@pytest.mark.parametrize(
    ("code", "text"), [(c[0], c[1]) for c in CORPUS], ids=[c[0] for c in CORPUS]
)
def test_each_misuse_gets_the_same_code_through_the_yaml_front_end(
    compiler: Compiler, tmp_path: Path, code: str, text: str
) -> None:
    found = yaml_errors(HEADER + text, tmp_path)
    assert [d.code for d in found] == [code]


def yaml_errors(text: str, tmp_path: Path) -> list[Diagnostic]:
    """The errors of ``text`` converted to YAML and compiled, each checked to point at a
    line of the YAML file that holds something."""
    source, syntax = Parser().parse(text, "bad.terrain")
    assert source is not None and not syntax
    path = tmp_path / "bad.yaml"
    yaml_text = to_yaml(source)
    path.write_text(yaml_text, "utf-8")
    found = [d for d in Compiler().compile_file(path).diagnostics if d.is_error]
    for diag in found:
        assert diag.pos is not None and diag.pos.file == str(path)
        assert yaml_text.splitlines()[diag.pos.line - 1].strip()
    return found


def test_an_outcome_no_row_gives_is_w250(compiler: Compiler) -> None:
    text = HEADER + CRT.replace(
        'outcome de "Defender eliminated"', 'outcome de "D"\n  outcome ex "Exchange"'
    )
    warnings = [(d.code, d.pos.line) for d in compile_snippet(compiler, text).diagnostics if d.pos]
    assert warnings == [("W250", HEADER_LINES + 10)]


def test_a_sight_rule_no_layer_uses_is_w251(compiler: Compiler) -> None:
    text = HEADER + 'sight los "LOS" : blocks at 3\n'
    found = [
        (d.code, d.pos.line, d.pos.column)
        for d in compile_snippet(compiler, text).diagnostics
        if d.pos
    ]
    assert found == [("W251", HEADER_LINES + 1, 7)]


# ---- round trip -------------------------------------------------------------------------


def test_sight_and_results_survive_dsl_to_yaml_to_dsl(compiler: Compiler, tmp_path: Path) -> None:
    text = HEADER + SIGHT + CRT
    source, _ = Parser().parse(text, "demo.terrain")
    assert source is not None
    yaml_path = tmp_path / "demo.yaml"
    yaml_path.write_text(to_yaml(source), "utf-8")
    back = tmp_path / "back.terrain"
    back.write_text(to_terrain(yaml_path.read_text("utf-8")), "utf-8")
    rulesets = [Compiler().compile_file(p).ruleset for p in (yaml_path, back)] + [
        compile_snippet(compiler, text).ruleset
    ]
    assert all(isinstance(r, ir.Ruleset) for r in rulesets)
    plain = [dataclasses.replace(r, digest="") for r in rulesets if r is not None]
    assert plain[0] == plain[1] == plain[2]
    assert plain[0].results_tables[0].naturals[0].roll == 6
    assert plain[0].sights[0].counts == "between"


def test_the_module_answers_as_semantics_for_every_total_column_and_natural(
    compiler: Compiler, tmp_path: Path
) -> None:
    from rulesdsl import semantics

    m = module(compiler, tmp_path, CRT)
    rs = compile_snippet(compiler, HEADER + CRT).ruleset
    assert rs is not None
    [table] = rs.results_tables
    totals = semantics.results_index(table, semantics.trigger_shifts(rs, table.id))
    assert sorted(totals) == [-1, 0, 1, 2, 3, 4, 5, 6]  # both modifiers reach -1
    for total in totals:
        for column in table.columns:
            for natural in (None, 1, 6):
                expected = semantics.result(table, total, column.id, natural)
                assert m.roll("crt", total, column=column.id, natural=natural).id == expected


# ---- diff and variants ---------------------------------------------------------------------


def test_diff_grades_a_changed_cell_threshold_or_natural_as_breaking(compiler: Compiler) -> None:
    from rulesdsl.versions.diff import diff

    old = compile_snippet(compiler, HEADER + SIGHT + CRT).ruleset
    changed = (
        (SIGHT + CRT)
        .replace("blocks at 3", "blocks at 4")
        .replace('heavy_woods "Heavy woods" | 3 | 2', 'heavy_woods "Heavy woods" | 3 | 1')
        .replace("3-4 | dr | dr | de", "3-4 | dr | ae | de")
        .replace("natural 6 de", "natural 6 dr")
        .replace("with river, night", "with night")
    )
    new = compile_snippet(compiler, HEADER + changed).ruleset
    assert old is not None and new is not None
    found = {(c.level, c.path, c.old, c.new) for c in diff(old, new).changes}
    assert found == {
        ("breaking", "los", "3", "4"),
        ("breaking", "heavy_woods.los", "2", "1"),
        ("breaking", "crt.3-4.mid", "dr", "ae"),
        ("breaking", "crt.natural.6", "de", "dr"),
        ("rules", "assault", "roll crt with river, night", "roll crt with night"),
    }


def test_diff_grades_a_new_outcome_as_additive_and_a_moved_column_bound_as_breaking(
    compiler: Compiler,
) -> None:
    from rulesdsl.versions.diff import diff

    old = compile_snippet(compiler, HEADER + CRT).ruleset
    changed = (
        CRT.replace("up to 2\n", "up to 3\n")
        .replace("above 2", "above 3")
        .replace(
            'outcome de "Defender eliminated"',
            'outcome de "Defender eliminated"\n  outcome ex "Ex"',
        )
        .replace("natural 6 de", "natural 6 ex")
    )
    new = compile_snippet(compiler, HEADER + changed).ruleset
    assert old is not None and new is not None
    found = {(c.level, c.action, c.path) for c in diff(old, new).changes}
    assert found == {
        ("additive", "added", "crt.ex"),
        ("breaking", "changed", "crt.mid"),
        ("breaking", "changed", "crt.high"),
        ("breaking", "changed", "crt.natural.6"),
    }


def test_a_house_rule_overrides_a_feature_s_sight_value(compiler: Compiler, tmp_path: Path) -> None:
    (tmp_path / "demo.terrain").write_text(HEADER + SIGHT, "utf-8")
    house = (
        'ruleset house "House"\nversion 1.0.0\nextends demo@^1.0\noverride heavy_woods.los | 3\n'
    )
    compiled = compile_snippet(compiler, house, tmp_path, "house.terrain")
    assert compiled.ok, [(d.code, d.message) for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    m = load(compiled.ruleset, tmp_path)
    line = m.line_of_sight("los", ("clear",), ("heavy_woods",), ("clear",))
    woods = next(f for f in compiled.ruleset.features if f.id == "heavy_woods")
    assert woods.cells["los"].default == ir.Number(3)
    assert (line.hindrance, line.blocked) == (3, True)
    [change] = compiled.ruleset.changes
    assert isinstance(change.path, ir.ColumnPath) and change.path.column == "los"


def test_no_ruleset_may_name_a_decision_line_of_sight(compiler: Compiler) -> None:
    """The module of a ruleset with sight rules defines line_of_sight(); one without may not
    take the name either (issue 39): a caller could not tell the decision from the sight
    function of other modules (generic_wargame's decision is sight_in_cover since 2.0.0)."""
    decision = (
        'decision line_of_sight "LOS" (d in) {\n'
        '  d <= 2 -> yes_los "Yes"\n  otherwise -> no_los "No"\n}\n'
    )
    assert located(compiler, HEADER + decision) == [("E103", HEADER_LINES + 1, 10)]
    found = located(compiler, HEADER + SIGHT + decision)
    assert found == [("E103", HEADER_LINES + SIGHT.count("\n") + 1, 10)]


def test_a_results_table_of_too_many_dice_is_e304_and_lists_no_totals(compiler: Compiler) -> None:
    # found by the long fuzz run: `99999d99999 by odds` listed every total (a hang)
    text = HEADER + CRT.replace(": 1d6 by odds", ": 99999d99999 by odds")
    assert located(compiler, text) == [("E304", HEADER_LINES + 1, 29)]


def test_a_natural_roll_beyond_every_float_is_a_diagnostic_in_both_front_ends(
    compiler: Compiler, tmp_path: Path
) -> None:
    # found by the long fuzz run: a YAML natural roll of 400 digits raised OverflowError in
    # the numbers pass (int too large to convert to float) through every verb, and one of
    # 5,000 digits a ValueError in PyYAML; both front ends now refuse the literal (E005)
    source, _ = Parser().parse(HEADER + CRT, "crt.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "{natural: 6, " in yaml_text
    for digits in (400, 5000):
        huge = "9" * digits
        text = HEADER + CRT.replace("natural 6 de", f"natural {huge} de")
        dsl = [d.code for d in compile_snippet(compiler, text).diagnostics if d.is_error]
        assert dsl == ["E005"]
        path = tmp_path / "crt.yaml"
        path.write_text(yaml_text.replace("{natural: 6, ", f"{{natural: {huge}, "), "utf-8")
        found = [d for d in Compiler().compile_file(path).diagnostics if d.is_error]
        assert [(d.code, d.message) for d in found] == [
            ("E005", f"number too large ({digits} digits)")
        ]


def test_the_numbers_pass_takes_an_int_beyond_every_float_as_unusable() -> None:
    from rulesdsl.checks import walk

    assert list(walk.numbers(ir.Clamp(-(10**400), 10**400))) == [
        ("low", float("-inf")),
        ("high", float("inf")),
    ]
