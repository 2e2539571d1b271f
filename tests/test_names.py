"""Names that reach generated code or file paths are checked, whatever the front end.

S1 and S2 of the hardening issue: a YAML ruleset could put Python code into a decision input's
name (run on import of the generated module) and a path into its id or a language code (files
written outside the project). Both are refused before any backend runs.
"""

from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl import ir
from rulesdsl.checks import names
from rulesdsl.checks.reserved import is_reserved, reserved_for
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.syntax import Pos
from rulesdsl.positions import Positions
from tests.conftest import GENERATED, RULESETS, compile_snippet
from tests.source_trees import GENERATED_TREES, of_file

INJECTED = "*, x: float = __import__('os').system('touch pwned'), y"
HERE = Positions(Pos("test", 1, 1, 1, 1))


def heavy_gear(compiler: Compiler) -> ir.Ruleset:
    compiled = compiler.compile_file(RULESETS / "heavy_gear.terrain")
    assert compiled.ruleset is not None
    return compiled.ruleset


def yaml_twin(replace: str, by: str) -> str:
    """heavy_gear in the YAML authoring format, with one piece of text replaced."""
    from rulesdsl.frontends.dsl import Parser
    from rulesdsl.interchange.convert import to_yaml

    path = RULESETS / "heavy_gear.terrain"
    source, _ = Parser().parse(path.read_text("utf-8"), str(path))
    assert source is not None
    text = to_yaml(source)
    assert replace in text
    return text.replace(replace, by, 1)


