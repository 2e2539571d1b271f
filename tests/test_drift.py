"""Drift at the end of a move (issue 40, item 4): ``drift wind "Wind drift" : 1 when altitude
below 3, balloon 2, heavy 0`` says how far the wind carries each unit type downwind once its
move is over. Given ``wind=`` (the heading it blows from, as for tacking), ``route_cost`` and
``cheapest_route`` answer where the unit ends (``Route.drift``); without it nothing drifts and
every answer is as before. The module, the reference semantics and the JavaScript module agree."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen import js as js_target
from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.targets import render_python as render
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics import drift as semantic_drift
from rulesdsl.versions import diff as semantic
from tests import js_queries, typescript
from tests.conftest import MYPY_CACHE, compile_snippet, import_rendered
from tests.test_js_target import node, write_package
from tests.test_module_layout import ruff_would_reformat
from tests.test_sight_and_results import located

__all__ = ["node"]  # the fixture

HEADER = """ruleset air "Air"
version 1.0.0
units distance hex, cost MP
group heavy "Heavy"
mode fighter "Fighter"
mode bomber "Bomber" : heavy
mode balloon "Balloon"
mode glider "Glider"
move climb "Climb" : allowance times 1
grid hexes "Hex" : 1 hex, hex
grid squares "Square" : 1 hex, square, diagonals 1, 2
"""
RULES = """layer sky "Sky" one per place {
  clear "Clear" | 1
  storm "Storm" | 2
  peak "Mountain peak" | impassable, balloon 1
  field "Airfield" | 1 must stop
  lake "Lake" | 1, glider 1 may not end, balloon 1 may not end
}
state altitude "Altitude" : 0 to 9, climb +1, storm -1
drift wind "Wind drift" : 1 when altitude below 3, balloon 2, heavy 0, glider 3
facing glider on hexes : turn 1 MP per hexside
"""


NO_DRIFT = "".join(line for line in RULES.splitlines(True) if not line.startswith("drift "))


def _ruleset(body: str = RULES) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def air(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset()
    return rs, import_rendered(rs, tmp_path_factory.mktemp("drift"), "drift_module")


def _board(module: Any, special: dict[tuple[int, int], str] | None = None) -> Any:
    """Three rows of six clear hexes, with the places of ``special``."""
    places = {(q, r): ("clear",) for q in range(6) for r in range(3)}
    places.update({p: (f,) for p, f in (special or {}).items()})
    return module.Board(places, grid="hexes")


ROW = [(0, 0), (1, 0), (2, 0)]


def test_a_unit_drifts_one_place_downwind_at_the_end_of_its_move(air: Any) -> None:
    _, m = air
    board = _board(m)
    # the wind blows from heading 3 (-1, 0): downwind is heading 0, (+1, 0)
    assert m.route_cost(board, "fighter", ROW, wind=3).drift == (3, 0)
    assert m.route_cost(board, "fighter", ROW, wind=0).drift == (1, 0)
    assert m.route_cost(board, "fighter", ROW, wind=1).drift == (1, 1)  # from (1, -1)


def test_without_wind_nothing_drifts_and_the_answer_is_as_before(air: Any) -> None:
    _, m = air
    board = _board(m)
    still = m.route_cost(board, "fighter", ROW)
    blown = m.route_cost(board, "fighter", ROW, wind=3)
    assert still.drift is None
    assert still[:-1] == blown[:-1]  # the drift costs nothing and makes no roll due


def test_each_unit_type_drifts_by_its_own_entry_its_keyword_or_the_one_for_all(air: Any) -> None:
    _, m = air
    board = _board(m)
    assert m.route_cost(board, "balloon", ROW, wind=3).drift == (4, 0)  # its own: 2
    assert m.route_cost(board, "bomber", ROW, wind=3).drift is None  # heavy 0
    assert m.route_cost(board, "fighter", ROW, wind=3).drift == (3, 0)  # the one for all


def test_a_drift_band_of_a_state_decides_who_drifts(air: Any) -> None:
    _, m = air
    board = _board(m)
    low, high = {"altitude": 2}, {"altitude": 3}
    assert m.route_cost(board, "fighter", ROW, wind=3, state=low).drift == (3, 0)
    assert m.route_cost(board, "fighter", ROW, wind=3, state=high).drift is None
    # the band is read at the end of the move: a climb takes altitude 2 to 3
    assert m.route_cost(board, "fighter", ROW, wind=3, state=low, move="climb").drift is None
    assert m.route_cost(board, "balloon", ROW, wind=3, state=high).drift == (4, 0)  # no band


def test_drift_stops_at_the_edge_before_a_place_it_may_not_enter_or_end_in(air: Any) -> None:
    _, m = air
    edge = _board(m)
    assert m.route_cost(edge, "balloon", [(3, 0), (4, 0)], wind=3).drift == (5, 0)  # the edge
    peak = _board(m, {(4, 0): "peak"})
    assert m.route_cost(peak, "fighter", [(2, 0), (3, 0)], wind=3).drift == (3, 0)
    assert m.route_cost(peak, "balloon", [(2, 0), (3, 0)], wind=3).drift == (5, 0)
    lake = _board(m, {(3, 0): "lake"})
    glide = [((0, 0), 0), ((1, 0), 0), ((2, 0), 0)]
    assert m.route_cost(lake, "glider", glide, wind=3).drift == (2, 0)


def test_drift_ends_in_a_place_where_the_unit_must_stop(air: Any) -> None:
    _, m = air
    board = _board(m, {(3, 0): "field"})
    assert m.route_cost(board, "balloon", [(1, 0), (2, 0)], wind=3).drift == (3, 0)


def test_an_illegal_route_and_a_route_without_a_step_have_no_drift(air: Any) -> None:
    _, m = air
    board = _board(m, {(1, 0): "peak"})
    assert not m.route_cost(board, "fighter", ROW, wind=3).legal
    assert m.route_cost(board, "fighter", ROW, wind=3).drift is None
    assert m.route_cost(board, "fighter", [(0, 1)], wind=3).drift is None


def test_cheapest_route_goes_to_the_goal_and_drifts_from_there(air: Any) -> None:
    _, m = air
    board = _board(m)
    found = m.cheapest_route(board, "fighter", (0, 0), (2, 0), wind=3)
    assert found.steps[-1].end == (2, 0) and found.drift == (3, 0)
    assert m.cheapest_route(board, "fighter", (0, 0), (2, 0)).drift is None


def test_reachable_takes_no_wind_where_only_drift_reads_it(air: Any) -> None:
    _, m = air
    with pytest.raises(TypeError):
        m.reachable(_board(m), "fighter", (0, 0), 2, wind=3)


def test_a_unit_with_facing_drifts_and_keeps_its_heading(air: Any) -> None:
    _, m = air
    board = _board(m)
    route = [((0, 1), 0), ((1, 1), 0), ((1, 1), 1)]
    answer = m.route_cost(board, "glider", route, wind=3)
    assert answer.heading == 1 and answer.drift == (4, 1)
    found = m.cheapest_route(board, "glider", ((0, 1), 0), (1, 1), wind=0)
    assert found.drift == (0, 1)  # from (1, 0) the wind blows towards (-1, 0): to the edge


def test_on_a_square_grid_with_diagonals_the_wind_has_eight_headings(air: Any) -> None:
    _, m = air
    places = {(x, y): ("clear",) for x in range(4) for y in range(4)}
    board = m.Board(places, grid="squares")
    assert m.route_cost(board, "fighter", [(0, 0), (1, 1)], wind=5).drift == (2, 0)
    with pytest.raises(m.InvalidArgument, match="must be 0 to 7"):
        m.route_cost(board, "fighter", [(0, 0), (1, 1)], wind=8)


def test_the_wind_is_checked(air: Any) -> None:
    _, m = air
    board = _board(m)
    with pytest.raises(m.InvalidArgument, match="must be 0 to 5"):
        m.route_cost(board, "fighter", ROW, wind=6)
    with pytest.raises(m.ArgumentTypeError, match="must be an int"):
        m.route_cost(board, "fighter", ROW, wind=True)
    loose = m.Board({p: ("clear",) for p in ROW}, neighbours=lambda p: [])
    with pytest.raises(m.InvalidArgument, match="needs a board on a grid"):
        m.route_cost(loose, "fighter", ROW[:1], wind=3)


def test_the_module_drifts_as_the_reference_semantics(air: Any) -> None:
    rs, m = air
    rng = random.Random(7)
    features = ["clear", "clear", "storm", "peak", "field", "lake"]
    steps = semantic_drift.HEX_STEPS
    checked = 0
    for _ in range(300):
        places = {(q, r): (rng.choice(features),) for q in range(5) for r in range(4)}
        board = m.Board(places, grid="hexes")
        mode = rng.choice(["fighter", "bomber", "balloon"])
        start = rng.choice(list(places))
        near = [p for p, _ in board.neighbours(start)]
        if not near:
            continue
        route = [start, rng.choice(near)]
        wind = rng.randrange(6)
        state = {"altitude": rng.randint(0, 9)} if rng.random() < 0.7 else None
        answer = m.route_cost(board, mode, route, wind=wind, state=state)
        expected = None
        if answer.legal:
            expected = semantic_drift.drift(
                rs, mode, route[-1], wind, steps, places.get, answer.state
            )
        assert answer.drift == expected, (places, mode, route, wind, state)
        checked += expected is not None and expected != route[-1]
    assert checked > 30  # the questions make units drift


def test_js_module_answers_drift_questions_as_python(node: str, tmp_path: Path) -> None:
    rs = _ruleset()
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "js_drift")
    module = write_package(plan, tmp_path / "js")
    families = js_queries.families()
    queries = [
        *families["drift"](random.Random(40), plan),
        *families["facing_drift"](random.Random(41), plan),
    ]
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
    answers = [str(e) for e in expected]  # the questions reach the rules
    routes = [
        e["answer"][0].get("route") or e["answer"][0].get("facing")
        for e in expected
        if "answer" in e
    ]
    assert sum(isinstance(r[-1], list) for r in routes if r) > 50  # they drift
    assert any("InvalidArgument" in a for a in answers)
    assert any("ArgumentTypeError" in a for a in answers)


# ---- checks -----------------------------------------------------------------------------------

LINE = HEADER.count("\n") + RULES.split("drift ")[0].count("\n") + 1
BODY = RULES.split("drift ")[0]


@pytest.mark.parametrize(
    ("line", "code", "column"),
    [
        ('drift wind "Wind drift" : -1\n', "E442", 27),
        ('drift wind "Wind drift" : 1.5\n', "E442", 27),
        ('drift wind "Wind drift" : 1, clear 2\n', "E443", 30),
        ('drift wind "Wind drift" : 1, jet 2\n', "E443", 30),
        ('drift wind "Wind drift" : 1, balloon 2, balloon 3\n', "E444", 41),
        ('drift wind "Wind drift" : 1, 2\n', "E444", 30),
        ('drift wind "Wind drift" : 1 when height below 3\n', "E446", 34),
        ('drift wind "Wind drift" : 1 when altitude below 2.5\n', "E446", 34),
    ],
)
def test_each_misuse_of_a_drift_line_gets_its_code_at_its_place(
    line: str, code: str, column: int
) -> None:
    assert located(Compiler(), HEADER + BODY + line) == [(code, LINE, column)]


def test_a_second_drift_line_is_e441() -> None:
    lines = 'drift wind "Wind drift" : 1\ndrift gust "Gust" : 2\n'
    assert located(Compiler(), HEADER + BODY + lines) == [("E441", LINE + 1, 7)]


def test_a_drift_line_without_a_grid_is_e440() -> None:
    header = "\n".join(line for line in HEADER.split("\n") if not line.startswith("grid"))
    body = BODY.replace("facing glider on hexes : turn 1 MP per hexside\n", "")
    text = header + body + 'drift wind "Wind drift" : 1\n'
    assert located(Compiler(), text) == [("E440", text.count("\n"), 7)]


def test_keywords_that_give_a_unit_type_different_drifts_are_e445() -> None:
    header = HEADER.replace('group heavy "Heavy"\n', 'group heavy "Heavy"\ngroup slow "Slow"\n')
    header = header.replace('mode bomber "Bomber" : heavy', 'mode bomber "Bomber" : heavy, slow')
    line = 'drift wind "Wind drift" : 1, heavy 0, slow 2\n'
    assert located(Compiler(), header + BODY + line) == [("E445", LINE + 1, 7)]
    agreeing = 'drift wind "Wind drift" : 1, heavy 0, slow 0\n'
    assert located(Compiler(), header + BODY + agreeing) == []
    own = 'drift wind "Wind drift" : 1, heavy 0, slow 2, bomber 1\n'
    assert located(Compiler(), header + BODY + own) == []


# ---- sheets, YAML, diff, house rules, docs ---------------------------------------------------


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("## Drift at the end of a move") : doc.index("## Worked examples")]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    start = section.index("```python\n") + len("```python\n")
    python = section[start : section.index("```", start)].splitlines()
    compiled = compile_snippet(Compiler(), terrain)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    module = import_rendered(compiled.ruleset, tmp_path, "drift_guide")
    names: dict[str, Any] = {n: getattr(module, n) for n in ("Board", "route_cost")}
    names["cheapest_route"] = module.cheapest_route
    asked = 0
    for i, line in enumerate(python):
        if line.startswith("#"):
            continue
        if i + 1 < len(python) and python[i + 1].startswith("# "):
            expected = ast.literal_eval(python[i + 1][2:])
            assert eval(line, names) == expected, line
            asked += 1
        else:
            exec(line, names)
    assert asked == 8


@typescript.TSC
def test_the_declarations_type_a_consumer_reading_the_drift(
    node: str, tmp_path: Path, pytestconfig: Any
) -> None:
    write_package(module_plan.build(_ruleset()), tmp_path)
    shutil.copy(Path(__file__).parent / "js" / "drift_consumer.ts", tmp_path / "consumer.ts")
    options = typescript.TSC_STRICT
    done = typescript.tsc(pytestconfig, [*options, "consumer.ts"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_rules_without_a_drift_line_keep_their_route_functions(tmp_path: Path) -> None:
    rs = _ruleset(NO_DRIFT)
    module = import_rendered(rs, tmp_path, "driftless_module")
    assert "wind" not in inspect.signature(module.route_cost).parameters
    assert "drift" not in module.Route._fields and "drift" not in module.FacingRoute._fields
    assert not hasattr(module, "_DRIFTS")


@pytest.mark.parametrize("rid", ["void_patrol", "hex_operational", "armour_inches"])
def test_bundled_modules_without_drift_are_as_they_were(rid: str) -> None:
    """The generated Python and JavaScript modules of rulesets without a ``drift`` line, as
    the branch renders them, are generated/'s byte for byte."""
    root = Path(__file__).parent.parent
    compiled = Compiler().compile_file(root / "rulesets" / f"{rid}.terrain")
    assert compiled.ruleset is not None and not compiled.ruleset.drifts
    assert render(compiled.ruleset) == (root / "generated" / "python" / f"{rid}.py").read_text(
        "utf-8"
    )
    files = js_target.emit(module_plan.build(compiled.ruleset))
    for name, text in files.items():
        if name.endswith((".js", ".d.ts")):
            assert text == (root / "generated" / "js" / rid / name).read_text("utf-8"), name


