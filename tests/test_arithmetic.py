"""Arithmetic in decisions (issue 25, item 4): inputs combined with `+ - * /`, `abs`, `min`,
`max`, `half`, a stated rounding (`rounded up|down`), units checked; the generated module and
the reference semantics answer alike, sheets print it in words in every language, `rulesdsl
diff` grades it, a house rule overrides such a row, and the YAML front end reads it."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from rulesdsl import ir, semantics, spelling
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.ir import schema, serial
from rulesdsl.printed.sheets import render_sheet
from rulesdsl.versions import diff as semantic
from tests.conftest import compile_snippet, import_rendered

HEADER = """ruleset demo "Demo"
version 1.0.0
languages en fr ru de
units distance hex, cost MP
mode walker "Walker"
"""
HEADER_LINES = HEADER.count("\n")

MANOEUVRE = """decision manoeuvre "Manoeuvre" (new_speed MP, speed MP, thrust MP) {
  abs(new_speed - speed) > thrust -> too_hard "Too hard"
  otherwise                       -> done "Done"
}
decision sensors "Sensors" (sensor_range hex, distance hex) {
  distance <= sensor_range / 2 rounded down - 2 -> locked "Locked"
  distance <= half(sensor_range) rounded up     -> detected "Detected"
  distance <= max(sensor_range, 6 hex)          -> faint "Faint"
  otherwise                                     -> nothing "Nothing"
}
decision cover "Cover" (cover_size in, size in) {
  cover_size > size / 2 -> partial "Partial"
  cover_size > size * 2 -> full "Full"
  otherwise             -> none_ "None"
}
"""


def compiled_ok(compiler: Compiler, text: str) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + text)
    assert [d.message for d in compiled.diagnostics if d.is_error] == []
    assert compiled.ruleset is not None
    return compiled.ruleset


def errors(compiler: Compiler, text: str) -> list[tuple[str, int, int, str]]:
    compiled = compile_snippet(compiler, HEADER + text)
    return [
        (d.code, d.pos.line - HEADER_LINES, d.pos.column, d.message)
        for d in compiled.diagnostics
        if d.is_error and d.pos is not None
    ]


def decision(rs: ir.Ruleset, name: str) -> ir.Decision:
    return next(d for d in rs.decisions if d.id == name)


# ---- meaning: the module and the reference semantics -----------------------------------------


def test_a_change_of_speed_beyond_thrust_is_too_hard(compiler: Compiler, tmp_path: Path) -> None:
    rs = compiled_ok(compiler, MANOEUVRE)
    module = import_rendered(rs, tmp_path, "arith_speed")
    assert module.manoeuvre(new_speed=7, speed=4, thrust=2).id == "too_hard"
    assert module.manoeuvre(new_speed=2, speed=4, thrust=2).id == "done"
    assert module.manoeuvre(new_speed=1, speed=4, thrust=2).id == "too_hard"


def test_half_the_sensor_range_rounded_down_minus_two(compiler: Compiler, tmp_path: Path) -> None:
    rs = compiled_ok(compiler, MANOEUVRE)
    module = import_rendered(rs, tmp_path, "arith_sensors")
    # 9 / 2 = 4.5, rounded down 4, minus 2: 2; half of 9 rounded up: 5
    assert module.sensors(sensor_range=9, distance=2).id == "locked"
    assert module.sensors(sensor_range=9, distance=3).id == "detected"
    assert module.sensors(sensor_range=9, distance=5).id == "detected"
    assert module.sensors(sensor_range=9, distance=6).id == "faint"
    assert module.sensors(sensor_range=3, distance=6).id == "faint"  # max(3, 6 hex)
    assert module.sensors(sensor_range=9, distance=10).id == "nothing"


def test_the_module_and_the_reference_semantics_agree_on_every_input(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = compiled_ok(compiler, MANOEUVRE)
    module = import_rendered(rs, tmp_path, "arith_agree")
    values = [0, 0.5, 1, 2, 3, 4.5, 5, 7, 9, 12]
    for d in rs.decisions:
        names = [p.name for p in d.params]
        for combo in itertools.product(values, repeat=len(names)):
            inputs = dict(zip(names, combo, strict=True))
            answer = getattr(module, d.id)(**inputs).id
            assert answer == semantics.decide(d, inputs), (d.id, inputs)


def test_an_input_scaled_by_a_number_keeps_its_old_form(compiler: Compiler) -> None:
    """`size / 2` and `size * 2` are still an input scaled (the IR, the digest and the
    generated code of every bundled ruleset stay as they were)."""
    rs = compiled_ok(compiler, MANOEUVRE)
    [half, double] = [row.conditions[0] for row in decision(rs, "cover").rows[:2]]
    assert isinstance(half, ir.Comparison) and isinstance(double, ir.Comparison)
    assert half.right == ir.InputOperand("size", "/", 2)
    assert double.right == ir.InputOperand("size", "*", 2)


def test_rounding_binds_to_the_product_before_it(compiler: Compiler) -> None:
    rs = compiled_ok(compiler, MANOEUVRE)
    [locked, detected, faint, _] = [spelling.decision_row(r) for r in decision(rs, "sensors").rows]
    assert locked == "distance <= sensor_range / 2 rounded down - 2 -> locked"
    assert detected == "distance <= half(sensor_range) rounded up -> detected"
    assert faint == "distance <= max(sensor_range, 6 hex) -> faint"


def test_precedence_and_parentheses_are_kept(compiler: Compiler, tmp_path: Path) -> None:
    rs = compiled_ok(
        compiler,
        """decision d "D" (a MP, b MP, c MP) {
  a - (b - c) > 2 * (a + b) -> one "One"
  a - b - c > 1             -> two "Two"
  otherwise                 -> three "Three"
}
""",
    )
    assert [spelling.decision_row(r) for r in decision(rs, "d").rows][:2] == [
        "a - (b - c) > 2 * (a + b) -> one",
        "a - b - c > 1 -> two",
    ]
    module = import_rendered(rs, tmp_path, "arith_precedence")
    assert module.d(a=9, b=1, c=0).id == "two"  # 9 - (1 - 0) = 8 > 2 * 10? no; 8 > 1
    assert module.d(a=1, b=1, c=0).id == "three"  # 0 > 4? no; 0 > 1? no
    assert module.d(a=0, b=0, c=5).id == "one"  # 0 - (0 - 5) = 5 > 0


# ---- misuse: code, line and column ---------------------------------------------------------


def test_adding_hex_to_mp_is_E225(compiler: Compiler) -> None:
    text = """decision d "D" (reach hex, move MP) {
  reach + move > 3 -> far "Far"
  otherwise        -> near "Near"
}
"""
    assert errors(compiler, text) == [("E225", 2, 3, "cannot add 'MP' to 'hex'")]


def test_comparing_a_computed_side_in_another_unit_is_E225(compiler: Compiler) -> None:
    text = """decision d "D" (reach hex, move MP) {
  reach - 2 > move -> far "Far"
  otherwise        -> near "Near"
}
"""
    assert errors(compiler, text) == [("E225", 2, 3, "'hex' is compared (>) with 'MP'")]


def test_a_product_of_two_units_is_E225(compiler: Compiler) -> None:
    text = """decision d "D" (reach hex, move MP) {
  reach * move > 3 -> far "Far"
  otherwise        -> near "Near"
}
"""
    assert errors(compiler, text) == [("E225", 2, 3, "cannot multiply 'hex' by 'MP'")]


def test_min_of_two_units_is_E225(compiler: Compiler) -> None:
    text = """decision d "D" (reach hex, move MP) {
  min(reach, move) > 3 -> far "Far"
  otherwise            -> near "Near"
}
"""
    assert errors(compiler, text) == [("E225", 2, 3, "min() mixes 'MP' and 'hex'")]


def test_an_unknown_function_is_E226_with_the_nearest(compiler: Compiler) -> None:
    text = """decision d "D" (reach hex) {
  hlf(reach) > 3 -> far "Far"
  otherwise      -> near "Near"
}
"""
    compiled = compile_snippet(compiler, HEADER + text)
    [d] = [d for d in compiled.diagnostics if d.is_error]
    assert (d.code, d.pos.line - HEADER_LINES, d.pos.column) == ("E226", 2, 3)
    assert d.message == "unknown function 'hlf'"
    assert d.hint is not None and "half" in d.hint


def test_a_function_with_the_wrong_number_of_arguments_is_E226(compiler: Compiler) -> None:
    text = """decision d "D" (reach hex, far hex) {
  abs(reach, far) > 3 -> far_ "Far"
  max(reach) > 3      -> mid "Mid"
  otherwise           -> near "Near"
}
"""
    assert errors(compiler, text) == [
        ("E226", 2, 3, "abs() takes 1 argument, not 2"),
        ("E226", 3, 3, "max() takes at least 2 arguments, not 1"),
    ]


def test_a_division_by_an_input_is_E227(compiler: Compiler) -> None:
    text = """decision d "D" (attack points, defence points) {
  attack / defence > 2 -> odds "Good odds"
  otherwise            -> poor "Poor odds"
}
"""
    assert errors(compiler, text) == [
        ("E227", 2, 12, "divide by a number written in the rule, not by an input")
    ]


def test_a_table_cell_inside_arithmetic_is_E227(compiler: Compiler) -> None:
    text = """table speeds "Speeds" {
  fast "Fast" | 6 hex
}
decision d "D" (kind speeds, reach hex) {
  speeds[kind] - 2 > reach -> far "Far"
  otherwise                -> near "Near"
}
"""
    assert errors(compiler, text) == [("E227", 5, 3, "a table cell cannot be computed with")]


def test_a_division_by_zero_is_E202(compiler: Compiler) -> None:
    text = """decision d "D" (reach hex) {
  reach / 0 rounded up > 3 -> far "Far"
  otherwise                -> near "Near"
}
"""
    assert [e[:3] for e in errors(compiler, text)] == [("E202", 2, 11)]


def test_an_expression_nested_too_deeply_is_E228(compiler: Compiler) -> None:
    deep = "(" * 40 + "reach" + " + 1)" * 40
    text = f"""decision d "D" (reach hex) {{
  {deep} > 3 -> far "Far"
  otherwise -> near "Near"
}}
"""
    found = errors(compiler, text)
    assert [e[:2] for e in found] == [("E228", 2)]


def test_a_yes_no_input_in_arithmetic_is_E210(compiler: Compiler) -> None:
    text = """decision d "D" (flying bool, reach hex) {
  reach + flying > 3 -> far "Far"
  otherwise          -> near "Near"
}
"""
    assert errors(compiler, text) == [("E210", 2, 11, "input 'flying' is yes/no, not a number")]


# ---- sheets, diff, house rules, YAML -------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "(sensor range / 2, rounded down) - 2"),
        ("fr", "(sensor range / 2, arrondi \u00e0 l\u2019inf\u00e9rieur) - 2"),
        (
            "ru",
            "(sensor range / 2 "
            "\u0441 \u043e\u043a\u0440\u0443\u0433\u043b\u0435\u043d\u0438\u0435\u043c "
            "\u0432\u043d\u0438\u0437) - 2",
        ),
        ("de", "(sensor range / 2, abgerundet) - 2"),
    ],
)
def test_the_sheet_prints_arithmetic_in_words(compiler: Compiler, lang: str, words: str) -> None:
    """Operators as signs (a minus sign, not a hyphen), the rounding in the sheet's words."""
    rs = compiled_ok(compiler, MANOEUVRE)
    markdown = render_sheet(rs, "md", lang).decode("utf-8").replace("\\", "")
    for phrase in ("|new speed - speed| > thrust", words):
        assert phrase.replace(" - ", " \u2212 ") in markdown, phrase


