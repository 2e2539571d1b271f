"""The web page of a decision that reads a modifier's total (issue 40): the decision's input
is the modifier's items to tick, and the answer is the JavaScript module's, the same as the
Python module's for every set of items; a house rule's new value is read, and its changed
sight threshold is listed in the page's language. No bundled ruleset has such a decision, so
the page is the one of the language guide's example (tests/test_modifier_total.py)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from rulesdsl.web import web_outputs
from tests import test_web_page as web
from tests.conftest import import_rendered
from tests.test_modifier_total import HEADER, ITEMS, SHOT, TO_HIT, _house
from tests.test_web_page import ask, axe_violations, evaluate, python_answer, visit

pytestmark = web.pytestmark
browser = web.browser
axe = web.axe

SKILLS = (2, 3, 4, 5)


def _pages(rs: ir.Ruleset, folder: Path) -> Path:
    """Writes the ruleset's page in each of its languages into ``folder`` (one
    ``web_outputs``, which makes them all) and returns ``folder``."""
    for path, html in web_outputs(rs).items():
        assert isinstance(html, bytes)
        (folder / Path(path).name).write_bytes(html)
    return folder


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Path]:
    """The language guide's example, compiled once, and the folder of its pages."""
    folder = tmp_path_factory.mktemp("totals")
    compiled = Compiler().compile_file(_write(folder))
    assert compiled.ruleset is not None
    return compiled.ruleset, _pages(compiled.ruleset, folder)


def _asked(rs: ir.Ruleset, folder: Path, browser: web.Browser) -> list[tuple[Any, Any]]:
    """Every set of items with each skill: the page's answer and the Python module's."""
    module = import_rendered(rs, folder, f"web_totals_{rs.id}")
    put, expected = [], []
    for n in range(len(ITEMS) + 1):
        for mods in itertools.combinations(ITEMS, n):
            for skill in SKILLS:
                boxes = [[f'[data-input="mods"][value="{i}"]', i in mods] for i in ITEMS]
                fields = [*boxes, ['[data-input="skill"]', skill]]
                put.append({"form": "decision-shot", "set": fields, "read": ["output.answer"]})
                answer = python_answer(module, lambda m=list(mods), s=skill: module.shot(m, s))
                expected.append([answer])
    visit(browser, folder / f"{rs.id}.en.html")
    return list(zip(ask(browser, put), expected, strict=True))


def test_the_page_answers_a_decision_on_the_ticked_items_as_the_python_module(
    demo: tuple[ir.Ruleset, Path], browser: web.Browser
) -> None:
    pairs = _asked(*demo, browser)
    assert len(pairs) == 8 * len(SKILLS)
    assert [a for a, e in pairs if a != e] == []
    assert {a[0]["outcome"] for a, _ in pairs} == {"hit", "miss"}


def test_a_house_rule_s_page_reads_the_new_value_of_a_ticked_item(
    tmp_path: Path, browser: web.Browser
) -> None:
    rs, errors = _house(tmp_path, "override smoke | -3\n")
    assert rs is not None and errors == []
    pairs = _asked(rs, _pages(rs, tmp_path), browser)
    assert [a for a, e in pairs if a != e] == []
    page = (tmp_path / "house.en.html").read_text("utf-8")
    assert 'value="smoke"> Smoke<span class="mark changed">' in page
    boxes = [[f'[data-input="mods"][value="{i}"]', i != "moving"] for i in ITEMS]
    shot = {"form": "decision-shot", "set": [*boxes, ['[data-input="skill"]', 5]]}
    [[shown]] = ask(browser, [{**shot, "read": ["output.answer"]}])
    assert shown == {"outcome": "miss"}  # 5 + 1 - 3 (the base's -2: a hit)


@pytest.mark.parametrize("lang", ["en", "fr", "de", "ru"])
def test_the_items_to_tick_are_named_in_the_page_s_language(
    demo: tuple[ir.Ruleset, Path], lang: str
) -> None:
    page = (demo[1] / f"demo.{lang}.html").read_text("utf-8")
    legend = {
        "en": "mods (total of To-hit)",
        "fr": "mods (total de Pour toucher)",
        "de": "mods (Summe aus Trefferwurf)",
        "ru": "mods (сумма «Попадание»)",
    }[lang]
    assert f"<fieldset><legend>{legend}</legend>" in page
    for item in ITEMS:
        assert f'data-input="mods" data-kind="items" value="{item}">' in page


def test_axe_core_finds_no_violation_on_the_items_to_tick(
    demo: tuple[ir.Ruleset, Path], browser: web.Browser, axe: str
) -> None:
    visit(browser, demo[1] / "demo.fr.html")
    evaluate(browser, axe + ";0")
    evaluate(browser, "document.querySelector('[data-input=mods]').click(); 0")
    assert axe_violations(browser) == []


def _write(folder: Path) -> Path:
    path = folder / "demo.terrain"
    path.write_text(HEADER + TO_HIT + SHOT, "utf-8")
    return path
