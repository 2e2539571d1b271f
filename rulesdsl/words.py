"""The language's words, declared once.

Every other place that spells a word of the language (the grammar's keywords, the language
server's completions, the TextMate grammar, the docs' tables) derives from this module or is
checked against it by a test (``tests/test_words.py``). Matching a word against a kind of the IR
happens here, with ``match`` ending in ``assert_never``, so a new kind makes mypy name this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never, get_args

from rulesdsl import ir

# ---- step terms ---------------------------------------------------------------------------

STEP_TERMS: tuple[ir.StepTermKind, ...] = get_args(ir.StepTermKind)
"""The terms of a step function, in the order a step's parameters are listed."""


def step_fields(kind: ir.StepTermKind) -> tuple[ir.StepField, ...]:
    """The parameters of a term that a variant can override: ``climb.<term>.<field>``."""
    match kind:
        case "rate":
            return ("amount", "per")
        case "floor":
            return ("amount", "at")
        case "impassable" | "free":
            return ("at",)
        case _:
            assert_never(kind)


def term_kind(term: ir.StepTerm) -> ir.StepTermKind:
    """The word a variant's path uses for ``term``."""
    match term:
        case ir.RateTerm():
            return "rate"
        case ir.FloorTerm():
            return "floor"
        case ir.ImpassableTerm():
            return "impassable"
        case ir.FreeTerm():
            return "free"
        case _:
            assert_never(term)


def find_term(terms: Iterable[ir.StepTerm], kind: ir.StepTermKind) -> ir.StepTerm | None:
    """The first term of that kind."""
    return next((t for t in terms if term_kind(t) == kind), None)


def term_number(term: ir.StepTerm, field: ir.StepField) -> float | None:
    """The number a step path ``<term>.<field>`` names (None: the term has no such field)."""
    match term:
        case ir.RateTerm():
            return _pick(field, amount=term.amount, per=term.every)
        case ir.FloorTerm():
            return _pick(field, amount=term.amount, at=term.at)
        case ir.ImpassableTerm() | ir.FreeTerm():
            return _pick(field, at=term.at)
        case _:
            assert_never(term)


def _pick(
    field: ir.StepField,
    amount: float | None = None,
    per: float | None = None,
    at: float | None = None,
) -> float | None:
    match field:
        case "amount":
            return amount
        case "per":
            return per
        case "at":
            return at
        case _:
            assert_never(field)
