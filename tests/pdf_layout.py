"""What a rendered page shows, read from WeasyPrint's layout boxes (shared by the sheet and
card tests): text that lies outside the page or its card, and pages holding only headings.

Laying out is the slow part of these tests (about a second a document), so:

- each document is laid out once per worker, with the garbage collector held off, and only
  what the tests read of it is kept (:class:`Layout`), not WeasyPrint's boxes, which would
  make every later collection walk them again;
- the full matrix, every bundled ruleset in every language, paper and card size, is run with
  ``pytest --layout-matrix`` (CI does). The developers' run lays out a sample (:func:`matrix`):
  each ruleset once, as a sheet or as a deck, in languages and sizes taken in turn, so that
  every language, paper and card size is laid out by some ruleset.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import weasyprint

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from rulesdsl.gc_pause import gc_paused
from rulesdsl.printed.cards import build_deck, render_deck_html
from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.printed.sheets import render_html

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted(p.stem for p in (ROOT / "rulesets").glob("*.terrain"))
TOLERANCE = 0.75
"""CSS pixels a glyph box may stick out (anti-aliasing, rounding)."""

HEADINGS = frozenset({"h1", "h2", "h3"})


@cache
def _compiler() -> Compiler:
    """One compiler for the bundled rulesets: it keeps each file compiled once, so a variant's
    bases are not compiled again."""
    return Compiler()


@cache
def ruleset(name: str) -> ir.Ruleset:
    compiled = _compiler().compile_file(ROOT / "rulesets" / f"{name}.terrain")
    assert compiled.ruleset is not None, name
    return compiled.ruleset


def cases() -> list[tuple[str, str]]:
    """(ruleset, language) for every bundled ruleset and each of its languages."""
    return [(name, lang) for name in RULESETS for lang in ruleset(name).languages]


def matrix(kinds: Sequence[str], half: int) -> list[Any]:
    """``(ruleset, language, kind)`` parameters for every case and each of ``kinds`` (papers
    or card sizes), every one but a sample marked ``layout_matrix``: those run only with
    ``pytest --layout-matrix`` (conftest.py).

    The sample takes every other ruleset, from the first (``half`` 0) or the second
    (``half`` 1), so that the sheet and the deck tests share the rulesets between them; the
    k-th ruleset taken is laid out in kind ``k`` and language ``k + 1``, both taken round."""
    params = []
    for n, name in enumerate(RULESETS):
        languages = ruleset(name).languages
        k, taken = divmod(n, 2)
        sample = (languages[(k + 1) % len(languages)], kinds[k % len(kinds)])
        for lang in languages:
            for kind in kinds:
                keep = taken == half and (lang, kind) == sample
                marks = () if keep else (pytest.mark.layout_matrix,)
                params.append(pytest.param(name, lang, kind, marks=marks))
    return params


@dataclass(frozen=True)
class Layout:
    """What the tests read of one laid-out document."""

    pages: int
    lost: tuple[str, ...]
    """Text outside its page or card (:func:`lost_text`)."""
    heading_only: tuple[int | str, ...]
    """Pages (sheets) or card ids (decks) showing a heading and nothing else."""


def _layout(html: str, cards: bool) -> Layout:
    with gc_paused():
        document = weasyprint.HTML(string=html).render()
        return Layout(
            pages=len(document.pages),
            lost=tuple(lost_text(document)),
            heading_only=tuple(
                heading_only_cards(document) if cards else heading_only_pages(document)
            ),
        )


@cache
def sheet_layout(name: str, lang: str, paper: str) -> Layout:
    return _layout(render_html(build_sheet(ruleset(name), lang), paper), cards=False)


@cache
def deck_layout(name: str, lang: str, size: str) -> Layout:
    return _layout(render_deck_html(build_deck(ruleset(name), lang, size), "a4"), cards=True)


@dataclass(frozen=True)
class Placed:
    text: str
    x: float
    y: float
    width: float
    height: float
    tags: tuple[str, ...]
    """Element tags of the ancestors, outermost first."""
    classes: frozenset[str]
    """Classes of the ancestor elements."""
    card: Any
    """The nearest ancestor box of class ``card``, if any."""
    margin: bool
    """Inside a page-margin box (running footer, page number)."""


def _classes(box: Any) -> list[str]:
    element = getattr(box, "element", None)
    if element is None or not hasattr(element, "get"):
        return []
    return (element.get("class") or "").split()


def texts(page: Any) -> Iterator[Placed]:
    """Every piece of text laid out on ``page``, with where it is and what holds it."""

    def walk(
        box: Any, tags: tuple[str, ...], classes: frozenset[str], card: Any, margin: bool
    ) -> Iterator[Placed]:
        kind = type(box).__name__
        tag = getattr(box, "element_tag", None)
        here = (*tags, tag) if tag and (not tags or tags[-1] != tag) else tags
        own = _classes(box)
        if "card" in own and kind == "BlockBox":
            card = box
        classes = classes | frozenset(own)
        margin = margin or kind == "MarginBox"
        if kind == "TextBox":
            if box.text.strip():
                yield Placed(
                    box.text,
                    box.position_x,
                    box.position_y,
                    box.width,
                    box.height,
                    here,
                    classes,
                    card,
                    margin,
                )
            return
        for child in getattr(box, "children", ()) or ():
            yield from walk(child, here, classes, card, margin)

    yield from walk(page._page_box, (), frozenset(), None, False)


def lost_text(document: Any) -> list[str]:
    """Text outside the page's printable area, or outside the card it belongs to."""
    problems = []
    for number, page in enumerate(document.pages, start=1):
        box = page._page_box
        left, top = box.content_box_x(), box.content_box_y()
        right, bottom = left + box.width, top + box.height
        for t in texts(page):
            if t.margin:
                right_edge, bottom_edge = page.width, page.height
                left_edge = top_edge = 0.0
            elif t.card is not None:
                c = t.card
                left_edge, top_edge = c.border_box_x(), c.border_box_y()
                right_edge = left_edge + c.border_width()
                bottom_edge = top_edge + c.border_height()
            else:
                left_edge, top_edge, right_edge, bottom_edge = left, top, right, bottom
            if (
                t.x < left_edge - TOLERANCE
                or t.y < top_edge - TOLERANCE
                or t.x + t.width > right_edge + TOLERANCE
                or t.y + t.height > bottom_edge + TOLERANCE
            ):
                problems.append(
                    f"page {number}: {t.text!r} at ({t.x:.0f}, {t.y:.0f}) "
                    f"size {t.width:.0f}x{t.height:.0f} outside "
                    f"({left_edge:.0f}, {top_edge:.0f})-"
                    f"({right_edge:.0f}, {bottom_edge:.0f})"
                )
    return problems


def heading_only_pages(document: Any) -> list[int]:
    """Pages whose only text (besides the running footer) is headings."""
    pages = []
    for number, page in enumerate(document.pages, start=1):
        body = [t for t in texts(page) if not t.margin and not HEADINGS & set(t.tags)]
        if not body:
            pages.append(number)
    return pages


def heading_only_cards(document: Any) -> list[str]:
    """Card fronts that show a title but nothing in their body."""
    body: dict[str, int] = {}
    for page in document.pages:
        for t in texts(page):
            if t.card is not None and "front" in t.classes:
                key = t.card.element.get("id")
                body[key] = body.get(key, 0) + ("body" in t.classes)
    return sorted(key for key, count in body.items() if not count)
