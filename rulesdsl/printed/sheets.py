"""The sheet backend: printable quick-reference sheets in HTML, PDF and Markdown, from the IR.

:func:`rulesdsl.printed.sheet_model.build_sheet` resolves the IR into one language; the
templates lay it out (``sheet.html.j2`` autoescaped, ``sheet.md.j2`` through the :func:`md`
escaping filter); :func:`rulesdsl.printed.pdf.render_pdf` prints the HTML with WeasyPrint.

``rulesdsl build`` calls :func:`sheet_outputs`, which writes, for each language the ruleset has
labels for, ``sheets/<id>.<lang>.html``, ``.md`` and ``.pdf`` on A4 paper. PDF output needs
WeasyPrint (``pip install 'rulesdsl[pdf]'``); without it the build writes the rest, leaves the
PDFs as they are and lists the ones it could not make (it never goes stale silently).
:func:`render_sheet` with ``pdf`` raises :class:`rulesdsl.printed.pdf.PdfUnavailable` (the CLI
reports it in one line).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, partial
from itertools import groupby
from pathlib import Path
from typing import Literal

import jinja2
from markupsafe import Markup

from rulesdsl import ir
from rulesdsl.codegen.template_code import TemplateCode
from rulesdsl.outputs import Deferred, Output
from rulesdsl.printed import fit
from rulesdsl.printed.loss import Loss
from rulesdsl.printed.pdf import PdfUnavailable, render_pdf, rendered_from
from rulesdsl.printed.sheet_model import Sheets, build_sheet
from rulesdsl.printed.sheet_view import (
    CHANGED_SIGN,
    SUPERSCRIPTS,
    Block,
    BlockKind,
    Section,
    Sheet,
    TableView,
)
from rulesdsl.printed.table_columns import table_columns
from rulesdsl.printed.table_slices import measure, slice_table, wide_chunks
from rulesdsl.words import Total, total

__all__ = [
    "FORMATS",
    "PAPERS",
    "Narrow",
    "Paper",
    "PdfUnavailable",
    "md_escape",
    "render_html",
    "render_markdown",
    "render_sheet",
    "sheet_outputs",
]

Format = Literal["html", "pdf", "md"]
FORMATS: tuple[Format, ...] = ("html", "pdf", "md")


@dataclass(frozen=True)
class Paper:
    name: str
    size: str
    """A CSS ``@page`` size."""
    margin: str
    font: str
    """The base font size: everything else is relative to it."""
    keep_whole: int
    """A topic of about this many lines or fewer moves to the next page whole rather than
    split; a longer one may break between its blocks (each table moves whole where it fits,
    and a table that is split repeats its header)."""

    width: float = 194.0
    """The width of the text between the side margins, in millimetres."""
    columns: bool = True
    """Whether the topics whose blocks fit half the width flow in two columns (sheet.css
    ``.columns``), the others taking the page's width."""
    line: float = 1.08
    """The line height, in ems of the type: on Letter, 18 mm shorter than A4, 1.02 keeps
    BattleTech's Russian rules on two pages (at 1.08 they ran 43 mm onto a third; 1.03, 11 mm;
    docs/sheets.md, Page budget)."""

    @property
    def margins_mm(self) -> str:
        """The margins (top right bottom left) in millimetres, as the loss check reads them."""
        values = [_to_mm(v) for v in self.margin.split()]
        return " ".join(f"{v:.2f}" for v in (values * 4)[:4])


def _to_mm(length: str) -> float:
    for unit, factor in (("mm", 1.0), ("in", 25.4), ("cm", 10.0), ("pt", 25.4 / 72)):
        if length.endswith(unit):
            return float(length.removesuffix(unit)) * factor
    raise ValueError(f"a page margin in an unknown unit: {length!r}")


SAFE_ZONE = 3.0
"""Millimetres the running footer keeps from the page edge (the loss check measures it)."""


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", "A4", "6mm 7mm 9mm 7mm", "7.1pt", 24, 196.0),
    "letter": Paper("letter", "letter", "6mm 7mm 9mm 7mm", "7.1pt", 56, 201.9, line=1.02),
    "a5": Paper("a5", "A5", "7mm 7mm 9mm 7mm", "7.1pt", 30, 134.0, columns=False),
}
"""Paper sizes for ``--paper``. Cards have their own backend (:mod:`rulesdsl.printed.cards`,
``rulesdsl cards``)."""

