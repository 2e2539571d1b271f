"""A print shop's preflight of the PDFs (issue 41, goal 4), read from the written files as a
shop's software reads them: every page has its boxes, nested (MediaBox, BleedBox, TrimBox),
a deck's TrimBox on its cuts and its BleedBox the bleed beyond them, every font embedded, no
glyph of a card within the safe zone (1/8 in) of its cut, and the backs' dark frame either
run into the bleed or clear of the cut.

The committed outputs under generated/ are the product and are read as they are (no render);
a bleed needs one small deck rendered a card a page, with and without ``--bleed``."""

from __future__ import annotations

import io
import re
import statistics
from functools import cache
from pathlib import Path
from typing import Any

import pypdf
import pypdfium2
import pytest

from rulesdsl.compiler import Compiler
from rulesdsl.printed.cards import CARD_SIZES, SAFE_ZONE, render_deck
from tests import pdf_layout
from tests.pdf_glyphs import PT_PER_MM, Glyph, Preflight, both_glyphs, preflight
from tests.test_print_done_when import SMALL
from tests.test_print_loss import _cells

GENERATED = Path(__file__).resolve().parent.parent / "generated"
WRITTEN = sorted(p.relative_to(GENERATED).as_posix() for p in GENERATED.rglob("*.pdf"))


DECKS = [
    pytest.param(name, marks=pdf_layout.committed_group(name))
    for name in WRITTEN
    if name.startswith("cards/")
]
"""The committed decks, each in the xdist group of the tests that read it (its written deck's,
:func:`pdf_layout.committed_group`: tests/test_print_loss.py reads the same file back,
tests/test_print_economy.py its glyphs too), so that one worker reads each deck (PDFium:
:func:`_read`; its glyphs: :func:`_glyphs`) once for all of them."""
PDFS = [pytest.param(name, marks=pdf_layout.committed_group(name)) for name in WRITTEN]
"""Every committed PDF, each in its group (a sheet's: tests/test_print_matrix.py reads it
too)."""
BLEED = 3.0


@cache
def _read(name: str) -> Preflight:
    """:func:`~tests.pdf_glyphs.preflight` of a committed PDF, read once a process."""
    return preflight((GENERATED / name).read_bytes())


def _marks(name: str) -> tuple[tuple[set[float], set[float]], ...]:
    """The crop marks of a committed deck."""
    return _read(name).marks


def _glyphs(name: str, loose: bool) -> list[list[Glyph]]:
    """The glyphs of a committed deck (:func:`glyphs`), the ink's boxes (``loose`` False) and
    the font's whole height's read in one pass for the tests of its group that read them
    (:func:`~tests.pdf_glyphs.both_glyphs`)."""
    return both_glyphs((GENERATED / name).read_bytes())[loose]


def _box(page: Any, name: str) -> tuple[float, float, float, float]:
    """A page box in millimetres (left, bottom, right, top), as the PDF states it (``page``:
    pypdf's, or one of :attr:`~tests.pdf_glyphs.Preflight.pages`)."""
    box = page.get(f"/{name}")
    assert box is not None, f"no /{name}"
    left, bottom, right, top = (float(v) / PT_PER_MM for v in box)
    return left, bottom, right, top


def _inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    slack = 0.01
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


@pytest.mark.parametrize("name", PDFS)
def test_every_written_pdf_has_its_boxes_nested_and_its_fonts_embedded(name: str) -> None:
    read = _read(name)
    for number, page in enumerate(read.pages, 1):
        media, bleed, trim = (_box(page, b) for b in ("MediaBox", "BleedBox", "TrimBox"))
        assert _inside(trim, bleed) and _inside(bleed, media), f"page {number}"
    assert read.unembedded == set()


def _pdf(*objects: bytes) -> bytes:
    """A PDF of ``objects`` (numbered from 1, the first the catalog), with its cross-reference
    table."""
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    size = len(objects) + 1
    trailer = b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, len(out))
    return out + b"xref\n0 %d\n0000000000 65535 f \n" % size + xref + trailer


def test_the_preflight_reading_finds_a_font_set_without_its_program() -> None:
    """The fonts check of :func:`~tests.pdf_glyphs.preflight` (PDFium: the fonts the pages'
    text is set in) can fail: a page set in Helvetica, which the file names but does not
    hold, and the boxes a page does not state read as missing."""
    text = b"BT /F1 12 Tf 72 720 Td (Unembedded) Tj ET"
    pdf = _pdf(
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    )
    read = preflight(pdf)
    assert read.unembedded == {"Helvetica"}
    assert [page["/TrimBox"] for page in read.pages] == [None]
    assert read.pages[0]["/MediaBox"] == (0, 0, 612, 792)