def test_drift_lines_survive_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + RULES, "air.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "entries: [1 when altitude below 3, balloon 2, heavy 0, glider 3]" in yaml_text
    yaml_path = tmp_path / "air.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "air.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p) for p in (yaml_path, back)]
    plain = [dataclasses.replace(c.ruleset, digest="") for c in found if c.ruleset is not None]
    assert len(plain) == 2 and plain[0] == plain[1], [str(d) for c in found for d in c.diagnostics]
    assert plain[0].drifts == _ruleset().drifts


def test_a_bad_drift_in_yaml_is_reported_at_its_place(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + RULES, "air.terrain")
    assert source is not None
    path = tmp_path / "air.yaml"
    path.write_text(to_yaml(source).replace("balloon 2", "balloon -2"), "utf-8")
    found = [
        (d.code, d.pos is not None) for d in Compiler().compile_file(path).diagnostics if d.is_error
    ]
    assert found == [("E442", True)]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Every other unit type: 1 place(s) downwind (only while Altitude is below 3)"),
        ("en", "Heavy: does not drift"),
        ("fr", "Balloon\u202f: 2 case(s) sous le vent"),
        ("fr", "Heavy\u202f: ne dérive pas"),
        ("de", "Balloon: 2 Feld(er) windabwärts"),
        ("de", "(nur solange Altitude unter 3 liegt)"),
        ("ru", "Balloon: 2 кл. по ветру"),
        ("ru", "Heavy: не сносится"),
    ],
)
def test_the_sheet_says_who_drifts_how_far_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "air.terrain"
    text = HEADER.replace("version 1.0.0\n", "version 1.0.0\nlanguages en fr de ru\n") + RULES
    ruleset.write_text(text, "utf-8")
    target = tmp_path / f"air.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert words in target.read_text("utf-8")


