"""The package's imports follow the pipeline: no import circles, and no stage imports a later one.

Measured on the source (every `import` and `from ... import` of a rulesdsl module, at module
level, in functions and under TYPE_CHECKING alike), so a lazy import cannot hide a circle.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

import pytest

from tests.source_trees import PACKAGE, PACKAGE_TREES, package

STAGES: list[tuple[str, ...]] = [
    # the model every stage shares: the IR, its reference semantics and the worked examples
    # questions (rulesdsl/ir/, semantics/, examples/), and the few modules at the root
    (
        "rulesdsl",
        "rulesdsl.ir",
        "rulesdsl.semantics",
        "rulesdsl.examples",
        "rulesdsl.templates",
        "rulesdsl.grammars",
    ),
    ("rulesdsl.frontends",),  # DSL and YAML text -> syntax statements
    ("rulesdsl.variants",),  # extends, override, insert, remove -> one whole ruleset
    ("rulesdsl.lowering",),  # statements -> IR and positions
    ("rulesdsl.checks",),  # passes over the IR
    ("rulesdsl.compiler",),  # drives the stages above
    ("rulesdsl.outputs", "rulesdsl.i18n"),  # what an output is, how it is written; sheet words
    ("rulesdsl.codegen", "rulesdsl.printed"),  # IR -> Python module; IR -> sheets, cards
    ("rulesdsl.web",),  # the web pages: the sheet's tables around the JavaScript module
    ("rulesdsl.builder",),  # `rulesdsl build`: stamps, manifest, transaction, lock
    ("rulesdsl.versions",),  # the semantic diff, the version check
    ("rulesdsl.interchange",),  # fmt, YAML -> DSL, CSV charts
    ("rulesdsl.editor",),  # the language server, watch
    ("rulesdsl.commands", "rulesdsl.__main__"),  # the command line
]
"""Stages in the order data flows; a module may import its own stage or an earlier one."""


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


@cache
def imports() -> Mapping[str, frozenset[str]]:
    """Each module -> the rulesdsl modules it imports (read once per process: five tests
    here and in test_registries ask)."""
    mods = modules()
    trees = package()
    graph: dict[str, frozenset[str]] = {}
    for name, path in mods.items():
        deps: set[str] = set()
        for node in trees[path].nodes:
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and (node.module == "rulesdsl" or node.module.startswith("rulesdsl."))
            ):
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    deps.add(full if full in mods else node.module)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.startswith("rulesdsl"))
        graph[name] = frozenset(d for d in deps if d in mods and d != name)
    return MappingProxyType(graph)


def stage(module: str) -> int:
    best = max(
        (
            prefix
            for stage in STAGES
            for prefix in stage
            if module == prefix or module.startswith(prefix + ".")
        ),
        key=len,
    )
    return next(i for i, names in enumerate(STAGES) if best in names)


def cycles(graph: Mapping[str, frozenset[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


@PACKAGE_TREES
def test_the_package_has_no_import_circle() -> None:
    assert cycles(imports()) == []


@PACKAGE_TREES
def test_no_stage_imports_a_later_one() -> None:
    upward = [
        f"{m} -> {d}"
        for m, deps in sorted(imports().items())
        for d in sorted(deps)
        if stage(d) > stage(m)
    ]
    assert upward == []


def test_every_module_belongs_to_a_stage_and_every_package_is_shipped() -> None:
    for name in modules():
        stage(name)  # raises if no stage claims it
    packages = {
        ".".join(p.parent.relative_to(PACKAGE.parent).parts) for p in PACKAGE.rglob("__init__.py")
    }
    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text("utf-8"))
    shipped = set(project["tool"]["setuptools"]["packages"])
    assert packages - {"rulesdsl.grammars"} <= shipped


MAX_LINES = 800
"""The largest a module of the package may be (issue 22): past it, split along its constructs."""


def test_no_module_is_over_800_lines() -> None:
    lines = {
        str(path.relative_to(PACKAGE)): len(path.read_text("utf-8").splitlines())
        for path in sorted(PACKAGE.rglob("*.py"))
    }
    assert {name: n for name, n in lines.items() if n > MAX_LINES} == {}


ROOT_MODULES = 12
"""The most modules the package's root may hold besides ``__init__`` and ``__main__`` (issue
36): the few that every stage shares; the rest lives in the folder of its stage."""


def test_the_package_root_keeps_only_the_few_modules_every_stage_shares() -> None:
    root = sorted(p.name for p in PACKAGE.glob("*.py") if p.stem not in {"__init__", "__main__"})
    assert len(root) <= ROOT_MODULES, root


MODEL = ("rulesdsl.ir", "rulesdsl.semantics", "rulesdsl.examples")
"""The model an emitter must not read: it reads the module plan (rulesdsl/codegen/plan/) only."""


@PACKAGE_TREES
@pytest.mark.parametrize("emitter", ["rulesdsl.codegen.python", "rulesdsl.codegen.js"])
def test_an_emitter_imports_nothing_from_the_ir(emitter: str) -> None:
    """Issues 36 and 37: each emitter reads the plan only, so both write the same module."""
    readers = {
        module
        for module, deps in imports().items()
        if (module == emitter or module.startswith(emitter + "."))
        and any(d == m or d.startswith(m + ".") for d in deps for m in MODEL)
    }
    assert readers == set()


@PACKAGE_TREES
def test_no_function_is_over_100_lines() -> None:
    """Issue 36 item 6: a function is at most 100 lines, ``def`` to its last line (the
    functions nested in it counted with it; each nested one is measured too)."""
    long = [
        f"{path.relative_to(PACKAGE).as_posix()}:{node.lineno} {node.name}: "
        f"{node.end_lineno - node.lineno + 1} lines"
        for path, source in package().items()
        for node in source.nodes
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > 100
    ]
    assert long == []
