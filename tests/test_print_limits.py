"""Bounded printing: no PDF is rendered from more HTML than `outputs.MAX_PDF_SOURCE_BYTES`
(about 40 pages). `rulesdsl build` leaves such a PDF out with a warning (W009) before any
render is handed to a worker, and makes the ruleset's other outputs; `sheet` and `cards` refuse
it in one line. A render of a 20,000-feature sheet held 7.9 GB per worker before this."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl import outputs
from rulesdsl.builder import build as build_module
from rulesdsl.builder.build import TargetOutputs, build, card_outputs, sheet_outputs
from rulesdsl.codegen.targets import PYTHON
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.outputs import MAX_PDF_SOURCE_BYTES
from rulesdsl.printed import pdf
from tests.conftest import RULESETS

BASE = """\
ruleset base "Base" fr "Base"
version 1.0.0
languages en fr
units distance in, cost MP
mode walker "Walker" fr "Marcheur"
layer ground "Ground" fr "Sol" one per place {
  soft "Soft" fr "Mou" | 2
}
"""


def test_a_build_makes_no_pdf_over_the_limit_and_warns_w009_for_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build_module, "MAX_PDF_SOURCE_BYTES", 1024)  # every PDF of BASE is over
    rendered: list[str] = []
    real = build_module.render_deferred

    def render_deferred(pending: dict[str, object], *args: object, **kw: object) -> object:
        rendered.extend(pending)
        return real(pending, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "render_deferred", render_deferred)
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "base.terrain").write_text(BASE, "utf-8")
    result = build(
        tmp_path / "rulesets",
        tmp_path / "generated",
        compiler=Compiler(),
        backends=(TargetOutputs(PYTHON), sheet_outputs, card_outputs),
    )
    assert result.ok
    assert rendered == []
    assert result.written == [
        "python/base.py",
        "sheets/base.en.html",
        "sheets/base.en.md",
        "sheets/base.fr.html",
        "sheets/base.fr.md",
    ]
    warned = sorted(d.message.split()[0] for d in result.diagnostics if d.code == "W009")
    assert warned == [
        "cards/base.en.pdf",
        "cards/base.fr.pdf",
        "sheets/base.en.pdf",
        "sheets/base.fr.pdf",
    ]
    first = next(d for d in result.diagnostics if d.code == "W009")
    assert not first.is_error
    assert (first.pos.file, first.pos.line, first.pos.column) == (
        str(tmp_path / "rulesets" / "base.terrain"),
        1,
        9,
    )
    assert "KiB of HTML, over the 1 KiB a PDF is made from" in first.message


def test_render_pdf_refuses_more_html_than_the_limit_before_loading_weasyprint() -> None:
    with pytest.raises(pdf.PdfTooLarge, match="too long to print as a PDF"):
        pdf.render_pdf("x" * (MAX_PDF_SOURCE_BYTES + 1))
    assert issubclass(pdf.PdfTooLarge, pdf.PdfUnavailable)  # every verb reports it in one line


def test_the_sheet_verb_refuses_a_pdf_over_the_limit_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(outputs, "MAX_PDF_SOURCE_BYTES", 1024)
    out = tmp_path / "sheet.pdf"
    assert main(["sheet", str(RULESETS / "heavy_gear.terrain"), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rulesdsl: error: this document is too long to print as a PDF")
    assert "Traceback" not in err and not out.exists()
