"""The generated-module contract: standalone, typed, lint-clean, deterministic, injection-safe."""

from __future__ import annotations

import ast
import copy
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.builder.build import TargetOutputs, build
from rulesdsl.codegen.targets import PYTHON
from rulesdsl.codegen.targets import render_python as render
from rulesdsl.compiler import Compiler
from tests.conftest import (
    GENERATED,
    MYPY_CACHE,
    ROOT,
    RULESETS,
    compile_snippet,
    load_generated,
)
from tests.source_trees import GENERATED_TREES, of_file

python_outputs = TargetOutputs(PYTHON)

MODULES = sorted(p for p in GENERATED.glob("*.py") if not p.name.startswith("test_"))
REPLAYS = sorted(GENERATED.glob("test_*.py"))
"""The pytest files that replay each module's worked examples (issue 27): ruff and mypy
clean like the modules."""


def run(*cmd: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)


def test_generated_modules_are_ruff_clean() -> None:
    result = run(sys.executable, "-m", "ruff", "check", *map(str, MODULES + REPLAYS))
    assert result.returncode == 0, result.stdout + result.stderr


def test_generated_modules_are_mypy_strict_clean() -> None:
    result = run(
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--cache-dir",
        str(MYPY_CACHE),
        *map(str, MODULES + REPLAYS),
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_compiler_code_is_ruff_clean() -> None:
    result = run(sys.executable, "-m", "ruff", "check", "rulesdsl", "tests", "bench", "dev")
    assert result.returncode == 0, result.stdout + result.stderr


def test_all_code_and_the_generated_modules_are_laid_out_by_ruff_format() -> None:
    paths = ("rulesdsl", "tests", "bench", "dev", "generated/python")
    result = run(sys.executable, "-m", "ruff", "format", "--check", *paths)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.stem)
def test_modules_import_with_nothing_but_the_standard_library_and_no_typing_machinery(
    module: Path,
) -> None:
    # -I -S: no user site, no site-packages, so neither rulesdsl nor any third-party package.
    # One fresh interpreter a module answers both: what of rulesdsl and of typing it loaded.
    code = (
        f"import sys; sys.path.insert(0, {str(module.parent)!r}); import {module.stem}; "
        "print(sorted(m for m in sys.modules if m.startswith('rulesdsl'))); "
        "print(sorted(m for m in ('typing', 'enum', 'inspect') if m in sys.modules "
        "and m not in ('enum',)))"
    )  # enum comes with the standard library's re
    result = run(sys.executable, "-I", "-S", "-c", code)
    assert result.returncode == 0, result.stderr
    rulesdsl, typing = result.stdout.splitlines()
    assert rulesdsl == "[]"
    assert typing == "[]"


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
    result = run(
        sys.executable,
        "-I",
        "-S",
        "-c",
        f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import nasty; "
        "print(nasty.RULESET.title); print(nasty.FEATURES['road'].label['en']); "
        "print(nasty.lookup('notes', 'a')); print(nasty.d(2).label)",
    )
    assert result.returncode == 0, result.stderr
    assert "pwned" not in result.stdout
    assert 'Title with "quotes"\n and \\ backslash """ end' in result.stdout
    assert "text with \"\"\" and ''' and \\n" in result.stdout
    assert "Big \"\"\" '''" in result.stdout
    lint = run(
        sys.executable, "-m", "ruff", "check", "--isolated", "--line-length", "100", str(path)
    )
    assert lint.returncode == 0, lint.stdout


# ---- robust and cheap by construction (issues 10 and 15) ------------------------------------

BUILTIN_NAMES = frozenset(dir(__import__("builtins")))


@GENERATED_TREES
@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.stem)
def test_no_function_of_a_module_calls_a_builtin_by_its_own_name(module: Path) -> None:
    # A step or decision named `sorted` or `max` rebinds that module-level name; the module's
    # functions reach builtins only through private aliases bound before any step exists.
    functions = [fn for fn in of_file(module).nodes if isinstance(fn, ast.FunctionDef)]
    assert sorted(set().union(*map(_bare_builtins, functions))) == []


