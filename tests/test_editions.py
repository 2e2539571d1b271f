"""Editions (issue 39, item 1): a ruleset states the edition of the language it was written for;
a file without one is read as the first edition (2026.11), so a game written before keyword
precedence changed meaning (2026.12) keeps its answers until `rulesdsl migrate` moves it.

tests/data/jump_troopers.terrain is such a game: precedence `fly, vehicle, infantry`, cells that
name Infantry's or Vehicle's value and not Fly's."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import editions
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.variants.resolve import statements_digest
from tests.conftest import ROOT, compile_snippet, import_rendered

GAME = ROOT / "tests" / "data" / "jump_troopers.terrain"
OLD_ANSWERS = [
    "  can_end('jet', 'ruins_upper'): False -> True",
    "  move_cost('jump_trooper', 'difficult', distance=2, height=3): 6 -> 8",
    "  move_cost('jump_trooper', 'wall', distance=2, height=3): 9 -> 12",
]


def _module(compiler: Compiler, text: str, tmp_path: Path, name: str) -> ModuleType:
    compiled = compile_snippet(compiler, text, tmp_path, "jump_troopers.terrain")
    assert compiled.ruleset is not None and compiled.diagnostics == []
    return import_rendered(compiled.ruleset, tmp_path, name)


def test_a_file_without_an_edition_keeps_the_answers_of_the_first_edition(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = _module(compiler, GAME.read_text("utf-8"), tmp_path, "jump_old")
    assert m.RULESET.version == "1.0.0"
    assert m.move_cost("jump_trooper", "difficult", distance=2) == 6
    assert m.move_cost("jump_trooper", "wall", height=3) == 9
    assert m.can_end("jet", "ruins_upper") is False


def test_the_current_edition_reads_an_unnamed_higher_keyword_as_the_value_for_everyone(
    compiler: Compiler, tmp_path: Path
) -> None:
    text = GAME.read_text("utf-8").replace("version 1.0.0\n", "version 1.0.0\nedition 2026.12\n")
    m = _module(compiler, text, tmp_path, "jump_new")
    assert m.move_cost("jump_trooper", "difficult", distance=2) == 8
    assert m.move_cost("jump_trooper", "wall", height=3) == 12
    assert m.can_end("jet", "ruins_upper") is True
    assert m.move_cost("trooper", "difficult", distance=2) == 6


def test_migrate_moves_the_file_and_lists_each_changed_answer_with_both_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / GAME.name
    shutil.copy(GAME, path)
    assert main(["migrate", "--check", str(path)]) == 1  # says, writes nothing
    said = capsys.readouterr().out.splitlines()
    assert said[0].startswith(f"{path}: would move from edition 2026.11 to 2026.12;")
    assert said[1:4] == OLD_ANSWERS  # each unit type in each feature first, then samples
    assert path.read_text("utf-8") == GAME.read_text("utf-8")
    assert main(["migrate", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[1:4] == OLD_ANSWERS
    lines = path.read_text("utf-8").splitlines()
    assert lines[lines.index("version 1.0.0") + 1] == "edition 2026.12"
    assert sorted(p.name for p in tmp_path.iterdir()) == [GAME.name]  # no temporary left
    assert main(["migrate", str(path)]) == 0
    assert "already edition 2026.12" in capsys.readouterr().err
    house = tmp_path / "house.terrain"  # in its base's edition: nothing to add
    house.write_text('ruleset house "House"\nversion 1.0.0\nextends jump_troopers@^1.0\n')
    assert main(["migrate", str(house)]) == 0
    assert "already edition 2026.12" in capsys.readouterr().err
    assert "edition" not in house.read_text("utf-8")


def test_check_says_once_per_file_that_a_newer_edition_changes_its_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / GAME.name
    shutil.copy(GAME, path)
    assert main(["check", str(path)]) == 0  # a warning
    err = capsys.readouterr().err
    assert err.count("W112") == 1
    assert f"{path}:8:9: warning[W112]: edition 2026.12 would change 11 answers" in err
    assert "(e.g. can_end('jet', 'ruins_upper'): False -> True)" in err
    assert f"`rulesdsl migrate {path}` moves it" in err
    main(["migrate", str(path)])
    capsys.readouterr()
    assert main(["check", str(path)]) == 0
    assert "W112" not in capsys.readouterr().err
    plain = tmp_path / "plain.terrain"  # no keyword precedence: nothing a new edition changes
    plain.write_text('ruleset plain "Plain"\nversion 1.0.0\nlayer t "T" {\n  a "A" | 1\n}\n')
    assert main(["check", str(plain)]) == 0
    assert "W112" not in capsys.readouterr().err


def test_an_unknown_edition_is_e112_at_its_value(compiler: Compiler, tmp_path: Path) -> None:
    text = 'ruleset x "X"\nversion 1.0.0\nedition 2025.1\n'
    compiled = compile_snippet(compiler, text, tmp_path, "x.terrain")
    [diag] = compiled.diagnostics
    assert diag.pos is not None
    assert (diag.code, diag.pos.line, diag.pos.column) == ("E112", 3, 9)
    assert diag.hint == "editions: 2026.11, 2026.12 (the current one: 2026.12)"


def test_a_yaml_ruleset_states_its_edition_the_same_way(compiler: Compiler, tmp_path: Path) -> None:
    text = "ruleset: y\nversion: 1.0.0\n{}layers:\n  t:\n    rows:\n      a: '1'\n"
    old = compile_snippet(compiler, text.format(""), tmp_path, "y.yaml")
    new = compile_snippet(compiler, text.format("edition: 2026.12\n"), tmp_path, "y.yaml")
    assert old.ruleset is not None and new.ruleset is not None
    assert (old.ruleset.edition, new.ruleset.edition) == (editions.FIRST, editions.CURRENT)
    bad = compile_snippet(compiler, text.format("edition: 1999.1\n"), tmp_path, "y.yaml")
    assert [(d.code, d.pos.line) for d in bad.diagnostics if d.pos] == [("E112", 3)]


def test_a_house_rule_without_an_edition_is_read_in_its_bases(
    compiler: Compiler, tmp_path: Path
) -> None:
    text = GAME.read_text("utf-8").replace("version 1.0.0\n", "version 1.0.0\nedition 2026.12\n")
    (tmp_path / GAME.name).write_text(text, "utf-8")
    house = 'ruleset house "House"\nversion 1.0.0\nextends jump_troopers@^1.0\n'
    compiled = compile_snippet(compiler, house, tmp_path, "house.terrain")
    assert compiled.ruleset is not None and compiled.ruleset.edition == "2026.12"
    older = house + "edition 2026.11\n"
    compiled = compile_snippet(compiler, older, tmp_path, "house.terrain")
    assert compiled.ruleset is not None and compiled.ruleset.edition == "2026.11"


def test_the_edition_is_part_of_the_meaning_digest(compiler: Compiler) -> None:
    text = GAME.read_text("utf-8")
    old, _ = compiler.parse_text(text, "a.terrain")
    new, _ = compiler.parse_text(
        text.replace("version 1.0.0\n", "version 1.0.0\nedition 2026.12\n"), "a.terrain"
    )
    assert old is not None and new is not None
    assert statements_digest(old.statements) != statements_digest(new.statements)


def test_the_docs_table_lists_every_edition() -> None:
    doc = (ROOT / "docs" / "language.md").read_text("utf-8")
    for edition in editions.EDITIONS:
        assert f"| `{edition.name}` |" in doc
