"""The JavaScript target (issue 37), held to the Python module's answers in Node: every exported
example vector whose question the JavaScript module answers, a differential test of random
questions (answers and errors identical), the declarations type-checked by TypeScript, and
the examples of docs/module-api-js.md (a web page's script, a Foundry VTT module) run.

Node answers every question of a test process in one process kept running (tests/js/runner.mjs,
each call's module imported anew), and tsc checks every consumer likewise (tests/typescript.py).
Without Node these tests are skipped, except in CI (the CI variable set), where .ci/run
installs it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.builder.build import build
from rulesdsl.codegen import js as js_target
from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen import targets
from rulesdsl.codegen.js import code as js_code
from rulesdsl.codegen.js import results as js_results
from rulesdsl.codegen.js import sight as js_sight
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from tests import conftest, js_queries, typescript
from tests.conftest import (
    GENERATED,
    ROOT,
    RULESETS,
    compile_snippet,
    import_rendered,
    load_generated,
)
from tests.test_registries import RULESET as TINY
from tests.typescript import TSC_STRICT, _needed

IDS = sorted(p.stem for p in RULESETS.glob("*.terrain"))
TESTS_JS = ROOT / "tests" / "js"
DOC = ROOT / "docs" / "module-api-js.md"


@pytest.fixture(scope="module")
def node() -> str:
    return _needed("node")


@pytest.fixture(scope="module")
def bundled() -> dict[str, ir.Ruleset]:
    """Every bundled ruleset's IR, as the process compiled it once (conftest.bundled)."""
    out = {}
    for rid in IDS:
        compiled = conftest.bundled(rid)
        assert compiled.ruleset is not None, rid
        out[rid] = compiled.ruleset
    return out


@pytest.fixture(scope="module")
def plans(bundled: dict[str, ir.Ruleset]) -> dict[str, module_plan.ModulePlan]:
    return {rid: module_plan.build(ruleset) for rid, ruleset in bundled.items()}


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
    """The questions the JavaScript module answers (those of the example vectors)."""
    dice = {"roll", "chance"} if plan.data.dice_tables or plan.data.results_tables else set()
    sight = {"line_of_sight"} if plan.sight.rules else set()
    code = {s.name for s in plan.code.steps} | {d.name for d in plan.code.decisions}
    moves = {"move_cost", "can_enter", "can_end", "must_stop", "path_cost", "rolls_due"}
    free = {"free_move"} if plan.movement.free_facings else set()
    free |= {"effect"} if "unit effects" in plan.surface.parts else set()  # keyed by unit type
    free |= {"arc_between"} if "arcs" in plan.surface.parts else set()  # places as pairs
    known = {"lookup", "param", "modifier", "conflicts", "route_cost"}
    return {*known, *dice, *sight, *code, *moves, *free}


