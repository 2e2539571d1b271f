"""What a rendered page shows, read from WeasyPrint's layout boxes (shared by the sheet and
card tests): text that lies outside the page or its card, and pages holding only headings.

What is lost is the product's own loss check (:mod:`rulesdsl.printed.loss`, which every
render runs): the tests hold the product to it rather than keep a second reading of
WeasyPrint's boxes that a WeasyPrint release could silently blind (WeasyPrint 70 lays a card
out as an ``AbsolutePlaceholder``, which the old reading did not know as a card). Decks are
laid out as ``render_deck`` prints them, refitted where the first estimate lost text.

Laying out is the slow part of these tests (about a second a document), so:

- each document is laid out once per test run, with the garbage collector held off, and only
  what the tests read of it is kept (:class:`Layout`), not WeasyPrint's boxes, which would
  make every later collection walk them again. What is kept is stored on disk under
  ``.pytest_cache/rulesdsl-layouts/<digest>/`` (tests/layout_store.py), the digest being that
  of the build (the compiler's code, the bundled rulesets, these readers, WeasyPrint's
  version): the second worker that needs a document waits for the first and reads it, and a
  later run of unchanged code lays nothing out again (``pytest --cache-clear`` empties it);
- a deck whose PDF a test reads back (the poker deck ``rulesdsl build`` writes, and the
  sizes and per-mode decks of :func:`read_back`) is rendered once (:func:`written_deck`) for
  the tests that read its layout and those that read its PDF; their tests share an xdist
  group (:func:`written_deck_group`), so that one worker runs them all (the suite runs with
  ``--dist loadgroup``, pyproject.toml). The PDF of the deck the build writes is the one
  it wrote (``generated/cards/``, :func:`_built_deck`): only laid out here, not written
  again;
- the full matrix, every bundled ruleset in every language, paper, card size and mode, is run
  with ``pytest --layout-matrix-full`` (dev/README.md); ``pytest --layout-matrix`` (CI,
  README's command) lays out a cover of it (:func:`matrix`, :func:`mode_cover`): every
  language's written deck and A4 sheet, each other size, paper and mode in one language,
  taken in turn. The developers' run lays out a sample (:func:`matrix`): each ruleset once,
  as a sheet or as a deck, in languages and sizes taken in turn, so that every language,
  paper and card size is laid out by some ruleset.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.gc_pause import gc_paused
from rulesdsl.printed import pdf
from rulesdsl.printed.card_room import LINE
from rulesdsl.printed.card_room import MM as PT_PER_MM
from rulesdsl.printed.cards import (
    CARD_SIZES,
    DEFAULT_PAPER,
    DEFAULT_SIZE,
    Deck,
    Refit,
    build_deck,
    render_deck,
    render_deck_html,
)
from rulesdsl.printed.loss import PX_PER_MM, Loss, check_layout, page_fills
from rulesdsl.printed.pdf import Rendered, layout_losses, rendered_from
from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.printed.sheet_view import Sheet
from rulesdsl.printed.sheets import Narrow, render_html, render_sheet
from tests.conftest import bundled
from tests.layout_store import counted, stored, stored_subsets
from tests.table_cells import past_cells

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted(p.stem for p in (ROOT / "rulesets").glob("*.terrain"))
HEADINGS = frozenset({"h1", "h2", "h3"})


@cache
def ruleset(name: str) -> ir.Ruleset:
    """A bundled ruleset, compiled once a process with the other tests' (conftest.bundled)."""
    compiled = bundled(name)
    assert compiled.ruleset is not None, name
    return compiled.ruleset


@cache
def deck(name: str, lang: str, size: str = "poker", mode: str | None = None) -> Deck:
    """:func:`build_deck` of a bundled ruleset, built once a process for the tests that read
    it (tests/test_print_economy.py, test_print_fit.py, test_print_parts.py,
    test_deck_bound.py, which only read it: rendering it changes nothing in it, and the
    layouts of :func:`deck_layout` and :func:`_built_deck`), from one sheet for
    every size (:func:`sheet`). They share the xdist group
    :func:`~tests.print_economy.deck_group`, so one worker builds each deck once for all of
    them."""
    return build_deck(ruleset(name), lang, size, mode, sheet=sheet(name, lang, mode))


