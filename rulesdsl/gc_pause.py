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
def gc_paused() -> Iterator[None]:
    """No automatic collection inside the block (re-entrant); the collector's previous state
    is restored however the block ends."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
