"""Costs that are not per distance, a cost role in a distance, and decision outcome labels in
every language (issue 11, items 1, 2 and 11).

A flat cost is paid once per move (``flat 2 in``), a share is a part of the unit's allowance
(``share 1/2``, ``share all``, ``share all but 1 in``), a step cost is a step's answer for an
input given by keyword (``step climb``, ``height=3``); steps gain ``free up to X`` and
``+N per D above X``. The ruleset in tests/data/once_costs.terrain states each of them.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import ir, semantics
from rulesdsl.codegen.targets import render_python as render
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.interchange.fmt import format_text
from rulesdsl.ir.serial import to_data
from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.versions import diff as semantic
from tests.conftest import MYPY_CACHE, compile_snippet, import_rendered

DATA = Path(__file__).parent / "data"
SOURCE = DATA / "once_costs.terrain"


@pytest.fixture(scope="module")
def rs(compiler: Compiler) -> ir.Ruleset:
    compiled = compiler.compile_file(SOURCE)
    assert compiled.ok, [d.message for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    return compiled.ruleset


@pytest.fixture(scope="module")
def module(rs: ir.Ruleset, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The generated module of the test ruleset, imported from a file as a user would."""
    return import_rendered(rs, tmp_path_factory.mktemp("module"), "generated_once_costs")


# ---- the IR ---------------------------------------------------------------------------------


def test_each_cost_form_lowers_to_its_own_value_class(rs: ir.Ruleset) -> None:
    costs = {f.id: f.costs for f in rs.features}
    assert costs["low_wall"]["infantry"] == ir.Flat(ir.Number(2, "in"))
    assert costs["low_wall"]["vehicle"] == ir.Marker("impassable")
    assert costs["bog"]["infantry"] == ir.Share(1, 2)
    assert costs["deep_mud"]["vehicle"] == ir.Share(1, 1)
    assert costs["rubble"]["infantry"] == ir.Share(1, 1, ir.Number(1, "in"))
    assert costs["rubble"]["vehicle"] == ir.Flat(ir.Number(3, "in"))
    assert costs["cliff"]["infantry"] == ir.StepCost("climb")


def test_step_thresholds_lower_to_free_and_above_terms(rs: ir.Ruleset) -> None:
    steps = {s.id: s for s in rs.steps}
    assert steps["climb"].terms == (
        ir.FreeTerm(at=2),
        ir.RateTerm(1, 1),
    )
    assert steps["scramble"].terms == (ir.RateTerm(1, 1, above=2),)


def test_a_cost_role_may_be_a_distance(rs: ir.Ruleset) -> None:
    assert rs.units == {"distance": "in", "cost": "in"}


# ---- semantics ------------------------------------------------------------------------------


def test_free_up_to_counts_the_whole_input_once_past_the_threshold(rs: ir.Ruleset) -> None:
    climb = next(s for s in rs.steps if s.id == "climb")
    assert [semantics.step_value(climb, x) for x in (0, 1, 2, 2.5, 3, 5)] == [
        0,
        0,
        0,
        2.5,
        3,
        5,
    ]


def test_a_rate_above_a_threshold_counts_only_the_part_above(rs: ir.Ruleset) -> None:
    scramble = next(s for s in rs.steps if s.id == "scramble")
    assert [semantics.step_value(scramble, x) for x in (0, 2, 3, 4.5)] == [0, 0, 1, 2.5]


def test_flat_costs_are_paid_once_whatever_the_distance(rs: ir.Ruleset) -> None:
    assert semantics.move_cost(rs, "infantry", ["low_wall"], distance=1) == 2
    assert semantics.move_cost(rs, "infantry", ["low_wall"], distance=4) == 2
    assert semantics.move_cost(rs, "infantry", ["clear", "low_wall"], distance=4) == 4 + 2


def test_shares_are_parts_of_the_allowance(rs: ir.Ruleset) -> None:
    assert semantics.move_cost(rs, "infantry", ["bog"], allowance=6) == 3
    assert semantics.move_cost(rs, "infantry", ["deep_mud"], allowance=6) == 6
    assert semantics.move_cost(rs, "infantry", ["rubble"], allowance=6) == 5
    assert semantics.move_cost(rs, "infantry", ["rubble"], allowance=0.5) == 0


