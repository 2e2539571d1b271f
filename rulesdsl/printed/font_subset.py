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
import pickle
from functools import lru_cache
from pathlib import Path
from typing import Any

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
    loaded, refers_to_names = _loaded(path)
    font = pickle.loads(loaded)
    if refers_to_names:
        subsetter.subset(font)
    else:
        names = font["name"]
        del font["name"]
        subsetter.subset(font)
        names.prune_post_subset(TTFont(), options)  # an empty font: it refers to no name
        font["name"] = names
    out = io.BytesIO()
    font.save(out)
    return base64.b64encode(out.getvalue()).decode("ascii")


LAYOUT_TABLES = ("GDEF", "GSUB", "GPOS", "MATH")
"""The tables of a face that fontTools takes longest to read (a third of a cut's CPU)."""


@lru_cache(maxsize=2)
def _loaded(path: Path) -> tuple[bytes, bool]:
    """The face at ``path`` read, its :data:`LAYOUT_TABLES` decoded, and pickled: each cut
    starts from a copy of it (unpickled, a fifth of the reading), not from the file. And
    whether its tables refer to ``name`` records (:func:`_refers_to_names`).

    fontTools' subsetter keeps the names its ``Options.name_IDs`` list and those the face's
    tables refer to, found by walking every table of the cut face (a quarter of a cut's CPU).
    A face that refers to none (the shipped faces) has none referred to in any cut, so
    :func:`_subset` takes the ``name`` table out before the cut and puts it back pruned as the
    walk would leave it, with nothing referred to: the same bytes, without the walk."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped, unused-ignore]

    font = TTFont(path, recalcTimestamp=False)
    for tag in LAYOUT_TABLES:
        if tag in font:
            font[tag]  # decoded now, once
    return pickle.dumps(font, protocol=pickle.HIGHEST_PROTOCOL), _refers_to_names(font)


def _refers_to_names(font: Any) -> bool:
    """Whether a table of ``font`` may refer to a ``name`` record: what fontTools' subsetter
    walks the font for (``NameRecordVisitor``: a layout feature's parameters, ``fvar``,
    ``STAT``, ``CPAL``)."""
    if any(tag in font for tag in ("fvar", "STAT", "CPAL", "feat")):
        return True
    return any(
        record.Feature.FeatureParams is not None
        for tag in ("GSUB", "GPOS")
        if tag in font and font[tag].table.FeatureList is not None
        for record in font[tag].table.FeatureList.FeatureRecord
    )
