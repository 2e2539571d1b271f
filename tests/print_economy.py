"""What a written deck or sheet spends, read with pypdfium2 (issue 41): a deck's cards and how
full each is (the share of the card's body, inside the safe zone and above the footer, its
text reaches down to, or across to on a card set across, and which part of its table it
is), and how many pages a sheet's rules take before its worked examples."""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pypdfium2
import pytest

from rulesdsl.printed.card_room import LINE, foot_size
from rulesdsl.printed.cards import (
    CARD_SIZES,
    DEFAULT_PAPER,
    SAFE_ZONE,
    Card,
    Deck,
    Refit,
    build_deck,
    imposition,
    render_deck_html,
)
from rulesdsl.printed.pdf import render_pdf
from rulesdsl.printed.sheet_model import build_sheet
from tests import pdf_layout
from tests.pdf_glyphs import PT_PER_MM, Glyph, both_glyphs, glyphs
from tests.pdf_layout import deck as deck
from tests.pdf_layout import sheet as sheet

HALF = 0.5
"""The least share of its body a card's text reaches, but the last card of its block."""

LEAST_PT = 6.0
MEDIAN_PT = 7.0
"""Issue 41 goal 3: no text under 6 points on a card or a sheet, footers, source tags and note
marks included, and half of it or more at 7 points, read from the written PDFs' glyphs (and,
in every size and paper, from the layout: tests/pdf_layout.py)."""
GENERATED = Path(__file__).resolve().parent.parent / "generated"


@dataclass(frozen=True)
class Filled:
    number: int
    """The card's number in the deck."""
    part: tuple[int, int] | None
    """``(2, 3)`` for the second of three parts of a split block, else None."""
    fill: float
    """How far its text reaches into its body, 0 to 1."""
    type: tuple[float, float] = (0.0, 0.0)
    """The median and the least type size of its glyphs, footer included, in points."""

    @property
    def last(self) -> bool:
        return self.part is None or self.part[0] == self.part[1]


def card_fills(
    pdf: bytes,
    ruleset: str,
    size: str = "poker",
    paper: str = "a4",
    pages: list[list[Glyph]] | None = None,
) -> list[Filled]:
    """Every front of a deck imposed on ``paper``, in order (``pages``: its
    :func:`~tests.pdf_glyphs.glyphs`, where already read)."""
    card = CARD_SIZES[size]
    layout = imposition(card, paper)
    foot = (card.foot_lines * foot_size(card) * LINE + 2) / PT_PER_MM
    pages = glyphs(pdf) if pages is None else pages
    document = pypdfium2.PdfDocument(pdf)
    found = []
    try:
        for p in range(0, len(pages), 2):  # each sheet of fronts, then its backs
            text = document[p].get_textpage()
            height = document[p].get_height()
            for i in range(layout.per_sheet):
                slot = layout.slot(i)
                box = (slot.left, slot.top, slot.left + card.width, slot.top + card.height)
                inside = [g for g in pages[p] if _within(g, box)]
                if not inside:
                    break
                words = text.get_text_bounded(
                    box[0] * PT_PER_MM,
                    height - box[3] * PT_PER_MM,
                    box[2] * PT_PER_MM,
                    height - box[1] * PT_PER_MM,
                )
                found.append(_filled(inside, words, box, foot, ruleset))
    finally:
        document.close()
    return found


def column_group_ends(deck: Deck) -> set[int]:
    """The numbers of the cards that hold the last rows of a column group of a table split
    both ways (its next part prints other columns): a group repeats the label column and
    reads as a table of its own, so its last card counts as the last of its table. So does
    the last card of a table whose block goes on after it (its lines after the table, on a
    card of the same title, which the written deck's numbering counts as the block's)."""
    pairs = zip(deck.cards, deck.cards[1:], strict=False)
    return {
        card.number
        for card, after in pairs
        if card.table is not None and after.block == card.block
        if after.table is None or _columns(after) != _columns(card)
    }


def _columns(card: Card) -> list[list[str]]:
    assert card.table is not None
    return [[h.text for h in row] for row in card.table.head]


