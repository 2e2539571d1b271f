"""A quick-reference sheet as plain view data: the IR resolved into one language.

:func:`build_sheet` turns an :class:`rulesdsl.ir.Ruleset` into a :class:`Sheet`: sections by
topic, each holding blocks (a table, lines of text, an optional diagram), where every cell is
already text in the sheet's language. The HTML and Markdown templates only lay this out, so
both formats show the same content. Nothing here escapes: the templates do (HTML by Jinja2's
autoescape, Markdown by the ``md`` filter); diagrams are built by :mod:`rulesdsl.printed.svg`,
which escapes its own text.
"""

from __future__ import annotations

from pathlib import Path
from typing import assert_never

from rulesdsl import ir
from rulesdsl.printed.sheet_arcs import arcs_blocks
from rulesdsl.printed.sheet_drift import drift_blocks
from rulesdsl.printed.sheet_examples import example_blocks, restated
from rulesdsl.printed.sheet_facing import facing_blocks, free_facing_blocks
from rulesdsl.printed.sheet_more import MoreBlocks
from rulesdsl.printed.sheet_moves import move_blocks, roll_blocks, whole_move_blocks
from rulesdsl.printed.sheet_states import state_blocks
from rulesdsl.printed.sheet_view import (
    CHANGED_SIGN,
    MARKERS,
    Section,
    Sheet,
    marker_sign,
)

# ---- building -------------------------------------------------------------------------------


def build_sheet(
    rs: ir.Ruleset, lang: str | None = None, mode: str | None = None, words: Path | None = None
) -> Sheet:
    """The sheet of ``rs`` in ``lang`` (default: the ruleset's first language); its fixed
    words from the project's catalog folder ``words`` where it has ``<lang>.po``.

    ``mode`` (a mode id) cuts the sheet down to one unit type: movement tables keep only that
    mode's column, modifier columns by mode keep its own and the one for the others, and rows
    left with nothing in them go.
    """
    if mode is not None and mode not in {m.id for m in rs.modes}:
        raise ValueError(
            f"unknown mode {mode!r}; choose one of "
            f"{', '.join(m.id for m in rs.modes) or '(none declared)'}"
        )
    return _Builder(rs, lang or rs.languages[0], mode, words).sheet()


class Sheets:
    """The sheets of one ruleset by language, each built at most once.

    ``rulesdsl build`` gives one to the sheet backend and the card backend of a ruleset, so
    the deck's bound (:mod:`rulesdsl.printed.deck_bound`) and its cards are cut from the sheet
    the sheet backend laid out (issue 29: a sheet of 20,000 features takes seconds to build).
    Neither backend changes a sheet: the page layout and the decks make new blocks
    (``dataclasses.replace``), so a sheet read by both is the sheet either would build."""

    def __init__(self, ruleset: ir.Ruleset, words: Path | None = None) -> None:
        self.ruleset = ruleset
        self.words = words
        """The project's catalog folder (see :func:`build_sheet`)."""
        self._built: dict[str, Sheet] = {}

    def __call__(self, lang: str) -> Sheet:
        """The sheet of the ruleset in ``lang``, for all modes."""
        sheet = self._built.get(lang)
        if sheet is None:
            sheet = self._built[lang] = build_sheet(self.ruleset, lang, words=self.words)
        return sheet


