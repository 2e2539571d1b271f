"""The web page's state and wind fields (issue 40): where the rules have ``state`` lines, the
place and line calculators take the viewer's state and offer the sight rules in a band of it,
the route calculator a state at the start, and a modifier with values in a band the unit's
state; where a turn tacks or wears or the wind drifts, the route calculator takes the wind.
Each answer is the JavaScript module's, the same as the Python module's. Bundled: canvas_wings
(en, fr); the four languages and a modifier in a band: a small ruleset of gliders below."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from markupsafe import escape

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from rulesdsl.web import web_outputs
from tests import test_web_page as web
from tests.conftest import RULESETS, compile_snippet, import_rendered
from tests.test_web_page import ask, axe_violations, evaluate, python_answer, visit
from tests.test_wind_strength import SAILING

pytestmark = web.pytestmark
browser = web.browser
axe = web.axe

GLIDERS = """ruleset gliders "Gliders" fr "Planeurs" de "Segler" ru "Планеры"
version 1.0.0
languages en fr de ru
units distance hex, cost MP, modifier points
mode glider "Glider" fr "Planeur" de "Segler" ru "Планер"
grid sky "Sky" fr "Ciel" de "Himmel" ru "Шестиугольники" : 1 hex, hex
state altitude "Altitude" fr "Altitude" de "Höhe" ru "Высота" : 0 to 9, cloud -1
sight haze "Haze" fr "Brume" de "Dunst" ru "Дымка" : blocks at 1, counts between, \\
when altitude below 5
layer air "Air" fr "Air" de "Luft" ru "Воздух" {
  columns cost, haze
  clear "Clear" fr "Dégagé" de "Klar" ru "Ясно" | 1 | 0
  cloud "Cloud" fr "Nuage" de "Wolke" ru "Облако" | 1 | 1
}
facing glider on sky : turn 1 MP per hexside, turn mode 0, tack +1 MP
drift wind "Wind drift" fr "Dérive" de "Abdrift" ru "Снос" : 1
modifier to_hit "To-hit" fr "Pour toucher" de "Trefferwurf" ru "Попадание" {
  aimed "Aimed" fr "Visé" de "Gezielt" ru "Прицельно" | +1
  when altitude above 6 | +1
}
"""
"""One unit type with facing that tacks, a state, a sight rule and a modifier value in a band of
it, and a drift, in four languages."""

STATES = tuple({"speed": 4, "altitude": a} for a in range(10))


def _pages(rs: ir.Ruleset, folder: Path) -> dict[str, Path]:
    out = {}
    for path, html in web_outputs(rs).items():
        assert isinstance(html, bytes)
        out[Path(path).name] = folder / Path(path).name
        out[Path(path).name].write_bytes(html)
    return out


@pytest.fixture(scope="module")
def canvas(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, dict[str, Path]]:
    compiled = Compiler().compile_file(RULESETS / "canvas_wings.terrain")
    assert compiled.ruleset is not None
    folder = tmp_path_factory.mktemp("canvas")
    return import_rendered(compiled.ruleset, folder, "web_state_canvas"), _pages(
        compiled.ruleset, folder
    )


@pytest.fixture(scope="module")
def gliders(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, dict[str, Path]]:
    compiled = compile_snippet(Compiler(), GLIDERS)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    folder = tmp_path_factory.mktemp("gliders")
    return import_rendered(compiled.ruleset, folder, "web_state_gliders"), _pages(
        compiled.ruleset, folder
    )


def _state(state: dict[str, int] | None, names: tuple[str, ...]) -> list[list[Any]]:
    """The fields that give ``state`` (None: every field left empty)."""
    return [[f'input[data-state="{n}"]', "" if state is None else state[n]] for n in names]


def _line(rule: str, places: list[list[str]]) -> list[list[Any]]:
    fields: list[list[Any]] = [['[data-arg="rule"]', rule], ['[data-arg="mode"]', ""]]
    for n in range(1, web.LINE_PLACES + 1):
        for i in range(2):
            place = places[n - 1] if n <= len(places) else []
            value = place[i] if i < len(place) else ""
            fields.append([f"ol.places > li:nth-child({n}) > select:nth-of-type({i + 1})", value])
    return fields


def _sight(module: ModuleType, rule: str, places: list[list[str]], state: Any) -> Any:
    """The Python module's line of sight as the line calculator shows it (None: the page
    asks for the state)."""
    banded = rule != "spotting"
    if banded and state is None:
        return None
    line = partial(module.line_of_sight, rule, *map(tuple, places), mode=None)
    found = python_answer(module, lambda: line(state=state if banded else None))
    if "text" not in found:
        return found
    sight = line(state=state if banded else None)
    return {"number": sight.hindrance, "blocked": sight.blocked}


def _place_sight(module: ModuleType, rule: str, state: Any) -> Any:
    """The Python module's value of a scout's cloud hex on the rule, as the place calculator
    shows it (None: the page asks for the state)."""
    banded = rule != "spotting"
    if banded and state is None:
        return None
    line = partial(module.line_of_sight, rule, (), ("cloud",), (), mode="scout")
    return python_answer(module, lambda: line(state=state if banded else None).by_place[1])


def test_the_place_and_line_calculators_ask_a_sight_rule_in_a_band_with_the_viewer_s_state(
    canvas: tuple[ModuleType, dict[str, Path]], browser: web.Browser
) -> None:
    """canvas_wings' two cloud rules (the band 3 to 5) and spotting, at every altitude and
    with no state: each place's value and each line's total and block, as the Python module
    answers; without the state a cloud rule asks for it."""
    module, pages = canvas
    names = ("speed", "altitude")
    lines = [[["clear"], ["cloud"], ["clear"]], [["clear"], ["storm"], ["cloud"], ["clear"]]]
    put, wanted = [], []
    for state in [None, *STATES]:
        fields = [['[data-arg="mode"]', "scout"], ['input[name=feature][value="cloud"]', True]]
        read, expected = [], []
        for rule in ("spotting", "cloud_base", "cloud_top"):
            read.append(f'output[data-sight="{rule}"]')
            expected.append(_place_sight(module, rule, state))
        put.append({"form": "place", "set": fields + _state(state, names), "read": read})
        wanted.append(expected)
        for rule in ("spotting", "cloud_base", "cloud_top"):
            for places in lines:
                fields = _line(rule, places) + _state(state, names)
                put.append({"form": "line", "set": fields, "read": ["output.answer"]})
                wanted.append([_sight(module, rule, places, state)])
    visit(browser, pages["canvas_wings.fr.html"])
    answers = ask(browser, put)
    assert [(q, a, e) for q, a, e in zip(put, answers, wanted, strict=True) if a != e] == []
    blocked = {a[0]["blocked"] for a in answers if a[0] and "blocked" in a[0]}
    assert blocked == {True, False}  # the band counts and does not


def test_a_sight_rule_in_a_band_asks_for_the_state_in_the_page_s_language(
    canvas: tuple[ModuleType, dict[str, Path]], browser: web.Browser
) -> None:
    """Only the speed given: the cloud rule asks for every value of the state, in French,
    with no answer to read; spotting, which has no band, answers."""
    _, pages = canvas
    visit(browser, pages["canvas_wings.fr.html"])
    fields = [['input[data-state="speed"]', 4], ['input[data-state="altitude"]', ""]]
    read = ['output[data-sight="cloud_top"]', 'output[data-sight="spotting"]']
    [[cloud, spotting]] = ask(browser, [{"form": "place", "set": fields, "read": read}])
    assert cloud is None and spotting == {"number": 0}
    shown = evaluate(
        browser, "document.querySelector('#place output[data-sight=cloud_top]').textContent"
    )
    assert shown == "Donnez chaque valeur de l\u2019état."


def test_the_place_calculator_lists_a_roll_in_a_band_only_while_the_unit_s_state_is_in_it(
    canvas: tuple[ModuleType, dict[str, Path]], browser: web.Browser
) -> None:
    """canvas_wings' flak (machine guns below altitude 3, the battery above 2, read after a
    storm's downdraft): a scout over each ground feature, in clear sky and in a storm, at every
    altitude and with no state: the rolls the page lists are the Python module's given that
    state as it enters (none given: every roll the place calls for, as the module lists them);
    a state given in part asks for the rest. The fields are the unit's state."""
    module, pages = canvas
    put, wanted = [], []
    for sky in ("clear", "storm"):
        for ground in ("mg_post", "battery"):
            for state in [None, *STATES]:
                fields = [['[data-arg="mode"]', "scout"], ['[data-arg="move"]', ""]]
                fields += [['[data-arg="on"]', "entering"], *_state(state, ("speed", "altitude"))]
                fields += [
                    [f'input[name=feature][value="{f}"]', f in (sky, ground)]
                    for f in ("clear", "cloud", "storm", "mg_post", "battery")
                ]
                read = ['output[data-ask="rolls_due"]']
                put.append({"form": "place", "set": fields, "read": read})
                dues = module.rolls_due("scout", sky, ground, state=state)
                wanted.append([{"rolls": [[d.roll, d.modifier] for d in dues]}])
    visit(browser, pages["canvas_wings.en.html"])
    answers = ask(browser, put)
    assert [(q, a, e) for q, a, e in zip(put, answers, wanted, strict=True) if a != e] == []
    machine_guns = answers[: 1 + len(STATES)]  # clear sky over the machine guns
    assert [bool(a[0]["rolls"]) for a in machine_guns] == [True] * 4 + [False] * 7
    partly = [['input[data-state="speed"]', 4], ['input[data-state="altitude"]', ""]]
    read = ['output[data-ask="rolls_due"]']
    assert ask(browser, [{"form": "place", "set": partly, "read": read}]) == [[None]]
    shown = "document.querySelector('#place output[data-ask=rolls_due]').textContent"
    assert evaluate(browser, shown) == "Give every value of the state."
    legend = "document.querySelector('#place fieldset.state legend').textContent"
    assert evaluate(browser, legend) == "the unit's state"


