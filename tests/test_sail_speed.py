"""The unit's speed by the point of sail (issue 40): `speed by ARCS (running 6, reach 5, close
3, in_irons 0)`, a clause of a facing rule. Given the wind (`wind=`) and no allowance, the
route functions judge the move by the speed of the point of sail of the heading it starts with,
as if the caller gave it as the allowance (a kind of move scales it; `reachable` spends at most
it). An allowance given is the speed itself and the wind does not change it. The module, its
JavaScript twin and the reference semantics answer alike; misuse is E517, E518, E519 and E520
at line and column."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import facing as semantic_facing
from rulesdsl.versions import diff as semantic
from tests import turning_checks
from tests.conftest import compile_snippet, import_rendered
from tests.guide_answers import js_differential
from tests.test_js_target import node
from tests.test_sight_and_results import located

__all__ = ["node"]  # the fixture

SLOOPS = """ruleset sloops "Sloops"
version 1.0.0
units distance hex, cost MP
grid ocean "Ocean hex" : 1 hex, hex
mode sloop "Sloop"
mode galley "Galley"
move sweeps "Sweeps" : allowance times 2
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
facing sloop on ocean : turn 1 MP per hexside, turn mode 1 at speed 4 or less, turn mode 2, \\
    speed by points (running 6, reach 5, close 3, in_irons 0)
facing galley on ocean : turn 1 MP per hexside
"""

SAILING = (
    SLOOPS.replace(
        "speed by points (",
        "tack +1 MP, sail by points (running +0 MP, reach +0 MP, close +1 MP, "
        "in_irons impassable), speed by points (",
    )
    + 'state crew "Crew" : 0 to 3, shoal -1\n'
)
"""The same rules with the sloop tacking and paying more close-hauled, and a crew state."""

SIDES = SLOOPS.replace(
    SLOOPS[SLOOPS.index("arcs points") : SLOOPS.index("facing galley")],
    'arcs sides "Sides" : hexsides {\n  ahead "Ahead" | 0 to 0\n  right "Right" | 1 to 2\n'
    '  behind "Behind" | 3 to 3\n  left "Left" | 4 to 5\n}\n'
    "facing sloop on ocean : turn 1 MP per hexside, speed by sides (ahead 0, right 2, \\\n"
    "    behind 6, left 4)\n",
)
"""The rules with arcs that tell the left of the bow from the right."""


def _ruleset(text: str = SLOOPS) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), text)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def sloops(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset()
    return rs, import_rendered(rs, tmp_path_factory.mktemp("sloops"), "speed_module")


def _board(module: Any) -> Any:
    return module.Board({(q, r): ("deep",) for q in range(8) for r in range(4)}, grid="ocean")


def _reference(rs: ir.Ruleset, route: Any, **kwargs: Any) -> Any:
    """The reference semantics' answer for the actions of ``route`` (a FacingRoute)."""
    acts = [
        semantic_facing.Action("turn", heading=s.heading)
        if s.start == s.end
        else semantic_facing.Action(s.move, s.features, s.edge, heading=s.heading)
        for s in route.steps
    ]
    return semantic_facing.route(rs, "sloop", acts, **kwargs)


EAST = [((0, 0), 0), ((1, 0), 0), ((2, 0), 0), ((3, 0), 0), ((4, 0), 0)]
"""Four steps east (heading 0) over deep water: 4 MP."""


@pytest.mark.parametrize(
    ("wind", "speed", "legal"),
    [(3, 6.0, True), (2, 5.0, True), (4, 5.0, True), (1, 3.0, False), (0, 0.0, False)],
    ids=str,
)
def test_the_speed_is_the_point_of_sails_where_the_move_starts(
    sloops: tuple[ir.Ruleset, Any], wind: int, speed: float, legal: bool
) -> None:
    rs, module = sloops
    route = module.route_cost(_board(module), "sloop", EAST, None, wind=wind)
    assert (route.speed, route.total, route.legal) == (speed, 4.0, legal)
    assert route.reason == ("" if legal else "the route costs more than the allowance")
    ref = _reference(rs, route, wind=wind, start=0)
    assert (ref.total, ref.legal, ref.reason) == (4.0, legal, route.reason)