HALF = 0.47
"""A block whose table needs at most this share of the width goes beside another one."""

COLUMN_GAP = 8.0
"""Points between the two columns of a page (sheet.css ``.columns``)."""

COLUMN_SHARE = 0.95
"""The share of a column a table's narrowest layout may take to be set in it: the estimate
of the widest words errs by a few per cent (a set length is charged at this share of itself:
:func:`_fits_column`)."""

HYPHENATED_HEIGHT = 1.5
"""How many times its height across the page a table may take in a column where it fits
there only with its words hyphenated (BattleTech's Russian weather table, 1.4 times: 3/4 of
the room it took across the page, which put the Russian rules on a third page; a table
that hyphenation shreds into more lines, as the terrain effects at 2.7-2.9 times, keeps the
page's width)."""

DEFAULT_PAPER = "a4"

# ---- Markdown escaping ----------------------------------------------------------------------

_MD_INLINE = re.compile(r"([\\`*_\[\]<>|~&])")
_MD_LINE_START = re.compile(r"^(>|#{1,6}(?=\s|$)|[+-](?=\s|$)|[-=]+\s*$|\d{1,9}(?=[.)](\s|$)))")


_MD_SPACES = re.compile(r"[^\S\u202f]+")
"""Runs of white space a Markdown line folds into one space: all but the narrow no-break
space (French sets U+202F before ``:`` ``;`` ``!`` ``?`` and inside ``« »``), which the
written file keeps as it is."""

_MD_CONTROLS = {
    c: "\ufffd"
    for c in (*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A))
}


def md_escape(text: object) -> str:
    """Text made literal in CommonMark, inline and inside a pipe-table cell.

    The marks that can open inline markup anywhere (``\\ ` * _ [ ] < > | ~ &``) get a
    backslash (CommonMark allows one before any ASCII punctuation), so ``<script>`` stays text,
    ``|`` cannot end a table cell and ``_`` cannot start emphasis; so does a mark that would
    start a block at the beginning of a line (``#``, ``>``, ``-``, ``+``, ``=``, ``1.``).
    Line breaks become spaces; narrow no-break spaces stay (:data:`_MD_SPACES`). Control
    characters (NUL, BEL, ESC, the C1 range...) and the
    bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069), which a terminal or
    an editor would act on, become U+FFFD.
    """
    flat = _MD_SPACES.sub(" ", str(text)).strip(" ").translate(_MD_CONTROLS)
    flat = _MD_INLINE.sub(r"\\\1", flat)
    match = _MD_LINE_START.match(flat)
    if match is None:
        return flat
    if match.group(1)[0].isdigit():  # "1. " would start an ordered list
        end = match.end()
        return flat[:end] + "\\" + flat[end:]
    return "\\" + flat


def _sup(mark: object) -> str:
    return str(mark).translate(SUPERSCRIPTS)


# ---- templates ------------------------------------------------------------------------------


@cache
def _environment(autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("rulesdsl", "templates"),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=False,
        lstrip_blocks=False,
        bytecode_cache=TemplateCode(),  # the templates' code kept between runs (issue 44)
    )
    env.filters["md"] = md_escape
    env.filters["sup"] = _sup
    return env


def _css() -> str:
    env = _environment(True)
    assert env.loader is not None
    source, _, _ = env.loader.get_source(env, "sheet.css")
    return source


NOWRAP = frozenset({"chance", "roll"})
"""Cell classes sheet.css sets on one line (``white-space: nowrap``): hex_operational's
chances "2/6 · 33.3%" were measured as wrapping at their spaces, the table was set in a
column it overflowed by 2.7 mm and the sheet was laid out a second time (issue 44)."""


def _box(page: Paper, lang: str = "") -> fit.Box:
    """Type sizes of a sheet's tables (sheet.css: tables at 1rem, cells padded 0.3pt 2.5pt, the
    label column at least 9em, :data:`NOWRAP` cells on one line); given ``lang``, words
    broken wherever the language's dictionary allows, as the printed sheet may hyphenate
    them (``hyphens: auto``)."""
    font = float(page.font.removesuffix("pt"))
    box = fit.Box(
        font=font, line=page.line, pad_x=5.6, pad_y=1.2, label_min=9 * font, nowrap=NOWRAP
    )
    return replace(box, head_hyphens=True, body_hyphens=True, hyphen_lang=lang) if lang else box