@cache
def sheet(name: str, lang: str, mode: str | None = None) -> Sheet:
    """The sheet the decks of :func:`deck` are cut from and :func:`sheet_layout` lays out on
    every paper, as ``rulesdsl build`` gives one sheet to the sheets and every deck (cutting
    a deck or printing the sheet leaves it as built: tests/test_build_shared_sheets.py)."""
    return build_sheet(ruleset(name), lang, mode)


def cases() -> list[tuple[str, str]]:
    """(ruleset, language) for every bundled ruleset and each of its languages."""
    return [(name, lang) for name in RULESETS for lang in ruleset(name).languages]


def matrix(
    kinds: Sequence[str],
    half: int,
    group: Callable[[str, str, str], Any] | None = None,
    elsewhere: Callable[[str, str, str], bool] | None = None,
) -> list[Any]:
    """``(ruleset, language, kind)`` parameters for every case and each of ``kinds`` (papers
    or card sizes), every one but a sample marked ``layout_matrix``: those run only with
    ``pytest --layout-matrix`` (conftest.py), and those outside its cover only with
    ``--layout-matrix-full`` (:func:`matrix_marks`). ``group`` gives a case's xdist group
    mark, or None (:func:`written_deck_group`).

    The sample takes every other ruleset, from the first (``half`` 0) or the second
    (``half`` 1), so that the sheet and the deck tests share the rulesets between them; the
    k-th ruleset taken is laid out in kind ``k`` and language ``k + 1``, both taken round.

    The cover lays out every language in the first kind (A4, the poker deck: what ``rulesdsl
    build`` writes), each other kind in one language, taken in turn: the language of a case a
    test reads the PDF of (``group`` gives it a mark: it is laid out anyway), if any; none
    where ``elsewhere`` says a case of that kind is laid out and held to the same checks on
    another paper (:func:`on_letter`: the deck read back on Letter, the same cards). A case of
    the sample held so elsewhere is not sampled here but there (:func:`sample_elsewhere`):
    the cover lays its document out once, not on both papers."""
    params = []
    moved = sample_elsewhere(kinds, half, elsewhere) if elsewhere is not None else frozenset()
    for n, name in enumerate(RULESETS):
        languages = ruleset(name).languages
        sample = _sample(name, n, kinds, half)
        sample = None if sample is None or (name, *sample) in moved else sample
        grouped = {
            (lang, kind): group(name, lang, kind) if group is not None else None
            for lang in languages
            for kind in kinds
        }
        for lang in languages:
            for j, kind in enumerate(kinds):
                read = [other for other in languages if grouped[other, kind] is not None]
                away = elsewhere is not None and any(elsewhere(name, o, kind) for o in languages)
                turn = languages[(n + j) % len(languages)]
                covered = j == 0 or lang in read or (not read and not away and lang == turn)
                marks = matrix_marks((lang, kind) == sample, covered)
                marks += (grouped[lang, kind],) if grouped[lang, kind] is not None else ()
                params.append(pytest.param(name, lang, kind, marks=marks))
    return params


def _sample(name: str, n: int, kinds: Sequence[str], half: int) -> tuple[str, str] | None:
    """The developers' sample of :func:`matrix` for the ``n``-th ruleset: ``(language,
    kind)``, or None for a ruleset of the other half."""
    languages = ruleset(name).languages
    k, taken = divmod(n, 2)
    return (languages[(k + 1) % len(languages)], kinds[k % len(kinds)]) if taken == half else None


def sample_elsewhere(
    kinds: Sequence[str], half: int, elsewhere: Callable[[str, str, str], bool]
) -> frozenset[tuple[str, str, str]]:
    """``(ruleset, language, kind)`` of :func:`matrix`'s sample (but its first kind) that
    ``elsewhere`` lays out and holds to the same checks on another paper: sampled there
    instead (tests/test_print_matrix.py's Letter decks), so that ``pytest --layout-matrix``
    does not lay out the same cards on A4 too."""
    found = set()
    for n, name in enumerate(RULESETS):
        sample = _sample(name, n, kinds, half)
        if sample is not None and sample[1] != kinds[0] and elsewhere(name, *sample):
            found.add((name, *sample))
    return frozenset(found)


