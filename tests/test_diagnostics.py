"""Bad input gives diagnostics with a stable code, a line and a column; never a traceback."""

from __future__ import annotations

import dataclasses
import pickle
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl.compiler import Compiler
from rulesdsl.diagnostics import CODES, Pos, new_pos, render_text
from tests.conftest import compile_snippet

HEADER = """ruleset demo "Demo"
version 1.0.0
units distance in, cost MP
mode walker "Walker"
mode hover "Hover"
"""
HEADER_LINES = HEADER.count("\n")


def found(compiler: Compiler, text: str) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, text)
    return [
        (d.code, d.pos.line, d.pos.column)
        for d in compiled.diagnostics
        if d.is_error and d.pos is not None
    ]


def body(text: str) -> str:
    return HEADER + text


def line(n: int) -> int:
    """Line n of the body (1-based) as a line of the whole snippet."""
    return HEADER_LINES + n


def test_syntax_error_unexpected_token(compiler: Compiler) -> None:
    assert found(compiler, body('mode fly "Fly" |\n')) == [("E001", line(1), 16)]


def test_syntax_error_unexpected_character(compiler: Compiler) -> None:
    assert found(compiler, body("mode fly 'Fly'\n")) == [("E002", line(1), 10)]


def test_syntax_errors_in_several_statements_are_all_reported(compiler: Compiler) -> None:
    text = body('mode a "A" |\nmode b "B"\nmode c "C" ]\n')
    assert [c[:2] for c in found(compiler, text)] == [("E001", line(1)), ("E001", line(3))]


def test_unknown_mode_in_a_cell_suggests_the_nearest(compiler: Compiler) -> None:
    text = body('layer t "T" {\n  soft "Soft" | 2, walkr 3\n}\n')
    compiled = compile_snippet(compiler, text)
    [diag] = [d for d in compiled.diagnostics if d.is_error]
    assert (diag.code, diag.pos and diag.pos.line, diag.pos and diag.pos.column) == (
        "E101",
        line(2),
        20,
    )
    assert diag.hint == "did you mean 'walker'?"


def test_unknown_feature_after_as(compiler: Compiler) -> None:
    text = body('layer t "T" {\n  clear "Clear" | 1\n  swamp "Swamp" | as clera\n}\n')
    assert found(compiler, text) == [("E101", line(3), 22)]


def test_unknown_dice_table_in_a_trigger(compiler: Compiler) -> None:
    text = body('dice fx "FX" : 1d6 {\n  1-6 all "All"\n}\ntrigger t "T" : roll fz\n')
    assert found(compiler, text) == [("E101", line(4), 22)]


def test_duplicate_definition_points_at_the_first(compiler: Compiler) -> None:
    compiled = compile_snippet(compiler, body('mode walker "Walker again"\n'))
    [diag] = [d for d in compiled.diagnostics if d.is_error]
    assert (diag.code, diag.pos and diag.pos.line, diag.pos and diag.pos.column) == (
        "E102",
        line(1),
        6,
    )
    assert diag.related[0].pos.line == 4


def test_reserved_name(compiler: Compiler) -> None:
    assert found(compiler, body('mode lambda "L"\n')) == [("E103", line(1), 6)]
    assert found(compiler, body('mode move_cost "M"\n')) == [("E103", line(1), 6)]


def test_unknown_unit(compiler: Compiler) -> None:
    text = body('step s "S" (x inch) -> points : +1 per 2 in\n')
    assert found(compiler, text)[0] == ("E104", line(1), 15)
    rows = '  clear "Clear" | 1 furlongs\n  mud "Mud" | 1 per 2 furlongs\n'  # a cell's number, rate
    cell = found(compiler, body('layer ground "Ground" {\n' + rows + "}\n"))
    assert [f for f in cell if f[0] == "E104"] == [("E104", line(2), 19), ("E104", line(3), 15)]


