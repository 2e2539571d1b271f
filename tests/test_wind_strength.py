"""The wind's strength in step costs (issue 40): `sail when (calm impassable, gale +1 MP)`, a
clause of a facing rule. The caller gives the wind as its heading and strength,
`wind=(3, "gale")` (JavaScript `wind: [3, "gale"]`); each step of the unit costs what the
strength adds, or is impassable; a strength the rule does not name adds nothing, one no rule
names is unknown, and a unit whose steps cost by it needs it. The module, its JavaScript twin
and the reference semantics answer alike; misuse is E523 and E524 at line and column, a worked
example's E525 and E526 at the argument."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen.plan import examples as plan_examples
from rulesdsl.codegen.python import examples as python_examples
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import facing as semantic_facing
from rulesdsl.versions import diff as semantic
from tests import turning_checks
from tests.conftest import compile_snippet, import_rendered
from tests.guide_answers import js_differential
from tests.test_examples_route_inputs import js_answers, replay_python
from tests.test_js_target import node
from tests.test_sight_and_results import located

__all__ = ["node"]  # the fixture

LUGGERS = """ruleset luggers "Luggers"
version 1.0.0
units distance hex, cost MP
grid ocean "Ocean hex" : 1 hex, hex
mode lugger "Lugger"
mode galley "Galley"
layer waters "Waters" one per place {
  deep "Deep water"  | 1
  shoal "Shoal"      | 2
}
facing lugger on ocean : turn 1 MP per hexside, sail when (calm impassable, breeze +0 MP, \\
    gale +1 MP)
