"""YAML keys are text (issue 30, item 3): a key YAML 1.1 reads as a boolean, number, null or
date (`no:`, `yes:`, `1:`, `~:`, `2020-01-01:`) is read as the text written, a key written
twice in one mapping is refused with the line of both, and explicit tags, merge keys and keys
that are collections are refused, all as diagnostics with a line, a column and a hint, through
`check`, `build`, `convert` and the language server: never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.diagnostics import Diagnostic

HEAD = """\
ruleset: skirmish
label: Skirmish
version: 1.0.0
languages: [en, 'no']
units: {distance: in, cost: MP}
modes:
  foot: {label: Foot, no: Til fots}
  wheels: {label: Wheels, no: Hjul}
layers:
  terrain:
    label: Terrain
    no: Terreng
    scope: one per place
    rows:
      clear: {label: Clear, no: Åpent, cells: 1}
      mud: {label: Mud, no: Gjørme, cells: "2, wheels impassable"}
"""

TRICKY_KEYS = ["no", "yes", "on", "off", "1", "1.5", "null", "~", "2020-01-01", "0x1f", ".inf"]


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def diagnose(tmp_path: Path, text: str, name: str = "skirmish.yaml") -> list[Diagnostic]:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return [d for d in Compiler().compile_file(path).diagnostics if d.is_error]


def run_verbs(
    tmp_path: Path,
    text: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> dict[str, tuple[int, str]]:
    """Exit status and stderr of check, check --format json, build and convert on ``text``
    (an exception out of main() fails the test: that is the traceback a user would see)."""
    monkeypatch.setattr("rulesdsl.builder.build.sheet_outputs", lambda rs: {})
    monkeypatch.setattr("rulesdsl.builder.build.card_outputs", lambda rs: {})
    rulesets = tmp_path / "rulesets"
    rulesets.mkdir(exist_ok=True)
    path = rulesets / "skirmish.yaml"
    path.write_text(text, "utf-8")
    out: dict[str, tuple[int, str]] = {}
    for verb, argv in {
        "check": ["check", str(path)],
        "json": ["check", "--format", "json", str(path)],
        "build": ["build", "--rulesets", str(rulesets), "--out", str(tmp_path / "generated")],
        "convert": ["convert", str(path)],
    }.items():
        status = main(argv)
        out[verb] = (status, capsys.readouterr().err)
        assert status in (0, 1), (verb, out[verb])
    return out


def test_the_base_ruleset_with_norwegian_labels_compiles(tmp_path: Path) -> None:
    assert diagnose(tmp_path, HEAD) == []


def test_a_norwegian_label_key_no_is_the_language_no_through_every_verb(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`no:` was read as False: jsonschema's patternProperties raised TypeError in check and
    build; `languages: [en, 'no']` plus `no:` labels is what a Norwegian author writes."""
    found = run_verbs(tmp_path, HEAD, capsys, monkeypatch)
    assert {verb: status for verb, (status, _) in found.items()} == {
        "check": 0,
        "json": 0,
        "build": 0,
        "convert": 0,
    }
    module = (tmp_path / "generated" / "python" / "skirmish.py").read_text("utf-8")
    assert "Til fots" in module and "Gjørme" in module
    main(["convert", str(tmp_path / "rulesets" / "skirmish.yaml")])
    dsl = capsys.readouterr().out
    assert 'mode foot "Foot" no "Til fots"' in dsl


@pytest.mark.parametrize("key", TRICKY_KEYS)
@pytest.mark.parametrize(
    "where",
    [
        "top level",
        "a mode's name",
        "a label's language",
        "a row's name",
        "a row's field",
        "a layer's field",
    ],
)
def test_a_key_yaml_1_1_reads_as_a_non_string_is_read_as_its_text(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    key: str,
    where: str,
) -> None:
    anchor, replacement = {
        "top level": ("modes:\n", f"{key}: X\nmodes:\n"),
        "a mode's name": ("  wheels:", f"  {key}: Tracks\n  wheels:"),
        "a label's language": ("Foot, no: Til fots", f"Foot, {key}: Til fots"),
        "a row's name": ("      mud:", f"      {key}: 3\n      mud:"),
        "a row's field": ("Clear, no: Åpent", f"Clear, no: Åpent, {key}: 2"),
        "a layer's field": ("    scope:", f"    {key}: 2\n    scope:"),
    }[where]
    text = HEAD.replace(anchor, replacement, 1)
    found = run_verbs(tmp_path, text, capsys, monkeypatch)
    line = (
        line_of(text, replacement.split("\n")[0])
        if "\n" in replacement
        else line_of(text, replacement)
    )
    if found["check"][0] == 1:
        # every error has a place: the key's own line (or a later one it made wrong)
        assert f"skirmish.yaml:{line}:" in found["check"][1], found["check"][1]
        assert found["build"][0] == 1  # convert needs only a file that parses
    for _status, err in found.values():
        assert "Traceback" not in err


