"""The glyphs of a written PDF as a printer sees them, read with pypdfium2 (PDFium, in the test
extra, so these readings run wherever the tests run; poppler is not needed): each character's
box on its page and its type size in points. Shared by the checks that read the written decks
and sheets (tests/test_print_loss.py, test_print_done_when.py, test_print_preflight.py); and
the streams that draw, for the colours they paint (tests/test_print_matrix.py)."""

from __future__ import annotations

import ctypes
import math
import re
import zlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import pypdfium2
import pypdfium2.raw as pdfium_c

PT_PER_MM = 72 / 25.4


class Glyph(NamedTuple):
    """One printed character (a named tuple: one is made for every character of every page
    read, and a frozen dataclass took a sixth of the reading's CPU to make)."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    """The character's box in millimetres from the page's top left."""
    size: float
    """Its type size in points as printed: the font's size times the scale in force (0.0 where
    not asked: :func:`word_boxes`)."""


def glyphs(pdf: bytes, loose: bool = True, sizes: bool = True) -> list[list[Glyph]]:
    """Each page's printed characters (no spaces or line breaks), in reading order; their
    boxes the font's whole height (``loose``) or the ink's; their type sizes where ``sizes``
    (a quarter of the reading's CPU)."""
    return read_glyphs(pdf, (loose,), sizes)[0]


@lru_cache(maxsize=1)
def both_glyphs(pdf: bytes) -> tuple[list[list[Glyph]], ...]:
    """:func:`read_glyphs` of ``pdf`` with the ink's boxes and the font's whole height's, in
    that order, kept for the next check that reads the same PDF: the checks of a deck
    ``rulesdsl build`` writes (tests/test_print_loss.py, test_print_preflight.py,
    test_print_economy.py) share its xdist group (:func:`tests.pdf_layout.written_deck_group`),
    so they run one after the other on one worker and its glyphs are read once. Read only:
    the lists are shared."""
    return read_glyphs(pdf, (False, True))


_STREAM = re.compile(rb"\d+ 0 obj\s*<<((?:(?!endobj).)*?)>>\s*stream\r?\n", re.S)
_LENGTH = re.compile(rb"/Length (\d+)\b")
NOT_DRAWN = (b"/Length1", b"/Length2", b"/Subtype /Image", b"/Type /XRef", b"/Type /ObjStm")
"""What marks a stream that draws nothing: a font program, an image, the cross-reference
and object streams."""


def drawn_streams(pdf: bytes) -> list[bytes]:
    """Every stream of ``pdf`` that may draw, decompressed: each page's content, and the form
    XObjects and patterns they paint (every stream but :data:`NOT_DRAWN`'s), read straight
    from the file (pypdf's reading of the pages' contents parsed every object of the file
    first, the fonts' width arrays included: 40 times the CPU)."""
    found, at = [], 0
    while (head := _STREAM.search(pdf, at)) is not None:
        length = _LENGTH.search(head.group(1))
        assert length is not None, head.group(1)[:200]  # a length given directly (pydyf)
        start, at = head.end(), head.end() + int(length.group(1))
        assert re.match(rb"\s*endstream", pdf[at : at + 12]), head.group(1)[:200]
        if any(mark in head.group(1) for mark in NOT_DRAWN):
            continue
        data = pdf[start:at]
        if b"/Filter" in head.group(1):
            assert b"/Filter /FlateDecode" in head.group(1), head.group(1)[:200]
            data = zlib.decompress(data)
        found.append(data)
    assert found, "no stream found"
    return found


def read_glyphs(
    pdf: bytes, looseness: tuple[bool, ...], sizes: bool = True
) -> tuple[list[list[Glyph]], ...]:
    """:func:`glyphs` with each of ``looseness``'s boxes, read in one pass over the
    characters (the character, its matrix and size once for all its boxes)."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = [_page_glyphs(document[i], looseness, sizes) for i in range(len(document))]
    finally:
        document.close()
    return tuple([page[n] for page in pages] for n in range(len(looseness)))


def _page_glyphs(
    page: pypdfium2.PdfPage, looseness: tuple[bool, ...], sizes: bool
) -> list[list[Glyph]]:
    height = page.get_height()
    text = page.get_textpage()
    raw = text.raw
    found: list[list[Glyph]] = [[] for _ in looseness]
    matrix = pdfium_c.FS_MATRIX()
    # PDFium's own calls, each box read into the same buffers (pypdfium2's get_charbox made
    # new ones for every character)
    rect, ink = pdfium_c.FS_RECTF(), [ctypes.c_double() for _ in range(4)]
    rect_at, ink_at = ctypes.byref(rect), [ctypes.byref(v) for v in ink]
    for i in range(pdfium_c.FPDFText_CountChars(raw)):
        # the same character as text.get_text_range(i, 1), for a quarter of its CPU
        char = chr(pdfium_c.FPDFText_GetUnicode(raw, i))
        if not char.strip() or pdfium_c.FPDFText_IsGenerated(raw, i):
            continue
        size = 0.0
        if sizes:
            pdfium_c.FPDFText_GetMatrix(raw, i, ctypes.byref(matrix))
            scale = math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
            size = round(pdfium_c.FPDFText_GetFontSize(raw, i) * scale, 2)
        for boxes, loose in zip(found, looseness, strict=True):
            if loose:
                ok = pdfium_c.FPDFText_GetLooseCharBox(raw, i, rect_at)
                left, bottom, right, top = rect.left, rect.bottom, rect.right, rect.top
            else:  # left, right, bottom, top
                ok = pdfium_c.FPDFText_GetCharBox(raw, i, *ink_at)
                left, right, bottom, top = ink[0].value, ink[1].value, ink[2].value, ink[3].value
            if not ok:
                raise pypdfium2.PdfiumError("Failed to get charbox.")
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
    for page in glyphs(pdf, sizes=False) if read is None else read:
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


BOXES = ("/MediaBox", "/BleedBox", "/TrimBox")


@dataclass(frozen=True)
class Preflight:
    """What a print shop's preflight reads of a written PDF (:func:`preflight`)."""

    pages: tuple[dict[str, Any], ...]
    """Each page's boxes as the PDF states them (:data:`BOXES`, in points: None where
    missing) and its height in points (``height``)."""
    marks: tuple[tuple[set[float], set[float]], ...]
    """Each page's crop marks: the x of the vertical ones and the y of the horizontal ones,
    in millimetres from the top left (:func:`crop_marks`)."""
    unembedded: frozenset[str]
    """The fonts the pages' text is set in with no font program in the file."""


@lru_cache(maxsize=1)
def preflight(pdf: bytes) -> Preflight:
    """:class:`Preflight` of ``pdf``, read with PDFium (which parses only what is asked: pypdf's
    first reading of the pages parsed every object, the fonts' width arrays included, about
    a quarter of a second of CPU a deck), kept for the next check that reads the same PDF (as
    :func:`both_glyphs`). Read only."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = [document[i] for i in range(len(document))]
        boxes = tuple(
            {
                "/MediaBox": page.get_mediabox(fallback_ok=False),
                "/BleedBox": page.get_bleedbox(fallback_ok=False),
                "/TrimBox": page.get_trimbox(fallback_ok=False),
                "height": page.get_height(),
            }
            for page in pages
        )
        marks = tuple(crop_marks(page) for page in pages)
        return Preflight(boxes, marks, frozenset(n for page in pages for n in _unembedded(page)))
    finally:
        document.close()


def _unembedded(page: pypdfium2.PdfPage) -> set[str]:
    """The fonts of ``page``'s text objects (in its form XObjects too) with no font program."""
    missing = set()
    name = ctypes.create_string_buffer(256)
    for text in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT]):
        font = pdfium_c.FPDFTextObj_GetFont(text.raw)
        if not pdfium_c.FPDFFont_GetIsEmbedded(font):
            pdfium_c.FPDFFont_GetBaseFontName(font, name, len(name))
            missing.add(name.value.decode("latin-1"))
    return missing


