"""Tests for rulesdsl.printed.pdf: deterministic, multilingual HTML → PDF rendering."""

from __future__ import annotations

import builtins
import contextlib
import gc
import io
import os
import subprocess
import sys
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesdsl.gc_pause import gc_paused
from rulesdsl.printed import pdf
from rulesdsl.printed.pdf import PRODUCER, PdfUnavailable, render_pdf

ROOT = Path(__file__).resolve().parent.parent

SAMPLE_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Terrain quick reference</title>
  <meta name="dcterms.created" content="2021-03-04T05:06:07Z">
  <meta name="dcterms.modified" content="2022-03-04T05:06:07Z">
  <style>
    table { border-collapse: collapse; }
    td, th { border: 1px solid black; padding: 2pt 4pt; }
  </style>
</head>
<body>
  <h1>Terrain</h1>
  <table>
    <tr><th>Language</th><th>Terrain</th><th>Roll</th></tr>
    <tr><td>English</td><td>Light woods</td><td>2d6 &gt;= 8</td></tr>
    <tr><td>Français</td><td>Forêt légère, cœur</td><td>1d6+3</td></tr>
    <tr><td>Русский</td><td>Редкий лес</td><td>58.3 %</td></tr>
  </table>
</body>
</html>
"""

EXPECTED_TEXT = ["Light woods", "Forêt légère", "cœur", "Редкий лес"]


@pytest.fixture
def weasyprint() -> Any:
    return pytest.importorskip("weasyprint")


def _reader(pdf: bytes) -> Any:
    pypdf = pytest.importorskip("pypdf")
    return pypdf.PdfReader(io.BytesIO(pdf))


def _font_names(reader: Any) -> set[str]:
    return {
        str(font.get_object()["/BaseFont"])
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }


def test_render_is_byte_identical(weasyprint: Any) -> None:
    first = render_pdf(SAMPLE_HTML)
    second = render_pdf(SAMPLE_HTML)
    assert first.startswith(b"%PDF-")
    assert first == second


def test_a_render_lets_go_of_its_layout_before_the_collector_resumes(
    weasyprint: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The render holds the collector off; a layout still alive when it resumes would be moved
    to an older generation by the first collection and wait there, dead (hundreds of MB in a
    process that renders many documents). So when the paused block ends, nothing holds it."""
    documents: list[weakref.ref[Any]] = []
    alive_as_it_resumes: list[bool] = []
    lay_out = pdf._lay_out

    def kept(*args: Any) -> tuple[Any, Any]:
        document, losses = lay_out(*args)
        documents.append(weakref.ref(document))
        return document, losses

    @contextlib.contextmanager
    def paused() -> Iterator[None]:
        with gc_paused():
            yield
        gc.collect()  # whatever nothing holds goes now; what is held stays
        alive_as_it_resumes.extend(ref() is not None for ref in documents)

    monkeypatch.setattr(pdf, "_lay_out", kept)
    monkeypatch.setattr(pdf, "gc_paused", paused)
    render_pdf(SAMPLE_HTML)
    assert alive_as_it_resumes == [False]