@pytest.mark.parametrize(
    ("key", "code"),
    [
        ("no", "E103"),  # `yes` and `no` are words of the DSL: a cell reads them as values
        ("yes", "E103"),
        ("on", None),
        ("off", None),
        ("null", None),
        ("1", "E120"),
        ("1.5", "E120"),
        ("~", "E120"),
        ("2020-01-01", "E120"),
    ],
)
def test_a_mode_named_like_a_yaml_1_1_scalar_is_a_name_or_a_name_error(
    tmp_path: Path, key: str, code: str | None
) -> None:
    text = HEAD.replace("  wheels:", f"  {key}: Tracks\n  wheels:", 1)
    errors = diagnose(tmp_path, text)
    if code is None:
        # W101 only: the mode has no Norwegian label
        assert errors == []
    else:
        assert [(d.code, d.pos.line if d.pos else 0) for d in errors] == [
            (code, line_of(text, f"{key}: Tracks"))
        ]


def test_a_label_in_a_language_the_ruleset_does_not_declare_is_e105(tmp_path: Path) -> None:
    text = HEAD.replace("Foot, no: Til fots", "Foot, no: Til fots, on: Ooo")
    errors = diagnose(tmp_path, text)
    assert [(d.code, d.pos.line if d.pos else 0) for d in errors] == [
        ("E105", line_of(text, "on: Ooo"))
    ]


def test_a_plain_no_where_text_is_expected_hints_to_quote_it(tmp_path: Path) -> None:
    text = HEAD.replace("languages: [en, 'no']", "languages: [en, no]")
    [diag] = diagnose(tmp_path, text)
    assert diag.code == "E120" and diag.pos is not None
    assert (diag.pos.line, diag.pos.column) == (4, 17)
    assert diag.hint is not None and "quote it: 'no'" in diag.hint


@pytest.mark.parametrize(
    ("value", "hint"),
    [("1.0", "as a number; quote it: '1.0'"), ("2020-01-01", "as a date"), ("~", "nothing")],
)
def test_a_version_yaml_reads_as_a_number_date_or_null_hints_to_quote_it(
    tmp_path: Path, value: str, hint: str
) -> None:
    text = HEAD.replace("version: 1.0.0", f"version: {value}")
    [diag] = diagnose(tmp_path, text)
    assert (diag.code, diag.pos.line if diag.pos else 0) == ("E120", 3)
    assert diag.hint is not None and hint in diag.hint


def test_a_date_that_is_no_date_is_a_schema_error_not_a_value_error(tmp_path: Path) -> None:
    """PyYAML builds `2020-13-45` as a date and raised ValueError (month must be in 1..12)."""
    [diag] = diagnose(tmp_path, HEAD.replace("version: 1.0.0", "version: 2020-13-45"))
    assert (diag.code, diag.pos.line if diag.pos else 0) == ("E120", 3)


@pytest.mark.parametrize("value", ["=", "'='"])
def test_a_plain_equals_sign_is_text_not_yaml_1_1s_value_tag(tmp_path: Path, value: str) -> None:
    """PyYAML resolves a plain `=` to tag:yaml.org,2002:value, which it cannot construct."""
    assert diagnose(tmp_path, HEAD.replace("label: Skirmish", f"label: {value}")) == []
    text = HEAD.replace("  wheels:", "  =: Eq\n  wheels:")
    assert [d.code for d in diagnose(tmp_path, text)] == ["E120"]


# ---- keys written twice --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("anchor", "replacement", "first", "second"),
    [
        ("version: 1.0.0\n", "version: 1.0.0\nversion: 1.0.1\n", "version: 1.0.0", "1.0.1"),
        ("  wheels:", "  foot: Foot again\n  wheels:", "foot: {label", "Foot again"),
        ("Foot, no: Til fots", "Foot, no: Til fots, label: Feet", "Foot, no", "Feet"),
        ("Foot, no: Til fots", "Foot, no: Til fots, 'no': Fots", "Foot, no", "Fots"),
        ("      mud:", "      clear: 2\n      mud:", "clear: {", "clear: 2"),
        ("cells: 1}", "cells: 1, cells: 2}", "cells: 1,", "cells: 1,"),
        ('impassable"}\n', 'impassable"}\n    rows: {}\n', "    rows:", "rows: {}"),
        ('impassable"}\n', 'impassable"}\nlayers: {}\n', "layers:", "layers: {}"),
    ],
)
def test_a_key_written_twice_in_one_mapping_names_the_line_of_both(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    anchor: str,
    replacement: str,
    first: str,
    second: str,
) -> None:
    """PyYAML kept the last of two keys silently (or the first error was an AssertionError)."""
    text = HEAD.replace(anchor, replacement, 1)
    assert text != HEAD
    errors = diagnose(tmp_path, text)
    first_line, second_line = line_of(text, first), line_of(text, second)
    if first_line > second_line:
        first_line, second_line = second_line, first_line
    assert [d.code for d in errors] == ["E121"]
    [diag] = errors
    assert diag.pos is not None and diag.pos.line == second_line
    assert f"line {first_line}" in diag.message
    assert f"line {second_line}" in diag.message or "both on" in diag.message
    assert [r.pos.line for r in diag.related] == [first_line]
    assert diag.hint
    found = run_verbs(tmp_path, text, capsys, monkeypatch)
    assert all(status == 1 for status, _ in found.values())
    assert f"skirmish.yaml:{second_line}:" in found["check"][1]


