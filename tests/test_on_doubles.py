"""`modifier NAME ... shift left 1 on doubles`: the clause, not the modifier's name, says that
the dice as rolled apply a column shift when they show doubles. Before it, a results table's
modifier applied on doubles because it was *named* `doubles`: a name with a meaning of its
own, which a house rule renaming it would have lost without a word. Now any name may carry
the clause (one per table, E342); a shift named `doubles` without it warns (W342), since the
dice no longer apply it by its name. The clause goes through YAML both ways, `diff`, the
sheets in every language and the module's `RESULTS_TABLES[...].on_doubles`."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.printed.sheets import render_sheet
from rulesdsl.versions import diff as semantic
from tests.conftest import compile_snippet, import_rendered
from tests.test_dice_issue25 import HEADER, found
from tests.test_rolled_dice import CRT as ROLLED_CRT

CRT = ROLLED_CRT.replace('modifier doubles "Doubles" shift left 1 on doubles', "modifier MODIFIER")
"""tests/test_rolled_dice.py's combat results table, its modifier left to each test."""


def crt(modifier: str) -> str:
    return CRT.replace("MODIFIER", modifier)


PAIR = crt('pair "A pair" shift left 1 on doubles')
"""A shift on doubles under a name that is not `doubles`."""


def _module(compiler: Compiler, tmp_path: Path, body: str, name: str) -> ModuleType:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ruleset is not None, compiled.diagnostics
    return import_rendered(compiled.ruleset, tmp_path, name)


def test_the_dice_apply_the_shift_that_is_on_doubles_whatever_its_name(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = _module(compiler, tmp_path, PAIR, "on_doubles_pair")
    table = m.RESULTS_TABLES["crt"]
    assert table.on_doubles == "pair" and table.shifts == {"pair": -1}
    # 3 + 3 = 6 at 2:1 is "dr"; doubles move one column left, to 1:1: "ae"
    assert m.roll("crt", 6, column="odds_2_1", dice=(3, 3)).id == "ae"
    assert m.roll("crt", 6, column="odds_2_1", dice=(2, 4)).id == "dr"


def test_a_shift_not_on_doubles_is_not_applied_by_the_dice(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = _module(compiler, tmp_path, crt('careful "Careful" shift left 1'), "on_doubles_none")
    table = m.RESULTS_TABLES["crt"]
    assert table.on_doubles is None and table.shifts == {"careful": -1}
    assert m.roll("crt", 6, column="odds_2_1", dice=(3, 3)).id == "dr"
    # the caller may still say it: shift=
    assert m.roll("crt", 6, column="odds_2_1", shift=-1).id == "ae"


def test_a_shift_named_doubles_without_the_clause_warns_and_is_not_applied(
    compiler: Compiler, tmp_path: Path
) -> None:
    body = crt('doubles "Doubles" shift left 1')
    assert found(compiler, body) == [("W342", 2, 12)]
    compiled = compile_snippet(compiler, HEADER + body)
    warning = compiled.diagnostics[0]
    assert warning.message == (
        "a column shift named 'doubles' is not applied by the dice without `on doubles`"
    )
    assert "shift left <N> on doubles" in (warning.hint or "")
    m = _module(compiler, tmp_path, body, "on_doubles_named")
    assert m.roll("crt", 6, column="odds_2_1", dice=(3, 3)).id == "dr"


def test_two_shifts_on_doubles_in_one_table_are_an_error(compiler: Compiler) -> None:
    body = CRT.replace(
        "  modifier MODIFIER\n",
        '  modifier pair "A pair" shift left 1 on doubles\n'
        '  modifier twins "Twins" shift right 1 on doubles\n',
    )
    assert found(compiler, body) == [("E342", 3, 40)]  # at the second `on doubles`
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.diagnostics[0].message == "'crt' already applies 'pair' on doubles"


def test_on_doubles_goes_through_yaml_both_ways(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + PAIR, "demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "shift: left 1" in yaml_text and "on_doubles: true" in yaml_text
    yaml_path = tmp_path / "demo.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    terrain = to_terrain(yaml_text)
    assert 'modifier pair "A pair" shift left 1 on doubles' in terrain
    back = tmp_path / "back.terrain"
    back.write_text(terrain, "utf-8")
    for path in (yaml_path, back):
        compiled = Compiler().compile_file(path)
        assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
        assert compiled.ruleset.results_tables[0].modifiers[0].on_doubles, path.name
    # `on_doubles: false`, or no key, is a shift the dice do not apply
    off = tmp_path / "off.yaml"
    off.write_text(yaml_text.replace("on_doubles: true", "on_doubles: false"), "utf-8")
    compiled = Compiler().compile_file(off)
    assert compiled.ruleset is not None
    assert not compiled.ruleset.results_tables[0].modifiers[0].on_doubles
    assert " on doubles" not in to_terrain(off.read_text("utf-8"))


def test_on_doubles_with_an_amount_is_refused_by_the_yaml_schema(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + PAIR, "demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source).replace("shift: left 1", "amount: -1")
    path = tmp_path / "amount.yaml"
    path.write_text(yaml_text, "utf-8")
    compiled = Compiler().compile_file(path)
    assert not compiled.ok
    assert [d.code for d in compiled.diagnostics if d.is_error] == ["E120"]


def test_diff_grades_a_shift_no_longer_on_doubles_as_a_rules_change(compiler: Compiler) -> None:
    old = compile_snippet(compiler, HEADER + PAIR).ruleset
    assert old is not None
    table = old.results_tables[0]
    off = dataclasses.replace(table.modifiers[0], on_doubles=False)
    new = dataclasses.replace(old, results_tables=(dataclasses.replace(table, modifiers=(off,)),))
    assert [(c.level, c.action, c.path, c.message) for c in semantic.diff(old, new).changes] == [
        (
            "rules",
            "changed",
            "crt.pair.on_doubles",
            "Combat results, A pair: on doubles -> not on doubles",
        )
    ]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "shift left 1 on doubles"),
        ("fr", "décalage à gauche de 1 sur un double"),
        ("ru", "сдвиг влево на 1 при дубле"),
        ("de", "Verschiebung nach links um 1 bei einem Pasch"),
    ],
)
def test_the_sheet_says_the_shift_is_on_doubles(compiler: Compiler, lang: str, words: str) -> None:
    compiled = compile_snippet(compiler, HEADER + PAIR)
    assert compiled.ruleset is not None
    sheet = render_sheet(compiled.ruleset, "md", lang).decode("utf-8")
    assert words in sheet.replace("\u00a0", " ").replace("\u202f", " ")
    plain = compile_snippet(compiler, HEADER + crt('careful "Careful" shift left 1')).ruleset
    assert plain is not None
    assert words not in render_sheet(plain, "md", lang).decode("utf-8").replace("\u00a0", " ")


def test_a_variant_cannot_turn_a_shift_round_with_a_negative_count(tmp_path: Path) -> None:
    # `override crt.pair | -2` on `shift left 1` used to give a shift of +2: two columns right
    (tmp_path / "demo.terrain").write_text(HEADER + PAIR, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nextends demo @ ^1.0.0\nversion 1.0.0\noverride crt.pair | -2\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    errors = [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.pos]
    assert errors == [("E343", 4, 21)]
    assert compiled.diagnostics[0].message == "a column shift counts columns: -2 is not a count"
    house.write_text(house.read_text("utf-8").replace("| -2\n", "| 2\n"), "utf-8")
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, compiled.diagnostics
    (pair,) = compiled.ruleset.results_tables[0].modifiers
    assert (pair.shift, pair.on_doubles) == (-2, True)  # left 2, still on doubles
