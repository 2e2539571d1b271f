"""What each column of a chart holds, read from its header.

A header is the key (the first column); ``label`` or ``label fr`` (a label in the ruleset's
first language, or in French); a mode or group (a layer's cost for it); ``all`` (the cost for
every mode); ``column NAME`` (a whole cell of another column of the layer: a modifier or a
sight); ``source``; ``note``, ``note fr``, ``note 2 fr``; ``ignores others``. A plain table's
chart names the table's columns instead of modes.

A bare header is a mode or group, never silently a language: with a target ruleset
(``--into``), a name it declares as a mode or group, then a layer column, then (as charts
were written before ``label fr``) a language it declares; without one, a mode, unless it is a
language code Babel knows (``fr``, ``ar``), which could be either: its cells decide (costs
make it a mode, words labels in that language), and when they hold both or nothing, E130.
``hq`` is a mode.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rulesdsl.diagnostics import Diagnostic, Related, did_you_mean, error
from rulesdsl.frontends import syntax as s
from rulesdsl.interchange.chart_read import is_language
from rulesdsl.interchange.chart_sheet import Sheet
from rulesdsl.interchange.chart_sheet import shown as _shown
from rulesdsl.ir.values import LANG

if TYPE_CHECKING:
    from rulesdsl import ir

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
LANGUAGE = re.compile(LANG.regex)
ColumnRole = Literal[
    "key", "mode", "all", "label", "note", "note_for", "source", "column", "ignores", "skip"
]
"""What a chart's column holds: the item's name (the first), a mode's or group's cost, the cost
for all modes, a label, a note, whom a note is for (``note for``), the source, a whole cell of
another column of the layer (or a table's column), the ``ignores others`` flag; or nothing read
(a column in error)."""


@dataclass(frozen=True)
class Column:
    """What one column of a chart holds, from its header."""

    role: ColumnRole
    name: str = ""
    """The mode or group (``mode``) or the layer or table column (``column``)."""
    lang: str = ""
    """A label's or note's language; "" for the ruleset's first."""
    number: int = 1
    """Which note (``note 2``, ``note 2 for``)."""


@dataclass(frozen=True)
class Target:
    """What a target ruleset (``--into``) tells about a chart's headers; None without one."""

    modes: frozenset[str]
    """Its modes and groups."""
    columns: frozenset[str]
    """The columns a header may name bare: a layer's modifier and sight columns, a table's
    columns."""
    languages: tuple[str, ...]


def cell_keys(rs: ir.Ruleset) -> list[str]:
    """The names a chart's cells and headers may give a value for: unit types, keywords
    (groups) and kinds of move (issue 24)."""
    return [m.id for m in rs.modes] + [g.id for g in rs.groups] + [k.id for k in rs.moves]


def layer_columns(rs: ir.Ruleset) -> list[str]:
    """The columns a layer may have besides ``cost``: modifiers, sight rules and the rolls the
    map makes due (issue 24)."""
    return [m.id for m in rs.modifiers] + [x.id for x in rs.sights] + [r.id for r in rs.rolls]


def read_header(
    sheet: Sheet, target: Target | None, table: bool, diags: list[Diagnostic]
) -> list[Column]:
    """Each header cell's column. A bare header names a mode or group; with a target, also a
    column of the layer or table, or (as older charts wrote them) a declared language.
    Without a target, a bare header that is a language code (``fr``) could be either: E130."""
    cells = sheet.rows[0]
    header = [c.text.strip() for c in cells]
    columns: list[Column] = [Column("key")]
    first: dict[str, int] = {header[0]: 0}
    first_lang = target.languages[0] if target and target.languages else "en"
    for i, name in enumerate(header[1:], start=1):
        where = sheet.at(cells[i])
        if name in first:
            j = first[name]
            diags.append(
                error(
                    "E102",
                    f"row 1, column {i + 1}: '{_shown(name)}' is also column {j + 1}",
                    where,
                    "one column per mode, language or kind of cell; delete or rename one",
                    [Related(sheet.at(cells[j]), f"column {j + 1} is '{_shown(name)}'")],
                )
            )
            columns.append(Column("skip"))
            continue
        first[name] = i
        found = _role(name, target, table, first_lang, f"row 1, column {i + 1}: ", where)
        if isinstance(found, Diagnostic) and found.code == "E130":
            found = _by_cells(sheet, i, name, first_lang) or found
        columns.append(found if isinstance(found, Column) else Column("skip"))
        if not isinstance(found, Column):
            diags.append(found)
    return columns


_COST = re.compile(r"[0-9+\-.]|(?:impassable|as)\b")
"""How a cost starts (``2``, ``-1``, ``impassable``, ``as bog``); a label starts otherwise."""


def _by_cells(sheet: Sheet, i: int, name: str, first_lang: str) -> Column | None:
    """The column of a bare language code (``fr``), decided by what its cells hold: costs
    (numbers, ``impassable``, ``as bog``) make it a mode's, words a language's labels; None
    when it holds both, or nothing (truly ambiguous: E130)."""
    kinds = {
        bool(_COST.match(text))
        for row in sheet.rows[1:]
        if i < len(row) and (text := row[i].text.strip())
    }
    if kinds == {True}:
        return Column("mode", name)
    if kinds == {False}:
        return Column("label", lang="" if name == first_lang else name)
    return None


def _role(
    name: str, target: Target | None, table: bool, first_lang: str, at: str, where: s.Pos
) -> Column | Diagnostic:
    """The column a header names, or the error that it names none."""
    words_ = name.split()
    head = words_[0] if words_ else ""
    rest = words_[1:]
    shown = _shown(name)
    if (head == "label" or head == "note") and len(words_) <= 3:
        role: ColumnRole = "label" if head == "label" else "note"
        number = 1
        if head == "note" and rest and rest[0].isdigit():
            number = int(rest[0])
            rest = rest[1:]
        if head == "note" and rest == ["for"] and number >= 1:  # `note for`, `note 2 for`
            return Column("note_for", number=number)
        if not rest and number >= 1:
            return Column(role, number=number)
        if len(rest) == 1 and LANGUAGE.fullmatch(rest[0]) and number >= 1:
            return Column(role, lang="" if rest[0] == first_lang else rest[0], number=number)
        return error(
            "E001",
            f"{at}'{shown}' is not a {head} column",
            where,
            f"'{head}', or '{head}' and a language code: '{head} fr'"
            + (", 'note 2 fr', or 'note for' (the unit types it is for)" if head == "note" else ""),
        )
    if name == "source" or (name == "all" and not table):
        return Column("source" if name == "source" else "all")
    if name == "ignores others" and not table:
        return Column("ignores")
    if head == "column" and len(words_) == 2 and NAME.match(rest[0]) and not table:
        return Column("column", rest[0])
    if not NAME.match(name):
        return error(
            "E001",
            f"{at}'{shown}' is not a {'column' if table else 'mode'} name",
            where,
            "a header is "
            + (
                "a mode or group, all, label, 'label fr', source, note, 'note fr', "
                "'column NAME' or 'ignores others'"
                if not table
                else "a column of the table, label, 'label fr', source, note or 'note fr'"
            ),
        )
    if table:
        if target is not None and name in target.columns:
            return Column("column", name)
        return error(
            "E101",
            f"{at}unknown column '{name}' of the table",
            where,
            did_you_mean(name, target.columns if target else ()) or "a header names a column",
        )
    if target is not None:
        if name in target.modes:
            return Column("mode", name)
        if name in target.columns:
            return Column("column", name)
        if name in target.languages:  # a chart written before `label fr` headers
            return Column("label", lang="" if name == first_lang else name)
        return error(
            "E101",
            f"{at}unknown mode or group '{name}'",
            where,
            did_you_mean(name, target.modes | target.columns)
            or "a header is a mode or group of the ruleset; labels in a language: 'label fr'",
        )
    if LANGUAGE.fullmatch(name) and is_language(name):
        return error(
            "E130",
            f"{at}'{name}' is a language code: a column of labels or of a mode's costs?",
            where,
            f"labels in that language: write the header 'label {name}'; a mode named "
            f"'{name}': import --into the ruleset that declares it",
        )
    return Column("mode", name)
