"""Issue 39 item 4: the traps that compiled and answered wrong, each now an error or a
warning at its line and column (the rulesets are under tests/data/traps/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler

DATA = Path(__file__).resolve().parent / "data" / "traps"


def found(compiler: Compiler, name: str) -> list[tuple[str, int, int]]:
    """Each diagnostic of tests/data/traps/<name>: its code, line and column."""
    compiled = compiler.compile_file(DATA / name)
    return [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.pos]


def test_roll_cell_keywords_without_precedence_are_e232(compiler: Compiler) -> None:
    """`0, agile +2, flying no` for a unit both agile and flying: no precedence between them,
    so the cell is ambiguous, as a cost cell is (the answer followed declaration order)."""
    assert ("E232", 16, 23) in found(compiler, "roll_cells.terrain")


def test_a_unit_entry_over_a_kind_of_move_entry_in_a_roll_cell_is_w291(
    compiler: Compiler,
) -> None:
    """`no, low 0, bomber +1`: the bomber's own entry wins over `low` (bombers roll at any
    height); the warning stands at the entry that wins."""
    assert ("W291", 16, 59) in found(compiler, "roll_cells.terrain")


def test_an_outcome_effect_named_after_a_roll_is_e355(compiler: Compiler) -> None:
    """`4-6 squall | bog_woods +1` where `bog_woods` is a roll: an outcome feeds the cost, a
    sight rule or a modifier, never a roll, so the effect fed nothing."""
    assert found(compiler, "outcome_roll.terrain") == [("E355", 9, 25)]


def test_check_refuses_an_id_that_is_not_the_file_name_as_build_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`ruleset other_name` in named_apart.terrain: `build` refuses it (E102, outputs and
    `extends` find a ruleset by its file's name), so `check` does too, at the id."""
    assert main(["check", str(DATA / "named_apart.terrain")]) == 1
    assert "named_apart.terrain:2:9: error[E102]" in capsys.readouterr().err


def test_a_decision_input_named_like_a_table_is_labelled_by_itself(compiler: Compiler) -> None:
    """The input `speed` of `sail`, beside a table `speed` "Speed by point of sail (MP)":
    the sheet said "Speed by point of sail (MP) (MP)" and "Speed by point of sail (MP) < 1";
    the input is named by itself."""
    from rulesdsl.printed.sheets import render_sheet

    compiled = compiler.compile_file(DATA / "input_label.terrain")
    assert compiled.ruleset is not None
    sheet = render_sheet(compiled.ruleset, "md").decode("utf-8")
    assert "Inputs: speed (MP)." in sheet
    assert "| speed \\< 1 | Becalmed |" in sheet


def test_an_overridden_decision_row_keeps_the_base_label(
    compiler: Compiler, tmp_path: Path
) -> None:
    """`override lock.nebula_target: distance <= 8 -> nebula_target`, no label restated: the
    module answered label='nebula_target'; the row keeps the base's "Target in the nebula"."""
    from tests.conftest import import_rendered

    compiled = compiler.compile_file(DATA / "row_label_house.terrain")
    assert compiled.ruleset is not None and compiled.ok
    module = import_rendered(compiled.ruleset, tmp_path, "row_label_house")
    assert module.lock(7).label == "Target in the nebula"


def test_at_least_on_outcomes_declared_against_the_rows_is_e326(compiler: Compiler) -> None:
    """Outcomes declared best-first (dead ... unhurt) while the rows give them worst-last:
    `natural 6 at least wounded` counted "stunned" (declared later) as worse than wounded."""
    assert found(compiler, "at_least_order.terrain") == [("E326", 13, 3)]


def test_ignores_others_silencing_rolls_and_sight_it_has_no_value_for_is_w263(
    compiler: Compiler,
) -> None:
    """`dive "Dive" | 0 ignores others` in its own layer: the flak zone's roll and the clouds'
    sight value no longer counted where the plane dived, with no word."""
    assert found(compiler, "ignores_others.terrain") == [("W263", 16, 3)]


def test_a_decision_named_like_a_module_function_is_e103(compiler: Compiler) -> None:
    """`decision line_of_sight` in a ruleset without sight rules stood where other modules
    have the sight function (generic_wargame's did): refused, as other module names are."""
    assert found(compiler, "sight_named_decision.terrain") == [("E103", 6, 10)]


def test_diff_lists_a_changed_kind_or_roll_cell_once_as_a_rules_change(
    compiler: Compiler,
) -> None:
    """`override woods.run | 4` and `override woods.bog | +1`: one cell each, a number for a
    number; `diff` listed each once per unit type (three times) and graded it breaking."""
    from rulesdsl.versions import diff as semantic

    base = compiler.compile_file(DATA / "cell_kinds_base.terrain").ruleset
    house = compiler.compile_file(DATA / "cell_kinds_house.terrain").ruleset
    assert base is not None and house is not None
    found = [(c.level, c.path, c.message) for c in semantic.diff(base, house).changes]
    assert found == [
        ("rules", "run.woods", "Run, woods: 3 -> 4"),
        ("rules", "bog.woods", "Bog, woods: +0 -> +1"),
    ]


def test_e271_blames_the_override_of_the_cell_that_changed_the_answer(
    compiler: Compiler,
) -> None:
    """`override woods | 3` changes the example's move_cost; `override woods.cover | +2`, a
    later line of the same feature, does not: E271 blamed the later one."""
    compiled = compiler.compile_file(DATA / "cell_house.terrain")
    [e271] = [d for d in compiled.diagnostics if d.code == "E271"]
    assert e271.pos is not None and (e271.pos.line, e271.pos.column) == (5, 1)
    assert all(r.pos.line != 6 for r in e271.related if r.pos.file == e271.pos.file)