def test_a_missing_allowance_or_step_input_is_named(rs: ir.Ruleset) -> None:
    with pytest.raises(semantics.MissingArgument) as caught:
        semantics.move_cost(rs, "infantry", ["bog"])
    assert caught.value.argument == "allowance"
    with pytest.raises(semantics.MissingArgument) as caught:
        semantics.move_cost(rs, "infantry", ["cliff"])
    assert caught.value.argument == "height"


def test_markers_still_win_over_costs_paid_once(rs: ir.Ruleset) -> None:
    assert semantics.move_cost(rs, "vehicle", ["low_wall", "bog"]) == semantics.IMPASSABLE


# ---- the module -----------------------------------------------------------------------------


def test_module_matches_the_semantics_for_every_place_and_input(
    rs: ir.Ruleset, module: ModuleType
) -> None:
    checked = 0
    for mode in ("infantry", "vehicle"):
        for f in rs.features:
            for distance in (0, 1, 2.5):
                for height in (0, 2, 3.5):
                    args = {"allowance": 6.0, "height": height}
                    reference = semantics.move_cost(
                        rs, mode, [f.id], distance, 6.0, {"height": height}
                    )
                    answer = module.move_cost(mode, f.id, distance=distance, **args)
                    if isinstance(reference, ir.Marker):
                        assert answer.value == reference.marker
                    else:
                        assert isinstance(reference, float | int)
                        assert math.isclose(answer, reference), (mode, f.id, distance, height)
                    checked += 1
    assert checked == 2 * 7 * 3 * 3


def test_module_move_cost_takes_an_allowance_and_step_inputs(module: ModuleType) -> None:
    assert module.move_cost("infantry", "low_wall", distance=3) == 2
    assert module.move_cost("infantry", "clear", "low_wall", distance=3) == 5
    assert module.move_cost("infantry", "bog", distance=3, allowance=6) == 3
    assert module.move_cost("infantry", "rubble", allowance=6) == 5
    assert module.move_cost("infantry", "cliff", height=2) == 0
    assert module.move_cost("infantry", "cliff", height=3) == 3
    assert module.move_cost("infantry", "bank", height=3.5) == 1.5
    assert module.move_cost("vehicle", "low_wall", allowance=6) is module.IMPASSABLE
    assert module.COST_INPUTS == ("height",)
    assert module.PER_MOVE_COSTS["infantry", "rubble"] == module.Share(1, 1, 1)
    assert module.PER_MOVE_COSTS["vehicle", "rubble"] == module.Flat(3)
    assert module.PER_MOVE_COSTS["infantry", "cliff"] == module.StepCost("climb", "height")
    assert module.FEATURES["bog"].costs["infantry"] == 0


def test_can_enter_passes_the_allowance_and_inputs_on(module: ModuleType) -> None:
    assert module.can_enter("infantry", "deep_mud", available=5, allowance=6) is False
    assert module.can_enter("infantry", "bog", available=3, allowance=6) is True
    assert module.can_enter("infantry", "cliff", available=1, height=2) is True
    assert module.can_enter("infantry", "cliff", available=1, height=3) is False


def test_module_names_a_missing_allowance(module: ModuleType) -> None:
    with pytest.raises(module.InvalidArgument) as caught:
        module.move_cost("infantry", "bog")
    assert caught.value.function == "move_cost"
    assert caught.value.argument == "allowance"
    assert "'bog' costs a share of it" in str(caught.value)


def test_module_names_a_missing_step_input(module: ModuleType) -> None:
    with pytest.raises(module.ArgumentError) as caught:
        module.move_cost("infantry", "cliff", allowance=6)
    assert caught.value.argument == "height"


def test_module_refuses_bad_allowances_and_unknown_inputs(module: ModuleType) -> None:
    with pytest.raises(module.ArgumentTypeError) as type_error:
        module.move_cost("infantry", "bog", allowance="6")
    assert type_error.value.argument == "allowance"
    with pytest.raises(module.InvalidArgument):
        module.move_cost("infantry", "bog", allowance=-1)
    with pytest.raises(module.InvalidArgument):
        module.move_cost("infantry", "bog", allowance=math.nan)
    with pytest.raises(module.UnknownName) as unknown:
        module.move_cost("infantry", "cliff", hieght=3)
    assert "did you mean 'height'" in str(unknown.value)
    with pytest.raises(module.ArgumentTypeError):
        module.move_cost("infantry", "cliff", height="3")