def test_unknown_language_in_a_label(compiler: Compiler) -> None:
    assert found(compiler, body('mode fly "Fly" de "Flug"\n')) == [("E105", line(1), 16)]


def test_missing_ruleset_declaration(compiler: Compiler) -> None:
    assert found(compiler, 'version 1.0.0\nmode a "A"\n') == [("E110", 1, 1)]


def test_a_second_ruleset_line_is_e110_at_its_name(compiler: Compiler) -> None:
    assert found(compiler, body('ruleset other "Other"\n')) == [("E110", line(1), 9)]


def test_value_of_the_wrong_kind(compiler: Compiler) -> None:
    text = body('layer t "T" {\n  odd "Odd" | "three"\n}\n')
    assert found(compiler, text) == [("E201", line(2), 15)]


def test_step_with_a_zero_divisor(compiler: Compiler) -> None:
    text = body('step s "S" (x in) -> points : +1 per full 0 in\n')
    assert found(compiler, text) == [("E202", line(1), 43)]


def test_rate_with_a_zero_divisor(compiler: Compiler) -> None:
    text = body('layer t "T" {\n  road "Road" | 1, walker 1 per 0 in\n}\n')
    assert found(compiler, text) == [("E202", line(2), 27)]


def test_unit_of_the_wrong_dimension(compiler: Compiler) -> None:
    assert found(compiler, HEADER.replace("distance in", "distance MP")) == [("E203", 3, 16)]


def test_row_with_too_many_cells(compiler: Compiler) -> None:
    text = body('layer t "T" {\n  wide "Wide" | 1 | 2\n}\n')
    assert found(compiler, text) == [("E204", line(2), 21)]


def test_as_references_that_go_round_in_a_circle(compiler: Compiler) -> None:
    text = body('layer t "T" {\n  a "A" | as b\n  b "B" | as a\n}\n')
    assert ("E205", line(2), 11) in found(compiler, text)


def test_decision_without_otherwise(compiler: Compiler) -> None:
    text = body('decision d "D" (x in) {\n  x > 1 -> big "Big"\n}\n')
    assert found(compiler, text) == [("E206", line(1), 10)]


CELL_TABLES = """table t "T" {
  column a "A"
  column b "B"
  turn "Turn" | 90 deg per 1.5 m | any
  up "Up" | 45 deg | half
  reach "Reach" | 3 m | 2 ft
}
"""


@pytest.mark.parametrize(
    ("condition", "code", "column"),
    [
        ("x > t[k].turn", "E211", 7),  # a rate needs `over <distance>`
        ("x > t[k].up", "E201", 7),  # the word 'half' is no bound
        ("x > t[kk].up", "E101", 9),  # unknown input
        ("x > t[k].nope", "E101", 12),  # unknown row
        ("n > t[k].reach", "E203", 7),  # ft compared with m
        ("x > u[k].up", "E101", 7),  # unknown table
    ],
)
def test_comparisons_with_table_cells(
    compiler: Compiler, condition: str, code: str, column: int
) -> None:
    text = body(
        CELL_TABLES
        + 'decision d "D" (k t, x deg, n m) {\n  '
        + condition
        + ' -> r "R"\n  otherwise -> ok "OK"\n}\n'
    )
    assert found(compiler, text) == [(code, line(CELL_TABLES.count("\n") + 2), column)]


def test_dice_table_with_a_gap(compiler: Compiler) -> None:
    text = body('dice fx "FX" : 2d6 {\n  2-6 low "Low"\n  8-12 high "High"\n}\n')
    compiled = compile_snippet(compiler, text)
    [diag] = [d for d in compiled.diagnostics if d.is_error]
    assert (diag.code, diag.pos and diag.pos.line, diag.pos and diag.pos.column) == (
        "E301",
        line(1),
        6,
    )
    assert "total 7 of 2d6 is in no row" in diag.message


