"""Fuzz: any ruleset, valid or with faults injected, in the DSL or in YAML, goes through every
CLI verb without a traceback, and every module a build makes imports in a clean interpreter
and answers its questions with nothing but its documented errors.

The inputs come from dev/fuzzgen.py, driven by Hypothesis (``st.randoms()``): a small
ruleset made of the grammar's constructs (modes, layers, steps, decisions, tables, dice
tables, triggers, modifiers, exclusions, parameters), then 0 to 3 faults (a hostile number,
name, string or dice expression, a line deleted, doubled, swapped or cut, a stray byte or
statement); the YAML inputs are the `rulesdsl convert` twins of those rulesets with faults
put into the YAML tree. The run here is small; dev/fuzz.py is the long run. The builds render
PDFs only under ``--layout-matrix`` (README's command): see :func:`without_pdfs`.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dev import fuzz, fuzzgen
from rulesdsl import extras

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "dev" / "module_driver.py"


def run_every_verb(case: fuzzgen.Case, work: Path) -> dict[str, int]:
    """Each verb's exit status; an exception out of ``rulesdsl.commands.cli.main`` (what the console
    script would print as a traceback) fails the test with the input attached."""
    rulesets = work / "rulesets"
    rulesets.mkdir()
    path = rulesets / case.filename
    path.write_text(case.text, "utf-8", errors="surrogatepass")
    base = work / "base.terrain"
    base.write_text(fuzzgen.ruleset(random.Random(0)), "utf-8")
    codes = {}
    for verb, argv in fuzz.verbs(path, base, work / "out", pdf=True):
        try:
            code, _, err = fuzz._cli(argv)
        except BaseException as exc:  # the console script would show a traceback
            raise AssertionError(f"`rulesdsl {verb}` raised on {case.how}:\n{case.text}") from exc
        assert code in fuzz.EXIT_CODES, (verb, code, case.text)
        assert "Traceback" not in err, (verb, err)
        codes[verb] = code
    return codes


def exercise_modules(out: Path) -> int:
    """Import each built module with `python -I` and ask it every question."""
    modules = sorted(
        p
        for p in ((out / "python").glob("*.py") if (out / "python").is_dir() else ())
        if not p.name.startswith("test_")  # the worked examples' replay, not a module
    )
    for module in modules:
        done = subprocess.run(
            [sys.executable, "-I", str(DRIVER), str(module)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Traceback" not in done.stderr
    return len(modules)


FUZZ = settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="module", autouse=True)
def without_pdfs(pytestconfig: pytest.Config) -> Iterator[None]:
    """Without ``--layout-matrix`` (README's command, CI), this module's builds go as where
    the ``pdf`` extra is not installed: they write everything but the PDFs and list them. The
    PDFs of the fuzzed rulesets were most of the fuzz test's CPU (issue 44); README's
    command renders them, as dev/fuzz.py's long run does every ``--pdf-every``-th input. A
    fixture, not a change to the test: Hypothesis seeds a derandomized test's draws from its
    source, and the inputs stay those of the test as it was."""
    if pytestconfig.getoption("--layout-matrix") or pytestconfig.getoption("--layout-matrix-full"):
        yield
        return
    has = extras.has
    with mock.patch.object(extras, "has", lambda extra: extra != "pdf" and has(extra)):
        yield


@pytest.mark.parametrize("front", ["terrain", "yaml"])
@FUZZ
@given(rng=st.randoms(use_true_random=False))
def test_every_verb_and_every_built_module_survive_fuzzed_rulesets(
    front: str, rng: random.Random
) -> None:
    case = fuzzgen.case(rng, front=front)
    assert case.suffix == f".{front}"
    with tempfile.TemporaryDirectory() as tmp:
        codes = run_every_verb(case, Path(tmp))
        built = exercise_modules(Path(tmp) / "out")
        # the ruleset and the house rule `new` wrote beside it, when they compile
        assert (built >= 1) == (codes["build"] == 0 and codes["check"] == 0)


def test_generated_rulesets_without_faults_build_modules_that_answer() -> None:
    """The generator's rulesets are valid before faults go in: check passes on both twins."""
    from rulesdsl.compiler import Compiler

    for seed in range(5):
        text = fuzzgen.ruleset(random.Random(seed))
        twin = fuzzgen.to_yaml(text)
        assert twin is not None
        for name, body in (("fz.terrain", text), ("fz.yaml", twin)):
            compiled = Compiler().compile_text(body, name)
            assert compiled.ok, [d.message for d in compiled.diagnostics if d.is_error]


def test_the_long_run_script_reports_its_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulesdsl.commands import cli
    from rulesdsl.frontends import dsl, yaml_authoring

    # fuzz.main shares these for the rest of its process: put them back after the test
    monkeypatch.setattr(cli, "make_parser", cli.make_parser)
    monkeypatch.setattr(dsl.Parser, "parse", dsl.Parser.parse)
    monkeypatch.setattr(yaml_authoring, "parse_yaml", yaml_authoring.parse_yaml)
    report = tmp_path / "report.json"
    code = fuzz.main(
        [
            "--inputs",
            "4",
            "--seed",
            "3",
            "--pdf-every",
            "0",
            "--progress",
            "0",
            "--report",
            str(report),
        ]
    )
    import json

    summary = json.loads(report.read_text("utf-8"))
    assert summary["inputs"] == 4
    assert code == (0 if summary["tracebacks"] == summary["hangs"] == 0 else 1)
    assert summary["groups"] == []
