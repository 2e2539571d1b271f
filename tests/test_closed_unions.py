"""Every closed union of the model is dispatched exhaustively, so mypy names what a new kind
must handle.

The test copies the package, adds a throwaway member to each union (a class to the unions of
classes, a word to the unions of words) and runs ``mypy --strict`` on the copy once. Each
throwaway must be reported, and in each module that dispatches on its union: a reader that
compares strings or ends in ``else:`` would let the new kind through silently.

Also: no module outside the registry (:mod:`rulesdsl.words`) compares a kind field with a
string or keys a dict by one.
"""

from __future__ import annotations

import ast
import importlib
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rulesdsl"

CLASS_UNIONS: dict[str, tuple[str, set[str]]] = {
    # union -> (its module, the modules that must handle a new member)
    "Value": (
        "ir/values",
        {
            "codegen/plan/values.py",
            "codegen/plan/data.py",
            "codegen/python/sight.py",
            "printed/sheet_base.py",
            "checks/costs.py",
            "checks/numbers.py",
            "examples/statements.py",
            "frontends/dsl.py",
            "lowering/context.py",
            "semantics/__init__.py",
            "spelling.py",
            "versions/diff.py",
            "words.py",
        },
    ),
    "DiceRoll": (
        "ir/values",
        {
            "codegen/plan/data.py",
            "checks/dice.py",
            "frontends/dsl.py",
            "semantics/tables.py",
            "spelling.py",
            "versions/diff.py",
        },
    ),
    "Expr": (
        "codegen/plan/code",
        {
            "codegen/python/code.py",
            "codegen/js/code.py",
        },
    ),
    "StepTerm": (
        "ir",
        {
            "codegen/plan/code.py",
            "printed/sheet_rules.py",
            "commands/new.py",
            "semantics/tables.py",
            "spelling.py",
            "words.py",
        },
    ),
    "LimitValue": (
        "ir/tables",
        {
            "codegen/plan/code.py",
            "semantics/tables.py",
        },
    ),
    "Operand": (
        "ir/tables",
        {
            "codegen/plan/code.py",
            "printed/sheet_rules.py",
            "semantics/tables.py",
            "spelling.py",
        },
    ),
    "Condition": (
        "ir/tables",
        {
            "codegen/plan/code.py",
            "printed/sheet_rules.py",
            "semantics/tables.py",
            "spelling.py",
        },
    ),
    "ChangePath": (
        "ir/changes",
        {
            "variants/changelog.py",
        },
    ),
    "Statement": (
        "frontends/syntax",
        {
            "lowering/keywords.py",
            "lowering/lower.py",
        },
    ),
}
"""Unions of classes, each with a ``kind`` literal."""

WORD_UNIONS: dict[str, tuple[str, set[str]]] = {
    # Literal alias -> (its module, the modules that must handle a new word)
    "MarkerKind": (
        "ir/values",
        {
            "printed/sheet_model.py",
            "printed/sheet_view.py",
            "words.py",
        },
    ),
    "LayerScope": (
        "ir",
        {
            "printed/sheet_movement.py",
            "lowering/maps.py",
            "semantics/tables.py",
            "words.py",
        },
    ),
    "Combine": (
        "ir",
        {
            "codegen/plan/data.py",
            "printed/sheet_movement.py",
            "semantics/__init__.py",
        },
    ),
    "PlaceState": (
        "ir/values",
        {
            "semantics/routes.py",
        },
    ),
    "Axis": (
        "ir/tables",
        {
            "codegen/plan/code.py",
            "codegen/python/code.py",
            "spelling.py",
        },
    ),
    "CompareOp": (
        "ir/tables",
        {
            "codegen/python/code.py",
            "printed/sheet_rules.py",
            "lowering/decisions.py",
            "semantics/tables.py",
        },
    ),
    "Reading": (
        "ir/tables",
        {
            "codegen/plan/code.py",
            "codegen/python/code.py",
            "lowering/decisions.py",
        },
    ),
    "ScaleOp": (
        "ir/tables",
        {
            "printed/sheet_rules.py",
            "semantics/tables.py",
        },
    ),
    "ColumnBound": (
        "ir/tables",
        {
            "printed/sheet_more.py",
            "checks/results.py",
            "semantics/tables.py",
            "versions/diff_sight.py",
        },
    ),
    "Rounding": (
        "ir/arith",
        {
            "codegen/python/code.py",
            "printed/sheet_more.py",
            "semantics/tables.py",
        },
    ),
    "SightCounts": (
        "ir",
        {
            "semantics/tables.py",
        },
    ),
    "GridShape": (
        "ir/movement",
        {
            "printed/sheet_more.py",
            "checks/grids.py",
            "semantics/tables.py",
        },
    ),
    "Stacking": (
        "ir",
        {
            "codegen/python/header.py",
            "semantics/__init__.py",
        },
    ),
    "PolicyPart": (
        "ir/changes",
        {
            "variants/changelog.py",
        },
    ),
    "TriggerField": (
        "ir/changes",
        {
            "variants/changelog.py",
            "variants/overrides.py",
        },
    ),
    "StepField": (
        "ir/values",
        {
            "variants/changelog.py",
            "variants/overrides.py",
            "words.py",
        },
    ),
    "StepTermKind": (
        "ir/values",
        {
            "lowering/tables.py",
            "words.py",
        },
    ),
    "ChangeAction": (
        "ir/changes",
        {
            "printed/sheet_base.py",
            "variants/changelog.py",
            "words.py",
        },
    ),
    "ValueKind": (
        "words",
        {
            "words.py",
        },
    ),
    "DeclKind": (
        "words",
        {
            "lowering/costs.py",
            "words.py",
        },
    ),
    "ItemKind": (
        "words",
        {
            "editor/lsp.py",
            "words.py",
        },
    ),
    "ColumnRole": (
        "interchange/chart_columns",
        {
            "interchange/csv_chart.py",
        },
    ),
}
"""Unions of words (``Literal`` aliases). ``HeaderLine`` is left out: no reader chooses by
it (a header change is recorded and printed by its path); so is ``words.PartKind``, which the
language server only prints."""


