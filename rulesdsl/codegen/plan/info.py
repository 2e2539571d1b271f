"""What a module prints about a named item of the ruleset: its label in the module's language
and the source it cites (shared by the plan's sections)."""

from __future__ import annotations

from rulesdsl import ir


def label(info: ir.Info, lang: str, fallback: str) -> str:
    """The item's label in ``lang``, else in its first language, else ``fallback``."""
    return info.labels.get(lang) or next(iter(info.labels.values()), fallback)


def book_title(book: ir.Book) -> str:
    """A book's title in the ruleset's first language: its first note where it has one (its
    label is the abbreviation a sheet prints), else its label."""
    names = [next(iter(n.values()), "") for n in book.info.notes]
    names += book.info.labels.values()
    return next((n for n in names if n), book.id)


def source(rs: ir.Ruleset, info: ir.Info) -> str:
    """The source an item cites: book title, page and detail ("" when it cites none)."""
    src = info.source
    if src is None:
        return ""
    book = next((b for b in rs.books if b.id == src.book), None)
    title = book_title(book) if book is not None else src.book
    parts = [title, src.page or "", src.detail or ""]
    return ", ".join(p for p in parts if p)
