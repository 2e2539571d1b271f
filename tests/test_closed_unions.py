"""Every closed union of the model is dispatched exhaustively, so a new member makes mypy (or
a total table, at import) name every place that must handle it (issue 36, item 5).

Nothing here lists the unions or their readers by hand. The unions are found by introspection
(every ``Literal`` alias and every alias of a union of classes that the model's modules assign);
the test copies the package, puts a throwaway member in each (a word, or a dataclass with that
word as its ``kind``) and runs ``tests/union_probe.py`` on the copy: one ``mypy --strict`` run
that also keeps the type of every expression, so the readers are found by what they examine
(see :func:`test_every_reader_of_a_closed_union_is_named` for the rule), then an import of the
modules that build ``words.total`` tables.

Also: no module outside the registry (:mod:`rulesdsl.words`) compares a kind field with a
string or keys a dict by a kind's words (but through ``words.total``), and no module writes out
all of a union's members by hand.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pkgutil
import re
import shutil
import subprocess
import sys
import types
import typing
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import ir, words
from tests.conftest import MYPY_CACHE
from tests.source_trees import PACKAGE_TREES, package

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rulesdsl"

MODEL = (
    "rulesdsl.ir",
    "rulesdsl.words",
    "rulesdsl.frontends.syntax",
    "rulesdsl.interchange.chart_columns",
    "rulesdsl.frontends.yaml_authoring",
    "rulesdsl.codegen.plan",
)
"""The modules (a package: its modules) whose unions are the model's: the IR, the language's
words, the syntax tree every front end builds, a chart's column roles, a YAML ruleset's
sections, and the module plan every emitter reads (a new plan node is named in each)."""

OUT_OF_SCOPE: tuple[str, ...] = ()
"""Readers not held to the rule yet, left to the coordinator: the Python emitter is being
rewritten over a module plan (issue 36, items 2-3). Remove when it lands."""


@dataclass(frozen=True)
class Union:
    """A closed union of the model: an alias of ``Literal[...]`` (words) or ``A | B`` (classes)."""

    name: str
    path: Path
    words: bool
    members: tuple[object, ...]


def _modules() -> Iterator[ModuleType]:
    for name in MODEL:
        module = importlib.import_module(name)
        yield module
        for info in pkgutil.walk_packages(getattr(module, "__path__", []), f"{name}."):
            yield importlib.import_module(info.name)


def unions() -> dict[str, Union]:
    """Every union alias the model's modules define (by introspection: ``get_origin`` of each
    module attribute that the module itself assigns)."""
    found: dict[str, Union] = {}
    for module in _modules():
        path = Path(str(module.__file__))
        assigned = re.findall(r"^([A-Z]\w*) = ", path.read_text("utf-8"), flags=re.M)
        for name in assigned:
            alias = getattr(module, name)
            origin = typing.get_origin(alias)
            parts = typing.get_args(alias)
            if origin in (typing.Union, types.UnionType) and not all(map(inspect.isclass, parts)):
                continue  # a union of word unions (Literal["a"] | ir.Ask) grows with its parts
            if origin is typing.Literal or origin in (typing.Union, types.UnionType):
                if name in found and found[name].members == parts:
                    continue  # the same union under its own name elsewhere (``Axis = ir.Axis``)
                assert name not in found, f"two unions named {name}"
                found[name] = Union(name, path, origin is typing.Literal, parts)
    return found


UNIONS = unions()
WORD_SETS = [set(u.members) for u in UNIONS.values() if u.words]
"""The words of each closed union of words."""


def _add_members(copy: Path) -> None:
    """Put a throwaway member first in every union, in the copy's sources: a word
    ``throwaway_<name>`` or a dataclass ``Throwaway<Name>`` with that word as its kind."""
    for u in UNIONS.values():
        path = copy / u.path.relative_to(PACKAGE)
        text = path.read_text("utf-8")
        word = f"throwaway_{u.name.lower()}"
        if u.words:
            text, n = re.subn(
                rf"^{u.name} = Literal\[", f'{u.name} = Literal[\n    "{word}",', text, flags=re.M
            )
        else:
            member = (
                f"@dataclass(frozen=True)\nclass Throwaway{u.name}:\n"
                f'    kind: Literal["{word}"] = "{word}"\n\n\n'
            )
            text, n = re.subn(
                rf"^{u.name} = (\(?)",
                lambda m, u=u, member=member: f"{member}{u.name} = {m[1]}Throwaway{u.name} | ",
                text,
                flags=re.M,
            )
        assert n == 1, f"union {u.name} not found in {path}"
        path.write_text(text, "utf-8")


@dataclass
class Probe:
    """What the probe saw, per union (lower-case name): where it is read and where mypy names it
    (each by module, then by function: ``""`` for module level), and the modules whose total
    mapping refused it at import."""

    read: dict[str, dict[str, dict[str, list[str]]]]
    functions: dict[str, dict[str, set[str]]]
    total: dict[str, set[str]]

    @property
    def named(self) -> dict[str, set[str]]:
        """The modules mypy names each union in."""
        return {union: set(modules) for union, modules in self.functions.items()}


def probe(work: Path) -> Probe:
    """Copy the package, add the throwaways, run tests/union_probe.py on the copy (one mypy run)."""
    copy = work / "rulesdsl"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.json", "*.po"))
    _add_members(copy)
    run = uuid.uuid4().hex
    for path in copy.rglob("*.py"):  # no module of the copy is fresh in mypy's cache
        with path.open("a", encoding="utf-8") as f:
            f.write(f"# {run}\n")
    # the cache the tests' other mypy runs keep (same options: pyproject's): the standard
    # library's types, checked once a run for all of them, about 3 s of the probe's 20 cold
    config, cache = str(ROOT / "pyproject.toml"), str(MYPY_CACHE)
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "union_probe.py"), str(work), config, cache],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = Probe({}, {}, {})
    for line in done.stdout.splitlines():
        kind, module, number, union, *rest = json.loads(line)
        if kind == "read":
            how, function = rest
            where = out.read.setdefault(union, {}).setdefault(module, {})
            where.setdefault(function, []).append(f"{module}:{number} {how}")
        elif kind == "named":
            out.functions.setdefault(union, {}).setdefault(module, set()).add(rest[0])
        else:
            out.total.setdefault(union, set()).add(module)
    assert out.functions and out.read, done.stdout[-3000:]
    return out


def unnamed(seen: Probe) -> dict[str, list[str]]:
    """Each function that reads a union where mypy names nothing of it: not in that function,
    nor (for a table built at import) a refusal of the module's ``total``."""
    missing: dict[str, list[str]] = {}
    for union, modules in sorted(seen.read.items()):
        for module, functions in sorted(modules.items()):
            if module in seen.total.get(union, set()) or module.startswith(OUT_OF_SCOPE):
                continue
            named = seen.functions.get(union, {}).get(module, set())
            for function, places in sorted(functions.items()):
                if function not in named:
                    missing[f"{union} in {module}: {function or '(module level)'}"] = places
    return missing


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> Probe:
    return probe(tmp_path_factory.mktemp("closed_unions") / "copy")


