"""Roll cells keyed by a kind of move and a unit at once (issue 40, item 7, "flying low and a
bomber"): ``low & bomber +2`` is the modifier of a bomber making the move ``low``. The more
specific wins: a pair of the kind and the unit type, then of the kind and a keyword, then the
unit's own entry, the kind's entry, the value for all. The modules answer as the reference
semantics (``semantics.written_roll`` read from the cells as written), Python and JavaScript
alike; misuse is E433 / E434 / E435 / E232 at the entry; the sheet, YAML, ``diff`` and a house
rule carry the pairs."""

from __future__ import annotations

import itertools
import random
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics.moves import written_roll
from rulesdsl.versions import diff as semantic
from tests import js_queries, js_queries_pairs, test_js_target
from tests.conftest import compile_snippet, import_rendered

FLAK = """ruleset flak "Flak" fr "Flak"
version 1.0.0
languages en fr
units distance hex, cost MP
group heavy "Heavy" fr "Lourds"
group winged "Winged" fr "Ailés"
mode fighter "Fighter" fr "Chasseur" : winged
mode bomber "Bomber" fr "Bombardier" : heavy, winged
mode transport "Transport" fr "Transport" : heavy
mode balloon "Balloon" fr "Ballon"
move low "Low" fr "Rase-mottes" : allowance times 1
move dive "Dive" fr "Piqué" : allowance times 2
grid hexes "Hexes" fr "Hexagones" : 1 hex = 1 km, hex
roll flak_check "Flak" fr "Flak" : 2d6 on entering
layer terrain "Terrain" fr "Terrain" one per place {
  columns cost, flak_check
  clear "Clear" fr "Clair" | 1 |
  city "City" fr "Ville" | 1 | no, low 0, low & bomber +2, heavy & low +1
  port "Port" fr "Port" | 1 | -1, balloon -2, dive & balloon no, bomber & dive +3
}
"""


def _at(text: str, written: str) -> tuple[int, int]:
    """The line and column where ``written`` begins in ``text``."""
    for n, line in enumerate(text.splitlines(), 1):
        if written in line:
            return n, line.index(written) + 1
    raise AssertionError(written)


def _ruleset(compiler: Compiler, text: str = FLAK) -> ir.Ruleset:
    compiled = compile_snippet(compiler, text)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


def _errors(compiler: Compiler, text: str) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, text)
    return [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.is_error]


def _expected(rs: ir.Ruleset, mode: str, names: tuple[str, ...], move: str | None) -> list[float]:
    """The roll's modifier by the semantics, read from the cells as written (one feature
    calls for it at most here, so the sum is that feature's value)."""
    groups = rs.groups
    values = []
    for f in rs.features:
        cell = f.cells.get("flak_check")
        if f.id in names and cell is not None:
            value = written_roll(cell, mode, move, groups)
            if isinstance(value, ir.Number):
                values.append(float(value.value))
            elif isinstance(value, ir.Flag) and value.value:
                values.append(0.0)
    return [sum(values)] if values else []


def test_a_pair_wins_over_the_kind_and_the_unit_as_the_semantics_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler)
    m = import_rendered(rs, tmp_path, "roll_pairs")
    modes = ("fighter", "bomber", "transport", "balloon")
    for mode, move, names in itertools.product(
        modes, (None, "low", "dive"), (("city",), ("port",), ("clear",))
    ):
        due = m.rolls_due(mode, *names, move=move)
        assert [d.modifier for d in due] == _expected(rs, mode, names, move), (mode, move, names)
    # the unit type's pair over the keyword's, the keyword's over the kind's, at height none
    low = {mode: [d.modifier for d in m.rolls_due(mode, "city", move="low")] for mode in modes}
    assert low == {"fighter": [0], "bomber": [2], "transport": [1], "balloon": [0]}
    assert m.rolls_due("bomber", "city") == ()
    # a pair over the unit's own entry: a balloon diving at the port does not roll
    assert [d.modifier for d in m.rolls_due("balloon", "port")] == [-2]
    assert m.rolls_due("balloon", "port", move="dive") == ()
    assert [d.modifier for d in m.rolls_due("bomber", "port", move="dive")] == [3]


