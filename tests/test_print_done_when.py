"""Issue 23's "done when", where the other tests left a gap: the PDF-reading check on every
card size and paper and on per-mode decks (the deck `rulesdsl build` writes is read in
tests/test_print_loss.py), and `rulesdsl build`'s whole output byte-identical with and
without system fonts (tests/test_print_fonts.py renders one sheet)."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.printed.cards import SAFE_ZONE
from tests import pdf_layout
from tests.pdf_glyphs import word_boxes
from tests.test_print_loss import _cells, crop_lines


def _decks() -> list[object]:
    """The decks of :func:`pdf_layout.read_back`, each in the xdist group of the tests that
    read its layout (:func:`pdf_layout.written_deck_group`), all but a sample only with
    ``pytest --layout-matrix`` (CI). The poker decks on A4 among them are the decks
    ``rulesdsl build`` writes, which tests/test_print_loss.py reads back the same way (and
    more strictly) in every language: not read twice."""
    params = []
    for name, lang, size, paper, mode in pdf_layout.read_back():
        if (size, paper, mode) == ("poker", "a4", None):
            continue
        sampled = (name, lang, size, paper, mode) in pdf_layout.READ_BACK_SAMPLE
        marks = () if sampled else (pytest.mark.layout_matrix,)
        group = pdf_layout.written_deck_group(name, lang, size, mode, paper)
        marks += (group,) if group is not None else ()
        params.append(pytest.param(name, lang, size, paper, mode, marks=marks))
    return params


@pytest.mark.parametrize(("name", "lang", "size", "paper", "mode"), _decks())
def test_every_word_of_every_deck_lies_inside_its_card(
    name: str, lang: str, size: str, paper: str, mode: str | None
) -> None:
    """Read back from the PDF, as a player prints it: every word's box on one card between
    the crop marks, the safe zone less a millimetre inside its edges, for every ruleset and
    language, in every card size, on A4 and Letter, and in per-mode decks; the product's loss
    check agrees."""
    pdf = pdf_layout.written_deck(name, lang, size, mode, paper).pdf  # render_deck
    assert pdf.losses == ()
    inset = SAFE_ZONE - 1.0
    problems = []
    pages = zip(word_boxes(bytes(pdf)), crop_lines(bytes(pdf)), strict=True)
    for number, (words, (xs, ys)) in enumerate(pages, 1):
        columns, rows = _cells(xs), _cells(ys)
        for text, x0, y0, x1, y1 in words:
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            col = next((c for c in columns if c[0] <= cx <= c[1]), None)
            row = next((r for r in rows if r[0] <= cy <= r[1]), None)
            if col is None or row is None:
                problems.append(f"page {number}: {text!r} lies on no card")
            elif (
                x0 < col[0] + inset
                or x1 > col[1] - inset
                or y0 < row[0] + inset
                or (y1 > row[1] - inset)
            ):
                problems.append(f"page {number}: {text!r} within {inset} mm of its cut")
    assert problems == []


SMALL = """\
ruleset tiny "Tiny" ru "Крошка"
version 1.0.0
languages en ru
units distance hex, cost MP
stacking sum
mode mech "Mech" ru "Шагоход"
mode hover "Hover" ru "Ховер"
layer base "Base" ru "Основа" one per place {
  clear "Clear" ru "Ровная" | 1
  woods "Woods" ru "Лес" | 2, hover prohibited
      note for hover "Hovers stay out." ru "Ховерам нельзя."
  water "Water" ru "Вода" | impassable, hover 1
}
"""


def _build(folder: Path, fonts: Path | None) -> dict[str, bytes]:
    """`rulesdsl build` of the small ruleset; with ``fonts``, in a fresh process whose
    fontconfig sees only that (empty) folder, else in this process, which sees the system's
    fonts (a Python started for it was a third of the test's CPU; issue 44). Every file it
    wrote, by its path."""
    (folder / "rulesets").mkdir(parents=True)
    (folder / "rulesets" / "tiny.terrain").write_text(SMALL, "utf-8")
    argv = ["build", "-j", "1", "--out", "out"]
    if fonts is None:
        from rulesdsl.commands.cli import main

        with contextlib.chdir(folder), contextlib.redirect_stdout(io.StringIO()):
            assert main(argv) == 0
    else:
        fonts.mkdir()
        conf = fonts.parent / "fonts.conf"
        conf.write_text(
            '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">'
            f"<fontconfig><dir>{fonts}</dir><cachedir>{fonts.parent / 'cache'}</cachedir>"
            "</fontconfig>",
            "utf-8",
        )
        env = dict(os.environ, FONTCONFIG_FILE=str(conf))
        command = [sys.executable, "-m", "rulesdsl", *argv]
        subprocess.run(command, cwd=folder, env=env, capture_output=True, check=True)
    out = folder / "out"
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_build_writes_the_same_bytes_with_and_without_system_fonts(tmp_path: Path) -> None:
    with_fonts = _build(tmp_path / "a", None)
    without = _build(tmp_path / "b", tmp_path / "empty")
    assert any(name.endswith(".pdf") for name in with_fonts)
    assert sorted(with_fonts) == sorted(without)
    differ = [name for name in with_fonts if with_fonts[name] != without[name]]
    assert differ == []
