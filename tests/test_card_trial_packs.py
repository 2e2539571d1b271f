"""pack_even's trial packs (issue 29, the decks' time): a pack with ``trial=True`` makes
stand-in cards that hold no part of the table, and must count exactly the cards, and the
cards over, that the real pack at the same height makes -- for every pack of every bundled
deck (each language, the per-mode decks) and of a generated ruleset's deck. A trial pack
is made once for the fills that pack alike (issue 44): every fill pack_even asks, the
trials remembered too, is checked against a real pack at that fill."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesdsl.compiler import Compiler
from rulesdsl.printed import card_packing, cards
from tests.conftest import RULESETS

BUNDLED = sorted(p.stem for p in RULESETS.glob("*.terrain"))

GENERATED = """ruleset trial_deck "Trial deck"
version 1.0.0
units distance hex, cost MP
mode foot "Foot"
mode wheeled "Wheeled"
layer terrain "Terrain" one per place {
{rows}
}
"""


def _read(cards: list[Any]) -> list[tuple[Any, ...]]:
    """What a trial pack must say of each card as the real pack makes it: whether it is over,
    its height, what it holds besides the table and how many of the table's rows."""
    held = card_packing._rows_held
    return [(c.over, c.height, c.lines, c.notes, c.after, c.svg, held(c)) for c in cards]


_REAL: dict[tuple[str, float], list[tuple[Any, ...]]] = {}
"""The real packs made (:func:`_read`), by the pack's items, table and room and the fill: a
variant's deck packs its base's blocks again (BattleTech's desert deck, BattleTech's)."""


@pytest.fixture
def checked_packs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every trial pack pack_even reads is compared with the real pack at its fill: made
    for real, or read where the same pack (a deck packs a block again at a type size and
    share it tried before: its items, table and room equal by value) was made for real at
    the same fill before (:data:`_REAL`). Yields how many cards each trial read held, a
    trial remembered for an earlier fill counted negative (so a test can see the trial packs
    ran, and were remembered)."""
    trials = card_packing._Trials
    asked = trials.__call__
    checked: list[int] = []
    keys: dict[int, tuple[Any, str]] = {}  # the trials kept, so that no id is reused
    real = _REAL

    def pack(self: Any, fill: float) -> list[Any]:
        remembered = len(self.made)
        made = asked(self, fill)
        args = (self.base, self.items, fill, self.source_height, self.table, self.cap)
        if id(self) not in keys:
            keys[id(self)] = (self, repr((*args[:2], *args[3:], self.least_rows)))
        key = (keys[id(self)][1], fill)
        if key not in real:
            real[key] = _read(card_packing.pack(*args, self.least_rows))
        assert _read(made) == real[key]
        checked.append(len(made) if len(self.made) > remembered else -len(made))
        return made

    monkeypatch.setattr(trials, "__call__", pack)
    yield checked


@pytest.mark.parametrize("name", BUNDLED)
def test_a_trial_pack_counts_the_cards_the_real_pack_makes(
    name: str, compiler: Compiler, checked_packs: list[int]
) -> None:
    compiled = compiler.compile_file(RULESETS / f"{name}.terrain")
    assert compiled.ruleset is not None
    ruleset = compiled.ruleset
    for lang in ruleset.languages:
        cards.build_deck(ruleset, lang, cards.DEFAULT_SIZE)
    for mode in [m.id for m in ruleset.modes][:2]:
        cards.build_deck(ruleset, ruleset.languages[0], cards.DEFAULT_SIZE, mode)


def test_a_long_generated_table_is_shared_evenly_with_trial_packs(
    compiler: Compiler, checked_packs: list[int], tmp_path: Path
) -> None:
    rows = "\n".join(
        f'  t{i} "Terrain number {i} with a long name" | {1 + i % 4}, wheeled {i % 3 + 1}'
        + (f' note "A note on terrain {i}, long enough to wrap."' if i % 5 == 0 else "")
        for i in range(120)
    )
    compiled = compiler.compile_text(
        GENERATED.replace("{rows}", rows), str(tmp_path / "trial_deck.terrain"), tmp_path
    )
    assert compiled.ruleset is not None, compiled.diagnostics
    deck = cards.build_deck(compiled.ruleset, None, cards.DEFAULT_SIZE)
    assert len(deck.cards) > 3 and checked_packs  # the table was split, evenly
    assert min(checked_packs) < 0  # and most fills packed as one before
