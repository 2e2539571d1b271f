"""Sight rules whose values are steps read for the length of line inside each place
(`crossed UNIT`, issue 11 item 9): Heavy Gear's concealment from terrain crossed by the line
of sight, the module's answers and argument checks, the diagnostics for misuse (code, line,
column) through both front ends, the sheets, `diff` and the round trip DSL -> YAML -> DSL."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import ir, semantics
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from tests.conftest import RULESETS, compile_snippet, load_generated
from tests.test_sight_and_results import load, located, yaml_errors

HEADER = """ruleset demo "Demo"
version 1.0.0
units distance in, cost MP, concealment points
mode foot "Foot"
"""
HEADER_LINES = HEADER.count("\n")

CONCEALMENT = """\
step light "Light" (thickness in) -> points : +1 per full 4 in, at least 1 from 2 in
step heavy "Heavy" (thickness in) -> points : +1 per full 1 in, at least 1 above 0 in
sight cover "Concealment" : counts target, crossed in
layer terrain "Terrain" {
  columns cost, cover
  clear "Clear"  | 1
  woods "Woods"  | 2 | step light
  rocks "Rocks"  | 3 | step heavy
  smoke "Smoke"  | 1 | 1
}
"""


@pytest.fixture(scope="module")
def hg() -> ModuleType:
    return load_generated("heavy_gear")


# ---- Heavy Gear: concealment points of the terrain along the line of sight -----------------


def test_heavy_gear_concealment_adds_the_points_of_each_piece_for_its_thickness(
    hg: ModuleType,
) -> None:
    # medium 3 in: one full 2 in -> 1; light 4 in: one full 4 in -> 1; heavy 1.5 in -> 1
    line = hg.line_of_sight(
        "terrain_concealment",
        ("clear",),
        ("clear", "medium"),
        ("rough", "light"),
        ("clear", "heavy"),
        crossed=(0, 3, 4, 1.5),
    )
    assert line == hg.Sight(hindrance=3, blocked=False, by_place=(0, 1, 1, 1))


def test_heavy_gear_thick_pieces_give_a_point_per_full_tranche(hg: ModuleType) -> None:
    line = hg.line_of_sight(
        "terrain_concealment", ("clear",), ("light",), ("medium",), ("heavy",), crossed=(0, 9, 5, 3)
    )
    assert line.by_place == (0, 2, 2, 3)
    assert line.hindrance == 7


def test_heavy_gear_thin_light_terrain_hides_nothing_under_two_inches(hg: ModuleType) -> None:
    thin = hg.line_of_sight("terrain_concealment", ("clear",), ("light",), crossed=(0, 1.5))
    two = hg.line_of_sight("terrain_concealment", ("clear",), ("light",), crossed=(0, 2))
    assert (thin.hindrance, two.hindrance) == (0, 1)


def test_heavy_gear_the_shooter_s_own_terrain_gives_no_concealment(hg: ModuleType) -> None:
    line = hg.line_of_sight(
        "terrain_concealment", ("heavy",), ("clear",), ("clear",), crossed=(3, 4, 0)
    )
    assert line.by_place == (0, 0, 0) and line.hindrance == 0


def test_heavy_gear_the_target_s_own_piece_counts(hg: ModuleType) -> None:
    line = hg.line_of_sight("terrain_concealment", ("clear",), ("heavy",), crossed=(4, 2))
    assert line.by_place == (0, 2)


def test_heavy_gear_terrain_never_blocks_the_line(hg: ModuleType) -> None:
    line = hg.line_of_sight(
        "terrain_concealment", ("clear",), *[("heavy",)] * 5, crossed=(0, *[6] * 5)
    )
    assert line.hindrance == 30 and line.blocked is False


def test_heavy_gear_module_answers_as_semantics(hg: ModuleType, compiler: Compiler) -> None:
    rs = compiler.compile_file(RULESETS / "heavy_gear.terrain").ruleset
    assert rs is not None
    [rule] = rs.sights
    for classes in (("light",), ("medium",), ("heavy",), ("rough", "heavy")):
        for thickness in (0, 0.5, 1, 1.5, 2, 3.9, 4, 7, 8.5):
            places = [("clear",), classes, ("clear",)]
            lengths = (0, thickness, thickness)
            expected = semantics.line_of_sight(rs, rule, places, lengths)
            got = hg.line_of_sight("terrain_concealment", *places, crossed=lengths)
            assert (got.hindrance, got.blocked, got.by_place) == (
                expected.hindrance,
                expected.blocked,
                expected.by_place,
            ), (classes, thickness)


def test_heavy_gear_sight_rule_is_data_in_the_module(hg: ModuleType) -> None:
    rule = hg.SIGHTS["terrain_concealment"]
    assert (rule.counts, rule.crossed, rule.blocks_at) == ("target", "in", None)
    assert rule.values["medium"] == hg.StepCost("medium_concealment", "thickness")


# ---- the module's argument checks -------------------------------------------------------


def test_a_step_value_needs_the_length_crossed(hg: ModuleType) -> None:
    with pytest.raises(hg.InvalidArgument, match="'crossed' must be given: 'light'"):
        hg.line_of_sight("terrain_concealment", ("clear",), ("light",))


@pytest.mark.parametrize(
    ("crossed", "error", "why"),
    [
        ((1,), "InvalidArgument", "one length per place"),
        ((0, -2), "InvalidArgument", "at least 0"),
        ((0, float("nan")), "InvalidArgument", "finite"),
        ((0, "3"), "ArgumentTypeError", "real number"),
        ("03", "ArgumentTypeError", "one number per place"),
        (3, "ArgumentTypeError", "one number per place"),
    ],
)
def test_line_of_sight_checks_the_lengths_crossed(
    hg: ModuleType, crossed: object, error: str, why: str
) -> None:
    with pytest.raises(getattr(hg, error), match=why):
        hg.line_of_sight("terrain_concealment", ("clear",), ("light",), crossed=crossed)


def test_numbers_and_steps_mix_in_one_rule_and_numbers_need_no_lengths(
    compiler: Compiler, tmp_path: Path
) -> None:
    compiled = compile_snippet(compiler, HEADER + CONCEALMENT)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    m = load(compiled.ruleset, tmp_path)
    assert m.line_of_sight("cover", ("clear",), ("smoke",), ("smoke",)).hindrance == 2
    mixed = m.line_of_sight(
        "cover", ("clear",), ("woods", "smoke"), ("rocks",), crossed=(0, 8, 0.5)
    )
    assert mixed.by_place == (0, 3, 1)


# ---- diagnostics -------------------------------------------------------------------------

CORPUS: list[tuple[str, str, list[tuple[int, int]]]] = [
    # (code, body after the header, [(line in the body, column)] of each diagnostic)
    ("E260", CONCEALMENT.replace(", crossed in", ""), [(7, 29), (8, 29)]),
    ("E260", CONCEALMENT.replace("crossed in", "crossed MP"), [(3, 52)]),
    (
        "E261",
        CONCEALMENT.replace(
            "(thickness in) -> points : +1 per full 1 in, at least 1 above 0 in",
            "(thickness MP) -> points : +1 per full 1 MP",
        ),
        [(8, 29)],
    ),
    ("E101", CONCEALMENT.replace("step heavy\n", "step heavvy\n"), [(8, 29)]),
    ("E252", CONCEALMENT.replace("| step heavy", "| step heavy, foot & foot 2"), [(8, 36)]),
]


@pytest.mark.parametrize(
    ("code", "text", "places"), CORPUS, ids=[f"{c[0]}-{i}" for i, c in enumerate(CORPUS)]
)
def test_each_misuse_of_crossed_gets_its_code_at_its_place(
    compiler: Compiler, code: str, text: str, places: list[tuple[int, int]]
) -> None:
    expected = [(code, HEADER_LINES + line, column) for line, column in places]
    assert located(compiler, HEADER + text) == expected


@pytest.mark.parametrize(
    ("code", "text"), [(c[0], c[1]) for c in CORPUS], ids=[c[0] for c in CORPUS]
)
def test_each_misuse_of_crossed_gets_the_same_code_through_the_yaml_front_end(
    tmp_path: Path, code: str, text: str
) -> None:
    assert {d.code for d in yaml_errors(HEADER + text, tmp_path)} == {code}


# ---- round trip, diff, sheets ------------------------------------------------------------


def test_crossed_survives_dsl_to_yaml_to_dsl(compiler: Compiler, tmp_path: Path) -> None:
    text = HEADER + CONCEALMENT
    source, _ = Parser().parse(text, "demo.terrain")
    assert source is not None
    yaml_path = tmp_path / "demo.yaml"
    yaml_path.write_text(to_yaml(source), "utf-8")
    assert "crossed: in" in yaml_path.read_text("utf-8")
    back = tmp_path / "back.terrain"
    back.write_text(to_terrain(yaml_path.read_text("utf-8")), "utf-8")
    rulesets = [Compiler().compile_file(p).ruleset for p in (yaml_path, back)] + [
        compile_snippet(compiler, text).ruleset
    ]
    plain = [dataclasses.replace(r, digest="") for r in rulesets if r is not None]
    assert len(plain) == 3 and plain[0] == plain[1] == plain[2]
    assert plain[0].sights[0].crossed == "in"
    woods = next(f for f in plain[0].features if f.id == "woods")
    assert woods.cells["cover"].default == ir.StepCost("light")


def test_diff_grades_a_changed_unit_crossed_or_step_cell_as_breaking(compiler: Compiler) -> None:
    from rulesdsl.versions.diff import diff

    old = compile_snippet(compiler, HEADER + CONCEALMENT).ruleset
    changed = CONCEALMENT.replace("| step light", "| step heavy").replace(
        'smoke "Smoke"  | 1 | 1', 'smoke "Smoke"  | 1 | step light'
    )
    new = compile_snippet(compiler, HEADER + changed).ruleset
    assert old is not None and new is not None
    found = {(c.level, c.path, c.old, c.new) for c in diff(old, new).changes}
    assert found == {
        ("breaking", "woods.cover", "step light", "step heavy"),
        ("breaking", "smoke.cover", "1", "step light"),
    }
    dropped = compile_snippet(
        compiler, HEADER + CONCEALMENT.replace(", crossed in", "").replace("step ", "")
    )
    assert not dropped.ok  # `woods | light` names a step where a number is wanted


def test_the_heavy_gear_sheets_say_how_a_piece_is_read(tmp_path: Path) -> None:
    from rulesdsl.commands.cli import main

    out = {}
    for lang in ("en", "fr"):
        target = tmp_path / f"hg.{lang}.md"
        ruleset = str(RULESETS / "heavy_gear.terrain")
        assert main(["sheet", ruleset, "--format", "md", "--lang", lang, "-o", str(target)]) == 0
        out[lang] = target.read_text("utf-8")
    assert "a scale gives the value for the length of line inside the place (in)" in out["en"]
    assert "blocks the line" not in out["en"]  # no place of this rule blocks
    assert "The places in between and the target's own place count" in out["en"]
    # each class names its scale, printed beside it in the Scales section
    assert (
        "| Medium terrain | Medium terrain (dense jungle, light structures, light fortifications) |"
        in out["en"]
    )
    assert out["en"].index("## Scales") < out["en"].index("### Concealment from terrain")
    assert "un barème donne la valeur pour la longueur de ligne dans le lieu (po)" in out["fr"]
    assert "### Terrain class for concealment" not in out["en"]  # its column is printed above
    assert "| Terrain moyen | Terrain moyen (jungle dense" in out["fr"]


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (RULESETS.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index("```terrain\nstep medium_concealment")
    snippet = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    compiled = compile_snippet(compiler, HEADER + snippet)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    m = load(compiled.ruleset, tmp_path)
    line = m.line_of_sight("terrain_concealment", (), ("medium",), ("medium",), crossed=(0, 3, 2))
    assert line == m.Sight(hindrance=2, blocked=False, by_place=(0, 1, 1))
    assert "crossed=(0, 3, 2))`\nis `Sight(hindrance=2, blocked=False, by_place=(0, 1, 1))`" in doc


def test_a_house_rule_gives_a_class_another_scale(compiler: Compiler, tmp_path: Path) -> None:
    (tmp_path / "demo.terrain").write_text(HEADER + CONCEALMENT, "utf-8")
    house = (
        'ruleset house "House"\nversion 1.0.0\nextends demo@^1.0\n'
        "override woods.cover | step heavy\n"
    )
    compiled = compile_snippet(compiler, house, tmp_path, "house.terrain")
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    m = load(compiled.ruleset, tmp_path)
    # 2 in of woods: 1 point on the light scale, 2 on the heavy one the house rule gives it
    assert m.line_of_sight("cover", (), ("woods",), crossed=(0, 2)).hindrance == 2
    [change] = compiled.ruleset.changes
    assert isinstance(change.path, ir.ColumnPath) and change.path.column == "cover"


def test_a_step_that_answers_a_marker_blocks_the_line(compiler: Compiler, tmp_path: Path) -> None:
    body = CONCEALMENT.replace(
        "+1 per full 1 in, at least 1 above 0 in", "+1 per full 1 in, impassable from 3 in"
    )
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    m = load(compiled.ruleset, tmp_path)
    places, lengths = [(), ("rocks",), ("smoke",)], (0, 3, 0)
    line = m.line_of_sight("cover", *places, crossed=lengths)
    assert line == m.Sight(hindrance=1, blocked=True, by_place=(0, m.BLOCKED, 1))
    reference = semantics.line_of_sight(
        compiled.ruleset, compiled.ruleset.sights[0], places, lengths
    )
    assert reference.by_place == (0, semantics.BLOCKED, 1) and reference.blocked