def test_the_model_has_its_unions() -> None:
    """The introspection finds the unions (a change that hid them would empty the gate)."""
    assert len(UNIONS) > 40
    for name in ("Value", "StepTerm", "FacingMove", "RollWhen", "ArithFunction", "Statement"):
        assert name in UNIONS


@pytest.mark.xdist_group("closed_unions")
def test_every_reader_of_a_closed_union_is_named(seen: Probe) -> None:
    """A module reads a union where it examines a value that may be the union's member: the
    subject of a ``match``, the first argument of ``isinstance``, a side of ``==``, ``!=``,
    ``is`` or ``is not`` whose other side is a word, the left of ``in`` / ``not in`` a display
    of words or a module's constant, the key of a subscript or ``.get``. The type of each such
    value is mypy's (the probe runs mypy with ``export_types``), so a reader is found by what
    it reads, not by its name: a value "may be the member" when its type, after narrowing,
    still holds the throwaway. Each reader must fail when the union grows: mypy names it (a
    ``match`` or ``if`` chain ending in ``assert_never``), or it looks the value up in a
    mapping built by ``words.total``, which refuses the copy's mapping at import (the probe
    imports it). A reader that ends in ``else:``, or a table without the new key, would let
    the new member through silently. The place mypy names must be in the function that reads
    (a module whose other functions are named does not excuse one that is not)."""
    assert unnamed(seen) == {}