def test_a_module_without_costs_paid_once_takes_an_allowance_but_no_inputs() -> None:
    from tests.conftest import load_generated

    hg = load_generated("heavy_gear")
    assert hg.COST_INPUTS == () and dict(hg.PER_MOVE_COSTS) == {}
    assert hg.move_cost("walker", "soft", distance=2, allowance=6) == 6
    with pytest.raises(TypeError, match="height"):
        hg.move_cost("walker", "soft", height=3)
    with pytest.raises(hg.ArgumentTypeError):
        hg.move_cost("walker", "soft", allowance="6")


def test_outcomes_carry_their_labels_in_every_language(module: ModuleType) -> None:
    outcome = module.lock(score=2)
    assert outcome.label == "Passive lock"
    assert outcome.labels == {"en": "Passive lock", "fr": "Verrouillage passif"}
    assert module.lock(score=5).labels["fr"] == "Verrouillage actif"


# ---- diagnostics ----------------------------------------------------------------------------

HEADER = """ruleset demo "Demo"
version 1.0.0
units distance in, cost in
mode walker "Walker"
step climb "Climb" (height in) -> in : free up to 2 in, +1 per 1 in
"""
LINE = HEADER.count("\n") + 2  # the row of the layer below


def found(compiler: Compiler, row: str, more: str = "") -> list[tuple[str, int, int]]:
    text = HEADER + more + 'layer l "L" {\n' + row + "\n}\n"
    compiled = compile_snippet(compiler, text)
    return [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.pos is not None]


def test_an_as_in_a_cost_cell_holds_the_cost_it_stands_for(compiler: Compiler) -> None:
    row = '  a "A" | 2, walker 3\n  b "B" | as a, walker as a\n  c "C" | 1, walker 4'
    compiled = compile_snippet(compiler, HEADER + 'layer l "L" {\n' + row + "\n}\n")
    assert compiled.ok and compiled.ruleset is not None
    cells = {f.id: f.cells["cost"] for f in compiled.ruleset.features}
    assert cells["b"] == ir.Cell(ir.Same("a", ir.Number(2)), {"walker": ir.Same("a", ir.Number(3))})
    assert cells["c"] == ir.Cell(ir.Number(1), {"walker": ir.Number(4)})  # no `as`: as written


def test_a_share_beyond_the_allowance_is_refused(compiler: Compiler) -> None:
    assert found(compiler, '  a "A" | share 3/2') == [("E220", LINE, 11)]
    assert found(compiler, '  a "A" | 1, walker share 1/0') == [("E220", LINE, 21)]


def test_a_step_cost_answering_in_another_unit_is_refused(compiler: Compiler) -> None:
    more = 'step lift "Lift" (height in) -> MP : +1 per 1 in\n'
    assert found(compiler, '  a "A" | step lift', more) == [("E221", LINE + 1, 16)]


def test_a_step_cost_input_named_like_a_move_cost_argument_is_refused(compiler: Compiler) -> None:
    more = 'step lift "Lift" (distance in) -> in : +1 per 1 in\n'
    assert found(compiler, '  a "A" | step lift', more) == [("E222", HEADER.count("\n") + 1, 19)]


def test_a_cost_in_another_unit_than_the_cost_unit_is_refused(compiler: Compiler) -> None:
    assert found(compiler, '  a "A" | flat 2 cm') == [("E223", LINE, 11)]
    assert found(compiler, '  a "A" | share all but 1 cm') == [("E223", LINE, 11)]


def test_two_step_costs_reading_one_input_in_two_units_are_refused(compiler: Compiler) -> None:
    more = 'step drop "Drop" (height cm) -> in : +1 per 1 cm\n'
    row = '  a "A" | step climb\n  b "B" | step drop'
    assert found(compiler, row, more) == [("E224", LINE + 2, 16)]


