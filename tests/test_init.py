"""`rulesdsl init` (issue 26): a new project that builds and checks as written, and never a
file overwritten."""

from __future__ import annotations

import importlib.util
import shlex
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from rulesdsl.cli import main, make_parser
from rulesdsl.commands.init import DEFAULT_ID, WORKFLOW, ruleset_id

FILES = [
    ".github/workflows/rules.yml",
    ".gitignore",
    "README.md",
    "rulesets/skirmish.terrain",
]


def load_module_from(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"init_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tree(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_init_lays_out_a_project_that_builds_and_checks_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "skirmish"
    assert main(["init", str(folder)]) == 0
    assert tree(folder) == FILES
    monkeypatch.chdir(folder)
    assert main(["check"]) == 0
    assert main(["build"]) == 0
    made = tree(folder / "generated")
    assert {"python/skirmish.py", "sheets/skirmish.en.html", "sheets/skirmish.en.md"} <= set(made)
    assert main(["build", "--check"]) == 0
    assert main(["fmt", "--check"]) == 0  # the starter is laid out as fmt would


def test_init_refuses_a_folder_where_it_would_overwrite_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "skirmish"
    assert main(["init", str(folder)]) == 0
    starter = folder / "rulesets" / "skirmish.terrain"
    starter.write_text("# mine\n", "utf-8")
    capsys.readouterr()
    assert main(["init", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "never overwrites" in err and "rulesets/skirmish.terrain" in err
    assert starter.read_text("utf-8") == "# mine\n"

    other = tmp_path / "other"
    other.mkdir()
    (other / "README.md").write_text("my notes\n", "utf-8")
    assert main(["init", str(other)]) == 2
    assert tree(other) == ["README.md"]  # not the rest either
    assert (other / "README.md").read_text("utf-8") == "my notes\n"


def test_init_adds_a_project_to_a_folder_with_other_files(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x", "utf-8")
    assert main(["init", str(tmp_path), "--id", "skirmish"]) == 0
    assert tree(tmp_path) == sorted([*FILES, "notes.txt"])


@pytest.mark.parametrize(
    ("folder", "rid"),
    [
        ("skirmish", "skirmish"),
        ("My Game 2!", "my_game_2"),
        ("2026-league", "rules_2026_league"),
        ("list", "list_rules"),  # a Python name: not a module's name
        ("---", DEFAULT_ID),
    ],
)
def test_the_starter_is_named_after_the_folder_when_that_can_be_an_id(
    folder: str, rid: str
) -> None:
    assert ruleset_id(folder) == rid


def test_init_refuses_an_id_that_cannot_name_a_module(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", str(tmp_path), "--id", "import"]) == 2
    assert "cannot be a ruleset id" in capsys.readouterr().err
    assert tree(tmp_path) == []


def test_the_starter_readme_answers_are_the_module_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "skirmish"
    assert main(["init", str(folder)]) == 0
    monkeypatch.chdir(folder)
    assert main(["build"]) == 0
    rules = load_module_from(folder / "generated" / "python" / "skirmish.py")
    readme = (folder / "README.md").read_text("utf-8")
    assert 'rules.move_cost("cavalry", "woods", distance=2)  # 6' in readme
    assert rules.move_cost("cavalry", "woods", distance=2) == 6
    assert rules.move_cost("vehicle", "woods") is rules.IMPASSABLE
    assert rules.modifier("cover", "rubble", "smoke") == 2
    assert rules.roll("morale", 9).label["en"] == "Holds its ground"


def test_the_ci_workflow_runs_build_check_and_diff_fail_on_with_real_flags(
    tmp_path: Path,
) -> None:
    assert main(["init", str(tmp_path), "--id", "skirmish"]) == 0
    workflow = yaml.safe_load((tmp_path / WORKFLOW).read_text("utf-8"))
    steps = workflow["jobs"]["rules"]["steps"]
    lines = [
        line.strip()
        for step in steps
        if "run" in step
        for line in step["run"].splitlines()
        if line.strip().startswith("rulesdsl ")
    ]
    assert [shlex.split(line)[1] for line in lines] == ["check", "build", "diff", "build"]
    assert "rulesdsl build --check" in lines
    for line in lines:
        argv = shlex.split(line.replace("$file", "a.terrain").replace("$base", "main"))[1:]
        make_parser(argv[0]).parse_args(argv)  # exits (SystemExit) on an unknown flag
    assert any("--fail-on breaking" in line for line in lines)
    assert any("build --check --against" in line for line in lines)  # issue 39
