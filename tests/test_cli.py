"""The command line: exit codes, --check, atomic builds, JSON diagnostics, help."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from tests.conftest import ROOT, RULESETS


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A fresh project folder with the Heavy Gear ruleset in it."""
    (tmp_path / "rulesets").mkdir()
    shutil.copy(RULESETS / "heavy_gear.terrain", tmp_path / "rulesets")
    return tmp_path


def rulesdsl(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesdsl", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


SMALL = """\
ruleset small "Small"
version 1.0.0
units distance in, cost MP
mode walker "Walker"
layer terrain "Terrain" one per place {
  clear "Clear" | 1
  rough "Rough" | 2, walker 3
}
"""
"""A ruleset with little to print: the build below renders its sheet and deck as PDFs."""


def test_build_then_check_passes_and_a_change_makes_it_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In this process: the exit statuses are ``main``'s (the console script's is the
    subprocess tests' here and in test_install.py, test_kill.py), and the three commands in
    fresh processes each loaded the package and WeasyPrint again (issue 44)."""
    project = tmp_path
    (project / "rulesets").mkdir()
    source = project / "rulesets" / "small.terrain"
    source.write_text(SMALL, "utf-8")
    monkeypatch.chdir(project)
    out, rulesets = str(project / "generated"), str(project / "rulesets")
    # two PDFs: rendered here, not in a pool of workers each setting WeasyPrint up again (1 s
    # of CPU a build); the workers are tests/test_kill.py's to test
    assert main(["build", "--out", out, "--rulesets", rulesets, "-j", "1"]) == 0
    assert main(["build", "--check"]) == 0
    source.write_text(SMALL.replace("| 2, walker 3", "| 2, walker 4"), "utf-8")
    capsys.readouterr()
    assert main(["build", "--check", "-j", "1"]) == 1
    assert "python/small.py" in capsys.readouterr().err


def test_a_build_with_any_error_writes_nothing(project: Path) -> None:
    (project / "rulesets" / "broken.terrain").write_text(
        'ruleset broken "Broken"\nversion 1.0.0\nmode a "A"\nmode a "A"\n', "utf-8"
    )
    result = rulesdsl("build", cwd=project)
    assert result.returncode == 1
    assert "error[E102]" in result.stderr
    assert not (project / "generated").exists()


def test_check_reports_json_for_tools(project: Path) -> None:
    bad = project / "rulesets" / "bad.terrain"
    bad.write_text('ruleset bad "Bad"\nversion 1.0.0\nmode a "A" de "B"\n', "utf-8")
    result = rulesdsl("check", str(bad), "--format", "json", cwd=project)
    assert result.returncode == 1
    [diag] = json.loads(result.stdout)  # on stdout since issue 42
    assert diag["code"] == "E105"
    assert diag["position"]["line"] == 3 and diag["position"]["column"] == 12


def test_check_without_arguments_checks_every_ruleset(project: Path) -> None:
    result = rulesdsl("check", cwd=project)
    assert result.returncode == 0, result.stderr
    assert "checked: no errors" in result.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["frobnicate"],
        ["check", "no_such_ruleset"],
        [],
        ["build", "--rulesets", "/no/such/dir", "--out", "/tmp/x"],
    ],
)
def test_bad_usage_exits_2_without_a_traceback(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_every_verb_has_help() -> None:
    for verb in ("check", "build", "schema", "export"):
        result = rulesdsl(verb, "--help", cwd=ROOT)
        assert result.returncode == 0 and "usage: rulesdsl" in result.stdout


def test_export_prints_the_ir(project: Path) -> None:
    result = rulesdsl("export", "heavy_gear", "--format", "json", cwd=project)
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert data["id"] == "heavy_gear" and data["version"] == "1.0.0"


def test_ctrl_c_is_one_line_and_status_130_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Ctrl-C in any verb printed a KeyboardInterrupt traceback.
    from rulesdsl.commands import check

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(check, "run", interrupted)
    assert main(["check", str(RULESETS / "heavy_gear.terrain")]) == 130
    assert capsys.readouterr().err == "rulesdsl: interrupted\n"
