"""How much room text and tables take on a page, estimated without rendering.

Sheets and cards must never lose content to the page edge, and the build must stay cheap (a
PDF is rendered only when its HTML changed), so the split of a wide table into column groups,
or of a long one into continued cards, is decided here from font metrics rather than from a
trial render. The advance widths of DejaVu Sans Condensed (the face the stylesheets use) are
shipped in ``font_widths.json``, so the estimate, and therefore the HTML, is the same on every
machine. The estimates lean to the large side (see :data:`SLACK`); the no-loss tests check
the real layout.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from itertools import repeat
from typing import Any

__all__ = ["Box", "TableFit", "column_chunks", "lines", "min_width", "table_fit", "width"]

_BREAKS = re.compile(r"[^\S\u00a0\u202f]+")
"""Where a line may break: white space but the no-break spaces."""

SLACK = 1.02
"""Every width estimate is multiplied by this (kerning, rounding, bold marks)."""

DEFAULT_WIDTH = 600
"""Width of a character the metrics do not list, in 1/1000 em."""


@cache
def _widths() -> tuple[dict[int, int], dict[int, int]]:
    data = json.loads(
        resources.files("rulesdsl.printed").joinpath("font_widths.json").read_text(encoding="utf-8")
    )
    faces = []
    for face in ("regular", "bold"):
        table: dict[int, int] = {}
        for run in data[face]:
            first = run[0]
            for i, w in enumerate(run[1:]):
                table[first + i] = w
        faces.append(table)
    return faces[0], faces[1]


def width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` set on one line at ``size`` points, in points."""
    return _units(text, bold) * size / 1000 * SLACK


@lru_cache(maxsize=8192)
def _units(text: str, bold: bool) -> int:
    """The advance widths of ``text``'s characters summed, in font units. Remembered: laying
    a sheet out measures the same labels and cells again for each arrangement it tries."""
    table = _widths()[1 if bold else 0]
    return sum(map(table.get, map(ord, text), repeat(DEFAULT_WIDTH)))


HYPHEN_LETTERS = 7
"""The fewest letters of a word the estimate lets hyphenation break (WeasyPrint breaks words
of 5 letters and more, 2 from each end, where the language's dictionary allows)."""
HYPHEN_SHARE = 0.62
"""The share of a hyphenated word's width its longer piece is taken to need (the break
points a dictionary gives sit near the middle of a long word; the share errs wide)."""


@lru_cache(maxsize=16384)
def min_width(
    text: str, size: float, bold: bool = False, hyphens: bool = False, lang: str = ""
) -> float:
    """The widest word of ``text``: the narrowest the text can be wrapped to; with
    ``hyphens``, a long word counts as its longer piece and a hyphen (the card's headers
    are set with ``hyphens: auto``), or, given ``lang``, as its widest piece between the
    breaks the language's dictionary allows (:func:`syllables`). Remembered, as
    :func:`lines`: a deck's packing measures each cell again for every type size, turn and
    fill it tries (BattleTech ru's hover deck asks 24,666 times for 874 widths, 24,798 times
    for 6,207 line counts)."""
    words = _BREAKS.split(text.replace("/", "/ ").strip())

    def least(word: str) -> float:
        whole = width(word, size, bold)
        if hyphens and lang:
            pieces = syllables(word, lang)
            last = len(pieces) - 1
            return max(
                width(p, size, bold) + (i < last) * width("-", size, bold)
                for i, p in enumerate(pieces)
            )
        if hyphens and len(word) >= HYPHEN_LETTERS and word.isalpha():
            return min(whole, whole * HYPHEN_SHARE + width("-", size, bold))
        return whole

    return max((least(w) for w in words), default=0.0)


HYPHEN_LIMIT = (5, 2, 2)
"""WeasyPrint's ``hyphenate-limit-chars: auto``: the fewest letters of a word it hyphenates,
and of the piece before and after a break."""


def syllables(word: str, lang: str) -> list[str]:
    """``word`` cut at every break the hyphenation dictionary of ``lang`` allows, as WeasyPrint
    hyphenates it (Pyphen, :data:`HYPHEN_LIMIT`); the word whole where it has none."""
    shortest, left, right = HYPHEN_LIMIT
    if len(word) < shortest:
        return [word]
    cuts = _dictionary(lang, left, right).positions(word)
    return [word[a:b] for a, b in zip([0, *cuts], [*cuts, len(word)], strict=True)]


