"""What the card packer remembers gives what it would compute afresh (issue 44, the build's
CPU): :func:`rulesdsl.printed.fit.table_fit` by its arguments, and a topic's small blocks set
at each type size while :func:`rulesdsl.printed.cards._gathered` groups them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from rulesdsl.printed import cards, fit
from tests.conftest import bundled

BOX = fit.Box(font=7.0, line=1.2, pad_x=2.0, pad_y=1.5, nowrap=frozenset({"chance"}))

HEAD = [["Terrain", "Foot movement allowance", "Wheeled"]]
ROWS = [["Woods", "2 per hex, 3 in dense woods", "impassable"], ["Rough", "2", "3 hexes/turn"]]


def _fresh(*args: Any) -> fit.TableFit:
    """:func:`fit.table_fit` of ``args`` computed, not remembered."""
    head, rows, room, box, bold, whole = args
    hashable = [tuple(map(tuple, x)) for x in (head, rows, bold, whole)]
    return fit._table_fit.__wrapped__(*hashable[:2], room, box, *hashable[2:])  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "variants",
    [
        # bold cells are wider, a cell set on one line is as wide as its text, a narrower
        # room wraps more, a larger type is wider: each must be told apart
        [((), ()), (([False, True, True], [False, True, False]), ())],
        [((), ()), ((), ([False, True, False], [False, False, True]))],
    ],
)
def test_a_remembered_table_fit_is_the_fit_of_its_own_arguments(
    variants: Sequence[tuple[Any, Any]],
) -> None:
    fit._table_fit.cache_clear()
    asked = [
        (HEAD, ROWS, room, box, bold, whole)
        for room in (60.0, 200.0)
        for box in (BOX, fit.Box(font=9.0, line=1.2, pad_x=2.0, pad_y=1.5))
        for bold, whole in variants
    ]
    for args in [*asked, *reversed(asked)]:  # each asked twice: once made, once remembered
        assert fit.table_fit(*args) == _fresh(*args)
    assert fit._table_fit.cache_info().hits >= len(asked)


def _deck_html(name: str, lang: str) -> str:
    ruleset = bundled(name).ruleset
    assert ruleset is not None
    deck = cards.build_deck(ruleset, lang, "poker", examples=True)
    return cards.render_deck_html(deck, "a4")


@pytest.mark.parametrize(("name", "lang"), [("skirmish_keywords", "fr"), ("void_patrol", "en")])
def test_small_blocks_gathered_with_their_sets_remembered_make_the_deck_made_afresh(
    name: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    remembered = _deck_html(name, lang)
    together_font = cards._together_font
    asked: list[int] = []

    class Forgetful(dict[Any, Any]):
        """Sets known to no one: each made again."""

        def get(self, key: Any, default: Any = None) -> Any:
            return default

        def __setitem__(self, key: Any, value: Any) -> None:
            pass

    def afresh(*args: Any) -> Any:
        asked.append(1)
        return together_font(*args[:4], Forgetful())

    monkeypatch.setattr(cards, "_together_font", afresh)
    assert _deck_html(name, lang) == remembered
    assert asked  # the decks gather small blocks: the memo was in play