def _narrow(block: Block, t: TableView, room: float, box: fit.Box) -> bool:
    """Whether a table block needs at most :data:`HALF` of the width (and so, with its
    notes, can stand beside another one)."""
    if t.fold or not block.tabular:
        return False
    wide = sum(fit.table_fit([], [[c.text for c in r] for r in t.rows], 1e9, box).widths)
    head = (
        max(sum(fit.width(h.text, box.font, True) + box.pad_x for h in row) for row in t.head)
        if t.head
        else 0.0
    )
    return max(wide, head) <= HALF * room


def fit_to_paper(
    sheet: Sheet,
    paper: str,
    page_type: Paper | None = None,
    tight: Mapping[str, float] | None = None,
) -> Sheet:
    """The sheet laid out for ``paper``: a table wider than the page is split between its
    column groups into blocks "(1/2)", "(2/2)", each repeating the label column; a block
    whose table is narrow is marked to take half the width. ``tight`` gives some blocks
    (``section/block``) that share of the width to be split for (:class:`Narrow`)."""
    page = page_type or PAPERS[paper]
    full = page.width * 72 / 25.4
    box = _box(page)
    sections = []
    for section in sheet.sections:
        blocks: list[Block] = []
        for block in map(_row_source_up, section.blocks):
            t = block.table
            if t is None or block.svg or not t.rows:
                blocks.append(block)
                continue
            room = full * (tight or {}).get(f"{section.id}/{block.id}", 1.0)
            chunks = wide_chunks(t, room, box)
            if len(chunks) == 1:
                blocks.append(replace(block, narrow=_narrow(block, t, room, box)))
                continue
            for i, cols in enumerate(chunks, start=1):
                piece = slice_table(t, cols, range(len(t.rows)))
                last = i == len(chunks)
                part = replace(
                    block,
                    id=f"{block.id}-{i}",
                    title=f"{block.title} ({i}/{len(chunks)})",
                    table=piece,
                    lines=block.lines if i == 1 else [],
                    notes=block.notes if last else [],
                    after=block.after if last else [],
                )
                blocks.append(replace(part, narrow=_narrow(part, piece, room, box)))
        sections += _in_columns(replace(section, blocks=blocks), page, sheet.lang, tight or {})
    return replace(sheet, sections=sections)


HALF_WIDTH = 0.485
"""The share of the page's width a half-width block takes (sheet.css ``.half``)."""


def with_columns(sheet: Sheet, page: Paper) -> Sheet:
    """The sheet laid out for ``page`` (:func:`fit_to_paper`) with each table's columns'
    widths as estimated (:func:`~rulesdsl.printed.table_columns.table_columns`), at the
    width it is printed: the page's, a column's, half the page's beside another block. A
    folded table (its columns twice across) and one with write-in cells (sheet.css
    ``td.blank``, at least 5em, which the estimate does not know) are laid out
    automatically."""
    full = page.width * 72 / 25.4
    column = (full - COLUMN_GAP) / 2
    box = _box(page)
    sections = []
    for section in sheet.sections:
        wide = section.wide or not page.columns or section.id == "examples"
        blocks = []
        for block in section.blocks:
            t = block.table
            if (
                t is None
                or block.svg
                or t.fold
                or any("blank" in c.classes for r in t.rows for c in r)
            ):
                blocks.append(block)
                continue
            room = (full * HALF_WIDTH if block.narrow else full) if wide else column
            columns = table_columns(t, room, box, sheet.lang, unwrapped=True)
            blocks.append(replace(block, columns=columns))
        sections.append(replace(section, blocks=blocks))
    return replace(sheet, sections=sections)


