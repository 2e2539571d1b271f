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
    plates = re.findall(r'<rect x="[\d.]+" y="[\d.]+" [^>]*fill="#fff"/>', drawn)
    assert len(plates) == 3  # the boxes darker than 0.4
    assert 'font-size="8.5"' in drawn  # results, and inputs at 7.5: not 7 scaled to 1 mm


def _drawn(drawn: str) -> tuple[float, list[tuple[float, str]]]:
    """A chart's width in points and each of its texts: (type size, text)."""
    width = float(re.search(r'width="([\d.]+)pt"', drawn).group(1))  # type: ignore[union-attr]
    texts = re.findall(r'font-size="([\d.]+)"[^>]*>([^<]*)</text>', drawn)
    return width, [(float(size), text) for size, text in texts]


def test_a_scale_is_drawn_for_a_poker_card_its_labels_never_under_6_pt() -> None:
    """Issue 41 goal 3: a 13-tick scale with long labels prints at its own size on a poker
    card (160.6 pt of room inside the safe zone), so no text of it is shrunk under 6 pt."""
    points = [svg.ScalePoint(f"{i / 5:.1f}", str(i), i / 12) for i in range(13)]
    drawn = svg.step_scale(points, "deviation from 1 g (g)", "points", "G", "g")
    width, texts = _drawn(drawn)
    assert width <= 160.6
    assert min(size for size, _ in texts) >= 6.0
    assert {text for _, text in texts} >= {p.x for p in points} | {p.result for p in points}


def test_a_crowded_ruler_labels_fewer_ticks_but_prints_every_result() -> None:
    points = [svg.ScalePoint(f"{i * 0.25:g}", str(i), i / 12) for i in range(13)]
    width, texts = _drawn(svg.step_scale(points, "x", "points", "G", "g"))
    shown = [text for _, text in texts]
    assert width <= 160.6
    assert all(p.result in shown for p in points)
    inputs = [p.x for p in points if p.x in shown]
    assert inputs == ["0", "0.5", "1", "1.5", "2", "2.5", "3"]  # every second tick: 0.25 apart


def test_the_grid_path_runs_under_its_labels_never_across() -> None:
    drawn = svg.grid_diagonals(["1.5", "3", "1.5"], "6 m", "G")
    path = drawn.index("<polyline")
    for label in ("1.5", "3"):
        text = drawn.index(f">{label}</text>")
        plate = drawn.rindex('fill="#fff"/>', 0, text)
        assert path < plate < text  # the white plate is drawn over the path, under the text