@cache
def _dictionary(lang: str, left: int, right: int) -> Any:
    import pyphen  # a sheet's estimate alone needs it; cards and checks do not

    return pyphen.Pyphen(lang=pyphen.language_fallback(lang) or "en", left=left, right=right)


@lru_cache(maxsize=16384)
def lines(text: str, room: float, size: float, bold: bool = False) -> int:
    """How many lines ``text`` takes when wrapped at spaces into ``room`` points."""
    if not text:
        return 1
    count, used = 1, 0.0
    space = width(" ", size, bold)
    for word in _BREAKS.split(text.strip()):
        w = width(word, size, bold)
        if used and used + space + w > room:
            count += 1
            used = w
        else:
            used = used + space + w if used else w
        while used > room > 0:  # a word longer than the line breaks anywhere
            count += 1
            used -= room
    return count


@dataclass(frozen=True)
class Box:
    """The type sizes and cell padding of a page or card, in points."""

    font: float
    """Table text size."""
    line: float
    """Line height as a factor of the size."""
    pad_x: float
    """Left plus right padding and border of one table cell."""
    pad_y: float
    """Top plus bottom padding and border of one table row."""
    head_scale: float = 1.0
    """Header cells' type size as a factor of ``font``."""
    label_min: float = 0.0
    """The least width of the label (first) column's content, in points (a CSS
    ``min-width`` on it)."""
    head_hyphens: bool = False
    """Whether header cells may break long words with a hyphen (:func:`min_width`)."""
    body_hyphens: bool = False
    """Whether body cells may, too."""
    hyphen_lang: str = ""
    """The language whose dictionary breaks those words (a sheet's: :func:`syllables`);
    empty, a word's break is estimated (:data:`HYPHEN_SHARE`)."""
    nowrap: frozenset[str] = frozenset()
    """Classes of the body cells the stylesheet sets on one line (``white-space: nowrap``):
    such a cell is as narrow as its whole text, not its widest word."""


@dataclass(frozen=True)
class TableFit:
    widths: list[float]
    """The estimated width of each column, in points."""
    mins: list[float]
    """The narrowest each column can be (its widest word), in points."""
    row_heights: list[float]
    head_height: float
    fits: bool
    """Whether the narrowest layout of the table fits the room across."""
    exact: list[bool]
    """Whether each column's narrowest is a set length rather than an estimate of where its
    words break: the label column's least width, or a cell set on one line."""
    widest_rows: tuple[int, ...] = ()
    """The body rows whose cells set the columns' narrowest and widest (and so their widths):
    a part of the table that holds each of them has the same widths, so its rows the same
    heights (the card packer measures a part again only where it lacks one, issue 44)."""


def table_fit(
    head: Sequence[Sequence[str]],
    rows: Sequence[Sequence[str]],
    room: float,
    box: Box,
    bold: Sequence[Sequence[bool]] = (),
    whole: Sequence[Sequence[bool]] = (),
) -> TableFit:
    """Estimate a table's layout the way CSS's automatic table layout does.

    ``head`` gives the header rows (one text per column: a spanning header is given to its
    first column, the others get ""); ``rows`` the body; ``bold``, where given, which body
    cells are set in bold (marker cells); ``whole``, which body cells never wrap
    (:attr:`Box.nowrap`). Each column gets at least its widest word (a cell that never
    wraps, its whole text); the room left is shared in proportion to how much more each
    column would like.

    Remembered (:func:`_table_fit`), as :func:`lines` and :func:`min_width` are: a deck's
    packer measures the same table in the same room again for each type size, turn and
    shape it tries (the 33 decks of a build ask 14,677 times for 5,934 tables). The result
    is shared between those callers, who only read it.
    """
    return _table_fit(
        tuple(map(tuple, head)),
        tuple(map(tuple, rows)),
        room,
        box,
        tuple(map(tuple, bold)),
        tuple(map(tuple, whole)),
    )


