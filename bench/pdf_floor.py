"""The floor of issue 44's PDF rows: what WeasyPrint alone takes to make a PDF of an HTML page,
with the faces and stylesheet the product gives it (:func:`rulesdsl.printed.pdf._fonts`): one
layout and the write, and none of the product's own work (no loss check, no second layout, no
metadata fixed).

Run:

    python bench/pdf_floor.py PAGE.html OUT.pdf
        the page a ``rulesdsl sheet`` or ``rulesdsl cards`` wrote (bench_speed.py's ``pdf``
        row runs this in a fresh process, as the command it is the floor of: the import of
        WeasyPrint is counted)
    python bench/pdf_floor.py --bundled
        every PDF a clean ``rulesdsl build`` of the bundled rulesets writes (the A4 sheet and
        the poker deck of each ruleset in each language), laid out and written by WeasyPrint
        alone in this process: their CPU seconds summed (bench_speed.py's ``clean`` row)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def weasyprint_alone(html: str) -> bytes:
    """``html`` laid out once and written by WeasyPrint, with the product's faces."""
    from rulesdsl.printed import pdf
    from rulesdsl.printed.font_subset import covers, document_chars

    weasyprint = pdf._weasyprint()
    fonts, css = pdf._fonts(weasyprint, document_chars(html))
    source = weasyprint.HTML(string=html, url_fetcher=pdf._url_fetcher(weasyprint))
    document = source.render(font_config=fonts, stylesheets=[css])
    written: bytes = document.write_pdf(full_fonts=covers(document_chars(html), pdf.FONTS))
    return written


def bundled_pages() -> Iterator[tuple[str, str]]:
    """(name, HTML) of every PDF the build writes, as its backends make the HTML (the sheet
    and the deck of :func:`~rulesdsl.printed.sheets.sheet_outputs` and
    :func:`~rulesdsl.printed.cards.card_outputs`)."""
    from rulesdsl.compiler import Compiler
    from rulesdsl.printed.cards import DEFAULT_PAPER as CARD_PAPER
    from rulesdsl.printed.cards import DEFAULT_SIZE, build_deck, render_deck_html
    from rulesdsl.printed.sheet_model import Sheets
    from rulesdsl.printed.sheets import DEFAULT_PAPER, render_html

    compiler = Compiler()
    for path in sorted((ROOT / "rulesets").glob("*.terrain")):
        ruleset = compiler.compile_file(path).ruleset
        assert ruleset is not None, path
        sheets = Sheets(ruleset)
        for lang in ruleset.languages:
            sheet = sheets(lang)
            yield f"sheets/{ruleset.id}.{lang}.pdf", render_html(sheet, DEFAULT_PAPER)
            deck = build_deck(ruleset, lang, DEFAULT_SIZE, sheet=sheet)
            yield f"cards/{ruleset.id}.{lang}.pdf", render_deck_html(deck, CARD_PAPER)


def main() -> None:
    if sys.argv[1:] == ["--bundled"]:
        spent, count = 0.0, 0
        for _, html in bundled_pages():
            start = time.process_time()
            weasyprint_alone(html)
            spent += time.process_time() - start
            count += 1
        print(f"{count} PDFs, WeasyPrint alone {spent:.1f} s CPU")
        return
    source, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.write_bytes(weasyprint_alone(source.read_text("utf-8")))


if __name__ == "__main__":
    main()
