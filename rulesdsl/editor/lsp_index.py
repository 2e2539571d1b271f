"""What an editor needs to know about names in a ruleset: where each is declared and used.

Built from the syntax trees the parser returns (a file and the bases it extends), so it works
on the DSL and on YAML alike. Every :class:`rulesdsl.frontends.syntax.Name` in a tree is an
occurrence;
the names that items are declared with are declarations, the first one per name wins (later
ones, such as a decision outcome given again, count as uses).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import assert_never

from rulesdsl import words
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.declared import declared_kind


def item_kind(st: s.Statement) -> words.ItemKind | None:
    """What the statement declares, by the keyword that starts it; None for a statement that
    declares no name (a header line, a change)."""
    declared = declared_kind(st)
    return None if declared is None else words.declaration_word(declared)


@dataclass(frozen=True)
class Declaration:
    name: str
    kind: words.ItemKind | words.PartKind
    item: s.Item
    parent: str | None = None


@dataclass
class Index:
    declarations: dict[str, Declaration] = field(default_factory=dict)
    occurrences: list[s.Name] = field(default_factory=list)
    statements: list[tuple[s.Statement, words.ItemKind | None, str]] = field(default_factory=list)
    """Each top-level statement with its kind and name (for document symbols)."""

    def names(self, *kinds: words.ItemKind | words.PartKind) -> list[str]:
        return [n for n, d in self.declarations.items() if not kinds or d.kind in kinds]

    def at(self, file: str, line: int, column: int) -> s.Name | None:
        """The name occurrence under a 1-based position in ``file``."""
        for name in self.occurrences:
            p = name.pos
            if p.file == file and p.line == line and p.column <= column <= p.end_column:
                return name
        return None

    def uses(self, text: str) -> list[s.Name]:
        return [n for n in self.occurrences if n.text == text]


def _names(node: object) -> Iterator[s.Name]:
    """Every Name inside a syntax node, in source order."""
    if isinstance(node, s.Name):
        yield node
    elif isinstance(node, tuple | list):
        for child in node:
            yield from _names(child)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            yield from _names(getattr(node, f.name))


def _declare(
    index: Index, item: s.Item, kind: words.ItemKind | words.PartKind, parent: str | None = None
) -> None:
    if item.name.text not in index.declarations:
        index.declarations[item.name.text] = Declaration(item.name.text, kind, item, parent)


def build_index(sources: list[s.SourceFile]) -> Index:
    """The index of a file and its bases, bases first (so a base's declaration wins)."""
    index = Index()
    for source in sources:
        for st in source.statements:
            kind = item_kind(st)
            item: s.Item | None = getattr(st, "item", None)
            if kind is None or item is None:
                index.statements.append((st, None, ""))
                continue
            index.statements.append((st, kind, item.name.text))
            if not isinstance(st, s.RulesetDecl):
                _declare(index, item, kind)
            for sub, part in _parts(st, words.part_kind(kind)):
                _declare(index, sub, part, item.name.text)
        index.occurrences += list(_names(list(source.statements)))
    return index


def _parts(st: s.Statement, part: words.PartKind) -> list[tuple[s.Item, words.PartKind]]:
    """The names a statement declares inside its block, each with what it is (``part``: what
    the block lists), in the order the index declares them."""
    match st:
        case s.ContextDecl(values=values):
            return [(v, part) for v in values]
        case s.ModifierDecl(rows=rows) | s.LayerDecl(rows=rows):
            return [(r.item, part) for r in rows if r.key_number is None]
        case s.TableDecl(rows=rows, columns=columns):
            named = [(r.item, part) for r in rows if r.key_number is None]
            return [*named, *((c, "column") for c in columns)]
        case s.DecisionDecl(rows=rows):
            return [(r.outcome, part) for r in rows]
        case s.DiceDecl(rows=rows, modifiers=modifiers, results=results):
            out: list[tuple[s.Item, words.PartKind]] = [(r.item, part) for r in rows]
            out += [(m.item, "dice modifier") for m in modifiers]
            out += [(c.item, "column") for c in results.columns] if results else []
            out += [(o, "outcome") for o in results.outcomes] if results else []
            return out
        case s.Header() | s.Change() | s.Plain():
            return []
        case _:
            assert_never(st)