@pytest.mark.parametrize(
    ("lang", "phrase"),
    [
        ("en", "half of"),
        ("fr", "la moiti\u00e9 de"),
        ("ru", "\u043f\u043e\u043b\u043e\u0432\u0438\u043d\u0430"),
        ("de", "die H\u00e4lfte von"),
    ],
)
def test_the_sheet_names_half_in_its_language(compiler: Compiler, lang: str, phrase: str) -> None:
    rs = compiled_ok(compiler, MANOEUVRE)
    assert phrase in render_sheet(rs, "md", lang).decode("utf-8")


def _diff(tmp_path: Path, old: str, new: str) -> semantic.Diff:
    for name, text in (("old", old), ("new", new)):
        (tmp_path / name).mkdir(exist_ok=True)
        (tmp_path / name / "demo.terrain").write_text(HEADER + text, "utf-8")
    compiler = Compiler()
    a = compiler.compile_file(tmp_path / "old" / "demo.terrain").ruleset
    b = compiler.compile_file(tmp_path / "new" / "demo.terrain").ruleset
    assert a is not None and b is not None
    return semantic.diff(a, b)


def test_the_diff_grades_a_changed_rounding_as_a_rules_change(tmp_path: Path) -> None:
    d = _diff(tmp_path, MANOEUVRE, MANOEUVRE.replace("rounded down - 2", "rounded up - 2"))
    assert [(c.level, c.action, c.path, c.message) for c in d.changes] == [
        (
            "rules",
            "changed",
            "sensors.locked",
            "Sensors, row Locked: distance <= sensor_range / 2 rounded down - 2 -> "
            "distance <= sensor_range / 2 rounded up - 2",
        )
    ]


