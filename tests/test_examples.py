"""Worked examples (issue 27): `example` statements checked at every build, inherited and
restated by house rules, listed by the diff, exported as test vectors that the generated
module passes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesdsl import ir
from rulesdsl.codegen.plan import examples as plan_examples
from rulesdsl.codegen.python import examples as python_examples
from rulesdsl.codegen.targets import render_python
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.versions.diff import diff
from tests.conftest import RULESETS, replay

BUNDLED = sorted(p.stem for p in RULESETS.glob("*.terrain"))
SEEDS = ("heavy_gear", "battletech_tacops", "d20_movement", "generic_wargame")


def _compile(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, str, int, str]]:
    for name, text in files.items():
        (tmp_path / name).write_text(text, "utf-8")
    compiled = Compiler().compile_file(tmp_path / list(files)[-1])
    return [
        (d.code, d.message, d.pos.line if d.pos else 0, d.hint or "") for d in compiled.diagnostics
    ]


BASE = """\
ruleset x "X"
version 1.0.0
units distance in, cost MP
mode walker "Walker"
layer terrain "Terrain" {
  soft "Soft" | 2, walker 3
}
example soft_walk "Walking on soft ground" {
  move_cost(walker, soft) = 3 MP
  move_cost(walker, soft, distance=2 in) = 6 MP
}
"""


def test_every_bundled_ruleset_checks_clean_with_its_examples(compiler: Compiler) -> None:
    for name in BUNDLED:
        compiled = compiler.compile_file(RULESETS / f"{name}.terrain")
        assert [d for d in compiled.diagnostics if d.severity == "error"] == [], name


@pytest.mark.parametrize("name", SEEDS)
def test_each_seed_ruleset_carries_at_least_10_worked_examples(
    compiler: Compiler, name: str
) -> None:
    rs = compiler.compile_file(RULESETS / f"{name}.terrain").ruleset
    assert rs is not None
    assert len(rs.examples) >= 10
    for example in rs.examples:  # titled in every language the ruleset declares
        assert set(example.info.labels) == set(rs.languages), example.id


def test_a_changed_cell_of_a_bundled_ruleset_fails_the_example_that_uses_it(
    tmp_path: Path,
) -> None:
    source = (RULESETS / "heavy_gear.terrain").read_text("utf-8")
    changed = source.replace("| 2, walker 3\n", "| 2, walker 4\n", 1)
    assert changed != source
    found = _compile(tmp_path, {"heavy_gear.terrain": changed})
    line = changed.splitlines().index("  move_cost(walker, soft) = 3 MP") + 1
    assert found == [
        (
            "E270",
            "example 'walker_on_soft_ground': move_cost(walker, soft) is 4 MP, not 3 MP as stated",
            line,
            "the cells that give 4 MP: soft.walker: 4 MP",
        )
    ]


def test_a_question_the_module_cannot_answer_is_e272(tmp_path: Path) -> None:
    text = BASE.replace("move_cost(walker, soft) = 3 MP", "move_cost(walker, sofft) = 3 MP")
    [(code, message, line, _)] = _compile(tmp_path, {"x.terrain": text})
    assert (code, line) == ("E272", 9)
    assert "'sofft' is not a feature (did you mean 'soft'?)" in message


def test_an_answer_in_the_wrong_unit_is_e273(tmp_path: Path) -> None:
    text = BASE.replace("= 3 MP", "= 3 in")
    [(code, message, _, _)] = _compile(tmp_path, {"x.terrain": text})
    assert code == "E273"
    assert "the answer is in MP, not in" in message


def test_an_example_declared_twice_is_e275(tmp_path: Path) -> None:
    text = BASE + 'example soft_walk "Again" {\n  move_cost(walker, soft) = 3 MP\n}\n'
    assert [c for c, *_ in _compile(tmp_path, {"x.terrain": text})] == ["E275"]


HOUSE = """\
ruleset xh "X house"
version 1.0.0
extends x@^1.0
override soft.walker | 2
"""


def test_a_house_rule_that_changes_an_inherited_answer_must_restate_it(
    tmp_path: Path,
) -> None:
    found = _compile(tmp_path, {"x.terrain": BASE, "xh.terrain": HOUSE})
    # at the override that changed the cell the answers come from, not the base's line
    assert [(c, line) for c, _, line, _ in found] == [("E271", 4), ("E271", 4)]
    assert "move_cost(walker, soft) is now 2 MP, not 3 MP as x states" in found[0][1]
    assert "`override example soft_walk.1 | 2 MP`" in found[0][3]


def test_restating_or_removing_the_changed_examples_compiles(tmp_path: Path) -> None:
    restated = HOUSE + (
        "override example soft_walk.1 | 2 MP\noverride example soft_walk.2 | 4 MP\n"
    )
    assert _compile(tmp_path, {"x.terrain": BASE, "xh.terrain": restated}) == []
    removed = HOUSE + "remove example soft_walk\n"
    assert _compile(tmp_path, {"x.terrain": BASE, "xh.terrain": removed}) == []


def test_restating_an_unknown_example_is_e508(tmp_path: Path) -> None:
    text = HOUSE + "override example soft_wlk.1 | 2 MP\n"
    found = _compile(tmp_path, {"x.terrain": BASE, "xh.terrain": text})
    assert ("E508", "the base has no example 'soft_wlk'", 5, "did you mean 'soft_walk'?") in found


def test_restating_an_example_of_several_questions_needs_its_number_e509(
    tmp_path: Path,
) -> None:
    text = HOUSE + "override example soft_walk | 2 MP\n"
    found = _compile(tmp_path, {"x.terrain": BASE, "xh.terrain": text})
    assert "E509" in [c for c, *_ in found]


def test_the_diff_of_heavy_gear_and_its_house_rule_lists_the_changed_examples(
    compiler: Compiler,
) -> None:
    old = compiler.compile_file(RULESETS / "heavy_gear.terrain").ruleset
    new = compiler.compile_file(RULESETS / "heavy_gear_house.terrain").ruleset
    assert old is not None and new is not None
    changed = [c for c in diff(old, new).changes if c.path.startswith("example.")]
    assert [(c.level, c.path, c.old, c.new) for c in changed] == [
        ("rules", "example.walker_on_soft_ground", "3 MP", "2 MP"),
        ("rules", "example.hover_on_rapid_water", "2 MP", "3 MP"),
    ]
    logged = [
        (change.was, change.now)
        for change in new.changes
        if isinstance(change.path, ir.ExamplePath)  # the changelog names them too
    ]
    assert logged == [
        (ir.Cell(ir.Number(3, "MP")), ir.Cell(ir.Number(2, "MP"))),
        (ir.Cell(ir.Number(2, "MP")), ir.Cell(ir.Number(3, "MP"))),
    ]


def test_every_bundled_rulesets_vectors_pass_against_its_generated_module(
    compiler: Compiler, tmp_path: Path
) -> None:
    """The build's outputs for every bundled ruleset, replayed by their own pytest files."""
    count = 0
    for name in BUNDLED:
        rs = compiler.compile_file(RULESETS / f"{name}.terrain").ruleset
        assert rs is not None and rs.examples, name
        (tmp_path / f"{name}.py").write_text(render_python(rs), "utf-8")
        vectors = plan_examples.build(rs)
        (tmp_path / f"{name}.examples.json").write_text(python_examples.vectors_json(vectors))
        (tmp_path / f"test_{name}_examples.py").write_text(python_examples.render_test(vectors))
        count += len(vectors.vectors)
    done = replay(tmp_path)
    assert done.returncode == 0, done.stdout[-3000:]
    assert f"{count} passed" in done.stdout


def test_check_lists_the_examples_it_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(RULESETS / "heavy_gear_house.terrain")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert "heavy_gear_house: 15 worked examples checked, 34 answers as stated" in err
    assert "  ok walker_on_soft_ground: A walker crosses soft ground" in err  # restated
    assert "  ok climbing (from heavy_gear): Climbing a rise" in err  # inherited
    assert err[-1] == "1 ruleset checked: no errors"


def test_export_examples_writes_json_test_vectors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(RULESETS / "battletech_tacops.terrain"), "--examples"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ruleset"] == "battletech_tacops"
    first = data["vectors"][0]
    assert {k: first[k] for k in ("question", "args", "kwargs", "expected", "unit")} == {
        "question": "move_cost",
        "args": ["mech", "light_woods", "deep_snow", "mud"],
        "kwargs": {},
        "expected": [{"number": 4}],
        "unit": "MP",
    }
