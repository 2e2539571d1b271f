"""The shipped faces cut down to the characters one document uses, by fontTools, before
WeasyPrint lays it out: so a PDF's bytes do not depend on which subsetter WeasyPrint finds.

WeasyPrint subsets the fonts it embeds with HarfBuzz-Subset where the library is installed and
with fontTools where it is not, and the two write different bytes for the same glyphs (issue
41, goal 5). :func:`faces_css` gives the ``@font-face`` rules of the family ``rulesdsl Sans``
with each face already cut down here (one path on every machine: fontTools, a dependency of
WeasyPrint, with the face's own timestamp kept), as ``data:`` URLs; the renderer then embeds
them whole (WeasyPrint's ``full_fonts``), so WeasyPrint's own subsetter never runs. A
document with characters the shipped faces lack (:func:`covers`) gets them from the machine's
fonts, which must not be embedded whole: WeasyPrint subsets it as before, and its bytes
depend on the subsetter again.

A face keeps every character of the document's text (its HTML, entities decoded: a superset of
what prints) and :data:`ALWAYS` (what the layout may add itself: hyphens, page numbers), with
the glyphs its layout tables reach from them (ligatures, kerning), so the layout is the one
the whole face gives.
"""

from __future__ import annotations

import base64
import html as html_text
import io
from functools import lru_cache
from pathlib import Path

__all__ = ["ALWAYS", "FACES", "covers", "document_chars", "faces_css"]

FACES = (("DejaVuSansCondensed.ttf", "normal"), ("DejaVuSansCondensed-Bold.ttf", "bold"))
"""The shipped faces (in :data:`rulesdsl.printed.pdf.FONTS`) and their weights."""

ALWAYS = "".join(map(chr, range(0x20, 0x7F))) + "\u00a0\u00ad\u2010\u2011\u2013\u2014\u2026\u202f"
"""Characters every subset keeps: printable ASCII (page numbers, the footer's digest) and the
hyphens, dashes, ellipsis and no-break spaces a layout may set that the HTML does not spell."""


def document_chars(document: str) -> str:
    """The characters ``document`` (HTML, entities decoded) can print, with :data:`ALWAYS`."""
    return "".join(sorted(set(html_text.unescape(document)) | set(ALWAYS)))


def faces_css(chars: str, folder: Path) -> str:
    """``@font-face`` rules for the faces in ``folder``, each cut down to ``chars``."""
    return "".join(
        f'@font-face {{ font-family: "rulesdsl Sans"; src: url("data:font/ttf;base64,'
        f'{_subset(folder / name, chars)}"); font-weight: {weight}; font-style: normal; }}\n'
        for name, weight in FACES
    )


def covers(chars: str, folder: Path) -> bool:
    """Whether the shipped faces have every one of ``chars`` but controls and spaces: else
    the layout takes some from the machine's fonts, which must not be embedded whole."""
    have = _cmap(folder / FACES[0][0])
    return all(c in have or not c.isprintable() or c.isspace() for c in chars)


@lru_cache(maxsize=2)
def _cmap(path: Path) -> frozenset[str]:
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped, unused-ignore]

    return frozenset(map(chr, TTFont(path, lazy=True).getBestCmap()))


LIGATURES = frozenset({"liga", "clig", "dlig", "hlig"})
"""Ligature features a face loses. With them, "fi" and "fl" were set as one glyph that the PDF's
text gives back as U+FB01 (pypdf) or not at all (pdfium): a player searching a sheet for
"file" or "difficult", or a screen reader, missed the word."""


@lru_cache(maxsize=2)
def _all_features(path: Path) -> tuple[str, ...]:
    """The layout features the face at ``path`` has (GSUB and GPOS)."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped, unused-ignore]

    font = TTFont(path, lazy=True)
    found = {
        record.FeatureTag
        for tag in ("GSUB", "GPOS")
        if tag in font
        for record in font[tag].table.FeatureList.FeatureRecord
    }
    return tuple(sorted(found))


@lru_cache(maxsize=16)
def _subset(path: Path, chars: str) -> str:
    """The face at ``path`` cut down to ``chars``, base64 (remembered: a build renders the
    sheet and deck of one ruleset and language, which share most characters, in turn)."""
    from fontTools import subset  # type: ignore[import-untyped, unused-ignore]
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped, unused-ignore]

    options = subset.Options(notdef_outline=True, hinting=False, desubroutinize=True)
    options.layout_features = [f for f in _all_features(path) if f not in LIGATURES]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in chars])
    font = TTFont(path, recalcTimestamp=False)
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return base64.b64encode(out.getvalue()).decode("ascii")