def crop_marks(page: pypdfium2.PdfPage) -> tuple[set[float], set[float]]:
    """The crop marks of ``page``: thin filled rectangles 4 mm long, each a subpath of a path
    drawn in the page's own content (not its form XObjects), where the template's ``.crop``
    boxes are drawn (a mark's border: WeasyPrint fills the hairline between two rectangles,
    whose edges both count), placed by the transformation in force. Read with PDFium's own
    calls: pypdfium2's ``get_objects`` made a helper object for every object of the page."""
    xs: set[float] = set()
    ys: set[float] = set()
    x, y = ctypes.c_float(), ctypes.c_float()
    x_at, y_at = ctypes.byref(x), ctypes.byref(y)
    matrix = pdfium_c.FS_MATRIX()
    height = page.get_height()
    for n in range(pdfium_c.FPDFPage_CountObjects(page.raw)):
        path = pdfium_c.FPDFPage_GetObject(page.raw, n)
        if pdfium_c.FPDFPageObj_GetType(path) != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        if not pdfium_c.FPDFPageObj_GetMatrix(path, ctypes.byref(matrix)):
            raise pypdfium2.PdfiumError("Failed to get matrix of pageobject.")
        a, b, c, d, e, f = matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f
        subpaths: list[list[tuple[float, float]]] = []
        for i in range(pdfium_c.FPDFPath_CountSegments(path)):
            segment = pdfium_c.FPDFPath_GetPathSegment(path, i)
            pdfium_c.FPDFPathSegment_GetPoint(segment, x_at, y_at)
            moving = pdfium_c.FPDFPathSegment_GetType(segment) == pdfium_c.FPDF_SEGMENT_MOVETO
            if moving or not subpaths:
                subpaths.append([])
            subpaths[-1].append((a * x.value + c * y.value + e, b * x.value + d * y.value + f))
        for points in subpaths:
            _mark(points, height, xs, ys)
    return xs, ys


def _mark(points: list[tuple[float, float]], height: float, xs: set[float], ys: set[float]) -> None:
    """Adds a rectangle's (four corners, the first again where closed) x or y where it is a
    crop mark."""
    if len(points) not in (4, 5):
        return
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0, y1 = min(p[1] for p in points), max(p[1] for p in points)
    long_side = max(x1 - x0, y1 - y0) / PT_PER_MM
    short_side = min(x1 - x0, y1 - y0) / PT_PER_MM
    if abs(long_side - 4.0) < 0.05 and short_side < 0.2:
        if y1 - y0 > x1 - x0:
            xs.add(round(x0 / PT_PER_MM, 1))
        else:
            ys.add(round((height - y1) / PT_PER_MM, 1))