def test_yaml_costs_are_checked_at_their_place_in_the_yaml(
    compiler: Compiler, tmp_path: Path
) -> None:
    text = (
        "ruleset: demo\nversion: 1.0.0\nunits: {distance: in, cost: in}\n"
        "modes:\n  walker: {label: Walker}\n"
        "layers:\n  l:\n    label: L\n    rows:\n"
        "      a: {label: A, cells: share 3/2}\n"
        "      b: {label: B, cells: 'flat 2 cm'}\n"
        "steps:\n  climb:\n    input: height in\n    result: in\n"
        "    terms: [free up to 2 in, +1 per 1 in above 2 in]\n"
    )
    path = tmp_path / "demo.yaml"
    path.write_text(text, "utf-8")
    compiled = compiler.compile_file(path)
    assert [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.pos] == [
        ("E220", 10, 28),
        ("E223", 11, 29),
    ]


def test_an_unknown_step_in_a_cost_suggests_the_nearest(compiler: Compiler) -> None:
    compiled = compile_snippet(compiler, HEADER + 'layer l "L" {\n  a "A" | step clumb\n}\n')
    [d] = [d for d in compiled.diagnostics if d.is_error]
    assert (d.code, d.pos.line, d.pos.column) == ("E101", LINE, 16) if d.pos else False
    assert "climb" in (d.hint or "")


def test_a_share_in_a_plain_table_is_the_wrong_kind(compiler: Compiler) -> None:
    text = HEADER + 'table t "T" {\n  column c "C"\n  a "A" | share 1/2\n}\n'
    compiled = compile_snippet(compiler, text)
    assert [(d.code, d.pos.line) for d in compiled.diagnostics if d.pos] == [("E201", LINE + 1)]


def test_a_threshold_in_another_unit_than_the_input_is_refused(compiler: Compiler) -> None:
    more = 'step lift "Lift" (height in) -> in : +1 per 1 in above 2 cm\n'
    assert found(compiler, '  a "A" | 1', more) == [("E203", HEADER.count("\n") + 1, 56)]


def test_an_outcome_without_a_label_in_every_language_warns(compiler: Compiler) -> None:
    text = (
        'ruleset demo "Demo" fr "Démo"\nversion 1.0.0\nlanguages en fr\n'
        'decision d "D" fr "D" (x points) {\n  x > 1 -> big "Big"\n'
        '  otherwise -> small "Small" fr "Petit"\n}\n'
    )
    compiled = compile_snippet(compiler, text)
    assert [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.pos] == [
        ("W101", 5, 12)
    ]


def test_the_editor_grammar_knows_the_cost_keywords() -> None:
    from tests.test_editors import scopes_of

    row = scopes_of('  rubble "Rubble" | share all but 1 in, vehicle flat 3 in, walker step climb')
    assert {row[w] for w in ("share", "all", "but", "flat", "step")} == {"keyword.control.terrain"}
    step = scopes_of("step climb (height in) -> in : free up to 2 in, +1 per 1 in above 2 in")
    assert {step[w] for w in ("free", "up", "to", "above")} == {"keyword.control.terrain"}


# ---- round trips, sheets, diff --------------------------------------------------------------


def test_the_cost_forms_survive_fmt_and_convert(compiler: Compiler, tmp_path: Path) -> None:
    text = SOURCE.read_text("utf-8")
    assert format_text(format_text(text)) == format_text(text)
    yml = tmp_path / "once_costs.yaml"
    assert main(["convert", str(SOURCE), "-o", str(yml)]) == 0
    assert "step climb" in yml.read_text("utf-8")
    back = tmp_path / "back" / "once_costs.terrain"
    back.parent.mkdir()
    assert main(["convert", str(yml), "-o", str(back)]) == 0
    ir_yaml = compiler.compile_file(yml).ruleset
    ir_back = compiler.compile_file(back).ruleset
    ir_dsl = compiler.compile_file(SOURCE).ruleset
    assert ir_yaml is not None and ir_back is not None and ir_dsl is not None
    data = to_data(ir_dsl)
    for other in (ir_yaml, ir_back):
        assert {k: v for k, v in to_data(other).items() if k != "digest"} == {
            k: v for k, v in data.items() if k != "digest"
        }


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["2 in once per move", "1/2 of the allowance", "all the allowance but 1 in"]),
        ("fr", ["2 po une fois par mouvement", "1/2 du potentiel de mouvement"]),
        ("ru", ["весь запас хода, кроме 1 дюйм", "бесплатно до 2 дюйм"]),
    ],
)
def test_sheets_say_each_cost_form_in_every_language(
    rs: ir.Ruleset, lang: str, words: list[str]
) -> None:
    sheet = repr(build_sheet(rs, lang)).replace("\\xa0", " ")  # units stay by their numbers
    for word in words:
        assert word in sheet, word