@pytest.mark.xdist_group("closed_unions")
def test_the_architecture_walkthrough_names_the_modules_mypy_names_for_a_new_step_term(
    seen: Probe,
) -> None:
    """docs/architecture.md's "Adding a construct" lists the modules a new step term touches:
    those mypy names for a throwaway ``StepTerm`` and ``StepTermKind``."""
    text = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    walkthrough = text.split("## Adding a construct", 1)[1]
    bullets = walkthrough.split("`mypy --strict`", 1)[1].split("\n\n")[1]
    listed = set(re.findall(r"^- `rulesdsl/([\w/]+\.py):", bullets, flags=re.M))
    named = seen.named.get("stepterm", set()) | seen.named.get("steptermkind", set())
    assert listed == named


PYTHON_SURFACE = frozenset({"part", "namekind"})
"""Unions of the plan only the Python emitter dispatches on: the Python module's own surface
(its parts' ``if`` blocks, its names' kinds); the JavaScript emitter only asks whether a part
is there."""


@pytest.mark.xdist_group("closed_unions")
def test_a_new_plan_node_is_named_in_the_javascript_emitter_as_in_the_python_one(
    seen: Probe,
) -> None:
    """Issue 37: a ruleset using a construct the JavaScript module lacks is impossible by
    construction. Every union of the module plan whose new member mypy names in a reader of
    ``codegen/python`` (step terms, expressions, conditions, entries, parameters, values,
    costs paid once, modifier and sight values) is named in a reader of ``codegen/js`` too,
    but for :data:`PYTHON_SURFACE`."""
    plan = [u.name.lower() for u in UNIONS.values() if u.path.is_relative_to(PACKAGE / "codegen")]
    by: dict[str, set[str]] = {"python": set(), "js": set()}
    for union in plan:
        for module in seen.named.get(union, set()):
            if module.startswith(("codegen/python/", "codegen/js/")):
                by[module.split("/")[1]].add(union)
    assert {"term", "expr", "test", "literal"} <= by["js"]
    assert by["python"] - by["js"] == PYTHON_SURFACE


def test_a_total_table_refuses_a_missing_member_or_a_stray_key() -> None:
    assert dict(words.total(ir.ScaleOp, {"*": 1, "/": 2})) == {"*": 1, "/": 2}
    with pytest.raises(words.NotTotal, match="'/'"):
        words.total(ir.ScaleOp, {"*": 1})
    with pytest.raises(words.NotTotal, match="'%'"):
        words.total(ir.ScaleOp, {"*": 1, "/": 2, "%": 3})


TAGS = frozenset(
    {
        "kind",
        "term",
        "marker",
        "scope",
        "reading",
        "axis",
        "op",
        "scale_op",
        "bound",
        "counts",
        "shape",
        "action",
        "combine",
        "stacking",
        "state",
        "ask",
    }
)
"""The fields (and the variables named after them) that hold a kind of the model."""


