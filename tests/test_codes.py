"""One bad input per diagnostic code of the checks stage, each with its code, line and column,
and a guard that every code the compiler can raise is raised by some test."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from rulesdsl.checks import names
from rulesdsl.compiler import Compiler
from rulesdsl.diagnostics import CODES
from rulesdsl.frontends.syntax import Pos
from rulesdsl.positions import Positions
from tests.conftest import compile_snippet
from tests.source_trees import PACKAGE_TREES

HEADER = """ruleset demo "Demo"
version 1.0.0
units distance in, cost MP
mode walker "Walker"
"""
HEADER_LINES = HEADER.count("\n")

CORPUS: list[tuple[str, str, int, int]] = [
    # (code, body after the header, line in the body, column)
    ("E007", 'mode tank "' + "x" * 20_001 + '"\n', 1, 6),
    ("E202", 'step s "S" (x in) -> points : +1 per full 0.0000001 in\n', 1, 43),
    ("E202", 'grid g "G" : 0 m, diagonals 1\n', 1, 14),
    ("E202", 'decision d "D" (x in) {\n  x / 0 > 1 -> a "A"\n  otherwise -> b "B"\n}\n', 2, 3),
    ("E207", 'table t "T" {\n  span "Span" | 5-2 in\n}\n', 2, 17),
    ("E207", 'dice fx "FX" : 2d6 {\n  2-12 all "All"\n  9-3 odd "Odd"\n}\n', 3, 3),
    ("E208", 'table t "T" {\n  a "A" | 1, walker 2\n}\n', 2, 11),
    ("E208", 'dice fx "FX" : 1d6 {\n  1-6 all "All" | 3\n}\n', 2, 19),
    ("E209", 'dice fx "FX" : 1d6 {\n  modifier m "M" +1.5\n  1+ all "All"\n}\n', 2, 3),
    ("E209", 'dice fx "FX" : 1d6 {\n  1-6 all "All"\n}\ntrigger t "T" : roll fx times 0\n', 4, 9),
    ("E209", 'grid g "G" : 1.5 m, diagonals 0\n', 1, 6),
    ("E210", 'decision d "D" (h bool) {\n  h > 1 -> a "A"\n  otherwise -> b "B"\n}\n', 2, 3),
    (
        "E211",
        'table t "T" {\n  a "A" | 1\n}\ndecision d "D" (k t, x in) {\n'
        '  x > t[x] -> a "A"\n  otherwise -> b "B"\n}\n',
        5,
        9,
    ),
    ("E212", 'layer l "L" {\n  big "Big" | 100000000000000000000\n}\n', 2, 15),
    (
        "E212",
        'dice fx "FX" : 2d6 {\n  modifier m "M" -100000000000000\n  3- low "Low"\n'
        '  4+ high "High"\n}\n',
        2,
        12,
    ),
    ("E304", 'dice fx "FX" : 0d6 {\n  1+ all "All"\n}\n', 1, 16),
    ("E213", 'layer l "L" {\n  road "Road" | -3\n}\n', 2, 17),
]


def located(compiler: Compiler, text: str) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, text)
    return [
        (d.code, d.pos.line, d.pos.column)
        for d in compiled.diagnostics
        if d.is_error and d.pos is not None
    ]


@pytest.mark.parametrize(
    ("code", "text", "line", "column"), CORPUS, ids=[f"{c[0]}-{i}" for i, c in enumerate(CORPUS)]
)
def test_each_bad_input_gets_its_code_at_its_place(
    compiler: Compiler, code: str, text: str, line: int, column: int
) -> None:
    assert located(compiler, HEADER + text) == [(code, HEADER_LINES + line, column)]


def test_a_label_missing_in_a_declared_language_is_w101(compiler: Compiler) -> None:
    text = HEADER.replace("version 1.0.0", "version 1.0.0\nlanguages en fr")
    compiled = compile_snippet(compiler, text)
    assert compiled.ok
    assert [(d.code, d.pos and d.pos.line) for d in compiled.diagnostics] == [
        ("W101", 1),
        ("W101", 5),
    ]


def test_a_malformed_version_is_e111_for_any_front_end(compiler: Compiler) -> None:
    ruleset = compile_snippet(compiler, HEADER).ruleset
    assert ruleset is not None
    broken = dataclasses.replace(ruleset, version="1.0")
    assert [d.code for d in names.check(broken, Positions(Pos("x", 1, 1, 1, 1)))] == ["E111"]


def test_every_code_is_raised_by_some_test() -> None:
    """Each code in CODES appears in an assertion of some test module."""
    tests = Path(__file__).resolve().parent
    text = "\n".join(p.read_text("utf-8") for p in sorted(tests.glob("test_*.py")))
    tested = set(re.findall(r"""["'(]([EW]\d{3})["',)]""", text))
    assert sorted(set(CODES) - tested) == []


@pytest.mark.parametrize(
    ("code", "text", "line", "column"), CORPUS, ids=[f"{c[0]}-{i}" for i, c in enumerate(CORPUS)]
)
def test_each_bad_input_gets_the_same_code_through_the_yaml_front_end(
    compiler: Compiler, tmp_path: Path, code: str, text: str, line: int, column: int
) -> None:
    """The YAML authoring twin of each bad input gets the same diagnostic, at a place in the
    YAML file (its line and column, not 1:1): both front ends share the checks."""
    from rulesdsl.frontends.dsl import Parser
    from rulesdsl.interchange.convert import to_yaml

    source, syntax = Parser().parse(HEADER + text, "bad.terrain")
    assert source is not None and not syntax
    path = tmp_path / "bad.yaml"
    yaml_text = to_yaml(source)
    path.write_text(yaml_text, "utf-8")
    found = [d for d in Compiler().compile_file(path).diagnostics if d.is_error]
    assert [d.code for d in found] == [code]
    [diag] = found
    assert diag.pos is not None and diag.pos.file == str(path)
    assert (diag.pos.line, diag.pos.column) != (1, 1)
    assert yaml_text.splitlines()[diag.pos.line - 1].strip()  # a line of the YAML file


STAGE_FOLDERS = {
    "front end": ("frontends/", "compiler.py", "sources.py"),
    "resolve": ("variants/",),
    "lower": ("lowering/",),
    "checks": ("checks/",),
    "tools": (
        "builder/",
        "versions/",
        "interchange/",
        "editor/",
        "commands/",
    ),
}
"""Where each stage's modules are."""

ALSO: dict[str, set[str]] = {
    # a fault another stage finds too, about its own input
    "E001": {"tools"},  # a CSV chart's cell parsed with the grammar
    "E003": {"tools"},  # a CSV chart's cell over the chart reader's limit
    "E004": {"tools"},  # a control character in a CSV chart's label or note
    "E101": {"resolve", "tools"},  # an override path's item; a CSV chart's mode
    "E102": {"tools"},  # two rulesets writing one output; a converted file's duplicate
    "E110": {"resolve"},  # a variant's header
    "E111": {"resolve"},  # an `extends` requirement
    "E201": {"resolve"},  # an override written in the wrong form
    "E204": {"tools"},  # a CSV chart row's width
    "E212": {"front end"},  # a number the parser cannot read
}
"""Codes raised outside their owner's modules, and by which other stages."""


def _raised() -> dict[str, set[str]]:
    """Each code -> the stages whose modules pass it to a call (``error("E206", ...)``) or
    hold it in a code table's values (``{CUT: ("W700", "E700")}``); the name patterns' codes
    (``ir.IDENT`` ...) are raised by the checks' names pass."""
    import ast

    from rulesdsl import ir
    from tests.source_trees import PACKAGE, package

    found: dict[str, set[str]] = {p.code: {"checks"} for p in (ir.IDENT, ir.LANG, ir.SEMVER)}
    for path, source in package().items():
        name = path.relative_to(PACKAGE).as_posix()
        stages = [s for s, where in STAGE_FOLDERS.items() if name.startswith(where)]
        if not stages:
            continue
        for node in source.nodes:
            values: list[ast.expr] = []
            if isinstance(node, ast.Call):
                values = [*node.args, *(k.value for k in node.keywords)]
            elif isinstance(node, ast.Dict):
                values = [
                    e for v in node.values for e in (v.elts if isinstance(v, ast.Tuple) else [v])
                ]
            for arg in values:
                if isinstance(arg, ast.Constant) and re.fullmatch(r"[EW]\d{3}", str(arg.value)):
                    found.setdefault(str(arg.value), set()).update(stages)
    return found


def test_every_code_has_one_owning_stage() -> None:
    from rulesdsl.diagnostics import STAGE_OF

    assert sorted(STAGE_OF) == sorted(CODES)


@PACKAGE_TREES
def test_each_code_is_raised_by_its_owner_and_otherwise_only_where_listed() -> None:
    from rulesdsl.diagnostics import STAGE_OF

    raised = _raised()
    wrong = {
        code: sorted(raised.get(code, set()))
        for code, owner in STAGE_OF.items()
        if owner not in raised.get(code, set())
        or raised.get(code, set()) - {owner} - ALSO.get(code, set())
    }
    assert wrong == {}
