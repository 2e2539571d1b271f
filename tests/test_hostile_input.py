"""Hostile input that once got through (issue 15's leftovers): each is now a diagnostic.

- a ruleset file that is a symbolic link is refused (E003) by `check` and skipped with a
  warning (W003) by `build`: its target's lines are never quoted back;
- `--against REV` / `--rev REV` never hands git an option;
- YAML escapes cannot smuggle in what the DSL refuses (control characters, half a surrogate
  pair: E004), and a schema-valid YAML ruleset with dangling references or no language gets
  diagnostics, not a traceback;
- the entry cost of `stacking sum entry` is checked like every number: not finite or too
  large is E212 at its own line, negative is E213.
"""

from __future__ import annotations

import dataclasses
import math
import shutil
from pathlib import Path

import pytest

from rulesdsl import checks
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.syntax import Pos
from rulesdsl.positions import Positions
from tests.conftest import RULESETS, git

SECRET = "root:x:0:0:the secret line\nsecond secret line\n"


@pytest.fixture
def linked(tmp_path: Path) -> Path:
    """A project whose rulesets/ holds heavy_gear and a link to a file outside it."""
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET, "utf-8")
    rulesets = tmp_path / "project" / "rulesets"
    rulesets.mkdir(parents=True)
    shutil.copy(RULESETS / "heavy_gear.terrain", rulesets)
    (rulesets / "evil.terrain").symlink_to(secret)
    return tmp_path / "project"


