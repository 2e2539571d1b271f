"""One declared public surface (issue 39 item 5, issue 42 item 8): everything a generated
module exports is in its ``__all__`` (rulesdsl.codegen.python.surface), documented in
docs/module-api.md, and README's list of the functions every module has is that list. The
names a ruleset declares are types: a caller's typo is a mypy error in the caller's code."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.codegen.plan import surface as plan_surface
from rulesdsl.codegen.python import surface
from rulesdsl.codegen.targets import render_python
from rulesdsl.compiler import Compiler
from tests.conftest import MYPY_CACHE, ROOT, RULESETS, bundled
from tests.source_trees import GENERATED_TREES, source

BUNDLED = sorted(p.stem for p in RULESETS.glob("*.terrain"))


def _render(name: str) -> str:
    compiled = bundled(name)
    assert compiled.ruleset is not None
    return render_python(compiled.ruleset)


def _public_names(tree: ast.Module) -> set[str]:
    """The names a module defines at its top level (its run-time branch of an ``if``
    included), without the private ones and the imports."""
    found: set[str] = set()
    for node in tree.body:
        body = node.orelse if isinstance(node, ast.If) else [node]
        for item in body:
            if isinstance(item, ast.FunctionDef | ast.ClassDef):
                found.add(item.name)
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                found.add(item.target.id)
            elif isinstance(item, ast.Assign):
                found.update(t.id for t in item.targets if isinstance(t, ast.Name))
    return {n for n in found if not n.startswith("_") and n not in ("TYPE_CHECKING", "overload")}


def _all(tree: ast.Module) -> set[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "__all__":
            return set(ast.literal_eval(node.value))
    raise AssertionError("no __all__")


@GENERATED_TREES
@pytest.mark.parametrize("name", BUNDLED)
def test_every_public_name_of_a_module_is_in_its_all(name: str) -> None:
    """`GRID_SIZES`, `GRID_DIAGONALS`, `ENTRY_COST` and the record classes were used but not
    exported."""
    tree = source(_render(name)).tree
    assert _public_names(tree) == _all(tree)


def _doc_names(text: str) -> set[str]:
    """The identifiers in the code of a Markdown text: fenced blocks and `spans`."""
    fence = re.compile(r"^```.*?^```", re.M | re.S)
    code = fence.findall(text) + re.findall(r"`([^`]+)`", fence.sub("", text))
    return {name for span in code for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span)}


def test_module_api_documents_every_declared_name() -> None:
    documented = _doc_names((ROOT / "docs" / "module-api.md").read_text("utf-8"))
    declared = {n for names in surface.PARTS.values() for n in names}
    assert declared - documented == set()


def test_readme_lists_the_functions_every_module_has() -> None:
    """README's "Every generated module has the same API" named 8 functions while each
    module has 14: its list is the declared one."""
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("Every generated module has the same API", 1)[1].split("\n\n", 2)[1]
    listed = [
        n for line in re.findall(r"^- (.*?):", section, re.M) for n in re.findall(r"`(\w+)`", line)
    ]
    assert sorted(listed) == sorted(surface.FUNCTIONS)


def test_module_api_lists_every_layer_scope() -> None:
    """`LAYERS` gives a scope `edges` (hexsides) the table did not list."""
    from typing import get_args

    from rulesdsl import ir

    doc = (ROOT / "docs" / "module-api.md").read_text("utf-8")
    [row] = [line for line in doc.splitlines() if line.startswith("| `LAYERS` |")]
    assert {f"`{s}`" for s in get_args(ir.LayerScope)} <= set(re.findall(r"`[a-z]+`", row))


CALLER = """\
import heavy_gear as hg