def matrix_marks(sampled: bool, covered: bool) -> tuple[Any, ...]:
    """None for a case of the developers' sample; ``layout_matrix`` for one of the cover
    (``pytest --layout-matrix``, README's command); both it and ``layout_full`` for the rest,
    the long form (``--layout-matrix-full``, dev/README.md)."""
    if sampled:
        return ()
    if covered:
        return (pytest.mark.layout_matrix,)
    return (pytest.mark.layout_matrix, pytest.mark.layout_full)


def mode_cover() -> frozenset[tuple[str, str, str]]:
    """``(ruleset, language, mode)`` of the per-mode decks ``pytest --layout-matrix`` lays
    out: every mode of each family of rulesets (a base and the variants that extend it) once,
    a deck of :func:`read_back` where there is one (laid out anyway), else the family's
    rulesets and languages taken in turn, so that each of its rulesets and
    languages is laid out too. A variant's per-mode deck differs from its base's only in
    what the variant changes; ``--layout-matrix-full`` lays out every one in every language."""
    families: dict[str, list[str]] = {}
    for name in RULESETS:
        extends = ruleset(name).extends
        root = extends[-1].id if extends and extends[-1].id in RULESETS else name
        families.setdefault(root, []).append(name)
    read = {
        (n, lang, mode)
        for n, lang, size, paper, mode in read_back()
        if mode and size == "poker" and paper == "a4"
    }
    done = {(name, mode) for name, _, mode in read}
    turns = {name: ruleset(name).languages.index(lang) + 1 for name, lang, _ in sorted(read)}
    cover = set(read)  # laid out anyway, for tests/test_print_done_when.py
    for members in families.values():
        modes = dict.fromkeys(m.id for name in members for m in ruleset(name).modes)
        for j, mode in enumerate(modes):
            having = [name for name in members if mode in {m.id for m in ruleset(name).modes}]
            if any((name, mode) in done for name in having):
                continue
            name = having[j % len(having)]
            languages = ruleset(name).languages
            cover.add((name, languages[turns.get(name, 0) % len(languages)], mode))
            turns[name] = turns.get(name, 0) + 1
    return frozenset(cover)


@dataclass(frozen=True)
class Face:
    """A card's front as laid out, read as tests/print_economy.py reads the written PDF's
    glyphs (issue 41: type, fill and boxes measured in every size)."""

    number: int
    part: tuple[int, int] | None
    """``(2, 3)`` on the second of three cards of a split block (its band's "2/3"), else None."""
    body: float
    """The least type of its body: all but the small print (:data:`SMALL_PRINT`)."""
    fill: float
    """How far its text reaches down its body (inside the safe zone, above the footer's
    lines; across, on a card set across), 0 to 1."""
    cut: tuple[float, float, float, float]
    """Where the card is cut (left, top, right, bottom), in millimetres: its box as laid out."""
    block: str = ""
    """The block it prints (``section/block``, its ``data-key``)."""
    head: str = ""
    """The words of its tables' headers (:func:`_words`), their note marks aside."""
    type: tuple[float, float] = (0.0, 0.0)
    """The median and the least type size of all its characters, footer included
    (:func:`type_sizes`)."""

    @property
    def last(self) -> bool:
        return self.part is None or self.part[0] == self.part[1]


@dataclass(frozen=True)
class Layout:
    """What the tests read of one laid-out document."""

    pages: int
    lost: tuple[str, ...]
    """Text outside its page or card (:func:`lost_text`), or past its table cell
    (:func:`~tests.table_cells.past_cells`)."""
    heading_only: tuple[int | str, ...]
    """Pages (sheets) or card ids (decks) showing a heading and nothing else."""
    fills: tuple[float, ...] = ()
    """How far down each page's body text reaches (sheets; not read of a deck, whose cards'
    fill is :attr:`Face.fill`)."""
    layouts: int = 1
    """How many times WeasyPrint laid the document out: once, and again for each refit."""
    seconds: float = 0.0
    """The CPU seconds those layouts took in WeasyPrint (``HTML.render``): what the suite
    cannot spend less on while it lays the document out (dev/layout_cost.py sums them)."""
    type: tuple[float, float] = (0.0, 0.0)
    """The median and the least type size of its characters, in points (:func:`type_sizes`)."""
    faces: tuple[Face, ...] = ()
    """Each card's front (decks)."""
    examples: int = 0
    """The page (from 1) the worked examples open, on pages of their own after the rules
    (sheets; 0 where there are none)."""
    charts: tuple[float, ...] = ()
    """The least type of each chart's texts as printed, in points (:func:`chart_types`)."""
    openings: tuple[str, ...] = ()
    """How each page's text opens (sheets: :func:`opening`), as tests/print_economy.py's
    ``rules_pages`` reads a written page's text for the page the worked examples open."""


