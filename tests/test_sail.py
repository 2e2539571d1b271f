"""The point of sail in step costs (issue 40): `sail by ARCS (running +0 MP, reach +1 MP, close
+2 MP, in_irons impassable)`, a clause of a facing rule. The wind (`wind=`, the heading it blows
from) seen from the unit's heading falls in an arc of ARCS; each step (forward, backward,
sideslip: the heading kept) costs that arc's amount more, or is impassable. route_cost says the
arc of an impassable step; cheapest_route and reachable go round it (beating to windward). The
module, its JavaScript twin and the reference semantics answer alike; misuse is E496, E497,
E510, E511 and E512 at line and column; a ruleset without the clause emits what it did."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import facing as semantic_facing
from rulesdsl.versions import diff as semantic
from tests import turning_checks
from tests.conftest import compile_snippet, import_rendered
from tests.guide_answers import js_differential
from tests.test_js_target import node
from tests.test_sight_and_results import located

__all__ = ["node"]  # the fixture

SHIPS = """ruleset ships "Ships"
version 1.0.0
units distance hex, cost MP
grid ocean "Ocean hex" : 1 hex, hex
mode brig "Brig"
mode galley "Galley"
layer waters "Waters" one per place {
  deep "Deep water"  | 1
  shoal "Shoal"      | 2
}
arcs points "Points of sail" {
  in_irons "In irons"   | -30 to 30
  close "Close-hauled"  | 30 to 90, -90 to -30
  reach "Reach"         | 90 to 150, -150 to -90
  running "Running"     | 150 to 210
}
facing brig on ocean : turn 1 MP per hexside, sail by points (running +0 MP, reach +1 MP, \\
    close +2 MP, in_irons impassable)
facing galley on ocean : turn 1 MP per hexside
"""

TACKING = (
    SHIPS.replace(
        "facing brig on ocean : turn 1 MP per hexside,",
        "facing brig on ocean : turn 1 MP per hexside, tack +1 MP, backward +1 MP,",
    )
    + 'state crew "Crew" : 0 to 3, shoal -1\n'
)
"""The same rules with the brig tacking and moving backward, and a crew state besides."""


SIDES = SHIPS.replace(
    SHIPS[SHIPS.index("arcs points") : SHIPS.index("facing galley")],
    'arcs sides "Sides" : hexsides {\n  ahead "Ahead" | 0 to 0\n  right "Right" | 1 to 2\n'
    '  behind "Behind" | 3 to 3\n  left "Left" | 4 to 5\n}\n'
    "facing brig on ocean : turn 1 MP per hexside, sail by sides (ahead impassable, \\\n"
    "    right +3 MP, behind +0 MP, left +1 MP)\n",
)
"""The rules with arcs that tell the left of the bow from the right."""


def _ruleset(text: str = SHIPS) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), text)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def ships(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset()
    return rs, import_rendered(rs, tmp_path_factory.mktemp("ships"), "sail_module")


def _board(module: Any, shoals: tuple[Any, ...] = ()) -> Any:
    places = {
        (q, r): ("shoal",) if (q, r) in shoals else ("deep",) for q in range(6) for r in range(4)
    }
    return module.Board(places, grid="ocean")


def _reference(rs: ir.Ruleset, route: Any, mode: str = "brig", **kwargs: Any) -> Any:
    """The reference semantics' answer for the actions of ``route`` (a FacingRoute)."""
    acts = [
        semantic_facing.Action("turn", heading=s.heading)
        if s.start == s.end
        else semantic_facing.Action(s.move, s.features, s.edge, heading=s.heading)
        for s in route.steps
    ]
    return semantic_facing.route(rs, mode, acts, **kwargs)


EAST = [((0, 0), 0), ((1, 0), 0), ((2, 0), 0)]
"""Two steps east (heading 0) over deep water."""


@pytest.mark.parametrize(
    ("wind", "total"), [(3, 2.0), (2, 4.0), (4, 4.0), (1, 6.0), (5, 6.0)], ids=str
)
def test_a_step_costs_more_by_the_point_of_sail(
    ships: tuple[ir.Ruleset, Any], wind: int, total: float
) -> None:
    rs, module = ships
    route = module.route_cost(_board(module), "brig", EAST, 9, wind=wind)
    assert (route.total, route.legal) == (total, True)
    ref = _reference(rs, route, allowance=9, wind=wind)
    assert (ref.total, ref.legal) == (total, True)


