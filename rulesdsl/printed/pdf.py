"""Render an HTML quick-reference sheet to PDF bytes with WeasyPrint, deterministically.

WeasyPrint is an optional dependency (``pip install 'rulesdsl[pdf]'``); it is
imported only when :func:`render_pdf` is called, and :class:`PdfUnavailable`
is raised if it cannot be loaded.

Determinism (same HTML in, same bytes out, in any process):

* WeasyPrint writes no creation/modification date of its own; it copies
  them only from ``<meta name="dcterms.created">``/``dcterms.modified``.  A
  finisher (WeasyPrint's documented ``write_pdf(finisher=...)`` hook)
  removes ``/CreationDate`` and ``/ModDate`` from the info dictionary anyway,
  and sets ``/Producer`` to the fixed string :data:`PRODUCER` rather than
  "WeasyPrint <version>".  ``/Title`` comes from the HTML ``<title>``.
* The file identifier (trailer ``/ID``) is passed explicitly through the
  ``pdf_identifier`` option: a hash of the HTML and ``base_url``, so it is the
  same for the same input (pydyf's second ``/ID`` entry is an MD5 of the
  PDF content, also deterministic).
* Embedded fonts: the shipped faces are cut down to the document's characters by fontTools
  before the layout (:mod:`rulesdsl.printed.font_subset`, the face's own timestamp kept) and
  embedded whole (``full_fonts``), so WeasyPrint's subsetter, HarfBuzz-Subset where the
  library is installed and fontTools where it is not (they write different bytes), never
  runs. A document with characters the faces lack takes them from the machine's fonts and
  is subset by WeasyPrint as before; for its fontTools path, which stamps a subset's
  ``head.modified`` with the current time unless ``SOURCE_DATE_EPOCH`` is set,
  :func:`render_pdf` sets ``SOURCE_DATE_EPOCH=0`` for the duration of the render only, under
  a module lock, and restores the caller's value (or its absence) in a ``finally`` block;
  nothing else in WeasyPrint 70 or pydyf reads it.
* Compression is zlib, which is deterministic.

Fonts: the package ships the faces the sheets use (:data:`FONTS`: DejaVu Sans Condensed,
regular and bold, cut down to Latin, Cyrillic and the signs a sheet prints, with DejaVu's
licence), and a user stylesheet declares them with ``@font-face`` as the family
``rulesdsl Sans``, which the sheets' and cards' stylesheets name first. So a PDF has the
same glyphs and bytes on any machine, whatever fonts it has installed (a test renders with
fontconfig pointed at an empty folder); the fonts are read from the package folder, the
only files the URL fetcher lets through besides those under a caller's ``file:``
``base_url``. A page that names other families gets them from the machine.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Protocol

from rulesdsl import extras
from rulesdsl.gc_pause import gc_paused
from rulesdsl.printed import font_subset
from rulesdsl.printed.font_subset import covers, document_chars, faces_css
from rulesdsl.printed.loss import Loss, check_layout

__all__ = [
    "FONT_FAMILY",
    "PRODUCER",
    "SOURCE_DATE_EPOCH",
    "TRIM_META",
    "PdfTooLarge",
    "PdfUnavailable",
    "Rendered",
    "layout_losses",
    "render_pdf",
]

#: Value written to the PDF ``/Producer`` field (no version, so it never changes).
PRODUCER = "rulesdsl"

#: CSS font stack applied to the whole document (overridable by the page's own CSS).
FONT_FAMILY = '"rulesdsl Sans", "DejaVu Sans Condensed", "DejaVu Sans", sans-serif'

FONTS = Path(__file__).resolve().parent / "fonts"
"""The fonts shipped with the package (``dev/subset_fonts.py`` makes them)."""


def _base_css(chars: str) -> str:
    """The stylesheet every render starts from: the shipped faces cut down to ``chars``, what
    the document prints (:func:`rulesdsl.printed.font_subset.faces_css`), named first; and
    the tables whose columns' widths the document gives from the estimate of those faces
    (:mod:`rulesdsl.printed.table_columns`) laid out from them, without measuring their
    cells (issue 44): here, not in the document's stylesheet, as only here is the text set
    in the face the estimate measured."""
    return f"{faces_css(chars, FONTS)}html {{ font-family: {FONT_FAMILY}; }}{FIXED_TABLES}"


FIXED_TABLES = "table.fixed { table-layout: fixed; }"
"""The rule of :func:`_base_css` for the tables given their columns' widths."""