def test_a_wind_to_the_left_of_the_bow_gives_the_speed_of_the_arc_on_the_left(
    tmp_path: Path,
) -> None:
    """Headings count counter-clockwise, bearings clockwise: a wind one heading above the
    unit's (heading 1, north-east, for a unit heading east) is 60 degrees to the left."""
    rs = _ruleset(SIDES)
    module = import_rendered(rs, tmp_path, "speed_sides")
    left, right = (module.route_cost(_board(module), "sloop", EAST, None, wind=w) for w in (1, 5))
    assert (left.speed, right.speed) == (4.0, 2.0)
    assert (left.legal, right.legal) == (True, False)
    assert _reference(rs, right, wind=5, start=0).legal is False
    assert _reference(rs, left, wind=1, start=0).legal is True


def test_the_speed_picks_the_turn_mode(sloops: tuple[ir.Ruleset, Any]) -> None:
    _, module = sloops
    board = _board(module)
    turn = [((0, 1), 0), ((1, 1), 0), ((1, 1), 5), ((1, 2), 5)]
    close = module.route_cost(board, "sloop", turn, None, wind=1)  # speed 3: turn mode 1
    running = module.route_cost(board, "sloop", turn, None, wind=3)  # speed 6: turn mode 2
    assert (close.turn_mode, close.legal) == (1, True)
    assert (running.turn_mode, running.legal) == (2, False)


def test_an_allowance_given_is_the_speed_and_no_wind_leaves_it_unsaid(
    sloops: tuple[ir.Ruleset, Any],
) -> None:
    _, module = sloops
    board = _board(module)
    given = module.route_cost(board, "sloop", EAST, 4, wind=0)
    assert (given.speed, given.legal) == (4, True)
    unsaid = module.route_cost(board, "sloop", EAST, None)
    assert unsaid.legal and unsaid.speed == float("inf")
    with pytest.raises(module.InvalidArgument, match="must be 0 to 5"):
        module.route_cost(board, "sloop", EAST, None, wind=6)
    # the galley has no speed by the wind
    assert module.route_cost(board, "galley", EAST, None, wind=1).speed == float("inf")


def test_a_kind_of_move_scales_the_speed_of_the_point_of_sail(
    sloops: tuple[ir.Ruleset, Any],
) -> None:
    _, module = sloops
    route = module.route_cost(_board(module), "sloop", EAST, None, wind=1, move="sweeps")
    assert (route.speed, route.legal) == (6.0, True)


def test_cheapest_route_and_reachable_read_the_speed_of_the_point_of_sail(
    sloops: tuple[ir.Ruleset, Any],
) -> None:
    _, module = sloops
    board = _board(module)
    assert module.cheapest_route(board, "sloop", ((0, 1), 0), (4, 1), wind=1) is None
    reach = module.cheapest_route(board, "sloop", ((0, 1), 0), (4, 1), wind=2)
    assert reach is not None and (reach.total, reach.speed) == (4.0, 5.0)
    running = module.reachable(board, "sloop", ((0, 1), 0), 12, wind=3)
    assert (running.speed, running.budget, max(running.values())) == (6.0, 6.0, 6.0)
    assert ((6, 1), 0) in running and ((7, 1), 0) not in running
    irons = module.reachable(board, "sloop", ((0, 1), 0), 12, wind=0)
    assert dict(irons) == {((0, 1), 0): 0.0}
    assert module.reachable(board, "sloop", ((0, 1), 0), 2, wind=3).budget == 2


