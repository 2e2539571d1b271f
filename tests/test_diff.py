"""`rulesdsl diff`: a semantic diff, in words a player reads, each change classified."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from rulesdsl import ir
from rulesdsl.commands.cli import main
from rulesdsl.variants.changelog import path_text
from rulesdsl.versions import diff as semantic
from rulesdsl.versions import rebase
from tests.conftest import RULESETS, shared_compiler

COMPILER = shared_compiler()


def compiled(path: Path) -> ir.Ruleset:
    result = COMPILER.compile_file(path)
    assert result.ruleset is not None and result.ok, result.diagnostics
    return result.ruleset


def bundled(name: str) -> ir.Ruleset:
    return compiled(RULESETS / f"{name}.terrain")


def summary(d: semantic.Diff) -> list[tuple[str, str, str]]:
    return [(c.level, c.action, c.path) for c in d.changes]


# ---- base against each bundled variant: exactly the changes made ----------------------------


def test_heavy_gear_house_rule_changes_two_cells() -> None:
    d = semantic.diff(bundled("heavy_gear"), bundled("heavy_gear_house"))
    assert summary(d) == [
        ("rules", "changed", "soft.walker"),
        ("rules", "changed", "rapid_water.cost"),
        ("rules", "changed", "example.walker_on_soft_ground"),
        ("rules", "changed", "example.hover_on_rapid_water"),
        ("wording", "added", "house"),
    ]
    assert [c.message for c in d.changes] == [
        "Soft (sand, snow, mud), Walker: 3 -> 2 MP per inch",
        "Rapid water, every mode: +1 -> +2 MP per inch",
        "A walker crosses soft ground: move_cost(walker, soft): 3 MP -> 2 MP",
        "A hover skims over rapid shallow water: "
        "move_cost(hover, shallow_water, rapid_water): 2 MP -> 3 MP",
        "book added: House",
    ]
    assert (d.changes[0].old, d.changes[0].new) == ("3", "2")
    assert d.level == "rules"


def test_the_diff_paths_match_the_variants_changelog() -> None:
    variant = bundled("heavy_gear_house")
    d = semantic.diff(bundled("heavy_gear"), variant)
    assert sorted(c.path for c in d.changes) == sorted(path_text(c.path) for c in variant.changes)


def test_winter_campaign_against_the_house_rule() -> None:
    d = semantic.diff(bundled("heavy_gear_house"), bundled("heavy_gear_house_winter"))
    assert summary(d) == [
        ("rules", "changed", "soft.ground"),
        ("rules", "changed", "example.ground_on_soft_ground"),
        ("additive", "added", "ice"),
        ("wording", "added", "example.ice_crossing"),
    ]
    assert [c.message for c in d.changes] == [
        "Soft (sand, snow, mud), Ground (wheels, tracks): 2 -> 3 MP per inch",
        "Wheels and tracks on soft ground: move_cost(ground, soft): 2 MP -> 3 MP",
        "terrain added to Terrain: Ice: 2 MP per inch, Hover 1 MP per inch",
        "worked example added: Crossing a frozen lake",
    ]


def test_desert_campaign_removes_a_unit_type_and_adds_a_weather() -> None:
    variant = bundled("battletech_tacops_desert")
    d = semantic.diff(bundled("battletech_tacops"), variant)
    assert summary(d) == [
        ("breaking", "removed", "airship"),
        ("additive", "added", "dust_storm"),
        ("wording", "added", "house"),
    ]
    assert d.changes[0].message == "mode removed: Airship (flying)"
    assert d.changes[1].message == (
        "terrain added to Weather: Dust storm: 1 MP per hex, VTOL (flying) 2 MP per hex"
    )
    assert sorted(c.path for c in d.changes) == sorted(path_text(c.path) for c in variant.changes)
    assert d.level == "breaking"


@pytest.mark.parametrize("name", ["heavy_gear", "battletech_tacops", "heavy_gear_house"])
def test_a_ruleset_against_itself_has_no_changes(name: str) -> None:
    d = semantic.diff(bundled(name), bundled(name))
    assert d.changes == () and d.level is None


# ---- classification, item by item ---------------------------------------------------------

OLD = """\
ruleset demo "Demo"
version 1.0.0
book core "Core"
units distance in, cost MP
mode walker "Walker"
mode hover "Hover"
context weapon "Weapon" {
  ballistic "Ballistic"
  energy "Energy"
}
modifier to_hit "To-hit" by weapon
layer terrain "Terrain" {
  columns cost, to_hit
  clear "Clear" | 1 | 0
  soft "Soft ground" | 2, walker 3 | +1
  woods "Woods" | 2 | +1, ballistic +2
}
modifier cover "Cover" {
  full "Full" | -2
  partial "Partial" | -1
}
step climb "Climbing" (rise in) -> MP : +1 per 1 in, impassable from 2 in
decision lock "Lock" (hidden bool, distance in) {
  hidden -> none "No lock"
  distance <= 2 in -> passive "Passive"
  otherwise -> active "Active"
}
table speed "Speed" {
  column slow "Slow"
  column fast "Fast"
  light "Light" | 4 in | 6 in
  heavy "Heavy" | 2 in | 4 in
}
dice effects "Effects" : 2d6 {
  modifier big "Big" +2
  2-7 nothing "Nothing"
  8-11 fire "Fire" | ignites
  12+ boom "Boom" | damage 5
}
trigger miss "Miss" : 2d6 >= 8 then roll effects
param reach "Reach" : in = 10
"""


def diff_texts(tmp_path: Path, old: str, new: str) -> semantic.Diff:
    (tmp_path / "old").mkdir(exist_ok=True)
    (tmp_path / "new").mkdir(exist_ok=True)
    (tmp_path / "old" / "demo.terrain").write_text(old, "utf-8")
    (tmp_path / "new" / "demo.terrain").write_text(new, "utf-8")
    return semantic.diff(
        compiled(tmp_path / "old" / "demo.terrain"), compiled(tmp_path / "new" / "demo.terrain")
    )


@pytest.mark.parametrize(
    ("old", "new", "expected", "message"),
    [
        (
            "| 2, walker 3 | +1",
            "| 2, walker 2 | +1",
            [("rules", "changed", "soft.walker")],
            "Soft ground, Walker: 3 -> 2 MP per inch",
        ),
        (
            "| 2, walker 3 | +1",
            "| 2, walker impassable | +1",
            [("breaking", "changed", "soft.walker")],
            "Soft ground, Walker: 3 MP per inch -> impassable",
        ),
        (
            "| 2, walker 3 | +1",
            "| 2, walker 1 per 2 in | +1",
            [("breaking", "changed", "soft.walker")],
            "Soft ground, Walker: 3 MP per inch -> 1 per 2 in",
        ),
        (
            "| 2, walker 3 | +1",
            "| 4, walker 3 | +1",
            [("rules", "changed", "soft.hover")],
            "Soft ground, Hover: 2 -> 4 MP per inch",
        ),
        (
            "| 2 | +1, ballistic +2",
            "| 2 | +1, ballistic +3",
            [("rules", "changed", "woods.to_hit.ballistic")],
            "To-hit, Woods (Ballistic): +2 -> +3",
        ),
        (
            'full "Full" | -2',
            'full "Full" | -3',
            [("rules", "changed", "full")],
            "Cover, Full: -2 -> -3",
        ),
        (
            "+1 per 1 in, impassable from 2 in",
            "+1 per 1 in, impassable from 3 in",
            [("rules", "changed", "climb")],
            "Climbing: +1 per 1 in, impassable from 2 in -> +1 per 1 in, impassable from 3 in",
        ),
        (
            "(rise in)",
            "(height in)",
            [("breaking", "changed", "climb")],
            "Climbing: input rise renamed height",
        ),
        (
            "distance <= 2 in -> passive",
            "distance <= 3 in -> passive",
            [("rules", "changed", "lock.passive")],
            "Lock, row Passive: distance <= 2 in -> distance <= 3 in",
        ),
        (
            "| 2 in | 4 in",
            "| 2 in | 5 in",
            [("rules", "changed", "speed.fast.heavy")],
            "Speed, Heavy (Fast): 4 in -> 5 in",
        ),
        (
            "| 2 in | 4 in",
            "| 2 in | no",
            [("breaking", "changed", "speed.fast.heavy")],
            "Speed, Heavy (Fast): 4 in -> no",
        ),
        (
            '  heavy "Heavy" | 2 in | 4 in\n',
            "",
            [("breaking", "removed", "speed.heavy")],
            "Speed row removed: Heavy",
        ),
        (
            '8-11 fire "Fire" | ignites\n  12+',
            '8-10 fire "Fire" | ignites\n  11+',
            [("rules", "changed", "effects.fire"), ("rules", "changed", "effects.boom")],
            "Effects, Fire: rolled on 8-11 -> 8-10",
        ),
        (
            "| damage 5",
            "| damage 6",
            [("rules", "changed", "effects.boom")],
            "Effects, Boom, damage: 5 -> 6",
        ),
        (
            'modifier big "Big" +2',
            'modifier big "Big" +3',
            [("rules", "changed", "big")],
            "Effects, Big: +2 -> +3",
        ),
        (
            ">= 8 then",
            ">= 9 then",
            [("rules", "changed", "miss")],
            "Miss: 2d6 >= 8 then roll effects -> 2d6 >= 9 then roll effects",
        ),
        ("in = 10", "in = 12", [("rules", "changed", "reach")], "Reach: 10 -> 12 in"),
        (
            'param reach "Reach" : in = 10\n',
            "",
            [("breaking", "removed", "reach")],
            "parameter removed: Reach",
        ),
        (
            'mode hover "Hover"\n',
            'mode hover "Hover"\nmode jump "Jump"\n',
            [("additive", "added", "jump")],
            "mode added: Jump",
        ),
        (
            '  energy "Energy"\n',
            "",
            [("breaking", "removed", "energy")],
            "Weapon value removed: Energy",
        ),
        (
            'soft "Soft ground"',
            'soft "Soft"',
            [("wording", "changed", "soft")],
            "Soft: en label 'Soft ground' -> 'Soft'",
        ),
        (
            'clear "Clear" | 1 | 0',
            'clear "Clear" | 1 | 0 [core p.3]',
            [("wording", "changed", "clear")],
            "Clear: source none -> core p.3",
        ),
        (
            "units distance in, cost MP",
            "units distance in, cost AP",
            [("rules", "changed", "units.cost")],
            "cost unit: MP -> AP",
        ),
    ],
)
def test_each_change_is_classified(
    tmp_path: Path, old: str, new: str, expected: list[tuple[str, str, str]], message: str
) -> None:
    assert OLD.count(old) == 1, old
    changed = OLD.replace(old, new)
    d = diff_texts(tmp_path, OLD, changed)
    assert summary(d) == expected
    assert d.changes[0].message == message


def test_a_new_feature_is_additive_and_a_removed_one_breaking(tmp_path: Path) -> None:
    d = diff_texts(
        tmp_path, OLD, OLD.replace('  clear "Clear" | 1 | 0\n', '  ice "Ice" | 2, hover 1 | 0\n')
    )
    assert summary(d) == [("breaking", "removed", "clear"), ("additive", "added", "ice")]
    assert [c.message for c in d.changes] == [
        "terrain removed: Clear",
        "terrain added to Terrain: Ice: 2 MP per inch, Hover 1 MP per inch",
    ]


def test_removing_a_mode_is_one_breaking_change(tmp_path: Path) -> None:
    d = diff_texts(
        tmp_path, OLD, OLD.replace('mode walker "Walker"\n', "").replace(", walker 3", "")
    )
    assert summary(d) == [("breaking", "removed", "walker")]


# ---- the command ----------------------------------------------------------------------------


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def path_of(name: str) -> str:
    return str(RULESETS / f"{name}.terrain")


def test_diff_prints_changes_by_level(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["diff", path_of("battletech_tacops"), path_of("battletech_tacops_desert")], capsys
    )
    assert code == 0
    assert out == (
        "battletech_tacops 2.0.1 -> battletech_tacops_desert 2.0.1\n"
        "breaking (1):\n"
        "  - mode removed: Airship (flying)  [airship]\n"
        "additive (1):\n"
        "  + terrain added to Weather: Dust storm: 1 MP per hex, VTOL (flying) 2 MP per hex"
        "  [dust_storm]\n"
        "wording (1):\n"
        "  + book added: House  [house]\n"
        "3 changes: 1 breaking, 1 additive, 1 wording\n"
    )


def test_diff_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["diff", path_of("heavy_gear"), path_of("heavy_gear_house"), "--format", "json"], capsys
    )
    assert code == 0
    data = json.loads(out)
    assert data["old"] == {"id": "heavy_gear", "version": "1.0.0"}
    assert data["new"] == {"id": "heavy_gear_house", "version": "1.0.0"}
    assert data["level"] == "rules"
    assert data["counts"] == {"breaking": 0, "rules": 4, "additive": 0, "wording": 1}
    assert data["changes"][0] == {
        "level": "rules",
        "action": "changed",
        "path": "soft.walker",
        "message": "Soft (sand, snow, mud), Walker: 3 -> 2 MP per inch",
        "old": "3",
        "new": "2",
    }


@pytest.mark.parametrize(
    ("old", "new", "fail_on", "code"),
    [
        ("heavy_gear", "heavy_gear_house", "breaking", 0),
        ("heavy_gear", "heavy_gear_house", "rules", 1),
        ("heavy_gear", "heavy_gear_house", "additive", 1),
        ("heavy_gear_house", "heavy_gear_house_winter", "rules", 1),
        ("heavy_gear_house", "heavy_gear_house_winter", "breaking", 0),
        ("battletech_tacops", "battletech_tacops_desert", "breaking", 1),
        ("heavy_gear", "heavy_gear", "wording", 0),
    ],
)
def test_fail_on_exits_1_when_a_change_reaches_the_level(
    old: str, new: str, fail_on: str, code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["diff", path_of(old), path_of(new), "--fail-on", fail_on], capsys)[0] == code


def test_diff_bad_usage_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["diff", path_of("heavy_gear")], capsys)[0] == 2
    assert run(["diff", path_of("heavy_gear"), "nowhere.terrain"], capsys)[0] == 2
    assert (
        run(["diff", path_of("heavy_gear"), path_of("heavy_gear"), "--fail-on", "x"], capsys)[0]
        == 2
    )


# ---- against a git revision -----------------------------------------------------------------


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), "utf-8")


def test_diff_against_a_git_revision(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    house = repo / "rulesets" / "heavy_gear_house.terrain"
    edit(house, "override soft.walker | 2", "override soft.walker | 1")
    edit(house, "example walker_on_soft_ground | 2 MP", "example walker_on_soft_ground | 1 MP")
    code, out, _ = run(
        ["diff", "rulesets/heavy_gear_house.terrain", "--rev", "HEAD", "--fail-on", "rules"], capsys
    )
    assert code == 1
    assert out.splitlines()[:4] == [
        "heavy_gear_house 1.0.0 -> heavy_gear_house 1.0.0",
        "rules (2):",
        "  ~ Soft (sand, snow, mud), Walker: 2 -> 1 MP per inch  [soft.walker]",
        "  ~ A walker crosses soft ground: move_cost(walker, soft): 2 MP -> 1 MP  "
        "[example.walker_on_soft_ground]",
    ]
    assert out.splitlines()[-1] == ("version 1.0.0 -> 1.0.0: a rules change needs 1.1.0 or later")
    code, out2, _ = run(
        ["diff", "HEAD:rulesets/heavy_gear_house.terrain", "rulesets/heavy_gear_house.terrain"],
        capsys,
    )
    assert code == 0 and out2 == out
    code, out3, _ = run(["diff", "HEAD:heavy_gear_house", "heavy_gear_house"], capsys)
    assert code == 0 and out3 == out


def test_a_variant_at_a_revision_uses_its_base_at_that_revision(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    base = repo / "rulesets" / "heavy_gear.terrain"
    base.write_text(
        re.sub(r'("Unwegsam, dicht" +)\| 3', r"\1| 4", base.read_text("utf-8")), "utf-8"
    )
    code, out, _ = run(["diff", "rulesets/heavy_gear_house.terrain", "--rev", "HEAD"], capsys)
    assert code == 0
    assert "  ~ Rough, dense, every mode: 3 -> 4 MP per inch  [rough.cost]" in out.splitlines()


def test_diff_against_a_missing_revision_is_bad_usage(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    code, _, err = run(["diff", "rulesets/heavy_gear.terrain", "--rev", "nope"], capsys)
    assert code == 2
    assert err.startswith("rulesdsl: error: nope:rulesets/heavy_gear.terrain:")


def test_a_changed_table_cell_in_a_decision_row_is_a_rules_change(tmp_path: Path) -> None:
    """Regression: the diff spelled cell operands as 0, so up_angle -> down_angle went unseen."""
    text = (RULESETS / "d20_movement.terrain").read_text("utf-8")
    old_line = "climb > flight[maneuverability].up_angle"
    assert old_line in text
    changed = tmp_path / "d20_movement.terrain"
    text = text.replace(old_line, "climb > flight[maneuverability].down_angle")
    changed.write_text(text.replace("= climb_too_steep\n", "= legal\n"), "utf-8")  # its example
    d = semantic.diff(bundled("d20_movement"), compiled(changed))
    assert summary(d) == [
        ("rules", "changed", "flying_move.climb_too_steep"),
        ("rules", "changed", "example.average_flier_climbs.2"),
    ]
    change = d.changes[0]
    assert change.old == "climb > flight[maneuverability].up_angle"
    assert change.new == "climb > flight[maneuverability].down_angle"


# ---- rebase check: a house rule against a new version of its base ---------------------------


def _moved_base(tmp_path: Path) -> Path:
    """A copy of the bundled rulesets whose heavy_gear moved to 1.1.0: walkers pay 4 on soft
    ground (a cell the house rule overrides), 2 in the clear and 3 in rapid water."""
    folder = tmp_path / "moved"
    folder.mkdir()
    for path in RULESETS.glob("*.terrain"):
        (folder / path.name).write_text(path.read_text("utf-8"), "utf-8")
    base = folder / "heavy_gear.terrain"
    text = base.read_text("utf-8")
    for old, new in (
        (r"\nversion 1\.0\.0\n", "\nversion 1.1.0\n"),
        (r"(\n  soft [^|]*\| 2, walker )3\n", r"\g<1>4\n"),
        (r"(\n  clear [^|]*\| 1)\n", r"\1, walker 2\n"),
        (r"(\n  move_cost\(walker, soft\) = )3 MP\n", r"\g<1>4 MP\n"),  # its worked example
    ):
        text, count = re.subn(old, new, text, count=1)
        assert count == 1, old
    base.write_text(text, "utf-8")
    return base


def test_rebase_lists_the_overridden_cells_the_base_changed_and_what_is_inherited(
    tmp_path: Path,
) -> None:
    moved = compiled(_moved_base(tmp_path))
    r = rebase.rebase(bundled("heavy_gear"), moved, bundled("heavy_gear_house"))
    assert [(c.level, c.path, c.old, c.new) for c in r.overridden] == [
        ("rules", "soft.walker", "3", "4"),
        ("rules", "example.walker_on_soft_ground", "3 MP", "4 MP"),  # restated by the house
    ]
    assert summary(r.inherited) == [("rules", "changed", "clear.walker")]
    assert r.base.count("rules") == 3


def test_a_whole_cell_override_covers_every_mode_of_that_cell(tmp_path: Path) -> None:
    base = _moved_base(tmp_path)
    base.write_text(
        base.read_text("utf-8").replace(
            'rapid_water "Rapid water" fr "Eau vive" de "Strömung" | +1',
            'rapid_water "Rapid water" fr "Eau vive" de "Strömung" | +1, walker +2',
        ),
        "utf-8",
    )
    r = rebase.rebase(bundled("heavy_gear"), compiled(base), bundled("heavy_gear_house"))
    assert sorted(c.path for c in r.overridden) == [
        "example.walker_on_soft_ground",
        "rapid_water.walker",
        "soft.walker",
    ]


def test_diff_rebase_prints_the_check_for_a_bundled_house_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _moved_base(tmp_path)
    assert main(["diff", "heavy_gear_house", "--rebase", str(base)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "heavy_gear_house 1.0.0 on heavy_gear 1.0.0 -> heavy_gear 1.1.0",
        "overridden by heavy_gear_house, changed by the base (2):",
        "  ! Soft (sand, snow, mud), Walker: 3 -> 4 MP per inch  [soft.walker] (rules)",
        "  ! A walker crosses soft ground: move_cost(walker, soft): 3 MP -> 4 MP  "
        "[example.walker_on_soft_ground] (rules)",
        "inherited, rules (1):",
        "  ~ Clear, open, Walker: 1 -> 2 MP per inch  [clear.walker]",
        "3 base changes: 2 on what heavy_gear_house overrides, 1 inherited (1 rules)",
    ]
    assert main(["diff", "heavy_gear_house", "--rebase", str(base), "--fail-on", "rules"]) == 1
    capsys.readouterr()
    assert main(["diff", "heavy_gear_house", "--rebase", str(base), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["path"] for c in data["overridden"]] == [
        "soft.walker",
        "example.walker_on_soft_ground",
    ]
    assert [c["path"] for c in data["inherited"]["changes"]] == ["clear.walker"]


def test_rebase_reports_an_override_the_new_base_no_longer_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _moved_base(tmp_path)
    text = base.read_text("utf-8")
    text = re.sub(r"  rapid_water .*\n\s+note .*\n", "", text)
    text = re.sub(r"example hover_on_rapid_water .*\n.*\n\}\n", "", text)
    base.write_text(re.sub(r"\nexclude rapid_water .*\n", "\n", text), "utf-8")
    assert main(["diff", "heavy_gear_house", "--rebase", str(base)]) == 1
    captured = capsys.readouterr()
    assert "error[E504]" in captured.err and "rapid_water" in captured.err
    assert "[rapid_water] (breaking)" in captured.out


# ---- ids resolve against the project, or --dir ---------------------------------------------


def _elsewhere(tmp_path: Path) -> Path:
    folder = tmp_path / "my rules"
    folder.mkdir()
    for name in ("heavy_gear", "heavy_gear_house"):
        (folder / f"{name}.terrain").write_text(
            (RULESETS / f"{name}.terrain").read_text("utf-8"), "utf-8"
        )
    return folder


def test_the_diff_command_that_new_prints_works_as_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`rulesdsl new --dir X` printed a `rulesdsl diff` that only looked in ./rulesets."""
    folder = _elsewhere(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    monkeypatch.chdir(outside)
    assert main(["new", "my_house", "--extends", "heavy_gear", "--dir", str(folder)]) == 0
    printed = capsys.readouterr().err
    command = re.search(r"`rulesdsl (diff [^`]+)`", printed)
    assert command is not None
    assert main(shlex.split(command.group(1))) == 0
    assert capsys.readouterr().out.startswith("heavy_gear 1.0.0 -> my_house 0.1.0")


@pytest.mark.parametrize(
    "argv",
    [
        ["diff", "--dir", "{dir}", "heavy_gear", "heavy_gear_house"],
        ["diff", "--dir", "{dir}", "heavy_gear_house", "--rebase", "heavy_gear"],
        ["sheet", "--dir", "{dir}", "heavy_gear_house", "--format", "md"],
        ["export", "--dir", "{dir}", "heavy_gear_house", "--format", "json"],
        ["check", "--dir", "{dir}", "heavy_gear_house"],
        ["check", "--dir", "{dir}"],
    ],
)
def test_every_verb_that_takes_ids_finds_them_in_dir(
    tmp_path: Path,
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = _elsewhere(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main([a.replace("{dir}", str(folder)) for a in argv]) == 0, capsys.readouterr().err


def test_ids_resolve_from_inside_a_folder_of_rulesets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(_elsewhere(tmp_path))
    assert main(["diff", "heavy_gear", "heavy_gear_house"]) == 0
    assert "[soft.walker]" in capsys.readouterr().out


SPOTTING = """ruleset demo "Demo"
version 1.0.0
units distance in, cost MP
mode walker "Walker"
decision spot "Spotting" (dist in, cover bool) {
  dist <= 6 in -> seen "Seen"
  dist <= 12 in and not cover -> seen
  dist <= 12 in -> hidden "Hidden"
  dist <= 18 in and not cover -> seen
  dist <= 24 in and not cover -> seen
  dist <= 30 in -> hidden
  otherwise -> hidden
}
"""


def test_one_bound_changed_in_a_decision_with_repeated_outcomes_shows_that_row_once(
    tmp_path: Path,
) -> None:
    """Issue 40: a 7-row decision was printed whole before and after, in outcome ids."""
    d = diff_texts(tmp_path, SPOTTING, SPOTTING.replace("dist <= 18", "dist <= 20"))
    assert [c.message for c in d.changes] == [
        "Spotting, row 4 (Seen): dist <= 18 in and not cover -> dist <= 20 in and not cover"
    ]
    assert summary(d) == [("rules", "changed", "spot.4")]


def test_a_removed_decision_row_is_shown_with_its_outcomes_label(tmp_path: Path) -> None:
    old = SPOTTING.replace('-> seen "Seen"', '-> seen "Seen"\n  dist <= 7 in -> close "Close"')
    d = diff_texts(tmp_path, old, SPOTTING)
    assert [c.message for c in d.changes] == [
        "Spotting outcome removed: Close",
        "Spotting: row removed (was row 2): dist <= 7 in -> Close",
    ]


def test_a_changed_sight_value_names_the_sight_rule_by_its_label(tmp_path: Path) -> None:
    """Issue 40: `diff` showed the sight rule's id (`Woods, los: 1 -> 2`) beside labels."""
    old = (
        'ruleset demo "Demo"\nversion 1.0.0\nunits distance in, cost MP\nmode walker "Walker"\n'
        'sight los "Line of sight" : blocks at 3\n'
        'layer terrain "Terrain" {\n  columns cost, los\n  woods "Woods" | 2 | 1, walker 0\n}\n'
    )
    d = diff_texts(tmp_path, old, old.replace("| 1, walker 0", "| 2, walker 1"))
    assert [c.message for c in d.changes] == [
        "Woods, Line of sight: 1 -> 2",
        "Woods, Line of sight for Walker: 0 -> 1",
    ]


def test_a_results_cell_and_a_natural_roll_are_shown_with_labels(tmp_path: Path) -> None:
    """Issue 40: a results table's changed cell showed its column's and outcomes' ids."""
    old = (
        'ruleset demo "Demo"\nversion 1.0.0\nunits distance in, cost MP\nmode walker "Walker"\n'
        'dice crt "Combat results" : 1d6 by odds {\n'
        '  column low "1:1" up to 1\n  column high "2:1" above 1\n'
        '  outcome dr "Defender retreats"\n  outcome de "Defender eliminated"\n'
        "  natural 6 de\n  1-3 | dr | dr\n  4+ | dr | de\n}\n"
    )
    new = old.replace("1-3 | dr | dr", "1-3 | dr | de").replace("natural 6 de", "natural 6 dr")
    d = diff_texts(tmp_path, old, new)
    assert [c.message for c in d.changes] == [
        "Combat results, natural 6: Defender eliminated -> Defender retreats",
        "Combat results, 1-3 in column 2:1: Defender retreats -> Defender eliminated",
    ]