def _row_source_up(block: Block) -> Block:
    """``block`` with the source most of its rows name under their labels said once, after
    its own in the heading, where every row names one (BattleTech: ``MegaMek`` under 31 of
    the 36 rows of its terrain and weather tables, a second line of most Russian labels);
    a row naming another keeps it, so a row without one comes from the heading's sources."""
    t = block.table
    smalls = [row[0].small for row in t.rows] if t is not None else []
    if t is None or not smalls or not all(smalls):
        return block
    common, times = Counter(smalls).most_common(1)[0]
    if times < 2:
        return block
    rows = [[replace(r[0], small="") if r[0].small == common else r[0], *r[1:]] for r in t.rows]
    source = " · ".join(s for s in (block.source, common) if s)
    return replace(block, table=replace(t, rows=rows), source=source)


def _in_columns(
    section: Section, page: Paper, lang: str, tight: Mapping[str, float]
) -> list[Section]:
    """``section`` in parts: each block that fits a column of a two-column page (a folded
    table too wide folded is unfolded), so the columns balance between blocks, and runs of
    blocks that take the page's width; a part after the first has no heading
    (:attr:`Section.part`)."""
    if not page.columns or section.id == "examples":  # examples: pages of their own
        return [section]
    column = (page.width * 72 / 25.4 - COLUMN_GAP) / 2 * COLUMN_SHARE
    runs: list[tuple[bool, list[Block]]] = []
    for block in section.blocks:
        share = tight.get(f"{section.id}/{block.id.partition('-')[0]}", 1.0)
        fitted = _in_column(block, column * share, page, lang if share == 1.0 else "")
        if fitted is None and runs and runs[-1][0]:
            runs[-1][1].append(block)
        else:
            runs.append((fitted is None, [fitted or block]))
    return [
        replace(section, blocks=blocks, wide=wide, part=n) for n, (wide, blocks) in enumerate(runs)
    ] or [section]


_COLUMN_DIAGRAMS: Total[BlockKind, bool] = total(
    BlockKind,
    {"step": True, "grid": True, "table": False, "dice": False, "sources": False, "text": False},
)
"""Whether a block's diagram is narrow enough for a column (a step's scale, a grid's
neighbours); any other diagram takes the page's width."""


def _in_column(block: Block, room: float, page: Paper, lang: str) -> Block | None:
    """``block`` as a column ``room`` points wide sets it, or None where it does not fit (a
    block set half-width fits); a folded table stays folded only where its halves fit
    unwrapped side by side. Given the sheet's ``lang``, a table that fits only with its words
    hyphenated by the language's dictionary is set in the column where that takes at most
    :data:`HYPHENATED_HEIGHT` times its height across the page."""
    box = _box(page)
    t = block.table
    if block.narrow:  # it fits half the page's width already
        return block
    if block.svg:
        return block if _COLUMN_DIAGRAMS[block.kind] else None  # else a page-wide diagram
    if t is None or not t.rows:
        return block
    if t.fold and sum(measure(t, math.inf, box).widths) > room / 2:
        t = replace(t, fold=False)
    if _fits_column(measure(t, room, box), room) or (
        lang and _hyphenated_fits(t, room, page, lang)
    ):
        return replace(block, table=t)
    return None


def _fits_column(measured: fit.TableFit, room: float) -> bool:
    """Whether a table's narrowest fits ``room``, a column's :data:`COLUMN_SHARE`: the share
    is a margin for the estimate of where words break, so a set length (the label column's
    least width, a cell on one line) is charged at that share of itself (skirmish_keywords
    fr's injury table, its chances "1/6 · 16,7 %" measured whole, kept its column)."""
    charged = (
        w * COLUMN_SHARE if e else w for w, e in zip(measured.mins, measured.exact, strict=True)
    )
    return sum(charged) <= room


def _hyphenated_fits(t: TableView, room: float, page: Paper, lang: str) -> bool:
    box = _box(page, lang)
    column = measure(t, room, box)
    across = measure(t, page.width * 72 / 25.4, box)
    height = column.head_height + sum(column.row_heights)
    return column.fits and height <= HYPHENATED_HEIGHT * (
        across.head_height + sum(across.row_heights)
    )