def test_the_javascript_module_answers_pairs_as_python_does(
    compiler: Compiler, tmp_path: Path
) -> None:
    node = test_js_target._needed("node")
    assert node
    rs = _ruleset(compiler)
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "roll_pairs_js")
    module = test_js_target.write_package(plan, tmp_path / "flak")
    asked = list(js_queries_pairs.pair_queries(random.Random(40), plan))
    assert len(asked) == 300
    expected = js_queries.ask_python_all(python, asked)
    got = js_queries.ask_node(module, asked)
    pairs = zip(asked, expected, got, strict=True)
    assert [(q, e, g) for q, e, g in pairs if not js_queries.same(e, g)][:5] == []


def test_a_pair_of_two_units_or_two_kinds_is_e433(compiler: Compiler) -> None:
    text = FLAK.replace("heavy & low +1", "heavy & bomber +1").replace(
        "bomber & dive +3", "low & dive +3"
    )
    assert _errors(compiler, text) == [
        ("E433", *_at(text, "heavy & bomber")),
        ("E433", *_at(text, "low & dive")),
    ]


def test_a_pair_given_twice_is_e434(compiler: Compiler) -> None:
    text = FLAK.replace("heavy & low +1", "bomber & low +1")
    line, column = _at(text, "bomber & low +1")
    assert _errors(compiler, text) == [("E434", line, column + len("bomber & low "))]


def test_a_pair_for_a_unit_that_may_not_make_the_move_is_e435(compiler: Compiler) -> None:
    only = FLAK.replace(
        '"Rase-mottes" : allowance times 1', '"Rase-mottes" : allowance times 1, only heavy'
    )
    assert _errors(compiler, only) == []  # a bomber and the heavy units may fly low
    fighter = only.replace("low & bomber +2", "low & fighter +2")
    line, column = _at(fighter, "low & fighter +2")
    assert _errors(compiler, fighter) == [("E435", line, column + len("low & "))]
    winged = only.replace("low & bomber +2", "low & winged +2")  # a bomber is winged and heavy
    assert "E435" not in [code for code, *_ in _errors(compiler, winged)]


def test_two_keywords_pairs_with_no_precedence_are_e232(compiler: Compiler) -> None:
    text = FLAK.replace("low & bomber +2", "low & winged +2")
    line, _ = _at(text, "low & winged +2")
    assert [(code, at) for code, at, _ in _errors(compiler, text)] == [("E232", line)]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "| City | no roll (Low: Fighter, Balloon 0; Transport +1; Bomber +2) |"),
        (
            "fr",
            "| Ville | pas de jet (Rase-mottes\u202f: Chasseur, Ballon 0\u202f; Transport +1",
        ),
        ("de", "| City | kein Wurf (Low: Fighter, Balloon 0; Transport +1; Bomber +2) |"),
        ("ru", "| City | без броска (Low: Fighter, Balloon 0; Transport +1; Bomber +2) |"),
    ],
)
def test_the_sheet_prints_the_pairs_values_in_every_language(
    tmp_path: Path, lang: str, said: str
) -> None:
    ruleset = tmp_path / "flak.terrain"
    ruleset.write_text(FLAK, "utf-8")
    target = tmp_path / f"flak.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert said in target.read_text("utf-8")


def test_diff_grades_a_changed_or_new_pair_as_a_rules_change(compiler: Compiler) -> None:
    worse = FLAK.replace("low & bomber +2", "low & bomber +3")
    changes = semantic.diff(_ruleset(compiler), _ruleset(compiler, worse)).changes
    assert [(c.level, c.path) for c in changes] == [("rules", "flak_check.city (low).bomber")]
    fewer = FLAK.replace(", bomber & dive +3", "")
    changes = semantic.diff(_ruleset(compiler, fewer), _ruleset(compiler)).changes
    assert [(c.level, c.path) for c in changes] == [("rules", "flak_check.port (dive).bomber")]


