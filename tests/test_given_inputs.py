"""Given inputs are never dropped (issue 25, item 8): a value the caller gives for a factor
written `given` counts whether or not the factor is also named among the items, in the
generated module and in the reference semantics alike."""

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
