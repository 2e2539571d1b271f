"""Editions of the language (issue 39): a ruleset names the edition it was written for
(``edition 2026.12``); a file without one is read as the first edition. A compiler release
keeps every edition's meaning of each construct whose meaning changed, so an old file keeps its
answers until its author moves it (``rulesdsl migrate``).

This module is the one table of editions and what each changed; the constructs ask it which
meaning an edition has (:func:`unnamed_keyword_counts`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Edition:
    name: str
    changes: tuple[str, ...]
    """What the edition changed, one sentence each (docs/language.md, "Editions")."""


EDITIONS: tuple[Edition, ...] = (
    Edition("2026.11", ("the language as first released",)),
    Edition(
        "2026.12",
        (
            "keyword precedence: a keyword a cell does not name stands for the cell's value for "
            "everyone, so a unit whose first keyword by precedence is not named takes that value, "
            "not a lower keyword's (before: the highest keyword the cell names won)",
            "a backward step or sideslip the unit may not make at its speed (or again in a move) "
            "is costed as that manoeuvre in the refused route's answer (before: as a step "
            "forward)",
        ),
    ),
)
"""Oldest first."""

FIRST = EDITIONS[0].name
CURRENT = EDITIONS[-1].name
NAMES = tuple(e.name for e in EDITIONS)


def known(name: str) -> bool:
    return name in NAMES


def newer(name: str) -> bool:
    """Whether a newer edition than ``name`` exists."""
    return name in NAMES and NAMES.index(name) < len(NAMES) - 1


def refused_manoeuvre_costed(edition: str) -> bool:
    """Facing routes (changed in 2026.12): whether a backward step or sideslip refused at the
    unit's speed is costed as that manoeuvre rather than as a step forward."""
    return NAMES.index(edition) >= NAMES.index("2026.12")


def unnamed_keyword_counts(edition: str) -> bool:
    """Keyword precedence (changed in 2026.12): whether a unit's keyword that a cell does not
    name stands for the cell's value for everyone and can win by precedence."""
    return NAMES.index(edition) >= NAMES.index("2026.12")