#: ``SOURCE_DATE_EPOCH`` used while rendering (fontTools' subset timestamp, see above).
SOURCE_DATE_EPOCH = "0"

# Serialises renders, so concurrent calls cannot interleave the set/restore of
# SOURCE_DATE_EPOCH (and leave it set or unset for the wrong caller).
_RENDER_LOCK = threading.Lock()

_INSTALL_HINT = f"PDF output needs WeasyPrint: {extras.install_hint('pdf')}"


class Rendered(bytes):
    """A PDF's bytes, with what the loss check found in its layout
    (:func:`rulesdsl.printed.loss.check_layout`): text past a cut or the printable area,
    text in the safe zone. Still bytes, so a build writes it like any output; it pickles
    with its findings, so a render in a worker process brings them back."""

    losses: tuple[Loss, ...] = ()

    @classmethod
    def of(cls, data: bytes, losses: tuple[Loss, ...]) -> Rendered:
        made = cls(data)
        made.losses = losses
        return made


class PdfUnavailable(extras.ExtraMissing):
    """WeasyPrint (or a system library it needs, such as Pango) cannot be loaded."""


class PdfTooLarge(PdfUnavailable):
    """The HTML is over :data:`rulesdsl.outputs.MAX_PDF_SOURCE_BYTES`: too long to print
    usefully, and its render would hold gigabytes (the CLI reports it in one line)."""


def _identifier(html: str, base_url: str | None) -> bytes:
    """Stable PDF file identifier for this input: 32 hex digits of SHA-256 of the HTML, its
    base URL and how the fonts are cut (:func:`_font_cutting`), so a PDF whose fonts would
    be cut otherwise now is not current."""
    digest = hashlib.sha256()
    digest.update(html.encode("utf-8"))
    digest.update(b"\0")
    digest.update((base_url or "").encode("utf-8"))
    digest.update(b"\0")
    digest.update(_font_cutting())
    return digest.hexdigest()[:32].encode("ascii")


@cache
def _font_cutting() -> bytes:
    """The code that cuts the shipped faces down (rulesdsl/printed/font_subset.py): the PDF's
    bytes depend on it as on the HTML."""
    return hashlib.sha256(Path(font_subset.__file__).read_bytes()).digest()


@contextmanager
def _fixed_source_date_epoch() -> Iterator[None]:
    """Set ``SOURCE_DATE_EPOCH`` for the duration of the block, then restore it."""
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = SOURCE_DATE_EPOCH
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved


TRIM_META = "print-trim"
"""The ``<meta>`` by which a page says where it is cut: ``content`` is the left, top, right and
bottom of the cuts and the bleed, in millimetres from the page's top left (a deck's pages,
:meth:`rulesdsl.printed.imposition.Imposition.trim`)."""
_TRIM = re.compile(rf'<meta name="{TRIM_META}" content="([\d. ]+)">')
_PT_PER_MM = 72 / 25.4


def _trim(html: str) -> tuple[float, ...] | None:
    """The cuts and bleed the page's :data:`TRIM_META` gives, or None (a sheet: cut nowhere)."""
    found = _TRIM.search(html)
    return tuple(float(v) for v in found.group(1).split()) if found else None


def _fix_metadata(document: Any, pdf: Any) -> None:
    """WeasyPrint finisher: fixed producer, no dates, in the PDF info dictionary."""
    import pydyf  # type: ignore[import-untyped, import-not-found, unused-ignore]

    pdf.info["Producer"] = pydyf.String(PRODUCER)
    for key in ("CreationDate", "ModDate"):
        pdf.info.pop(key, None)


def _set_boxes(pdf: Any, trim: tuple[float, ...]) -> None:
    """Each page's TrimBox on the cuts and its BleedBox the bleed beyond them (``trim``,
    :func:`_trim`), for a print shop's preflight: WeasyPrint sets both to the whole page."""
    import pydyf  # type: ignore[import-untyped, import-not-found, unused-ignore]

    left, top, right, bottom, bleed = (v * _PT_PER_MM for v in trim)
    for page in pdf.objects:
        if isinstance(page, pydyf.Dictionary) and page.get("Type") == "/Page":
            height = float(page["MediaBox"][3])
            box = (left, height - bottom, right, height - top)
            grown = (box[0] - bleed, box[1] - bleed, box[2] + bleed, box[3] + bleed)
            page["TrimBox"] = pydyf.Array([round(v, 3) for v in box])
            page["BleedBox"] = pydyf.Array([round(v, 3) for v in grown])


