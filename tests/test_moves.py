"""Kinds of move and the rolls the map makes due (issue 24): the language, the generated
module's answers (``move=`` on move_cost, can_enter and the route functions; ``rolls_due``;
``Route.move`` and ``Route.rolls``), the reference in rulesdsl.semantics.moves agreeing with
them, and the diagnostics for misuse (E290-E295)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import semantics
from rulesdsl.compiler import Compiler
from rulesdsl.semantics import moves as semantics_moves
from tests.conftest import bundled, compile_snippet, import_rendered

SKIRMISH = """\
ruleset moves_demo "Moves"
version 1.0.0
languages en
units distance in, cost in
stacking sum
minimum move 1 in
group beast "Beast"
group large "Large"
group fly "Fly"
mode ogre "Ogre" : beast, large
mode trooper "Trooper"
mode harpy "Harpy" : fly
precedence fly, large, beast
move run "Run" : allowance times 2, not water
move charge "Charge" : allowance +3 in
roll dangerous "Dangerous terrain" : 1d6 on entering combine highest
roll fall "Falling" : 2d6 on crossing
roll bog "Bog" : 2d6 on ending
roll first_look "Spotted" : 1d6 on first entering
layer terrain "Terrain" one per place {
  columns cost, dangerous, bog, first_look
  clear "Clear"  | 1          |                       |         |
  woods "Woods"  | 2, large 3, run 4, fly 1 | 0, large +1, charge no, fly no | | 0
  water "Water"  | 2, fly 1   | no, trooper +2        | 1, fly no |
  bog_land "Bog" | share 1/2   |                      | 0       |
}
layer weather "Weather" whole map {
  columns cost, dangerous
  rain "Rain" | | +1
}
layer edges "Edges" edges {
  columns cost, fall
  cliff "Cliff" | 1, fly 0 | +2, fly no
}
"""


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, object]:
    compiled = compile_snippet(Compiler(), SKIRMISH)
    assert compiled.ruleset is not None, [d.message for d in compiled.diagnostics]
    folder = tmp_path_factory.mktemp("moves")
    return import_rendered(compiled.ruleset, folder, "moves_demo_module"), compiled.ruleset


def test_without_move_the_answers_are_as_before(demo: tuple[ModuleType, object]) -> None:
    m, _ = demo
    assert m.move_cost("ogre", "woods") == 3  # Large before Beast
    assert m.move_cost("trooper", "woods") == 2


def test_a_kinds_cost_entry_stands_for_the_value_for_all(demo: tuple[ModuleType, object]) -> None:
    m, _ = demo
    assert m.move_cost("trooper", "woods", move="run") == 4
    assert m.move_cost("ogre", "woods", move="run") == 3  # a running ogre is still Large
    assert m.move_cost("harpy", "woods", move="run") == 1  # and a harpy still Fly


def test_a_running_ogre_keeps_its_keywords_where_the_kind_says_nothing(
    demo: tuple[ModuleType, object],
) -> None:
    m, _ = demo
    assert m.move_cost("ogre", "water", move="charge") == 2
    assert m.move_cost("ogre", "woods", move="charge") == 3  # still Large
    assert m.move_cost("harpy", "water", move="charge") == 1  # still Fly


def test_a_runner_may_not_enter_what_the_kind_bars(demo: tuple[ModuleType, object]) -> None:
    m, _ = demo
    assert m.move_cost("trooper", "water", move="run") is m.PROHIBITED
    assert m.can_enter("trooper", "water", move="run") is False
    assert m.can_enter("trooper", "water") is True


def test_the_kind_scales_the_allowance_that_shares_are_taken_of(
    demo: tuple[ModuleType, object],
) -> None:
    m, _ = demo
    assert m.move_cost("trooper", "bog_land", allowance=6) == 3  # half of 6
    assert m.move_cost("trooper", "bog_land", allowance=6, move="run") == 6  # half of 12
    assert m.move_cost("trooper", "bog_land", allowance=6, move="charge") == 4.5  # half of 9


def test_an_unknown_kind_of_move_is_named_with_the_nearest(
    demo: tuple[ModuleType, object],
) -> None:
    m, _ = demo
    with pytest.raises(m.UnknownName, match="run"):
        m.move_cost("ogre", "woods", move="rnu")


def test_route_cost_says_which_move_it_used_and_applies_it(
    demo: tuple[ModuleType, object],
) -> None:
    m, _ = demo
    places = {(x, 0): ("clear",) for x in range(4)}
    places[(1, 0)] = ("woods",)
    board = m.Board(places, grid="square")
    walk = m.route_cost(board, "ogre", [(0, 0), (1, 0), (2, 0)], allowance=4)
    assert (walk.total, walk.legal, walk.move) == (4, True, "")
    run = m.route_cost(board, "trooper", [(0, 0), (1, 0), (2, 0)], allowance=4, move="run")
    assert (run.total, run.legal, run.move) == (5, True, "run")
    far = [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert not m.route_cost(board, "trooper", far, allowance=3).legal  # 2 + 1 + 1 > 3
    assert m.route_cost(board, "trooper", far, 3, "run").legal  # 4 + 1 + 1 <= 6


def test_cheapest_route_and_reachable_take_the_kind(demo: tuple[ModuleType, object]) -> None:
    m, _ = demo
    places = {(x, y): ("clear",) for x in range(3) for y in range(2)}
    places[(1, 0)] = ("water",)
    board = m.Board(places, grid="square")
    walk = m.cheapest_route(board, "trooper", (0, 0), (2, 0))
    assert walk is not None and [s.end for s in walk.steps] == [(1, 0), (2, 0)]
    run = m.cheapest_route(board, "trooper", (0, 0), (2, 0), move="run")
    assert run is not None and run.move == "run" and (1, 0) not in [s.end for s in run.steps]
    assert set(m.reachable(board, "trooper", (0, 0), 1)) == {(0, 0), (1, 0), (0, 1)}
    running = m.reachable(board, "trooper", (0, 0), 1, move="run")  # a budget of 2
    assert dict(running) == {(0, 0): 0, (0, 1): 1, (1, 1): 2}


def test_rolls_due_on_entering_by_unit_type_keyword_and_kind(
    demo: tuple[ModuleType, object],
) -> None:
    m, _ = demo
    [due] = m.rolls_due("ogre", "woods")
    assert (due.roll, due.dice, due.modifier, due.on) == ("dangerous", "1d6", 1, "entering")
    assert m.rolls_due("harpy", "woods") == ()  # flyers never roll
    assert m.rolls_due("trooper", "woods", move="charge") == ()  # the kind says no
    assert m.rolls_due("ogre", "woods", move="charge")[0].modifier == 1  # Large says +1
    assert m.rolls_due("trooper", "water")[0].modifier == 2
    assert m.rolls_due("ogre", "water") == ()


def test_a_whole_map_condition_adds_to_a_roll_but_never_calls_for_one(
    demo: tuple[ModuleType, object],
) -> None:
    m, _ = demo
    [due] = m.rolls_due("ogre", "woods", "rain")
    assert (due.modifier, due.features) == (2, ("woods", "rain"))
    assert m.rolls_due("ogre", "clear", "rain") == ()


def test_route_cost_lists_the_rolls_due_in_order_with_their_places(
    demo: tuple[ModuleType, object],
) -> None:
    m, rs = demo
    places = {(x, 0): ("clear",) for x in range(4)}
    places[(1, 0)] = ("woods",)
    places[(3, 0)] = ("water",)
    edges = {((1, 0), (2, 0)): ("cliff",)}
    board = m.Board(places, edges, grid="square")
    route = [(0, 0), (1, 0), (2, 0), (1, 0), (2, 0), (3, 0)]
    answer = m.route_cost(board, "trooper", route)
    got = [(d.step, d.place, d.on, d.roll, d.modifier) for d in answer.rolls]
    assert got == [
        (1, (1, 0), "entering", "dangerous", 0),
        (1, (1, 0), "first_entering", "first_look", 0),
        (2, (2, 0), "crossing", "fall", 2),
        (3, (1, 0), "entering", "dangerous", 0),
        (4, (2, 0), "crossing", "fall", 2),
        (5, (3, 0), "entering", "dangerous", 2),
        (5, (3, 0), "ending", "bog", 1),
    ]
    steps = [(tuple(s.features), tuple(s.edge)) for s in answer.steps]
    reference = semantics_moves.route_rolls(rs, "trooper", steps, places=route)  # type: ignore[arg-type]
    assert [(d.step, d.on, d.roll, d.modifier) for d in reference] == [
        (s, on, r, mod) for s, _, on, r, mod in got
    ]


def test_the_module_and_the_reference_agree_on_every_kind_and_place(
    demo: tuple[ModuleType, object],
) -> None:
    m, rs = demo
    for move in (None, "run", "charge"):
        view = semantics_moves.kind_view(rs, move) if move else rs  # type: ignore[arg-type]
        for mode in ("ogre", "trooper", "harpy"):
            for place in (("clear",), ("woods",), ("water",), ("woods", "rain")):
                ours = semantics.move_cost(view, mode, place)  # type: ignore[arg-type]
                theirs = m.move_cost(mode, *place, move=move)
                if isinstance(theirs, m.Marker):
                    assert getattr(ours, "marker", None) == theirs.value
                else:
                    assert ours == theirs
                ref = [
                    (r.id, found[0])
                    for r in rs.rolls  # type: ignore[attr-defined]
                    if r.when == "entering"
                    and (found := semantics_moves.place_roll(rs, r, mode, place, move)) is not None  # type: ignore[arg-type]
                ]
                assert ref == [(d.roll, d.modifier) for d in m.rolls_due(mode, *place, move=move)]


@pytest.mark.parametrize(
    ("line", "code", "column"),
    [
        ('move run "Run" : allowance times 0', "E290", 18),
        ('roll r "R" : 2d6 on entring', "E291", 21),
        ('roll r "R" : 2d6 on entering combine most', "E295", 38),
    ],
)
def test_misused_moves_and_rolls_are_reported_where_written(
    line: str, code: str, column: int, tmp_path: Path
) -> None:
    text = f'ruleset x "X"\nversion 1.0.0\nmode foot "Foot"\n{line}\n'
    compiled = compile_snippet(Compiler(), text, tmp_path)
    found = [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics if d.code == code]
    assert found == [(code, 4, column)]


def test_a_roll_on_crossing_in_a_layer_of_places_is_e292(tmp_path: Path) -> None:
    text = (
        'ruleset x "X"\nversion 1.0.0\nmode foot "Foot"\nroll fall "Fall" : 2d6 on crossing\n'
        'layer t "T" {\n  columns cost, fall\n  clear "Clear" | 1 | 0\n}\n'
    )
    compiled = compile_snippet(Compiler(), text, tmp_path)
    found = [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics]
    assert ("E292", 6, 17) in found


def test_a_roll_cell_keyed_by_a_state_or_pair_is_e293(tmp_path: Path) -> None:
    text = (
        'ruleset x "X"\nversion 1.0.0\nmode foot "Foot"\nroll bog "Bog" : 2d6 on entering\n'
        'layer t "T" {\n  columns cost, bog\n  mud "Mud" | 1 | 0 must stop\n}\n'
    )
    compiled = compile_snippet(Compiler(), text, tmp_path)
    found = [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics]
    assert ("E293", 7, 19) in found


def test_a_kinds_flat_cost_entry_is_e294(tmp_path: Path) -> None:
    text = (
        'ruleset x "X"\nversion 1.0.0\nunits distance in, cost in\nmode foot "Foot"\n'
        'move run "Run" : allowance times 2\n'
        'layer t "T" {\n  wall "Wall" | 1, run flat 2 in\n}\n'
    )
    compiled = compile_snippet(Compiler(), text, tmp_path)
    found = [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics]
    assert ("E294", 7, 17) in found


def test_a_roll_no_layer_uses_warns_w290(tmp_path: Path) -> None:
    text = 'ruleset x "X"\nversion 1.0.0\nmode foot "Foot"\nroll bog "Bog" : 2d6 on entering\n'
    compiled = compile_snippet(Compiler(), text, tmp_path)
    found = [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics]
    assert found == [("W290", 4, 6)]


HOUSE = """\
ruleset sk_house "House rules" fr "Règles maison"
version 1.0.0
languages en fr
extends skirmish_keywords@^1.0
override woods.run | 4
override wire.dangerous | no, charge +1, vehicle no, fly no
override run.factor | 3
remove example running_and_charging
remove charge
"""


def _house(tmp_path: Path) -> tuple[object, object]:
    import shutil

    from tests.conftest import RULESETS

    shutil.copy(RULESETS / "skirmish_keywords.terrain", tmp_path)
    (tmp_path / "sk_house.terrain").write_text(HOUSE, "utf-8")
    compiler = Compiler()
    base = compiler.compile_file(tmp_path / "skirmish_keywords.terrain")
    house = compiler.compile_file(tmp_path / "sk_house.terrain")
    assert house.ok, [(d.code, d.message) for d in house.diagnostics if d.severity == "error"]
    return base.ruleset, house.ruleset


def test_a_house_rule_overrides_a_kinds_allowance_and_cost_and_removes_a_kind(
    tmp_path: Path,
) -> None:
    _, house = _house(tmp_path)
    m = import_rendered(house, tmp_path, "sk_house_module")  # type: ignore[arg-type]
    assert m.MOVES["run"].factor == 3
    assert "charge" not in m.MOVES
    assert m.move_cost("trooper", "woods", distance=2, move="run") == 8
    assert m.move_cost("trooper", "wire", allowance=6, move="run") == 9  # half of 18


def test_diff_grades_a_changed_kind_and_roll_as_breaking(tmp_path: Path) -> None:
    from rulesdsl.versions import diff as semantic

    base, house = _house(tmp_path)
    d = semantic.diff(base, house)  # type: ignore[arg-type]
    found = [(c.level, c.action, c.path) for c in d.changes]
    assert ("breaking", "changed", "run") in found  # times 2 -> times 3
    assert ("rules", "changed", "run.woods.trooper") in found  # 3 -> 4: a number (issue 39)
    assert ("breaking", "removed", "charge") in found
    assert d.level == "breaking"


def test_a_dice_outcome_feeds_the_modifier_its_effects_name(tmp_path: Path) -> None:
    rs = bundled("hex_operational").ruleset
    assert rs is not None
    m = import_rendered(rs, tmp_path, "hex_operational_effects")
    assert m.modifier("defence", "forest") == -1
    assert m.modifier("defence", "forest", "bogged") == 0  # the Bog table's outcome, +1
    assert semantics.modifier(rs, "defence", ["forest", "bogged"]) == 0


def test_an_outcome_effect_on_a_modifier_that_is_not_a_number_is_e296(tmp_path: Path) -> None:
    text = (
        'ruleset x "X"\nversion 1.0.0\nmode foot "Foot"\nmodifier defence "Defence"\n'
        'dice bog "Bog" : 1d6 {\n  1- bogged "Bogged" | defence heavy\n  2+ free "Free"\n}\n'
    )
    compiled = compile_snippet(Compiler(), text, tmp_path)
    found = [(d.code, d.pos.line, d.pos.column) for d in compiled.diagnostics]
    assert ("E296", 6, 3) in found


# ---- first entering across a game: `entered=` -------------------------------------------------


def _woods_board(m: ModuleType) -> object:
    places = {(x, 0): ("clear",) for x in range(4)}
    places[(1, 0)] = ("woods",)
    places[(2, 0)] = ("woods",)
    return m.Board(places, grid="square")


def test_first_entering_skips_the_places_entered_earlier_in_the_game(
    demo: tuple[ModuleType, object],
) -> None:
    m, rs = demo
    board = _woods_board(m)
    route = [(0, 0), (1, 0), (2, 0)]
    fresh = m.route_cost(board, "trooper", route)
    assert [(d.step, d.on) for d in fresh.rolls if d.roll == "first_look"] == [
        (1, "first_entering"),
        (2, "first_entering"),
    ]
    later = m.route_cost(board, "trooper", route, entered=[(1, 0)])
    assert [(d.step, d.on) for d in later.rolls if d.roll == "first_look"] == [
        (2, "first_entering")
    ]
    assert [d.roll for d in later.rolls].count("dangerous") == 2  # entering: every time
    steps = [(s.features, s.edge) for s in later.steps]
    reference = semantics_moves.route_rolls(rs, "trooper", steps, places=route, entered=[(1, 0)])  # type: ignore[arg-type]
    assert [(d.step, d.on, d.roll) for d in reference] == [
        (d.step, d.on, d.roll) for d in later.rolls
    ]


def test_cheapest_route_passes_the_places_entered_earlier_on(
    demo: tuple[ModuleType, object],
) -> None:
    m, _ = demo
    board = _woods_board(m)
    found = m.cheapest_route(board, "trooper", (0, 0), (2, 0), entered=iter([(1, 0), (2, 0)]))
    assert found is not None and [d.roll for d in found.rolls] == ["dangerous", "dangerous"]


def test_entered_must_be_places_of_the_board(demo: tuple[ModuleType, object]) -> None:
    m, _ = demo
    board = _woods_board(m)
    with pytest.raises(m.InvalidArgument, match="entered"):
        m.route_cost(board, "trooper", [(0, 0), (1, 0)], entered=[(9, 9)])
    with pytest.raises(m.ArgumentTypeError, match="entered"):
        m.route_cost(board, "trooper", [(0, 0), (1, 0)], entered="(1, 0)")
    with pytest.raises(m.ArgumentTypeError, match="entered"):
        m.cheapest_route(board, "trooper", (0, 0), (1, 0), entered=[[1, 0]])


# ---- W340: a roll's modifiers reach a total its dice table does not cover ----------------------

REACH = """\
ruleset reach "Reach"
version 1.0.0
mode ship "Ship"
mode drone "Drone"
move flank "Flank" : allowance times 2
dice hazards "Hazards" : 2d6 {
  2-7 clear "Clear"
  8-12 hit "Hit"
}
roll hazard "Hazard" : hazards on entering
layer space "Space" one per place {
  columns cost, hazard
  void "Void" | 1 |
  nebula "Nebula" | 2 | 0, flank +1, drone no
}
"""


def _reach(text: str) -> list[tuple[str, int, int, str]]:
    compiled = compile_snippet(Compiler(), text)
    return [(d.code, d.pos.line, d.pos.column, d.message) for d in compiled.diagnostics if d.pos]


def test_a_roll_whose_kinds_modifier_passes_the_tables_end_is_w340() -> None:
    [(code, line, column, message)] = _reach(REACH)
    assert (code, line, column) == ("W340", 10, 6)
    assert message == (
        "roll 'hazard' on 'hazards': 'ship' making a 'flank' move entering 'nebula' can roll "
        "a total of 13, which no row covers"
    )


def test_an_open_ended_row_covers_every_total_beyond_it() -> None:
    assert _reach(REACH.replace("8-12 hit", "8+ hit")) == []


def test_a_conditions_value_adds_to_the_reach_of_a_roll() -> None:
    text = REACH.replace("flank +1", "flank 0") + (
        'layer weather "Weather" whole map {\n  columns hazard\n  storm "Storm" | -2\n}\n'
    )
    [(code, line, column, message)] = _reach(text)
    assert (code, line, column) == ("W340", 10, 6)
    assert "'ship' entering 'nebula' + 'storm' can roll a total of 0" in message


def test_several_features_of_a_layer_of_many_add_up_in_a_rolls_reach() -> None:
    text = (
        REACH.replace("0, flank +1, drone no", "+1")
        .replace("8-12 hit", "8-13 hit")
        .replace('layer space "Space" one per place {', 'layer space "Space" {')
        .replace('void "Void" | 1 |', 'void "Void" | 1 | +1')
    )
    [(code, _, _, message)] = _reach(text)
    assert code == "W340" and "'void' + 'nebula' can roll a total of 14" in message
    assert (
        _reach(text.replace('layer space "Space" {', 'layer space "Space" one per place {')) == []
    )


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "(Flank: +1"), ("fr", "(Flank : +1"), ("ru", "(Flank: +1"), ("de", "(Flank: +1")],
)
def test_sheets_print_a_roll_cells_entry_for_a_kind_of_move(lang: str, words: str) -> None:
    from rulesdsl.printed.sheets import render_sheet

    text = REACH.replace("8-12 hit", "8+ hit") + (
        'example ex "Ex" {\n  rolls_due(ship, nebula, on=first_entering) = none\n}\n'
    )
    ruleset = compile_snippet(Compiler(), text).ruleset
    assert ruleset is not None
    sheet = render_sheet(ruleset, "md", lang).decode("utf-8")
    sheet = sheet.replace("\u00a0", " ").replace("\u202f", " ")
    rows = [line for line in sheet.splitlines() if line.startswith("| Nebula |")]
    assert any(words in row for row in rows), rows
    time = {"en": "on entering for the first time", "fr": "en entrant pour la première fois"}
    assert time.get(lang, "") in sheet