def run_build(project: Path, text: str) -> subprocess.CompletedProcess[str]:
    (project / "rulesets").mkdir(parents=True)
    (project / "rulesets" / "heavy_gear.yaml").write_text(text, "utf-8")
    return subprocess.run(
        [sys.executable, "-m", "rulesdsl", "build"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_code_in_a_yaml_decision_input_name_is_refused_and_nothing_runs(tmp_path: Path) -> None:
    text = yaml_twin("[hidden bool,", f"['{INJECTED} bool',")
    done = run_build(tmp_path, text)
    assert done.returncode == 1, done.stderr
    assert "heavy_gear.yaml:" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "generated" / "python").exists()
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize(
    ("replace", "by"),
    [
        ("ruleset: heavy_gear", "ruleset: ../../../x"),
        ("languages: [en, fr, de]", "languages: [en, ../../fr, de]"),
    ],
)
def test_a_path_in_a_yaml_id_or_language_code_is_refused(
    tmp_path: Path, replace: str, by: str
) -> None:
    project = tmp_path / "deep" / "project"
    done = run_build(project, yaml_twin(replace, by))
    assert done.returncode == 1, done.stderr
    assert "error[" in done.stderr and "Traceback" not in done.stderr
    written = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert written == ["heavy_gear.yaml"], written


def test_the_names_pass_refuses_a_malformed_name_in_any_slot(compiler: Compiler) -> None:
    ruleset = heavy_gear(compiler)
    step = dataclasses.replace(ruleset.steps[0], param=INJECTED)
    broken = dataclasses.replace(ruleset, steps=(step, *ruleset.steps[1:]))
    [diag] = names.check(broken, HERE)
    assert diag.code == "E106" and "steps[0].param" in diag.message


def test_the_names_pass_reads_a_name_in_a_field_that_may_be_none(compiler: Compiler) -> None:
    """A modifier's context (``Id | None``) is a name slot like any other: the walk of a
    union that may hold a name reads it (low21 found such fields passed by)."""
    ruleset = heavy_gear(compiler)
    modifier = dataclasses.replace(ruleset.modifiers[0], context=INJECTED)
    broken = dataclasses.replace(ruleset, modifiers=(modifier, *ruleset.modifiers[1:]))
    [diag] = names.check(broken, HERE)
    assert diag.code == "E106" and "modifiers[0].context" in diag.message


def test_the_names_pass_reads_a_node_that_may_be_none_and_a_nodes_only_name() -> None:
    """A node in a field that may be None (a cell's default) and the one name of a small node
    (a symbol) are read like any other: the walk passes by only the fields and nodes that can
    hold no name (issue 44)."""
    cell = ir.Cell(ir.Same("soft", ir.Symbol(INJECTED)), {"tracked": ir.Symbol("x-y")})
    found = [
        (slot.text, slot.path, [type(owner).__name__ for owner in slot.owners])
        for slot in names.slots(cell)
    ]
    assert found == [
        ("soft", "default.feature", ["Same", "Cell"]),
        (INJECTED, "default.resolved.name", ["Symbol", "Same", "Cell"]),
        ("tracked", "exceptions.tracked", ["Cell"]),
        ("x-y", "exceptions.tracked.name", ["Symbol", "Cell"]),
    ]


def test_the_names_pass_refuses_a_path_as_a_language_code(compiler: Compiler) -> None:
    ruleset = heavy_gear(compiler)
    broken = dataclasses.replace(ruleset, languages=("en", "../fr"))
    assert [d.code for d in names.check(broken, HERE)] == ["E106"]


def test_the_names_pass_refuses_a_declared_name_the_module_uses(compiler: Compiler) -> None:
    ruleset = heavy_gear(compiler)
    step = dataclasses.replace(ruleset.steps[0], id="math")
    broken = dataclasses.replace(ruleset, steps=(step, *ruleset.steps[1:]))
    [diag] = names.check(broken, HERE)
    assert diag.code == "E103" and "'math'" in diag.message


def test_the_names_pass_finds_nothing_in_the_bundled_rulesets(compiler: Compiler) -> None:
    for path in sorted(RULESETS.glob("*.terrain")):
        compiled = compiler.compile_file(path)
        assert compiled.ruleset is not None
        assert names.check(compiled.ruleset, HERE) == []


def test_an_overlong_name_is_refused(compiler: Compiler) -> None:
    ruleset = heavy_gear(compiler)
    broken = dataclasses.replace(ruleset, id="x" * 65)
    assert [d.code for d in names.check(broken, HERE)] == ["E106"]


@pytest.mark.parametrize(
    ("source", "column"),
    [
        ("step math (x in) -> MP : +1 per 1 in\n", 6),
        ("step sorted (x in) -> MP : +1 per 1 in\n", 6),
        ("step climb (Outcome in) -> MP : +1 per 1 in\n", 13),
        ("step climb (value in) -> MP : +1 per 1 in\n", 13),
        ("decision roll (x in) {\n  otherwise -> a\n}\n", 10),
        ("decision pick (isinstance in) {\n  otherwise -> a\n}\n", 16),
        ('mode _private "P"\n', 6),
    ],
)
def test_a_dsl_name_that_would_break_the_module_is_refused_where_it_is_written(
    compiler: Compiler, source: str, column: int
) -> None:
    text = 'ruleset t "T"\nversion 1.0.0\nunits distance in, cost MP\n' + source
    compiled = compile_snippet(compiler, text)
    assert [
        (d.code, d.pos.line if d.pos else 0, d.pos.column if d.pos else 0)
        for d in compiled.diagnostics
        if d.is_error
    ] == [("E103", 4, column)]


@GENERATED_TREES
def test_reserved_names_cover_every_top_level_name_of_every_bundled_module(
    compiler: Compiler,
) -> None:
    for path in sorted(GENERATED.glob("*.py")):
        if path.name.startswith("test_"):  # the worked examples' replay, not a module
            continue
        compiled = compiler.compile_file(RULESETS / f"{path.stem}.terrain")
        assert compiled.ruleset is not None
        declared = {s.text for s in names.slots(compiled.ruleset) if s.declares}
        tree = of_file(path).tree
        top: set[str] = set()
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                top.add(node.name)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                top.add(node.target.id)
            elif isinstance(node, ast.Assign):
                top.update(t.id for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.Import | ast.ImportFrom):
                top.update((a.asname or a.name).split(".")[0] for a in node.names)
        module_own = {n for n in top - declared if not n.startswith("_")}
        own = reserved_for(compiled.ruleset)  # a module with sight rules has their names too
        assert module_own <= own, (path.name, sorted(module_own - own))
        assert not any(is_reserved(n, compiled.ruleset) for n in declared)
