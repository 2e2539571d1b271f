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
* Embedded fonts are subset and named after an MD5 of the font and the glyphs
  used, never randomly.  WeasyPrint subsets with the HarfBuzz-Subset library
  (Debian ``libharfbuzz-subset0``) when it is installed, which is
  deterministic; without it WeasyPrint falls back to fontTools (and logs a
  warning), and fontTools stamps the subset's ``head.modified`` with the
  current time unless ``SOURCE_DATE_EPOCH`` is set.  So :func:`render_pdf`
  sets ``SOURCE_DATE_EPOCH=0`` for the duration of the render only, under a
  module lock, and restores the caller's value (or its absence) in a
  ``finally`` block; nothing else in WeasyPrint 70 or pydyf reads it.
* Compression is zlib, which is deterministic.

Fonts: a user stylesheet sets ``font-family`` to :data:`FONT_FAMILY`, which
starts with "DejaVu Sans".  The DejaVu fonts in ``/usr/share/fonts/truetype/dejavu``
(Debian package ``fonts-dejavu-core``) are found through fontconfig and cover
Latin (é, œ) and Cyrillic (Редкий лес).  Being a user stylesheet, it is
overridden by any ``font-family`` the HTML itself sets.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rulesdsl.gc_pause import gc_paused

__all__ = [
    "FONT_FAMILY",
    "PRODUCER",
    "SOURCE_DATE_EPOCH",
    "PdfTooLarge",
    "PdfUnavailable",
    "render_pdf",
]

#: Value written to the PDF ``/Producer`` field (no version, so it never changes).
PRODUCER = "rulesdsl"

#: CSS font stack applied to the whole document (overridable by the page's own CSS).
FONT_FAMILY = '"DejaVu Sans", "DejaVu Sans Condensed", "DejaVu Serif", sans-serif'

_BASE_CSS = f"html {{ font-family: {FONT_FAMILY}; }}"

#: ``SOURCE_DATE_EPOCH`` used while rendering (fontTools' subset timestamp, see above).
SOURCE_DATE_EPOCH = "0"

# Serialises renders, so concurrent calls cannot interleave the set/restore of
# SOURCE_DATE_EPOCH (and leave it set or unset for the wrong caller).
_RENDER_LOCK = threading.Lock()

_INSTALL_HINT = "PDF output needs WeasyPrint: pip install 'rulesdsl[pdf]'"


class PdfUnavailable(RuntimeError):
    """WeasyPrint (or a system library it needs, such as Pango) cannot be loaded."""


class PdfTooLarge(PdfUnavailable):
    """The HTML is over :data:`rulesdsl.outputs.MAX_PDF_SOURCE_BYTES`: too long to print
    usefully, and its render would hold gigabytes (the CLI reports it in one line)."""


def _identifier(html: str, base_url: str | None) -> bytes:
    """Stable PDF file identifier for this input: 32 hex digits of SHA-256."""
    digest = hashlib.sha256()
    digest.update(html.encode("utf-8"))
    digest.update(b"\0")
    digest.update((base_url or "").encode("utf-8"))
    return digest.hexdigest()[:32].encode("ascii")


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


def _fix_metadata(document: Any, pdf: Any) -> None:
    """WeasyPrint finisher: fixed producer, no dates, in the PDF info dictionary."""
    import pydyf  # type: ignore[import-untyped, import-not-found, unused-ignore]

    pdf.info["Producer"] = pydyf.String(PRODUCER)
    for key in ("CreationDate", "ModDate"):
        pdf.info.pop(key, None)


def require_weasyprint() -> None:
    """Raise :class:`PdfUnavailable` now, before any work, if WeasyPrint is not installed.

    It looks the package up without importing it (the import takes most of a second, and a
    build whose PDFs are current renders none); missing system libraries are reported by
    :func:`render_pdf`, which a build calls before it writes anything."""
    try:
        found = importlib.util.find_spec("weasyprint") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
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
        if scheme != "file" or folder is None:
            return False
        from urllib.parse import urlsplit
        from urllib.request import url2pathname

        parts = urlsplit(url)
        path = Path(url2pathname(parts.path)).resolve()
        return parts.netloc in ("", "localhost") and path.is_relative_to(folder)

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


def render_pdf(html: str, *, base_url: str | None = None) -> bytes:
    """Render ``html`` to PDF and return the bytes; the same input always gives the same bytes.

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
    try:
        import weasyprint  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except (ImportError, OSError) as exc:  # OSError: Pango/HarfBuzz libraries missing
        raise PdfUnavailable(f"{_INSTALL_HINT} ({exc})") from exc

    # The collector held off: WeasyPrint makes hundreds of thousands of boxes and styles that
    # stay alive until the page is written, and each collection would walk them all again
    # (the render takes 7-10 % less CPU).
    with _RENDER_LOCK, _fixed_source_date_epoch(), gc_paused():
        fetcher = _url_fetcher(weasyprint, base_url)
        document = weasyprint.HTML(string=html, base_url=base_url, url_fetcher=fetcher)
        pdf: bytes = document.write_pdf(
            stylesheets=[weasyprint.CSS(string=_BASE_CSS, url_fetcher=fetcher)],
            pdf_identifier=_identifier(html, base_url),
            finisher=_fix_metadata,
        )
    return pdf
