"""What a backend hands to the build: file contents, now or on demand."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Deferred:
    """An output that is costly to make (a PDF): made only when the file on disk is not
    already it. ``is_current(existing_bytes)`` says whether the file on disk can stay."""

    render: Callable[[], bytes]
    is_current: Callable[[bytes], bool]


Output = bytes | Deferred
