"""Named arcs (issue 40, item 2): bearings relative to a unit's facing mapped to named arcs,
in degrees or hexsides; the arc of a bearing, and the arc where a shooter stands on a grid or
off it, in the Python and JavaScript modules as the reference semantics says; arcs keying a
table that feeds a decision; misuse at line and column; YAML; the sheet's words in every
language; `diff` grading; the house-rule path; and signed decision inputs (a bearing below 0
was refused at run time after the build accepted `abs(bearing)`)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics import arcs as semantics
from rulesdsl.versions import diff as semantic
from tests import js_queries
from tests.conftest import compile_snippet, import_rendered
from tests.test_sight_and_results import HEADER, HEADER_LINES, located, yaml_errors
from tests.typescript import TSC

ARCS = """grid squares "Squares" : 1 hex, square, diagonals 1
arcs armour "Armour arcs" {
  front "Front" | -60 to 60
  side "Side"   | 60 to 120, -120 to -60
  rear "Rear"   | 120 to 240
}
arcs turret "Turret arcs" : hexsides {
  ahead "Ahead"   | 5 to 1
  behind "Behind" | 2 to 4
}
"""

HEX_NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _ruleset(compiler: Compiler, body: str = ARCS) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def compiled() -> ir.Ruleset:
    return _ruleset(Compiler())


@pytest.fixture(scope="module")
def module(compiled: ir.Ruleset, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return import_rendered(compiled, tmp_path_factory.mktemp("arcs"), "arcs_demo")


def _block(rs: ir.Ruleset, name: str) -> ir.Arcs:
    return next(a for a in rs.arcs if a.id == name)


def test_a_bearing_is_in_the_first_listed_arc_that_holds_it(
    compiled: ir.Ruleset, module: ModuleType
) -> None:
    expected = {0: "front", 60: "front", 61: "side", -60: "front", -61: "side", 120: "side"}
    expected |= {121: "rear", 180: "rear", 240: "side", 239: "rear", 420: "front", -420: "front"}
    for bearing, arc in expected.items():
        assert module.arc("armour", bearing) == arc, bearing
        assert semantics.arc(_block(compiled, "armour"), bearing) == arc
    assert module.arc("armour", 250, heading=180) == "side"  # 70 degrees to the right
    turret = {0: "ahead", 90: "ahead", 91: "behind", 269: "behind", 270: "ahead"}
    for bearing, arc in turret.items():
        assert module.arc("turret", bearing) == arc, bearing


def test_the_module_and_the_semantics_agree_on_every_bearing_and_heading(
    compiled: ir.Ruleset, module: ModuleType
) -> None:
    for arcs in compiled.arcs:
        for bearing in range(-360, 721, 15):
            for heading in (0, 45, 90, 200, -30):
                answer = module.arc(arcs.id, bearing, heading)
                assert answer == semantics.arc(arcs, bearing, heading), (arcs.id, bearing)


def test_a_shooter_on_a_hex_grid_is_in_the_arc_the_grid_directions_give(
    compiled: ir.Ruleset, module: ModuleType
) -> None:
    armour = _block(compiled, "armour")
    # heading 0 looks along +q: the neighbours, counter-clockwise from it
    around = ["front", "front", "side", "rear", "side", "front"]
    for heading in range(6):
        for i, (dq, dr) in enumerate(HEX_NEIGHBOURS):
            want = around[(i - heading) % 6]
            got = module.arc_between("armour", (2, 3), heading, (2 + dq, 3 + dr), grid="hex")
            assert got == want, (heading, i)
            grid = ("hex", 6)
            assert semantics.arc_between(armour, (2, 3), heading, (2 + dq, 3 + dr), grid) == want
    # on a spine (between two hexsides): the arc listed first
    assert module.arc_between("armour", (0, 0), 0, (1, 1), grid="hex") == "front"  # 30 deg
    assert module.arc_between("armour", (0, 0), 0, (-1, 2), grid="hex") == "side"  # 90 deg
    assert module.arc_between("turret", (0, 0), 0, (1, 1), grid="hex") == "ahead"


def test_a_square_grid_with_diagonals_has_eight_headings(module: ModuleType) -> None:
    assert module.arc_between("armour", (0, 0), 1, (0, -3), grid="squares") == "front"
    assert module.arc_between("armour", (0, 0), 1, (0, 3), grid="squares") == "rear"
    assert module.arc_between("armour", (0, 0), 2, (1, 0), grid="square") == "rear"
    assert module.arc_between("armour", (0, 0), 7, (2, 2), grid="squares") == "front"
    with pytest.raises(module.InvalidArgument, match="must be 0 to 3"):
        module.arc_between("armour", (0, 0), 7, (2, 2), grid="square")


def test_off_the_grid_the_arc_comes_from_coordinates_and_a_compass_heading(
    compiled: ir.Ruleset, module: ModuleType
) -> None:
    armour = _block(compiled, "armour")
    cases = [((0, 0), 90, (-10, 2), "rear"), ((0, 0), 0, (1, -5), "front")]
    cases += [((1.5, 1.5), 0, (5, 1.5), "side"), ((0, 0), 270, (-3, 0.5), "front")]
    for target, heading, other, want in cases:
        assert module.arc_between("armour", target, heading, other) == want
        assert semantics.arc_between(armour, target, heading, other) == want


def test_arc_arguments_are_checked_as_the_other_functions_check_theirs(
    module: ModuleType,
) -> None:
    with pytest.raises(module.UnknownName, match="did you mean 'armour'"):
        module.arc("armor", 10)
    with pytest.raises(module.ArgumentTypeError, match="must be a real number"):
        module.arc("armour", "10")
    with pytest.raises(module.InvalidArgument, match="stands where the target is"):
        module.arc_between("armour", (1, 1), 0, (1, 1), grid="hex")
    with pytest.raises(module.ArgumentTypeError, match="place of whole numbers"):
        module.arc_between("armour", (0, 0.5), 0, (1, 1), grid="hex")
    with pytest.raises(module.ArgumentTypeError, match="must be an int"):
        module.arc_between("armour", (0, 0), 1.5, (1, 1), grid="hex")
    with pytest.raises(module.UnknownName, match="unknown grid"):
        module.arc_between("armour", (0, 0), 0, (1, 1), grid="hexes")


KEYED = """arcs armour "Armour arcs" {
  front "Front" | -60 to 60
  side "Side"   | 60 to 120, -120 to -60
  rear "Rear"   | 120 to 240
}
table plates "Armour" : arcs armour {
  columns tank
  front "Front" | 100 mm
  side "Side"   | 80 mm
  rear "Rear"   | 60 mm
}
decision penetrates "Penetration" (hit plates, pen mm) {
  pen > plates.tank[hit] -> pierced "Pierced"
  otherwise              -> bounced "Bounced"
}
"""


def test_the_arc_keys_a_table_that_feeds_a_penetration_decision(
    compiler: Compiler, tmp_path: Path
) -> None:
    m = import_rendered(_ruleset(compiler, KEYED), tmp_path, "arcs_keyed")
    rear = m.arc_between("armour", (0, 0), 0, (-1, 0), grid="hex")
    front = m.arc_between("armour", (0, 0), 0, (1, 0), grid="hex")
    assert (rear, front) == ("rear", "front")
    assert m.penetrates(hit=rear, pen=70).id == "pierced"
    assert m.penetrates(hit=front, pen=70).id == "bounced"


@pytest.mark.parametrize(
    ("code", "text", "line", "column"),
    [
        ("E370", 'arcs a "A" : degrees {\n  all "All" | 0 to 360\n}\n', 1, 14),
        ("E371", 'arcs a "A" {\n  all "All" | 60 to 60\n}\n', 2, 15),
        ("E371", 'arcs a "A" {\n  all "All" | 0 to 400\n}\n', 2, 15),
        ("E372", 'arcs a "A" : hexsides {\n  all "All" | 0 to 6\n}\n', 2, 15),
        ("E373", 'arcs a "A" {\n  f "F" | -60 to 60\n  r "R" | 120 to 240\n}\n', 1, 6),
        ("E374", 'arcs a "A" {\n  f "F" | 0 to 180\n  f "G" | 180 to 360\n}\n', 3, 3),
        ("E376", KEYED.replace('rear "Rear"   | 60', 'raer "Rear"   | 60'), 10, 3),
        ("E376", KEYED.replace('  side "Side"   | 80 mm\n', ""), 6, 30),
    ],
    ids=["E370", "E371-empty", "E371-round", "E372", "E373", "E374", "E376-row", "E376-arc"],
)
def test_arcs_misuse_is_reported_at_its_place(
    compiler: Compiler, code: str, text: str, line: int, column: int
) -> None:
    assert located(compiler, HEADER + text) == [(code, HEADER_LINES + line, column)]


def test_every_arcs_error_of_a_file_is_reported_together(compiler: Compiler) -> None:
    text = 'arcs a "A" : degs {\n  f "F" | 0 to 0\n}\narcs b "B" {\n  f "F" | 0 to 90\n}\n'
    assert [c for c, _, _ in located(compiler, HEADER + text)] == ["E370", "E371", "E373"]


def test_the_gap_is_named_in_the_message(compiler: Compiler) -> None:
    text = 'arcs a "A" {\n  f "F" | -60 to 60\n  r "R" | 120 to 240\n}\n'
    messages = [d.message for d in compile_snippet(compiler, HEADER + text).diagnostics]
    assert "bearings 60 to 120 deg are in no arc of 'a'" in messages


def test_arcs_misuse_has_the_same_code_through_the_yaml_front_end(tmp_path: Path) -> None:
    text = 'arcs a "A" : hexsides {\n  f "F" | 5 to 1\n  r "R" | 2 to 9\n}\n'
    assert [d.code for d in yaml_errors(HEADER + text, tmp_path)] == ["E372"]


def test_arcs_survive_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    keyed = 'table guns "Guns" : arcs turret {\n  ahead "Ahead" | 2\n  behind "Behind" | 1\n}\n'
    source, _ = Parser().parse(HEADER + ARCS + keyed, "demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "count: hexsides" in yaml_text and "spans: 60 to 120, -120 to -60" in yaml_text
    assert "arcs: turret" in yaml_text
    yaml_path = tmp_path / "demo.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "back.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    assert 'table guns "Guns" : arcs turret {' in back.read_text("utf-8")
    found = [Compiler().compile_file(p).ruleset for p in (yaml_path, back)]
    plain = [dataclasses.replace(r, digest="") for r in found if r is not None]
    assert len(plain) == 2 and plain[0] == plain[1]
    assert [a.id for a in plain[0].arcs] == ["armour", "turret"]
    assert plain[0].arcs[1].arcs[0].spans == ((5.0, 1.0),)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Arcs", "Bearings", "-60° to 60°", "hexsides 5 to 1", "listed first"]),
        ("fr", ["Relèvements", "de -60° à 60°", "côtés 5 à 1", "premier de la liste"]),
        ("de", ["Sektoren", "Peilungen", "-60° bis 60°", "Hexseiten 5 bis 1"]),
        ("ru", ["Секторы", "Пеленги", "от -60° до 60°", "стороны гекса 5\u20131"]),
    ],
)
def test_the_sheet_prints_the_arcs_in_every_language(
    tmp_path: Path, lang: str, words: list[str]
) -> None:
    ruleset = tmp_path / "demo.terrain"
    ruleset.write_text(HEADER + ARCS, "utf-8")
    target = tmp_path / f"demo.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    text = target.read_text("utf-8")
    assert all(w in text for w in words), [w for w in words if w not in text]


def test_diff_grades_a_changed_or_added_arc_as_breaking(compiler: Compiler) -> None:
    old = _ruleset(compiler)
    changed = ARCS.replace("-60 to 60", "-45 to 45").replace("60 to 120, -120 to -60", "45 to 120")
    new = _ruleset(compiler, changed.replace("120 to 240", "120 to 315"))
    found = [(c.level, c.path, c.message) for c in semantic.diff(old, new).changes]
    assert found == [
        ("breaking", "armour.front", "Armour arcs, Front: -60 to 60 deg -> -45 to 45 deg"),
        (
            "breaking",
            "armour.side",
            "Armour arcs, Side: 60 to 120, -120 to -60 deg -> 45 to 120 deg",
        ),
        ("breaking", "armour.rear", "Armour arcs, Rear: 120 to 240 deg -> 120 to 315 deg"),
    ]
    added = _ruleset(compiler, ARCS + 'arcs fire "Fire" {\n  all "All" | 0 to 360\n}\n')
    assert [(c.level, c.path) for c in semantic.diff(old, added).changes] == [("additive", "fire")]
    turned = ARCS.replace('  front "Front" | -60 to 60\n', "").replace(
        '  rear "Rear"   | 120 to 240\n',
        '  rear "Rear"   | 120 to 240\n  front "Front" | -60 to 60\n',
    )
    assert [c.message for c in semantic.diff(old, _ruleset(compiler, turned)).changes] == [
        "Armour arcs: arcs reordered (side, rear, front)"
    ]


def test_a_house_rule_removes_the_arcs_and_declares_them_again(tmp_path: Path) -> None:
    (tmp_path / "demo.terrain").write_text(HEADER + ARCS, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends demo@^1.0\nremove armour\n'
        'arcs armour "Armour arcs" {\n  front "Front" | -90 to 90\n  rear "Rear" | 90 to 270\n}\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    armour = _block(compiled.ruleset, "armour")
    assert [a.id for a in armour.arcs] == ["front", "rear"]
    assert semantics.arc(armour, 80) == "front"
    assert [(c.action, c.path) for c in compiled.ruleset.changes] == [
        ("remove", ir.NamePath("armour")),
        ("add", ir.NamePath("armour")),
    ]


# ---- signed inputs ----------------------------------------------------------------------

SIGNED = """decision cone "Blast cone" (bearing signed deg, spread deg = 0) {
  abs(bearing) <= 30 + spread -> inside "Inside"
  otherwise                   -> outside "Outside"
}
"""


def test_a_signed_bearing_below_zero_is_answered(compiler: Compiler, tmp_path: Path) -> None:
    m = import_rendered(_ruleset(compiler, SIGNED), tmp_path, "arcs_signed")
    assert m.cone(bearing=-20).id == "inside" and m.cone(bearing=-40).id == "outside"
    with pytest.raises(m.InvalidArgument, match="at least 0"):
        m.cone(bearing=-40, spread=-1)


def test_abs_of_an_input_never_below_zero_is_w375_at_the_call(compiler: Compiler) -> None:
    text = HEADER + SIGNED.replace("bearing signed deg", "bearing deg")
    found = [
        (d.code, d.pos.line, d.pos.column)
        for d in compile_snippet(compiler, text).diagnostics
        if d.pos is not None
    ]
    assert found == [("W375", HEADER_LINES + 2, 3)]
    assert not [d for d in compile_snippet(compiler, HEADER + SIGNED).diagnostics if d.pos]


def test_signed_on_a_key_or_yes_no_input_is_e375(compiler: Compiler) -> None:
    text = 'decision d "D" (flag signed bool) {\n  flag -> yes_ "Yes"\n  otherwise -> no_ "No"\n}\n'
    assert located(compiler, HEADER + text) == [("E375", HEADER_LINES + 1, 29)]


def test_a_signed_default_below_zero_is_accepted(compiler: Compiler) -> None:
    rs = _ruleset(compiler, SIGNED.replace("bearing signed deg", "bearing signed deg = -10"))
    assert rs.decisions[0].params[0].default == ir.Number(-10, "deg")
    assert rs.decisions[0].params[0].signed


def test_signed_survives_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + SIGNED, "demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "bearing signed deg" in yaml_text
    back = tmp_path / "back.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    compiled = Compiler().compile_file(back)
    assert compiled.ruleset is not None and compiled.ruleset.decisions[0].params[0].signed


# ---- the language guide's example and the JavaScript module ------------------------------


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index('```terrain\narcs armour "Armour arcs"')
    snippet = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    header = 'ruleset demo "Demo"\nversion 1.0.0\nlanguages en fr\nunits distance hex, cost MP\n'
    compiled = compile_snippet(compiler, header + snippet)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = import_rendered(compiled.ruleset, tmp_path, "arcs_doc")
    assert m.arc_between("armour", (0, 0), 0, (-1, 0), grid="hex") == "rear"
    assert m.penetrates(hit="rear", pen=70).id == "pierced"
    assert m.penetrates(hit="rear", pen=70, hull_down=True).id == "bounced"
    assert m.penetrates(hit="rear", pen=90, hull_down=True).id == "pierced"
    assert m.arc_between("armour", (0, 0), 0, (1, 0), grid="hex") == "front"
    assert m.penetrates(hit="front", pen=70).id == "bounced"
    assert m.arc_between("armour", (0, 0), 0, (0, 1), grid="hex") == "front"
    assert m.arc_between("armour", (0, 0), 90, (-10, 2)) == "rear"
    assert m.arc("armour", 250, heading=180) == "side"
    for shown in (
        '`arc_between("armour", (0, 0), 0, (-1, 0), grid="hex")` is `\'rear\'`',
        '`penetrates(hit="rear", pen=70)` is `pierced`',
        "but `bounced` with `hull_down=True`",
    ):
        assert shown in doc


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.skip("node is not installed")
    return found


def test_the_js_module_gives_the_python_modules_arcs_and_errors(
    compiled: ir.Ruleset, module: ModuleType, node: str, tmp_path: Path
) -> None:
    from tests.test_js_target import write_package

    plan = module_plan.build(compiled)
    path = write_package(plan, tmp_path / "js")
    queries = [q for q in js_queries.queries(plan, seed=40) if q["function"].startswith("arc")]
    assert len(queries) > 100
    expected = js_queries.ask_python_all(module, queries)
    got = js_queries.ask_node(path, queries)
    wrong = [(q, e, g) for q, e, g in zip(queries, expected, got, strict=True) if e != g]
    assert wrong[:5] == []
    answers = {e["answer"][0]["word"] for e in expected if "answer" in e}
    errors = {e["error"] for e in expected if "error" in e}
    assert answers == {"front", "side", "rear", "ahead", "behind"}
    assert errors == {"UnknownName", "InvalidArgument", "ArgumentTypeError"}


@TSC
def test_the_js_declarations_type_check_a_caller_of_arcs(
    compiled: ir.Ruleset, node: str, tmp_path: Path, pytestconfig: Any
) -> None:
    from tests import typescript
    from tests.test_js_target import write_package
    from tests.typescript import TSC_STRICT

    write_package(module_plan.build(compiled), tmp_path / "demo")
    (tmp_path / "package.json").write_text('{"type": "module"}\n', "utf-8")
    (tmp_path / "caller.ts").write_text(
        'import { arc, arcBetween } from "./demo/demo.js";\n'
        'const a: string = arc("armour", -30, { heading: 90 });\n'
        'const b: string = arcBetween("turret", [0, 0], 2, [1, 1], { grid: "squares" });\n'
        "console.log(a, b);\n",
        "utf-8",
    )
    options = TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "caller.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_guides_point_of_sail_example_answers_as_it_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index('```terrain\narcs sail "Points of sail"')
    snippet = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    header = 'ruleset demo "Demo"\nversion 1.0.0\nlanguages en fr\nunits distance hex, cost MP\n'
    compiled = compile_snippet(compiler, header + snippet)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = import_rendered(compiled.ruleset, tmp_path, "arcs_sail")
    assert m.arc("sail", 0, heading=90) == "beam_reach"
    assert m.lookup("sail_speed", "beam_reach") == m.Quantity(3, "hex")
    assert m.arc("sail", 0, heading=30) == "in_irons"
    assert m.lookup("sail_speed", "in_irons") == m.Quantity(0, "hex")
    assert m.arc("sail", 0, heading=135) == "broad_reach"
    assert m.arc("sail", 0, heading=45) == "in_irons"  # on the line: the arc listed first
    for shown in ("`arc(\"sail\", 0, heading=90)`\nis `'beam_reach'`", "`'broad_reach'`"):
        assert shown in doc


def test_a_table_keyed_by_arcs_misspelt_in_yaml_is_e376_there(tmp_path: Path) -> None:
    text = HEADER + KEYED.replace('rear "Rear"   | 60', 'raer "Rear"   | 60')
    assert [d.code for d in yaml_errors(text, tmp_path)] == ["E376"]


def test_diff_grades_an_input_made_signed_as_additive_and_back_as_breaking(
    compiler: Compiler,
) -> None:
    signed = _ruleset(compiler, SIGNED)
    plain = _ruleset(compiler, SIGNED.replace("bearing signed deg", "bearing deg"))
    found = [(c.level, c.path) for c in semantic.diff(plain, signed).changes]
    assert found == [("additive", "cone.bearing")]
    assert [(c.level, c.path) for c in semantic.diff(signed, plain).changes] == [
        ("breaking", "cone.bearing")
    ]


def test_a_decision_named_like_the_arcs_function_is_refused_where_the_module_has_it(
    compiler: Compiler,
) -> None:
    decision = 'decision arc "Arc" (x deg) {\n  otherwise -> a "A"\n}\n'
    found = [d.code for d in compile_snippet(compiler, HEADER + ARCS + decision).diagnostics]
    assert found == ["E103"]
    assert compile_snippet(compiler, HEADER + decision).ok  # no arcs: `arc` is free
