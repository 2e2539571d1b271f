"""The names a ruleset declares: one flat namespace of items, plus books on their own.

Built once from the (already merged) statements; duplicate and reserved names are reported here,
unknown ones by whoever looks a name up, with a did-you-mean hint drawn from the right kinds.
"""

from __future__ import annotations

from collections.abc import Iterable

from rulesdsl.diagnostics import Cap, Diagnostic, Related, did_you_mean, error
from rulesdsl.frontends import syntax as s
from rulesdsl.ir.records import dataclass
from rulesdsl.words import DeclKind, own_namespace


@dataclass(frozen=True, slots=False)
class Symbol:
    name: str
    kind: DeclKind
    pos: s.Pos
    parent: str | None = None


class SymbolTable:
    def __init__(self, cap: Cap) -> None:
        self._items: dict[str, Symbol] = {}
        self._books: dict[str, Symbol] = {}
        self._named: dict[tuple[DeclKind, ...], tuple[str, ...]] = {}
        """:meth:`names` by kinds, until the next declaration."""
        self.diagnostics: list[Diagnostic] = []
        self._cap = cap

    def declare(self, name: s.Name, kind: DeclKind, parent: str | None = None) -> bool:
        table = self._books if own_namespace(kind) else self._items
        first = table.get(name.text)
        if first is not None:
            if not self._cap.admits("E102", name.pos):
                return False
            self.diagnostics.append(
                error(
                    "E102",
                    f"'{name.text}' is already defined (as a {first.kind})",
                    name.pos,
                    "each name is declared once; use `override` in a variant to change a value",
                    [Related(first.pos, "first defined here")],
                )
            )
            return False
        table[name.text] = Symbol(name.text, kind, name.pos, parent)
        self._named.clear()
        return True

    def get(self, name: str) -> Symbol | None:
        return self._items.get(name)

    def kind_of(self, name: str) -> DeclKind | None:
        sym = self._items.get(name)
        return sym.kind if sym else None

    def names(self, *kinds: DeclKind) -> tuple[str, ...]:
        """The names declared of ``kinds`` (of any kind without), found once until the next
        declaration: lowering asks for each effect of each dice row (W350), and a search of
        the whole table each time made it quadratic in the ruleset's size."""
        found = self._named.get(kinds)
        if found is None:
            pool = self._books if kinds == ("book",) else self._items
            found = tuple(n for n, sym in pool.items() if not kinds or sym.kind in kinds)
            self._named[kinds] = found
        return found

    def require(self, name: s.Name, kinds: Iterable[DeclKind], what: str) -> Symbol | None:
        """The symbol, if ``name`` is one of ``kinds``; else record an unknown-name error."""
        wanted = tuple(kinds)
        pool = self._books if wanted == ("book",) else self._items
        sym = pool.get(name.text)
        if sym is not None and sym.kind in wanted:
            return sym
        if sym is not None:
            message = f"'{name.text}' is a {sym.kind}, not a {what}"
        else:
            message = f"unknown {what} '{name.text}'"
        if not self._cap.admits("E101", name.pos):
            return None
        self.diagnostics.append(
            error("E101", message, name.pos, did_you_mean(name.text, self.names(*wanted)))
        )
        return None