def asked(plan: module_plan.ModulePlan, vectors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The vectors whose questions the JavaScript module answers."""
    return [v for v in vectors if v["question"] in answered(plan)]


# ---- the example vectors -----------------------------------------------------------------------


@pytest.mark.parametrize("rid", IDS)
def test_js_module_passes_the_example_vectors(
    rid: str, node: str, plans: dict[str, module_plan.ModulePlan], packages: dict[str, Path]
) -> None:
    vectors = json.loads((GENERATED / f"{rid}.examples.json").read_text("utf-8"))["vectors"]
    chosen = asked(plans[rid], vectors)
    queries = [
        {"function": v["question"], "args": v["args"], "kwargs": v["kwargs"]}
        | ({"attribute": v["attribute"]} if "attribute" in v else {})  # `.state` (issue 40)
        for v in chosen
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
    "line_of_sight",
    "free_move",
    "arc_between",
}
"""The questions the vectors ask by their own name (steps and decisions have the rule's)."""


# ---- the differential test ---------------------------------------------------------------------


def mismatches(
    plan: module_plan.ModulePlan, rid: str, module_js: Path, seed: int, at_least: int = 1000
) -> list[Any]:
    key = (id(plan), seed, at_least)
    kept = _KEPT.get(key)
    queries = kept[1] if kept else js_queries.queries(plan, seed, at_least)
    got = js_queries.ask_node_soon(module_js, queries)  # Node answers while Python does
    try:
        if kept:
            expected = kept[2]
        else:
            python = load_generated(rid)
            expected = js_queries.ask_python_all(python, queries)
            if at_least <= 1000:
                _KEPT[key] = (plan, queries, expected)
    finally:
        answers = got()
    assert len(queries) >= at_least
    return [
        (q, e, g)
        for q, e, g in zip(queries, expected, answers, strict=True)
        if not js_queries.same(e, g)
    ]


_KEPT: dict[tuple[int, int, int], tuple[module_plan.ModulePlan, list[Any], list[Any]]] = {}
"""The questions and the Python module's answers of each plan, seed and number of questions
of the tests that break a JavaScript emitter or runtime on purpose (1,000 questions; each
ruleset's are asked by several such tests): drawn and answered once a test process, from
generated/python (the same module, so the same answers). The plan is kept with them, so that
its id names it while they are kept. The differential test's 10,000 questions a ruleset are
asked once a run and not kept."""


@functools.cache
def plan_of(rid: str) -> module_plan.ModulePlan:
    """A bundled ruleset's module plan, for a test that writes it with an emitter broken:
    compiled once a process (plans are frozen; the tests break emitters, not the plan)."""
    compiled = conftest.bundled(rid)
    assert compiled.ruleset is not None, rid
    return module_plan.build(compiled.ruleset)


def mismatched_functions(plan: module_plan.ModulePlan, rid: str, module_js: Path) -> set[str]:
    """The functions whose answers or errors differ from the Python module's (seed 37)."""
    return {query["function"] for query, _, _ in mismatches(plan, rid, module_js, seed=37)}


def test_same_answers_are_equal_numbers_words_and_errors_but_a_bool_is_no_number() -> None:
    """js_queries.same, as the differential tests compare: JSON's 1 is Python's 1.0 and NaN is
    NaN, but true is not 1, "1" is not 1 and a list is not a dict."""
    nan = float("nan")
    for a, b in [(1, 1.0), (nan, nan), ([1, "a"], [1.0, "a"]), ({"x": [nan]}, {"x": [nan]})]:
        assert js_queries.same(a, b) and js_queries.same(b, a), (a, b)
    for a, b in [(True, 1), (False, 0), ("1", 1), ([True], [1]), ([1], [1, 1]), ([], {})]:
        assert not js_queries.same(a, b) and not js_queries.same(b, a), (a, b)
    assert js_queries.same(None, None) and not js_queries.same(None, 0)


def test_more_draws_of_one_kind_of_question_change_no_other_kinds_questions(
    plans: dict[str, module_plan.ModulePlan], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each kind of question draws from a generator of its own: lookups that draw more (or
    are asked more) leave every other question as it was, so a named test tuned to one
    kind's draws holds whatever another kind's generator does."""
    plan = plans["hex_operational"]
    before = js_queries.queries(plan, seed=37)
    kinds = js_queries.families()
    lookups = kinds["lookup"]

    def greedy(rng: Any, plan: module_plan.ModulePlan) -> list[js_queries.Query]:
        rng.random()
        return [*lookups(rng, plan), *lookups(rng, plan)]

    monkeypatch.setattr(js_queries, "families", lambda: {**kinds, "lookup": greedy})
    after = js_queries.queries(plan, seed=37)
    kept, now = ([q for q in qs if q["function"] != "lookup"] for qs in (before, after))
    common = min(len(kept), len(now))
    assert kept[:common] == now[:common] and common > 1000


@pytest.mark.parametrize("rid", IDS)
def test_js_and_python_modules_give_the_same_answers_and_errors(
    rid: str, node: str, plans: dict[str, module_plan.ModulePlan], packages: dict[str, Path]
) -> None:
    """At least 10,000 random questions (js_queries.QUERIES) of every function."""
    assert mismatches(plans[rid], rid, packages[rid], 37, js_queries.QUERIES)[:5] == []


def _snippets() -> dict[str, str]:
    """Rulesets of the tests of sight and results tables, for what no bundled ruleset has:
    sight by unit type and ``target inside``, ``blocks above``, a place that blocks alone,
    columns ``up to``/``above``, ``round up``, natural rolls ``at least`` and per column, a
    shift on doubles, d66."""
    from tests import test_dice_issue25 as issue25
    from tests import test_move_only as move_only
    from tests import test_place_precedence as place
    from tests import test_rolled_dice as rolled
    from tests import test_sight_above as above
    from tests import test_sight_and_results as sight
    from tests import test_sight_by_unit as by_unit

    return {
        "by_unit": by_unit.HEADER + by_unit.SIGHT,
        "above": sight.HEADER + above.ABOVE,
        "sight_crt": sight.HEADER + sight.SIGHT + sight.CRT,
        "rolled": rolled.HEADER + rolled.CRT + rolled.EFFECTS + rolled.D66,
        "wounds": issue25.HEADER + issue25.EFFECTS + issue25.WOUNDS,
        "round_up": issue25.HEADER + issue25.ODDS.replace("round down", "round up"),
        "place_precedence": place.HEADER + place.PLACES,
        "move_only": move_only.HEADER + move_only.MOVES,
    }


@pytest.mark.parametrize("name", sorted(_snippets()))
def test_js_sight_and_results_tables_match_python_beyond_the_bundled_rulesets(
    name: str, node: str, tmp_path: Path
) -> None:
    compiled = compile_snippet(Compiler(), _snippets()[name])
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    plan = module_plan.build(compiled.ruleset)
    python = import_rendered(compiled.ruleset, tmp_path, f"js_snippet_{name}")
    module = write_package(plan, tmp_path / "js")
    queries = js_queries.queries(plan, seed=37)
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    pairs = zip(queries, expected, got, strict=True)
    wrong = [(q, e, g) for q, e, g in pairs if not js_queries.same(e, g)]
    assert wrong[:5] == []


_RESULTS_DATA = """import { pathToFileURL } from "node:url";
const m = await import(pathToFileURL(process.argv[2]).href);
const data = Object.values(m.RESULTS_TABLES).map((t) => ({
  id: t.id, chances: t.chances, chancesWith: t.chancesWith, rows: t.rows,
  naturals: [...t.naturals], columns: t.columns.map((c) => [c.id, c.bound, c.value]),
}));
console.log(JSON.stringify(data));
"""


def _results_data(python: Any) -> list[dict[str, Any]]:
    """The Python module's results tables as _RESULTS_DATA writes the JavaScript module's."""

    def chances(by_column: Any) -> dict[str, Any]:
        return {
            c: {o: {"numerator": f.numerator, "denominator": f.denominator} for o, f in fs.items()}
            for c, fs in by_column.items()
        }

    return [
        {
            "id": t.id,
            "chances": chances(t.chances),
            "chancesWith": {m: chances(cs) for m, cs in t.chances_with.items()},
            "rows": [[low, high, list(outcomes)] for low, high, outcomes in t.rows],
            "naturals": [list(n) for n in t.naturals.items()],
            "columns": [[c.id, c.bound, c.value] for c in t.columns],
        }
        for t in python.RESULTS_TABLES.values()
    ]


@pytest.mark.parametrize("name", ["hex_operational", "sight_crt", "rolled", "wounds"])
def test_js_results_tables_carry_the_python_modules_chances(
    name: str, node: str, bundled: dict[str, ir.Ruleset], tmp_path: Path
) -> None:
    """Every results table's exact chances per column, alone and per modifier, its rows,
    natural rolls and columns, as the Python module holds them (the chances that ``roll``
    does not answer, and that the example vectors ask only a few of)."""
    text = _snippets().get(name)
    ruleset = compile_snippet(Compiler(), text).ruleset if text else bundled[name]
    assert ruleset is not None
    python = import_rendered(ruleset, tmp_path, f"js_chances_{name}")
    plan = module_plan.build(ruleset)
    module = write_package(plan, tmp_path / "js")
    (tmp_path / "data.mjs").write_text(_RESULTS_DATA, "utf-8")
    done = subprocess.run(
        [node, str(tmp_path / "data.mjs"), str(module)], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == _results_data(python) != []


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


def _break_sight_and_results(monkeypatch: pytest.MonkeyPatch, broken: str) -> None:
    """Break one part of the sight or results emitter or runtime, as ``broken`` names it."""
    match broken:
        case "sight emitter":  # `blocks at 2` written as `blocks above 2`
            real_rule = js_sight.sight_rule_js
            monkeypatch.setattr(
                js_sight,
                "sight_rule_js",
                lambda r: real_rule(dataclasses.replace(r, blocks_above=not r.blocks_above)),
            )
        case "results emitter":  # `round down` written as `round up`
            real_table = js_results.results_table_js
            monkeypatch.setattr(
                js_results,
                "results_table_js",
                lambda t: real_table(dataclasses.replace(t, rounding="up")),
            )
        case "sight runtime":  # a whole-map condition counted once per place, not per line
            text = js_sight.runtime_sight().replace("new Set(line)", "line")
            monkeypatch.setattr(js_target, "runtime_sight", lambda: text)
        case "results runtime":  # the natural roll's outcome ignored
            real_runtime = js_results.runtime_results
            monkeypatch.setattr(
                js_target,
                "runtime_results",
                lambda plan: real_runtime(plan).replace(
                    "else if (outcome !== undefined) return", "else if (outcome === null) return"
                ),
            )


@pytest.mark.parametrize(
    "broken", ["sight emitter", "results emitter", "sight runtime", "results runtime"]
)
def test_differential_test_sees_a_broken_sight_or_results_target(
    broken: str,
    node: str,
    plans: dict[str, module_plan.ModulePlan],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """hex_operational's line of sight (``blocks at 2``, whole-map fog) and combat results
    table (``round down``, a natural 6) are asked wrongly by a JavaScript module built with
    ``broken`` broken on purpose: the differential test sees it."""
    _break_sight_and_results(monkeypatch, broken)
    plan = plans["hex_operational"]
    module = write_package(plan, tmp_path / "hex_operational")
    assert mismatches(plan, "hex_operational", module, seed=37)


# ---- the target, the declarations, the docs -----------------------------------------------------


def test_js_target_is_registered_and_on_by_default() -> None:
    assert [t.name for t in targets.chosen()] == ["python", "js"]
    assert [t.name for t in targets.chosen(["js"])] == ["js"]
    assert [t.name for t in targets.chosen(["python"])] == ["python"]
    assert targets.JS in targets.TARGETS and targets.JS.folder == "js"


_RARE = (
    "arithmetic",
    "best_groups",
    "costs",
    "dice_issue25",
    "effects",
    "examples",
    "facing",
    "given_inputs",
    "input_defaults",
    "keyword_precedence",
    "maps",
    "modifier_policies",
    "module_fast_paths",
    "moves",
    "plan_code",
    "precedence_fix",
    "rolled_dice",
    "route_allowance",
    "route_cost_fast",
    "runtime_errors",
    "sight_above",
    "sight_and_results",
    "sight_by_unit",
    "sight_crossed",
)
"""Test files whose small rulesets exercise rare constructs (facing, maps, d66, natural
rolls, best groups, given inputs, sight above or by unit, ...)."""


def _small_rulesets(compiler: Compiler) -> Iterator[tuple[str, Any]]:
    """Every diagnostic-free ruleset among the module-level texts of the :data:`_RARE` test
    files: a text that starts with ``ruleset``, or the file's ``HEADER`` followed by a text."""
    import importlib

    for name in _RARE:
        texts = {
            k: v
            for k, v in vars(importlib.import_module(f"tests.test_{name}")).items()
            if k.isupper() and isinstance(v, str) and "\n" in v
        }
        header = texts.pop("HEADER", "")
        candidates = {"HEADER": header} if header else {}
        for k, v in texts.items():
            candidates[k] = v if v.lstrip().startswith("ruleset") else header + v
        for k, text in candidates.items():
            compiled = compile_snippet(compiler, text)
            if compiled.ok and compiled.ruleset is not None and not compiled.diagnostics:
                yield f"{name}.{k}", compiled.ruleset


def test_every_ruleset_that_builds_a_python_module_builds_a_javascript_one(
    node: str, bundled: dict[str, ir.Ruleset], tmp_path: Path
) -> None:
    """Every bundled ruleset and every small ruleset of the tests of rare constructs builds,
    beside its Python module, a JavaScript package that Node imports."""
    rulesets = [*bundled.items(), *_small_rulesets(Compiler())]
    assert len(rulesets) > len(IDS) + 30
    modules = []
    for i, (name, ruleset) in enumerate(rulesets):
        assert ruleset is not None, name
        assert f"{ruleset.id}.py" in targets.PYTHON.outputs(ruleset), name
        js = targets.JS.outputs(ruleset)
        assert js.keys() == {f"{ruleset.id}/{ruleset.id}{s}" for s in (".js", ".d.ts")} | {
            f"{ruleset.id}/package.json"
        }, name
        for rel, text in js.items():
            (tmp_path / str(i) / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / str(i) / rel).write_bytes(bytes(text))
        modules.append((name, (tmp_path / str(i) / ruleset.id / f"{ruleset.id}.js").as_uri()))
    script = "".join(
        f"await import({json.dumps(uri)}).catch((e) => console.log({json.dumps(name)}, e));\n"
        for name, uri in modules
    )
    (tmp_path / "all.mjs").write_text(script, "utf-8")
    done = subprocess.run([node, "all.mjs"], cwd=tmp_path, capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_js_package_is_deterministic_and_names_its_ruleset(
    plans: dict[str, module_plan.ModulePlan],
) -> None:
    plan = plans["heavy_gear"]
    files = js_target.emit(plan)
    assert files == js_target.emit(plan)
    package = json.loads(files["package.json"])
    assert package["types"] == "./heavy_gear.d.ts" and package["type"] == "module"
    assert package["exports"]["."]["default"] == "./heavy_gear.js"


MISSPELT = {
    'lookup("setup", "open_lane")': 'lookup("setup", "open_lame")',
    "climb(1.5)": 'climb("1.5")',
}
"""Two mistakes a consumer can make, each a type error (a misspelt row, a string for a number)."""


@typescript.TSC
def test_declarations_type_check_a_consumer(
    node: str, plans: dict[str, module_plan.ModulePlan], tmp_path: Path, pytestconfig: Any
) -> None:
    """The consumer type-checks; the ``tsc`` command and the one kept running for the suite
    (tests/typescript.py) report the same errors, in the same words, with the same exit
    status, for the consumer and a copy of it with mistakes (MISSPELT) in another folder."""
    write_package(plans["heavy_gear"], tmp_path)
    write_package(plans["hex_operational"], tmp_path / "hex_operational")  # results tables
    consumer = (TESTS_JS / "consumer.ts").read_text("utf-8")
    (tmp_path / "consumer.ts").write_text(consumer, "utf-8")
    wrong = consumer.replace('from "./', 'from "../')
    for right, mistake in MISSPELT.items():
        assert right in wrong
        wrong = wrong.replace(right, mistake)
    (tmp_path / "wrong").mkdir()
    (tmp_path / "wrong" / "consumer.ts").write_text(wrong, "utf-8")
    args = [*TSC_STRICT, "consumer.ts", "wrong/consumer.ts"]
    done = typescript.tsc(pytestconfig, args, tmp_path, cli=True)
    errors = [line for line in done.stdout.splitlines() if not line.startswith(" ")]
    assert [e.split("(")[0] for e in errors] == ["wrong/consumer.ts"] * len(MISSPELT), done
    kept = typescript.tsc(pytestconfig, args, tmp_path)
    assert (kept.returncode, kept.stdout) == (done.returncode, done.stdout) != (0, "")


def doc_blocks() -> Iterator[tuple[str, str]]:
    """The ```js blocks of docs/module-api-js.md: (the file a comment above names, code)."""
    text = DOC.read_text("utf-8")
    for m in re.finditer(r"<!-- file: (\S+) -->\n```js\n(.*?)^```$", text, re.M | re.S):
        yield m.group(1), m.group(2)


def test_docs_js_examples_run_in_node(
    node: str, plans: dict[str, module_plan.ModulePlan], tmp_path: Path
) -> None:
    """Each example is written where its comment says, beside the heavy_gear and
    hex_operational packages; a ``// prints: x`` comment is a line it must print. The Foundry
    module's script is loaded with Foundry's ``Hooks`` and ``ui`` stood in for, and its
    ``ready`` hook fired."""
    write_package(plans["heavy_gear"], tmp_path / "heavy_gear")
    write_package(plans["hex_operational"], tmp_path / "hex_operational")
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
