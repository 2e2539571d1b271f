"""Each CLI verb imports only what it uses: no JSON Schema, YAML, Jinja or WeasyPrint for a
check, no WeasyPrint for a build whose PDFs are current, no other verb's module."""

from __future__ import annotations

import argparse
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.commands import VERBS, registrar
from tests.conftest import ROOT

HEAVY = (
    "jinja2",
    "yaml",
    "jsonschema",
    "weasyprint",
    "rulesdsl.ir.schema",
    *(f"rulesdsl.commands.{verb}" for verb in VERBS),
)


def imported_after(*argv: str, watched: tuple[str, ...] = HEAVY) -> list[str]:
    """Which of ``watched`` a fresh interpreter has imported after `rulesdsl ARGV` returned."""
    held = _imported(argv)
    return [m for m in watched if m in held]


CHECK_RUN = pytest.mark.xdist_group("cli_imports_check")
"""The tests reading `check heavy_gear`'s modules: one worker, one process."""


@functools.cache
def _imported(argv: tuple[str, ...]) -> frozenset[str]:
    """Every module a fresh interpreter holds after `rulesdsl ARGV` returned: one process per
    command line, shared by the tests that watch other modules of it (four read `check`'s)."""
    code = (
        f"import sys; from rulesdsl.commands.cli import main; code = main({list(argv)!r}); "
        f"import json; print(json.dumps([code, list(sys.modules)]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    status, modules = json.loads(result.stdout.splitlines()[-1])
    assert status == 0, result.stderr
    return frozenset(modules)


@CHECK_RUN
def test_check_imports_no_schema_yaml_templates_or_pdf() -> None:
    assert imported_after("check", "rulesets/heavy_gear.terrain") == ["rulesdsl.commands.check"]


BUILDER = (
    "rulesdsl.builder.build",
    "rulesdsl.builder.manifest",
    "rulesdsl.builder.transaction",
    "rulesdsl.builder.lock",
    "rulesdsl.outputs",
    "rulesdsl.codegen.targets",
)


@CHECK_RUN
def test_check_imports_none_of_the_builder() -> None:
    """`check` says E102 through rulesdsl.builder.ids alone: the builder's manifest, lock,
    transaction and outputs were ~11 ms of its start-up (issue 44)."""
    assert imported_after("check", "rulesets/heavy_gear.terrain", watched=BUILDER) == []


@CHECK_RUN
def test_check_of_a_file_in_the_current_edition_imports_no_migration() -> None:
    """W112 (a newer edition would change answers) is for a file of an older edition: its
    module and the answers it compares were ~2-5 ms of a check's start-up (issue 44)."""
    watched = ("rulesdsl.versions.migration", "rulesdsl.versions.answers")
    assert imported_after("check", "rulesets/heavy_gear.terrain", watched=watched) == []


@CHECK_RUN
def test_check_of_a_file_without_errors_imports_no_difflib() -> None:
    """The close names of a did-you-mean hint are for a file with a wrong name: difflib (and
    the heapq it brings) were ~2 ms of a check's start-up (issue 44)."""
    assert imported_after("check", "rulesets/heavy_gear.terrain", watched=("difflib",)) == []


def test_build_check_of_a_current_tree_never_imports_weasyprint_yaml_or_jsonschema() -> None:
    modules = imported_after("build", "--check")
    assert not {"weasyprint", "yaml", "jsonschema", "rulesdsl.ir.schema"} & set(modules)
    assert [m for m in modules if m.startswith("rulesdsl.commands.")] == ["rulesdsl.commands.build"]


def test_an_html_sheet_never_imports_weasyprint(tmp_path: Path) -> None:
    modules = imported_after("sheet", "heavy_gear", "-o", str(tmp_path / "hg.html"))
    assert "weasyprint" not in modules
    assert (tmp_path / "hg.html").read_text("utf-8").startswith("<!DOCTYPE html>")


def test_a_verb_of_its_own_module_imports_that_module_only() -> None:
    modules = imported_after("fmt", "--check", "rulesets/heavy_gear.terrain")
    assert [m for m in modules if m.startswith("rulesdsl.commands.")] == ["rulesdsl.commands.fmt"]


@pytest.mark.parametrize("verb", list(VERBS))
def test_the_help_line_listed_for_a_verb_is_the_one_its_module_registers(verb: str) -> None:
    parser = argparse.ArgumentParser(prog="rulesdsl")
    verbs = parser.add_subparsers()
    registrar(verb)(verbs)
    [action] = verbs._choices_actions
    assert (action.dest, action.help) == (verb, VERBS[verb])


def test_the_program_leaves_its_objects_to_the_exit_not_to_a_last_collection() -> None:
    """Run as the program (its own command line), `rulesdsl` freezes what it holds before
    the process exits: the collector's pass over every object at shutdown was ~13 % of a
    `check heavy_gear` (issue 44)."""
    code = (
        "import gc, runpy, sys; sys.argv = ['rulesdsl', 'check', 'rulesets/heavy_gear.terrain']\n"
        "try:\n    runpy.run_module('rulesdsl', run_name='__main__')\n"
        "except SystemExit as exc:\n    print(exc.code, gc.get_freeze_count() > 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["0", "True"], done.stderr[-2000:]


def test_a_caller_of_main_keeps_its_collector_as_it_was() -> None:
    """Given its arguments by a caller (a test, a script), `main` freezes nothing: the
    caller's process goes on, and its garbage must still be collected."""
    code = (
        "import gc; from rulesdsl.commands.cli import main\n"
        "print(main(['check', 'rulesets/heavy_gear.terrain']), gc.get_freeze_count())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["0", "0"], done.stderr[-2000:]