def test_diff_grades_a_drift_changed_added_or_removed_as_breaking() -> None:
    old = _ruleset()
    new = _ruleset(RULES.replace("balloon 2", "balloon 3"))
    assert [(c.level, c.action, c.path, c.message) for c in semantic.diff(old, new).changes] == [
        (
            "breaking",
            "changed",
            "wind",
            "Wind drift: 1 when altitude below 3, balloon 2, heavy 0, glider 3 -> "
            "1 when altitude below 3, balloon 3, heavy 0, glider 3",
        )
    ]
    gone = _ruleset(NO_DRIFT)
    assert [(c.level, c.action) for c in semantic.diff(old, gone).changes] == [
        ("breaking", "removed")
    ]


def test_a_house_rule_removes_the_drift_and_writes_its_own(tmp_path: Path) -> None:
    (tmp_path / "air.terrain").write_text(HEADER + RULES, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends air@^1.0\nremove wind\n'
        'drift gale "Gale" : 2, heavy 1\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert compiled.ruleset.drifts == (
        ir.Drift(
            "gale", compiled.ruleset.drifts[0].info, (ir.DriftEntry(2), ir.DriftEntry(1, "heavy"))
        ),
    )


@pytest.mark.parametrize(
    "body",
    [
        RULES,
        RULES.replace("state altitude", "# state altitude").replace(" when altitude below 3", ""),
    ],
    ids=["with a state", "without"],
)
def test_a_module_with_a_drift_line_comes_out_formatted_and_typed(
    tmp_path: Path, body: str
) -> None:
    import_rendered(_ruleset(body), tmp_path, "drift_layout")
    assert ruff_would_reformat(tmp_path) == []
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(MYPY_CACHE),
            str(tmp_path / "drift_layout.py"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout
