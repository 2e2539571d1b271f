"""The JavaScript target (issue 37), held to the Python module's answers in Node: every exported
example vector whose question the JavaScript module answers, a differential test of random
questions (answers and errors identical), the declarations type-checked by TypeScript, and
the examples of docs/module-api-js.md (a web page's script, a Foundry VTT module) run.

Node runs one process per ruleset (tests/js/runner.mjs), not one per question. Without Node
these tests are skipped, except in CI (the CI variable set), where .ci/run installs it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesdsl.builder.build import build
from rulesdsl.codegen import js as js_target
from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen import targets
from rulesdsl.codegen.js import code as js_code
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from tests import js_queries, js_queries_routes
from tests.conftest import GENERATED, ROOT, RULESETS, load_generated
from tests.test_registries import RULESET as TINY

IDS = sorted(p.stem for p in RULESETS.glob("*.terrain"))
TESTS_JS = ROOT / "tests" / "js"
DOC = ROOT / "docs" / "module-api-js.md"


def _needed(tool: str) -> str:
    """The path of ``tool``; the test is skipped without it, but fails in CI."""
    found = shutil.which(tool)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} is missing in CI: .ci/run installs it")
        pytest.skip(f"{tool} is not installed (CI installs it: .ci/run)")
    return found


@pytest.fixture(scope="module")
def node() -> str:
    return _needed("node")


@pytest.fixture(scope="module")
def plans() -> dict[str, module_plan.ModulePlan]:
    compiler = Compiler()
    out = {}
    for rid in IDS:
        compiled = compiler.compile_file(RULESETS / f"{rid}.terrain")
        assert compiled.ruleset is not None, rid
        out[rid] = module_plan.build(compiled.ruleset)
    return out


def write_package(plan: module_plan.ModulePlan, folder: Path) -> Path:
    """The ruleset's JavaScript package written in ``folder``; the path of its module."""
    folder.mkdir(parents=True, exist_ok=True)
    files = js_target.emit(plan)
    for name, text in files.items():
        (folder / name).write_text(text, "utf-8")
    return folder / next(n for n in files if n.endswith(".js"))


@pytest.fixture(scope="module")
def packages(plans: dict[str, module_plan.ModulePlan], tmp_path_factory: Any) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("js")
    return {rid: write_package(plan, root / rid) for rid, plan in plans.items()}


def answered(plan: module_plan.ModulePlan) -> set[str]:
    """The questions the JavaScript module answers so far."""
    dice = {"roll", "chance"} if plan.data.dice_tables and not plan.data.results_tables else set()
    code = {s.name for s in plan.code.steps} | {d.name for d in plan.code.decisions}
    moves = {"move_cost", "can_enter", "can_end", "must_stop", "path_cost", "rolls_due"}
    return {"lookup", "param", "modifier", "conflicts", *dice, *code, *moves, "route_cost"}


def asked(plan: module_plan.ModulePlan, vectors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The vectors whose questions the JavaScript module answers (routes of a unit type with
    facing not yet)."""
    return [
        v
        for v in vectors
        if v["question"] in answered(plan) and not js_queries_routes.facing(plan, v)
    ]


# ---- the example vectors -----------------------------------------------------------------------


@pytest.mark.parametrize("rid", IDS)
def test_js_module_passes_the_example_vectors(
    rid: str, node: str, plans: dict[str, module_plan.ModulePlan], packages: dict[str, Path]
) -> None:
    vectors = json.loads((GENERATED / f"{rid}.examples.json").read_text("utf-8"))["vectors"]
    chosen = asked(plans[rid], vectors)
    queries = [
        {"function": v["question"], "args": v["args"], "kwargs": v["kwargs"]} for v in chosen
    ]
    answers = js_queries.ask_node(packages[rid], queries)
    wrong = [
        (v["text"], a)
        for v, a in zip(chosen, answers, strict=True)
        if not js_queries.same(a.get("answer"), v["expected"])
    ]
    assert not wrong


def test_js_module_answers_vectors_of_every_kind_it_covers(
    plans: dict[str, module_plan.ModulePlan],
) -> None:
    """The vectors above are not vacuous: every kind of question the module answers is
    among those it is asked."""
    kinds: set[str] = set()
    for rid, plan in plans.items():
        vectors = json.loads((GENERATED / f"{rid}.examples.json").read_text("utf-8"))["vectors"]
        steps = {s.name for s in plan.code.steps}
        for q in (v["question"] for v in asked(plan, vectors)):
            kinds.add("step" if q in steps else q if q in _NAMED else "decision")
    assert kinds == {*_NAMED, "step", "decision"}


_NAMED = {
    "lookup",
    "modifier",
    "roll",
    "chance",
    "move_cost",
    "can_enter",
    "can_end",
    "must_stop",
    "path_cost",
    "rolls_due",
    "route_cost",
}
"""The questions the vectors ask by their own name (steps and decisions have the rule's)."""


# ---- the differential test ---------------------------------------------------------------------


def mismatches(plan: module_plan.ModulePlan, rid: str, module_js: Path, seed: int) -> list[Any]:
    queries = js_queries.queries(plan, seed)
    python = load_generated(rid)
    expected = [js_queries.ask_python(python, q) for q in queries]
    got = js_queries.ask_node(module_js, queries)
    assert len(queries) >= 1000
    return [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]


@pytest.mark.parametrize("rid", IDS)
def test_js_and_python_modules_give_the_same_answers_and_errors(
    rid: str, node: str, plans: dict[str, module_plan.ModulePlan], packages: dict[str, Path]
) -> None:
    assert mismatches(plans[rid], rid, packages[rid], seed=37)[:5] == []


def test_differential_test_sees_a_broken_js_emitter(
    node: str,
    plans: dict[str, module_plan.ModulePlan],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A JavaScript emitter that counts a step's part ``per full 4 in`` as a fraction (the
    Python module counts whole multiples) is caught by the differential test."""
    real = js_code.per_every_js
    monkeypatch.setattr(
        js_code, "per_every_js", lambda t, x: real(dataclasses.replace(t, full=False), x)
    )
    broken = write_package(plans["heavy_gear"], tmp_path / "heavy_gear")
    assert mismatches(plans["heavy_gear"], "heavy_gear", broken, seed=37)


# ---- the target, the declarations, the docs -----------------------------------------------------


def test_js_target_is_registered_and_off_by_default() -> None:
    assert [t.name for t in targets.chosen()] == ["python"]
    assert [t.name for t in targets.chosen(["js"])] == ["js"]
    assert targets.JS in targets.TARGETS and targets.JS.folder == "js"


def test_js_package_is_deterministic_and_names_its_ruleset(
    plans: dict[str, module_plan.ModulePlan],
) -> None:
    plan = plans["heavy_gear"]
    files = js_target.emit(plan)
    assert files == js_target.emit(plan)
    package = json.loads(files["package.json"])
    assert package["types"] == "./heavy_gear.d.ts" and package["type"] == "module"
    assert package["exports"]["."]["default"] == "./heavy_gear.js"


def _typescript(pytestconfig: pytest.Config) -> Path:
    """tsc from the test setup's lock file (tests/js/), installed once into pytest's cache."""
    npm = _needed("npm")
    store = getattr(pytestconfig, "cache", None)  # None under -p no:cacheprovider
    if store is not None:
        cache = Path(store.mkdir("js-typescript"))
    else:
        cache = Path(tempfile.gettempdir()) / "rulesdsl-js-typescript"
        cache.mkdir(exist_ok=True)
    lock = (TESTS_JS / "package-lock.json").read_text("utf-8")
    tsc = cache / "node_modules" / "typescript" / "bin" / "tsc"
    if not tsc.exists() or (cache / "package-lock.json").read_text("utf-8") != lock:
        for name in ("package.json", "package-lock.json"):
            shutil.copy(TESTS_JS / name, cache / name)
        subprocess.run(
            [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=cache, check=True
        )
    return tsc


def test_declarations_type_check_a_consumer(
    node: str, plans: dict[str, module_plan.ModulePlan], tmp_path: Path, pytestconfig: Any
) -> None:
    tsc = _typescript(pytestconfig)
    write_package(plans["heavy_gear"], tmp_path)
    shutil.copy(TESTS_JS / "consumer.ts", tmp_path / "consumer.ts")
    options = ["--noEmit", "--strict", "--module", "nodenext", "--target", "es2022"]
    done = subprocess.run(
        [node, str(tsc), *options, "consumer.ts"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def doc_blocks() -> Iterator[tuple[str, str]]:
    """The ```js blocks of docs/module-api-js.md: (the file a comment above names, code)."""
    text = DOC.read_text("utf-8")
    for m in re.finditer(r"<!-- file: (\S+) -->\n```js\n(.*?)^```$", text, re.M | re.S):
        yield m.group(1), m.group(2)


def test_docs_js_examples_run_in_node(
    node: str, plans: dict[str, module_plan.ModulePlan], tmp_path: Path
) -> None:
    """Each example is written where its comment says, beside the heavy_gear package; a
    ``// prints: x`` comment is a line it must print. The Foundry module's script is loaded
    with Foundry's ``Hooks`` and ``ui`` stood in for, and its ``ready`` hook fired."""
    write_package(plans["heavy_gear"], tmp_path / "heavy_gear")
    blocks = list(doc_blocks())
    assert {name for name, _ in blocks} >= {"example.mjs", "scripts/main.js"}
    stub = (TESTS_JS / "foundry_stub.mjs").read_text("utf-8")
    for name, code in blocks:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(code, "utf-8")
        entry = name
        if name.startswith("scripts/"):
            entry = "foundry.mjs"
            (tmp_path / entry).write_text(stub.replace("SCRIPT", f"./{name}"), "utf-8")
        done = subprocess.run([node, entry], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == re.findall(r"// prints: (.*)", code), name


def test_build_target_js_writes_and_checks_only_the_javascript_package(tmp_path: Path) -> None:
    rulesets, out = tmp_path / "rulesets", tmp_path / "generated"
    rulesets.mkdir()
    (rulesets / "tiny.terrain").write_text(TINY, "utf-8")
    no_pdf = frozenset({"pdf"})
    result = build(rulesets, out, compiler=Compiler(), missing=no_pdf, target_names=["js"])
    assert result.ok and "js/tiny/tiny.js" in result.written
    assert not any(rel.startswith("python/") for rel in result.written)
    assert build(rulesets, out, check=True, missing=no_pdf, target_names=["js"]).stale == []
    (out / "js" / "tiny" / "tiny.d.ts").write_text("edited", "utf-8")
    stale = build(rulesets, out, check=True, missing=no_pdf, target_names=["js"]).stale
    assert stale == ["js/tiny/tiny.d.ts"]


def test_build_help_names_the_targets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--help"]) == 0
    assert "--target TARGET" in capsys.readouterr().out


def test_steps_and_decisions_named_by_javascript_reserved_words_are_exported(
    node: str, plans: dict[str, module_plan.ModulePlan], tmp_path: Path
) -> None:
    """A step ``switch`` of an input ``new`` is a valid ES module whose ``switch`` answers as
    the step it renames; its declarations type-check (a name the ruleset may give)."""
    plan = plans["heavy_gear"]
    climb = next(s for s in plan.code.steps if s.name == "climb")
    renamed = dataclasses.replace(climb, name="switch", param="new")
    code = dataclasses.replace(plan.code, steps=(*plan.code.steps, renamed))
    module = write_package(dataclasses.replace(plan, code=code), tmp_path)
    queries: list[js_queries.Query] = [
        {"function": f, "args": [1.5], "kwargs": {}} for f in ("switch", "climb")
    ]
    switch, climb_answer = js_queries.ask_node(module, queries)
    assert switch == climb_answer == {"answer": [{"number": 1.5}]}
    assert "declare function $$switch(new_: number)" in (tmp_path / "heavy_gear.d.ts").read_text()