def _layout(html: str, cards: bool, refit: Refit | Narrow | None = None) -> Layout:
    return _laid_out(html, cards, refit)[1]


@gc_paused()
def _laid_out(
    html: str, cards: bool, refit: Refit | Narrow | None
) -> tuple[tuple[Loss, ...], Layout]:
    """The losses of ``html``'s (refitted) layout and what the tests read of it, made with
    the collector held off. The document is let go before the collector resumes (a decorator,
    not a ``with`` block: this frame is gone by then), so the first collection frees it; a
    document alive then was moved to an older generation, where it waited for a collection
    of that generation, about twenty decks later (500 MB held in a card test's worker)."""
    with counted() as layouts, stored_subsets():
        document, losses = layout_losses(html, refit=refit)
        return losses, _read(document, losses, cards, layouts)


def _read(document: Any, losses: Sequence[Loss], cards: bool, layouts: list[float]) -> Layout:
    placed = [list(texts(page)) for page in document.pages]  # walked once for all the readings
    return Layout(
        pages=len(document.pages),
        lost=(*(loss.describe() for loss in losses), *past_cells(document)),
        heading_only=tuple(
            heading_only_cards(document, placed) if cards else heading_only_pages(document, placed)
        ),
        fills=() if cards else tuple(page_fills(document)),
        layouts=len(layouts),
        seconds=sum(layouts),
        type=type_sizes([t for page in placed for t in page]),
        faces=tuple(card_faces(document, placed)) if cards else (),
        examples=0 if cards else examples_page(document, placed),
        charts=tuple(chart_types(document)),
        openings=() if cards else tuple(opening(page) for page in placed),
    )


WRITTEN_SHEETS = (("battletech_tacops", "ru", "a4"), ("heavy_gear", "en", "a4"))
"""The sheets whose PDF a test reads (tests/test_print_fonts.py, tests/test_sheets.py):
each is rendered once (:func:`written_sheet`) for that reading and for its layout checks.
The Letter sheets' page budget (tests/test_print_economy.py) is read from their layouts
(:attr:`Layout.openings`), not from PDFs written for it."""


@cache
def sheet_layout(name: str, lang: str, paper: str) -> Layout:
    if (name, lang, paper) in WRITTEN_SHEETS:  # laid out once for PDF and layout
        return written_sheet(name, lang, paper).layout

    def make() -> Layout:  # the sheet the decks are cut from, as a build shares it
        model = sheet(name, lang)
        return _layout(render_html(model, paper), cards=False, refit=Narrow(model, paper))

    return stored(f"sheet-{name}-{lang}-{paper}", make)


READ_BACK_SAMPLE = (
    ("void_patrol", "fr", "tarot", "letter", None),
    ("battletech_tacops", "ru", "poker", "a4", "mech"),
    ("heavy_gear", "de", "a6", "a4", None),
    ("hex_operational", "fr", "index", "letter", None),
)
"""The decks of :func:`read_back` read on every run; the rest only with ``pytest
--layout-matrix`` (CI). A tuple, not a set: pytest-xdist's workers must collect the cases in
one order, and a set of strings is ordered by each process's own string hashes."""