hg.move_cost("walker", "soft", distance=3)
hg.move_cost("walkr", "soft")
hg.modifier("cover", "full", "solid")
hg.lookup("setup", "x")
mode: hg.ModeName = "hover"
hg.can_end(mode, "road")
"""


def test_a_typo_in_a_declared_name_is_a_mypy_error_in_the_callers_code(tmp_path: Path) -> None:
    (tmp_path / "heavy_gear.py").write_text(_render("heavy_gear"), "utf-8")
    (tmp_path / "caller.py").write_text(CALLER, "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(MYPY_CACHE), "caller.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, done.stdout
    assert errors[0].startswith("caller.py:4:") and "'walkr'" in errors[0]


SMALL = """\
ruleset small "Small"
version 1.0.0
mode walker "Walker"
mode hover "Hover"
layer terrain "Terrain" {
  clear "Clear" | 1
  woods "Woods" | 2
}
modifier cover "Cover" {
  smoke "Smoke" | +1
}
table setup "Setup" {
  columns x
  a "A" | 1
}
dice morale "Morale" : 2d6 {
  6- flees "Flees"
  7+ holds "Holds"
}
"""


def test_diff_grades_every_change_to_the_declared_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each name a module's `Literal` aliases admit (a unit type, feature, modifier, table,
    dice table) that a new version drops is a breaking change of `rulesdsl diff`, and each it
    adds an additive one: the names of the surface are graded as the functions are."""
    import json

    from rulesdsl.commands.cli import main

    renamed = SMALL.replace("hover", "jet").replace("woods", "swamp").replace("cover ", "haze ")
    renamed = renamed.replace("setup", "deploy").replace("morale", "nerve")
    (tmp_path / "old.terrain").write_text(SMALL, "utf-8")
    (tmp_path / "new.terrain").write_text(renamed, "utf-8")
    compiler = Compiler()
    old, new = (compiler.compile_file(tmp_path / f"{n}.terrain").ruleset for n in ("old", "new"))
    assert old is not None and new is not None
    before, after = (
        surface.name_types(plan_surface.build(old)),
        surface.name_types(plan_surface.build(new)),
    )
    dropped = {n for kind in before for n in set(before[kind]) - set(after[kind])}
    added = {n for kind in after for n in set(after[kind]) - set(before[kind])}
    assert len(dropped) == len(added) == len(surface.NAME_TYPES)  # one of each kind
    paths = [str(tmp_path / "old.terrain"), str(tmp_path / "new.terrain")]
    assert main(["diff", *paths, "--format", "json"]) == 0
    changes = json.loads(capsys.readouterr().out)["changes"]
    graded = {(c["path"], c["level"]) for c in changes}
    assert {(n, "breaking") for n in dropped} | {(n, "additive") for n in added} <= graded


_CALL = re.compile(
    r'\b_(name|number)\(("[\w.]+"|function), "(\w+)", [^\n]*?(?:"([^"]+)"\))?$', re.M
)
"""A check the module makes of a named argument: ``_name(function, argument, value, pool,
kind)`` or ``_number(function, argument, value[, minimum])``."""


def _made(function: str, check: object) -> tuple[str, str, str]:
    """(function, check, its kind of name) as the test reads a module's call."""
    from rulesdsl.codegen.plan.surface import KnownName, Number

    match check:
        case KnownName(kind=kind):
            return (function, "name", kind)
        case Number():
            return (function, "number", "")
    return (function, "other", "")


def _module_texts() -> list[str]:
    """The bundled modules, and those of the tests' own rulesets for the parts no bundled
    ruleset has: arcs, and facing off the grid (issue 40)."""
    from tests import test_arcs, test_free_facing

    texts = [p.read_text("utf-8") for p in sorted((ROOT / "generated" / "python").glob("[!t]*.py"))]
    compiler = Compiler()
    tests_own = (
        test_arcs._ruleset(compiler),
        test_free_facing._compiled(compiler, test_free_facing.TANK)[0],
    )
    return texts + [render_python(rs) for rs in tests_own if rs is not None]


def test_the_plan_lists_the_name_and_number_checks_the_modules_make() -> None:
    """The surface plan's argument checks are what the modules check: each `_name` and
    `_number` call of a named argument in a generated module is in the plan, and each name
    and number check of the plan is made by some module (a shared helper's call, with the
    function as a variable, stands for each function that uses it). A step's or a decision's
    function checks its inputs as the code section says."""
    fixed = {n for names in surface.PARTS.values() for n in names}
    planned = {
        (a.argument, *_made(f.function, a.check))
        for checks in plan_surface.CHECKS.values()
        for f in checks
        for a in f.arguments
    }
    planned -= {p for p in planned if p[2] == "other"}
    made: set[tuple[str, str, str, str]] = set()
    for text in _module_texts():
        for call, function, argument, kind in _CALL.findall(text):
            made.add((argument, function.strip('"'), call, kind or ""))
    by_helper = {(a, c, k) for a, f, c, k in made if f == "function"}
    missing = {p for p in planned if p not in made and (p[0], p[2], p[3]) not in by_helper}
    assert {m for m in made if m[1].split(".")[0] in fixed} - planned == set()
    assert missing == set()