def test_dice_table_with_overlapping_rows(compiler: Compiler) -> None:
    text = body('dice fx "FX" : 2d6 {\n  2-7 low "Low"\n  7-12 high "High"\n}\n')
    compiled = compile_snippet(compiler, text)
    [diag] = [d for d in compiled.diagnostics if d.is_error]
    assert (diag.code, diag.pos and diag.pos.line, diag.pos and diag.pos.column) == (
        "E302",
        line(3),
        3,
    )
    assert diag.related[0].pos.line == line(2)


def test_dice_modifier_pushing_totals_past_the_last_row(compiler: Compiler) -> None:
    text = body(
        'dice fx "FX" : 2d6 {\n  modifier big "Big" +4\n  2-7 low "Low"\n  8-12 high "High"\n}\n'
    )
    assert found(compiler, text) == [("E303", line(1), 6)]
    fixed = text.replace("8-12 high", "8+ high")
    assert found(compiler, fixed) == []


@pytest.mark.parametrize(
    ("wrong", "right", "message", "hint"),
    [
        ("units distance in,", "units distanse in,", "unknown unit role 'distanse'", "'distance'"),
        ("version 1.0.0\n", "version 1.0.0\nstacking summ\n", "stacking policy 'summ'", "'sum'"),
    ],
)
def test_a_name_lowering_does_not_know_is_e101_hinted_with_the_nearest(
    compiler: Compiler, wrong: str, right: str, message: str, hint: str
) -> None:
    compiled = compile_snippet(compiler, HEADER.replace(wrong, right))
    [diag] = [d for d in compiled.diagnostics if d.is_error]
    assert diag.code == "E101"
    assert message in diag.message
    assert diag.hint == f"did you mean {hint}?"


def test_unreadable_file(compiler: Compiler, tmp_path: Path) -> None:
    compiled = compiler.compile_file(tmp_path / "missing.terrain")
    assert [d.code for d in compiled.diagnostics] == ["E003"]


def test_every_error_of_a_file_is_reported_in_one_run(compiler: Compiler) -> None:
    text = body(
        'mode walker "Again"\nlayer t "T" {\n  soft "Soft" | 2, walkr 3\n}\n'
        'step s "S" (x in) -> points : +1 per full 0 in\n'
    )
    assert [c[0] for c in found(compiler, text)] == ["E102", "E101", "E202"]


def test_rendered_diagnostic_has_path_line_column_caret_and_hint(compiler: Compiler) -> None:
    text = body('layer t "T" {\n  soft "Soft" | 2, walkr 3\n}\n')
    compiled = compile_snippet(compiler, text)
    rendered = render_text(compiled.diagnostics[0], compiler.sources).splitlines()
    assert rendered[0].endswith(
        f"snippet.terrain:{line(2)}:20: error[E101]: unknown mode or group 'walkr'"
    )
    assert rendered[1].endswith('|   soft "Soft" | 2, walkr 3')
    assert rendered[2].endswith("|                    ^^^^^")
    assert rendered[3] == "  = hint: did you mean 'walker'?"


def test_every_code_is_documented() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "diagnostics.md").read_text("utf-8")
    for code in CODES:
        assert f"`{code}`" in doc, code


TOKENS = [
    "ruleset",
    "version",
    "1.0.0",
    "mode",
    "layer",
    "step",
    "dice",
    "decision",
    "table",
    "{",
    "}",
    "|",
    ":",
    ",",
    "->",
    "per",
    "full",
    "as",
    "2d6",
    "1d6+3",
    "2-7",
    "12+",
    "+1",
    "-2",
    "1.5",
    "in",
    "m",
    '"Label"',
    "fr",
    "[",
    "]",
    "note",
    "x",
    "walker",
    "otherwise",
    "impassable",
    "override",
    "remove",
    "extends",
    "@",
    "^1.0",
    "\n",
    "\n",
    "#",
    "'",
    "(",
    ")",
    "=",
    ">=",
    "and",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(TOKENS), max_size=40), st.text(alphabet=string.printable, max_size=20)
)
def test_arbitrary_input_never_raises(compiler: Compiler, words: list[str], noise: str) -> None:
    text = HEADER + " ".join(words) + noise
    compiled = compile_snippet(compiler, text)
    for diag in compiled.diagnostics:
        assert diag.code in CODES
        render_text(diag, compiler.sources)


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "ruleset", "}"])
def test_degenerate_files(compiler: Compiler, text: str) -> None:
    compiled = compile_snippet(compiler, text)
    assert not compiled.ok
    assert all(d.code in CODES for d in compiled.diagnostics)