def _within(g: Glyph, box: tuple[float, float, float, float]) -> bool:
    x, y = (g.x0 + g.x1) / 2, (g.y0 + g.y1) / 2
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _filled(
    inside: list[Glyph], words: str, box: tuple[float, ...], foot: float, ruleset: str
) -> Filled:
    left, top, right, bottom = (
        box[0] + SAFE_ZONE,
        box[1] + SAFE_ZONE,
        box[2] - SAFE_ZONE,
        box[3] - SAFE_ZONE,
    )
    upright = [g for g in inside if g.y0 >= bottom - foot]
    if len(upright) > 5:  # the footer lies along the bottom: the card is upright
        body = [g for g in inside if g.y1 < bottom - foot]
        fill = (max(g.y1 for g in body) - top) / (bottom - foot - top)
    else:  # set across: the body runs from the left, the footer stands at the right
        body = [g for g in inside if g.x1 < right - foot]
        fill = (max(g.x1 for g in body) - left) / (right - foot - left)
    # a dice table's chance, "21/36 · 58.3 %", is no part of a split block
    numbers = re.findall(rf"(\d+)/(\d+)(?![\d\s]*·)(\s+{re.escape(ruleset)})?", words)
    [number] = [int(a) for a, _, own in numbers if own]
    parts = [(int(a), int(b)) for a, b, own in numbers if not own]
    sizes = sorted(g.size for g in inside)
    return Filled(
        number,
        parts[0] if parts else None,
        round(min(1.0, fill), 3),
        (sizes[len(sizes) // 2], sizes[0]),
    )


def texts(pdf: bytes) -> list[str]:
    """Each page's text."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()


def deck_cards(pdf: bytes, ruleset: str) -> int:
    """The cards a written deck holds, read from the first card's number ``1/N``."""
    found = re.search(rf"\b1/(\d+)\s+{re.escape(ruleset)}\b", texts(pdf)[0])
    assert found is not None
    return int(found.group(1))


def rules_pages(pages: Sequence[str], examples: str) -> int:
    """The pages a sheet's rules take: those before the page that opens with the worked
    examples' title ``examples`` (all of them where it has none), from each page's text: a
    written sheet's (:func:`texts`), or how each page of its layout opens
    (:attr:`~tests.pdf_layout.Layout.openings`). A line may break inside the title."""
    title = " ".join(examples.split())
    for number, text in enumerate(pages):
        if number and " ".join(text.split()).startswith(title):
            return number
    return len(pages)


def examples_title(name: str, lang: str) -> str:
    """The title of the worked examples' topic on the sheet of ``name`` in ``lang``."""
    sheet = build_sheet(pdf_layout.ruleset(name), lang)
    return next((s.title for s in sheet.sections if s.id == "examples"), "\0")


def small_runs(pages: tuple[tuple[str, array[float]], ...], under: float) -> list[str]:
    """The runs of glyphs set under ``under`` points in a written PDF (its
    :attr:`Printed.pages`): consecutive glyphs of a page in reading order (no spaces)."""
    runs: list[str] = []
    for text, sizes in pages:
        small = False
        for char, size in zip(text, sizes, strict=True):
            if size < under and small:
                runs[-1] += char
            elif size < under:
                runs.append(char)
            small = size < under
    return runs


@dataclass(frozen=True)
class Printed:
    """What the tests read of the glyphs of a deck or sheet ``rulesdsl build`` wrote, read
    once a process (:func:`printed`): the glyphs themselves, kept, would take megabytes a
    document."""

    pages: tuple[tuple[str, array[float]], ...]
    """Each page's glyphs in reading order: their characters and type sizes in points."""
    fills: tuple[Filled, ...]
    """A deck's fronts (:func:`card_fills`); none for a sheet."""


@cache
def printed(kind: str, name: str, lang: str) -> Printed:
    """:class:`Printed` of ``generated/<kind>/<name>.<lang>.pdf`` (kind ``cards`` or
    ``sheets``). The tests that read one document share its xdist group
    (:func:`deck_group`), so one worker reads its glyphs once for all of them."""
    pdf = (GENERATED / kind / f"{name}.{lang}.pdf").read_bytes()
    pages = both_glyphs(pdf)[1] if kind == "cards" else glyphs(pdf)  # the deck's: shared
    fills = card_fills(pdf, name, pages=pages) if kind == "cards" else []
    return Printed(
        tuple(
            ("".join(g.text for g in page), array("d", [g.size for g in page])) for page in pages
        ),
        tuple(fills),
    )


@cache
def written_deck(name: str, lang: str) -> Deck:
    """The poker deck of ``generated/cards/`` as the build made it: :func:`deck`, or where
    its first layout lost text, the deck the build's refit cut again with less room for the
    blocks that lost it (:class:`~rulesdsl.printed.cards.Refit`), which has other cards: cut
    again here with the room the refit left them as :func:`~tests.pdf_layout.written_deck`
    laid the built deck out (the same xdist group: :func:`deck_group`), not laid out again;
    laid out here as the build lays it out only where that room is not known."""
    model = deck(name, lang)
    tight = pdf_layout.written_deck(name, lang).tight
    if tight is not None:  # () where the build did not refit it
        rs = pdf_layout.ruleset(name)
        return build_deck(rs, lang, "poker", None, dict(tight), model.sheet) if tight else model
    refit = Refit(pdf_layout.ruleset(name), lang, "poker", None, DEFAULT_PAPER, sheet=model.sheet)
    render_pdf(render_deck_html(model, DEFAULT_PAPER), refit=refit)
    return refit.deck or model


def deck_group(name: str, lang: str) -> Any:
    """The xdist group of the tests that read the decks (:func:`deck`) or the written PDFs
    (:func:`printed`) of ``name`` in ``lang``: that of the deck ``rulesdsl build`` writes
    (:func:`~tests.pdf_layout.written_deck_group`), whose other readers
    (tests/test_print_loss.py, test_print_preflight.py) read its glyphs once with these
    (:func:`~tests.pdf_glyphs.both_glyphs`)."""
    return pdf_layout.written_deck_group(name, lang)


def deck_cases() -> list[Any]:
    """``(name, lang)`` of :func:`~tests.pdf_layout.cases`, each in its :func:`deck_group`."""
    return [pytest.param(*case, marks=deck_group(*case)) for case in pdf_layout.cases()]
