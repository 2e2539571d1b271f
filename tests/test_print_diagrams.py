"""Diagrams (issue 23): scales drawn over the values their rule uses, numbers that survive a
photocopier, and no line across a label."""

from __future__ import annotations

import re

from rulesdsl.printed import svg
from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.printed.sheet_rules import RuleBlocks
from rulesdsl.printed.sheets import render_markdown
from tests import pdf_layout


def test_a_scale_in_fractions_shows_every_step_its_rule_counts() -> None:
    assert RuleBlocks.scale_inputs([0.2]) == [round(0.2 * i, 6) for i in range(13)]
    assert RuleBlocks.scale_inputs([2, 4]) == [float(x) for x in range(13)]
    assert RuleBlocks.scale_inputs([10]) == [float(x) for x in range(0, 21, 2)]
    md = render_markdown(build_sheet(pdf_layout.ruleset("battletech_tacops"), "en"))
    gravity = md[md.index("### Gravity to-hit") :]
    assert "| 0 | 0.2 | 0.4 | 0.6 |" in gravity
    assert "| points | 0 | 1 | 2 | 3 |" in gravity


def test_a_dark_scale_box_prints_its_number_on_white() -> None:
    points = [svg.ScalePoint(str(i), str(i), i / 4) for i in range(5)]
    drawn = svg.step_scale(points, "thickness", "points", "T", "t")
    plates = re.findall(r'<rect x="[\d.]+" y="3" [^>]*fill="#fff"/>', drawn)
    assert len(plates) == 3  # the boxes darker than 0.4
    assert 'font-size="8.5"' in drawn  # results, and inputs at 7.5: not 7 scaled to 1 mm


def test_the_grid_path_runs_under_its_labels_never_across() -> None:
    drawn = svg.grid_diagonals(["1.5", "3", "1.5"], "6 m", "G")
    path = drawn.index("<polyline")
    for label in ("1.5", "3"):
        text = drawn.index(f">{label}</text>")
        plate = drawn.rindex('fill="#fff"/>', 0, text)
        assert path < plate < text  # the white plate is drawn over the path, under the text