def test_the_html_parser_builds_each_pattern_once(
    weasyprint: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """WeasyPrint's HTML parser (tinyhtml5) filed the pattern it scans a run of text or an
    attribute with where it never looked, so it built it again at every one: the renderer
    files it where it looks (pdf._mend_html_parser). Once a page is parsed, parsing it again
    builds no pattern."""
    inputstream = pytest.importorskip("tinyhtml5.inputstream")
    render_pdf(SAMPLE_HTML)

    class Unbuilt:
        def compile(self, pattern: str, *args: Any) -> Any:
            raise AssertionError(f"a pattern built again: {pattern}")

    monkeypatch.setattr(inputstream, "re", Unbuilt())
    weasyprint.HTML(string=SAMPLE_HTML)


def test_render_ignores_the_clock(weasyprint: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing in the output depends on the current time (e.g. font subset timestamps)."""
    before = render_pdf(SAMPLE_HTML)
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + 3 * 365 * 86400)
    assert render_pdf(SAMPLE_HTML) == before


@pytest.mark.parametrize("caller_value", [None, "1700000000"])
def test_source_date_epoch_is_restored(
    weasyprint: Any, monkeypatch: pytest.MonkeyPatch, caller_value: str | None
) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    reference = render_pdf(SAMPLE_HTML)
    if caller_value is not None:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", caller_value)
    assert render_pdf(SAMPLE_HTML) == reference  # the caller's value does not leak in
    assert os.environ.get("SOURCE_DATE_EPOCH") == caller_value


def test_source_date_epoch_is_restored_after_error(
    weasyprint: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("render failed")

    monkeypatch.setattr(weasyprint.HTML, "render", boom)  # the layout, then the writing
    with pytest.raises(RuntimeError, match="render failed"):
        render_pdf(SAMPLE_HTML)
    assert "SOURCE_DATE_EPOCH" not in os.environ


def test_fonts_kept_from_an_earlier_document_give_the_bytes_of_a_fresh_render(
    weasyprint: Any,
) -> None:
    """The renderer keeps its font configuration for the next document that prints the same
    characters (issue 44: a tenth of a layout's CPU); a document that prints others gets
    faces cut for its own, and either way the bytes are those of a first render."""
    other = SAMPLE_HTML.replace("Редкий лес", "Густой лес")  # characters the sample lacks
    pdf._fonts.cache_clear()
    fresh = render_pdf(SAMPLE_HTML)
    pdf._fonts.cache_clear()
    fresh_other = render_pdf(other)
    assert fresh != fresh_other
    assert render_pdf(SAMPLE_HTML) == fresh  # after the other document
    assert render_pdf(other) == fresh_other  # with the fonts kept from its first render
    assert pdf._fonts.cache_info().hits == 1


def test_a_pages_style_kept_from_an_earlier_layout_gives_the_bytes_of_a_fresh_parse(
    weasyprint: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The renderer keeps WeasyPrint's parse of a page's own ``<style>`` for the next layout
    of the same text (pdf._keep_page_styles, issue 44: a refit, the next deck on the same
    paper); its rules and its ``@page`` size apply as in a parse of its own: the bytes of a
    render that parses every stylesheet anew."""
    from weasyprint import css as cascade

    page = SAMPLE_HTML.replace(
        "<style>", "<style>\n    @page { size: 90mm 70mm; margin: 4mm; }\n    h1 { color: #555; }"
    )
    render_pdf(page)  # its style kept

    def parsed_again(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the page's style parsed again")

    with monkeypatch.context() as patched:
        patched.setattr(weasyprint.CSS, "__init__", parsed_again)
        kept = render_pdf(page)
    monkeypatch.setattr(cascade, "CSS", weasyprint.CSS)  # WeasyPrint's own: parsed anew
    assert render_pdf(page) == kept


def test_render_is_byte_identical_across_processes(weasyprint: Any) -> None:
    """A fresh interpreter (other hash seed, other time) gives the same bytes."""
    script = (
        "import sys\n"
        "from rulesdsl.printed.pdf import render_pdf\n"
        "sys.stdout.buffer.write(render_pdf(sys.stdin.read()))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", script],
        input=SAMPLE_HTML.encode("utf-8"),
        capture_output=True,
        env=env,
        check=True,
        timeout=300,
    )
    assert result.stdout == render_pdf(SAMPLE_HTML)


def test_text_is_extractable_in_all_scripts(weasyprint: Any) -> None:
    reader = _reader(render_pdf(SAMPLE_HTML))
    text = "\n".join(page.extract_text() for page in reader.pages)
    for expected in EXPECTED_TEXT:
        assert expected in text


def test_the_packages_dejavu_sans_is_embedded(weasyprint: Any) -> None:
    """The package's own DejaVu Sans Condensed, declared as "rulesdsl Sans" (issue 23), not
    whatever the machine has."""
    fonts = _font_names(_reader(render_pdf(SAMPLE_HTML)))
    assert fonts
    assert all("rulesdsl-Sans" in name for name in fonts), fonts


def test_metadata_is_fixed(weasyprint: Any) -> None:
    reader = _reader(render_pdf(SAMPLE_HTML))
    info = reader.metadata
    assert info is not None
    assert info.get("/Title") == "Terrain quick reference"
    assert info.get("/Producer") == PRODUCER
    assert "/CreationDate" not in info
    assert "/ModDate" not in info
    identifier = reader.trailer["/ID"]
    assert len(identifier) == 2


def test_identifier_depends_on_input(weasyprint: Any) -> None:
    def first_id(pdf: bytes) -> str:
        return str(_reader(pdf).trailer["/ID"][0])

    other = SAMPLE_HTML.replace("Light woods", "Dense woods")
    assert first_id(render_pdf(SAMPLE_HTML)) == first_id(render_pdf(SAMPLE_HTML))
    assert first_id(render_pdf(SAMPLE_HTML)) != first_id(render_pdf(other))
    assert first_id(render_pdf(SAMPLE_HTML)) != first_id(
        render_pdf(SAMPLE_HTML, base_url=ROOT.as_uri() + "/")
    )


def test_page_css_can_override_font(weasyprint: Any) -> None:
    html = SAMPLE_HTML.replace("<style>", "<style>body { font-family: 'DejaVu Serif'; }")
    fonts = _font_names(_reader(render_pdf(html)))
    assert any("DejaVu-Serif" in name for name in fonts), fonts


def test_base_url_resolves_relative_stylesheet(weasyprint: Any, tmp_path: Path) -> None:
    (tmp_path / "sheet.css").write_text("p { font-family: 'DejaVu Sans Mono'; }", "utf-8")
    html = '<html><head><link rel="stylesheet" href="sheet.css"></head><body><p>Хорошо</p>'
    pdf = render_pdf(html, base_url=tmp_path.as_uri() + "/")
    reader = _reader(pdf)
    assert any("DejaVu-Sans-Mono" in name for name in _font_names(reader)), _font_names(reader)
    assert "Хорошо" in reader.pages[0].extract_text()


# --- WeasyPrint missing ---------------------------------------------------------------


def test_missing_weasyprint_raises_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # makes `import weasyprint` fail
    with pytest.raises(PdfUnavailable) as info:
        render_pdf("<p>hi</p>")
    assert "PDF output needs WeasyPrint: pip install 'rulesdsl[pdf]'" in str(info.value)
    assert isinstance(info.value, RuntimeError)


def test_broken_weasyprint_install_raises_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """WeasyPrint raises OSError at import when Pango cannot be loaded."""
    real_import = builtins.__import__

    def fake_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "weasyprint":
            raise OSError("cannot load library 'libpango-1.0-0'")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "weasyprint", raising=False)
    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(PdfUnavailable, match=r"pip install 'rulesdsl\[pdf\]'.*libpango"):
        render_pdf("<p>hi</p>")