def test_a_changed_flat_cost_is_a_rules_change_and_a_new_kind_is_breaking(
    compiler: Compiler, tmp_path: Path
) -> None:
    text = SOURCE.read_text("utf-8")
    old = compile_snippet(compiler, text, tmp_path, "once_costs.terrain").ruleset
    changed = text.replace("flat 2 in, vehicle", "flat 3 in, vehicle").replace(
        '"Bog" fr "Marais" | share 1/2', '"Bog" fr "Marais" | 2'
    )
    changed = changed.replace("Verrouillage passif", "Verrou passif")
    new = compile_snippet(compiler, changed, tmp_path, "once_costs.terrain").ruleset
    assert old is not None and new is not None
    d = semantic.diff(old, new)
    levels = {c.path: (c.level, c.message) for c in d.changes}
    assert levels["low_wall.infantry"] == ("rules", "Low wall, Infantry: flat 2 in -> flat 3 in")
    assert levels["bog.cost"][0] == "breaking"
    assert levels["bog.cost"][1] == "Bog, every mode: share 1/2 -> 2 in per inch"
    assert any(c.level == "wording" and "Verrou passif" in c.message for c in d.changes)


def test_a_variant_overrides_a_free_threshold_and_a_flat_cost(
    compiler: Compiler, tmp_path: Path
) -> None:
    (tmp_path / "once_costs.terrain").write_text(SOURCE.read_text("utf-8"), "utf-8")
    variant = tmp_path / "house.terrain"
    variant.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends once_costs@^1.0\n'
        "override climb.free.at | 3 in\n"
        "override low_wall.infantry | flat 1 in\n",
        "utf-8",
    )
    compiled = compiler.compile_file(variant)
    assert compiled.ok, [d.message for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    climb = next(s for s in compiled.ruleset.steps if s.id == "climb")
    assert climb.terms[0] == ir.FreeTerm(at=3)
    wall = next(f for f in compiled.ruleset.features if f.id == "low_wall")
    assert wall.costs["infantry"] == ir.Flat(ir.Number(1, "in"))
    base = compiler.compile_file(tmp_path / "once_costs.terrain").ruleset
    assert base is not None
    paths = {c.path: c.level for c in semantic.diff(base, compiled.ruleset).changes}
    assert paths["low_wall.infantry"] == "rules"
    assert any(p.startswith("climb") for p in paths), paths


def test_a_module_with_costs_paid_once_is_ruff_and_mypy_strict_clean(
    rs: ir.Ruleset, tmp_path: Path
) -> None:
    import subprocess

    path = tmp_path / "once_costs.py"
    path.write_text(render(rs), "utf-8")
    for command in (
        ["ruff", "check", "--no-cache", str(path)],
        ["mypy", "--strict", "--cache-dir", str(MYPY_CACHE), str(path)],
    ):
        result = subprocess.run(
            [sys.executable, "-m", *command], capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_a_cost_role_in_a_distance_takes_an_entry_cost_in_it_and_refuses_an_angle(
    compiler: Compiler,
) -> None:
    head = 'ruleset demo "D"\nversion 1.0.0\n'
    ok = compile_snippet(compiler, head + "units distance in, cost in\nstacking sum entry 1 in\n")
    assert ok.ok and ok.ruleset is not None and ok.ruleset.entry_cost == 1
    bad = compile_snippet(compiler, head + "units distance in, cost deg\n")
    assert [(d.code, d.pos.line, d.pos.column) for d in bad.diagnostics if d.pos] == [
        ("E203", 3, 25)
    ]