class Narrow:
    """The sheet's fitter that measures (:class:`rulesdsl.printed.pdf.Refit`): a sheet that
    loses text (a table the estimate thought narrow enough) is laid out again with those
    tables split for less width (one in a column may take the page's width), up to
    :data:`FIX_TRIES` times. A sheet that loses nothing is
    laid out once: its type is the paper's (:data:`PAPERS`), chosen before the layout, never
    grown into the room a first layout leaves (that took a second layout, issue 44)."""

    def __init__(self, sheet: Sheet, paper: str) -> None:
        self.sheet = sheet
        self.paper = paper
        self.tight: dict[str, float] = {}
        self.fixes = 0

    def __call__(self, losses: Sequence[Loss]) -> str | None:
        keys = sorted({loss.key for loss in losses if loss.key})
        if not keys or self.fixes >= FIX_TRIES:
            return None
        self.fixes += 1
        for key in keys:
            self.tight[key] = self.tight.get(key, 1.0) * 0.85
        return render_html(self.sheet, self.paper, tight=self.tight)


FIX_TRIES = 3
"""How many times :class:`Narrow` narrows the tables of a sheet that loses text."""


def render_html(
    sheet: Sheet,
    paper: str = DEFAULT_PAPER,
    page: Paper | None = None,
    tight: Mapping[str, float] | None = None,
) -> str:
    """The sheet as one self-contained HTML page (styles inline, diagrams as inline SVG);
    ``page`` sets other type than the paper's, ``tight`` narrows some tables
    (:class:`Narrow`)."""
    template = _environment(True).get_template("sheet.html.j2")
    sheet = with_columns(fit_to_paper(sheet, paper, page, tight), page or PAPERS[paper])
    rules = [s for s in sheet.sections if s.id != "examples"]
    return template.render(
        sheet=sheet,
        runs=[(wide, list(run)) for wide, run in groupby(rules, key=lambda s: s.wide)],
        page=page or PAPERS[paper],
        css=Markup(_css()),
        changed_sign=CHANGED_SIGN,
        keep_whole=(page or PAPERS[paper]).keep_whole,
        safe=SAFE_ZONE,
    )


def render_markdown(sheet: Sheet) -> str:
    """The sheet as CommonMark with pipe tables (GitHub-flavoured), no raw HTML."""
    template = _environment(False).get_template("sheet.md.j2")
    text = template.render(sheet=sheet, changed_sign=CHANGED_SIGN)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def render_sheet(
    ruleset: ir.Ruleset,
    fmt: Format = "html",
    lang: str | None = None,
    paper: str = DEFAULT_PAPER,
    words: Path | None = None,
) -> bytes:
    """One sheet of ``ruleset`` in ``fmt``; ``lang`` defaults to the ruleset's first language,
    ``words`` is the project's catalog folder (see :func:`build_sheet`).

    A language the ruleset has no labels for is still accepted: its labels fall back to the
    ruleset's first language and the fixed words to English if they are not translated.
    Raises :class:`PdfUnavailable` for ``pdf`` without WeasyPrint.
    """
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; choose one of {', '.join(PAPERS)}")
    sheet = build_sheet(ruleset, lang, words=words)
    if fmt == "md":
        return render_markdown(sheet).encode("utf-8")
    html = render_html(sheet, paper)
    if fmt == "html":
        return html.encode("utf-8")
    if fmt == "pdf":
        return render_pdf(html, refit=Narrow(sheet, paper))
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def sheet_outputs(ruleset: ir.Ruleset, sheets: Sheets | None = None) -> dict[str, Output]:
    """The build backend: ``sheets/<id>.<lang>.{html,md,pdf}`` for each of the languages.

    PDFs are deferred: the build renders one only when the file on disk was not rendered from
    the same HTML, and only when the ``pdf`` extra is installed (else it skips them).
    ``sheets``: the ruleset's sheets, shared with the card backend (built here if not given).
    """
    sheets = Sheets(ruleset) if sheets is None else sheets
    outputs: dict[str, Output] = {}
    for lang in ruleset.languages:
        sheet = sheets(lang)
        html = render_html(sheet, DEFAULT_PAPER)
        stem = f"sheets/{ruleset.id}.{lang}"
        outputs[f"{stem}.html"] = html.encode("utf-8")
        outputs[f"{stem}.md"] = render_markdown(sheet).encode("utf-8")
        outputs[f"{stem}.pdf"] = Deferred(
            partial(render_pdf, html, refit=Narrow(sheet, DEFAULT_PAPER)),
            partial(rendered_from, html=html),
            needs="pdf",
            source_bytes=len(html.encode()),
        )
    return outputs