# ---- issue 40: the syntax errors that cost the trials the most time -------------------------


def test_a_source_after_ignores_others_on_a_row_is_accepted(compiler: Compiler) -> None:
    text = body(
        'book rb "Rule book"\n'
        'layer terrain "Terrain" {\n'
        '  clear "Clear" | 1\n'
        '  road "Road" | 1 ignores others [rb p.4]\n'
        "}\n"
    )
    compiled = compile_snippet(compiler, text)
    assert compiled.ok, [str(d) for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    road = next(f for f in compiled.ruleset.features if f.id == "road")
    assert road.ignores_others and road.info.source is not None


def test_a_note_after_a_tables_closing_brace_says_where_notes_go(compiler: Compiler) -> None:
    text = body('table speeds "Speeds" {\n  columns walk\n  w "W" | 1\n} note "hello"\n')
    compiled = compile_snippet(compiler, text)
    [d] = [d for d in compiled.diagnostics if d.is_error]
    assert (d.code, d.pos and d.pos.line) == ("E001", line(4))
    assert d.hint is not None and "before '{'" in d.hint
    moved = body('table speeds "Speeds" note "hello" {\n  columns walk\n  w "W" | 1\n}\n')
    assert compile_snippet(compiler, moved).ok  # where the hint says it goes, it is accepted


def test_a_rows_source_before_its_cells_says_where_a_rows_source_goes(compiler: Compiler) -> None:
    text = body('layer terrain "Terrain" {\n  clear "Clear" | 1\n  hill "Hill" [rb p.4] | 2\n}\n')
    compiled = compile_snippet(compiler, 'book rb "RB"\n' + text)
    [d] = [d for d in compiled.diagnostics if d.is_error]
    assert d.code == "E001" and str(d.message) == "unexpected '['"
    assert d.hint is not None and "at its end, after its cells" in d.hint
    moved = text.replace('hill "Hill" [rb p.4] | 2', 'hill "Hill" | 2 [rb p.4]')
    assert compile_snippet(compiler, 'book rb "RB"\n' + moved).ok  # where the hint says


def test_arithmetic_in_an_examples_arguments_says_examples_take_literal_values(
    compiler: Compiler,
) -> None:
    text = body(
        'layer terrain "Terrain" {\n  clear "Clear" | 1\n}\n'
        'example ex "Ex" {\n  route_cost(walker, clear, 2 + 3) = 1\n}\n'
    )
    compiled = compile_snippet(compiler, text)
    [d] = [d for d in compiled.diagnostics if d.is_error]
    assert (d.code, d.pos and d.pos.line) == ("E001", line(5))
    assert d.hint is not None and "literal values" in d.hint


def test_new_pos_makes_the_same_frozen_pos_as_pos() -> None:
    """The parser's fast way to make a position (issue 44) gives a true Pos: its class, value,
    hash, repr, pickle and frozenness are Pos(...)'s."""
    made, plain = new_pos("a.terrain", 1, 2, 3, 4), Pos("a.terrain", 1, 2, 3, 4)
    assert type(made) is Pos
    assert (made, hash(made), repr(made)) == (plain, hash(plain), repr(plain))
    assert pickle.loads(pickle.dumps(made)) == plain
    assert dataclasses.replace(made, line=5) == Pos("a.terrain", 5, 2, 3, 4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.line = 7  # type: ignore[misc]