def _bare_builtins(fn: ast.FunctionDef) -> set[str]:
    """The builtins the function names outside its annotations (found once per function)."""
    nodes = list(ast.walk(fn))
    skip = {id(node) for node in _annotation_nodes(fn, nodes)}
    return {
        f"{fn.name}: {node.id}"
        for node in nodes
        if isinstance(node, ast.Name)
        and isinstance(node.ctx, ast.Load)
        and node.id in BUILTIN_NAMES
        and node.id not in {"True", "False", "None"}
        and id(node) not in skip
    }


def _annotation_nodes(fn: ast.FunctionDef, nodes: list[ast.AST]) -> list[ast.AST]:
    """Nodes inside annotations, strings at run time (``from __future__ import annotations``),
    and decorators, which run when the module is imported (``nodes``: the function's)."""
    annotations = [
        a.annotation
        for a in (*fn.args.args, *fn.args.kwonlyargs, fn.args.vararg, fn.args.kwarg)
        if a is not None and a.annotation is not None
    ]
    annotations += [fn.returns] if fn.returns is not None else []
    annotations += [n.annotation for n in nodes if isinstance(n, ast.AnnAssign)]
    return [node for a in [*annotations, *fn.decorator_list] for node in ast.walk(a)]


def test_records_behave_as_named_tuples() -> None:
    hg = load_generated("heavy_gear")
    outcome = hg.lock(False, 3, 1, 6, 2)
    assert outcome == ("active", outcome.label, None)
    assert repr(outcome) == (f"Outcome(id='active', label={outcome.label!r}, value=None)")
    identifier, label, value = outcome
    assert (identifier, label, value) == (outcome.id, outcome.label, outcome.value)
    assert outcome._fields == ("id", "label", "value")
    assert outcome._asdict() == {"id": "active", "label": outcome.label, "value": None}
    assert outcome._replace(value=-1) == ("active", outcome.label, -1)
    assert hg.Outcome("a", "b") == hg.Outcome(id="a", label="b", value=None)
    assert hg.FEATURES["soft"].notes == () and hg.FEATURES["soft"][4] == ()
    assert pickle.loads(pickle.dumps(hg.FEATURES["soft"])) == hg.FEATURES["soft"]
    with pytest.raises(AttributeError):
        _ = outcome.colour
    with pytest.raises(TypeError):
        hg.Outcome("a")


def test_markers_stay_one_of_each_through_copy_and_pickle() -> None:
    hg = load_generated("heavy_gear")
    sys.modules["heavy_gear_for_pickle"] = hg
    hg.Marker.__module__ = "heavy_gear_for_pickle"
    try:
        assert pickle.loads(pickle.dumps(hg.IMPASSABLE)) is hg.IMPASSABLE
    finally:
        del sys.modules["heavy_gear_for_pickle"]
    assert copy.deepcopy(hg.PROHIBITED) is hg.PROHIBITED
    assert copy.copy(hg.BLOCKED) is hg.BLOCKED
    assert hg.Marker.IMPASSABLE is hg.IMPASSABLE
    assert (hg.IMPASSABLE.name, hg.IMPASSABLE.value) == ("IMPASSABLE", "impassable")
    assert repr(hg.PROHIBITED) == "PROHIBITED"


@pytest.mark.parametrize("length", [*range(88, 101), 150, 400])
def test_long_labels_wrap_within_the_line_limit(length: int) -> None:
    # The first line of a docstring started after its quotes but was wrapped as if it did
    # not: a 97-to-100 character title or label gave a 103-character line that ruff refuses.
    word = "Wordy"
    label = (word + " ") * (length // 6) + "x" * (length % 6)
    text = f"""ruleset long "{label}"
version 1.0.0
units distance in, cost MP
mode walker "Walker"
step climb "{label}" (height in) -> MP : +1 per full 2 in
decision cover "{label}" (cover_size in, size in) {{
  cover_size > size -> full "Full"
  otherwise -> some "Some"
}}
"""
    compiled = compile_snippet(Compiler(), text)
    assert compiled.ruleset is not None, compiled.diagnostics
    longest = max(render(compiled.ruleset).splitlines(), key=len)
    assert len(longest) <= 100, longest