def _add_members(copy: Path) -> None:
    """Append a throwaway member to every union in the copy's sources."""
    for module in {m for m, _ in (*CLASS_UNIONS.values(), *WORD_UNIONS.values())}:
        path = copy / f"{module}.py"
        if not path.exists():  # a package: its names are in its __init__
            path = copy / module / "__init__.py"
        text = path.read_text("utf-8")
        for name, (where, _) in CLASS_UNIONS.items():
            if where != module:
                continue
            member = (
                f"@dataclass(frozen=True)\nclass Throwaway{name}:\n"
                f'    kind: Literal["throwaway_{name.lower()}"] = "throwaway_{name.lower()}"\n\n\n'
            )
            text, n = re.subn(
                rf"^{name} = (\(?)",
                lambda m, name=name, member=member: (
                    f"{member}{name} = {m.group(1)}Throwaway{name} | "
                ),
                text,
                count=1,
                flags=re.M,
            )
            assert n == 1, f"union {name} not found in {module}.py"
        for name, (where, _) in WORD_UNIONS.items():
            if where != module:
                continue
            text, n = re.subn(
                rf"^{name} = Literal\[",
                f'{name} = Literal[\n    "throwaway_{name.lower()}",',
                text,
                count=1,
                flags=re.M,
            )
            assert n == 1, f"union {name} not found in {module}.py"
        path.write_text(text, "utf-8")


def _reports(work: Path) -> dict[str, set[str]]:
    """Each throwaway member's name -> the modules where mypy reports it."""
    copy = work / "rulesdsl"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.json", "*.po"))
    _add_members(copy)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(work / "cache"),
            "--no-error-summary",
            "--hide-error-context",
            "rulesdsl",
        ],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    found: dict[str, set[str]] = {}
    for line in run.stdout.splitlines():
        match = re.match(r"rulesdsl/([^:]+\.py):\d+: error: (.*)", line)
        if match is None:
            continue
        for name in re.findall(r"[Tt]hrowaway_?([A-Za-z]+)", match.group(2)):
            found.setdefault(name.lower(), set()).add(match.group(1))
    assert found, run.stdout + run.stderr
    return found


def test_a_new_member_of_any_closed_union_is_named_by_mypy_where_it_must_be_handled(
    tmp_path: Path,
) -> None:
    """One mypy run for every union at once (a single test, so a parallel run starts one)."""
    reports = _reports(tmp_path)
    missing = {
        name: sorted(expected - reports.get(name.lower(), set()))
        for name, (_, expected) in {**CLASS_UNIONS, **WORD_UNIONS}.items()
        if not expected <= reports.get(name.lower(), set())
    }
    assert missing == {}


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


def test_no_module_compares_a_kind_with_a_string_outside_the_registry() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name == "words.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            if any(_tag(a) and _strings(b) for a in sides for b in sides if a is not b):
                found.append(f"{name}:{node.lineno}")
    assert found == []


WORD_SETS = [
    set(typing.get_args(getattr(module, name)))
    for name, (where, _) in WORD_UNIONS.items()
    for module in [importlib.import_module(f"rulesdsl.{where.replace('/', '.')}")]
]
"""The words of each closed union of words."""


def test_no_module_keys_a_dict_by_a_kinds_words_outside_the_registry() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name == "words.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Dict) or len(node.keys) < 2:
                continue
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if len(keys) == len(node.keys) and any(keys <= words for words in WORD_SETS):
                found.append(f"{name}:{node.lineno}")
    assert found == []
