"""Errors that point at the fault (issue 25), each with the input quoted from the trial: a
syntax error inside a block drops only its line, and nothing that follows from it is reported
again; a decision input named like a Python builtin says what it collides with and how to
rename it."""

from __future__ import annotations

from rulesdsl.compiler import Compiler
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.dsl import Parser
from tests.conftest import compile_snippet

HEADER = """ruleset demo "Demo"
version 1.0.0
languages en
units distance in
mode walker "Walker"
"""
HEADER_LINES = HEADER.count("\n")

TO_HIT = """modifier to_hit "To hit" {
  short_range "Short range" | 0
  medium_range "Medium range" | +1 +2
  long_range "Long range" | +2
}
decision range_band "Range band" (distance in) -> to_hit {
  distance <= 6 in  -> short_range
  distance <= 12 in -> medium_range
  otherwise         -> long_range
}
"""


def found(compiler: Compiler, text: str) -> list[tuple[str, int, int, str]]:
    compiled = compile_snippet(compiler, HEADER + text)
    return [
        (d.code, d.pos.line - HEADER_LINES, d.pos.column, d.message)
        for d in compiled.diagnostics
        if d.pos is not None and d.is_error
    ]


def rows_of(text: str, name: str) -> list[str]:
    source, _ = Parser().parse(HEADER + text, "demo.terrain")
    assert source is not None
    block = next(
        st
        for st in source.statements
        if isinstance(st, s.ModifierDecl) and st.item.name.text == name
    )
    return [r.item.name.text for r in block.rows]


def test_a_syntax_error_in_a_row_drops_only_that_row(compiler: Compiler) -> None:
    assert found(compiler, TO_HIT) == [("E001", 3, 36, "unexpected '+'")]


def test_the_rest_of_the_block_is_kept(compiler: Compiler) -> None:
    assert rows_of(TO_HIT, "to_hit") == ["short_range", "long_range"]


def test_a_reference_to_a_row_lost_to_a_syntax_error_is_not_reported_again(
    compiler: Compiler,
) -> None:
    """The trial's follow-on: "'short_range' is not a factor of 'to_hit'"."""
    text = TO_HIT.replace('"Short range" | 0', '"Short range" | 0 0')
    assert found(compiler, text) == [
        ("E001", 2, 33, "unexpected '0'"),
        ("E001", 3, 36, "unexpected '+'"),
    ]


def test_a_block_whose_first_line_fails_is_not_reported_as_unknown(compiler: Compiler) -> None:
    """The trial's follow-on: "unknown modifier 'to_hit'"."""
    text = TO_HIT.replace('modifier to_hit "To hit" {', 'modifier to_hit "To hit" by {')
    assert found(compiler, text) == [("E001", 1, 29, "unexpected '{'")]


def test_a_decision_that_lost_its_otherwise_row_is_not_reported_without_one(
    compiler: Compiler,
) -> None:
    text = TO_HIT.replace("otherwise         -> long_range", "otherwise         -> -> long_range")
    assert found(compiler, text) == [
        ("E001", 3, 36, "unexpected '+'"),
        ("E001", 9, 24, "unexpected '->'"),
    ]


def test_a_note_under_a_failed_row_goes_with_it(compiler: Compiler) -> None:
    text = TO_HIT.replace("| +1 +2\n", '| +1 +2\n      note "Half range to full range."\n')
    assert found(compiler, text) == [("E001", 3, 36, "unexpected '+'")]
    source, _ = Parser().parse(HEADER + text, "demo.terrain")
    assert source is not None
    [modifier] = [st for st in source.statements if isinstance(st, s.ModifierDecl)]
    assert all(not r.item.extras.notes for r in modifier.rows)


def test_syntax_errors_in_two_rows_of_two_blocks_are_all_reported(compiler: Compiler) -> None:
    text = TO_HIT.replace("distance <= 12 in ->", "distance <= 12 in in ->")
    assert found(compiler, text) == [
        ("E001", 3, 36, "unexpected '+'"),
        ("E001", 8, 21, "unexpected 'in'"),
    ]


def test_a_decision_input_named_range_says_what_it_collides_with(compiler: Compiler) -> None:
    """The trial's "error[E103]: 'range' cannot name a param": now it names the input, the
    decision, what `range` is, and how to rename it; and nothing else is reported."""
    text = """decision fire "Fire" (range in, distance in) {
  distance > range -> out_of_range "Out of range"
  otherwise        -> in_range "In range"
}
"""
    compiled = compile_snippet(compiler, HEADER + text)
    [d] = [d for d in compiled.diagnostics if d.is_error]
    assert d.pos is not None
    assert (d.code, d.pos.line - HEADER_LINES, d.pos.column) == ("E103", 1, 23)
    assert d.message == (
        "'range' cannot name an input of decision 'fire': 'range' is a Python builtin "
        "(range()), which the generated module uses"
    )
    assert (
        d.hint == "rename the input (e.g. 'range_in') in the inputs and in every row that reads it"
    )


def test_an_unrelated_error_about_an_input_of_a_failed_row_is_still_reported(
    compiler: Compiler,
) -> None:
    """A failed decision row declares only its outcome: an error elsewhere that names its
    input is the author's own, and all errors of a run are reported together."""
    text = TO_HIT.replace("distance <= 12 in ->", "distance <= 12 in in ->") + (
        'decision other "Other" (size in) {\n'
        '  distance > size -> big "Big"\n'
        '  otherwise       -> small "Small"\n'
        "}\n"
    )
    assert [f[:3] for f in found(compiler, text)] == [
        ("E001", 3, 36),
        ("E001", 8, 21),
        ("E101", 12, 3),
    ]