def _house(tmp_path: Path, override: str, name: str) -> ModuleType:
    """The module of a house rule of FLAK with one ``override`` line."""
    (tmp_path / "flak.terrain").write_text(FLAK, "utf-8")
    house = tmp_path / f"{name}.terrain"
    head = f'ruleset {name} "House"\nversion 1.0.0\nextends flak@^1.0\n'
    house.write_text(f"{head}override {override}\n", "utf-8")
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return import_rendered(compiled.ruleset, tmp_path, name)


def test_a_house_rule_overrides_a_cell_with_pairs(tmp_path: Path) -> None:
    m = _house(tmp_path, "city.flak_check | no, low & bomber +4", "roll_pairs_house")
    assert [d.modifier for d in m.rolls_due("bomber", "city", move="low")] == [4]
    assert m.rolls_due("transport", "city", move="low") == ()
    m = _house(tmp_path, "city.flak_check.low | +1", "roll_pairs_house_low")  # keeps the pairs
    low = [[d.modifier for d in m.rolls_due(u, "city", move="low")] for u in ("bomber", "balloon")]
    assert low == [[2], [1]]


def test_a_worked_example_states_a_pairs_answer(compiler: Compiler) -> None:
    example = (
        'example flak_low "A bomber flying low over a city" {\n'
        "  rolls_due(bomber, city, move=low) = flak_check, +2\n"
        "  rolls_due(bomber, city) = none\n}\n"
    )
    assert _errors(compiler, FLAK + example) == []
    wrong = FLAK + example.replace("flak_check, +2", "flak_check, +1")
    assert [code for code, *_ in _errors(compiler, wrong)] == ["E270"]


def test_the_yaml_form_keeps_the_pairs(compiler: Compiler, tmp_path: Path) -> None:
    source, errors = Parser().parse(FLAK, "flak.terrain")
    assert source is not None and errors == []
    yaml_text = to_yaml(source)
    (tmp_path / "flak.yaml").write_text(yaml_text, "utf-8")
    compiled = compiler.compile_file(tmp_path / "flak.yaml")
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert compiled.ruleset.features == _ruleset(compiler).features
    assert compiled.ruleset.rolls == _ruleset(compiler).rolls
    assert "no, low 0, low & bomber +2, heavy & low +1" in to_terrain(yaml_text)


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("- **A kind of move and a unit at once.**") :]
    start = section.index("```terrain\n") + len("```terrain\n")
    snippet = textwrap.dedent(section[start : section.index("```", start)])
    m = import_rendered(_ruleset(compiler, snippet), tmp_path, "roll_pairs_docs")
    assert m.rolls_due("bomber", "city") == ()
    low = {u: [d.modifier for d in m.rolls_due(u, "city", move="low")] for u in m.MODES}
    assert low == {"fighter": [0], "bomber": [2], "transport": [1]}
    for shown in (
        '`rolls_due("bomber", "city")` is `()`',
        'with `move="low"` it is one\n  `flak_check` at `+2`, a transport flying low rolls at `+1` '
        "and a fighter at `0`",
    ):
        assert shown in section


def test_the_spreadsheet_chart_carries_the_pairs_both_ways(
    compiler: Compiler, tmp_path: Path
) -> None:
    ruleset, chart = tmp_path / "flak.terrain", tmp_path / "terrain.csv"
    ruleset.write_text(FLAK, "utf-8")
    assert (
        main(["export", str(ruleset), "--format", "csv", "--table", "terrain", "-o", str(chart)])
        == 0
    )
    written = chart.read_text("utf-8")
    assert '"no, low 0, low & bomber +2, low & heavy +1"' in written
    chart.write_text(written.replace("low & bomber +2", "low & bomber +5"), "utf-8")
    assert main(["import", str(chart), "--layer", "terrain", "--into", str(ruleset)]) == 0
    assert "low & bomber +5" in ruleset.read_text("utf-8")
    m = import_rendered(_ruleset(compiler, ruleset.read_text("utf-8")), tmp_path, "roll_pairs_csv")
    assert [d.modifier for d in m.rolls_due("bomber", "city", move="low")] == [5]
