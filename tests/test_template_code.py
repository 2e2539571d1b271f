"""rulesdsl.codegen.template_code: the emitters' Jinja templates are compiled once and kept
between runs (issue 44, every process that writes a module), each giving what Jinja's own
compile gives."""

from __future__ import annotations

import sys
from pathlib import Path

import jinja2
import pytest

from rulesdsl.codegen import template_code
from rulesdsl.codegen.python import _environment
from rulesdsl.ir import records

TEMPLATE = "{% for row in rows %}{{ row | upper }}{% if not loop.last %}, {% endif %}{% endfor %}\n"


def _fresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str = TEMPLATE, **options: bool
) -> jinja2.Environment:
    """A new process's environment: no template loaded yet, the cache read from ``tmp_path``."""
    cache = records._CodeCache(tmp_path / "templates", template_code._CACHE.magic)
    monkeypatch.setattr(template_code, "_CACHE", cache)
    return jinja2.Environment(
        loader=jinja2.DictLoader({"rows.txt.j2": text}),
        bytecode_cache=template_code.TemplateCode(),
        **options,
    )


def test_a_template_is_run_from_the_cache_in_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    first = _fresh(tmp_path, monkeypatch).get_template("rows.txt.j2")
    assert first.render(rows=["a", "b"]) == "A, B"
    template_code._CACHE.save()  # as at the first run's exit

    def no_compile(*_: object, **__: object) -> None:
        raise AssertionError("compiled again")

    later = _fresh(tmp_path, monkeypatch)
    monkeypatch.setattr(later, "compile", no_compile)
    assert later.get_template("rows.txt.j2").render(rows=["c", "d"]) == "C, D"


def test_another_text_or_other_options_or_a_damaged_entry_is_compiled_by_jinja(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    _fresh(tmp_path, monkeypatch).get_template("rows.txt.j2")
    template_code._CACHE.save()
    edited = _fresh(tmp_path, monkeypatch, TEMPLATE.replace("upper", "lower"))
    assert edited.get_template("rows.txt.j2").render(rows=["A"]) == "a"
    trimmed = _fresh(tmp_path, monkeypatch, keep_trailing_newline=True)
    assert trimmed.get_template("rows.txt.j2").render(rows=["a"]) == "A\n"
    damaged = _fresh(tmp_path, monkeypatch)
    for key in list(template_code._CACHE.load()):
        template_code._CACHE.load()[key] = b"not code"
    assert damaged.get_template("rows.txt.j2").render(rows=["a"]) == "A"


def test_every_environment_of_the_package_keeps_its_templates_code() -> None:
    """The Python module's templates, and the sheets', the decks' and the web page's: each
    process that renders one compiled them anew (about 140 ms of CPU for the four printed
    and web templates, 2 ms once kept)."""
    from rulesdsl.printed import cards, sheets
    from rulesdsl.web import page

    environments = [
        _environment(),
        sheets._environment(True),
        sheets._environment(False),
        cards._environment(),
        page._environment(),
    ]
    for env in environments:
        assert isinstance(env.bytecode_cache, template_code.TemplateCode)
