"""``gc_paused``: what a block said to be acyclic made and kept goes to the oldest generation
without a walk (another block's objects do not), and a caller's frozen objects stay frozen
(each in a fresh interpreter: the suite's conftest freezes what collection made)."""

from __future__ import annotations

import subprocess
import sys

MADE = "kept = [[i] for i in range(50_000)]"
START = "import gc\nfrom rulesdsl.gc_pause import gc_paused\ngc.collect()"
"""Each run starts with the collector's counts at nought: how far they had got at start-up
(which an editable install and a copied one reach differently) would otherwise decide
which generation the first collection after the block is."""


def run(code: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", f"{START}\n{code}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split()


def test_what_an_acyclic_paused_block_kept_is_in_the_oldest_generation() -> None:
    code = f"""
with gc_paused(acyclic=True):
    {MADE}
oldest = {{id(x) for x in gc.get_objects(generation=2)}}
print(gc.isenabled(), id(kept) in oldest, id(kept[-1]) in oldest, gc.get_freeze_count())
"""
    assert run(code) == ["True", "True", "True", "0"]


def test_another_paused_block_leaves_its_objects_to_the_young_collections() -> None:
    code = f"""
with gc_paused():
    {MADE}
oldest = {{id(x) for x in gc.get_objects(generation=2)}}
print(gc.isenabled(), id(kept) in oldest)
"""
    assert run(code) == ["True", "False"]


def test_objects_a_caller_froze_stay_frozen() -> None:
    code = f"""
gc.freeze()
frozen = gc.get_freeze_count()
with gc_paused(acyclic=True):
    {MADE}
print(gc.isenabled(), frozen > 0 and gc.get_freeze_count() == frozen)
"""
    assert run(code) == ["True", "True"]
