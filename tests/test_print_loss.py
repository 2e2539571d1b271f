"""The loss check (issue 23): every render measures its own output and says what text it
loses past a card's cut or the page's printable area, puts in the safe zone or prints over
other text; with ``--strict`` that is an error and nothing is written.

Two readings: the product's own (:mod:`rulesdsl.printed.loss`, from the layout, in every
render), which these tests prove can fail; and an independent one that reads the written PDF
as a player prints it: the words' boxes (PDFium's, :mod:`tests.pdf_glyphs`) against the crop
marks drawn on the sheet (read from the PDF's content with PDFium too), for every bundled deck.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.printed import loss
from rulesdsl.printed.cards import SAFE_ZONE, build_deck, render_deck_html
from rulesdsl.printed.pdf import layout_losses
from tests import pdf_layout
from tests.pdf_glyphs import both_glyphs, preflight, word_boxes

OVERFLOWING = """ruleset wide "Wide"
version 1.0.0
units distance in, cost MP
mode walker "Walker"
layer base "Base" {
  clear "Clear" | 1
  long "%s" | 2
}
""" % ("0123456789" * 15)
"""A user's ruleset whose label is one word of 150 digits: no card is wide enough, and no
hyphenation breaks a number."""


# ---- the product's check ------------------------------------------------------------------


def test_the_loss_check_names_the_card_item_and_distance_of_an_overflowing_card() -> None:
    rs = pdf_layout.ruleset("heavy_gear")
    deck = build_deck(rs, "en", "poker")
    card = deck.cards[0]
    deck.cards[0] = replace(card, lines=[*card.lines, "W" * 60])  # one word far too wide
    _, losses = layout_losses(render_deck_html(deck, "a4"))
    cut = [x for x in losses if x.kind == loss.CUT]
    assert cut, losses
    first = cut[0]
    assert first.where == f"card 1/{len(deck.cards)}"
    assert first.item == f"{card.section}: {card.title}"
    assert first.side == "right"
    assert first.by > 20  # millimetres past the cut
    assert "past the right cut" in first.describe()


def test_text_in_the_safe_zone_is_reported_apart_from_text_past_the_cut() -> None:
    rs = pdf_layout.ruleset("heavy_gear")
    deck = build_deck(rs, "en", "poker")
    html = render_deck_html(deck, "a4").replace(f"padding: {SAFE_ZONE:.2f}mm", "padding: 1mm")
    _, losses = layout_losses(html)
    kinds = {x.kind for x in losses}
    assert loss.SAFE in kinds and loss.CUT not in kinds


def test_a_card_run_into_its_footer_is_text_over_text() -> None:
    rs = pdf_layout.ruleset("heavy_gear")
    deck = build_deck(rs, "en", "poker")
    card = deck.cards[0]
    deck.cards[0] = replace(card, lines=[*card.lines, *(["A line of rules text."] * 40)])
    _, losses = layout_losses(render_deck_html(deck, "a4"))
    assert any(x.kind == loss.OVERLAP and x.where.startswith("card 1/") for x in losses)


@pdf_layout.written_deck_group("generic_wargame", "fr")
def test_a_bundled_deck_loses_nothing_after_the_check() -> None:
    pdf = pdf_layout.written_deck("generic_wargame", "fr").pdf  # render_deck(rs, "fr", "poker")
    assert pdf.losses == ()


class _Box:
    """A stand-in for a layout box of a WeasyPrint the check has never seen: other class
    names, the same things a box has (``children``, ``element``, ``text``, a position)."""

    def __init__(self, element: Any = None, children: list[Any] | None = None, **kw: Any):
        self.element = element
        self.children = children or []
        for key, value in kw.items():
            setattr(self, key, value)


def _element(**attrs: str) -> dict[str, str]:
    return {key.replace("_", "-"): value for key, value in attrs.items()}


def _page(*children: Any, width_mm: float = 100, height_mm: float = 100) -> Any:
    px = loss.PX_PER_MM
    return SimpleNamespace(
        width=width_mm * px, height=height_mm * px, _page_box=_Box(None, list(children))
    )


def _text(text: str, x: float, y: float, w: float, h: float = 3) -> Any:
    px = loss.PX_PER_MM
    return _Box(None, text=text, position_x=x * px, position_y=y * px, width=w * px, height=h * px)


def test_the_check_reads_boxes_by_what_they_have_not_their_class_names() -> None:
    card = _Box(
        _element(data_frame="10 10 50 50", data_safe="3", data_name="card 1/1", data_item="T"),
        [_text("fits", 15, 15, 10), _text("too wide", 40, 20, 30)],
    )
    body = _Box(_element(data_deck="1"), [card])
    found = loss.check_layout(SimpleNamespace(pages=[_page(body)]))
    assert [(x.kind, x.where, x.text, round(x.by)) for x in found] == [
        ("cut", "card 1/1", "too wide", 10)
    ]


def test_text_the_check_cannot_place_on_a_card_is_never_clean() -> None:
    body = _Box(_element(data_deck="1"), [_Box(None, [_text("lost", 15, 15, 10)])])
    found = loss.check_layout(SimpleNamespace(pages=[_page(body)]))
    assert [x.kind for x in found] == [loss.UNPLACED]
    empty = loss.check_layout(SimpleNamespace(pages=[_page(_Box(_element(data_deck="1")))]))
    assert [x.kind for x in empty] == [loss.UNREAD]


# ---- the commands ---------------------------------------------------------------------------


def test_cards_warns_of_a_users_overflowing_ruleset_and_strict_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "wide.terrain"
    source.write_text(OVERFLOWING, "utf-8")
    out = tmp_path / "wide.pdf"
    assert main(["cards", str(source), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "warning[W700]" in err and "card 1/" in err and "mm past the right cut" in err
    assert out.exists()
    out.unlink()
    assert main(["cards", str(source), "-o", str(out), "--strict"]) == 1
    err = capsys.readouterr().err
    assert "error[E700]" in err
    assert not out.exists()


def test_build_strict_writes_nothing_when_a_pdf_loses_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rulesets = tmp_path / "rulesets"
    rulesets.mkdir()
    (rulesets / "wide.terrain").write_text(OVERFLOWING, "utf-8")
    out = tmp_path / "generated"
    args = ["build", "--rulesets", str(rulesets), "--out", str(out), "-j", "1"]
    assert main([*args, "--strict"]) == 1
    err = capsys.readouterr().err
    assert "error[E700]" in err and "cards/wide.en.pdf" in err
    assert not any(out.rglob("*.pdf")) if out.exists() else True
    assert main(args) == 0
    assert "warning[W700]" in capsys.readouterr().err
    assert (out / "cards" / "wide.en.pdf").exists()


# ---- the independent reading: the written PDF, as a player prints it -----------------------


def crop_lines(pdf: bytes) -> list[tuple[set[float], set[float]]]:
    """For each page, the x of the vertical crop marks and the y of the horizontal ones, in
    millimetres from the top left: thin filled rectangles 4 mm long drawn in the page's own
    content (the template's ``.crop`` boxes), read with PDFium
    (:func:`tests.pdf_glyphs.crop_marks`)."""
    return list(preflight(pdf).marks)


def _cells(edges: set[float]) -> list[tuple[float, float]]:
    """Neighbouring crop-mark positions: the cards' spans (a mark belongs to both sides)."""
    ordered = sorted(edges)
    return list(itertools.pairwise(ordered))


WRITTEN_SAMPLE = (
    ("battletech_tacops", "ru"),
    ("d20_movement", "en"),
    ("generic_wargame", "fr"),
    ("heavy_gear", "de"),
    ("hex_operational", "fr"),
)
"""The written decks read back on every run, every language among them (three of them are
laid out on every run anyway: tests/test_cards.py's sample and the test above); the others
only with ``pytest --layout-matrix`` (CI)."""


def _written_cases() -> list[object]:
    return [
        pytest.param(
            *case,
            marks=(
                pdf_layout.written_deck_group(*case),
                *(() if case in WRITTEN_SAMPLE else (pytest.mark.layout_matrix,)),
            ),
        )
        for case in pdf_layout.cases()
    ]


@pytest.mark.parametrize(("name", "lang"), _written_cases())
def test_the_written_deck_prints_every_word_inside_its_card(name: str, lang: str) -> None:
    """The deck `rulesdsl build` writes (poker, A4), read back from the PDF: every word's
    box lies on one card between the crop marks, and at least ``SAFE_ZONE`` less a
    millimetre (the reader's boxes take the font's whole height) inside its edges."""
    pdf = bytes(pdf_layout.written_deck(name, lang).pdf)  # render_deck(..., "poker", paper="a4")
    marks = crop_lines(pdf)
    problems = []
    inset = SAFE_ZONE - 1.0
    read = word_boxes(pdf, both_glyphs(pdf)[1])  # read once for test_print_preflight.py too
    for number, (words, (xs, ys)) in enumerate(zip(read, marks, strict=True), 1):
        assert len(xs) >= 2 and len(ys) >= 2, f"page {number}: no crop marks found"
        columns, rows = _cells(xs), _cells(ys)
        assert words, f"page {number}: no words read"
        for text, x0, y0, x1, y1 in words:
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            col = next((c for c in columns if c[0] <= cx <= c[1]), None)
            row = next((r for r in rows if r[0] <= cy <= r[1]), None)
            if col is None or row is None:
                problems.append(f"page {number}: {text!r} lies on no card")
                continue
            if (
                x0 < col[0] + inset
                or x1 > col[1] - inset
                or y0 < row[0] + inset
                or (y1 > row[1] - inset)
            ):
                problems.append(
                    f"page {number}: {text!r} at ({x0:.1f}, {y0:.1f})-({x1:.1f}, {y1:.1f}) "
                    f"within {inset} mm of its card ({col[0]}, {row[0]})-({col[1]}, {row[1]})"
                )
    assert problems == []


def test_each_kind_of_loss_has_its_warning_and_its_strict_error() -> None:
    from rulesdsl.builder.losses import loss_diagnostics

    found = {
        "x.pdf": [
            loss.Loss(kind, "card 1/2", "Movement: Base", "Clear", 1.0, "right")
            for kind in (loss.CUT, loss.SAFE, loss.UNPLACED, loss.OVERLAP)
        ]
    }
    codes = [d.code for d in loss_diagnostics(found)]
    assert codes == ["W700", "W701", "W702", "W703"]
    strict = [d.code for d in loss_diagnostics(found, strict=True)]
    assert strict == ["E700", "E701", "E702", "E703"]
    assert all(d.is_error for d in loss_diagnostics(found, strict=True))
