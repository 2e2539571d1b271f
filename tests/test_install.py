"""The light install (issue 26): the core install compiles to Python modules, HTML and Markdown;
PDFs need the `pdf` extra, the language server and watch the `editor` extra. Without an extra,
what needs it says which extra to install, in one line, and everything else works.

The subprocess tests make the extras' packages unimportable with a meta path finder, as if
they were not installed, in a fresh interpreter."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import metadata
from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.extras import EXTRAS
from tests.conftest import ROOT

TINY = """\
ruleset tiny "Tiny"
version 0.1.0
languages en
units distance in, cost in
mode foot "Foot"
layer terrain "Terrain" one per place {
  clear "Clear" | 1
  woods "Woods" | 2
}
"""

BLOCKED = ("weasyprint", "pygls", "lsprotocol", "watchfiles")


def run_without(
    blocked: tuple[str, ...], *argv: str, cwd: Path
) -> subprocess.CompletedProcess[str]:
    """`rulesdsl ARGV` in a fresh interpreter where the ``blocked`` packages cannot be imported
    or found, as in an install without their extra."""
    code = f"""
import importlib.abc, sys
class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, NotInstalled())
from rulesdsl.commands.cli import main
code = main({list(argv)!r})
leaked = [m for m in {blocked!r} if m in sys.modules]
assert not leaked, leaked
sys.exit(code)
"""
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def project(tmp_path: Path) -> Path:
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "tiny.terrain").write_text(TINY, "utf-8")
    return tmp_path


def files(folder: Path) -> list[str]:
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and p.name != ".rulesdsl-manifest.json"
    )


FirstBuild = tuple[Path, subprocess.CompletedProcess[str]]
"""A project folder after a build, and what the build said."""


@pytest.fixture(scope="module")
def first_build(tmp_path_factory: pytest.TempPathFactory) -> FirstBuild:
    """The tiny project after a build without the extras, and what that build said: made
    once for the tests that start from it (each works on a copy: :func:`built`)."""
    root = project(tmp_path_factory.mktemp("install"))
    return root, run_without(BLOCKED, "build", cwd=root)


FIRST_BUILD = pytest.mark.xdist_group("install-first-build")
"""The tests that start from :func:`first_build`: one worker builds it once."""


def built(first: FirstBuild, tmp_path: Path) -> Path:
    """A copy of the project :func:`first_build` built, its build asserted to have passed."""
    root, done = first
    assert done.returncode == 0, done.stderr
    return Path(shutil.copytree(root, tmp_path / "project"))


@FIRST_BUILD
def test_a_build_without_the_pdf_extra_writes_modules_html_and_markdown_and_names_the_skipped_pdfs(
    first_build: FirstBuild,
) -> None:
    root, done = first_build
    assert done.returncode == 0, done.stderr
    assert files(root / "generated") == [
        "js/tiny/package.json",
        "js/tiny/tiny.d.ts",
        "js/tiny/tiny.js",
        "python/tiny.py",
        "sheets/tiny.en.html",
        "sheets/tiny.en.md",
        "web/tiny.en.html",
    ]
    assert "Traceback" not in done.stderr
    assert done.stderr.count("pip install 'rulesdsl[pdf]'") == 1, done.stderr
    assert "2 PDFs not made" in done.stderr
    assert "generated/cards/tiny.en.pdf" in done.stderr
    assert "generated/sheets/tiny.en.pdf" in done.stderr


@FIRST_BUILD
def test_build_check_after_a_build_without_the_pdf_extra_is_current(
    first_build: FirstBuild, tmp_path: Path
) -> None:
    root = built(first_build, tmp_path)
    checked = run_without(BLOCKED, "build", "--check", cwd=root)
    assert checked.returncode == 0, checked.stderr
    assert "is current" in checked.stderr
    assert "2 PDFs not checked" in checked.stderr
    assert checked.stderr.count("pip install 'rulesdsl[pdf]'") == 1
    again = run_without(BLOCKED, "build", cwd=root)
    assert "is already current (1 ruleset, 0 compiled): nothing to write" in again.stderr, (
        again.stderr
    )


@FIRST_BUILD
def test_build_check_without_the_pdf_extra_still_reports_stale_modules(
    first_build: FirstBuild, tmp_path: Path
) -> None:
    root = built(first_build, tmp_path)
    source = root / "rulesets" / "tiny.terrain"
    source.write_text(source.read_text("utf-8").replace("| 2", "| 3"), "utf-8")
    checked = run_without(BLOCKED, "build", "--check", cwd=root)
    assert checked.returncode == 1
    assert "python/tiny.py" in checked.stderr
    assert "sheets/tiny.en.md" in checked.stderr


@FIRST_BUILD
def test_a_build_with_weasyprint_makes_the_pdfs_a_build_without_it_skipped(
    first_build: FirstBuild, tmp_path: Path
) -> None:
    pytest.importorskip("weasyprint")
    root = built(first_build, tmp_path)
    out = root / "generated"
    code = main(["build", "--rulesets", str(root / "rulesets"), "--out", str(out), "-j", "1"])
    assert code == 0
    assert {"cards/tiny.en.pdf", "sheets/tiny.en.pdf"} <= set(files(out))


def test_a_build_without_weasyprint_leaves_pdfs_it_cannot_remake_where_they_are(
    tmp_path: Path,
) -> None:
    pytest.importorskip("weasyprint")
    root = project(tmp_path)
    out = root / "generated"
    assert main(["build", "--rulesets", str(root / "rulesets"), "--out", str(out), "-j", "1"]) == 0
    sheet = (out / "sheets" / "tiny.en.pdf").read_bytes()
    source = root / "rulesets" / "tiny.terrain"
    source.write_text(source.read_text("utf-8").replace("| 2", "| 3"), "utf-8")
    done = run_without(BLOCKED, "build", cwd=root)
    assert done.returncode == 0, done.stderr
    assert (out / "sheets" / "tiny.en.pdf").read_bytes() == sheet  # left, not removed
    assert "out of date" in done.stderr
    assert "| 3 |" in (out / "sheets" / "tiny.en.md").read_text("utf-8")
    # the next build with WeasyPrint brings them up to date
    assert main(["build", "--rulesets", str(root / "rulesets"), "--out", str(out), "-j", "1"]) == 0
    assert (out / "sheets" / "tiny.en.pdf").read_bytes() != sheet


@pytest.mark.parametrize("verb", ["lsp", "watch"])
def test_an_editor_command_without_the_editor_extra_says_which_extra_to_install(
    verb: str, tmp_path: Path
) -> None:
    root = project(tmp_path)
    done = run_without(BLOCKED, verb, cwd=root)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"rulesdsl: error: `rulesdsl {verb}` needs the 'editor' extra "
        "(pygls, lsprotocol, watchfiles not installed): pip install 'rulesdsl[editor]'"
    ]


@pytest.mark.parametrize(
    "argv",
    [["sheet", "tiny", "--format", "pdf", "-o", "x.pdf"], ["cards", "tiny", "-o", "x.pdf"]],
)
def test_a_pdf_without_the_pdf_extra_is_a_one_line_error(argv: list[str], tmp_path: Path) -> None:
    root = project(tmp_path)
    done = run_without(BLOCKED, *argv, cwd=root)
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert "pip install 'rulesdsl[pdf]'" in line
    assert not (root / "x.pdf").exists()


def test_the_core_install_needs_no_extra_and_the_test_extra_has_them_all() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    names = {_name(d) for d in meta["dependencies"]}
    extras = meta["optional-dependencies"]
    assert not names & {"weasyprint", "pygls", "lsprotocol", "watchfiles", "openpyxl"}
    assert {_name(d) for d in extras["pdf"]} == {"weasyprint"}
    assert {_name(d) for d in extras["editor"]} == {"pygls", "lsprotocol", "watchfiles"}
    assert {_name(d) for d in extras["xlsx"]} == {"openpyxl"}
    assert set(extras) >= set(EXTRAS)
    tested = set(extras["test"])
    included = {
        extra.strip()
        for requirement in tested
        if requirement.startswith("rulesdsl[")
        for extra in requirement.removeprefix("rulesdsl[").rstrip("]").split(",")
    }
    for extra in EXTRAS:
        assert extra in included or set(extras[extra]) <= tested, extra


def _name(requirement: str) -> str:
    return requirement.split(";")[0].split("[")[0].split("=")[0].split(">")[0].split("<")[0]


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"rulesdsl {version('rulesdsl')}\n"


def test_the_license_file_is_mit_as_pyproject_says() -> None:
    text = (ROOT / "LICENSE").read_text("utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 rulesdsl contributors" in text
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    # an SPDX expression and the file (PEP 639): setuptools deprecates the table form and stops
    # building projects that use it in 2027
    assert meta["license"] == "MIT" and meta["license-files"] == ["LICENSE"]
    installed = metadata("rulesdsl")
    assert installed["License-Expression"] == "MIT" and installed["License-File"] == "LICENSE"


def test_init_then_build_in_an_empty_folder_without_any_extra(tmp_path: Path) -> None:
    """The issue's own check: a core install lays out a project and builds it."""
    made = run_without(BLOCKED, "init", "game", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    built = run_without(BLOCKED, "build", cwd=tmp_path / "game")
    assert built.returncode == 0, built.stderr
    assert files(tmp_path / "game" / "generated") == [
        "js/game/game.d.ts",
        "js/game/game.js",
        "js/game/package.json",
        "python/game.examples.json",  # the starter's worked example, as test vectors
        "python/game.py",
        "python/test_game_examples.py",
        "sheets/game.en.html",
        "sheets/game.en.md",
        "web/game.en.html",
    ]
    assert built.stderr.count("pip install 'rulesdsl[pdf]'") == 1
    checked = run_without(BLOCKED, "build", "--check", cwd=tmp_path / "game")
    assert checked.returncode == 0, checked.stderr


def test_every_folder_of_the_package_is_a_listed_package_and_every_data_file_is_shipped() -> None:
    """A folder under rulesdsl/ that setuptools does not list as a package (the schemas, the
    fonts) is shipped only by accident of a glob in its parent's package data, and setuptools
    warns on every build that its configuration is ambiguous. Each folder is listed, and
    each file that is not Python matches a package-data pattern of its own package."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    renamed = {ROOT / path: name for name, path in setuptools["package-dir"].items()}
    data = setuptools["package-data"]
    folders = [ROOT / "rulesdsl", *sorted((ROOT / "rulesdsl").rglob("*/"))]
    folders = [f for f in folders if f.is_dir() and f.name != "__pycache__"]
    folders += list(renamed)
    unlisted, unshipped = [], []
    for folder in folders:
        name = renamed.get(folder) or ".".join(folder.relative_to(ROOT).parts)
        if name not in setuptools["packages"]:
            unlisted.append(name)
        patterns = data.get(name, ())
        unshipped += [
            str(path.relative_to(ROOT))
            for path in sorted(folder.iterdir())
            if path.is_file() and path.suffix not in (".py", ".pyc")
            if not any(path.match(pattern) for pattern in patterns)
        ]
    assert unlisted == []
    assert unshipped == []