def test_a_house_rule_overrides_an_arithmetic_row(tmp_path: Path) -> None:
    (tmp_path / "demo.terrain").write_text(HEADER + MANOEUVRE, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends demo@^1.0\n'
        "override manoeuvre.too_hard: abs(new_speed - speed) > thrust + 1 -> too_hard\n"
        "insert sensors before locked: distance <= min(2 hex, sensor_range) -> point_blank "
        '"Point blank"\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert [d.message for d in compiled.diagnostics if d.is_error] == []
    assert compiled.ruleset is not None
    rows = [spelling.decision_row(r) for d in compiled.ruleset.decisions for r in d.rows]
    assert "abs(new_speed - speed) > thrust + 1 -> too_hard" in rows
    assert "distance <= min(2 hex, sensor_range) -> point_blank" in rows


def test_arithmetic_round_trips_through_the_yaml_front_end(
    compiler: Compiler, tmp_path: Path
) -> None:
    source, diagnostics = Parser().parse(HEADER + MANOEUVRE, "demo.terrain")
    assert source is not None and diagnostics == []
    yaml_text = to_yaml(source)
    assert "abs(new_speed - speed) > thrust" in yaml_text
    (tmp_path / "demo.yaml").write_text(yaml_text, "utf-8")
    from_yaml = compiler.compile_file(tmp_path / "demo.yaml")
    assert [d.message for d in from_yaml.diagnostics if d.is_error] == []
    direct = compiled_ok(compiler, MANOEUVRE)
    assert from_yaml.ruleset is not None
    assert from_yaml.ruleset.decisions == direct.decisions
    assert "sensor_range / 2 rounded down - 2" in to_terrain(yaml_text)


def test_a_units_fault_in_yaml_is_E225_inside_the_scalar(
    compiler: Compiler, tmp_path: Path
) -> None:
    source, _ = Parser().parse(HEADER + MANOEUVRE, "demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source).replace("abs(new_speed - speed)", "abs(new_speed - 2 hex)")
    (tmp_path / "demo.yaml").write_text(yaml_text, "utf-8")
    compiled = compiler.compile_file(tmp_path / "demo.yaml")
    [d] = [d for d in compiled.diagnostics if d.is_error]
    assert d.code == "E225"
    assert d.message == "cannot subtract 'hex' from 'MP'"
    assert d.pos is not None
    line = next(i for i, t in enumerate(yaml_text.splitlines(), 1) if "2 hex" in t)
    assert d.pos.line == line


def test_arithmetic_round_trips_through_the_ir_json_and_its_schema(compiler: Compiler) -> None:
    rs = compiled_ok(compiler, MANOEUVRE)
    data = serial.to_data(rs)
    assert schema.validation_errors(data) == []
    assert serial.from_data(ir.Ruleset, data).decisions == rs.decisions


def test_thousands_of_nested_parentheses_are_E228_not_a_traceback(compiler: Compiler) -> None:
    deep = "(" * 5000 + "reach" + " + 1)" * 5000
    text = f"""decision d "D" (reach hex) {{
  {deep} > 3 -> far "Far"
  otherwise -> near "Near"
}}
"""
    assert [e[:2] for e in errors(compiler, text)] == [("E228", 2)]


def test_a_deep_yaml_condition_is_E228_inside_its_scalar(
    compiler: Compiler, tmp_path: Path
) -> None:
    source, _ = Parser().parse(HEADER + MANOEUVRE, "demo.terrain")
    assert source is not None
    for depth in (40, 5000):
        deep = "(" * depth + "new_speed" + " + 1)" * depth
        yaml_text = to_yaml(source).replace("abs(new_speed - speed)", deep)
        (tmp_path / "demo.yaml").write_text(yaml_text, "utf-8")
        compiled = compiler.compile_file(tmp_path / "demo.yaml")
        found = [(d.code, d.pos.line if d.pos else 0) for d in compiled.diagnostics if d.is_error]
        line = next(i for i, t in enumerate(yaml_text.splitlines(), 1) if "((" in t)
        assert found == [("E228", line)], depth
