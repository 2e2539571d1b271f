"""`rulesdsl init` (issue 26): a new project that builds and checks as written, and never a
file overwritten."""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from rulesdsl.commands.cli import main, make_parser
from rulesdsl.commands.init import DEFAULT_ID, WORKFLOW, ruleset_id
from tests.conftest import ROOT

FILES = [
    ".github/workflows/rules.yml",
    ".gitignore",
    "README.md",
    "requirements-rules.txt",
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


STARTER = pytest.mark.xdist_group("init-starter-built")
"""The tests that read the starter's build: one worker builds it for them all."""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project `init` writes into a folder named skirmish, built once (its PDFs are most
    of a build's time) for the tests that read what the build wrote. Its two PDFs are rendered
    here (``-j 1``): a pool's two workers each set WeasyPrint up again, 1 s of CPU more, for
    the same bytes (the pool is tests/test_kill.py's and test_build.py's to test)."""
    folder = tmp_path_factory.mktemp("starter") / "skirmish"
    assert main(["init", str(folder)]) == 0
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        assert main(["build", "-j", "1"]) == 0
    return folder


def built_copy(built: Path, tmp_path: Path) -> Path:
    """A copy of :func:`built` of the test's own, to change or build again (without the
    bytecode an import of its module may have left)."""
    ignore = shutil.ignore_patterns("__pycache__")
    return Path(shutil.copytree(built, tmp_path / "skirmish", ignore=ignore))


@STARTER
def test_init_lays_out_a_project_that_builds_and_checks_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, built: Path
) -> None:
    folder = tmp_path / "skirmish"
    assert main(["init", str(folder)]) == 0
    assert tree(folder) == FILES
    monkeypatch.chdir(folder)
    assert main(["check"]) == 0
    folder = built_copy(built, tmp_path / "built")  # the project as `build` left it
    monkeypatch.chdir(folder)
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


@STARTER
def test_the_starter_readme_answers_are_the_module_s(built: Path) -> None:
    rules = load_module_from(built / "generated" / "python" / "skirmish.py")
    readme = (built / "README.md").read_text("utf-8")
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
    assert "rulesdsl build --check --require pdf" in lines
    assert any("build --check --against" in line for line in lines)  # issue 39
    for line in lines:
        argv = shlex.split(line.replace("$file", "a.terrain").replace("$base", "main"))[1:]
        make_parser(argv[0]).parse_args(argv)  # exits (SystemExit) on an unknown flag
    assert any("--fail-on breaking" in line for line in lines)


SHIM = """#!/bin/sh
if [ "$1" = install ]; then shift; set -- install --no-compile "$@"; fi
exec {pip} --python {python} "$@"
"""
"""The venv's ``pip``: this environment's, installing into the venv without compiling the
bytecode of every module it installs (the steps compile what they import, as any import does)."""


def fresh_venv(venv: Path) -> Path:
    """An empty venv whose ``pip`` is this environment's pip installing into it (``pip
    --python``): the venv's own pip, which ``python -m venv`` installs with ensurepip, was a
    fifth of the test's CPU time (issue 44), and what the test checks is what the requirements
    file installs into an empty environment, not pip's own install; nor pip compiling the
    bytecode of all 25 packages (fontTools, Babel, WeasyPrint...), most of which the steps
    never import: about 2 s of CPU (issue 44). Where this environment has no pip, the venv
    gets its own."""
    if importlib.util.find_spec("pip") is None:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        return venv
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    pip = venv / "bin" / "pip"
    python = shlex.quote(str(venv / "bin" / "python"))
    pip.write_text(SHIM.format(pip=f"{shlex.quote(sys.executable)} -m pip", python=python), "utf-8")
    pip.chmod(0o755)
    return venv


@STARTER
def test_the_starter_workflow_passes_as_steps_in_a_fresh_venv(tmp_path: Path, built: Path) -> None:
    """Issue 42 item 1: the workflow `init` writes installs what its requirements file names
    (here this checkout, as the install that ran `init` came from it) into a fresh venv, and
    its steps pass on the project as the user built it; the PDFs are built and checked, not
    skipped. Only the steps CI's runner provides (checkout, Python, Pango, installed here) and
    the pull-request-only diff are not run."""
    folder = built_copy(built, tmp_path)  # the user builds and commits generated/
    requirements = (folder / "requirements-rules.txt").read_text("utf-8")
    assert f"rulesdsl[pdf] @ {ROOT.as_uri()}" in requirements.splitlines()
    venv = fresh_venv(tmp_path / "venv")
    own = str(Path(sys.executable).parent)  # this environment's rulesdsl is not on the path
    path = [p for p in os.environ["PATH"].split(os.pathsep) if p and p != own]
    env = {**os.environ, "PATH": os.pathsep.join([str(venv / "bin"), *path])}
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    steps = yaml.safe_load((folder / WORKFLOW).read_text("utf-8"))["jobs"]["rules"]["steps"]
    ran = []
    for step in steps:
        if "uses" in step or "if" in step or "apt-get" in step["run"]:
            continue
        done = subprocess.run(
            ["bash", "-e", "-c", step["run"]], cwd=folder, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, (step["run"], done.stdout, done.stderr)
        ran.append(step["run"].strip())
        assert "not checked" not in done.stderr
    assert ran == [
        "pip install -r requirements-rules.txt",
        "rulesdsl check",
        "rulesdsl build --check --require pdf",
    ]
    # A PDF not made from its sheet (the deck's, copied over it) fails the PDF step.
    pdf = folder / "generated" / "sheets" / "skirmish.en.pdf"
    pdf.write_bytes((folder / "generated" / "cards" / "skirmish.en.pdf").read_bytes())
    step = ["bash", "-e", "-c", ran[-1]]
    done = subprocess.run(step, cwd=folder, env=env, capture_output=True, text=True)
    assert done.returncode == 1 and "sheets/skirmish.en.pdf" in done.stderr, done.stderr


# ---- hostile folders (issue 45, item 6) ----------------------------------------------------


def test_a_folder_name_over_255_bytes_is_refused_in_one_line_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", str(tmp_path / ("a" * 300))]) == 2
    err = capsys.readouterr().err
    assert "init: " in err and "too long" in err and "Traceback" not in err
    assert tree(tmp_path) == []


@pytest.mark.parametrize("linked", ["rulesets", ".github", ".github/workflows"])
def test_a_linked_folder_that_leaves_the_project_is_refused_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], linked: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    project = tmp_path / "project"
    (project / linked).parent.mkdir(parents=True)
    (project / linked).symlink_to(outside, target_is_directory=True)
    assert main(["init", str(project)]) == 2
    err = capsys.readouterr().err
    assert f"{linked} is a link to" in err and "outside" in err
    assert tree(outside) == []
    assert not (project / "README.md").exists()


def test_a_link_to_itself_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "rulesets").symlink_to("rulesets")
    assert main(["init", str(tmp_path), "--id", "skirmish"]) == 2
    assert "Traceback" not in capsys.readouterr().err
    assert tree(tmp_path) == []


def test_a_linked_folder_inside_the_project_is_followed(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "rules_here").mkdir(parents=True)
    (project / "rulesets").symlink_to("rules_here", target_is_directory=True)
    assert main(["init", str(project), "--id", "skirmish"]) == 0
    assert (project / "rules_here" / "skirmish.terrain").is_file()
