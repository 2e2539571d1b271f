"""The parts every declaration of the syntax tree has (its name, labels, source and notes),
split from :mod:`rulesdsl.frontends.syntax` (which re-exports them) to keep it under the size
limit, and a modifier's factor read along a line of sight (issue 40, item 7)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesdsl.diagnostics import Pos

if TYPE_CHECKING:
    from dataclasses import dataclass
else:  # the same decorator, its methods' bytecode kept between runs (issue 29)
    from rulesdsl.ir.records import dataclass


@dataclass(frozen=True)
class Name:
    text: str
    pos: Pos


@dataclass(frozen=True)
class Label:
    lang: str
    text: str
    pos: Pos


@dataclass(frozen=True)
class SourceRef:
    book: Name
    page: str | None
    detail: str | None


@dataclass(frozen=True)
class Extras:
    source: SourceRef | None = None
    notes: tuple[tuple[Label, ...], ...] = ()
    ignores_others: bool = False
    remarks: tuple[str, ...] = ()
    """``remark "..."``: words for programmers, never printed on a sheet."""
    note_for: tuple[tuple[Name, ...], ...] = ()
    """Per note, the unit types or keywords it concerns (``note for mech "..."``); empty: all."""


@dataclass(frozen=True)
class Item:
    """Anything declared with a name, labels and extras."""

    name: Name
    labels: tuple[Label, ...]
    extras: Extras
    pos: Pos


@dataclass(frozen=True)
class SightFactorNode:
    """``sight NAME labels : rule``: a factor whose value is the sight rule's hindrance along
    the line the caller gives (blocked when the line is)."""

    item: Item
    rule: Name
