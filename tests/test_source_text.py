"""Source text the lexer accepts but Python cannot take as it is: control characters and
surrogate escapes in strings, byte-order marks, numbers beyond a float. Each is a located
diagnostic (E004, E005) or is accepted, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.compiler import Compiler
from tests.conftest import ROOT, compile_snippet

HEADER = """ruleset demo "Demo"
version 1.0.0
units distance in, cost MP
mode walker "Walker"
"""
BODY_LINE = HEADER.count("\n") + 1
"""The line of the snippet that follows the header."""
BIG = "9" * 400  # about 1e400: more than the largest float (1.8e308), fewer than 4,300 digits
HUGE = "7" * 5000  # more digits than Python converts to int by default


def errors(compiler: Compiler, text: str) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, HEADER + text)
    assert not compiled.ok
    return [
        (d.code, d.pos.line, d.pos.column)
        for d in compiled.diagnostics
        if d.is_error and d.pos is not None
    ]


def label_of(compiler: Compiler, text: str) -> str:
    compiled = compile_snippet(compiler, HEADER + text)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset.modes[-1].info.labels["en"]


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x07", "\x1b", "\r", "\x7f", "\x85"])
def test_a_raw_control_character_in_a_string_is_e004_at_its_column(
    compiler: Compiler, char: str
) -> None:
    assert errors(compiler, f'mode fly "Fl{char}y"\n') == [("E004", BODY_LINE, 13)]


def test_an_escaped_control_character_is_e004_at_its_escape(compiler: Compiler) -> None:
    assert errors(compiler, 'mode fly "Fly \\u001b[31m"\n') == [("E004", BODY_LINE, 15)]


def test_a_raw_tab_in_a_string_is_accepted_as_a_tab(compiler: Compiler) -> None:
    assert label_of(compiler, 'mode fly "Fly\there"\n') == "Fly\there"
    assert label_of(compiler, 'mode fly "Fly\\there\\n"\n') == "Fly\there\n"


def test_a_lone_surrogate_escape_is_e004_at_the_escape(compiler: Compiler) -> None:
    assert errors(compiler, 'mode fly "Fly \\ud800"\n') == [("E004", BODY_LINE, 15)]
    assert errors(compiler, 'mode fly "\\udc00y"\n') == [("E004", BODY_LINE, 11)]


def test_a_surrogate_pair_escape_is_one_character(compiler: Compiler) -> None:
    assert label_of(compiler, 'mode fly "Fly \\ud83d\\ude81"\n') == "Fly \U0001f681"


def test_an_escaped_backslash_before_u_is_no_escape(compiler: Compiler) -> None:
    assert label_of(compiler, 'mode fly "C:\\\\ud800"\n') == "C:\\ud800"


def test_a_lone_surrogate_in_a_note_fails_the_check_not_the_build(tmp_path: Path) -> None:
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "demo.terrain").write_text(
        HEADER + 'layer t "T" {\n  clear "Clear" | 1\n      note "x\\ud800"\n}\n', "utf-8"
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "rulesdsl",
            "build",
            "--out",
            str(tmp_path / "out"),
            "--rulesets",
            str(tmp_path / "rulesets"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert f"demo.terrain:{BODY_LINE + 2}:14: error[E004]" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_utf8_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "demo.terrain"
    text = HEADER + 'layer t "T" {\n  clear "Clear" | 1\n}\n'
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    compiled = Compiler().compile_file(path)
    assert compiled.ok and compiled.ruleset is not None
    assert compiled.ruleset.id == "demo"
    bad = tmp_path / "bad.terrain"
    bad.write_bytes(b"\xef\xbb\xbf" + HEADER.encode("utf-8") + b"mode fly 'Fly'\n")
    [diag] = Compiler().compile_file(bad).diagnostics
    assert (diag.code, diag.pos and diag.pos.line, diag.pos and diag.pos.column) == (
        "E002",
        BODY_LINE,
        10,
    )  # columns count from the first character after the mark


def test_a_row_key_beyond_the_largest_float_is_e005(compiler: Compiler) -> None:
    text = f'table t "T" {{\n  {BIG} in "Far" | 1 in\n}}\n'
    assert errors(compiler, text) == [("E005", BODY_LINE + 1, 3)]


def test_a_step_term_beyond_the_largest_float_is_e005_alone(compiler: Compiler) -> None:
    text = f'step s "S" (rise in) -> MP : +1 per {BIG} in\n'
    assert errors(compiler, text) == [("E005", BODY_LINE, 37)]
    text = f'step s "S" (rise in) -> MP : +{BIG} per 1 in\n'
    assert errors(compiler, text) == [("E005", BODY_LINE, 31)]


def test_a_literal_of_more_than_4300_digits_is_e005(compiler: Compiler) -> None:
    text = f'layer t "T" {{\n  clear "Clear" | {HUGE}\n}}\n'
    compiled = compile_snippet(compiler, HEADER + text)
    [diag] = compiled.diagnostics
    assert (diag.code, diag.pos and diag.pos.line, diag.pos and diag.pos.column) == (
        "E005",
        BODY_LINE + 1,
        19,
    )
    assert diag.message == "number too large (5000 digits)"


@pytest.mark.parametrize(
    "text",
    [
        f'layer t "T" {{\n  clear "Clear" | {BIG}.5\n}}\n',
        f'dice d "D" : {HUGE}d6 {{\n  2+ any "Any"\n}}\n',
        f'dice d "D" : 2d6 {{\n  2-{HUGE} any "Any"\n}}\n',
    ],
)
def test_huge_numbers_anywhere_are_e005_not_a_traceback(compiler: Compiler, text: str) -> None:
    codes = {code for code, _, _ in errors(compiler, text)}
    assert "E005" in codes


def test_a_huge_version_number_is_e005(compiler: Compiler) -> None:
    compiled = compile_snippet(compiler, HEADER.replace("1.0.0", f"1.0.{HUGE}"))
    assert [
        (d.code, d.pos and d.pos.line, d.pos and d.pos.column) for d in compiled.diagnostics
    ] == [("E005", 2, 9)]


@pytest.mark.parametrize(
    ("number", "huge"),
    [("2" + "0" * 308, True), ("1" + "0" * 308, False), ("2" + "0" * 308 + ".5", True)],
    ids=["2e308", "1e308", "2e308.5"],
)
def test_a_number_of_309_digits_is_e005_only_beyond_the_largest_float(
    compiler: Compiler, number: str, huge: bool
) -> None:
    text = f'table t "T" {{\n  {number} in "Far" | 1 in\n}}\n'
    assert ("E005" in [code for code, _, _ in errors(compiler, text)]) is huge
