"""The floor of issue 44's PDF rows: what WeasyPrint alone takes to make a PDF of an HTML file
that ``rulesdsl sheet`` or ``rulesdsl cards`` wrote: its import, one layout and the write, with
the faces and stylesheet the product gives it (:func:`rulesdsl.printed.pdf._fonts`), and none
of the product's own work (no loss check, no second layout, no metadata fixed).

Run: python bench/pdf_floor.py PAGE.html OUT.pdf  (bench_speed.py's ``pdf`` row runs it in a
fresh process, as the command it is the floor of)."""

from __future__ import annotations

import sys
from pathlib import Path


def main() -> None:
    source, out = Path(sys.argv[1]), Path(sys.argv[2])
    html = source.read_text("utf-8")
    from rulesdsl.printed import pdf
    from rulesdsl.printed.font_subset import covers, document_chars

    weasyprint = pdf._weasyprint()
    fonts, css = pdf._fonts(weasyprint, document_chars(html))
    document = weasyprint.HTML(string=html, url_fetcher=pdf._url_fetcher(weasyprint)).render(
        font_config=fonts, stylesheets=[css]
    )
    out.write_bytes(document.write_pdf(full_fonts=covers(document_chars(html), pdf.FONTS)))


if __name__ == "__main__":
    main()
