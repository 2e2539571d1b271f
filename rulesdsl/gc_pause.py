"""Hold off Python's cyclic garbage collector while a large structure is being built.

Parsing and compiling make many small objects that all stay alive until the end (tokens, tree
nodes, syntax nodes, IR records); each collection of the youngest generation walks them again,
which made a compile grow faster than the size of its file. They hold no reference cycles that
need the collector: reference counting frees them.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused(*, acyclic: bool = False) -> Iterator[None]:
    """No automatic collection inside the block (re-entrant); the collector's previous state
    is restored however the block ends. ``acyclic``: what the block makes and keeps holds no
    reference cycles (a syntax tree, an IR), so it is put in the oldest generation as it
    ends (:func:`_promote`), not walked by the collections that follow it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if acyclic:
                _promote()
            gc.enable()


def _promote() -> None:
    """Every object the collector tracks (the block's, and any young one made before it) put
    in the oldest generation as it is: the collector's count of new objects went on while it
    was held off, so its next collections walked all of them, the young generation's then
    the middle one's (issue 44: about 250 ms after a 5,000-feature compile, every object of
    its syntax tree and IR, kept). ``freeze`` then ``unfreeze`` moves them there without a
    walk (two list splices); a full collection still looks at them, cycles included, but
    full collections are rarer: so not for blocks that leave cyclic garbage, such as a PDF's
    layout. Not when objects are frozen already (a caller's own ``gc.freeze``, as the test
    suite's): ``unfreeze`` would undo it."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()
