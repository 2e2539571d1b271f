"""Benchmark: cutting a deck into cards (issue 44, the clean build's CPU), against references
timed in the same run.

Run: python bench/bench_cards.py [--rounds N] [--quick]

For BattleTech ru and en and Heavy Gear en, poker cards (the decks the build writes), each
from its sheet built once:

  build_deck          the deck's cards (fitting and packing every block)
  HTML render         render_deck_html of that deck alone: the reference
  trials forgotten    build_deck with each of pack_even's trial packs made for every fill
                      it asks (card_packing._Trials remembering nothing: as many trial packs
                      as before issue 44's change; the parts' measures stay shared)
  bounds off          build_deck with every larger type size packed, none skipped for the
                      cards its content needs (card_tables.least_cards, issue 44: pack14)

CPU time of this process, the minimum of the rounds (interleaved), after one warm-up each.
``--quick``: one small deck, one round (the figures mean nothing; tests/test_bench.py).
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesdsl.compiler import Compiler  # noqa: E402
from rulesdsl.printed import card_blocks, card_packing, cards  # noqa: E402
from rulesdsl.printed.sheet_model import build_sheet  # noqa: E402

DECKS = (("battletech_tacops", "ru"), ("battletech_tacops", "en"), ("heavy_gear", "en"))
QUICK = (("void_patrol", "en"),)


@contextmanager
def unbounded() -> Iterator[None]:
    """Every trial of the fitter packed, none pruned by :func:`card_tables.least_cards`."""
    within = card_blocks.cards_within

    def every(section: str, block: Any, room: Any, most: int | None, *rest: Any) -> Any:
        return within(section, block, room, None, *rest)

    cards.cards_within = every  # type: ignore[attr-defined,assignment]
    try:
        yield
    finally:
        cards.cards_within = within  # type: ignore[attr-defined]


@contextmanager
def forgetting() -> Iterator[None]:
    """pack_even's trial packs made for every fill asked, none remembered."""
    asked = card_packing._Trials.__call__

    def fresh(self: Any, fill: float) -> list[Any]:
        self.made.clear()
        return asked(self, fill)

    card_packing._Trials.__call__ = fresh  # type: ignore[method-assign]
    try:
        yield
    finally:
        card_packing._Trials.__call__ = asked  # type: ignore[method-assign]


def timed(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def bench(name: str, lang: str, rounds: int) -> None:
    ruleset = Compiler().compile_file(ROOT / "rulesets" / f"{name}.terrain").ruleset
    assert ruleset is not None
    sheet = build_sheet(ruleset, lang, None, None)

    def deck() -> cards.Deck:
        return cards.build_deck(ruleset, lang, cards.DEFAULT_SIZE, sheet=sheet)

    made = deck()

    def render() -> str:
        return cards.render_deck_html(made, cards.DEFAULT_PAPER)

    def forgotten() -> cards.Deck:
        with forgetting():
            return deck()

    def every_trial() -> cards.Deck:
        with unbounded():
            return deck()

    for other in (forgotten, every_trial):
        assert cards.render_deck_html(other(), cards.DEFAULT_PAPER) == render()
    times: dict[str, list[float]] = {"deck": [], "render": [], "forgotten": [], "every": []}
    render()  # warm-up (the deck's were above)
    for _ in range(rounds):
        times["deck"].append(timed(deck))
        times["render"].append(timed(render))
        times["forgotten"].append(timed(forgotten))
        times["every"].append(timed(every_trial))
    best = {what: min(seconds) for what, seconds in times.items()}
    label = f"{name} {lang} ({len(made.cards)} cards)"
    print(
        f"{label:<34} build_deck {best['deck'] * 1000:7.1f} ms"
        f"  HTML render {best['render'] * 1000:6.1f} ms ({best['deck'] / best['render']:.2f}x)"
        f"  trials forgotten {best['forgotten'] * 1000:7.1f} ms"
        f" ({best['deck'] / best['forgotten']:.2f}x)"
        f"  bounds off {best['every'] * 1000:7.1f} ms ({best['deck'] / best['every']:.2f}x)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one small deck, one round")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()}", flush=True)
    for name, lang in QUICK if args.quick else DECKS:
        bench(name, lang, 1 if args.quick else args.rounds)
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