def test_a_step_in_irons_is_impassable_and_says_the_arc(ships: tuple[ir.Ruleset, Any]) -> None:
    rs, module = ships
    route = module.route_cost(_board(module), "brig", EAST, 9, wind=0)
    assert (route.total, route.legal) == (module.IMPASSABLE, False)
    assert route.reason == "step 1 is impassable (in_irons by the wind)"
    ref = _reference(rs, route, allowance=9, wind=0)
    assert (ref.legal, ref.reason) == (False, route.reason)
    # a turn is no step: turning through the wind costs the turns only
    turns = module.route_cost(
        _board(module), "brig", [((0, 0), 5), ((0, 0), 0), ((0, 0), 1)], 9, wind=0
    )
    assert (turns.total, turns.legal) == (2.0, True)
    # the galley does not sail by the wind
    assert module.route_cost(_board(module), "galley", EAST, 9, wind=0).total == 2.0


def test_a_unit_that_sails_needs_the_wind(ships: tuple[ir.Ruleset, Any]) -> None:
    _, module = ships
    with pytest.raises(module.InvalidArgument, match="must be given: the unit sails by it"):
        module.route_cost(_board(module), "brig", EAST, 9)
    with pytest.raises(module.InvalidArgument, match="must be given: the unit sails by it"):
        module.reachable(_board(module), "brig", ((0, 0), 0), 3)
    assert module.route_cost(_board(module), "galley", EAST, 9).total == 2.0


def test_cheapest_route_beats_to_windward(ships: tuple[ir.Ruleset, Any]) -> None:
    _, module = ships
    board = _board(module)
    route = module.cheapest_route(board, "brig", ((0, 1), 0), (3, 1), wind=0)
    assert route is not None and route.legal
    assert all(s.heading != 0 for s in route.steps if s.start != s.end)  # never in irons
    downwind = module.cheapest_route(board, "brig", ((0, 1), 0), (3, 1), wind=3)
    assert downwind is not None and downwind.total == 3.0
    assert route.total > downwind.total


def test_reachable_reads_the_point_of_sail(ships: tuple[ir.Ruleset, Any]) -> None:
    _, module = ships
    board = _board(module)
    running = module.reachable(board, "brig", ((0, 1), 0), 2, wind=3)
    assert running[(2, 1), 0] == 2.0
    close = module.reachable(board, "brig", ((0, 1), 0), 3, wind=1)
    assert close[(1, 1), 0] == 3.0 and ((2, 1), 0) not in close
    irons = module.reachable(board, "brig", ((0, 1), 0), 6, wind=0)
    assert ((1, 1), 0) not in irons


def test_the_module_answers_as_the_semantics_on_random_moves(tmp_path: Path) -> None:
    rs = _ruleset(TACKING)
    module = import_rendered(rs, tmp_path, "sail_random")
    rng = random.Random(40)
    seen = set()
    for _ in range(300):
        board = _board(module, tuple((rng.randrange(6), rng.randrange(4)) for _ in range(6)))
        place, heading = (rng.randrange(6), rng.randrange(4)), rng.randrange(6)
        walk = [(place, heading)]
        for _ in range(rng.randint(1, 6)):
            if rng.random() < 0.6:
                dq, dr = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))[heading]
                nxt = (place[0] + dq, place[1] + dr)
                if nxt in board.places:
                    place = nxt
                    walk.append((place, heading))
                    continue
            heading = (heading + rng.choice([1, 5])) % 6
            walk.append((place, heading))
        wind, crew = rng.randrange(6), {"crew": rng.randint(0, 3)}
        route = module.route_cost(board, "brig", walk, 6, wind=wind, state=crew)
        ref = _reference(rs, route, allowance=6, wind=wind, state=crew)
        total = getattr(route.total, "value", route.total)
        assert (total, route.legal, route.reason) == (
            getattr(ref.total, "marker", ref.total),
            ref.legal,
            ref.reason,
        )
        seen.add(route.reason.split(" (")[0][-10:] if "impassable (" in route.reason else "")
    assert len(seen) > 1  # some moves went in irons