facing galley on ocean : turn 1 MP per hexside
"""

SAILING = (
    LUGGERS.replace(
        "sail when (",
        "tack +1 MP, sail by points (running +0 MP, reach +0 MP, close +1 MP, "
        "in_irons impassable), speed by points (running 6, reach 5, close 3, in_irons 0), "
        "speed when (gale 2), sail when (",
    )
    + 'arcs points "Points of sail" {\n  in_irons "In irons" | -30 to 30\n'
    '  close "Close-hauled" | 30 to 90, -90 to -30\n  reach "Reach" | 90 to 150, -150 to -90\n'
    '  running "Running" | 150 to 210\n}\n'
    + 'state crew "Crew" : 0 to 3, shoal -1\n'
    + 'drift leeway "Leeway" : 1\n'
)
"""The same rules with the lugger tacking, paying more close-hauled, its speed by the point of
sail but 2 in a gale, a crew state, drift."""

GALLEY = "facing galley on ocean : turn 1 MP per hexside"
SPEEDS = LUGGERS.replace(
    "    gale +1 MP)", "    gale +1 MP), speed when (calm 0, breeze 6, gale 3)"
).replace(GALLEY, GALLEY + ", speed when (calm 2)")
"""The lugger's speed by the wind's strength: 3 in a gale, 6 in a breeze; the galley's 2 in a
calm, and its steps cost the same in every wind."""


def _ruleset(text: str = LUGGERS) -> ir.Ruleset:
    compiled = compile_snippet(Compiler(), text)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


@pytest.fixture(scope="module")
def luggers(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Ruleset, Any]:
    rs = _ruleset()
    return rs, import_rendered(rs, tmp_path_factory.mktemp("luggers"), "strength_module")


def _board(module: Any) -> Any:
    return module.Board({(q, r): ("deep",) for q in range(8) for r in range(4)}, grid="ocean")


EAST = [((0, 0), 0), ((1, 0), 0), ((2, 0), 0), ((3, 0), 0)]
"""Three steps east (heading 0) over deep water: 3 MP."""


def _reference(rs: ir.Ruleset, route: Any, **kwargs: Any) -> Any:
    """The reference semantics' answer for the lugger's actions of ``route`` (a FacingRoute)."""
    acts = [
        semantic_facing.Action("turn", heading=s.heading)
        if s.start == s.end
        else semantic_facing.Action(s.move, s.features, s.edge, heading=s.heading)
        for s in route.steps
    ]
    return semantic_facing.route(rs, "lugger", acts, **kwargs)


@pytest.mark.parametrize(
    ("strength", "total", "reason"),
    [
        ("gale", 6.0, ""),
        ("breeze", 3.0, ""),
        ("calm", "impassable", "step 1 is impassable (calm wind)"),
    ],
)
def test_each_step_costs_what_the_wind_s_strength_adds(
    luggers: tuple[ir.Ruleset, Any], strength: str, total: Any, reason: str
) -> None:
    rs, module = luggers
    route = module.route_cost(_board(module), "lugger", EAST, wind=(3, strength))
    assert (getattr(route.total, "value", route.total), route.reason) == (total, reason)
    ref = _reference(rs, route, wind=3, strength=strength)
    assert (getattr(ref.total, "marker", ref.total), ref.reason) == (total, reason)


def test_a_unit_that_reads_the_strength_needs_it_and_others_ignore_it(
    luggers: tuple[ir.Ruleset, Any],
) -> None:
    _, module = luggers
    board = _board(module)
    with pytest.raises(module.InvalidArgument, match=r"must be \(heading, strength\)"):
        module.route_cost(board, "lugger", EAST, wind=3)
    with pytest.raises(module.InvalidArgument, match="must be given"):
        module.route_cost(board, "lugger", EAST)
    with pytest.raises(module.UnknownName, match="did you mean 'gale'"):
        module.route_cost(board, "lugger", EAST, wind=(3, "gael"))
    with pytest.raises(module.ArgumentTypeError, match=r"must be an int or \(heading, strength\)"):
        module.route_cost(board, "lugger", EAST, wind=(3, 2))
    with pytest.raises(module.InvalidArgument, match="must be 0 to 5"):
        module.route_cost(board, "lugger", EAST, wind=(6, "gale"))
    assert module.route_cost(board, "lugger", EAST, wind=[3, "gale"]).total == 6.0  # a list too
    assert module.route_cost(board, "galley", EAST, wind=(3, "calm")).total == 3.0
    assert module.route_cost(board, "galley", EAST, wind=3).total == 3.0


def test_cheapest_route_and_reachable_pay_the_strength(luggers: tuple[ir.Ruleset, Any]) -> None:
    _, module = luggers
    board = _board(module)
    gale = module.cheapest_route(board, "lugger", ((0, 1), 0), (3, 1), wind=(3, "gale"))
    assert gale is not None and gale.total == 6.0
    assert module.cheapest_route(board, "lugger", ((0, 1), 0), (3, 1), wind=(3, "calm")) is None
    reach = module.reachable(board, "lugger", ((0, 1), 0), 4, wind=(3, "gale"))
    assert reach[((2, 1), 0)] == 4.0 and ((3, 1), 0) not in reach
    calm = module.reachable(board, "lugger", ((0, 1), 0), 4, wind=(3, "calm"))
    assert {place for place, _ in calm} == {(0, 1)}  # it turns, it does not step


def test_the_module_answers_as_the_semantics_on_random_moves(tmp_path: Path) -> None:
    rs = _ruleset(SAILING)
    module = import_rendered(rs, tmp_path, "strength_random")
    board = module.Board(
        {(q, r): ("shoal" if (q + r) % 3 == 0 else "deep",) for q in range(8) for r in range(4)},
        grid="ocean",
    )
    rng = random.Random(40)
    seen = set()
    for _ in range(200):
        place, heading = (rng.randrange(8), rng.randrange(4)), rng.randrange(6)
        walk = [(place, heading)]
        for _ in range(rng.randint(1, 6)):
            dq, dr = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))[heading]
            nxt = (place[0] + dq, place[1] + dr)
            if nxt in board.places and rng.random() < 0.7:
                place = nxt
            else:
                heading = (heading + rng.choice([1, 5])) % 6
            walk.append((place, heading))
        wind, strength = rng.randrange(6), rng.choice(["calm", "breeze", "gale"])
        crew = {"crew": rng.randint(0, 3)}
        route = module.route_cost(board, "lugger", walk, wind=(wind, strength), state=crew)
        ref = _reference(rs, route, wind=wind, strength=strength, state=crew, start=walk[0][1])
        total = getattr(route.total, "value", route.total)
        assert (total, route.legal, route.reason) == (
            getattr(ref.total, "marker", ref.total),
            ref.legal,
            ref.reason,
        )
        seen.add(route.reason.split("(")[-1])
        seen.add(route.speed)
    assert {"calm wind)", "in_irons by the wind)", 2.0, 5.0} <= seen


@pytest.mark.parametrize("rules", [LUGGERS, SAILING, SPEEDS], ids=["luggers", "sailing", "speeds"])
def test_js_module_answers_wind_strength_questions_as_python(
    node: str, tmp_path: Path, rules: str
) -> None:
    rs = _ruleset(rules)
    answers = [str(e) for e in js_differential(rs, "sail_strength", 40, tmp_path)]
    # the questions reach the rules (the Python answers; the JavaScript agrees)
    assert any("(calm wind)" in a for a in answers)
    assert any("unknown strength of the wind 'squall'" in a for a in answers)
    assert any("must be (heading, strength)" in a for a in answers)
    assert rules == LUGGERS or any("the route costs more than the allowance" in a for a in answers)


# ---- misuse, worked examples ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "old", "new", "line", "column", "said"),
    [
        ("E524", "breeze +0 MP", "gale +0 MP", 12, 5, "'gale' is given twice in `sail when`"),
        (
            "E523",
            "turn 1 MP per hexside\n",
            "turn 1 MP per hexside, sail when (gael +1 MP)\n",
            13,
            60,
            "the wind's strength 'gael' is one letter from 'gale'",
        ),
    ],
)
def test_sail_when_misuse_is_reported_at_its_line_and_column(
    code: str, old: str, new: str, line: int, column: int, said: str
) -> None:
    assert old in LUGGERS
    text = LUGGERS.replace(old, new)
    assert located(Compiler(), text) == [(code, line, column)]
    assert said in next(d.message for d in compile_snippet(Compiler(), text).diagnostics)


EXAMPLE = """example blown "Blown" {
  route_cost(lugger, (deep), (deep), (shoal), wind=(3, gale)) = 5 MP
  route_cost(lugger, (deep), turn, (deep), wind=(3, calm)) = impassable, illegal
  route_cost(galley, (deep), (deep), wind=(3, calm)) = 1 MP
}
"""


def test_worked_examples_give_the_wind_s_strength_and_both_modules_replay_them(
    tmp_path: Path, node: str
) -> None:
    compiled = compile_snippet(Compiler(), LUGGERS + EXAMPLE, tmp_path)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    rs = compiled.ruleset
    vectors = json.loads(python_examples.vectors_json(plan_examples.build(rs)))["vectors"]
    assert vectors[0]["kwargs"] == {"wind": [3, "gale"]}
    assert replay_python(rs, tmp_path / "py") == "3 passed"
    assert js_answers(rs, vectors, tmp_path) == [v["expected"] for v in vectors]


@pytest.mark.parametrize(
    ("code", "question", "said"),
    [
        ("E525", "route_cost(lugger, (deep), (deep), wind=(3, gael)) = 2 MP", "did you mean"),
        ("E526", "route_cost(lugger, (deep), (deep), wind=3) = 2 MP", "wind=(heading, calm)"),
    ],
)
def test_a_worked_example_s_wind_strength_is_checked_at_the_argument(
    code: str, question: str, said: str
) -> None:
    text = LUGGERS + 'example blown "Blown" {\n  ' + question + "\n}\n"
    diags = compile_snippet(Compiler(), text).diagnostics
    assert [(d.code, d.pos.line, d.pos.column) for d in diags] == [(code, 15, 38)]
    assert said in diags[0].message


def test_a_strength_given_where_no_unit_reads_one_is_e525() -> None:
    text = LUGGERS.replace(
        ", sail when (calm impassable, breeze +0 MP, \\\n    gale +1 MP)", ", tack +1 MP"
    )
    text += (
        'example blown "Blown" {\n  route_cost(lugger, (deep), (deep), wind=(3, gale)) = 1 MP\n}\n'
    )
    diags = compile_snippet(Compiler(), text).diagnostics
    assert [d.code for d in diags] == ["E525"]
    assert "give the heading alone" in diags[0].message


# ---- YAML, sheets, diff, house rules --------------------------------------------------------


def test_sail_when_survives_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    found = turning_checks.round_trip(LUGGERS, tmp_path, "sail when (calm impassable")
    assert [f.strengths for f in found.facings] == [
        (("calm", None), ("breeze", 0.0), ("gale", 1.0)),
        (),
    ]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            "By the wind's strength (given with its heading), a step costs more: calm, no step;",
        ),
        ("en", "breeze +0 MP; gale +1 MP."),
        ("en", "(Deep water), (Shoal), wind from heading 3 (gale) | 5 MP"),
        ("fr", "Selon la force du vent (donnée avec son cap), un pas coûte plus"),
        ("de", "Je nach Windstärke (mit der Windrichtung angegeben) kostet ein Schritt mehr"),
        ("ru", "В зависимости от силы ветра"),  # noqa: RUF001
    ],
)
def test_the_sheet_says_what_a_step_costs_in_each_strength_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    assert words in turning_checks.sheet_text(LUGGERS + EXAMPLE, tmp_path, lang)


def test_diff_grades_a_dearer_strength_as_breaking() -> None:
    old = _ruleset()
    dearer = _ruleset(LUGGERS.replace("gale +1 MP", "gale +2 MP"))
    assert [(c.level, c.path, c.message) for c in semantic.diff(old, dearer).changes] == [
        ("breaking", "facing.lugger.sail_when.gale", "lugger: gale +1 -> +2"),
    ]
    assert [(c.level, c.path) for c in semantic.diff(dearer, old).changes] == [
        ("rules", "facing.lugger.sail_when.gale"),
    ]
    dropped = _ruleset(LUGGERS.replace("breeze +0 MP, ", ""))
    assert [(c.level, c.path) for c in semantic.diff(old, dropped).changes] == [
        ("breaking", "facing.lugger.sail_when.breeze"),
    ]
    galley = "facing galley on ocean : turn 1 MP per hexside"
    added = _ruleset(LUGGERS.replace(galley, galley + ", sail when (gale +1 MP)"))
    assert [(c.level, c.path) for c in semantic.diff(old, added).changes] == [
        ("breaking", "facing.galley.sail_when"),
    ]


def test_a_house_rule_writes_the_facing_line_again_with_its_own_strengths(
    tmp_path: Path,
) -> None:
    (tmp_path / "luggers.terrain").write_text(LUGGERS, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends luggers@^1.0\n'
        "facing lugger on ocean : turn 1 MP per hexside, sail when (calm +2 MP, gale +1 MP)\n",
        "utf-8",
    )
    compiled = Compiler().compile_file(house)
    assert compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    lugger = next(f for f in compiled.ruleset.facings if f.mode == "lugger")
    assert lugger.strengths == (("calm", 2.0), ("gale", 1.0))


def test_the_language_guide_example_answers_as_it_says(tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    section = doc[doc.index("#### The wind's strength") : doc.index("#### Turns in one")]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    header = 'ruleset demo "Demo"\nversion 1.0.0\nunits distance hex, cost MP\n'
    example = (
        'example gale "Gale" {\n'
        "  route_cost(lugger, (open_water), (open_water), wind=(3, gale)) = 2 MP\n}\n"
    )
    compiled = compile_snippet(Compiler(), header + terrain + example, tmp_path)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    assert "wind=(3, gale)) = 2 MP" in section
    m = import_rendered(compiled.ruleset, tmp_path, "strength_guide")
    board = m.Board({(q, r): ("open_water",) for q in range(8) for r in range(3)}, grid="channel")
    route = [((q, 1), 0) for q in range(5)]
    costs = {s: m.route_cost(board, "lugger", route, wind=(3, s)) for s in ("breeze", "gale")}
    assert (costs["breeze"].total, costs["breeze"].speed, costs["breeze"].legal) == (4, 6, True)
    assert (costs["gale"].total, costs["gale"].speed) == (8.0, 3.0)
    assert costs["gale"].reason == "the route costs more than the allowance"
    calm = m.route_cost(board, "lugger", route, wind=(3, "calm"))
    assert calm.reason == "step 1 is impassable (calm wind)"
    reach = m.reachable(board, "lugger", ((0, 1), 0), 6, wind=(3, "calm"))
    assert dict(reach) == {((0, 1), 0): 0.0}
    assert m.route_cost(board, "galley", route, wind=(3, "calm")).total == 4.0
    sheet = turning_checks.sheet_text(header + terrain, tmp_path, "en")
    assert (
        "By the wind's strength (given with its heading), a step costs more: calm, no step; "
        "breeze +0 MP; gale +1 MP. By the wind's strength (given with its heading), its speed: "
        "calm 0; breeze 6; gale 3." in " ".join(sheet.split())
    )


# ---- the speed by the wind's strength: `speed when` -------------------------------------------


@pytest.mark.parametrize(
    ("strength", "speed", "legal"), [("gale", 3.0, False), ("breeze", 6.0, True)], ids=str
)
def test_the_speed_is_the_wind_s_strength_s_when_no_allowance_is_given(
    tmp_path: Path, strength: str, speed: float, legal: bool
) -> None:
    rs = _ruleset(SPEEDS)
    module = import_rendered(rs, tmp_path, "strength_speed")
    board = _board(module)
    route = module.route_cost(board, "lugger", EAST, wind=(3, strength))
    assert (route.speed, route.legal) == (speed, legal)
    ref = _reference(rs, route, wind=3, strength=strength)
    assert (ref.legal, ref.reason) == (legal, route.reason)
    assert module.route_cost(board, "lugger", EAST, 9, wind=(3, "gale")).legal  # given: 9
    reach = module.reachable(board, "lugger", ((0, 1), 0), 12, wind=(3, strength))
    assert (reach.speed, reach.budget) == (speed, speed)
    assert module.cheapest_route(board, "lugger", ((0, 1), 0), (3, 1), wind=(3, "gale")) is None
    calm = module.route_cost(board, "galley", EAST, wind=(3, "calm"))
    assert (calm.speed, calm.total, calm.legal) == (2.0, 3.0, False)
    with pytest.raises(module.InvalidArgument, match=r"must be \(heading, strength\)"):
        module.route_cost(board, "galley", EAST, wind=3)


def test_speed_when_in_a_worked_example_on_the_sheet_in_yaml_and_in_diff(
    tmp_path: Path, node: str
) -> None:
    example = (
        'example gale "Gale" {\n'
        "  route_cost(lugger, (deep), (deep), (deep), (deep), wind=(3, gale)) = 6 MP, illegal\n"
        "  route_cost(lugger, (deep), (deep), (deep), (deep), wind=(3, breeze)) = 3 MP\n}\n"
    )
    compiled = compile_snippet(Compiler(), SPEEDS + example, tmp_path)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    rs = compiled.ruleset
    vectors = json.loads(python_examples.vectors_json(plan_examples.build(rs)))["vectors"]
    assert replay_python(rs, tmp_path / "py") == "2 passed"
    assert js_answers(rs, vectors, tmp_path) == [v["expected"] for v in vectors]
    sheet = turning_checks.sheet_text(SPEEDS, tmp_path, "en")
    assert (
        "By the wind's strength (given with its heading), its speed: calm 0; breeze 6; gale 3."
        in (" ".join(sheet.split()))
    )
    found = turning_checks.round_trip(SPEEDS, tmp_path, "speed when (calm 0, breeze 6, gale 3)")
    assert found.facings[0].strength_speeds == (("calm", 0.0), ("breeze", 6.0), ("gale", 3.0))
    slower, old = _ruleset(SPEEDS.replace("gale 3)", "gale 2)")), _ruleset(SPEEDS)
    assert [(c.level, c.path, c.message) for c in semantic.diff(old, slower).changes] == [
        ("breaking", "facing.lugger.speed_when.gale", "lugger: speed 3 -> 2 gale"),
    ]
    assert [(c.level, c.path) for c in semantic.diff(slower, old).changes] == [
        ("rules", "facing.lugger.speed_when.gale"),
    ]


@pytest.mark.parametrize(
    ("code", "old", "new", "column", "said"),
    [
        ("E524", "breeze 6", "gale 6", 46, "'gale' is given twice in `speed when`"),
        ("E520", "breeze 6", "breeze -1", 45, "a speed of -1 by the wind's strength"),
        (
            "E523",
            "breeze 6",
            "breze 6",
            38,
            "the wind's strength 'breze' is one letter from 'breeze'",
        ),
    ],
)
def test_speed_when_misuse_is_reported_at_the_name_or_the_speed(
    code: str, old: str, new: str, column: int, said: str
) -> None:
    text = SPEEDS.replace(old, new)
    diags = compile_snippet(Compiler(), text).diagnostics
    assert [(d.code, d.pos.line, d.pos.column) for d in diags] == [(code, 12, column)]
    assert said in diags[0].message


def test_a_worked_example_gives_the_strength_where_only_speed_when_reads_the_wind() -> None:
    clause = "sail when (calm impassable, breeze +0 MP, \\\n    gale +1 MP)"
    text = LUGGERS.replace(clause, "speed when (calm 0, gale 3)") + (
        'example gale "Gale" {\n'
        "  route_cost(lugger, (deep), (deep), (deep), (deep), wind=(3, gale)) = 3 MP\n"
        "  route_cost(lugger, (deep), (deep), (deep), wind=(3, calm)) = 2 MP, illegal\n}\n"
    )
    compiled = compile_snippet(Compiler(), text)
    assert [str(d) for d in compiled.diagnostics] == []
