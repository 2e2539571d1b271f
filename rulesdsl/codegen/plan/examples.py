"""A ruleset's worked examples as the plan carries them (issue 36): target-neutral test vectors,
one per question, that every emitter writes beside its module with a replay in its language
(issue 27). Built from the IR by :func:`rulesdsl.examples.vector`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulesdsl import examples, ir
from rulesdsl.codegen.plan.header import Identity, identity
from rulesdsl.ir.records import dataclass


@dataclass(frozen=True, slots=True)
class Vector:
    """One question of a worked example, in plain data (JSON's): the function asked and its
    kind, positional and keyword arguments (numbers in the ruleset's units, places as lists
    of features), the expected answer in plain parts, its unit, the example's title by
    language and the question as the sheet writes it."""

    example: str
    question: str
    kind: str
    args: Sequence[Any]
    kwargs: Mapping[str, Any]
    expected: Sequence[Any]
    unit: str | None
    title: Mapping[str, str]
    text: str
    attribute: str = ""
    """The field of the answer the example states, ``state`` for ``route_cost(...).state``,
    ``rolls`` for ``.rolls`` (issue 40); empty: the answer itself, and the JSON leaves the key
    out."""


@dataclass(frozen=True, slots=True)
class ExamplesPlan:
    ruleset: Identity
    """The ruleset the examples are of."""
    vectors: tuple[Vector, ...]
    """Every question of every example, in order."""


def build(rs: ir.Ruleset) -> ExamplesPlan:
    return ExamplesPlan(
        ruleset=identity(rs),
        vectors=tuple(Vector(**v) for v in examples.vectors(rs)),
    )