@pytest.mark.parametrize(
    ("code", "old", "new", "line", "column"),
    [
        ("E496", "sail by points (", "sail by pionts (", 17, 55),
        ("E497", "running +0 MP, ", "", 17, 47),
        ("E510", "reach +1 MP", "raech +1 MP", 17, 78),
        ("E511", "close +2 MP,", "close +2 MP, close +3 MP,", 18, 18),
        ("E512", "running +0 MP, reach +1 MP", "running impassable, reach impassable", 17, 47),
    ],
)
def test_sail_by_misuse_is_reported_at_its_line_and_column(
    code: str, old: str, new: str, line: int, column: int
) -> None:
    assert old in SHIPS
    text = SHIPS.replace(old, new)
    if code == "E512":
        text = text.replace("close +2 MP", "close impassable")
    assert located(Compiler(), text) == [(code, line, column)]


@pytest.mark.parametrize("rules", [SHIPS, TACKING, SIDES], ids=["ships", "tacking", "sides"])
def test_js_module_answers_sailing_questions_as_python(
    node: str, tmp_path: Path, rules: str
) -> None:
    rs = _ruleset(rules)
    answers = [str(e) for e in js_differential(rs, "sail", 40, tmp_path)]
    # the questions reach the rules (the Python answers; the JavaScript agrees)
    assert any("by the wind)" in a for a in answers)
    assert any("argument 'wind' must be given" in a for a in answers)


# ---- YAML, sheets, diff, house rules --------------------------------------------------------


def test_sail_by_survives_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    found = turning_checks.round_trip(SHIPS, tmp_path, "sail by points (running +0 MP")
    assert [(f.sail_by, f.sail) for f in found.facings] == [
        ("points", (("in_irons", None), ("close", 2.0), ("reach", 1.0), ("running", 0.0))),
        ("", ()),
    ]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "By the point of sail (Points of sail, the wind's bearing from the heading)"),
        ("en", "a step costs more: In irons, no step; Close-hauled +2 MP; Reach +1 MP; Running"),
        ("fr", "un pas coûte plus"),
        ("de", "Je nach Kurs zum Wind"),
        ("ru", "В зависимости от курса относительно ветра"),  # noqa: RUF001
    ],
)
def test_the_sheet_says_the_cost_of_each_point_of_sail_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    assert words in turning_checks.sheet_text(SHIPS, tmp_path, lang)


def test_diff_grades_a_dearer_or_impassable_point_of_sail_as_breaking() -> None:
    old = _ruleset()
    cheaper = _ruleset(SHIPS.replace("close +2 MP", "close +1 MP"))
    assert [(c.level, c.path, c.message) for c in semantic.diff(cheaper, old).changes] == [
        ("breaking", "facing.brig.sail.close", "brig: close +1 -> +2"),
    ]
    assert [(c.level, c.path) for c in semantic.diff(old, cheaper).changes] == [
        ("rules", "facing.brig.sail.close"),
    ]
    barred = _ruleset(SHIPS.replace("reach +1 MP", "reach impassable"))
    assert [(c.level, c.message) for c in semantic.diff(old, barred).changes] == [
        ("breaking", "brig: reach +1 -> impassable"),
    ]
    galley = "facing galley on ocean : turn 1 MP per hexside"
    sails = ", sail by points (running +0 MP, reach +0 MP, close +0 MP, in_irons +1 MP)"
    plain = _ruleset(SHIPS.replace(galley, galley + sails))
    assert [(c.level, c.path) for c in semantic.diff(old, plain).changes] == [
        ("breaking", "facing.galley.sail"),
    ]