@lru_cache(maxsize=4096)
def _table_fit(
    head: tuple[tuple[str, ...], ...],
    rows: tuple[tuple[str, ...], ...],
    room: float,
    box: Box,
    bold: tuple[tuple[bool, ...], ...],
    whole: tuple[tuple[bool, ...], ...],
) -> TableFit:
    """:func:`table_fit` of its arguments made hashable."""
    ncols = max((len(r) for r in (*head, *rows)), default=0)
    lo = [0.0] * ncols
    hi = [0.0] * ncols
    exact = [False] * ncols
    set_by = [[-1] * ncols, [-1] * ncols]  # the body row that set lo, hi (-1: none)
    heavy = [[True] * len(r) for r in head] + [
        list(bold[n]) if n < len(bold) else [False] * len(r) for n, r in enumerate(rows)
    ]
    for n, row in enumerate([*head, *rows]):
        is_head = n < len(head)
        size = box.font * (box.head_scale if is_head else 1.0)
        for i, text in enumerate(row):
            b = heavy[n][i] if i < len(heavy[n]) else False
            hyphens = box.head_hyphens if is_head else box.body_hyphens
            across = width(text, size, b)
            one_line = not is_head and _flag(whole, n - len(head), i)
            least = across if one_line else min_width(text, size, b, hyphens, box.hyphen_lang)
            if least + box.pad_x > lo[i]:
                lo[i], exact[i], set_by[0][i] = least + box.pad_x, one_line, n - len(head)
            if across + box.pad_x > hi[i]:
                hi[i], set_by[1][i] = across + box.pad_x, n - len(head)
    if ncols:
        if box.label_min + box.pad_x >= lo[0]:
            exact[0], set_by[0][0] = True, -1
        lo[0] = max(lo[0], box.label_min + box.pad_x)
        if lo[0] >= hi[0]:
            hi[0], set_by[1][0] = lo[0], set_by[0][0]
    fits = sum(lo) <= room
    if sum(hi) <= room:
        widths = hi
    else:
        spare = max(0.0, room - sum(lo))
        wish = sum(h - low for h, low in zip(hi, lo, strict=True)) or 1.0
        widths = [low + spare * (h - low) / wish for h, low in zip(hi, lo, strict=True)]

    def height(row: Sequence[str], heavy_row: Sequence[bool], is_head: bool) -> float:
        size = box.font * (box.head_scale if is_head else 1.0)
        most = max(
            (
                lines(t, w - box.pad_x, size, b)
                for t, w, b in zip(row, widths, heavy_row, strict=False)
                if t
            ),
            default=1,
        )
        return most * size * box.line + box.pad_y

    head_height = sum(height(r, heavy[n], True) for n, r in enumerate(head))
    row_heights = [height(r, heavy[len(head) + n], False) for n, r in enumerate(rows)]
    widest = tuple(sorted({n for n in (*set_by[0], *set_by[1]) if n >= 0}))
    return TableFit(widths, lo, row_heights, head_height, fits, exact, widest)


def _flag(flags: Sequence[Sequence[bool]], row: int, column: int) -> bool:
    return row < len(flags) and column < len(flags[row]) and flags[row][column]


def column_chunks(
    label_width: float, widths: Sequence[float], groups: Sequence[int], room: float
) -> list[list[int]]:
    """Value columns (indices into ``widths``) packed into slices that each fit ``room``
    beside the label column; slices break between column ``groups`` where they can."""
    runs: list[list[int]] = []
    for i, g in enumerate(groups):
        if runs and groups[runs[-1][-1]] == g:
            runs[-1].append(i)
        else:
            runs.append([i])
    chunks: list[list[int]] = []
    current: list[int] = []
    used = label_width
    for run in runs:
        need = sum(widths[i] for i in run)
        if current and used + need > room:
            chunks.append(current)
            current, used = [], label_width
        if used + need <= room:
            current += run
            used += need
            continue
        for i in run:  # a group wider than the room: split it column by column
            if current and used + widths[i] > room:
                chunks.append(current)
                current, used = [], label_width
            current.append(i)
            used += widths[i]
    if current:
        chunks.append(current)
    return chunks


def text_height(text: str, room: float, size: float, line: float) -> float:
    """The height of a paragraph of ``text`` wrapped into ``room``."""
    return lines(text, room, size) * size * line


def ceil_div(a: float, b: float) -> int:
    return max(1, math.ceil(a / b))
