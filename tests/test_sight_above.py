"""`blocks above N` on a sight rule (issue 40, item 8): "more than 2 in of woods blocks" said as
the rule says it. The module and the reference semantics answer alike, `blocks at` keeps its
meaning, misuse is E250 at its place, the YAML form, the sheet's words in every language,
`diff` grading and the house-rule path."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rulesdsl import ir, semantics
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.versions import diff as semantic
from tests.conftest import compile_snippet
from tests.test_sight_and_results import HEADER, HEADER_LINES, load, located, yaml_errors

ABOVE = """sight los "Line of sight" : blocks above 2, counts between
layer terrain "Terrain" {
  columns cost, los
  clear "Clear" | 1 | 0
  woods "Woods" | 2 | 1
}
"""
AT = ABOVE.replace("blocks above 2", "blocks at 2")
CLEAR, WOODS = ("clear",), ("woods",)
LINES = {
    "two woods": (CLEAR, WOODS, WOODS, CLEAR),
    "three woods": (CLEAR, WOODS, WOODS, WOODS, CLEAR),
}


def _ruleset(compiler: Compiler, body: str) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.mark.parametrize(
    ("body", "blocked"),
    [(ABOVE, {"two woods": False, "three woods": True}), (AT, {"two woods": True})],
    ids=["above", "at"],
)
def test_blocks_above_needs_more_than_the_total_and_blocks_at_keeps_its_meaning(
    compiler: Compiler, tmp_path: Path, body: str, blocked: dict[str, bool]
) -> None:
    rs = _ruleset(compiler, body)
    module = load(rs, tmp_path)
    for name, expected in blocked.items():
        line = module.line_of_sight("los", *LINES[name])
        reference = semantics.line_of_sight(rs, rs.sights[0], LINES[name])
        assert (line.hindrance, line.blocked) == (reference.hindrance, reference.blocked)
        assert line.blocked is expected, name
    assert module.SIGHTS["los"].blocks_above is (body == ABOVE)


def test_blocks_above_0_is_accepted_and_below_0_is_e250(compiler: Compiler) -> None:
    assert _ruleset(compiler, ABOVE.replace("above 2", "above 0")).sights[0].blocks_when == "above"
    text = HEADER + ABOVE.replace("above 2", "above -1")
    assert located(compiler, text) == [("E250", HEADER_LINES + 1, 29)]


def test_blocks_above_survives_dsl_to_yaml_to_dsl(compiler: Compiler, tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + ABOVE, "demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "blocks_above: '2'" in yaml_text
    yaml_path = tmp_path / "demo.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "back.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p).ruleset for p in (yaml_path, back)]
    plain = [dataclasses.replace(r, digest="") for r in found if r is not None]
    assert len(plain) == 2 and plain[0] == plain[1]
    assert plain[0].sights[0].blocks_when == "above"


def test_yaml_blocks_at_and_blocks_above_together_is_an_error(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + ABOVE, "demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source).replace("blocks_above: '2'", "blocks_above: '2'\n    blocks_at: 3")
    path = tmp_path / "demo.yaml"
    path.write_text(yaml_text, "utf-8")
    found = [d for d in Compiler().compile_file(path).diagnostics if d.is_error]
    assert [d.code for d in found] == ["E001"] and "not both" in found[0].message


def test_blocks_above_misuse_has_the_same_code_through_the_yaml_front_end(
    tmp_path: Path,
) -> None:
    found = yaml_errors(HEADER + ABOVE.replace("above 2", "above -1"), tmp_path)
    assert [d.code for d in found] == ["E250"]


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "more than 2"), ("fr", "plus de 2"), ("de", "mehr als 2"), ("ru", "больше 2")],
)
def test_the_sheet_says_more_than_in_every_language(tmp_path: Path, lang: str, words: str) -> None:
    ruleset = tmp_path / "demo.terrain"
    ruleset.write_text(HEADER + ABOVE, "utf-8")
    target = tmp_path / f"demo.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    text = target.read_text("utf-8")
    assert words in text and "2 or more" not in text


def test_diff_grades_at_to_above_as_breaking(compiler: Compiler) -> None:
    old, new = _ruleset(compiler, AT), _ruleset(compiler, ABOVE)
    d = semantic.diff(old, new)
    assert [(c.level, c.action, c.path, c.message) for c in d.changes] == [
        ("breaking", "changed", "los", "Line of sight: blocks at 2 -> blocks above 2")
    ]


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index('```terrain\nstep woods_inches "Woods crossed"')
    snippet = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    header = (
        'ruleset demo "Demo"\nversion 1.0.0\nedition 2026.12\nlanguages en fr\n'
        "units distance in, cost MP\n"
    )
    compiled = compile_snippet(compiler, header + snippet)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = load(compiled.ruleset, tmp_path)
    line = (("clear",), ("woods",), ("clear",))
    assert m.line_of_sight("woods_line", *line, crossed=(0, 2, 0)) == m.Sight(2, False, (0, 2, 0))
    assert m.line_of_sight("woods_line", *line, crossed=(0, 2.5, 0)).blocked
    for shown in (
        '`line_of_sight("woods_line", ("clear",), ("woods",), ("clear",), crossed=(0, 2, 0))` is\n'
        "`Sight(hindrance=2, blocked=False, by_place=(0, 2, 0))`",
        "more than 2 blocks the line",
    ):
        assert shown in doc


def _house(tmp_path: Path, overrides: str) -> tuple[ir.Ruleset | None, list[str]]:
    (tmp_path / "demo.terrain").write_text(HEADER + AT.replace("at 2", "at 3"), "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends demo@^1.0\n' + overrides, "utf-8"
    )
    compiled = Compiler().compile_file(house)
    return compiled.ruleset, [d.code for d in compiled.diagnostics if d.is_error]


def test_a_house_rule_restates_the_threshold_as_blocks_above(tmp_path: Path) -> None:
    rs, errors = _house(tmp_path, "override los.blocks_above | 2\n")
    assert rs is not None and errors == []
    rule = rs.sights[0]
    assert (rule.blocks_when, rule.blocks_at) == ("above", 2)
    [change] = rs.changes
    assert change.path == ir.SightPath("los", "blocks_above")
    assert (change.was, change.now) == (
        ir.Cell(ir.Text("blocks at 3")),
        ir.Cell(ir.Text("blocks above 2")),
    )


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "3 or more blocks → more than 2 blocks"),
        ("fr", "3 ou plus bloque → plus de 2 bloque"),
        ("de", "ab 3 blockiert → mehr als 2 blockiert"),
        ("ru", "3 и более блокирует → больше 2 блокирует"),
    ],
)
def test_a_house_sheet_words_a_changed_threshold_in_its_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    rs, errors = _house(tmp_path, "override los.blocks_above | 2\n")
    assert rs is not None and errors == []
    sheet = build_sheet(rs, lang)
    [changes] = [s for s in sheet.sections if s.id == "changes"]
    [line] = [line for b in changes.blocks for line in b.lines]
    assert words in line, line
    assert "blocks at" not in line and "blocks above" not in line


def test_blocks_at_and_blocks_above_of_one_rule_overridden_together_is_e505(
    tmp_path: Path,
) -> None:
    _, errors = _house(tmp_path, "override los.blocks_above | 2\noverride los.blocks_at | 4\n")
    assert errors == ["E505"]