def _finisher(trim: tuple[float, ...] | None) -> Callable[[Any, Any], None]:
    """WeasyPrint's finisher for a page cut at ``trim`` (None: not cut)."""

    def finish(document: Any, pdf: Any) -> None:
        _fix_metadata(document, pdf)
        if trim is not None:
            _set_boxes(pdf, trim)

    return finish


def require_weasyprint() -> None:
    """Raise :class:`PdfUnavailable` now, before any work, if WeasyPrint is not installed.

    It looks the package up without importing it (the import takes most of a second, and a
    build whose PDFs are current renders none); missing system libraries are reported by
    :func:`render_pdf`, which a build calls before it writes anything."""
    if not extras.has("pdf"):
        raise PdfUnavailable(f"{_INSTALL_HINT} (No module named 'weasyprint')")


EMBEDDED_SCHEMES = ("data",)
"""URLs the renderer always may fetch: assets embedded in the page itself. A sheet is one
self-contained page (styles inline, diagrams as inline SVG), so it needs nothing else."""


def _local_folder(base_url: str | None) -> Path | None:
    """The folder a ``file:`` ``base_url`` names (its parent if it names a file), resolved."""
    if not base_url or not base_url.lower().startswith("file:"):
        return None
    from urllib.parse import urlsplit  # urllib.request costs 25 ms to import: only when needed
    from urllib.request import url2pathname

    parts = urlsplit(base_url)
    if parts.netloc not in ("", "localhost"):
        return None
    path = Path(url2pathname(parts.path))
    return (path if base_url.endswith("/") else path.parent).resolve()


def _url_fetcher(weasyprint: Any, base_url: str | None = None) -> Any:
    """A WeasyPrint URL fetcher that refuses every URL but :data:`EMBEDDED_SCHEMES` and, when
    the caller passed a ``file:`` ``base_url``, files inside that folder (links followed
    before the check). So no ``file:``, ``http:`` or other URL that a label smuggles into
    the markup is ever fetched; the sheets the build makes pass no ``base_url`` at all.
    WeasyPrint reports a refused resource as a warning and renders the page without it."""
    folder = _local_folder(base_url)

    def allowed(url: str) -> bool:
        scheme = url.partition(":")[0].lower()
        if scheme in EMBEDDED_SCHEMES:
            return True
        if scheme != "file":
            return False
        from urllib.parse import urlsplit
        from urllib.request import url2pathname

        parts = urlsplit(url)
        path = Path(url2pathname(parts.path)).resolve()
        inside = (folder,) if folder is not None else ()
        return parts.netloc in ("", "localhost") and any(
            path.is_relative_to(f) for f in (*inside, FONTS)
        )

    def refuse(url: str) -> ValueError:
        return ValueError(f"rulesdsl sheets fetch no external resource: {url[:80]}")

    fetcher_class = getattr(weasyprint, "URLFetcher", None)
    if fetcher_class is not None:  # WeasyPrint 66 and later

        class Fetcher(fetcher_class):  # type: ignore[misc, valid-type]
            def fetch(self, url: str, headers: Any = None) -> Any:
                if not allowed(url):
                    raise refuse(url)
                return super().fetch(url, headers)

        return Fetcher(allowed_protocols=(*EMBEDDED_SCHEMES, "file"), allow_redirects=False)
    default = weasyprint.default_url_fetcher  # pragma: no cover - older WeasyPrint

    def fetch(url: str, *args: Any, **kwargs: Any) -> Any:  # pragma: no cover
        if not allowed(url):
            raise refuse(url)
        return default(url, *args, **kwargs)

    return fetch


def rendered_from(pdf: bytes, html: str, *, base_url: str | None = None) -> bool:
    """Whether ``pdf`` is this module's rendering of ``html``: its file identifier (the
    first ``/ID`` entry, a hash of the input) matches. This is true across machines whose
    font subsetters differ, and costs no rendering."""
    return b"/ID [(" + _identifier(html, base_url) + b")" in pdf


MAX_REFITS = 4
"""How many times :func:`render_pdf` lets a ``refit`` lay the document out again."""


class Refit(Protocol):
    """A fitter that mends a layout that lost text: given what it lost, the HTML to try
    instead (None: stop, as when nothing was lost: then one layout is all a document
    costs). Decks give more room to the blocks that lost text; sheets split those tables
    for less width."""

    def __call__(self, losses: tuple[Loss, ...]) -> str | None: ...


