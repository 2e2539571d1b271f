"""Shared fixtures: load generated modules the way a user would, and compile snippets."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import ir
from rulesdsl.backends.python import render
from rulesdsl.compiler import Compiled, Compiler

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated" / "python"
RULESETS = ROOT / "rulesets"


def load_generated(name: str) -> ModuleType:
    """Import generated/python/<name>.py with `rulesdsl` made unimportable while it runs."""
    path = GENERATED / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"generated_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved = {k: v for k, v in sys.modules.items() if k == "rulesdsl" or k.startswith("rulesdsl.")}
    for key in saved:
        del sys.modules[key]
    sys.modules["rulesdsl"] = None  # type: ignore[assignment]  # any import of it fails
    try:
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    finally:
        del sys.modules["rulesdsl"]
        sys.modules.update(saved)
    return module


def import_rendered(ruleset: ir.Ruleset, folder: Path, name: str) -> ModuleType:
    """``ruleset``'s generated module, written to ``folder/<name>.py`` and imported as ``name``
    the way a user imports it (kept in sys.modules: dataclasses look it up as classes are
    made)."""
    path = folder / f"{name}.py"
    path.write_text(render(ruleset), "utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def compiler() -> Iterator[Compiler]:
    yield Compiler()


def compile_snippet(
    compiler: Compiler, text: str, tmp_path: Path | None = None, name: str = "snippet.terrain"
) -> Compiled:
    base_dir = tmp_path if tmp_path is not None else RULESETS
    return compiler.compile_text(text, str(base_dir / name), base_dir)


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=test@example.org", "-c", "user.name=test", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository holding heavy_gear and heavy_gear_house in one commit."""
    if shutil.which("git") is None:  # pragma: no cover
        pytest.skip("git is not installed")
    rulesets = tmp_path / "rulesets"
    rulesets.mkdir()
    for name in ("heavy_gear", "heavy_gear_house"):
        shutil.copy(RULESETS / f"{name}.terrain", rulesets)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "first")
    return tmp_path