@cache
def read_back() -> tuple[tuple[str, str, str, str, str | None], ...]:
    """``(ruleset, language, size, paper, mode)`` of the decks whose written PDF
    tests/test_print_done_when.py reads back: every ruleset in every language once, the card
    sizes and papers taken in turn (so each size is read on both papers), a per-mode deck of
    every ruleset, its modes and languages taken in turn, and :data:`READ_BACK_SAMPLE`. The
    product's loss check lays out the whole product of these (tests/test_cards.py, with
    ``--layout-matrix-full``); reading every one of those PDFs back too took about a quarter
    of an hour of CI on two cores, for no layout this cover does not already reach."""
    sizes = list(CARD_SIZES)
    papers = ("a4", "letter")
    decks: list[tuple[str, str, str, str, str | None]] = [
        (name, lang, sizes[i % len(sizes)], papers[i // len(sizes) % len(papers)], None)
        for i, (name, lang) in enumerate(cases())
    ]
    for i, name in enumerate(RULESETS):
        modes = ruleset(name).modes
        if modes:
            languages = ruleset(name).languages
            mode = modes[i % len(modes)].id
            decks.append((name, languages[i % len(languages)], "poker", "a4", mode))
    return (*decks, *(deck for deck in READ_BACK_SAMPLE if deck not in decks))


def on_letter(name: str, lang: str, size: str) -> bool:
    """Whether the deck of ``size`` is read back on Letter (:func:`read_back`): it is laid
    out on Letter for that, its cards the A4 deck's (a card's layout does not depend on the
    paper it is imposed on), and tests/test_print_matrix.py holds it there to what
    tests/test_cards.py holds the A4 decks to. The cover (:func:`matrix`) lays out no A4
    deck of that ruleset and size beside it, where no A4 deck of them is read back."""
    return (name, lang, size, "letter", None) in read_back()


def _written(name: str, lang: str, size: str, mode: str | None, paper: str) -> bool:
    """Whether the deck's PDF is read by a test: the poker deck `rulesdsl build` writes, or
    one of :func:`read_back`."""
    return (size, mode, paper) == ("poker", None, "a4") or (
        (name, lang, size, paper, mode) in read_back()
    )


@cache
def deck_layout(
    name: str, lang: str, size: str, mode: str | None = None, paper: str = "a4"
) -> Layout:
    if _written(name, lang, size, mode, paper):  # laid out once for its PDF and its layout
        return written_deck(name, lang, size, mode, paper).layout

    def make() -> Layout:  # the deck the other tests read, its sheet kept for the refits
        model = deck(name, lang, size, mode)
        refit = Refit(ruleset(name), lang, size, mode, paper, sheet=model.sheet)
        return _layout(render_deck_html(model, paper), cards=True, refit=refit)

    on = "" if paper == "a4" else f"-{paper}"
    return stored(f"deck-{name}-{lang}-{size}-{mode}{on}", make)


@dataclass(frozen=True)
class Written:
    """A deck as :func:`render_deck` writes it (or a sheet as :func:`render_sheet` does), and
    what the tests read of the document it was written from."""

    pdf: Rendered
    """The PDF, with the losses its loss check found."""
    layout: Layout
    tight: tuple[tuple[str, tuple[float, float]], ...] | None = None
    """The room its refit left the blocks that lost text (``Refit.tight``), where known (the
    deck the build wrote): the cards it wrote are :func:`build_deck`'s with it."""


@cache
def written_deck(
    name: str, lang: str, size: str = "poker", mode: str | None = None, paper: str = "a4"
) -> Written:
    """:func:`render_deck` of the deck (by default the poker deck on A4 that ``rulesdsl
    build`` writes: the file it wrote, :func:`_built_deck`), laid out (and refitted) once for
    both the tests that read its layout and those that read its PDF: the document is the one
    ``render_pdf`` hands WeasyPrint's finisher as it writes the PDF."""
    key = f"written-deck-{name}-{lang}-{size}-{mode}-{paper}"
    if (size, mode, paper) == (DEFAULT_SIZE, None, DEFAULT_PAPER):
        path = _built_path(name, lang)  # its bytes are kept: stored by them too
        key += f"-{hashlib.sha256(path.read_bytes()).hexdigest()[:12]}" if path.is_file() else ""
    return stored(key, lambda: _written_deck(name, lang, size, mode, paper))


def _built_path(name: str, lang: str) -> Path:
    """The deck ``rulesdsl build`` writes of ``name`` in ``lang``."""
    return ROOT / "generated" / "cards" / f"{name}.{lang}.pdf"


def _written_deck(name: str, lang: str, size: str, mode: str | None, paper: str) -> Written:
    if (size, mode, paper) == (DEFAULT_SIZE, None, DEFAULT_PAPER):
        built = _built_deck(name, lang)
        if built is not None:
            return built
    return _capture(lambda: render_deck(ruleset(name), lang, size, mode, paper), cards=True)


def _built_deck(name: str, lang: str) -> Written | None:
    """The deck ``rulesdsl build`` wrote, ``generated/cards/<name>.<lang>.pdf``, where it is
    :func:`render_deck`'s rendering of the deck as it is now (its identifier is the deck's
    HTML's: :func:`~rulesdsl.printed.pdf.rendered_from`, the test by which the build keeps
    it, and by which ``rulesdsl build --check`` finds it current): laid out (and refitted)
    here as :func:`render_deck` lays it out, its PDF not written a second time (about a
    second of CPU for BattleTech's Russian deck). None where the file is not that rendering
    (a deck changed and not built again): :func:`render_deck` writes it then."""
    path = _built_path(name, lang)
    model = deck(name, lang)  # as the build cuts it, from the sheet it shares
    html = render_deck_html(model, DEFAULT_PAPER)
    pdf = path.read_bytes() if path.is_file() else b""
    if not rendered_from(pdf, html):
        return None
    refit = Refit(ruleset(name), lang, DEFAULT_SIZE, None, DEFAULT_PAPER, sheet=model.sheet)
    losses, read = _laid_out(html, True, refit)
    return Written(Rendered.of(pdf, losses), read, tuple(sorted(refit.tight.items())))


@cache
def written_sheet(name: str, lang: str, paper: str) -> Written:
    """:func:`render_sheet`'s PDF of the sheet, laid out once for both
    the tests that read its layout and those that read its PDF, as :func:`written_deck`."""
    return stored(
        f"written-sheet-{name}-{lang}-{paper}",
        lambda: _capture(lambda: render_sheet(ruleset(name), "pdf", lang, paper), cards=False),
    )


@gc_paused()  # the document let go before the collector resumes, as :func:`_laid_out`
def _capture(render: Callable[[], Any], cards: bool) -> Written:
    """``render()``'s PDF and what the tests read of the document it was written from: the
    one ``render_pdf`` hands WeasyPrint's finisher as it writes the PDF."""
    documents: list[Any] = []
    finish = pdf._fix_metadata

    def finisher(document: Any, writer: Any) -> None:
        documents.append(document)
        finish(document, writer)

    with counted() as layouts, stored_subsets():
        pdf._fix_metadata = finisher  # type: ignore[assignment]
        try:
            written: Rendered = render()
        finally:
            pdf._fix_metadata = finish  # type: ignore[assignment]
        [document] = documents  # the finisher saw the one document written
        return Written(written, _read(document, written.losses, cards, layouts))


def written_deck_group(
    name: str, lang: str, size: str = "poker", mode: str | None = None, paper: str = "a4"
) -> Any:
    """The xdist group of the tests that read :func:`written_deck` of the deck (None for a
    deck no test reads the PDF of): one worker renders the deck for all of them."""
    if not _written(name, lang, size, mode, paper):
        return None
    return pytest.mark.xdist_group(f"written-deck-{name}-{lang}-{size}-{mode}-{paper}")


def committed_group(path: str) -> Any:
    """The xdist group of the tests that read ``generated/<path>``, a PDF ``rulesdsl build``
    wrote: a deck's is its written deck's (:func:`written_deck_group`), a sheet's its own;
    one worker reads the file once for all of them (:func:`tests.pdf_glyphs.preflight`)."""
    folder, file = path.split("/")
    name, lang, _ = file.split(".")
    if folder == "cards":
        return written_deck_group(name, lang)
    return pytest.mark.xdist_group(f"committed-{path}")


def sheet_group(name: str, lang: str, paper: str) -> Any:
    """The xdist group of the tests that read :func:`sheet_layout` of ``name`` on A4 (None
    for another paper): one worker lays each sheet out for all of them."""
    return pytest.mark.xdist_group(f"a4-sheet-{name}") if paper == "a4" else None


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
    size: float = 0.0
    """Its type size in points."""
    frame: Any = None
    """The box its card's text is laid out in: the card's, or on a card set across the
    box that is turned (``.turn``)."""


def _classes(box: Any) -> list[str]:
    element = getattr(box, "element", None)
    if element is None or not hasattr(element, "get"):
        return []
    return (element.get("class") or "").split()


def texts(page: Any) -> Iterator[Placed]:
    """Every piece of text laid out on ``page``, with where it is and what holds it."""

    def walk(
        box: Any,
        tags: tuple[str, ...],
        classes: frozenset[str],
        card: Any,
        margin: bool,
        frame: Any = None,
    ) -> Iterator[Placed]:
        tag = getattr(box, "element_tag", None)
        here = (*tags, tag) if tag and (not tags or tags[-1] != tag) else tags
        own = _classes(box)
        if "card" in own:  # whatever box class holds it (a BlockBox, an AbsolutePlaceholder)
            card = frame = box
        frame = box if "turn" in own else frame
        classes = classes | frozenset(own)
        margin = margin or bool(getattr(box, "at_keyword", None))
        if isinstance(getattr(box, "text", None), str):
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
                    box.style["font_size"] * PT_PER_PX,
                    frame,
                )
            return
        for child in getattr(box, "children", ()) or ():
            yield from walk(child, here, classes, card, margin, frame)

    yield from walk(page._page_box, (), frozenset(), None, False)


def lost_text(document: Any) -> list[str]:
    """Text outside the page's printable area, or outside the card it belongs to, or in its
    safe zone, or over other text: the product's loss check."""
    return [loss.describe() for loss in check_layout(document)]


def _placed(document: Any, placed: Sequence[Sequence[Placed]] | None) -> Iterator[Iterable[Placed]]:
    """Each page's :func:`texts`, or ``placed``: the pages' texts where already read."""
    if placed is not None:
        yield from placed
        return
    for page in document.pages:
        yield texts(page)


def heading_only_pages(
    document: Any, placed: Sequence[Sequence[Placed]] | None = None
) -> list[int]:
    """Pages whose only text (besides the running footer) is headings (``placed``: as
    :func:`_placed`)."""
    pages = []
    for number, page in enumerate(_placed(document, placed), start=1):
        body = [t for t in page if not t.margin and not HEADINGS & set(t.tags)]
        if not body:
            pages.append(number)
    return pages


def heading_only_cards(
    document: Any, placed: Sequence[Sequence[Placed]] | None = None
) -> list[str]:
    """Card fronts that show a title but nothing in their body (``placed``: as
    :func:`_placed`)."""
    body: dict[str, int] = {}
    for page in _placed(document, placed):
        for t in page:
            if t.card is not None and "front" in t.classes:
                key = t.card.element.get("id")
                body[key] = body.get(key, 0) + ("body" in t.classes)
    return sorted(key for key, count in body.items() if not count)


PT_PER_PX = 0.75
"""WeasyPrint lays out in CSS pixels, 96 to the inch."""

SMALL_PRINT = frozenset({"band", "notes", "after", "src", "foot"})
"""Classes of a card front's small print (cards.css), set under its body type: the topic band,
footnotes, the lines after a table, the source line and the footer; table headers
(:data:`SMALL_TAGS`) too."""
SMALL_TAGS = frozenset({"thead", "small", "sup"})


def type_sizes(placed: Sequence[Placed]) -> tuple[float, float]:
    """The median and least type size of the characters (spaces aside) of ``placed``, in
    points, as tests/print_economy.py reads them from a PDF's glyphs."""
    sizes = sorted(t.size for t in placed for char in t.text if not char.isspace())
    return (round(sizes[len(sizes) // 2], 2), round(sizes[0], 2)) if sizes else (0.0, 0.0)


def card_faces(document: Any, placed: Sequence[Sequence[Placed]] | None = None) -> list[Face]:
    """Every card front of a laid-out deck, in order (``placed``: as :func:`_placed`)."""
    fronts: dict[str, list[Placed]] = {}
    for page in _placed(document, placed):
        for t in page:
            if t.card is not None and "front" in t.classes:
                fronts.setdefault(t.card.element.get("id"), []).append(t)
    return [_face(int(key.split("-")[1]), placed) for key, placed in fronts.items()]


def _face(number: int, placed: list[Placed]) -> Face:
    card, frame = placed[0].card, placed[0].frame
    part = next((t.text for t in placed if "part" in t.classes), "")
    body = [t for t in placed if "foot" not in t.classes]
    # as tests/print_economy.py: the footer's lines at its type, and 2 points
    foot_lines = len({round(t.y) for t in placed if "foot" in t.classes})
    foot_size = max(t.size for t in placed if "foot" in t.classes)
    foot = (foot_lines * foot_size * LINE + 2) / PT_PER_MM
    top, height = frame.content_box_y() / PX_PER_MM, frame.height / PX_PER_MM
    lowest = max(t.y + t.height for t in body) / PX_PER_MM
    body_type = [t for t in placed if not SMALL_PRINT & t.classes | SMALL_TAGS & set(t.tags)]
    first, _, of = part.partition("/")
    left, cut_top = card.border_box_x() / PX_PER_MM, card.border_box_y() / PX_PER_MM
    return Face(
        number,
        (int(first), int(of)) if part else None,
        type_sizes(body_type)[1],
        round(min(1.0, (lowest - top) / (height - foot)), 3),
        (
            round(left, 2),
            round(cut_top, 2),
            round(left + card.border_width() / PX_PER_MM, 2),
            round(cut_top + card.border_height() / PX_PER_MM, 2),
        ),
        frame.element.get("data-key") or "",
        _words(t.text for t in placed if "thead" in t.tags and "sup" not in t.tags),
        type_sizes(placed),
    )


def _words(texts: Iterable[str]) -> str:
    """``texts`` run together, without the spaces and hyphens where lines broke."""
    return "".join("".join(texts).split()).replace("\u2010", "")


def group_ends(faces: Sequence[Face]) -> set[int]:
    """The cards that end a column group of a table split both ways, or the table itself
    where its block goes on after it, as tests/print_economy.py's ``column_group_ends`` finds
    them in the deck's model: the next card prints the same block's table under other
    headers, or the block's lines after the table."""
    return {
        f.number
        for f, after in itertools.pairwise(faces)
        if f.block == after.block and f.head and f.head != after.head
    }


def chart_types(document: Any) -> Iterator[float]:
    """The least type of each chart's texts (its ``<svg>``'s ``font-size``, in points drawn)
    as printed: times the width the chart is laid out at over the width it is drawn at (a
    chart narrower than drawn prints its labels smaller). A chart is drawn, not laid out as
    text, so :func:`texts` does not see its labels."""

    def walk(box: Any) -> Iterator[float]:
        element = getattr(box, "element", None)
        if (getattr(box, "element_tag", None) or "").endswith("svg") and element is not None:
            drawn = float(element.get("width").removesuffix("pt"))
            sizes = [float(e.get("font-size")) for e in element.iter() if e.get("font-size")]
            if sizes:
                yield round(min(sizes) * box.width * PT_PER_PX / drawn, 2)
            return
        for child in getattr(box, "children", ()) or ():
            yield from walk(child)

    for page in document.pages:
        yield from walk(page._page_box)


def examples_page(document: Any, placed: Sequence[Sequence[Placed]] | None = None) -> int:
    """The page (from 1) a sheet's worked examples open (``section.topic-examples``), or 0
    (``placed``: as :func:`_placed`)."""
    for number, page in enumerate(_placed(document, placed), start=1):
        if any("topic-examples" in t.classes for t in page):
            return number
    return 0


OPENING = 120
"""The characters of a page's text :attr:`Layout.openings` keeps: more than a title."""


def opening(page: Sequence[Placed]) -> str:
    """The first :data:`OPENING` characters of a page's text (the running footer and page
    number aside), its lines' texts in the order laid out, a line break between lines."""
    text, line = "", None
    for t in page:
        if not t.margin:
            text += ("\n" if line is not None and t.y != line else "") + t.text
            line = t.y
            if len(text) >= OPENING:
                break
    return text[:OPENING]
