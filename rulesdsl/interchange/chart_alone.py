"""A chart's layer checked alone: in a ruleset of its own that declares the chart's columns
as modes, every check of the DSL runs on it (:func:`compile_alone`), its diagnostics named by
the chart's row and column (:func:`located_in`), as the chart's own are. Rows read by
:mod:`rulesdsl.interchange.csv_chart`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from rulesdsl.diagnostics import CappedList, Diagnostic
from rulesdsl.frontends import syntax as s
from rulesdsl.interchange.csv_chart import Imported, option_pos

if TYPE_CHECKING:
    from rulesdsl.compiler import Compiled, Compiler

_NO_EXTRAS = s.Extras()

STANDALONE_ID = "chart"


def check_alone(imported: Imported, compiler: Compiler) -> list[Diagnostic]:
    """The diagnostics of :func:`compile_alone` (the chart's own errors not included)."""
    compiled = compile_alone(imported, compiler)
    return [] if compiled is None else compiled.diagnostics


def compile_alone(imported: Imported, compiler: Compiler) -> Compiled | None:
    """The chart's layer compiled in a ruleset of its own that declares the chart's columns as
    modes (and its language columns as languages): every check of the DSL runs on it, save
    the names it refers to outside the chart (``as clear``, ``step climb``, a book), which only
    a target ruleset knows (``--into``)."""
    if imported.layer is None or imported.sheet is None:
        return None
    sheet = imported.sheet
    head = s.Pos(sheet.path, 1, 1, 1, 2)
    languages = ("en", *(n.text for n in imported.languages if n.text != "en"))

    def item(name: s.Name) -> s.Item:
        labels = tuple(
            s.Label("" if i == 0 else lang, name.text, name.pos) for i, lang in enumerate(languages)
        )
        return s.Item(name, labels, _NO_EXTRAS, name.pos)

    statements: list[s.Statement] = [
        s.RulesetDecl(s.Item(s.Name(STANDALONE_ID, head), (), _NO_EXTRAS, head)),
        s.VersionDecl("1.0.0", head),
    ]
    if len(languages) > 1:
        statements.append(s.LanguagesDecl((s.Name("en", head), *imported.languages), head))
    statements += [s.ModeDecl(item(name)) for name in imported.modes]
    statements.append(imported.layer)
    source = s.SourceFile(sheet.path, sheet.text, tuple(statements))
    compiled = compiler.compile_source(source, Path(sheet.path).parent)
    value_cells = {
        (r, c) for r, row in enumerate(sheet.rows[1:], start=1) for c in range(1, len(row))
    }
    value_cells |= {  # `column to_hit`: a modifier the target declares
        (0, c) for c, cell in enumerate(sheet.rows[0]) if cell.text.strip().startswith("column ")
    }
    kept = CappedList()  # at most MAX_OF_A_CODE of a code, each then placed in a cell
    for d in compiled.diagnostics:
        if d.code == "E101" and d.pos is not None and sheet.cell_at(d.pos) in value_cells:
            continue  # a name from outside the chart: checked with --into
        kept.append(d)
    return replace(compiled, diagnostics=located_in(kept.with_left_out(), imported))


def located_in(diags: list[Diagnostic], imported: Imported) -> list[Diagnostic]:
    """``diags`` with those in the chart's cells named by CSV row and column, as the chart's
    own are."""
    sheet = imported.sheet
    if sheet is None:
        return diags
    out = []
    option = option_pos(sheet.path)
    for d in diags:
        if d.pos == option:
            d = replace(d, message=f"--layer: {d.message}", pos=None)
        d = replace(d, related=tuple(r for r in d.related if r.pos != option))
        here = sheet.cell_at(d.pos) if d.pos is not None else None
        if here is not None and not d.message.startswith("row "):
            r, c = here
            head = sheet.rows[0][c].text.strip() if c < len(sheet.rows[0]) else ""
            where = f"row {r + 1}, column {c + 1}" + (f" ({head})" if head else "")
            d = replace(d, message=f"{where}: {d.message}")
        out.append(d)
    return out
