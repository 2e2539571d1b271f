"""The examples in docs/ and README are run against the bundled rulesets' modules, compiled
afresh from rulesets/ (not read from generated/), so a page that shows an answer the module
does not give fails here: every ```pycon block of docs/ is a doctest, and README's ```python
blocks run with each commented call checked against its comment.

The blocks of one page share their names, in order, as a reader's session would; a ```python
block of docs/module-api.md holds only signatures, so every example there is a ```pycon block.
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT, bundled, import_rendered

DOCS = ROOT / "docs"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
IMPORTED = re.compile(r"^>>> (?:import (\w+)|from (\w+) import)", re.MULTILINE)


def blocks(page: Path, language: str) -> list[tuple[int, str]]:
    """The fenced blocks of ``language`` on ``page``: (line of the first code line, code)."""
    text = page.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, m.start(2)) + 1, m.group(2))
        for m in FENCE.finditer(text)
        if m.group(1) == language
    ]


PAGES = sorted(page for page in DOCS.rglob("*.md") if blocks(page, "pycon"))


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every bundled ruleset a page imports, compiled and importable by its id."""
    names = sorted(
        {
            a or b
            for page in PAGES
            for _, code in blocks(page, "pycon")
            for a, b in IMPORTED.findall(code)
        }
    )
    folder = tmp_path_factory.mktemp("docs_modules")
    for name in names:
        compiled = bundled(name)
        assert compiled.ruleset is not None, (name, [d.message for d in compiled.diagnostics])
        import_rendered(compiled.ruleset, folder, name)
    yield
    for name in names:
        sys.modules.pop(name, None)


def test_the_docs_have_examples_to_run() -> None:
    assert DOCS / "module-api.md" in PAGES


@pytest.mark.usefixtures("modules")
@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_every_example_on_the_page_gives_the_answer_it_shows(page: Path) -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    globs: dict[str, object] = {}
    report: list[str] = []
    for line, code in blocks(page, "pycon"):
        test = parser.get_doctest(code, globs, f"{page.name}:{line}", str(page), line - 1)
        runner.run(test, out=report.append, clear_globs=False)
        globs = test.globs  # the next block sees this one's names (DocTest copies its globs)
    assert runner.failures == 0, "".join(report)
    assert runner.tries > 0


def test_module_api_python_blocks_are_signatures_only() -> None:
    """A ```python block is a signature (`name(args) -> type`); examples go in ```pycon."""
    signature = re.compile(r"^\w+\(.*\) -> .+$")
    for line, code in blocks(DOCS / "module-api.md", "python"):
        for offset, text in enumerate(code.splitlines()):
            assert signature.match(text), f"docs/module-api.md:{line + offset}: {text}"


def test_every_test_the_readings_name_exists() -> None:
    """docs/sources/readings.md names, for each reading, the test that checks it: those tests
    exist (a renamed or removed test would leave the page pointing at nothing)."""
    named = set(re.findall(r"`(test_\w+)`", (DOCS / "sources" / "readings.md").read_text("utf-8")))
    defined = {
        name
        for path in (ROOT / "tests").glob("test_*.py")
        for name in re.findall(r"^def (test_\w+)", path.read_text("utf-8"), re.MULTILINE)
    }
    assert named, "readings.md names no test"
    assert sorted(named - defined) == []


README = ROOT / "README.md"
RAISED = re.compile(r"([A-Z]\w*(?:Error|Name|Argument)): ")
"""A comment such as ``# UnknownName: ... did you mean 'walker'?``: the call raises that."""
ANSWER = re.compile(r"[^\s:]+")
"""The answer a comment starts with: ``# 9 (MP)``, ``# -1: clamped``, ``# IMPASSABLE``."""


def fenced(page: Path) -> list[tuple[int, str, str]]:
    """Every fenced block of ``page`` in order: (line of its first code line, language, code)."""
    text = page.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, m.start(2)) + 1, m.group(1), m.group(2)) for m in FENCE.finditer(text)
    ]


@pytest.fixture(scope="module")
def readme_modules(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The bundled rulesets README's examples import, compiled afresh and importable."""
    code = "".join(c for _, language, c in fenced(README) if language == "python")
    names = sorted(set(re.findall(r"^import (\w+)", code, re.MULTILINE)))
    folder = tmp_path_factory.mktemp("readme_modules")
    for name in names:
        compiled = bundled(name)
        assert compiled.ruleset is not None, (name, [d.message for d in compiled.diagnostics])
        import_rendered(compiled.ruleset, folder, name)
    yield
    for name in names:
        sys.modules.pop(name, None)


def _shows(answer: object, comment: str, shown: str) -> bool:
    """Whether a comment shows ``answer``: its repr in full, or its first word (a number
    compared as a number: ``# 9`` shows 9.0)."""
    if repr(answer) == comment or str(answer) == shown:
        return True
    try:
        return isinstance(answer, int | float) and answer == float(shown)
    except ValueError:
        return False


def _run_block(code: str, where: str) -> str:
    """Run a README block statement by statement; an expression with a trailing comment must
    give the answer the comment starts with (or raise the error it names). Returns what the
    block printed."""
    lines = code.splitlines()
    namespace: dict[str, object] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for stmt in ast.parse(code).body:
            assert stmt.end_lineno is not None
            comment = lines[stmt.end_lineno - 1].partition("  # ")[2]
            at = f"{where}+{stmt.lineno - 1}"
            if not (isinstance(stmt, ast.Expr) and comment):
                exec(compile(ast.Module([stmt], []), at, "exec"), namespace)
                continue
            expression = compile(ast.Expression(stmt.value), at, "eval")
            raised = RAISED.match(comment)
            if raised:
                with pytest.raises(Exception) as info:
                    eval(expression, namespace)
                assert type(info.value).__name__ == raised.group(1), at
                continue
            answer = eval(expression, namespace)
            shown = ANSWER.match(comment)
            assert shown is not None, at
            assert _shows(answer, comment, shown.group(0)), (at, answer)
    return printed.getvalue()


@pytest.mark.usefixtures("readme_modules")
def test_every_readme_example_gives_the_answers_it_shows() -> None:
    """README's ```python blocks run against the bundled modules: each commented call gives
    the answer its comment shows, and a block followed by a ```text block prints exactly it."""
    found = fenced(README)
    ran = 0
    for index, (line, language, code) in enumerate(found):
        if language != "python" or not re.search(r"^import \w+", code, re.MULTILINE):
            continue
        printed = _run_block(code, f"README.md:{line}")
        following = found[index + 1] if index + 1 < len(found) else None
        if following is not None and following[1] == "text":
            assert printed == following[2], f"README.md:{following[0]}"
        ran += 1
    assert ran >= 3  # heavy_gear, hex_operational, skirmish_keywords
