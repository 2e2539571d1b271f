"""The generated-module contract: standalone, typed, lint-clean, deterministic, injection-safe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.backends.python import render
from rulesdsl.build import build, python_outputs
from rulesdsl.compiler import Compiler
from tests.conftest import GENERATED, ROOT, RULESETS, compile_snippet

MODULES = sorted(GENERATED.glob("*.py"))


def run(*cmd: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)


def test_generated_modules_are_ruff_clean() -> None:
    result = run(sys.executable, "-m", "ruff", "check", *map(str, MODULES))
    assert result.returncode == 0, result.stdout + result.stderr


def test_generated_modules_are_mypy_strict_clean() -> None:
    result = run(sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                 *map(str, MODULES))
    assert result.returncode == 0, result.stdout + result.stderr


def test_compiler_code_is_ruff_clean() -> None:
    result = run(sys.executable, "-m", "ruff", "check", "rulesdsl", "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.stem)
def test_modules_import_with_nothing_but_the_standard_library(module: Path) -> None:
    # -I -S: no user site, no site-packages, so neither rulesdsl nor any third-party package.
    code = (f"import sys; sys.path.insert(0, {str(module.parent)!r}); import {module.stem}; "
            "assert not [m for m in sys.modules if m.startswith('rulesdsl')]")
    result = run(sys.executable, "-I", "-S", "-c", code)
    assert result.returncode == 0, result.stderr


def test_generated_directory_is_current() -> None:
    result = build(RULESETS, ROOT / "generated", check=True, backends=[python_outputs])
    assert result.ok
    assert [s for s in result.stale if s.startswith("python/")] == []


def test_building_twice_gives_byte_identical_files(tmp_path: Path) -> None:
    first = build(RULESETS, tmp_path / "a", backends=[python_outputs], compiler=Compiler())
    second = build(RULESETS, tmp_path / "b", backends=[python_outputs], compiler=Compiler())
    assert first.outputs == second.outputs
    for rel in first.outputs:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes()


NASTY = (Path(__file__).parent / "data" / "nasty.terrain").read_text("utf-8")


def test_source_text_cannot_inject_code(compiler: Compiler, tmp_path: Path) -> None:
    compiled = compile_snippet(compiler, NASTY, tmp_path, "nasty.terrain")
    assert compiled.ruleset is not None, [d.message for d in compiled.diagnostics]
    source = render(compiled.ruleset)
    path = tmp_path / "nasty.py"
    path.write_text(source, "utf-8")
    result = run(sys.executable, "-I", "-S", "-c",
                 f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import nasty; "
                 "print(nasty.RULESET.title); print(nasty.FEATURES['road'].label['en']); "
                 "print(nasty.lookup('notes', 'a')); print(nasty.d(2).label)")
    assert result.returncode == 0, result.stderr
    assert "pwned" not in result.stdout
    assert 'Title with "quotes"\n and \\ backslash """ end' in result.stdout
    assert "text with \"\"\" and ''' and \\n" in result.stdout
    assert "Big \"\"\" '''" in result.stdout
    lint = run(sys.executable, "-m", "ruff", "check", "--isolated", "--line-length", "100",
               str(path))
    assert lint.returncode == 0, lint.stdout
