"""Generated modules come out formatted: the backend lays the code out as ``ruff format`` does,
with no formatter at run time (issue 26), so ruff is a development dependency only.

Each test renders modules afresh (never reads generated/) and asks the pinned ruff whether it
would change a byte: the bundled rulesets, the same rulesets with every string replaced by
long, Unicode or quote-laden text, a generated ruleset of 500 features, the injection corpus,
and random nested data laid out by the layout code alone.
"""

from __future__ import annotations

import ast
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.gen_ruleset import terrain
from rulesdsl.codegen.python import layout as python_layout
from rulesdsl.codegen.targets import render_python as render
from rulesdsl.compiler import Compiler
from tests.conftest import RULESETS, bundled, compile_snippet
from tests.source_trees import GENERATED_TREES, source

BUNDLED = sorted(RULESETS.glob("*.terrain"))
NASTY = Path(__file__).parent / "data" / "nasty.terrain"


def ruff_would_reformat(folder: Path) -> list[str]:
    """The files under ``folder`` that ``ruff format`` would change (with the project's line
    length, whatever configuration the folder is in)."""
    done = subprocess.run(
        [
            *(sys.executable, "-m", "ruff", "format", "--check", "--isolated"),
            *("--line-length", str(python_layout.WIDTH), str(folder)),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    if done.returncode == 0:
        return []
    return [done.stdout] if len(done.stdout) < 20_000 else [done.stdout[:20_000]]


def render_all(sources: dict[str, str], folder: Path) -> None:
    """Compile each ``{name: DSL text}`` (house rules find their bases in ``folder``) and
    write its module to ``folder/out``."""
    for name, text in sources.items():
        (folder / f"{name}.terrain").write_text(text, "utf-8")
    out = folder / "out"
    out.mkdir()
    compiler = Compiler()
    for name in sources:
        compiled = compiler.compile_file(folder / f"{name}.terrain")
        assert compiled.ruleset is not None, [d.message for d in compiled.diagnostics]
        (out / f"{name}.py").write_text(render(compiled.ruleset), "utf-8")


def test_rendering_a_module_runs_no_formatter(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a subprocess was started: {args}")

    monkeypatch.setattr(subprocess, "run", refuse)
    monkeypatch.setattr(subprocess, "Popen", refuse)
    compiled = bundled("battletech_tacops")
    assert compiled.ruleset is not None
    assert "RULESET: Final = Ruleset(" in render(compiled.ruleset)


def test_the_bundled_rulesets_modules_are_laid_out_as_ruff_lays_them_out(tmp_path: Path) -> None:
    render_all({p.stem: p.read_text("utf-8") for p in BUNDLED}, tmp_path)
    assert ruff_would_reformat(tmp_path / "out") == []


ODD_TEXTS = (
    # long labels around the line length, a word too long to wrap, long Unicode
    *(("Wordy " * 20)[:n] for n in (88, 93, 97, 100, 150, 400)),
    "x" * 130,
    "Очень длинная метка на русском языке, которая не помещается в одну строку модуля",
    "地形の非常に長いラベルで、生成されたモジュールの一行には収まらないほどの長さがある",
    'Quotes "double" and \'single\' and "more" and a backslash \\ in a long label text',
    "Mixed 'single' quote only but long enough to be cut into pieces by the writer here",
    "e\u0301 combining, tabs\tand emoji \U0001f3b2 in a label",
)


def odd(text: str) -> str:
    """``text`` as DSL string content (the DSL escapes quotes and backslashes)."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


@pytest.mark.parametrize("shift", range(3))
def test_modules_with_long_and_unicode_strings_everywhere_need_no_reformatting(
    tmp_path: Path, shift: int
) -> None:
    # Every string of every bundled ruleset (labels, notes, sources, text cells) replaced in
    # turn by one of the odd texts: each lands in a different place of each module.
    sources = {}
    for path in BUNDLED:
        count = iter(range(10_000))

        def swap(match: re.Match[str]) -> str:
            text = ODD_TEXTS[(next(count) + shift) % len(ODD_TEXTS)]  # noqa: B023
            return f'"{odd(text)}"'

        sources[path.stem] = re.sub(r'"(?:[^"\\\n]|\\.)*"', swap, path.read_text("utf-8"))
    render_all(sources, tmp_path)
    assert ruff_would_reformat(tmp_path / "out") == []


def test_a_large_generated_ruleset_needs_no_reformatting(tmp_path: Path) -> None:
    render_all({"bench_500": terrain(500)}, tmp_path)
    assert ruff_would_reformat(tmp_path / "out") == []


def test_the_injection_corpus_module_needs_no_reformatting(tmp_path: Path) -> None:
    compiled = compile_snippet(Compiler(), NASTY.read_text("utf-8"), tmp_path, "nasty.terrain")
    assert compiled.ruleset is not None
    out = tmp_path / "out"
    out.mkdir()
    (out / "nasty.py").write_text(render(compiled.ruleset), "utf-8")
    assert ruff_would_reformat(out) == []


def _random_value(rng: random.Random, depth: int) -> object:
    kind = rng.randrange(9 if depth < 4 else 4)
    if kind == 0:
        return rng.choice([0, 1, -3, 2.5, 1e-7, 10**20, None, True])
    if kind == 1:
        return rng.choice(["a", "woods", "x" * rng.randrange(90), "it's", 'say "hi"'])
    if kind == 2:
        words = rng.choices(["word", "longer", "ça", "é", "地形", "'", '"', "a\\b", "\t"], k=40)
        return " ".join(words)[: rng.randrange(200)]
    if kind == 3:
        return python_layout.Atom(rng.choice(["IMPASSABLE", "Dice(1, 6, 3)", "math.inf"]))
    if kind in (4, 5):
        keys = rng.sample(["en", "fr", "woods", "heavy_industrial_zone", "k" * 30], k=3)
        return {k: _random_value(rng, depth + 1) for k in keys[: rng.randrange(4)]}
    if kind == 6:
        args = tuple(python_layout.tree(_random_value(rng, depth + 1)) for _ in range(3))
        return python_layout.Call("Record", args[: rng.randrange(1, 4)])
    return tuple(_random_value(rng, depth + 1) for _ in range(rng.randrange(5)))


def test_random_nested_data_is_laid_out_as_ruff_lays_it_out(tmp_path: Path) -> None:
    # Names of every length put each layout decision at every column, the line limit's
    # edge included.
    rng = random.Random(26)
    statements = [
        python_layout.statement(
            "X" * rng.randrange(1, 70) + " = ", python_layout.tree(_random_value(rng, 0))
        )
        for _ in range(2000)
    ]
    (tmp_path / "data.py").write_text("\n".join(statements) + "\n", "utf-8")
    assert ruff_would_reformat(tmp_path) == []


@GENERATED_TREES
def test_every_name_a_module_defines_is_reserved_or_the_rulesets_own() -> None:
    # checks/reserved.py reads the reserved names off the templates' lines (`NAME: ... =`,
    # `def NAME(`); a statement laid out by a filter must still start with its name there.
    from rulesdsl.checks.reserved import reserved_for

    for path in BUNDLED:
        compiled = bundled(path.stem)
        assert compiled.ruleset is not None
        rs = compiled.ruleset
        taken = reserved_for(rs)  # with the parts (facing, arcs, free facing, state) it has
        tree = source(render(rs)).tree
        names = set()
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names |= {t.id for t in targets if isinstance(t, ast.Name)}
        own = {s.id for s in rs.steps} | {d.id for d in rs.decisions}
        prefixes = tuple(f"_{x.id.upper()}" for x in (*rs.decisions, *rs.tables))
        left = {n for n in names - taken - own if not n.startswith(prefixes)}
        assert left == set(), path.stem