class _Builder(MoreBlocks):
    """The whole sheet, section by section."""

    def change_text(self, path: ir.ChangePath, cell: ir.Cell, now: bool) -> str:
        """An example added or restated with several answers, as the examples section prints
        them (numbers, units, markers and words in the sheet's language)."""
        if now and isinstance(path, ir.ExamplePath) and isinstance(cell.default, ir.Text):
            shown = restated(self, path)
            if shown is not None:
                return shown
        text = super().change_text(path, cell, now)
        if isinstance(path, ir.ExamplePath):  # a route's or a free move's words (issue 40)
            said = {"illegal": "example_illegal", "ends": "example_move_ends"}
            return ", ".join(self.w(said[p]) if p in said else p for p in text.split(", "))
        return text

    def sheet(self) -> Sheet:
        rs = self.rs
        # a sight rule read through scales (`crossed`) is printed with its scales
        sights = self.sight_blocks()
        by_scale = {r.id for r in rs.sights if r.crossed is not None}
        sections = [
            Section("movement", self.w("movement"), self.movement()),
            Section("moves", self.w("moves"), move_blocks(self)),
            Section("rolls", self.w("rolls"), roll_blocks(self)),
            Section("whole_moves", self.w("whole_moves"), whole_move_blocks(self)),
            Section("states", self.w("states"), state_blocks(self)),
            Section("drift", self.w("drift"), drift_blocks(self)),
            Section("modifiers", self.w("modifiers"), self.modifiers()),
            Section("sight", self.w("sight"), [b for b in sights if b.id not in by_scale]),
            Section(
                "steps",
                self.w("steps"),
                [self.step(s) for s in rs.steps if not self.is_movement_step(s)]
                + [b for b in sights if b.id in by_scale],
            ),
            Section("decisions", self.w("decisions"), [self.decision(d) for d in rs.decisions]),
            Section("tables", self.w("tables"), [self.table(t) for t in rs.tables]),
            Section("dice", self.w("dice"), [self.dice(d) for d in rs.dice_tables]),
            Section(
                "results",
                self.w("results"),
                [b for t in rs.results_tables for b in self.results_blocks(t)],
            ),
            Section("triggers", self.w("triggers"), self.triggers()),
            Section("exclusions", self.w("exclusions"), self.exclusions()),
            Section("grid", self.w("grid"), [self.grid(g) for g in rs.grids]),
            Section("facing", self.w("facing"), facing_blocks(self) + free_facing_blocks(self)),
            Section("arcs", self.w("arcs"), arcs_blocks(self)),
            Section("params", self.w("params"), self.params()),
            Section("changes", self.w("changes"), self.changelog()),
            Section("examples", self.w("examples"), example_blocks(self)),
        ]
        sections.append(Section("sources", self.w("sources"), self.sources()))
        sections = [s for s in sections if s.blocks]
        legend = [f"{marker_sign(m)} {self.w(m)}" for m in MARKERS if self.uses_marker(m)]
        if self.overridden or self.additions:
            legend.append(f"{CHANGED_SIGN} {self.w('changed_mark')}")
        words = {"sources": self.w("sources_label")}
        mode = self.name(self.mode) if self.mode else ""
        return Sheet(
            self.lang,
            rs.id,
            self.label(rs.info, rs.id),
            rs.version,
            rs.digest,
            self.ident(),
            sections,
            legend,
            rs.languages,
            words,
            mode,
            self.words,
        )

    def ident(self) -> str:
        rs = self.rs
        parts = [self.w("ident_version", id=rs.id, version=rs.version)]
        if rs.extends:
            chain = " → ".join(f"{a.id}@{a.version}" for a in rs.extends)
            parts.append(self.w("ident_extends", chain=chain))
        parts.append(self.w("ident_digest", digest=rs.digest))
        return " · ".join(parts)

    def uses_marker(self, marker: ir.MarkerKind) -> bool:
        def has(v: ir.Value | None) -> bool:
            match v:
                case ir.Marker():
                    return v.marker == marker
                case ir.Same():
                    return has(v.resolved)
                case None | ir.Number() | ir.PerDistance() | ir.OnceCost() | ir.NonCost():
                    return False
                case _:
                    assert_never(v)

        rs = self.rs
        values: list[ir.Value | None] = [c for f in rs.features for c in f.costs.values()]
        values += [v for m in rs.modifiers for d in m.values.values() for v in d.values()]
        values += [c.value for m in rs.modifiers for c in m.combinations]
        values += [c for t in rs.tables for r in t.rows for c in r.cells]
        values += [v for d in rs.dice_tables for r in d.rows for v in r.effects.values()]
        values += [o.value for d in rs.decisions for o in d.outcomes]
        values += [f.cells[r.id].default for r in rs.sights for f in rs.features if r.id in f.cells]
        match marker:
            case "impassable":
                steps = any(isinstance(t, ir.ImpassableTerm) for s in rs.steps for t in s.terms)
            case "prohibited" | "blocked":
                steps = False
            case _:
                assert_never(marker)
        return any(has(v) for v in values) or steps
