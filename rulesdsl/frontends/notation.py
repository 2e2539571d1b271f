"""How a hint writes a fix in a front end's own text (re-exported by
:mod:`rulesdsl.frontends.syntax`, where it was, as ``s.Notation``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Notation:
    """How a hint writes a fix in a front end's own text (each front end supplies one, so
    that the stages after it need not know which front end a file came from)."""

    add_precedence: str
    """The fix that adds a precedence between groups ``{a}`` and ``{b}``, ``{a}`` first."""
    precedence: str
    """A precedence between ``{a}`` and ``{b}``, ``{a}`` first, as the text writes it."""