def test_a_key_repeated_inside_an_aliased_mapping_is_reported_once(tmp_path: Path) -> None:
    text = HEAD.replace("  foot: {label: Foot, no: Til fots}", "  foot: &f {label: A, label: B}")
    text = text.replace("  wheels: {label: Wheels, no: Hjul}", "  wheels: *f")
    assert [d.code for d in diagnose(tmp_path, text)] == ["E121"]


# ---- tags, merge keys, keys that are collections ---------------------------------------------


@pytest.mark.parametrize(
    ("anchor", "replacement", "needle"),
    [
        ("cells: 1}", "cells: !!float abc}", "!!float"),  # PyYAML raised ValueError
        ("cells: 1}", "cells: !!float 1}", "!!float"),
        ("cells: 1}", "cells: !!str 1}", "!!str"),
        ("label: Skirmish", "label: !!python/object/apply:os.system [echo hi]", "!!python"),
        ("modes:\n", "modes: !!python/name:os.system\n", "!!python"),
        ("label: Skirmish", "label: !custom Skirmish", "!custom"),
        ("label: Skirmish", "label: ! Skirmish", "! Skirmish"),
        ("label: Skirmish", "label: !!binary aGVsbG8=", "!!binary"),
        ("label: Skirmish", "label: !!timestamp 2020-01-01", "!!timestamp"),
        ("  wheels:", "  !!str wheels:", "!!str"),
        ("modes:\n", "modes: !!map\n", "!!map"),
        ("languages: [en, 'no']", "languages: !!set {en, 'no'}", "!!set"),
        ("languages: [en, 'no']", "languages: [en, !<tag:yaml.org,2002:str> 'no']", "!<"),
    ],
)
def test_an_explicit_tag_is_refused_at_the_tag(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    anchor: str,
    replacement: str,
    needle: str,
) -> None:
    text = HEAD.replace(anchor, replacement, 1)
    assert text != HEAD
    errors = diagnose(tmp_path, text)
    line = line_of(text, needle)
    column = text.splitlines()[line - 1].index(needle) + 1
    assert [(d.code, d.pos.line, d.pos.column) for d in errors if d.pos] == [("E122", line, column)]
    assert "tag" in errors[0].message and errors[0].hint
    found = run_verbs(tmp_path, text, capsys, monkeypatch)
    assert all(status == 1 for status, _ in found.values())


def test_a_tag_directive_is_refused_too(tmp_path: Path) -> None:
    text = "%TAG !e! tag:example.com,2000:\n---\n" + HEAD.replace(
        "label: Skirmish", "label: !e!x Skirmish"
    )
    assert [(d.code, d.pos.line if d.pos else 0) for d in diagnose(tmp_path, text)] == [
        ("E122", line_of(text, "!e!x"))
    ]


def test_a_merge_key_is_refused_with_a_hint(tmp_path: Path) -> None:
    text = HEAD.replace("  wheels: {label: Wheels, no: Hjul}", "  wheels: {<<: *f, label: W}")
    text = text.replace("  foot: {label", "  foot: &f {label")
    errors = diagnose(tmp_path, text)
    line = line_of(text, "<<")
    assert [(d.code, d.pos.line, d.pos.column) for d in errors if d.pos] == [
        ("E122", line, text.splitlines()[line - 1].index("<<") + 1)
    ]
    assert errors[0].hint and "alias" in errors[0].hint


def test_an_alias_of_a_whole_value_is_accepted(tmp_path: Path) -> None:
    text = HEAD.replace("cells: 1}", "cells: &one 1}").replace(
        'cells: "2, wheels impassable"', "cells: *one"
    )
    assert diagnose(tmp_path, text) == []


@pytest.mark.parametrize("key", ["? [a, b]\n  : Foo\n", "? {a: 1}\n  : Foo\n", "[a]: Foo\n"])
def test_a_key_that_is_a_collection_is_refused(tmp_path: Path, key: str) -> None:
    text = HEAD.replace("  wheels:", "  " + key + "  wheels:", 1)
    errors = diagnose(tmp_path, text)
    assert [d.code for d in errors] == ["E122"]
    assert errors[0].pos is not None and errors[0].pos.line == 8


def test_the_language_servers_yaml_path_takes_every_bad_key(tmp_path: Path) -> None:
    """The server builds its index from parse_yaml and compiles the text; neither raises."""
    from rulesdsl.editor.lsp_server import RulesServer, to_lsp

    server = RulesServer()
    for text in [
        HEAD,
        HEAD.replace("Foot, no: Til fots", "Foot, no: Til fots, no: Fots"),
        HEAD.replace("cells: 1}", "cells: !!float abc}"),
        HEAD.replace("  wheels:", "  1: One\n  ~: Tilde\n  wheels:"),
    ]:
        path = str(tmp_path / "skirmish.yaml")
        server.compiler.parse_open(path, text)
        compiled = server.compiler.compile_text(text, path, tmp_path)
        for diag in compiled.diagnostics:
            assert to_lsp(diag).range.start.line >= 0