@pytest.mark.parametrize("name", DECKS)
def test_a_written_decks_trim_box_lies_on_its_cuts(name: str) -> None:
    """The TrimBox of an imposed sheet is the grid of cards its crop marks cut out (WeasyPrint
    alone sets it to the whole paper, where a shop's preflight finds no trim)."""
    for page, (xs, ys) in zip(_read(name).pages, _marks(name), strict=True):
        height = page["height"] / PT_PER_MM
        left, bottom, right, top = _box(page, "TrimBox")
        found = (left, height - top, right, height - bottom)
        # the marks are read to 0.1 mm and are a hairline wide
        assert found == pytest.approx((min(xs), min(ys), max(xs), max(ys)), abs=0.15)
        assert _box(page, "BleedBox") == pytest.approx(_box(page, "TrimBox"), abs=0.01)


@pytest.mark.parametrize("name", DECKS)
def test_no_glyph_of_a_written_deck_lies_within_the_safe_zone_of_its_cut(name: str) -> None:
    """The ink of every character stays an eighth of an inch inside its card's left and right
    cuts (the safe zone print shops ask for; the crop marks give the cuts), less 0.15 mm: the
    marks are read to 0.1 mm, and some glyphs' ink (T, A) overhangs their advance by a hair
    (J's hook by 0.2 mm, allowed).
    Above and below, a descender (J, _) may reach past its line's box: the product's loss
    check measures the lines there."""
    near = []
    pages = zip(_glyphs(name, loose=False), _marks(name), strict=True)
    for number, (page, (xs, _)) in enumerate(pages, 1):
        columns = _cells(xs)
        for g in page:
            cx = (g.x0 + g.x1) / 2
            col = next((c for c in columns if c[0] <= cx <= c[1]), (cx, cx))
            clear = min(g.x0 - col[0], col[1] - g.x1) + (0.2 if g.text == "J" else 0)
            if clear < SAFE_ZONE - 0.15:  # the marks are read to 0.1 mm; a glyph overhangs
                near.append(f"page {number}: {g.text!r} {clear:.2f} mm from its cut")
    assert near == [], f"{len(near)} glyphs, the first {near[:5]}"


@cache
def _card_a_page(bleed: float) -> bytes:
    compiled = Compiler().compile_text(SMALL, "tiny.terrain")
    assert compiled.ruleset is not None
    return bytes(render_deck(compiled.ruleset, "en", "poker", paper=None, bleed=bleed))


@pytest.mark.parametrize("bleed", [0.0, BLEED])
def test_a_card_a_page_is_trimmed_to_the_card_and_bleeds_by_the_bleed(bleed: float) -> None:
    reader = pypdf.PdfReader(io.BytesIO(_card_a_page(bleed)))
    card = CARD_SIZES["poker"]
    for page in reader.pages:
        media = _box(page, "MediaBox")
        assert media == pytest.approx((0, 0, card.width + 2 * bleed, card.height + 2 * bleed))
        trim = (bleed, bleed, bleed + card.width, bleed + card.height)
        assert _box(page, "TrimBox") == pytest.approx(trim, abs=0.01)
        assert _box(page, "BleedBox") == pytest.approx(media, abs=0.01)


def _darkness_along_the_left(pdf: bytes, page: int, bleed: float) -> list[int]:
    """The grey level (0 black) of the back's pixels across its left edge, at mid height, one
    per tenth of a millimetre from the page's edge to the safe zone's inner edge."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        scale = 10 / PT_PER_MM  # ten pixels a millimetre (a scale of 1 is a pixel a point)
        image = document[page].render(scale=scale, grayscale=True).to_pil()
    finally:
        document.close()
    y = image.height // 2
    return [image.getpixel((x, y)) for x in range(int((bleed + SAFE_ZONE) * 10))]


@pytest.mark.parametrize("bleed", [0.0, BLEED])
def test_the_backs_frame_runs_into_the_bleed_or_stands_clear_of_the_cut(bleed: float) -> None:
    """A cut a millimetre off must show no dark sliver ending at the card's edge: with a bleed
    the frame runs from the page's edge into the card; without one it starts inside the cut
    and ends inside the safe zone, white around it."""
    row = _darkness_along_the_left(_card_a_page(bleed), 1, bleed)  # page 2: the first back
    cut = int(bleed * 10)
    dark = [i for i, level in enumerate(row) if level < 128]
    assert dark, "no frame found"
    if bleed:
        assert dark[0] == 0 and dark[-1] >= cut + 10
    else:
        assert dark[0] >= cut + 10 and row[-1] >= 128


@pytest.mark.parametrize("name", DECKS)
def test_the_card_footers_of_a_written_deck_are_set_at_6_pt(name: str) -> None:
    """Type a player reads (issue 41, goal 3), measured from the PDF's glyphs: the cards'
    footers (the lines that carry the deck's digest) are set at 6 points (their median: a
    footer too long for its line is shrunk a little to fit)."""
    sizes = []
    for page, (xs, _) in zip(_glyphs(name, loose=True), _marks(name), strict=True):
        text = "".join(g.text for g in page)
        for at in (m.start() for m in re.finditer("sha256", text)):
            line = page[at]
            left, right = next(c for c in _cells(xs) if c[0] <= line.x0 <= c[1])
            sizes += [g.size for g in page if abs(g.y1 - line.y1) < 0.3 and left <= g.x0 <= right]
    assert sizes and statistics.median(sizes) >= 6
