"""The glyphs of a written PDF as a printer sees them, read with pypdfium2 (PDFium, in the test
extra, so these readings run wherever the tests run; poppler is not needed): each character's
box on its page and its type size in points. Shared by the checks that read the written decks
and sheets (tests/test_print_loss.py, test_print_done_when.py, test_print_preflight.py)."""

from __future__ import annotations

import ctypes
import io
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pypdfium2
import pypdfium2.raw as pdfium_c

PT_PER_MM = 72 / 25.4


@dataclass(frozen=True)
class Glyph:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    """The character's box in millimetres from the page's top left."""
    size: float
    """Its type size in points as printed: the font's size times the scale in force."""


def glyphs(pdf: bytes, loose: bool = True) -> list[list[Glyph]]:
    """Each page's printed characters (no spaces or line breaks), in reading order; their
    boxes the font's whole height (``loose``) or the ink's."""
    return read_glyphs(pdf, (loose,))[0]


@lru_cache(maxsize=1)
def both_glyphs(pdf: bytes) -> tuple[list[list[Glyph]], ...]:
    """:func:`read_glyphs` of ``pdf`` with the ink's boxes and the font's whole height's, in
    that order, kept for the next check that reads the same PDF: the checks of a deck
    ``rulesdsl build`` writes (tests/test_print_loss.py, test_print_preflight.py,
    test_print_economy.py) share its xdist group (:func:`tests.pdf_layout.written_deck_group`),
    so they run one after the other on one worker and its glyphs are read once. Read only:
    the lists are shared."""
    return read_glyphs(pdf, (False, True))


@lru_cache(maxsize=1)
def read_pdf(pdf: bytes) -> Any:
    """pypdf's reader of ``pdf``, kept for the next check that reads the same PDF (as
    :func:`both_glyphs`): pypdf's first reading of the pages parses every object, about a
    quarter of a second of CPU a deck. Read only."""
    import pypdf

    return pypdf.PdfReader(io.BytesIO(pdf))


def read_glyphs(pdf: bytes, looseness: tuple[bool, ...]) -> tuple[list[list[Glyph]], ...]:
    """:func:`glyphs` with each of ``looseness``'s boxes, read in one pass over the
    characters (the character, its matrix and size once for all its boxes)."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = [_page_glyphs(document[i], looseness) for i in range(len(document))]
    finally:
        document.close()
    return tuple([page[n] for page in pages] for n in range(len(looseness)))


def _page_glyphs(page: pypdfium2.PdfPage, looseness: tuple[bool, ...]) -> list[list[Glyph]]:
    height = page.get_height()
    text = page.get_textpage()
    found: list[list[Glyph]] = [[] for _ in looseness]
    matrix = pdfium_c.FS_MATRIX()
    for i in range(text.count_chars()):
        # the same character as text.get_text_range(i, 1), for a quarter of its CPU
        char = chr(pdfium_c.FPDFText_GetUnicode(text.raw, i))
        if not char.strip() or pdfium_c.FPDFText_IsGenerated(text.raw, i):
            continue
        pdfium_c.FPDFText_GetMatrix(text.raw, i, ctypes.byref(matrix))
        scale = math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
        size = round(pdfium_c.FPDFText_GetFontSize(text.raw, i) * scale, 2)
        for boxes, loose in zip(found, looseness, strict=True):
            left, bottom, right, top = text.get_charbox(i, loose=loose)
            boxes.append(
                Glyph(
                    char,
                    left / PT_PER_MM,
                    (height - top) / PT_PER_MM,
                    right / PT_PER_MM,
                    (height - bottom) / PT_PER_MM,
                    size,
                )
            )
    return found


def word_boxes(
    pdf: bytes, read: list[list[Glyph]] | None = None
) -> list[list[tuple[str, float, float, float, float]]]:
    """Each page's words with their boxes (x0, y0, x1, y1) in millimetres: runs of glyphs on
    one line with no space between them (``read``: the PDF's :func:`glyphs`, where already
    read)."""
    pages = []
    for page in glyphs(pdf) if read is None else read:
        words: list[tuple[str, float, float, float, float]] = []
        for g in page:
            if words:
                text, x0, y0, x1, y1 = words[-1]
                if abs(g.y1 - y1) < 0.3 and -1.0 <= g.x0 - x1 < 0.3:
                    words[-1] = (text + g.text, x0, min(y0, g.y0), max(x1, g.x1), max(y1, g.y1))
                    continue
            words.append((g.text, g.x0, g.y0, g.x1, g.y1))
        pages.append(words)
    return pages
