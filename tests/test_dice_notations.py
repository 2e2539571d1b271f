"""Dice notations beyond NdS+K: d66 (tens and units), 3d6, d10, d100 and d% — parsed, checked
for coverage, answered by the generated module and shown with their chances on the sheet."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import ir, semantics
from rulesdsl.compiler import Compiler
from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.semantics.dice import D66, chance_between
from tests.conftest import compile_snippet, import_rendered

HEADER = 'ruleset rolls "Rolls"\nversion 1.0.0\nunits distance in, cost MP\n'

D66_TABLE = """dice encounter "Encounter" : d66 {
  11-36 quiet "Quiet"
  41-56 patrol "Patrol"
  61-66 ambush "Ambush" | damage d10, loot d%
}
"""


def load(tmp_path: Path, ruleset: ir.Ruleset) -> ModuleType:
    return import_rendered(ruleset, tmp_path, f"notations_{ruleset.id}")


def compiled(compiler: Compiler, body: str) -> ir.Ruleset:
    result = compile_snippet(compiler, HEADER + body)
    assert result.ok, [(d.code, d.message) for d in result.diagnostics]
    assert result.ruleset is not None
    return result.ruleset


def errors(compiler: Compiler, body: str) -> list[tuple[str, int, int]]:
    result = compile_snippet(compiler, HEADER + body)
    return [
        (d.code, d.pos.line, d.pos.column)
        for d in result.diagnostics
        if d.is_error and d.pos is not None
    ]


@pytest.mark.parametrize(
    ("token", "value"),
    [
        ("d66", ir.D66Value(0)),
        ("d66+1", ir.D66Value(1)),
        ("3d6", ir.DiceValue(3, 6)),
        ("d10", ir.DiceValue(1, 10)),
        ("d100", ir.DiceValue(1, 100)),
        ("d%", ir.DiceValue(1, 100)),
        ("1d6+3", ir.DiceValue(1, 6, 3)),
    ],
)
def test_each_notation_reads_as_its_roll(
    compiler: Compiler, token: str, value: ir.DiceRoll
) -> None:
    rs = compiled(compiler, f'dice t "T" : {token} {{\n  10- low "Low"\n  11+ high "High"\n}}\n')
    assert rs.dice_tables[0].dice == value


def test_a_d66_table_needs_no_row_for_17_to_20(compiler: Compiler) -> None:
    """11-36 then 41-56: the totals between are never rolled, so there is no gap."""
    rs = compiled(compiler, D66_TABLE)
    table = rs.dice_tables[0]
    assert semantics.plain_totals(table.dice)[:7] == (11, 12, 13, 14, 15, 16, 21)
    assert errors(compiler, D66_TABLE) == []


def test_a_d66_table_with_a_real_gap_is_e301(compiler: Compiler) -> None:
    gappy = D66_TABLE.replace("41-56 patrol", "42-56 patrol")
    assert errors(compiler, gappy) == [("E301", 4, 6)]
    result = compile_snippet(compiler, HEADER + gappy)
    assert "total 41 of d66 is in no row" in result.diagnostics[0].message


def test_a_d100_table_must_cover_1_to_100(compiler: Compiler) -> None:
    body = 'dice t "T" : d% {\n  1-50 low "Low"\n  52-100 high "High"\n}\n'
    assert [c for c, _, _ in errors(compiler, body)] == ["E301"]


def test_the_module_rolls_d66_and_d100_tables(compiler: Compiler, tmp_path: Path) -> None:
    rs = compiled(compiler, D66_TABLE)
    module = load(tmp_path, rs)
    assert str(module.DICE_TABLES["encounter"].dice) == "d66"
    assert module.roll("encounter", 36).id == "quiet"
    assert module.roll("encounter", 41).id == "patrol"
    ambush = module.roll("encounter", 66)
    assert ambush.id == "ambush" and str(ambush.effects["loot"]) == "1d100"
    assert str(ambush.effects["damage"]) == "1d10"
    # each d66 result is 1 in 36: quiet covers the 18 results 11-36
    assert module.DICE_TABLES["encounter"].rows[0].chance == Fraction(18, 36)


def test_the_sheet_shows_d66_and_its_chances(compiler: Compiler) -> None:
    rs = compiled(compiler, D66_TABLE)
    sheet = build_sheet(rs, "en")
    [block] = [b for s in sheet.sections for b in s.blocks if b.id == "encounter"]
    assert "(d66)" in block.title
    assert block.table is not None
    chances = [row[-1].text for row in block.table.rows]
    assert chances == ["18/36 · 50.0%", "12/36 · 33.3%", "6/36 · 16.7%"]  # English: no space


def test_d66_chances_are_exact() -> None:
    assert chance_between(D66(), 11, 16) == Fraction(6, 36)
    assert chance_between(D66(), 17, 20) == 0
    assert D66(2).minimum == 13 and D66(2).maximum == 68


def test_3d6_reaches_3_to_18_with_the_bell_curve(compiler: Compiler, tmp_path: Path) -> None:
    rs = compiled(compiler, 'dice t "T" : 3d6 {\n  3-10 low "Low"\n  11-18 high "High"\n}\n')
    module = load(tmp_path, rs)
    assert module.DICE_TABLES["t"].rows[0].chance == Fraction(1, 2)
