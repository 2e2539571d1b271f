"""Semantic versions: the bump each level of change needs, and `check --against REV` (W601)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.versions import versioning
from tests.conftest import RULESETS


@pytest.mark.parametrize(
    ("old", "new", "bump"),
    [
        ("1.2.3", "2.0.0", "major"),
        ("1.2.3", "1.3.0", "minor"),
        ("1.2.3", "1.2.4", "patch"),
        ("1.2.3", "1.2.3", "none"),
        ("1.2.3", "1.2.2", "downgrade"),
        ("1.2.3", "1.10.0", "minor"),
    ],
)
def test_bump_between_two_versions(old: str, new: str, bump: str) -> None:
    assert versioning.bump_between(old, new) == bump


@pytest.mark.parametrize(
    ("level", "old", "new", "ok"),
    [
        ("breaking", "1.2.3", "2.0.0", True),
        ("breaking", "1.2.3", "1.3.0", False),
        ("rules", "1.2.3", "1.3.0", True),
        ("rules", "1.2.3", "1.2.4", False),
        ("rules", "1.2.3", "2.0.0", True),
        ("additive", "1.2.3", "1.2.4", True),
        ("additive", "1.2.3", "1.2.3", False),
        ("wording", "1.2.3", "1.2.4", True),
        (None, "1.2.3", "1.2.3", True),
        ("rules", "1.2.3", "1.2.2", False),
        # before 1.0.0 every part moves down one, as in Cargo
        ("breaking", "0.2.1", "0.3.0", True),
        ("breaking", "0.2.1", "0.2.2", False),
        ("rules", "0.2.1", "0.2.2", True),
    ],
)
def test_each_level_needs_its_bump(
    level: versioning.Level | None, old: str, new: str, ok: bool
) -> None:
    assert versioning.satisfied(old, new, level) is ok


@pytest.mark.parametrize(
    ("level", "old", "suggested"),
    [
        ("breaking", "1.2.3", "2.0.0"),
        ("rules", "1.2.3", "1.3.0"),
        ("additive", "1.2.3", "1.3.0"),
        ("wording", "1.2.3", "1.2.4"),
        (None, "1.2.3", "1.2.3"),
        ("breaking", "0.2.1", "0.3.0"),
        ("rules", "0.2.1", "0.2.2"),
    ],
)
def test_next_version_suggests_the_recommended_bump(
    level: versioning.Level | None, old: str, suggested: str
) -> None:
    assert versioning.next_version(old, level) == suggested


# ---- check --against REV ----------------------------------------------------------------------


def rewrite(path: Path, pattern: str, replacement: str, times: int = 1) -> None:
    text = path.read_text("utf-8")
    new, count = re.subn(pattern, replacement, text)
    assert count == times, pattern
    path.write_text(new, "utf-8")


def check(repo: Path, name: str) -> list[tuple[str, int, int, str]]:
    path = repo / "rulesets" / f"{name}.terrain"
    compiler = Compiler()
    compiled = compiler.compile_file(path)
    assert compiled.ruleset is not None
    return [
        (d.code, d.pos.line, d.pos.column, d.message)
        for d in versioning.check_against(path, compiled.ruleset, "HEAD", compiler)
        if d.pos
    ]


def test_a_rules_change_without_a_minor_bump_warns_at_the_version_line(repo: Path) -> None:
    house = repo / "rulesets" / "heavy_gear_house.terrain"
    rewrite(house, r"override soft\.walker \| 2", "override soft.walker | 1")
    rewrite(house, r"walker_on_soft_ground \| 2 MP", "walker_on_soft_ground | 1 MP")  # its example
    assert check(repo, "heavy_gear_house") == [
        (
            "W601",
            6,
            9,
            "2 rules changes since HEAD (e.g. Soft (sand, snow, mud), Walker: "
            "2 -> 1 MP per inch) but the version stayed at 1.0.0",
        )
    ]


def test_a_rules_change_with_a_minor_bump_is_fine(repo: Path) -> None:
    house = repo / "rulesets" / "heavy_gear_house.terrain"
    rewrite(house, r"override soft\.walker \| 2", "override soft.walker | 1")
    rewrite(house, r"walker_on_soft_ground \| 2 MP", "walker_on_soft_ground | 1 MP")  # its example
    rewrite(house, r"version 1\.0\.0", "version 1.1.0")
    assert check(repo, "heavy_gear_house") == []


def test_a_breaking_change_with_only_a_minor_bump_warns(repo: Path) -> None:
    base = repo / "rulesets" / "heavy_gear.terrain"
    rewrite(base, r"(?m)^mode hover .*\n", "")
    rewrite(base, r", hover impassable", "")
    rewrite(base, r", hover as clear", "", times=2)
    rewrite(base, r"  move_cost\(hover, very_rough\) = impassable\n", "")  # its examples
    rewrite(base, r"example hover_on_rapid_water .*\n.*\n\}\n", "")
    rewrite(base, r"version 1\.0\.0", "version 1.1.0")
    [(code, line, column, message)] = check(repo, "heavy_gear")
    assert (code, line, column) == ("W601", 6, 9)
    assert message == (
        "1 breaking change since HEAD (e.g. mode removed: Hover) but the "
        "version went 1.0.0 -> 1.1.0"
    )


def test_an_additive_change_without_a_bump_warns(repo: Path) -> None:
    # issue 39: a version obeys its own diff, additive changes included (a patch at least)
    house = repo / "rulesets" / "heavy_gear_house.terrain"
    house.write_text(house.read_text("utf-8") + 'mode jump "Jump" fr "Saut"\n', "utf-8")
    assert [c[:3] for c in check(repo, "heavy_gear_house")] == [("W601", 6, 9)]
    rewrite(house, r"version 1\.0\.0", "version 1.0.1")
    assert check(repo, "heavy_gear_house") == []


def test_build_check_against_a_revision_fails_on_a_version_its_diff_does_not_allow(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from types import SimpleNamespace

    from rulesdsl.builder import build

    monkeypatch.chdir(repo)
    current = SimpleNamespace(  # generated/ is current: only the versions are in question
        ok=True, stale=[], compiled=[], up_to_date=["a", "b"], diagnostics=[], skipped={}
    )
    monkeypatch.setattr(build, "build", lambda *args, **kwargs: current)
    house = repo / "rulesets" / "heavy_gear_house.terrain"
    rewrite(house, r"override soft\.walker \| 2", "override soft.walker | 1")
    rewrite(house, r"walker_on_soft_ground \| 2 MP", "walker_on_soft_ground | 1 MP")
    args = ["build", "--check", "--against", "HEAD", "--out", "generated", "--rulesets", "rulesets"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "rulesets/heavy_gear_house.terrain:6:9: warning[W601]: 2 rules changes since HEAD" in err
    assert "1 ruleset changed since HEAD without the version bump its diff needs" in err
    assert main(args[:2] + args[4:]) == 0  # without --against, the versions are not asked
    rewrite(house, r"version 1\.0\.0", "version 1.1.0")
    assert main(args) == 0
    assert main(["build", "--against", "HEAD"]) == 2  # only with --check


def test_a_file_new_since_the_revision_is_not_checked(repo: Path) -> None:
    shutil.copy(RULESETS / "heavy_gear_house_winter.terrain", repo / "rulesets")
    assert check(repo, "heavy_gear_house_winter") == []


def test_check_against_from_the_command_line(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    rewrite(
        repo / "rulesets" / "heavy_gear_house.terrain",
        r"override rapid_water \| \+2",
        "override rapid_water | +3",
    )
    rewrite(
        repo / "rulesets" / "heavy_gear_house.terrain",
        r"hover_on_rapid_water \| 3 MP",
        "hover_on_rapid_water | 4 MP",  # the worked example it changes, restated
    )
    assert main(["check", "--against", "HEAD"]) == 0  # a warning, not an error
    err = capsys.readouterr().err
    assert (
        "rulesets/heavy_gear_house.terrain:6:9: warning[W601]: 2 rules changes since "
        "HEAD (e.g. Rapid water, every mode: +2 -> +3 MP per inch) but the version "
        "stayed at 1.0.0" in err
    )
    assert "= hint: set `version 1.1.0`" in err
    assert "heavy_gear.terrain" not in err.replace("heavy_gear_house.terrain", "")