def _strings(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return bool(node.elts) and all(_strings(e) for e in node.elts)
    return False


def _tag(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute) and node.attr in TAGS:
        return node.attr
    if isinstance(node, ast.Name) and node.id in TAGS:
        return node.id
    return None


Nodes = dict[str, tuple[ast.AST, ...]]
"""Each module of the package (its path under rulesdsl/) and every node of its syntax tree."""


@pytest.fixture(scope="module")
def package_nodes() -> Nodes:
    """The package's modules, parsed and walked once per process (tests/source_trees.py) for
    the three tests of what they write and the other tests that read the package."""
    return {path.relative_to(PACKAGE).as_posix(): s.nodes for path, s in package().items()}


@PACKAGE_TREES
def test_no_module_compares_a_kind_with_a_string_outside_the_registry(
    package_nodes: Nodes,
) -> None:
    found = []
    for name, nodes in package_nodes.items():
        if name == "words.py":
            continue
        for node in nodes:
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            if any(_tag(a) and _strings(b) for a in sides for b in sides if a is not b):
                found.append(f"{name}:{node.lineno}")
    assert found == []


def _total_tables(nodes: tuple[ast.AST, ...]) -> set[int]:
    """The dict displays given to ``total(UNION, {...})``: checked when built."""
    return {
        id(node.args[1])
        for node in nodes
        if isinstance(node, ast.Call)
        and (ast.unparse(node.func) in ("total", "words.total"))
        and len(node.args) == 2
    }


@PACKAGE_TREES
def test_no_module_keys_a_dict_by_a_kinds_words_outside_the_registry(package_nodes: Nodes) -> None:
    """Outside words.py, a table keyed by a kind's words is built by ``words.total``."""
    found = []
    for name, nodes in package_nodes.items():
        if name == "words.py":
            continue
        tables = _total_tables(nodes)
        for node in nodes:
            if not isinstance(node, ast.Dict) or len(node.keys) < 2 or id(node) in tables:
                continue
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if len(keys) == len(node.keys) and any(keys <= words for words in WORD_SETS):
                found.append(f"{name}:{node.lineno}")
    assert found == []


def _word_lists(nodes: tuple[ast.AST, ...]) -> Iterator[tuple[int, list[object]]]:
    """Each display of words: a tuple, list or set, a dict's keys, a dict's values."""
    tables = _total_tables(nodes)
    for node in nodes:
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            yield node.lineno, [e.value for e in node.elts if isinstance(e, ast.Constant)]
        elif isinstance(node, ast.Dict):
            if id(node) not in tables:
                yield node.lineno, [k.value for k in node.keys if isinstance(k, ast.Constant)]
            yield node.lineno, [v.value for v in node.values if isinstance(v, ast.Constant)]


@PACKAGE_TREES
def test_no_module_writes_out_a_unions_members_by_hand(package_nodes: Nodes) -> None:
    """A list of every member of a union, written out elsewhere than the union, would miss a
    new member silently: ``typing.get_args(UNION)`` lists them, ``words.total`` keys a table
    by them."""
    found = []
    for name, nodes in package_nodes.items():
        for line, items in _word_lists(nodes):
            for u in UNIONS.values():
                whole = u.words and len(u.members) >= 2 and len(items) == len(u.members)
                if whole and set(items) == set(u.members) and u.path != PACKAGE / name:
                    found.append(f"{name}:{line} {u.name}")
    assert found == []


def test_a_reader_is_named_in_its_own_function_not_in_its_module() -> None:
    """A broken arm in one function stays found when mypy names the union in another function of
    the same module (the probe tells functions apart, not only modules)."""
    seen = Probe(
        read={"rollwhen": {"m.py": {"good": ["m.py:3 match"], "broken": ["m.py:9 match"]}}},
        functions={"rollwhen": {"m.py": {"good"}}},
        total={},
    )
    assert unnamed(seen) == {"rollwhen in m.py: broken": ["m.py:9 match"]}
    seen.functions["rollwhen"]["m.py"].add("broken")
    assert unnamed(seen) == {}