def test_a_page_of_rules_with_a_stall_roll_offers_it_with_the_unit_s_state(
    tmp_path: Path,
) -> None:
    """A roll on any step in a band (a stall): the place calculator has the unit's state and
    offers 'on any step' among the times of roll, which rollsDue answers given the state."""
    body = GLIDERS.replace(
        "drift wind", 'roll stall "Stall" : 1d6 on any step when altitude below 1\ndrift wind'
    )
    compiled = compile_snippet(Compiler(), body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    page = _pages(compiled.ruleset, tmp_path)["gliders.en.html"].read_text("utf-8")
    place = json.loads(page.split('id="page-data">')[1].split("</script>")[0])["place"]
    assert place["roll_bands"] and place["on"][-1]["id"] == "any_step"
    assert '<fieldset class="state"><legend>the unit&#39;s state</legend>' in page


ROUTES = (
    [{"features": ["clear"]}, {"features": ["clear"]}, {"features": ["clear"]}, "turn"],
    [{"features": ["clear"]}, {"features": ["storm"]}, {"features": ["cloud", "battery"]}],
    [{"features": ["clear"]}, "turn", {"features": ["clear"]}, {"features": ["storm"]}],
)


def _route_fields(route: list[Any]) -> list[list[Any]]:
    """The route calculator's rows of ``route`` (canvas_wings' and the gliders' have an
    action before each place but the first, and no edges)."""
    rows: list[dict[str, Any]] = []
    for item in route:
        if isinstance(item, str):
            rows.append({"act": item, "place": None})
        elif rows and rows[-1]["place"] is None:
            rows[-1]["place"] = item
        else:
            rows.append({"act": "", "place": item})
    fields: list[list[Any]] = []
    for n in range(1, web.ROUTE_PLACES + 1):
        row = rows[n - 1] if n <= len(rows) else {"act": "", "place": None}
        li = f"ol.places > li:nth-child({n})"
        if n > 1:
            fields.append([f"{li} > select[name=act]", row["act"]])
        features = (row["place"] or {"features": []})["features"]
        for i in range(2):
            at = i + 1 + (n > 1)
            value = features[i] if i < len(features) else ""
            fields.append([f"{li} > select:nth-of-type({at})", value])
    return fields


def _route(module: ModuleType, mode: str, route: list[Any], options: dict[str, Any]) -> Any:
    """The Python module's route as the route calculator shows it (test_web_page's)."""
    laid = web.route_board(
        module, mode, [p if isinstance(p, str) else {**p, "edge": []} for p in route]
    )
    assert laid is not None
    return web.route_answer(module, mode, laid, options)


def test_the_route_calculator_answers_from_a_state_in_a_wind_as_the_python_module(
    canvas: tuple[ModuleType, dict[str, Path]], browser: web.Browser
) -> None:
    """Each unit type, each kind of move, from a few states (and none), with the wind from
    each heading (and none): the total, whether the route is legal and why not, and the state
    after it, as the Python module answers; the bomber, which turns into the wind for more,
    asks for the wind when none is given."""
    module, pages = canvas
    states = [
        None,
        {"speed": 5, "altitude": 2},
        {"speed": 1, "altitude": 0},
        {"speed": 9, "altitude": 9},
    ]
    put, wanted = [], []
    for mode in ("scout", "two_seater", "bomber"):
        for move in ("", "climb", "dive"):
            for state in states:
                for wind in ("", 0, 1, 4):
                    for route in ROUTES:
                        options: dict[str, Any] = {"allowance": 5}
                        options |= {"move": move} if move else {}
                        options |= {"state": state} if state else {}
                        options |= {"wind": wind} if wind != "" else {}
                        fields = [['[data-arg="mode"]', mode], ['[data-arg="move"]', move]]
                        fields += [['[data-arg="allowance"]', 5], ['[data-arg="wind"]', wind]]
                        fields += _state(state, ("speed", "altitude")) + _route_fields(route)
                        put.append({"form": "route", "set": fields, "read": ["output.answer"]})
                        wanted.append([_route(module, mode, route, options)])
    visit(browser, pages["canvas_wings.en.html"])
    answers = ask(browser, put)
    assert [(q, a, e) for q, a, e in zip(put, answers, wanted, strict=True) if a != e][:3] == []
    legal = {a[0]["legal"] for a in answers if a[0] and "legal" in a[0]}
    assert legal == {True, False} and any(a[0] is None for a in answers)
    assert any("state" in a[0] for a in answers if a[0])


def test_a_modifier_in_a_band_of_a_state_answers_with_the_unit_s_state(
    gliders: tuple[ModuleType, dict[str, Path]], browser: web.Browser
) -> None:
    """The gliders' to-hit, +1 above altitude 6: ticked or not, at every altitude, the page's
    total is the Python module's; with no state it asks for it."""
    module, pages = gliders
    put, wanted = [], []
    for aimed in (False, True):
        for state in [None, *({"altitude": a} for a in range(10))]:
            fields = [['input[name=item][value="aimed"]', aimed], *_state(state, ("altitude",))]
            put.append({"form": "modifier-to_hit", "set": fields, "read": ["output.answer"]})
            items = ("aimed",) if aimed else ()
            ask_python = partial(module.modifier, "to_hit", *items, state=state)
            wanted.append([None if state is None else python_answer(module, ask_python)])
    visit(browser, pages["gliders.en.html"])
    answers = ask(browser, put)
    assert [(q, a, e) for q, a, e in zip(put, answers, wanted, strict=True) if a != e] == []
    assert {a[0]["number"] for a in answers if a[0]} == {0, 1, 2}


WORDED = {
    "en": ("the viewer's state", "state at the start", "wind from heading", "the unit's state"),
    "fr": (
        "état de l\u2019observateur",
        "état au départ",
        "vent venant du cap",
        "état de l\u2019unité",
    ),
    "de": (
        "Zustand des Beobachters",
        "Zustand zu Beginn",
        "Wind aus Richtung",
        "Zustand der Einheit",
    ),
    "ru": (
        "состояние наблюдателя",
        "состояние в начале",
        "ветер с направления",  # noqa: RUF001
        "состояние отряда",
    ),
}


LUGGERS = SAILING.replace('ruleset luggers "Luggers"', 'ruleset luggers "Luggers" fr "Lougres"') + (
    'mode cog "Cog"\nfacing cog on ocean : turn 1 MP per hexside, sail by points (running +0 MP, '
    "reach +0 MP, close +2 MP, in_irons impassable)\n"
)
"""test_wind_strength's luggers (tack, sail by and speed by the point of sail, sail when and
speed when by the wind's strength, a crew state, drift) with a French page too, and a cog whose
steps cost by the point of sail alone."""


@pytest.fixture(scope="module")
def luggers(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, dict[str, Path]]:
    compiled = compile_snippet(
        Compiler(), LUGGERS.replace("version 1.0.0", "version 1.0.0\nlanguages en fr")
    )
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    folder = tmp_path_factory.mktemp("luggers")
    return import_rendered(compiled.ruleset, folder, "web_state_luggers"), _pages(
        compiled.ruleset, folder
    )


def test_the_route_calculator_takes_the_wind_s_strength_as_the_python_module(
    luggers: tuple[ModuleType, dict[str, Path]], browser: web.Browser
) -> None:
    """Where the rules read the wind's strength (``sail when``, ``speed when``) or the point of
    sail (``sail by``, ``speed by``), the route calculator offers the wind and its strengths and
    answers as the Python module does with ``wind=(heading, strength)``; a lugger, whose steps
    cost by the point of sail, asks for the wind when none is given and for the strength when
    the wind comes without one."""
    module, pages = luggers
    page = pages["luggers.en.html"].read_text("utf-8")
    assert '<select data-arg="strength"><option value="">none</option>' in page
    assert all(f'<option value="{s}">{s}</option>' in page for s in ("calm", "breeze", "gale"))
    routes = [
        [{"features": ["deep"]}, {"features": ["deep"]}, {"features": ["shoal"]}],
        [{"features": ["deep"]}, "turn", {"features": ["deep"]}, {"features": ["deep"]}],
    ]
    put, wanted = [], []
    for mode in ("lugger", "galley", "cog"):
        for wind in ("", 0, 3):
            for strength in ("", "calm", "breeze", "gale"):
                for allowance in ("", 5):
                    for route in routes:
                        options: dict[str, Any] = {"allowance": allowance} if allowance else {}
                        if wind != "":
                            options["wind"] = (wind, strength) if strength else wind
                        fields = [['[data-arg="mode"]', mode], ['[data-arg="wind"]', wind]]
                        fields += [['[data-arg="strength"]', strength]]
                        fields += [['[data-arg="allowance"]', allowance], *_route_fields(route)]
                        put.append({"form": "route", "set": fields, "read": ["output.answer"]})
                        wanted.append([_route(module, mode, route, options)])
    visit(browser, pages["luggers.en.html"])
    answers = ask(browser, put)
    assert [(q, a, e) for q, a, e in zip(put, answers, wanted, strict=True) if a != e][:3] == []
    assert {a[0]["legal"] for a in answers if a[0] and "legal" in a[0]} == {True, False}
    assert sum(a[0] is None for a in answers) >= 2  # the page asked for the wind or strength


@pytest.mark.parametrize("lang", ["en", "fr", "de", "ru"])
def test_the_state_and_wind_fields_are_named_in_the_page_s_language(
    gliders: tuple[ModuleType, dict[str, Path]], lang: str
) -> None:
    """Each field set's legend and each field's label: the catalog's words and the ruleset's
    labels in the page's language, with the state's range as the field's bounds."""
    _, pages = gliders
    page = pages[f"gliders.{lang}.html"].read_text("utf-8")
    viewer, start, wind, unit = (str(escape(word)) for word in WORDED[lang])
    altitude = {"en": "Altitude", "fr": "Altitude", "de": "Höhe", "ru": "Высота"}[lang]
    field = f'<label>{altitude} (0\u20139) <input type="number" step="1" min="0" max="9"'
    field += ' data-state="altitude"></label>'
    for legend in (viewer, start, unit):
        assert f'<fieldset class="state"><legend>{legend}</legend>\n{field}' in page
    assert page.count(f"<legend>{viewer}</legend>") == 2  # the place's and the line's
    assert f'<label>{wind} <select data-arg="wind" aria-describedby="route-wind-hint">' in page
    words = json.loads(page.split('id="page-data">')[1].split("</script>")[0])["words"]
    english = json.loads(
        pages["gliders.en.html"]
        .read_text("utf-8")
        .split('id="page-data">')[1]
        .split("</script>")[0]
    )["words"]
    for key in ("state_needed", "state_after", "wind_needed", "wind_hint"):
        assert words[key] and (lang == "en" or words[key] != english[key]), key


@pytest.mark.parametrize("page", ["canvas_wings.fr", "gliders.ru"])
def test_axe_core_finds_no_violation_on_the_state_and_wind_fields(
    page: str,
    canvas: tuple[ModuleType, dict[str, Path]],
    gliders: tuple[ModuleType, dict[str, Path]],
    browser: web.Browser,
    axe: str,
) -> None:
    pages = {**canvas[1], **gliders[1]}
    visit(browser, pages[f"{page}.html"])
    evaluate(browser, axe + ";0")
    # a state given in the route calculator, a wind picked: an answer with the state after it
    fields = [['input[data-state="altitude"]', 3], ['[data-arg="wind"]', 1]]
    fields += [['input[data-state="speed"]', 5]] if page.startswith("canvas") else []
    fields += _route_fields([{"features": ["clear"]}, {"features": ["clear"]}])
    [[shown]] = ask(browser, [{"form": "route", "set": fields, "read": ["output.answer"]}])
    assert shown["legal"] and shown["state"]
    assert axe_violations(browser) == []