def _weasyprint() -> Any:
    try:
        import weasyprint  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except (ImportError, OSError) as exc:  # OSError: Pango/HarfBuzz libraries missing
        raise PdfUnavailable(f"{_INSTALL_HINT} ({exc})") from exc
    _mend_html_parser()
    _keep_page_styles()
    return weasyprint


KEPT_STYLES = 8
"""How many pages' ``<style>`` texts :func:`_keep_page_styles` keeps parsed."""
_UNKEPT = re.compile(r"@font-face|@counter-style|@color-profile|@import|url\(|var\(", re.I)
"""What makes a stylesheet's parse depend on its document (fonts, counters, profiles it
registers, resources it fetches) or leaves state in it (``var()``): such a sheet is parsed
anew for every document."""


@cache
def _keep_page_styles() -> None:
    """Let WeasyPrint parse a page's own ``<style>`` text once a process, not once a layout.

    A sheet's or deck's ``<style>`` is the same stylesheet for every document of its kind
    and paper (a refit lays the same page out again), and WeasyPrint parsed it for each
    layout (about 0.01 s, a tenth of the HTML's parse). Here the parse of such a text
    (``CSS(string=...)``, as WeasyPrint's ``find_stylesheets`` makes it) is kept and given
    again, with its own lists of ``@page`` rules and layers, which are all the cascade reads
    of it: the same rules in the same order, so the same layout and bytes. A text that
    registers anything with the document's fonts, counters or colour profiles, or fetches
    (:data:`_UNKEPT`), is parsed as before; so is a stylesheet from a file or URL. Nothing
    is changed where WeasyPrint's cascade module has no ``CSS`` name (another version)."""
    try:
        from weasyprint import css as cascade  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:  # pragma: no cover
        return
    made: Any = getattr(cascade, "CSS", None)
    if made is None:  # pragma: no cover
        return

    @lru_cache(maxsize=KEPT_STYLES)
    def parsed(string: str, base_url: str | None, media_type: str) -> Any:
        return made(string=string, base_url=base_url, media_type=media_type)

    def style(*args: Any, **kwargs: Any) -> Any:
        string = kwargs.get("string")
        if args or not isinstance(string, str) or _UNKEPT.search(string):
            return made(*args, **kwargs)
        return parsed(string, kwargs.get("base_url"), kwargs.get("media_type", "print"))

    cascade.CSS = style


@cache
def _mend_html_parser() -> None:
    """Let WeasyPrint's HTML parser (tinyhtml5) keep the patterns it scans text with.

    Its ``chars_until`` files the pattern it builds for a set of characters under the pattern
    (``characters = cache[(characters, opposite)] = regex`` binds ``characters`` first), so
    it never finds it again: every attribute name, value and run of text of every document
    built and looked up a pattern anew, half the parse's CPU (0.07 s of a deck's 0.13 s).
    Here the pattern is filed under the set, where the parser looks, before it asks; the same
    pattern (a class of those characters, or of all others), so the same tree. Nothing is
    changed where the parser has no such cache or method (another version)."""
    try:
        from tinyhtml5 import inputstream  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:  # pragma: no cover - an older WeasyPrint parses with html5lib
        return
    patterns = getattr(inputstream, "characters_until_regex", None)
    stream: Any = getattr(inputstream, "HTMLUnicodeInputStream", None)
    chars_until = getattr(stream, "chars_until", None)
    if not isinstance(patterns, dict) or chars_until is None:  # pragma: no cover
        return

    def kept(self: Any, characters: Any, opposite: bool = False) -> Any:
        key = (characters, opposite)
        if key not in patterns:
            escaped = re.escape("".join(characters))
            patterns[key] = re.compile(f"[{escaped}]+" if opposite else f"[^{escaped}]+")
        return chars_until(self, characters, opposite)

    stream.chars_until = kept


@lru_cache(maxsize=2)
def _chars(html: str) -> str:
    """:func:`~rulesdsl.printed.font_subset.document_chars` of ``html``, kept for the render
    that asks it twice (its layout's fonts, then whether they are embedded whole)."""
    return document_chars(html)


@lru_cache(maxsize=4)
def _fonts(weasyprint: Any, chars: str) -> tuple[Any, Any]:
    """WeasyPrint's font configuration and the stylesheet of :func:`_base_css` for documents
    that print ``chars``, kept for the next such document: the sheet, the deck and its
    refits of one ruleset and language mostly print the same characters, and a layout with
    the fonts Pango has loaded already takes about a tenth less CPU (the same bytes: the
    faces are the same). Only the page's own stylesheet can fetch, so the fetcher here is
    the one that lets data: URLs through (the faces)."""
    fonts = weasyprint.text.fonts.FontConfiguration()
    css = weasyprint.CSS(
        string=_base_css(chars), url_fetcher=_url_fetcher(weasyprint), font_config=fonts
    )
    return fonts, css