def test_check_refuses_a_symlinked_ruleset_without_quoting_its_target(
    linked: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(linked)
    assert main(["check"]) == 1
    err = capsys.readouterr().err
    assert "evil.terrain:1:1: error[E003]: cannot read" in err
    assert "it is a symbolic link" in err
    assert "secret" not in err
    assert main(["check", "rulesets/evil.terrain"]) == 1
    assert "secret" not in capsys.readouterr().err


def test_build_skips_a_symlinked_ruleset_with_a_warning(
    linked: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(linked)
    monkeypatch.setattr("rulesdsl.builder.build.sheet_outputs", lambda rs: {})
    monkeypatch.setattr("rulesdsl.builder.build.card_outputs", lambda rs: {})
    assert main(["build"]) == 0
    err = capsys.readouterr().err
    assert "evil.terrain:1:1: warning[W003]:" in err
    assert "is a symbolic link: not built" in err
    assert "secret" not in err
    assert sorted(p.name for p in (linked / "generated" / "python").iterdir()) == [
        "heavy_gear.examples.json",  # its worked examples (issue 27), and their replay
        "heavy_gear.py",
        "test_heavy_gear_examples.py",
    ]


def test_a_symlinked_base_is_refused_too(tmp_path: Path) -> None:
    (tmp_path / "real.terrain").write_text(SECRET, "utf-8")
    (tmp_path / "base.terrain").symlink_to(tmp_path / "real.terrain")
    house = tmp_path / "house.terrain"
    house.write_text('ruleset house "House"\nversion 1.0.0\nextends base@1\n', "utf-8")
    compiler = Compiler()
    compiled = compiler.compile_file(house)
    assert not compiled.ok
    assert "secret" not in repr(compiled.diagnostics)
    assert all("secret" not in text for text in compiler.sources.values())


# ---- git revisions --------------------------------------------------------------------------


@pytest.mark.parametrize("verb", ["check", "diff"])
def test_a_revision_starting_with_a_dash_is_refused_not_passed_to_git(
    repo: Path, verb: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`git show --output=FILE` would write FILE: the revision must never be an option."""
    monkeypatch.chdir(repo)
    target = repo / "x:."  # `--output=<repo>/x` + `:./file` names a file in this folder
    target.mkdir()
    rev = f"--output={repo}/x"
    argv = (
        ["check", f"--against={rev}", "rulesets/heavy_gear.terrain"]
        if verb == "check"
        else ["diff", "rulesets/heavy_gear.terrain", f"--rev={rev}"]
    )
    assert main(argv) == 2
    assert "starts with '-'" in capsys.readouterr().err
    assert list(target.iterdir()) == []


def test_a_revision_still_works_after_end_of_options(repo: Path) -> None:
    git(repo, "tag", "v1")
    path = repo / "rulesets" / "heavy_gear.terrain"
    compiled = Compiler().compile_file(path)
    assert compiled.ruleset is not None
    from rulesdsl.versions import versioning

    assert versioning.show(path, "v1").text == path.read_text("utf-8")


# ---- YAML -----------------------------------------------------------------------------------

YAML_HEAD = """\
ruleset: demo
label: Demo
version: 1.0.0
languages: [en]
units: {distance: in, cost: MP}
modes:
  walker: {label: Walker}
"""


def compile_yaml(tmp_path: Path, text: str) -> list[tuple[str, int, str]]:
    path = tmp_path / "demo.yaml"
    path.write_text(text, "utf-8")
    compiled = Compiler().compile_file(path)
    assert not compiled.ok
    return [
        (d.code, d.pos.line if d.pos else 0, d.message) for d in compiled.diagnostics if d.is_error
    ]


@pytest.mark.parametrize(
    ("escape", "line"),
    [(r'"a\0b"', 2), (r'"ring\a"', 2), (r'"\e[31mred"', 2), (r'"x\ud800y"', 2), (r'"x\x85y"', 2)],
)
def test_yaml_escapes_cannot_bring_in_what_the_dsl_refuses(
    tmp_path: Path, escape: str, line: int
) -> None:
    text = YAML_HEAD.replace("label: Demo", f"label: {escape}")
    assert [(code, ln) for code, ln, _ in compile_yaml(tmp_path, text)] == [("E004", line)]


def test_a_yaml_number_too_large_for_a_float_is_e005(tmp_path: Path) -> None:
    text = YAML_HEAD.replace("label: Demo", "label: Demo\nminimum: " + "9" * 400)
    [(code, line, message)] = compile_yaml(tmp_path, text)
    assert (code, line, message) == ("E005", 3, "number too large (400 digits)")


def test_a_yaml_key_with_a_control_character_is_refused(tmp_path: Path) -> None:
    text = YAML_HEAD + '  "walk\\u0007er": {label: Bell}\n'
    assert [(code, ln) for code, ln, _ in compile_yaml(tmp_path, text)] == [("E004", 8)]


def test_schema_valid_yaml_with_dangling_references_gets_diagnostics(tmp_path: Path) -> None:
    text = (
        YAML_HEAD
        + """\
groups:
  vehicles: {label: Vehicles, members: [walker, nobody]}
layers:
  terrain:
    label: Terrain
    source: nobook
    rows:
      clear: {label: Clear, cells: 'as nowhere'}
      rough: {label: Rough, cells: '2, ghost 3'}
triggers:
  tr: {label: T, check: 2d6 >= 8, roll: no_such_table}
exclusions:
  - {exclude: clear, with: [mist]}
"""
    )
    found = compile_yaml(tmp_path, text)
    assert {(code, line) for code, line, _ in found} >= {
        ("E101", 9),
        ("E101", 13),
        ("E101", 15),
        ("E101", 16),
        ("E101", 18),
        ("E101", 20),
    }
    assert all(code.startswith("E") and line > 0 for code, line, _ in found)


def test_yaml_with_no_language_is_a_schema_error(tmp_path: Path) -> None:
    found = compile_yaml(tmp_path, YAML_HEAD.replace("languages: [en]", "languages: []"))
    assert [(code, line) for code, line, _ in found] == [("E120", 4)]


# ---- the entry cost -------------------------------------------------------------------------

DSL_HEAD = 'ruleset demo "Demo"\nversion 1.0.0\nunits distance in, cost MP\n'


def compile_dsl(text: str) -> list[tuple[str, int, int]]:
    compiled = Compiler().compile_text(text, "demo.terrain")
    return [
        (d.code, d.pos.line, d.pos.column)
        for d in compiled.diagnostics
        if d.is_error and d.pos is not None
    ]


@pytest.mark.parametrize(
    ("value", "codes"),
    [(math.nan, ["E212"]), (math.inf, ["E212"]), (-math.inf, ["E212", "E213"]), (1e12, ["E212"])],
)
def test_an_entry_cost_that_is_not_a_usable_number_is_e212_at_the_stacking_line(
    value: float, codes: list[str]
) -> None:
    """No front end writes nan or inf (neither grammar has them), but the IR can hold any
    float: the numbers pass checks the entry cost like every other number and places it at
    the `entry` quantity, not at the ruleset's name."""
    from rulesdsl.frontends.dsl import Parser
    from rulesdsl.frontends.registry import DSL
    from rulesdsl.lowering.lower import lower
    from rulesdsl.variants.resolve import resolve

    text = DSL_HEAD + 'stacking sum entry 1 MP\nmode walker "Walker"\n'
    source, _ = Parser().parse(text, "demo.terrain")
    assert source is not None
    resolved, _ = resolve(source, lambda rid: None)
    assert resolved is not None
    fallback = Pos("demo.terrain", 1, 1, 1, 1)
    lowered = lower(resolved.statements, resolved.lineage, fallback, lambda path: DSL.notation)
    assert lowered.ruleset is not None
    rs = dataclasses.replace(lowered.ruleset, entry_cost=value)
    # the positions table is keyed by node identity: move the field's entry to the copy
    where = lowered.positions
    where.record(rs, where.of_field(lowered.ruleset, "entry_cost"), "entry_cost")
    found = [(d.code, d.pos.line, d.pos.column) for d in checks.run(rs, where) if d.pos is not None]
    assert found == [(code, 4, 20) for code in codes]


def test_a_too_large_entry_cost_is_e212_at_its_quantity() -> None:
    text = DSL_HEAD + 'stacking sum entry 10000000000 MP\nmode walker "Walker"\n'
    assert compile_dsl(text) == [("E212", 4, 20)]


def test_a_negative_entry_cost_is_e213() -> None:
    text = DSL_HEAD + 'stacking sum entry -2 MP\nmode walker "Walker"\n'
    assert compile_dsl(text) == [("E213", 4, 20)]


@pytest.mark.parametrize("value", ["nan", "inf", ".nan", "1e999", "-.inf"])
def test_yaml_entry_nan_or_inf_is_a_diagnostic(tmp_path: Path, value: str) -> None:
    text = YAML_HEAD + f"stacking: sum entry {value} MP\n"
    found = compile_yaml(tmp_path, text)
    assert found and {line for _, line, _ in found} == {8}


def test_positions_without_the_field_fall_back_to_the_node() -> None:
    where = Positions(Pos("f", 1, 1, 1, 1))
    node = object()
    where.record(node, Pos("f", 3, 2, 3, 4))
    assert where.of_field(node, "entry_cost") == Pos("f", 3, 2, 3, 4)


# ---- found by dev/fuzz.py -----------------------------------------------------------------


def test_dice_in_an_effect_are_checked_like_a_tables_dice() -> None:
    """`damage 99999d99999` passed every check, then the sheet raised DiceError."""
    text = DSL_HEAD + (
        'mode walker "Walker"\n'
        'dice fx "FX" : 2d6 {\n'
        '  7- calm "Calm"\n'
        '  8+ boom "Boom" | damage 99999d99999\n'
        "}\n"
    )
    assert compile_dsl(text) == [("E304", 7, 27)]


def test_fmt_reports_a_file_that_is_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.terrain"
    path.write_bytes(b'ruleset bad "\xed\xa0"\n')
    assert main(["fmt", "--check", str(path)]) == 1
    assert "bad.terrain:1:14: error[E003]: cannot read" in capsys.readouterr().err  # the bad byte


def test_a_step_with_a_huge_input_answers_instead_of_overflowing() -> None:
    """`gravity_to_hit(1e308)`: 1e308 / 0.2 is beyond the largest float, and math.floor of it
    raised OverflowError; the count of whole steps is then infinite."""
    from tests.conftest import load_generated

    bt = load_generated("battletech_tacops")
    assert bt.gravity_to_hit(1e308) == math.inf
    assert bt.gravity_to_hit(0.6) == 3


def test_yaml_aliases_that_expand_a_billion_times_are_refused(tmp_path: Path) -> None:
    """Ten aliases of ten aliases ... : the schema check walked 10^9 values (a hang)."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    text = YAML_HEAD + "\n".join(lines) + "\n"
    found = compile_yaml(tmp_path, text)
    assert [(code, line) for code, line, _ in found] == [("E120", 12)]
    assert "more than 100,000 values" in found[0][2]


def test_a_yaml_alias_that_holds_itself_is_refused(tmp_path: Path) -> None:
    text = YAML_HEAD.replace("label: Demo", "label: &x [*x]")
    found = compile_yaml(tmp_path, text)
    assert [(code, line) for code, line, _ in found] == [("E120", 2)]
    assert "hold itself" in found[0][2]


def test_yaml_nested_thousands_deep_is_a_diagnostic(tmp_path: Path) -> None:
    """PyYAML composes nested collections by recursion: this raised RecursionError."""
    text = YAML_HEAD.replace("label: Demo", "label: " + "[" * 3000 + "]" * 3000)
    found = compile_yaml(tmp_path, text)
    assert [(code, line) for code, line, _ in found] == [("E001", 1)]
