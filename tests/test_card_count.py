"""Splitting a long block evenly between cards (issue 29): the search for the least height
counts the cards packing would fill without making them, and that count is the number of
cards packing makes, at every height the search tries, for every bundled deck and a
generated one with long tables."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from rulesdsl.compiler import Compiler
from rulesdsl.printed import cards
from tests import pdf_layout
from tests.conftest import RULESETS

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _generated(compiler: Compiler, tmp_path: Path) -> Any:
    sys.path.insert(0, str(BENCH))
    try:
        import gen_ruleset
    finally:
        sys.path.remove(str(BENCH))
    path = gen_ruleset.write(200, tmp_path, formats=())["terrain"]
    compiled = compiler.compile_file(path)
    assert compiled.ruleset is not None
    return compiled.ruleset


@pytest.mark.parametrize(
    "name", [*sorted(p.stem for p in RULESETS.glob("*.terrain")), "generated, 200 features"]
)
def test_the_count_is_the_number_of_cards_packed(
    name: str, compiler: Compiler, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pack = cards._pack
    compared: list[float] = []

    def checked(
        base: cards.Card,
        items: Sequence[Any],
        cap: float,
        room: Any,
        table: Any,
    ) -> list[cards.Card]:
        made = pack(base, items, cap, room, table)
        for at in (cap, cap * 0.5, cap * 0.8, cap * 1.3, 0.0):
            assert cards._count(items, at, table) == len(pack(base, items, at, room, table))
            compared.append(at)
        return made

    monkeypatch.setattr(cards, "_pack", checked)
    ruleset = (
        _generated(compiler, tmp_path) if name.startswith("generated") else pdf_layout.ruleset(name)
    )
    cards.build_deck(ruleset, ruleset.languages[0])
    assert compared
