"""A deck sure to be too long to print is refused from its sheet, not cut into cards first
(issue 29, the 20,000-feature build): ``least_deck_bytes`` must never exceed the deck's real
HTML, and a deck over the limit by that bound is never fitted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulesdsl.compiler import Compiler
from rulesdsl.outputs import Deferred
from rulesdsl.printed import cards
from rulesdsl.printed.deck_bound import least_deck_bytes
from rulesdsl.printed.sheet_model import build_sheet
from tests import pdf_layout
from tests.conftest import RULESETS
from tests.print_economy import deck, deck_cases


@pytest.mark.parametrize(("name", "lang"), deck_cases())
def test_the_bound_is_never_more_than_the_decks_html(name: str, lang: str) -> None:
    """The decks are those the other print tests of ``name`` in ``lang`` read
    (tests/print_economy.py's :func:`~tests.print_economy.deck`), built once for them."""
    ruleset = pdf_layout.ruleset(name)
    # the fewest cards (the least HTML): the largest size; and the one the build prints
    largest = max(cards.CARD_SIZES, key=lambda s: cards.CARD_SIZES[s].width)
    for mode in [None, *(m.id for m in ruleset.modes)][:2]:
        for size in {cards.DEFAULT_SIZE, largest}:
            built = deck(name, lang, size, mode)
            html = cards.render_deck_html(built, cards.DEFAULT_PAPER)
            least = least_deck_bytes(built.sheet)
            assert 0 < least <= len(html.encode()), (mode, size)


def test_a_deck_over_the_limit_by_its_bound_is_refused_without_being_cut(
    compiler: Compiler, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    compiled = compiler.compile_file(RULESETS / "heavy_gear.terrain")
    assert compiled.ruleset is not None
    least = least_deck_bytes(build_sheet(compiled.ruleset, compiled.ruleset.languages[0]))
    monkeypatch.setattr(cards, "MAX_PDF_SOURCE_BYTES", least - 1)
    cut: list[Any] = []
    monkeypatch.setattr(cards, "build_deck", lambda *a, **k: cut.append(a))
    outputs = cards.card_outputs(compiled.ruleset)
    first = outputs[f"cards/heavy_gear.{compiled.ruleset.languages[0]}.pdf"]
    assert isinstance(first, Deferred)
    assert first.source_at_least and first.source_bytes == least
    assert cut == [] or len(cut) < len(compiled.ruleset.languages)


def test_the_build_says_at_least_for_a_deck_refused_by_its_bound(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from rulesdsl.builder import build as builder

    rulesets = tmp_path / "rulesets"
    rulesets.mkdir()
    (rulesets / "heavy_gear.terrain").write_text(
        (RULESETS / "heavy_gear.terrain").read_text("utf-8"), encoding="utf-8"
    )
    monkeypatch.setattr(cards, "MAX_PDF_SOURCE_BYTES", 1)
    monkeypatch.setattr(builder, "MAX_PDF_SOURCE_BYTES", 1)
    monkeypatch.setattr(cards, "build_deck", pytest.fail)  # never cut into cards
    result = builder.build(rulesets, tmp_path / "generated")
    said = [d.message for d in result.diagnostics if d.code == "W009" and "cards/" in d.message]
    assert said and all("is not made: at least " in m for m in said), said
