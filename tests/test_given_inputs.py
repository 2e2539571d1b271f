"""Given inputs are never dropped (issue 25, item 8): a value the caller gives for a factor
written `given` counts whether or not the factor is also named among the items, and a modifier
value that is a step (`step gravity_to_hit`) takes its input by name, which counts when its
feature is named and is an error that says so when it is not, in the generated module and in
the reference semantics alike."""

from __future__ import annotations

from types import ModuleType

import pytest

from rulesdsl import semantics
from rulesdsl.compiler import Compiler
from tests.conftest import ROOT, import_rendered


@pytest.fixture(scope="module")
def heavy_gear(compiler: Compiler, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    compiled = compiler.compile_file(ROOT / "rulesets" / "heavy_gear.terrain")
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    return import_rendered(compiled.ruleset, tmp_path_factory.mktemp("hg"), "hg_given")


def test_a_given_perk_counts_without_its_factor_being_named(heavy_gear: ModuleType) -> None:
    # combat speed -1, the perk +2: the perk counts although "perk_or_flaw" is not an item
    assert heavy_gear.modifier("concealment", "combat_speed", perk_or_flaw=2) == 1
    assert heavy_gear.modifier("concealment", perk_or_flaw=-1) == -1


def test_a_given_perk_named_too_counts_once(heavy_gear: ModuleType) -> None:
    assert heavy_gear.modifier("concealment", "perk_or_flaw", "combat_speed", perk_or_flaw=2) == 1


def test_a_named_given_factor_without_its_value_is_still_an_error(heavy_gear: ModuleType) -> None:
    with pytest.raises(heavy_gear.InvalidArgument, match="perk_or_flaw"):
        heavy_gear.modifier("concealment", "perk_or_flaw", "combat_speed")


def test_the_reference_counts_a_given_value_too(compiler: Compiler) -> None:
    compiled = compiler.compile_file(ROOT / "rulesets" / "heavy_gear.terrain")
    assert compiled.ruleset is not None
    rs = compiled.ruleset
    assert semantics.modifier(rs, "concealment", ["combat_speed"], given={"perk_or_flaw": 2}) == 1
    assert semantics.modifier(rs, "concealment", [], given={"perk_or_flaw": -1}) == -1


def test_module_and_reference_agree_on_given_values_in_every_call(
    heavy_gear: ModuleType, compiler: Compiler
) -> None:
    compiled = compiler.compile_file(ROOT / "rulesets" / "heavy_gear.terrain")
    assert compiled.ruleset is not None
    for items in ((), ("combat_speed",), ("perk_or_flaw",), ("stationary", "perk_or_flaw")):
        for n in (-2, 0, 3):
            module = heavy_gear.modifier("concealment", *items, perk_or_flaw=n)
            reference = semantics.modifier(
                compiled.ruleset, "concealment", items, given={"perk_or_flaw": n}
            )
            assert module == reference, (items, n)


GRAVITY = """ruleset bt_gravity "Gravity to-hit" ru "Гравитация"
version 1.0.0
extends battletech_tacops@^2.0
override high_gravity.to_hit | step gravity_to_hit, energy 0, physical 0
override low_gravity.to_hit | step gravity_to_hit, energy 0, physical 0
"""


@pytest.fixture(scope="module")
def battletech(compiler: Compiler, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """BattleTech with the gravity rows' to-hit cells made the gravity step, as a house rule."""
    from tests.conftest import compile_snippet

    compiled = compile_snippet(compiler, GRAVITY, name="bt_gravity.terrain")
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    return import_rendered(compiled.ruleset, tmp_path_factory.mktemp("bt"), "bt_given")


def test_high_gravity_to_hit_is_the_gravity_step_for_the_deviation_given(
    battletech: ModuleType,
) -> None:
    # 0.6 g from 1 g: +1 per full 0.2 g, for ballistic and missile attacks only
    assert battletech.modifier("to_hit", "high_gravity", weapon="ballistic", deviation=0.6) == 3
    assert battletech.modifier("to_hit", "low_gravity", weapon="missile", deviation=0.45) == 2
    assert battletech.modifier("to_hit", "high_gravity", weapon="energy", deviation=0.6) == 0
    woods = battletech.modifier(
        "to_hit", "light_woods", "high_gravity", weapon="ballistic", deviation=0.6
    )
    assert woods == 4


def test_a_step_value_without_its_input_is_an_error_naming_it(battletech: ModuleType) -> None:
    with pytest.raises(battletech.InvalidArgument, match="'deviation' must be given"):
        battletech.modifier("to_hit", "high_gravity", weapon="ballistic")


def test_a_step_input_given_without_a_feature_that_reads_it_is_an_error(
    battletech: ModuleType,
) -> None:
    with pytest.raises(battletech.InvalidArgument, match="'high_gravity', 'low_gravity'"):
        battletech.modifier("to_hit", "light_woods", weapon="ballistic", deviation=0.6)


def test_modifiers_holds_the_step_record(battletech: ModuleType) -> None:
    cell = battletech.MODIFIERS["to_hit"]["high_gravity"]
    assert cell[""] == battletech.StepCost("gravity_to_hit", "deviation")
    assert cell["energy"] == 0


def test_the_reference_answers_the_step_value_too(compiler: Compiler) -> None:
    from tests.conftest import compile_snippet

    rs = compile_snippet(compiler, GRAVITY, name="bt_gravity.terrain").ruleset
    assert rs is not None
    ask = semantics.modifier
    assert ask(rs, "to_hit", ["high_gravity"], "ballistic", {"deviation": 0.6}) == 3
    with pytest.raises(semantics.MissingArgument):
        ask(rs, "to_hit", ["high_gravity"], "ballistic", {})


STEP_HEADER = """ruleset demo "Demo"
version 1.0.0
units distance in, cost MP, modifier points
context weapon "Weapon" {
  gun "Gun"
}
"""


def test_a_step_input_named_like_the_modifiers_context_is_e264(compiler: Compiler) -> None:
    from tests.conftest import compile_snippet

    text = (
        STEP_HEADER
        + 'step g "G" (weapon in) -> points : +1 per 1 in\n'
        + 'modifier to_hit "To hit" by weapon {\n  heavy "Heavy" | step g\n}\n'
    )
    found = [
        (d.code, d.pos.line, d.pos.column)
        for d in compile_snippet(compiler, text).diagnostics
        if d.is_error and d.pos is not None
    ]
    assert found == [("E264", 8, 10)]


def test_a_step_in_a_when_line_is_refused(compiler: Compiler) -> None:
    from tests.conftest import compile_snippet

    text = (
        STEP_HEADER
        + 'step g "G" (depth in) -> points : +1 per 1 in\n'
        + 'modifier to_hit "To hit" {\n  a "A" | 1\n  b "B" | 1\n  when a, b | step g\n}\n'
    )
    compiled = compile_snippet(compiler, text)
    assert not compiled.ok


STEPPED = """ruleset demo "Demo"
version 1.0.0
languages en fr ru de
units distance in, cost MP, modifier points
step g "Gravity" fr "Gravité" ru "Гравитация" de "Schwerkraft" (deviation g) -> points : \
  +1 per full 0.2 g
modifier to_hit "To hit" {
  heavy "Heavy" | step g
  perk "Perk" | given
}
"""


@pytest.mark.parametrize(
    ("lang", "step", "given"),
    [
        ("en", "per step: Gravity", "n, per model"),
        ("fr", "selon le barème\u202f: Gravité", "n, selon la figurine"),
        ("ru", "по шкале: Гравитация", "n, у каждой модели своё"),  # noqa: RUF001
        ("de", "je Schritt: Schwerkraft", "n, je Modell"),
    ],
)
def test_the_sheet_prints_a_step_value_and_a_given_value_in_every_language(
    compiler: Compiler, lang: str, step: str, given: str
) -> None:
    from rulesdsl.printed.sheet_model import build_sheet
    from rulesdsl.printed.sheets import render_markdown
    from tests.conftest import compile_snippet

    compiled = compile_snippet(compiler, STEPPED)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    md = render_markdown(build_sheet(compiled.ruleset, lang))
    assert f"| Heavy | {step} |" in md and f"| Perk | {given} |" in md, md


def test_diff_grades_a_value_made_a_step_or_given_as_breaking(compiler: Compiler) -> None:
    """A call that gave no input now raises: the change breaks the callers."""
    from rulesdsl.versions.diff import diff
    from tests.conftest import compile_snippet

    plain = STEPPED.replace("| step g", "| +1").replace("| given", "| 0")
    old = compile_snippet(compiler, plain).ruleset
    new = compile_snippet(compiler, STEPPED).ruleset
    assert old is not None and new is not None
    changes = [(c.level, c.path, c.new) for c in diff(old, new).changes]
    assert changes == [("breaking", "heavy", "step g"), ("breaking", "perk", "given")]


def test_step_and_given_values_survive_dsl_to_yaml_to_dsl(
    compiler: Compiler, tmp_path: pytest.TempPathFactory
) -> None:
    import dataclasses
    from pathlib import Path

    from rulesdsl.frontends.dsl import Parser
    from rulesdsl.interchange.convert import to_terrain, to_yaml
    from tests.conftest import compile_snippet

    folder = Path(str(tmp_path))
    source, _ = Parser().parse(STEPPED, "demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "cells: step g" in yaml_text and "cells: given" in yaml_text
    (folder / "demo.yaml").write_text(yaml_text, "utf-8")
    (folder / "back.terrain").write_text(to_terrain(yaml_text), "utf-8")
    rulesets = [Compiler().compile_file(folder / n).ruleset for n in ("demo.yaml", "back.terrain")]
    rulesets.append(compile_snippet(compiler, STEPPED).ruleset)
    plain = [dataclasses.replace(r, digest="") for r in rulesets if r is not None]
    assert len(plain) == 3 and plain[0] == plain[1] == plain[2]