def _lay_out(
    weasyprint: Any, html: str, base_url: str | None, refit: Refit | None, identifier: bytes
) -> tuple[Any, tuple[Loss, ...]]:
    """The layout of ``html`` (refitted), every try carrying ``identifier`` (the first
    HTML's, hashed once by the caller)."""
    fetcher = _url_fetcher(weasyprint, base_url)

    def lay_out(page: str) -> Any:
        fonts, css = _fonts(weasyprint, _chars(page))
        source = weasyprint.HTML(string=page, base_url=base_url, url_fetcher=fetcher)
        return source.render(font_config=fonts, stylesheets=[css], pdf_identifier=identifier)

    document = lay_out(html)
    losses = tuple(check_layout(document))
    for _ in range(MAX_REFITS if refit is not None else 0):
        assert refit is not None
        again = refit(losses)
        if again is None:
            break
        document = lay_out(again)
        losses = tuple(check_layout(document))
    return document, losses


def layout_losses(
    html: str, *, base_url: str | None = None, refit: Refit | None = None
) -> tuple[Any, tuple[Loss, ...]]:
    """What :func:`render_pdf` would find, without writing the PDF: the (refitted) layout, a
    WeasyPrint ``Document``, and its losses. The tests read every bundled document so."""
    weasyprint = _weasyprint()
    with _RENDER_LOCK, _fixed_source_date_epoch(), gc_paused():
        return _lay_out(weasyprint, html, base_url, refit, _identifier(html, base_url))


def render_pdf(
    html: str,
    *,
    base_url: str | None = None,
    refit: Refit | None = None,
) -> Rendered:
    """Render ``html`` to PDF and return the bytes; the same input always gives the same bytes.

    The layout is measured before it is written (:mod:`rulesdsl.printed.loss`): the result
    carries what text it loses or puts in the safe zone (``losses``), for the caller to report.
    Given ``refit`` (:class:`Refit`), a layout that lost text is laid out again from the HTML
    ``refit`` makes of its findings, at most :data:`MAX_REFITS` times, while it gives one; a
    layout that lost nothing is the only one. The PDF keeps the identifier of ``html`` (so
    :func:`rendered_from` still knows it), and a refit is deterministic, so the bytes are too.

    ``base_url`` resolves relative links, images and stylesheets in ``html``.
    The text is set in DejaVu Sans unless the page's CSS says otherwise (see
    the module docstring).  Raises :class:`PdfUnavailable` if WeasyPrint is
    not installed or cannot load its system libraries, and :class:`PdfTooLarge` for more
    HTML than :data:`rulesdsl.outputs.MAX_PDF_SOURCE_BYTES` (never an unbounded render).
    """
    from rulesdsl.outputs import MAX_PDF_SOURCE_BYTES  # not at import: `check` starts without it

    size = len(html.encode())
    if size > MAX_PDF_SOURCE_BYTES:
        raise PdfTooLarge(
            f"this document is too long to print as a PDF: {size / 1024:,.0f} KiB of HTML, "
            f"over the {MAX_PDF_SOURCE_BYTES // 1024:,} KiB limit (about 40 pages); "
            "make its HTML or Markdown instead, or split the ruleset"
        )
    weasyprint = _weasyprint()
    # The collector held off: WeasyPrint makes hundreds of thousands of boxes and styles that
    # stay alive until the page is written, and each collection would walk them all again
    # (the render takes 7-10 % less CPU).
    identifier = _identifier(html, base_url)
    with _RENDER_LOCK, _fixed_source_date_epoch(), gc_paused():
        document, losses = _lay_out(weasyprint, html, base_url, refit, identifier)
        # the faces are cut down already (_base_css): embedded whole, never subset again by
        # whichever subsetter WeasyPrint finds (HarfBuzz or fontTools write other bytes)
        whole = covers(_chars(html), FONTS)
        pdf: bytes = document.write_pdf(
            finisher=_finisher(_trim(html)), pdf_identifier=identifier, full_fonts=whole
        )
        # let go of the layout before the collector resumes: alive then, the first collection
        # would move it to an older generation, where it would wait, dead, for that one's
        del document
    return Rendered.of(pdf, losses)