def test_a_manoeuvre_not_allowed_at_the_speed_costs_what_it_costs(
    compiler: Compiler, tmp_path: Path
) -> None:
    """A backward step at speed 5 (`backward +1 MP at speed 3 or less`) is refused, and was
    costed 1 MP, as a plain forward step; it costs 1 MP + 1 MP, the module and the worked
    examples' reference alike."""
    from rulesdsl.semantics import facing as semantics_facing
    from tests.conftest import import_rendered

    compiled = compiler.compile_file(DATA / "manoeuvre_speed.terrain")
    assert compiled.ruleset is not None and compiled.ok
    module = import_rendered(compiled.ruleset, tmp_path, "manoeuvre_speed")
    board = module.Board({(0, 0): ("open_space",), (1, 0): ("open_space",)}, grid="sector")
    answer = module.route_cost(board, "frigate", [((1, 0), 0), ((0, 0), 0)], allowance=5)
    assert (answer.total, answer.legal, answer.steps[0].move) == (2.0, False, "backward")
    step = semantics_facing.Action("backward", ("open_space",), ())
    reference = semantics_facing.route(compiled.ruleset, "frigate", [step], allowance=5)
    assert (reference.total, reference.legal) == (2.0, False)


def test_a_refused_manoeuvre_is_costed_as_a_step_forward_in_the_first_edition(
    compiler: Compiler, tmp_path: Path
) -> None:
    """The costing above is edition 2026.12's: the same file without its `edition` line keeps
    the first edition's answer (1 MP, a step forward), in the module and the reference."""
    from rulesdsl.semantics import facing as semantics_facing
    from tests.conftest import import_rendered

    text = (DATA / "manoeuvre_speed.terrain").read_text("utf-8").replace("edition 2026.12\n", "")
    path = tmp_path / "manoeuvre_speed.terrain"
    path.write_text(text, "utf-8")
    compiled = compiler.compile_file(path)
    assert compiled.ruleset is not None and compiled.ok and compiled.ruleset.edition == "2026.11"
    module = import_rendered(compiled.ruleset, tmp_path, "manoeuvre_speed_first")
    board = module.Board({(0, 0): ("open_space",), (1, 0): ("open_space",)}, grid="sector")
    answer = module.route_cost(board, "frigate", [((1, 0), 0), ((0, 0), 0)], allowance=5)
    assert (answer.total, answer.legal) == (1.0, False)
    step = semantics_facing.Action("backward", ("open_space",), ())
    reference = semantics_facing.route(compiled.ruleset, "frigate", [step], allowance=5)
    assert (reference.total, reference.legal) == (1.0, False)


def test_exact_speed_or_until_spent_ends_on_the_step_that_uses_up_the_speed(
    compiler: Compiler, tmp_path: Path
) -> None:
    """Speed 2: open space (1 MP), then a nebula (2 MP) with 1 MP left. `exact speed`
    refuses it; `exact speed or until spent` lets the move end there, in route_cost,
    reachable and the reference, and still refuses a step begun with nothing left."""
    from rulesdsl.semantics import facing as semantics_facing
    from tests.conftest import import_rendered

    compiled = compiler.compile_file(DATA / "until_spent.terrain")
    assert compiled.ruleset is not None and compiled.ok
    module = import_rendered(compiled.ruleset, tmp_path, "until_spent")
    row = {(0, 0): ("open_space",), (1, 0): ("open_space",), (2, 0): ("nebula",)}
    board = module.Board({**row, (3, 0): ("open_space",)}, grid="sector")
    route = [((0, 0), 0), ((1, 0), 0), ((2, 0), 0)]
    assert module.route_cost(board, "cruiser", route, allowance=2).legal
    assert not module.route_cost(board, "barge", route, allowance=2).legal
    assert not module.route_cost(board, "cruiser", [*route, ((3, 0), 0)], allowance=2).legal
    assert module.reachable(board, "cruiser", ((0, 0), 0), 2).get(((2, 0), 0)) == 3.0
    assert ((2, 0), 0) not in module.reachable(board, "barge", ((0, 0), 0), 2)
    steps = [semantics_facing.Action("forward", (f,), ()) for f in ("open_space", "nebula")]
    for mode, legal in (("cruiser", True), ("barge", False)):
        answer = semantics_facing.route(compiled.ruleset, mode, steps, allowance=2)
        assert (answer.total, answer.legal) == (3.0, legal)


def test_diff_grades_or_until_spent_taken_away_as_breaking(compiler: Compiler) -> None:
    """Fewer routes legal without `or until spent`: breaking; with it again: rules."""
    import dataclasses

    from rulesdsl.versions import diff as semantic

    new = compiler.compile_file(DATA / "until_spent.terrain").ruleset
    assert new is not None
    old = dataclasses.replace(
        new, facings=tuple(dataclasses.replace(f, until_spent=False) for f in new.facings)
    )
    taken = [(c.level, c.path) for c in semantic.diff(new, old).changes]
    given = [(c.level, c.path) for c in semantic.diff(old, new).changes]
    assert taken == [("breaking", "facing.cruiser.until_spent")]
    assert given == [("rules", "facing.cruiser.until_spent")]