def test_the_module_answers_as_the_semantics_on_random_moves(tmp_path: Path) -> None:
    rs = _ruleset(SAILING)
    module = import_rendered(rs, tmp_path, "speed_random")
    board = _board(module)
    rng = random.Random(40)
    seen = set()
    for _ in range(200):
        place, heading = (rng.randrange(8), rng.randrange(4)), rng.randrange(6)
        walk, start = [(place, heading)], heading
        for _ in range(rng.randint(1, 7)):
            dq, dr = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))[heading]
            nxt = (place[0] + dq, place[1] + dr)
            if nxt in board.places and rng.random() < 0.7:
                place = nxt
            else:
                heading = (heading + rng.choice([1, 5])) % 6
            walk.append((place, heading))
        wind, crew = rng.randrange(6), {"crew": rng.randint(0, 3)}
        route = module.route_cost(board, "sloop", walk, None, wind=wind, state=crew)
        ref = _reference(rs, route, wind=wind, state=crew, start=start)
        total = getattr(route.total, "value", route.total)
        assert (total, route.legal, route.reason) == (
            getattr(ref.total, "marker", ref.total),
            ref.legal,
            ref.reason,
        )
        seen.add((route.speed, route.legal))
    assert {(0.0, False), (3.0, False), (5.0, True), (6.0, True)} <= seen


@pytest.mark.parametrize(
    ("code", "old", "new", "line", "column", "said"),
    [
        ("E517", "speed by points (", "speed by pionts (", 19, 14, "no arcs 'pionts'"),
        ("E518", "running 6, ", "", 19, 5, "gives no speed for running"),
        ("E519", "reach 5", "raech 5", 19, 33, "'raech' is no arc of 'points'"),
        ("E519", "close 3,", "close 3, close 4,", 19, 51, "the arc 'close' is given twice"),
        ("E520", "reach 5", "reach -1", 19, 39, "a speed of -1 by the point of sail"),
    ],
)
def test_speed_by_misuse_is_reported_at_its_line_and_column(
    code: str, old: str, new: str, line: int, column: int, said: str
) -> None:
    assert old in SLOOPS
    text = SLOOPS.replace(old, new)
    assert located(Compiler(), text) == [(code, line, column)]
    assert said in next(d.message for d in compile_snippet(Compiler(), text).diagnostics)


@pytest.mark.parametrize("rules", [SLOOPS, SAILING, SIDES], ids=["sloops", "sailing", "sides"])
def test_js_module_answers_sailing_speed_questions_as_python(
    node: str, tmp_path: Path, rules: str
) -> None:
    rs = _ruleset(rules)
    answers = [str(e) for e in js_differential(rs, "sail_speed", 40, tmp_path)]
    # the questions reach the rules (the Python answers; the JavaScript agrees)
    assert any("the route costs more than the allowance" in a for a in answers)
    assert any("argument 'wind'" in a for a in answers)


# ---- YAML, sheets, diff, house rules --------------------------------------------------------


def test_speed_by_survives_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    found = turning_checks.round_trip(SLOOPS, tmp_path, "speed by points (running 6, reach 5")
    assert [(f.speed_by, f.speeds) for f in found.facings] == [
        ("points", (("in_irons", 0.0), ("close", 3.0), ("reach", 5.0), ("running", 6.0))),
        ("", ()),
    ]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Its speed by the point of sail (Points of sail, the wind's bearing from the"),
        ("en", "move with): In irons 0; Close-hauled 3; Reach 5; Running 6."),
        ("fr", "Sa vitesse selon l"),
        ("de", "Seine Geschwindigkeit je nach Kurs zum Wind"),
        ("ru", "Его скорость по курсу относительно ветра"),  # noqa: RUF001
    ],
)
def test_the_sheet_says_the_speed_at_each_point_of_sail_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    assert words in turning_checks.sheet_text(SLOOPS, tmp_path, lang)


