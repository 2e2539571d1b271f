"""Sight keyed by unit type or keyword, and `counts between, target inside` (issue 25, item 1):
the module's answers for each viewer (the same as the reference semantics), every misuse with
its code, line and column through both front ends, the YAML round trip, `rulesdsl diff`, a
house rule's override, and the sheet in every language."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import ir, semantics
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from tests.conftest import compile_snippet, import_rendered

HEADER = """ruleset demo "Demo"
version 1.0.0
edition 2026.12
units distance in, cost MP
group fly "Fly"
group vehicle "Vehicle"
mode trooper "Trooper"
mode jetbike "Jetbike" : vehicle, fly
mode tank "Tank" : vehicle
mode titan "Titan"
precedence fly, vehicle
"""
LINES = HEADER.count("\n")

SIGHT = """sight los "Line of sight" : blocks at 2, counts between, target inside
layer terrain "Terrain" {
  columns cost, los
  clear "Clear" | 1 | 0
  ruins "Ruins" | 2 | 1, fly 0, titan 0
  woods "Woods" | 2 | 1, vehicle 2
}
"""

LINE = (("clear",), ("ruins",), ("ruins",), ("woods",))


@pytest.fixture(scope="module")
def demo(compiler: Compiler, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    compiled = compile_snippet(compiler, HEADER + SIGHT)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    return import_rendered(compiled.ruleset, tmp_path_factory.mktemp("sight"), "sight_by_unit")


def test_a_flyer_and_a_towering_unit_see_over_the_ruins(demo: ModuleType) -> None:
    # two ruins between: 2 blocks a trooper's line; a flyer or a titan sees over them
    assert demo.line_of_sight("los", *LINE, mode="trooper").blocked
    assert demo.line_of_sight("los", *LINE, mode="jetbike") == demo.Sight(1, False, (0, 0, 0, 1))
    assert demo.line_of_sight("los", *LINE, mode="titan") == demo.Sight(1, False, (0, 0, 0, 1))


def test_a_keyword_value_reaches_the_units_that_carry_it(demo: ModuleType) -> None:
    # woods: 1, vehicle 2; the tank is a vehicle; the jetbike is Fly first (issue 25 item 7)
    assert demo.line_of_sight("los", ("clear",), ("woods",), ("clear",), mode="tank").hindrance == 2
    assert (
        demo.line_of_sight("los", ("clear",), ("woods",), ("clear",), mode="jetbike").hindrance == 1
    )


def test_without_a_viewer_the_values_for_everyone_count(demo: ModuleType) -> None:
    assert demo.line_of_sight("los", *LINE) == demo.line_of_sight("los", *LINE, mode="trooper")


def test_an_unknown_viewer_is_an_unknown_name(demo: ModuleType) -> None:
    with pytest.raises(demo.UnknownName, match="jetbik"):
        demo.line_of_sight("los", *LINE, mode="jetbik")


def test_the_target_inside_adds_to_the_hindrance_but_never_blocks(demo: ModuleType) -> None:
    # one ruin between (1) and the ruins the target stands in (1): 2, yet not blocked
    line = demo.line_of_sight("los", ("clear",), ("ruins",), ("ruins",))
    assert line == demo.Sight(hindrance=2, blocked=False, by_place=(0, 1, 1))
    assert demo.SIGHTS["los"].target_inside is True


def test_the_module_answers_as_the_reference_for_every_viewer(
    demo: ModuleType, compiler: Compiler
) -> None:
    rs = compile_snippet(compiler, HEADER + SIGHT).ruleset
    assert rs is not None
    lines = [LINE, (("clear",), ("woods",), ("ruins",)), (("ruins",), ("clear",), ("woods",))]
    for places in lines:
        for mode in (None, "trooper", "jetbike", "tank", "titan"):
            ref = semantics.line_of_sight(rs, rs.sights[0], places, mode=mode)
            got = demo.line_of_sight("los", *places, mode=mode)
            expected = (ref.hindrance, ref.blocked, ref.by_place)
            assert (got.hindrance, got.blocked, got.by_place) == expected, (places, mode)


# ---- misuse ---------------------------------------------------------------------------------

MISUSE = [
    ("E263", 'sight los "LOS" : counts target, target inside\n', 1, 34),
    ("E262", SIGHT.replace("titan 0", "titan 0, fly 1"), 5, 42),
    ("E252", SIGHT.replace("titan 0", "titan & fly 0"), 5, 33),
    ("E101", SIGHT.replace("titan 0", "giant 0"), 5, 33),
    ("E232", SIGHT.replace("1, vehicle 2", "1, vehicle 2, fly 0"), 6, 23),
]


def located(compiler: Compiler, text: str) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, text)
    return [
        (d.code, d.pos.line - LINES, d.pos.column)
        for d in compiled.diagnostics
        if d.is_error and d.pos is not None
    ]


@pytest.mark.parametrize(("code", "text", "line", "column"), MISUSE, ids=[m[0] for m in MISUSE])
def test_each_misuse_gets_its_code_at_its_place(
    compiler: Compiler, code: str, text: str, line: int, column: int
) -> None:
    if code == "E232":
        text = HEADER.replace("precedence fly, vehicle\n", "") + text
        compiled = compile_snippet(compiler, text)
        found = [
            (d.code, d.pos.line - LINES + 1, d.pos.column)
            for d in compiled.diagnostics
            if d.is_error and d.pos is not None
        ]
        assert found == [(code, line, column)]
        return
    assert located(compiler, HEADER + text) == [(code, line, column)]


@pytest.mark.parametrize(
    ("code", "text"), [(m[0], m[1]) for m in MISUSE if m[0] != "E232"], ids=lambda v: v[:4]
)
def test_each_misuse_gets_the_same_code_through_the_yaml_front_end(
    tmp_path: Path, code: str, text: str
) -> None:
    source, syntax = Parser().parse(HEADER + text, "bad.terrain")
    assert source is not None and not syntax
    path = tmp_path / "bad.yaml"
    path.write_text(to_yaml(source), "utf-8")
    found = [d.code for d in Compiler().compile_file(path).diagnostics if d.is_error]
    assert found == [code]


def test_a_lower_keyword_taken_in_a_sight_cell_warns_w262(compiler: Compiler) -> None:
    text = HEADER + SIGHT.replace("| 1, vehicle 2", "| vehicle 2")
    compiled = compile_snippet(compiler, text)
    assert compiled.ok
    [diag] = [d for d in compiled.diagnostics if d.code == "W262"]
    assert diag.pos is not None and (diag.pos.line - LINES, diag.pos.column) == (6, 23)
    assert "'jetbike'" in diag.message and "'fly'" in diag.message


# ---- round trip, diff, variants, sheets ------------------------------------------------------


def test_keyed_sight_and_target_inside_survive_dsl_to_yaml_to_dsl(
    compiler: Compiler, tmp_path: Path
) -> None:
    text = HEADER + SIGHT
    source, _ = Parser().parse(text, "demo.terrain")
    assert source is not None
    yaml_path = tmp_path / "demo.yaml"
    yaml_path.write_text(to_yaml(source), "utf-8")
    assert "target_inside: true" in yaml_path.read_text("utf-8")
    back = tmp_path / "back.terrain"
    back.write_text(to_terrain(yaml_path.read_text("utf-8")), "utf-8")
    assert "target inside" in back.read_text("utf-8")
    rulesets = [Compiler().compile_file(p).ruleset for p in (yaml_path, back)]
    rulesets.append(compile_snippet(compiler, text).ruleset)
    plain = [dataclasses.replace(r, digest="") for r in rulesets if r is not None]
    assert len(plain) == 3 and plain[0] == plain[1] == plain[2]
    ruins = next(f for f in plain[0].features if f.id == "ruins")
    assert ruins.cells["los"].exceptions == {"fly": ir.Number(0), "titan": ir.Number(0)}


def test_diff_grades_a_keyed_value_or_target_inside_as_breaking(compiler: Compiler) -> None:
    from rulesdsl.versions.diff import diff

    old = compile_snippet(compiler, HEADER + SIGHT).ruleset
    changed = SIGHT.replace(", target inside", "").replace("fly 0, titan 0", "fly 1")
    new = compile_snippet(compiler, HEADER + changed).ruleset
    assert old is not None and new is not None
    found = {(c.level, c.path, c.old, c.new) for c in diff(old, new).changes}
    assert found == {
        ("breaking", "los", "target inside", "target not counted inside"),
        ("breaking", "ruins.los.fly", "0", "1"),
        ("breaking", "ruins.los.titan", "0", "nothing"),
    }


def test_a_house_rule_overrides_a_keyed_sight_value(compiler: Compiler, tmp_path: Path) -> None:
    (tmp_path / "demo.terrain").write_text(HEADER + SIGHT, "utf-8")
    house = (
        'ruleset house "House"\nversion 1.0.0\nextends demo@^1.0\noverride ruins.los | 1, fly 0\n'
    )
    compiled = compile_snippet(compiler, house, tmp_path, "house.terrain")
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    m = import_rendered(compiled.ruleset, tmp_path, "sight_house")
    assert m.line_of_sight("los", *LINE, mode="titan").blocked  # titans no longer see over
    assert not m.line_of_sight("los", *LINE, mode="jetbike").blocked


@pytest.mark.parametrize(
    ("lang", "sentence", "cell"),
    [
        ("en", "a value after a unit type or keyword is for a viewer of that type", "1, Fly 0"),
        ("fr", "seuls les lieux intermédiaires comptent pour bloquer la ligne", "1, Fly 0"),
        ("ru", "блокировку линии определяют только промежуточные места", "1, Fly 0"),
        ("de", "nur die Felder dazwischen zählen für die Blockade der Linie", "1, Fly 0"),
    ],
)
def test_the_sheet_says_who_sees_over_what_in_every_language(
    tmp_path: Path, lang: str, sentence: str, cell: str
) -> None:
    from rulesdsl.commands.cli import main

    source = tmp_path / "demo.terrain"
    source.write_text(HEADER + SIGHT, "utf-8")
    target = tmp_path / f"demo.{lang}.md"
    assert main(["sheet", str(source), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    text = target.read_text("utf-8")
    assert sentence in text
    assert f"| Ruins | {cell}, Titan 0 |" in text


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index('```terrain\ngroup fly "Fly" fr "Vol"\nmode skimmer')
    snippet = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    header = (
        'ruleset demo "Demo"\nversion 1.0.0\nedition 2026.12\nlanguages en fr\n'
        "units distance in, cost MP\n"
    )
    compiled = compile_snippet(compiler, header + snippet)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    m = import_rendered(compiled.ruleset, tmp_path, "sight_guide")
    through = (("open_ground",), ("ruins",), ("woods",), ("open_ground",))
    assert m.line_of_sight("obscuring", *through, mode="skimmer") == m.Sight(0, False, (0,) * 4)
    assert m.line_of_sight("obscuring", *through) == m.Sight(2, True, (0, 1, 1, 0))
    inside = (("open_ground",), ("ruins",), ("open_ground",), ("woods",))
    assert m.line_of_sight("obscuring", *inside) == m.Sight(2, False, (0, 1, 0, 1))
    for shown in (
        'mode="skimmer")` is `Sight(hindrance=0,\n  blocked=False, by_place=(0, 0, 0, 0))`',
        "`Sight(hindrance=2, blocked=True, by_place=(0, 1, 1, 0))`",
        "is `Sight(hindrance=2, blocked=False, by_place=(0, 1, 0, 1))`",
    ):
        assert shown in doc