def test_a_house_rule_writes_the_facing_line_again_with_its_own_points_of_sail(
    tmp_path: Path,
) -> None:
    (tmp_path / "ships.terrain").write_text(SHIPS, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends ships@^1.0\n'
        "facing brig on ocean : turn 1 MP per hexside, sail by points (running +0 MP, \\\n"
        "    reach +0 MP, close +1 MP, in_irons +4 MP)\n",
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    brig = next(f for f in compiled.ruleset.facings if f.mode == "brig")
    assert dict(brig.sail) == {"running": 0.0, "reach": 0.0, "close": 1.0, "in_irons": 4.0}


EXAMPLE = """\
example beating "Beating" {
  route_cost(brig, (deep), (deep), wind=3) = 1 MP
  route_cost(brig, (deep), (deep), wind=1) = 3 MP
  route_cost(brig, (deep), turn, (deep), wind=3) = 3 MP
}
"""
"""Heading 0 at the start, 1 after the turn: running (+0), close-hauled (+2), on a reach (+1)."""


def test_a_worked_example_states_the_point_of_sail_by_the_wind(tmp_path: Path) -> None:
    compiled = compile_snippet(Compiler(), SHIPS + EXAMPLE, tmp_path)
    assert [str(d) for d in compiled.diagnostics if d.is_error] == []
    wrong = compile_snippet(Compiler(), SHIPS + EXAMPLE.replace("= 3 MP\n}", "= 2 MP\n}"), tmp_path)
    assert [d.code for d in wrong.diagnostics if d.is_error] == ["E270"]


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("#### The point of sail") : doc.index("#### Turns in one place")]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    header = 'ruleset demo "Demo"\nversion 1.0.0\nlanguages en fr\nunits distance hex, cost MP\n'
    compiled = compile_snippet(Compiler(), header + terrain, tmp_path)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = import_rendered(compiled.ruleset, tmp_path, "sail_guide")
    board = m.Board({(q, r): ("open_water",) for q in range(5) for r in range(4)}, grid="sound")
    route = [((0, 1), 0), ((1, 1), 0), ((2, 1), 0)]
    costs = {w: m.route_cost(board, "cutter", route, 9, wind=w) for w in range(4)}
    assert [costs[w].total for w in (3, 2, 1)] == [2.0, 4.0, 6.0]
    assert costs[0].reason == "step 1 is impassable (in_irons by the wind)"
    beat = m.cheapest_route(board, "cutter", ((0, 1), 0), (3, 1), wind=0)
    assert beat is not None and beat.steps[0].heading == 1
    assert all(s.heading != 0 for s in beat.steps if s.start != s.end)
    for shown in (
        '`route_cost(board, "cutter", route, 9, wind=3).total` is 2.0',
        "reach, 4 MP",
        "close-hauled, 6 MP",
        "`step 1 is impassable (in_irons by the wind)`",
        "turns to heading 1 and\nbeats close-hauled",
        "Close-hauled\n+2 MP; Reach +1 MP; Running +0 MP.",
    ):
        assert shown in section, shown


def test_a_wind_to_the_left_of_the_bow_is_in_the_arc_on_the_left(tmp_path: Path) -> None:
    """Headings count counter-clockwise, bearings clockwise: a wind one heading above the
    unit's (heading 1, north-east, for a unit heading east) is 60 degrees to the left."""
    rs = _ruleset(SIDES)
    module = import_rendered(rs, tmp_path, "sail_sides")
    step = [((0, 0), 0), ((1, 0), 0)]
    board = _board(module)
    left, right = (module.route_cost(board, "brig", step, 9, wind=w) for w in (1, 5))
    assert (left.total, right.total) == (2.0, 4.0)
    assert _reference(rs, left, allowance=9, wind=1).total == 2.0
    assert _reference(rs, right, allowance=9, wind=5).total == 4.0


def test_the_yaml_form_reports_a_misspelt_arcs_block_at_its_place(tmp_path: Path) -> None:
    source = tmp_path / "ships.terrain"
    source.write_text(SHIPS.replace("sail by points", "sail by pionts"), "utf-8")
    yaml_path = tmp_path / "ships.yaml"
    assert main(["convert", str(source), "-o", str(yaml_path)]) == 0
    compiled = Compiler().compile_file(yaml_path)
    line = next(
        i for i, text in enumerate(yaml_path.read_text("utf-8").splitlines(), 1) if "pionts" in text
    )
    assert [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.pos] == [
        ("E496", line, 15)
    ]