def test_diff_grades_a_lower_speed_at_a_point_of_sail_as_breaking() -> None:
    old = _ruleset()
    slower = _ruleset(SLOOPS.replace("reach 5", "reach 4"))
    assert [(c.level, c.path, c.message) for c in semantic.diff(old, slower).changes] == [
        ("breaking", "facing.sloop.speed_by.reach", "sloop: speed 5 -> 4 reach"),
    ]
    assert [(c.level, c.path) for c in semantic.diff(slower, old).changes] == [
        ("rules", "facing.sloop.speed_by.reach"),
    ]
    galley = "facing galley on ocean : turn 1 MP per hexside"
    speeds = ", speed by points (running 4, reach 4, close 4, in_irons 4)"
    added = _ruleset(SLOOPS.replace(galley, galley + speeds))
    assert [(c.level, c.path) for c in semantic.diff(old, added).changes] == [
        ("breaking", "facing.galley.speed_by"),
    ]


def test_a_house_rule_writes_the_facing_line_again_with_its_own_speeds(tmp_path: Path) -> None:
    (tmp_path / "sloops.terrain").write_text(SLOOPS, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends sloops@^1.0\n'
        "facing sloop on ocean : turn 1 MP per hexside, speed by points (running 5, \\\n"
        "    reach 5, close 2, in_irons 0)\n",
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    sloop = next(f for f in compiled.ruleset.facings if f.mode == "sloop")
    assert dict(sloop.speeds) == {"running": 5.0, "reach": 5.0, "close": 2.0, "in_irons": 0.0}


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("#### Speed by the point of sail") : doc.index("#### Turns in one")]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    header = 'ruleset demo "Demo"\nversion 1.0.0\nlanguages en fr\nunits distance hex, cost MP\n'
    compiled = compile_snippet(Compiler(), header + terrain, tmp_path)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = import_rendered(compiled.ruleset, tmp_path, "speed_guide")
    board = m.Board({(q, r): ("open_water",) for q in range(8) for r in range(3)}, grid="channel")
    route = [((q, 1), 0) for q in range(5)]
    costs = {w: m.route_cost(board, "sloop", route, None, wind=w) for w in range(4)}
    assert [(costs[w].speed, costs[w].legal) for w in (3, 2, 1)] == [
        (6.0, True),
        (5.0, True),
        (3.0, False),
    ]
    assert costs[3].total == 4.0
    assert costs[1].reason == "the route costs more than the allowance"
    assert (costs[1].turn_mode, costs[3].turn_mode) == (1, 2)
    assert dict(m.reachable(board, "sloop", ((0, 1), 0), 12, wind=0)) == {((0, 1), 0): 0.0}
    for shown in (
        '`route_cost(board, "sloop", route, None,\nwind=3).speed` is 6.0',
        "on a reach, speed 5, legal",
        "close-hauled, speed 3, and the move is refused with `the route costs more than the\n"
        "allowance`",
        'reachable(board, "sloop", ((0, 1), 0), 12, wind=0)`\nholds only its own hex',
        "Close-hauled 3; Reach 5;\nRunning 6.",
    ):
        assert shown in section, shown


EXAMPLE = """\
example speeds "Speed by the wind" {
  route_cost(sloop, (deep), (deep), (deep), (deep), (deep), wind=2) = 4 MP
  route_cost(sloop, (deep), (deep), (deep), (deep), (deep), wind=1) = 4 MP, illegal
  route_cost(sloop, (deep), (deep), (deep), (deep), (deep), wind=1, allowance=4 MP) = 4 MP
}
"""
"""Heading 0 at the start: on a reach (speed 5), close-hauled (speed 3), or the speed given."""


def test_a_worked_example_states_the_speed_by_the_wind(tmp_path: Path) -> None:
    compiled = compile_snippet(Compiler(), SLOOPS + EXAMPLE, tmp_path)
    assert [str(d) for d in compiled.diagnostics if d.is_error] == []
    wrong = compile_snippet(Compiler(), SLOOPS + EXAMPLE.replace(" MP, illegal", " MP"), tmp_path)
    assert [d.code for d in wrong.diagnostics if d.is_error] == ["E270"]
