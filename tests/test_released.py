"""Versions obey their own diff (issue 39, item 3): each bundled ruleset, compared with its last
released state (tests/corpus/released.json: the git revision and the version released there),
has the version bump its changes need: a breaking change a major one, a rules change a minor
one, an additive change at least a patch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.versions import versioning
from rulesdsl.versions.diff import diff
from tests.conftest import ROOT, RULESETS, compile_snippet

RECORD = json.loads((ROOT / "tests" / "corpus" / "released.json").read_text("utf-8"))["rulesets"]
BUNDLED = sorted(RULESETS.glob("*.terrain"))


def released(path: Path, compiler: Compiler) -> versioning.Compiled:
    entry = RECORD[path.stem]
    old = versioning.compile_at(path, entry["revision"], compiler)
    assert old.ruleset is not None, [str(d) for d in old.diagnostics]
    assert old.ruleset.version == entry["version"]
    return old


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_a_bundled_ruleset_has_the_version_its_diff_since_its_release_needs(path: Path) -> None:
    assert path.stem in RECORD, "a new bundled ruleset: record its release in released.json"
    compiler = Compiler()
    old, new = released(path, compiler).ruleset, compiler.compile_file(path).ruleset
    assert old is not None and new is not None
    assert versioning.unbumped(diff(old, new)) is None


def test_d20_movement_is_1_1_0_because_flying_move_s_new_inputs_have_defaults(
    compiler: Compiler, tmp_path: Path
) -> None:
    path = RULESETS / "d20_movement.terrain"
    old = released(path, compiler).ruleset
    new = compiler.compile_file(path).ruleset
    assert old is not None and new is not None and new.version == "1.1.0"
    d = diff(old, new)
    assert versioning.unbumped(d) is None
    assert [c.path for c in d.changes if c.level == "breaking"] == []
    added = [c.path for c in d.changes if c.level == "additive"]
    assert "flying_move.climb_after_dive" in added and "flying_move.level_flown" in added
    # without the defaults the same inputs break 1.0.0's callers: a patch or minor is not enough
    text = path.read_text("utf-8").replace("bool = no, level_flown m = 0)", "bool, level_flown m)")
    bare = compile_snippet(compiler, text, tmp_path, "d20_movement.terrain").ruleset
    assert bare is not None
    assert versioning.unbumped(diff(old, bare)) == "breaking"


def test_diff_warns_when_the_version_does_not_obey_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = RULESETS / "d20_movement.terrain"
    new = tmp_path / "d20_movement.terrain"
    text = old.read_text("utf-8")
    new.write_text(
        text.replace(
            "  otherwise ", "  hover and backward -> cannot_fly_backward\n  otherwise ", 1
        ),
        "utf-8",
    )
    assert main(["diff", str(old), str(new)]) == 0
    err = capsys.readouterr().err
    assert f"{new}:9:9: warning[W601]: 1 rules change since {old}" in err
    assert "but the version stayed at 1.1.0" in err
    assert "= hint: set `version 1.2.0`" in err
    new.write_text(
        text.replace(
            "  otherwise ", "  hover and backward -> cannot_fly_backward\n  otherwise ", 1
        ).replace("version 1.1.0", "version 1.2.0"),
        "utf-8",
    )
    assert main(["diff", str(old), str(new)]) == 0
    assert "W601" not in capsys.readouterr().err


def test_diff_warns_of_an_additive_change_without_a_bump(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = RULESETS / "d20_movement.terrain"
    new = tmp_path / "d20_movement.terrain"
    row = '  day "Over days" fr "Sur plusieurs jours" | constitution\n'
    text = old.read_text("utf-8").replace(
        '  short "Over a few rounds"', row + '  short "Over a few rounds"'
    )
    new.write_text(text, "utf-8")
    assert main(["diff", str(old), str(new)]) == 0
    assert "warning[W601]: 1 additive change" in capsys.readouterr().err
    new.write_text(text.replace("version 1.1.0", "version 1.1.1"), "utf-8")
    assert main(["diff", str(old), str(new)]) == 0
    assert "W601" not in capsys.readouterr().err
