"""Diagnostics never print the ruleset's raw control characters (issue 30, items 7 and 8).

A crafted string in a ruleset (``ESC ] 0 ; title BEL``) set the terminal's title when `check`
quoted its line; a control character followed by ``\\ud800`` in a DSL string got past the
reader and raised UnicodeEncodeError in `check`. Every message, hint, related note, file name
and quoted source line goes through ``diagnostics.escape``: C0 and C1 controls, DEL, the bidi
controls (U+202E...) and lone surrogates are written as visible escapes (``\\x1b``,
``\\u202e``, ``\\ud800``), with the caret still under the escaped text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.diagnostics import Diagnostic, Pos, Related, error, escape, render_text, to_json

TITLE = "\x1b]0;pwned\x07"
"""The escape sequence that sets a terminal's title."""

UNSAFE = [
    "\x00",
    "\x07",
    "\x08",
    "\x1b",
    "\x7f",
    "\x85",
    "\x9b",
    "\u061c",
    "\u200e",
    "\u202a",
    "\u202e",
    "\u2066",
    "\u2069",
    "\u2028",
    "\ud800",
    "\udfff",
]


def is_safe(text: str) -> bool:
    """No character a terminal acts on, none that reorders the line, no lone surrogate."""
    return not any(ch in text for ch in UNSAFE) and all(
        ch == "\n" or ch.isprintable() or ch == " " for ch in text
    )


@pytest.mark.parametrize("ch", UNSAFE)
def test_escape_writes_each_unsafe_character_visibly(ch: str) -> None:
    out = escape(f"a{ch}b")
    assert out.startswith("a\\") and out.endswith("b") and is_safe(out)
    assert out == "a" + ch.encode("unicode_escape").decode("ascii") + "b"


def test_escape_keeps_plain_text_tabs_become_visible_and_it_is_idempotent() -> None:
    assert escape("Mou (sable, neige, boue) — Болото 沼") == "Mou (sable, neige, boue) — Болото 沼"
    assert escape("a\tb\nc") == "a\\tb\\nc"
    assert escape(escape(TITLE)) == escape(TITLE) == "\\x1b]0;pwned\\x07"


def test_a_diagnostic_escapes_its_message_hint_and_notes_when_made() -> None:
    """Made escaped, so the text output, JSON, watch and the language server all get it."""
    pos = Pos("f.terrain", 1, 1, 1, 2)
    diag = error("E101", f"x{TITLE}", pos, "h\u202e", [Related(pos, "n\ud800")])
    assert diag.message == "x\\x1b]0;pwned\\x07"
    assert diag.hint == "h\\u202e"
    assert diag.related[0].message == "n\\ud800"
    assert Diagnostic("E101", "\x9b2J", None).message == "\\x9b2J"


def test_render_text_escapes_the_quoted_line_and_keeps_the_caret_under_the_bad_part() -> None:
    text = f'mode m{TITLE} "M" | walkr\n'
    col = text.index("walkr") + 1
    diag = error("E101", "unknown 'walkr'", Pos("f.terrain", 1, col, 1, col + 5))
    out = render_text(diag, {"f.terrain": text})
    assert is_safe(out)
    quoted, caret = out.splitlines()[1:3]
    assert quoted.index("walkr") == caret.index("^") and caret.count("^") == 5


def test_the_caret_spans_the_escaped_width_of_a_control_character() -> None:
    text = f'ruleset x "T{TITLE}"\n'
    col = text.index("\x1b") + 1
    diag = error("E004", "control character '\\x1b' in a string", Pos("f", 1, col, 1, col + 1))
    quoted, caret = render_text(diag, {"f": text}).splitlines()[1:3]
    start = caret.index("^")
    assert quoted[start : start + 4] == "\\x1b" and caret.count("^") == 4


def test_a_file_name_with_control_characters_is_escaped_in_text_and_json() -> None:
    diag = error("E003", "cannot read", Pos(f"evil{TITLE}.terrain", 1, 1, 1, 2))
    assert is_safe(render_text(diag, {}))
    dumped = to_json([diag])
    assert "\\\\x1b" in dumped  # the escape, itself escaped by JSON
    assert json.loads(dumped)[0]["position"]["file"] == "evil\\x1b]0;pwned\\x07.terrain"


def test_json_output_escapes_c1_bidi_and_surrogates_and_encodes_as_utf8() -> None:
    pos = Pos("f", 1, 1, 1, 2)
    diags = [Diagnostic("E101", "a\x9bb\u202ec\ud800", pos, "d\x85")]
    dumped = to_json(diags)
    dumped.encode("utf-8")  # a lone surrogate would raise UnicodeEncodeError here
    assert is_safe(dumped)
    assert json.loads(dumped)[0]["message"] == "a\\x9bb\\u202ec\\ud800"


def check_output(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str], name: str = "evil.terrain"
) -> tuple[str, str]:
    path = tmp_path / name
    path.write_text(text, "utf-8", errors="surrogatepass")
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert main(["check", "--format", "json", str(path)]) == 1
    out = capsys.readouterr().out
    return err, out


@pytest.mark.parametrize(
    "text",
    [
        f'ruleset x "T{TITLE}"\nversion 1.0.0\nlanguages en\n',
        f'ruleset x{TITLE} "T"\nversion 1.0.0\nlanguages en\n',
        'ruleset x\u202e "T"\nversion 1.0.0\nlanguages en\n',
        'ruleset x "a\x9b2Jb"\nversion 1.0.0\nlanguages en\n',
    ],
)
def test_check_never_prints_the_rulesets_raw_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    err, out = check_output(tmp_path, text, capsys)
    assert is_safe(err), err
    assert is_safe(out), out


def test_a_yaml_ruleset_with_a_crafted_string_is_quoted_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        f"ruleset: x\nlabel: X\nversion: 1.0.0\nlanguages: [en]\n"
        f"modes: {{walker: {{label: 'W{TITLE}'}}}}\n"
    )
    err, out = check_output(tmp_path, text, capsys, "evil.yaml")
    assert is_safe(err) and is_safe(out)
    # YAML refuses a raw ESC itself: E001 at its line and column, the line quoted escaped
    assert "evil.yaml:5:27: error[E001]: invalid YAML: character '\\x1b'" in err
    assert "   5 | modes: {walker: {label: 'W\\x1b]0;pwned\\x07'}}" in err
    err, out = check_output(
        tmp_path, text.replace(f"'W{TITLE}'", '"W\\e]0;x\\a"'), capsys, "evil.yaml"
    )
    assert "E004" in err and is_safe(err) and is_safe(out)


@pytest.mark.parametrize(
    "string",
    [
        "T\x01\\ud800",  # item 8: a raw control character, then a lone surrogate's escape
        "T\\u0001\\ud800",
        "T\\ud800\x01",
        "T\\udfff\\u0007",
    ],
)
def test_a_control_character_and_a_lone_surrogate_in_one_string_are_both_e004(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], string: str
) -> None:
    """The reader replaced only the control character and let the surrogate through: the
    digest's .encode('utf-8') raised UnicodeEncodeError out of `check`."""
    text = f'ruleset x "{string}"\nversion 1.0.0\nlanguages en\n'
    compiled = Compiler().compile_text(text, "x.terrain")
    assert [(d.code, d.pos.line if d.pos else 0) for d in compiled.diagnostics] == [
        ("E004", 1),
        ("E004", 1),
    ]
    err, out = check_output(tmp_path, text, capsys)
    assert is_safe(err) and is_safe(out)
