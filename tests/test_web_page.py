"""The web reference (issue 38): each bundled ruleset's page, opened offline in headless
Chromium, answers its calculators' questions as the Python module does, passes axe-core's
level A and AA rules, works from the keyboard and stays within its size budget.

The browser is Debian's chromium over the DevTools protocol (tests/test_watch.py's
:class:`Browser`); axe-core comes from the test setup's npm lock (tests/js/).
"""

from __future__ import annotations

import atexit
import json
import random
import re
import warnings
from fractions import Fraction
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from rulesdsl.semantics.tables import roll_of
from rulesdsl.web import web_outputs
from rulesdsl.web.model import LINE_PLACES, ROUTE_PLACES, PageModel
from rulesdsl.web.page import BUDGET
from tests.conftest import RULESETS, bundled, import_rendered
from tests.test_watch import CHROMIUM, TIMEOUT, VIEWPORT, Browser

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="needs a headless Chromium"),
    # One worker compiles the rulesets, writes the pages and starts Chromium once (module
    # fixtures); ungrouped, --dist loadgroup spreads the tests and both workers pay for them.
    pytest.mark.xdist_group("web-page"),
]

NAMES = sorted(p.stem for p in RULESETS.glob("*.terrain"))
QUESTIONS = 50
"""The fewest questions each page answers through its calculators."""

DRIVE = """(questions) => questions.map((q) => {
  const form = document.getElementById(q.form);
  for (const [selector, value] of q.set) {
    const field = form.querySelector(selector);
    if (field.type === "checkbox") field.checked = value; else field.value = String(value);
    field.dispatchEvent(new Event("change", {bubbles: true}));
  }
  return q.read.map((selector) => form.querySelector(selector).dataset.answer ?? null);
})"""
"""Sets each question's fields as a user would (a change event from each) and reads the
answers the page shows (their plain data, ``data-answer``)."""


@pytest.fixture(scope="module")
def rulesets() -> dict[str, ir.Ruleset]:
    out = {}
    for name in NAMES:
        compiled = bundled(name)  # as the process compiled it once
        assert compiled.ruleset is not None
        out[name] = compiled.ruleset
    return out


@pytest.fixture(scope="module")
def pages(rulesets: dict[str, ir.Ruleset], tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("web")
    for ruleset in rulesets.values():
        for path, html in web_outputs(ruleset).items():
            assert isinstance(html, bytes)
            (folder / Path(path).name).write_bytes(html)
    return folder


_chromium: list[Browser] = []
"""The headless Chromium of this test process's web page tests: one for this module's and
tests/test_web_page_state.py's and _totals's (one xdist group), started on first use, closed
when the process ends. Each test opens its page anew (:func:`visit`)."""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Browser:
    if not _chromium or _chromium[0].process.poll() is not None:
        chromium = Browser(tmp_path_factory.mktemp("profile"))
        atexit.register(chromium.close)
        chromium.open("about:blank")
        chromium.call("Network.enable")
        chromium.call(
            "Network.emulateNetworkConditions",
            offline=True,
            latency=0,
            downloadThroughput=-1,
            uploadThroughput=-1,
        )
        _chromium[:] = [chromium]
    return _chromium[0]


def visit(browser: Browser, page: Path) -> None:
    """Opens ``page`` (with the network off) and waits until its script has run."""
    url = page.as_uri()
    browser.call("Page.navigate", url=url)
    wait_for(
        browser,
        "location.href + ' ' + (document.documentElement.dataset.ready ?? '')",
        url + " yes",
    )


def wait_for(browser: Browser, expression: str, wanted: str) -> str:
    """``Browser.wait_for`` (asked every 10 ms)."""
    return browser.wait_for(expression, wanted)


def evaluate(browser: Browser, expression: str) -> Any:
    result = browser.call(
        "Runtime.evaluate",
        expression=expression,
        returnByValue=True,
        awaitPromise=True,
        timeout=TIMEOUT * 1000,
    )
    assert "exceptionDetails" not in result, result["exceptionDetails"]
    return result["result"].get("value")


# ---- the Python module's answers, in the page's plain data --------------------------------


CELL_RECORDS = frozenset({"Rate", "Trade", "Span", "Dice"})
"""The records a table's cell may hold, in the page's plain data as their fields."""


def plain(module: ModuleType, value: object) -> dict[str, Any]:
    if value is None:
        return {"none": True}
    if isinstance(value, module.Marker):
        return {"marker": value.value}
    if isinstance(value, module.Quantity):
        return {"number": float(value), "unit": value.unit}
    if isinstance(value, module.Outcome):
        return {"outcome": value.id}
    if isinstance(value, module.DiceRow):
        return {"row": value.id}
    if isinstance(value, getattr(module, "Result", ())):
        return {"result": value.id, "column": value.column}
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, int | float):
        return {"number": value}
    if type(value).__name__ in CELL_RECORDS:  # a table's cell
        fields = {f: getattr(value, f) for f in value._fields}
        return {"record": type(value).__name__.lower(), **fields}
    return {"text": str(value)}


def python_answer(module: ModuleType, ask: Any) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return plain(module, ask())
        except Exception as error:  # the page shows the same error by its code
            return {"error": type(error).__name__}


# ---- questions, each asked of the page's form and of the Python module --------------------


Question = tuple[dict[str, Any], list[Any]]
"""What the page is asked (its form, the fields to set, the answers to read) and the Python
module's answers to compare them with."""


def modifier_question(m: dict[str, Any], module: ModuleType, rng: random.Random) -> Question:
    items = [i["id"] for i in m["items"] if rng.random() < 0.3]
    fields: list[Any] = [
        [f'input[name=item][value="{i["id"]}"]', i["id"] in items] for i in m["items"]
    ]
    context: dict[str, Any] = {}
    for c in m["contexts"]:
        value = rng.choice(["", *(v["id"] for v in c["values"])])
        fields.append([f'select[data-context="{c["id"]}"]', value])
        if value:
            context[c["id"]] = value
    for g in m["given"]:
        value = rng.choice([0, 1, 2, 3, 5])
        fields.append([f'input[data-given="{g["name"]}"]', value])
        if any(item in items for item in g["items"]):
            context[g["name"]] = value
    expected = python_answer(module, lambda: module.modifier(m["id"], *items, **context))
    return {"form": f"modifier-{m['id']}", "set": fields, "read": ["output.answer"]}, [expected]


def state_given(
    data: dict[str, Any], rng: random.Random, wanted: bool = True
) -> tuple[dict[str, int] | None, list[Any]]:
    """A unit's state in its range, or none, with the fields that give it (issue 40): for the
    rules with ``state`` lines, where the calculator takes one (``wanted``)."""
    states = data.get("states", []) if wanted else []
    state = {s["id"]: rng.randint(s["low"], s["high"]) for s in states}
    given = state if state and rng.random() < 0.7 else None
    fields = [[f'input[data-state="{s["id"]}"]', given[s["id"]] if given else ""] for s in states]
    return given, fields


def place_question(
    p: dict[str, Any], data: dict[str, Any], module: ModuleType, rng: random.Random
) -> Question:
    """A unit type (and kind of move) in a place of one or two features of each of a few
    layers, at a distance, with an allowance and the movement available now and then: the
    place calculator's five answers."""
    mode = rng.choice(data["modes"])["id"]
    move = rng.choice(["", *(m["id"] for m in data["moves"])]) if data["moves"] else ""
    features = [
        f["id"]
        for layer in p["layers"]
        if rng.random() < 0.6
        for f in rng.sample(
            layer["features"], min(len(layer["features"]), rng.choice([1, 1, 1, 2]))
        )
    ]
    distance = rng.choice([1, 1, 2, 3, 0.5])
    allowance = rng.choice(["", "", 4, 6, 10])
    available = rng.choice(["", "", 1, 2, 5])
    on = rng.choice(p["on"])["id"] if p["on"] else "entering"
    inputs = {i["name"]: rng.choice(NUMBERS[:8]) for i in p["inputs"]}
    banded = p.get("roll_bands", False)  # a roll due in a band reads the unit's state
    state, state_fields = state_given(data, rng, banded or any(s.get("band") for s in p["sights"]))
    fields: list[Any] = [['[data-arg="mode"]', mode]]
    fields += [
        [f'input[name=feature][value="{f["id"]}"]', f["id"] in features]
        for layer in p["layers"]
        for f in layer["features"]
    ]
    fields += [['[data-arg="distance"]', distance], ['[data-arg="allowance"]', allowance]]
    fields += [['[data-arg="available"]', available]]
    fields += [[f'[data-arg="{name}"]', value] for name, value in inputs.items()]
    if data["moves"]:
        fields.append(['[data-arg="move"]', move])
    if p["on"]:
        fields.append(['[data-arg="on"]', on])
    fields += state_fields
    options = {"allowance": allowance if allowance != "" else None, "move": move or None, **inputs}
    entering = {"available": available if available != "" else None}
    rolled = {"state": state} if banded and state else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            dues: Any = {
                "rolls": [
                    [d.roll, d.modifier]
                    for d in module.rolls_due(mode, *features, move=move or None, on=on, **rolled)
                ]
            }
        except Exception as error:
            dues = {"error": type(error).__name__}
    wanted = [
        python_answer(
            module, lambda: module.move_cost(mode, *features, distance=distance, **options)
        ),
        python_answer(module, lambda: module.can_enter(mode, *features, **entering, **options)),
        python_answer(module, lambda: module.can_end(mode, *features)),
        python_answer(module, lambda: module.must_stop(mode, *features)),
        dues,
        *([turn_mode(module, mode, allowance, move)] if p["facing"] else []),
        *(sight_value(s, module, mode, features, distance, state) for s in p["sights"]),
    ]
    read = [
        f'output[data-ask="{ask}"]'
        for ask in ("move_cost", "can_enter", "can_end", "must_stop", "rolls_due")
    ]
    read += ["output[data-facing]"] if p["facing"] else []
    read += [f'output[data-sight="{s["id"]}"]' for s in p["sights"]]
    return {"form": "place", "set": fields, "read": read}, wanted


def turn_mode(module: ModuleType, mode: str, speed: Any, move: str) -> dict[str, Any]:
    """The places a unit type with facing goes straight before a turn at ``speed``."""
    if mode not in module.FACINGS or speed == "":
        return {"none": True}
    board = module.Board({(0, 0): ()}, grid=module.FACINGS[mode].grid)
    start = ((0, 0), 0)
    reach = partial(module.reachable, board, mode, start, speed, move=move or None)
    return python_answer(module, lambda: reach().turn_mode)


def facing_questions(data: dict[str, Any], module: ModuleType) -> list[Question]:
    """Each unit type with facing, by each kind of move, at a few speeds: its turn mode."""
    moves = ["", *(m["id"] for m in data["moves"])]
    out: list[Question] = []
    for mode in module.FACINGS:
        for move in moves:
            for speed in (1, 3, 4, 6, 10):
                fields = [['[data-arg="mode"]', mode], ['[data-arg="allowance"]', speed]]
                fields += [['[data-arg="move"]', move]] if data["moves"] else []
                read = ["output[data-facing]"]
                wanted = [turn_mode(module, mode, speed, move)]
                out.append(({"form": "place", "set": fields, "read": read}, wanted))
    return out


def sight_value(
    sight: dict[str, Any],
    module: ModuleType,
    mode: str,
    features: list[str],
    distance: float,
    state: dict[str, int] | None = None,
) -> dict[str, Any] | None:
    """The place's own value on a line of sight that crosses it, ``distance`` long; a rule in
    a band of a state with the viewer's (None without one: the page asks for it)."""
    crossed = (0, distance, 0) if sight["crossed"] else None
    line = partial(module.line_of_sight, sight["id"], (), tuple(features), ())
    if sight.get("band"):
        if state is None:
            return None
        line = partial(line, state=state)
    return python_answer(module, lambda: line(crossed=crossed, mode=mode).by_place[1])


def line_question(
    p: dict[str, Any], data: dict[str, Any], module: ModuleType, rng: random.Random
) -> Question:
    """A line of sight across two to six places of up to two features each (a length crossed
    in each), seen by a unit type or by none, with the whole-map conditions some of the time:
    the line calculator's answer (the hindrance, and whether the line is blocked)."""
    sight = rng.choice(p["sights"])
    mode = rng.choice(["", *(m["id"] for m in data["modes"])])
    features = [f["id"] for layer in p["layers"] for f in layer["features"]]
    places = [rng.sample(features, rng.choice([0, 1, 1, 2])) for _ in range(rng.randint(2, 6))]
    places[-1] = places[-1] or [features[0]]  # the page leaves out empty places at the end
    crossed = [rng.choice([0, 1, 2, 3]) for _ in places]
    conditions = [f for f in p["whole_map"] if rng.random() < 0.3]
    state, state_fields = state_given(data, rng, any(s.get("band") for s in p["sights"]))
    fields: list[Any] = [['[data-arg="rule"]', sight["id"]], ['[data-arg="mode"]', mode]]
    fields += state_fields
    fields += [[f'input[name=condition][value="{f}"]', f in conditions] for f in p["whole_map"]]
    for n in range(1, LINE_PLACES + 1):
        place = places[n - 1] if n <= len(places) else []
        for i in range(2):
            fields.append(
                [
                    f"ol.places > li:nth-child({n}) > select:nth-of-type({i + 1})",
                    place[i] if i < len(place) else "",
                ]
            )
        fields.append(
            [
                f"ol.places > li:nth-child({n}) input[name=crossed]",
                crossed[n - 1] if n <= len(places) else 0,
            ]
        )
    options: dict[str, Any] = {"mode": mode or None}
    if sight["crossed"]:
        options["crossed"] = tuple(crossed)
    if conditions:
        options["conditions"] = tuple(conditions)
    if sight.get("band"):
        options["state"] = state
    line = partial(module.line_of_sight, sight["id"], *(tuple(f) for f in places), **options)
    if sight.get("band") and state is None:  # the page asks for the viewer's state
        return {"form": "line", "set": fields, "read": ["output.answer"]}, [None]
    expected = python_answer(module, line)
    if "text" in expected:
        expected = {"number": line().hindrance, "blocked": line().blocked}
    return {"form": "line", "set": fields, "read": ["output.answer"]}, [expected]


HEADINGS = {
    6: ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)),
    4: ((1, 0), (0, -1), (-1, 0), (0, 1)),
    8: ((1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1)),
}
"""The grid step each heading looks along (the worked examples' replay's, and the page's)."""


def route_board(
    module: ModuleType, mode: str, route: list[Any]
) -> tuple[partial[Any], list[Any]] | None:
    """The route laid on a board as the worked examples' replay lays it
    (rulesdsl/codegen/python/examples.py): places in a line; for a unit type with facing, its
    grid from (0, 0) facing heading 0 (None when the route crosses itself). The board is made
    when asked (a bad place is an answer: the page shows the same error)."""
    facing = getattr(module, "FACINGS", {}).get(mode)
    if facing is None:
        line = {i: tuple(p["features"]) for i, p in enumerate(route)}
        edges = {(i - 1, i): tuple(p["edge"]) for i, p in enumerate(route) if i}
        near = partial(lambda places, i: [j for j in (i - 1, i + 1) if j in places], line)
        return partial(module.Board, line, edges, neighbours=near), list(line)
    count, place, heading, how = facing.headings, (0, 0), 0, "forward"
    places, edges, walked = {place: tuple(route[0]["features"])}, {}, [(place, heading)]
    for item in route[1:]:
        if isinstance(item, str):
            heading = (heading + 1) % count if item == "turn" else heading
            how = "forward" if item == "turn" else item
            walked += [(place, heading)] if item == "turn" else []
            continue
        side = {"forward": 0, "backward": count // 2, "sideslip": 1}[how]
        there = tuple(
            a + b for a, b in zip(place, HEADINGS[count][(heading + side) % count], strict=True)
        )
        if there in places:
            return None
        places[there], edges[place, there] = tuple(item["features"]), tuple(item["edge"])
        place, how = there, "forward"
        walked.append((place, heading))
    return partial(module.Board, places, edges, grid=facing.grid), walked


def route_question(
    p: dict[str, Any], data: dict[str, Any], module: ModuleType, rng: random.Random
) -> Question | None:
    """A route of two to six places (up to two features each, two on the edge into it; for a
    unit type with facing, a turn, sideslip or backward before some, a turn after the last),
    with a kind of move and an allowance some of the time: the route calculator's answer (the
    total, whether the route is legal and why not)."""
    mode = rng.choice(data["modes"])["id"]
    acts = [a["id"] for a in p["acts"]] if mode in getattr(module, "FACINGS", {}) else []
    edges = [f["id"] for f in p["edges"]]
    rows: list[dict[str, Any]] = []
    for n in range(rng.randint(2, ROUTE_PLACES)):
        act = rng.choice(["", "", *acts]) if n else ""
        layers = rng.sample(p["layers"], min(len(p["layers"]), rng.choice([1, 1, 2])))
        place = {"features": [rng.choice(layer["features"])["id"] for layer in layers]}
        crossed = [0, 0, 1, 2]  # at most as many edges as there are (armour_inches has one)
        place["edge"] = (
            rng.sample(edges, min(len(edges), rng.choice(crossed))) if n and edges else []
        )
        rows.append({"act": act, "place": place})
    if acts and rng.random() < 0.3:
        rows[-1] = {"act": "turn", "place": None}
    route = [x for r in rows for x in (r["act"], r["place"]) if x]
    laid = route_board(module, mode, route if acts else [x for x in route if isinstance(x, dict)])
    if laid is None:
        return None
    options: dict[str, Any] = {}
    if data["moves"] and rng.random() < 0.4:
        options["move"] = rng.choice(data["moves"])["id"]
    if rng.random() < 0.6:
        options["allowance"] = rng.choice([1, 2, 3, 4, 6, 9])
    state, fields = state_given(data, rng)
    if state is not None:
        options["state"] = state
    wind = rng.choice(["", *range(p["wind"])]) if "wind" in p else ""
    if wind != "":
        options["wind"] = wind
    fields += [['[data-arg="wind"]', wind]] if "wind" in p else []
    expected = route_answer(module, mode, laid, options)
    fields += [
        ['[data-arg="mode"]', mode],
        ['[data-arg="allowance"]', options.get("allowance", "")],
    ]
    if data["moves"]:
        fields.append(['[data-arg="move"]', options.get("move", "")])
    for n in range(1, ROUTE_PLACES + 1):
        row = rows[n - 1] if n <= len(rows) else {"act": "", "place": None}
        li = f"ol.places > li:nth-child({n})"
        if p["acts"] and n > 1:
            fields.append([f"{li} > select[name=act]", row["act"]])
        place = row["place"] or {"features": [], "edge": []}
        for name, key, first in (("place", "features", 1), ("edge", "edge", 3)):
            if name == "edge" and not (p["edges"] and n > 1):
                continue
            offset = first + bool(p["acts"] and n > 1) - 1
            for i in range(2):
                value = place[key][i] if i < len(place[key]) else ""
                fields.append([f"{li} > select:nth-of-type({offset + i + 1})", value])
    return {"form": "route", "set": fields, "read": ["output.answer"]}, [expected]


def route_answer(
    module: ModuleType, mode: str, laid: tuple[partial[Any], list[Any]], options: dict[str, Any]
) -> dict[str, Any] | None:
    """The Python module's route as the route calculator shows it: the total, whether it is
    legal and why not, and the state after it when one was given; None for a unit type that
    turns or sails by the wind asked without one, or whose rules read the wind's strength
    asked with a wind without it (the page asks for them)."""
    facing = getattr(module, "FACINGS", {}).get(mode)
    by_wind = [getattr(facing, name, None) for name in ("tack", "wear")]  # a module with wind
    if "wind" not in options and (by_wind != [None, None] or getattr(facing, "sail", ())):
        return None
    strong = getattr(facing, "strengths", ()) or getattr(facing, "strength_speeds", ())
    if strong and isinstance(options.get("wind"), int):
        return None
    ask = partial(lambda: module.route_cost(laid[0](), mode, laid[1], **options))
    expected = python_answer(module, ask)
    if "text" in expected:
        with warnings.catch_warnings():  # as python_answer: a module's warning class cannot
            warnings.simplefilter("ignore")  # be unpickled where pytest-xdist reports it
            found = ask()
        total = found.total
        shown = {"marker": total.value} if isinstance(total, module.Marker) else {"number": total}
        expected = {**shown, "legal": found.legal, "reason": found.reason}
        if getattr(found, "state", None) is not None:
            expected["state"] = found.state
    return expected


def path_question(p: dict[str, Any], module: ModuleType, rng: random.Random) -> Question:
    steps = "".join(rng.choice("sdd") for _ in range(rng.randint(0, 9)))
    unit = rng.choice(p["units"])["id"]
    expected = python_answer(module, lambda: module.path_cost(steps, unit=unit))
    fields = [['[data-arg="steps"]', steps], ['[data-arg="unit"]', unit]]
    return {"form": "path", "set": fields, "read": ["output.answer"]}, [expected]


NUMBERS = (0, 0.5, 1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12, 20, 45, 90, 180)


def decision_question(d: dict[str, Any], module: ModuleType, rng: random.Random) -> Question:
    fields: list[Any] = []
    given: dict[str, Any] = {}
    for i in d["inputs"]:
        match i["kind"]:
            case "flag":
                value: Any = rng.random() < 0.5
            case "key":
                value = rng.choice(i["keys"])["id"]
            case _:
                value = rng.choice(NUMBERS)
        fields.append([f'[data-input="{i["name"]}"]', value])
        given[i["name"]] = value
    expected = python_answer(module, lambda: getattr(module, d["id"])(**given))
    return {"form": f"decision-{d['id']}", "set": fields, "read": ["output.answer"]}, [expected]


def step_question(s: dict[str, Any], module: ModuleType, rng: random.Random) -> Question:
    value = rng.choice(NUMBERS)
    expected = python_answer(module, lambda: getattr(module, s["id"])(value))
    fields = [[f'[data-input="{s["input"]["name"]}"]', value]]
    return {"form": f"step-{s['id']}", "set": fields, "read": ["output.answer"]}, [expected]


def dice_questions(d: ir.DiceTable, module: ModuleType) -> list[Question]:
    """A roll of every total the dice reach and a few beyond, and every row's chance with
    each shift from -4 to +4 (its rows' own chance at 0)."""
    dice = roll_of(d.dice)
    distribution = dice.distribution()
    clear = [[f'input[data-id="{m.id}"]', False] for m in d.modifiers if m.value]
    form = f"dice-{d.id}"
    out: list[Question] = []
    for total in range(dice.minimum - 3, dice.maximum + 4):
        fields = [*clear, ["input[name=shift]", 0], ["input[name=natural]", ""]]
        fields.append(["input[name=total]", total])
        expected = python_answer(module, lambda total=total: module.roll(d.id, total))
        out.append(({"form": form, "set": fields, "read": ["output.answer"]}, [expected]))
    table = module.DICE_TABLES[d.id]
    for shift in range(-4, 5):
        chances = {row.id: Fraction(0) for row in table.rows}
        for natural, chance in distribution.items():
            try:
                row = module.roll(d.id, natural + shift, natural=natural)
            except Exception:  # a total no row covers: no chance for any row
                continue
            chances[row.id] += chance
        if shift == 0:
            assert chances == {row.id: row.chance for row in table.rows}
        read = [f'tr[data-row="{row.id}"] .chance' for row in table.rows]
        wanted = [{"fraction": [c.numerator, c.denominator]} for c in chances.values()]
        fields = [*clear, ["input[name=shift]", shift]]
        out.append(({"form": form, "set": fields, "read": read}, wanted))
    return out


def results_questions(t: ir.ResultsTable, module: ModuleType) -> list[Question]:
    """In each column: a roll of every total the dice reach and two beyond, and every
    outcome's chance with each shift from -2 to +2 (the module's own chances at 0)."""
    dice = roll_of(t.dice)
    distribution = dice.distribution()
    clear = [[f'input[data-id="{m.id}"]', False] for m in t.modifiers if m.value or m.shift]
    form = f"dice-{t.id}"
    table = module.RESULTS_TABLES[t.id]
    out: list[Question] = []
    for column in (c.id for c in t.columns):
        base = [*clear, ["select[name=column]", column], ["input[name=natural]", ""]]
        for total in range(dice.minimum - 2, dice.maximum + 3):
            fields = [*base, ["input[name=shift]", 0], ["input[name=total]", total]]
            ask = partial(module.roll, t.id, total, column=column)
            out.append(
                (
                    {"form": form, "set": fields, "read": ["output.answer"]},
                    [python_answer(module, ask)],
                )
            )
        for shift in range(-2, 3):
            chances = {o.id: Fraction(0) for o in t.outcomes}
            for natural, chance in distribution.items():
                result = module.roll(t.id, natural + shift, column=column, natural=natural)
                chances[result.id] += chance
            if shift == 0:
                assert chances == dict(table.chances[column])
            read = [f'tr[data-row="{o}"] .chance' for o in chances]
            wanted = [{"fraction": [c.numerator, c.denominator]} for c in chances.values()]
            fields = [*base, ["input[name=shift]", shift]]
            out.append(({"form": form, "set": fields, "read": read}, wanted))
    if all(c.ratio is not None for c in t.columns):
        out += strengths_questions(t, module)
    return out


STRENGTHS = ((7, 3), (5, 6), (3, 2), (7, 2), (1, 4), (9, 1), (2, 2), (0.5, 3))


def strengths_questions(t: ir.ResultsTable, module: ModuleType) -> list[Question]:
    """The column two strengths pick: a roll of each total, each outcome's chance."""
    dice = roll_of(t.dice)
    form = f"dice-{t.id}"
    out: list[Question] = []
    for attacker, defender in STRENGTHS:
        strengths = [["input[name=attacker]", attacker], ["input[name=defender]", defender]]
        base = [["input[name=shift]", 0], ["input[name=natural]", ""], *strengths]
        for total in range(dice.minimum, dice.maximum + 1):
            fields = [*base, ["input[name=total]", total]]
            ask = partial(module.roll, t.id, total, column=(attacker, defender))
            out.append(
                (
                    {"form": form, "set": fields, "read": ["output.answer"]},
                    [python_answer(module, ask)],
                )
            )
        column = module.roll(t.id, dice.minimum, column=(attacker, defender)).column
        chances = module.RESULTS_TABLES[t.id].chances[column]
        read = [f'tr[data-row="{o.id}"] .chance' for o in t.outcomes]
        wanted = [
            {"fraction": [chances[o.id].numerator, chances[o.id].denominator]} for o in t.outcomes
        ]
        out.append(({"form": form, "set": base, "read": read}, wanted))
    return out


def questions(ruleset: ir.Ruleset, module: ModuleType) -> list[Question]:
    """At least :data:`QUESTIONS` questions of the page's calculators, the same each run."""
    data = PageModel(ruleset, ruleset.languages[0]).data(None)
    rng = random.Random(ruleset.id)
    out = [q for d in ruleset.dice_tables for q in dice_questions(d, module)]
    out += [q for t in ruleset.results_tables for q in results_questions(t, module)]
    place = data["place"]
    if place is not None:
        out += [place_question(place, data, module, rng) for _ in range(QUESTIONS // 5 + 2)]
        out += facing_questions(data, module) if place["facing"] else []
        if place["sights"]:
            out += [line_question(place, data, module, rng) for _ in range(QUESTIONS // 5)]
        routes = (route_question(place, data, module, rng) for _ in range(QUESTIONS // 5))
        out += [q for q in routes if q is not None]
    if data["path"] is not None:
        out += [path_question(data["path"], module, rng) for _ in range(QUESTIONS // 5)]
    makers = [
        *((modifier_question, m) for m in data["modifiers"]),
        *((decision_question, d) for d in data["decisions"]),
        *((step_question, s) for s in data["steps"]),
    ]
    while makers and (asked(out) < 2 * QUESTIONS or len(out) < 4 * len(makers)):
        for make, item in makers:
            out.append(make(item, module, rng))
    return out


def asked(questions: list[Question]) -> int:
    """How many answers the questions read (each row's chance is one)."""
    return sum(len(q["read"]) for q, _ in questions)


def ask(browser: Browser, asked: list[dict[str, Any]]) -> list[list[Any]]:
    answers = evaluate(browser, f"({DRIVE})({json.dumps(asked)})")
    return [[json.loads(a) if a is not None else None for a in answer] for answer in answers]


# ---- the tests ------------------------------------------------------------------------------


def test_every_bundled_ruleset_has_a_page_in_each_of_its_languages(
    rulesets: dict[str, ir.Ruleset], pages: Path
) -> None:
    wanted = {f"{r.id}.{lang}.html" for r in rulesets.values() for lang in r.languages}
    assert {p.name for p in pages.iterdir()} == wanted


def test_every_bundled_page_is_within_the_size_budget(pages: Path) -> None:
    sizes = {p.name: p.stat().st_size for p in pages.iterdir()}
    assert max(sizes.values()) <= BUDGET, sizes


CHANGED_FEATURE = re.compile(r'name="feature" value="(\w+)"> [^<]*<span class="mark changed">')


def test_a_house_rule_s_page_marks_what_it_changes_against_its_base(pages: Path) -> None:
    """heavy_gear_house overrides soft ground for walkers and what rapid water adds: the
    place calculator marks those two features, and the reference their cells; the base's
    page marks nothing."""
    house = (pages / "heavy_gear_house.en.html").read_text("utf-8")
    assert CHANGED_FEATURE.findall(house) == ["soft", "rapid_water"]
    assert house.count('<td class="changed">') >= 2
    base = (pages / "heavy_gear.en.html").read_text("utf-8")
    assert CHANGED_FEATURE.findall(base) == [] and 'class="changed"' not in base


FETCHES = re.compile(
    r"""(?=[\s@uif])"""  # each alternative's first character: most places are passed at once
    r"""(?:\ssrc=|\shref=["']?(?:https?:|//)|@import|url\((?!#)|\bfetch\(|import\((?!blob\)))"""
)
"""What would make a page fetch something: an element's source, a link off the page, a
stylesheet import or url(), a script's fetch or dynamic import (but the workshop's
``import(blob)``: the page's own module, rewritten, from a blob URL). The 33 bundled pages
(9.2 MB) are searched in 0.3 s of CPU, not 0.5 s without the lookahead."""


def test_a_page_names_nothing_to_fetch(pages: Path) -> None:
    for page in pages.iterdir():
        assert FETCHES.findall(page.read_text("utf-8")) == [], page.name


@pytest.mark.parametrize("name", NAMES)
def test_the_page_answers_as_the_python_module(
    name: str,
    rulesets: dict[str, ir.Ruleset],
    pages: Path,
    browser: Browser,
    tmp_path: Path,
) -> None:
    ruleset = rulesets[name]
    module = import_rendered(ruleset, tmp_path, f"web_{name}")
    put = questions(ruleset, module)
    assert asked(put) >= QUESTIONS
    visit(browser, pages / f"{name}.{ruleset.languages[0]}.html")
    answers = ask(browser, [q for q, _ in put])
    wrong = [(q, a, e) for (q, e), a in zip(put, answers, strict=True) if a != e]
    assert wrong == [], wrong[:3]
    assert evaluate(browser, "performance.getEntriesByType('resource').length") == 0


@pytest.mark.parametrize("name", NAMES)
def test_every_worked_example_s_try_it_shows_its_stated_answer(
    name: str, rulesets: dict[str, ir.Ruleset], pages: Path, browser: Browser, tmp_path: Path
) -> None:
    ruleset = rulesets[name]
    visit(browser, pages / f"{name}.{ruleset.languages[0]}.html")
    shown = evaluate(
        browser,
        """[...document.querySelectorAll("button[data-example]")].map((button) => {
          button.click();
          const example = JSON.parse(document.getElementById("page-data").textContent)
            .examples[Number(button.dataset.example)];
          const shown = document.querySelector(".tried[data-answer]")?.dataset.answer;
          return [example.kind, example.args, example.text, example.expected, shown];
        })""",
    )
    examples = evaluate(browser, "JSON.parse(document.getElementById('page-data').textContent)")
    tried = [e for e in examples["examples"] if not _no_calculator(e)]
    assert len(shown) == len(tried), [e["text"] for e in tried if not e["tryable"]]
    looked = any(s[0] == "lookup" for s in shown)
    module = import_rendered(ruleset, tmp_path, f"try_{name}") if looked else None
    for kind, args, text, expected, answer in shown:
        assert answer is not None, text
        if kind == "lookup":  # the page's words for a rate or a span: the Python module's
            assert json.loads(answer) == python_answer(module, partial(module.lookup, *args)), text
        else:
            assert same_answer(json.loads(answer), expected), (text, answer)


def _no_calculator(example: dict[str, Any]) -> bool:
    """A worked example the page has no calculator for (issue 40): a free move off the grid,
    an effect by unit type, an arc from two places, a route's state or rolls after it
    (docs/language.md, "Worked examples")."""
    elsewhere = example["kind"] in ("free_move", "effect", "arc_between")
    return elsewhere or "attribute" in example


def same_answer(answer: dict[str, Any], expected: list[dict[str, Any]]) -> bool:
    """Whether the page's answer is what the worked example states (the example vectors'
    plain parts: a number, a marker, a word naming an outcome or a row)."""
    [stated] = expected[:1]
    match answer:
        case {"legal": legal, "reason": _, **total}:  # a route: its total, "illegal" after it
            return same_answer(total, expected[:1]) and legal == (
                expected[1:] != [{"word": "illegal"}]
            )
        case {"number": number}:
            return stated.get("number") == number
        case {"marker": marker}:
            return stated.get("marker") == marker
        case {"outcome": word} | {"row": word} | {"result": word}:
            return stated.get("word") == word
        case {"bool": flag}:
            return stated.get("bool") == flag
        case {"fraction": fraction}:
            return stated.get("fraction") == fraction
        case {"rolls": rolls}:  # each roll's name and modifier, or "none"
            parts = [p for roll, number in rolls for p in ({"word": roll}, {"number": number})]
            return parts == ([] if expected == [{"word": "none"}] else expected)
    return False


@pytest.fixture(scope="module")
def axe(pytestconfig: pytest.Config) -> str:
    """axe-core's script, from the test setup's npm lock (tests/js/, installed once into
    pytest's cache beside TypeScript)."""
    from tests.typescript import _typescript

    node_modules = _typescript(pytestconfig).parents[2]
    return (node_modules / "axe-core" / "axe.min.js").read_text("utf-8")


AXE_RUN = """document.head.insertAdjacentHTML("beforeend", `<style>%s</style>`);
axe.run(document, {runOnly: {type: "tag", values: %s}, resultTypes: ["violations"]})
  .then((found) => found.violations.map((v) => [v.id, v.impact, v.nodes.length,
    v.nodes.slice(0, 2).map((n) => n.target.join(" "))]))"""
"""Every rule of ``LEVELS`` run on the page, its violations in full; the other kinds of result
(passes, incomplete, inapplicable) keep one node a rule (``resultTypes``: axe then makes no
selector for each of the thousands of nodes that pass colour contrast, about a tenth of the
runs' CPU in Chromium). Every topic of the reference is first laid out as it is in view
(:data:`IN_VIEW`)."""
IN_VIEW = ".topic { content-visibility: visible; contain: layout style paint; }"
"""A topic in view: the page's ``content-visibility: auto`` skips the topics out of view (not
laid out or painted), and axe's colour contrast, which reads what is painted at a point, missed
a grey-on-grey paragraph in the first topic there; a topic in view has its layout, style and
paint contained and no size of its own, as here."""

LEVELS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def axe_violations(browser: Browser) -> Any:
    """axe-core's violations of ``LEVELS`` on the page open in ``browser`` (:data:`AXE_RUN`;
    axe's script already evaluated there)."""
    return evaluate(browser, AXE_RUN % (IN_VIEW, json.dumps(LEVELS)))


@pytest.mark.parametrize(
    "page",
    [
        "heavy_gear_house.de",
        "skirmish_keywords.en",
        "hex_operational.fr",
        "battletech_tacops.ru",
        "void_patrol.en",
    ],
)
def test_axe_core_finds_no_level_a_or_aa_violation(
    page: str, pages: Path, browser: Browser, axe: str
) -> None:
    visit(browser, pages / f"{page}.html")
    evaluate(browser, axe + ";0")
    evaluate(browser, "document.querySelector('button.roll')?.click(); 0")  # an answer shown
    assert axe_violations(browser) == []


BOXES = """JSON.stringify([...document.querySelectorAll("#reference *")].map((e) => {
  const r = e.getBoundingClientRect();
  return [e.tagName, e.id, r.x, r.y + scrollY, r.width, r.height];
}))"""
UNCONTAINED = ".topic { content-visibility: visible; }"


def test_a_topic_in_view_has_the_spacing_it_has_uncontained(pages: Path, browser: Browser) -> None:
    """A topic in view (:data:`IN_VIEW`) keeps the margins at its edges inside it (layout
    containment); the page's styles move them (its title's top margin to the topic, its last
    shown line's bottom margin dropped on one column, the tests' tab's width) so that every
    box of the reference stands where it stands with the topics uncontained and the margins
    collapsing, the whole reference shown or filtered (blocks hidden, topics left empty)."""
    visit(browser, pages / "heavy_gear_house.en.html")
    evaluate(
        browser, f"document.head.insertAdjacentHTML('beforeend', `<style id=t>{IN_VIEW}</style>`)"
    )
    for search in ("", "soft"):
        evaluate(
            browser,
            f"""{{ const field = document.querySelector("form.filters input[type=search]");
            field.value = "{search}";
            field.dispatchEvent(new Event("input", {{bubbles: true}})) }}""",
        )
        assert search == "" or evaluate(
            browser, "document.querySelectorAll('.block[hidden]').length"
        )
        evaluate(browser, "document.getElementById('t').textContent = " + json.dumps(IN_VIEW))
        contained = evaluate(browser, BOXES)
        evaluate(browser, "document.getElementById('t').textContent = " + json.dumps(UNCONTAINED))
        assert evaluate(browser, BOXES) == contained


PHONE = {"width": 390, "height": 844}
"""A phone's viewport in CSS pixels (an iPhone 14's)."""


def test_no_bundled_page_is_wider_than_a_phone(pages: Path, browser: Browser) -> None:
    """Every bundled page fits a phone's width: nothing makes the whole page scroll sideways
    (a wide table scrolls in its own box). A fieldset's least width is its widest line by
    default, so the line-of-sight calculator's lists of long French feature names made
    skirmish_keywords.fr 422 px wide; each topic is laid out as it is in view (:data:`IN_VIEW`)."""
    browser.call("Emulation.setDeviceMetricsOverride", deviceScaleFactor=1, mobile=True, **PHONE)
    wide = {}
    try:
        for page in sorted(pages.glob("*.html")):
            visit(browser, page)
            evaluate(
                browser,
                f"document.head.insertAdjacentHTML('beforeend', `<style>{IN_VIEW}</style>`)",
            )
            width = evaluate(browser, "document.documentElement.scrollWidth")
            if width > PHONE["width"]:
                wide[page.stem] = width
    finally:
        browser.call(
            "Emulation.setDeviceMetricsOverride", deviceScaleFactor=1, mobile=False, **VIEWPORT
        )
    assert wide == {}


def key(browser: Browser, name: str, code: str, text: str = "", shift: bool = False) -> None:
    for kind in ("keyDown", "keyUp"):
        browser.call(
            "Input.dispatchKeyEvent",
            type=kind,
            key=name,
            code=code,
            text=text if kind == "keyDown" else "",
            windowsVirtualKeyCode={"Tab": 9, " ": 32, "ArrowDown": 40}[name],
            modifiers=8 if shift else 0,
        )


def test_the_calculators_work_from_the_keyboard_alone(pages: Path, browser: Browser) -> None:
    """Tab to the first thing the cover modifier counts, tick it with the space bar: the
    result follows; every control Tab reaches has a name a screen reader reads."""
    visit(browser, pages / "heavy_gear.en.html")
    evaluate(browser, "document.activeElement.blur(); 0")
    reached = []
    for _ in range(40):
        key(browser, "Tab", "Tab")
        reached.append(evaluate(browser, "document.activeElement.outerHTML.slice(0, 80)"))
        if evaluate(browser, "document.activeElement.closest('#modifier-cover') !== null"):
            break
    else:
        raise AssertionError(f"Tab never reached the cover modifier: {reached}")
    assert evaluate(browser, "document.activeElement.value") == "full"
    key(browser, " ", "Space", " ")
    answer = "document.querySelector('#modifier-cover output.answer').dataset.answer"
    assert json.loads(evaluate(browser, answer)) == {"number": -2}
    key(browser, "Tab", "Tab")
    key(browser, " ", "Space", " ")  # partial cover too: -2 + -1
    assert json.loads(evaluate(browser, answer)) == {"number": -3}


def test_the_results_table_s_column_and_modifiers_work_from_the_keyboard(
    pages: Path, browser: Browser
) -> None:
    """hex_operational's combat results: Tab to the column, the down arrow picks 1:1 (an
    attacker eliminated on a 1 alone: 1/6); Tab past the strengths to "armour and infantry
    together" and tick it with the space bar: +1 to the die, no attacker eliminated any more."""
    visit(browser, pages / "hex_operational.en.html")
    evaluate(browser, "document.activeElement.blur(); 0")
    for _ in range(60):
        key(browser, "Tab", "Tab")
        if evaluate(browser, "document.activeElement.matches('#dice-crt select[name=column]')"):
            break
    else:
        raise AssertionError("Tab never reached the combat results table's column")
    chance = "document.querySelector('#dice-crt tr[data-row=ae] .chance').dataset.answer"
    assert json.loads(evaluate(browser, chance)) == {"fraction": [1, 3]}  # at 1:2
    key(browser, "ArrowDown", "ArrowDown")
    assert json.loads(evaluate(browser, chance)) == {"fraction": [1, 6]}  # at 1:1
    for _ in range(3):  # past the two strengths
        key(browser, "Tab", "Tab")
    assert evaluate(browser, "document.activeElement.dataset.id") == "combined_arms"
    key(browser, " ", "Space", " ")
    assert json.loads(evaluate(browser, chance)) == {"fraction": [0, 1]}


def test_the_filters_keep_one_unit_type_s_column_and_one_feature_s_row(
    pages: Path, browser: Browser
) -> None:
    """heavy_gear's terrain table by unit type, then by feature: the hover column alone
    (its heading too), then the soft-ground row alone; "any" brings every row back."""
    visit(browser, pages / "heavy_gear.en.html")
    table = "document.querySelector('#movement-terrain table')"
    shown = f"""[...{table}.querySelectorAll('tr')].map((tr) => [...tr.cells]
      .filter((c) => !c.hidden && !tr.hidden).map((c) => c.textContent.trim()))
      .filter((row) => row.length)"""
    choose = """(name, value) => {
      const field = document.querySelector(`form.filters [name=${name}]`);
      field.value = value;
      field.dispatchEvent(new Event("change", {bubbles: true}));
    }"""
    evaluate(browser, f"({choose})('mode', 'hover')")
    rows = evaluate(browser, shown)
    assert rows[0] == ["Terrain", "MP per in"] and rows[1] == ["Hover"]
    assert all(len(row) == 2 for row in rows[2:]) and len(rows) > 5
    evaluate(browser, f"({choose})('feature', 'soft')")
    assert evaluate(browser, shown)[2:] == [["Soft (sand, snow, mud)", "2"]]
    evaluate(browser, f"({choose})('feature', ''); ({choose})('mode', '')")
    assert len(evaluate(browser, shown)) == len(rows) and len(evaluate(browser, shown)[3]) == 4


def test_each_page_links_to_its_other_languages(
    rulesets: dict[str, ir.Ruleset], pages: Path
) -> None:
    for ruleset in rulesets.values():
        for lang in ruleset.languages:
            html = (pages / f"{ruleset.id}.{lang}.html").read_text("utf-8")
            assert f'<html lang="{lang}">' in html
            links = re.findall(r'<a href="([^"]+)" hreflang="(\w+)"', html)
            if len(ruleset.languages) > 1:
                assert links == [(f"{ruleset.id}.{x}.html", x) for x in ruleset.languages]


HOSTILE = "</script><img src=x onerror='document.title=1'><!--"


def test_a_label_cannot_put_markup_or_script_into_the_page(
    pages: Path, browser: Browser, tmp_path: Path
) -> None:
    """A unit type, a feature and a ruleset title made of markup stay text: in the tables,
    the forms, the data and the inlined module; the page's script still runs."""
    text = (RULESETS / "heavy_gear.terrain").read_text("utf-8")
    for old in ('mode walker "Walker"', 'soft "Soft (sand, snow, mud)"'):
        assert old in text
        text = text.replace(old, old.split('"')[0] + f'"{HOSTILE}"')
    compiled = Compiler().compile_text(text, str(tmp_path / "heavy_gear.terrain"), tmp_path)
    assert compiled.ruleset is not None, compiled.diagnostics
    [(path, html)] = list(web_outputs(compiled.ruleset).items())[:1]
    page = tmp_path / Path(path).name
    page.write_bytes(html)  # type: ignore[arg-type]
    visit(browser, page)
    assert evaluate(browser, "document.querySelectorAll('img').length") == 0
    shown = evaluate(browser, "document.getElementById('place').innerText")
    assert HOSTILE in shown and evaluate(browser, "document.title") != "1"


# ---- the house-rule workshop ----------------------------------------------------------------

NO_COST_CELLS = ("d20_movement", "generic_wargame")
"""The bundled rulesets without a terrain cost cell to change: d20_movement has no features,
generic_wargame's costs are all scenario parameters."""
WORKSHOP = [name for name in NAMES if name not in NO_COST_CELLS]
MODIFIER_CELLS = ("battletech_tacops", "generic_wargame", "heavy_gear", "hex_operational")
MODIFIER_CELLS += ("skirmish_keywords", "armour_inches", "canvas_wings")
DICE_ROWS = ("battletech_tacops", "hex_operational", "skirmish_keywords", "void_patrol")
DICE_ROWS += ("armour_inches", "canvas_wings")
"""The bundled base rulesets with a modifier's value, and with a dice table's rows, to change
(d20_movement has neither; void_patrol no modifier; generic_wargame and heavy_gear no dice)."""


def page_data(page: Path) -> dict[str, Any]:
    """The data a page's script reads (its calculators', examples' and workshop's)."""
    text = page.read_text("utf-8")
    return json.loads(text.split('id="page-data">')[1].split("</script>")[0])  # type: ignore[no-any-return]


def test_the_page_offers_every_sight_rule_and_a_state_field_where_the_rules_have_states(
    rulesets: dict[str, ir.Ruleset], pages: Path
) -> None:
    """The place and line calculators offer every sight rule, those in a band of a state
    (canvas_wings' clouds) with the viewer's state to give; the state fields, the wind and
    the script that reads them are only on the page of rules with states or whose wind counts
    (issue 40): every other page is as it was."""
    with_fields = set()
    for page in pages.iterdir():
        rs = rulesets[page.name.split(".")[0]]
        offered = {s["id"] for s in (page_data(page)["place"] or {}).get("sights", [])}
        assert offered == ({s.id for s in rs.sights} if rs.modes and rs.features else set())
        text = page.read_text("utf-8")
        wind = any(f.tack is not None or f.wear is not None for f in rs.facings) or rs.drifts
        fields = ("data-state=", 'data-arg="wind"', "function stateOf(")
        assert [f in text for f in fields] == [bool(rs.states), bool(wind), bool(rs.states or wind)]
        assert "[state fields]" not in text and "[no state fields]" not in text
        with_fields |= {rs.id} if rs.states else set()
    assert with_fields == {"canvas_wings", "canvas_wings_house"}


def test_a_page_has_a_workshop_when_its_ruleset_has_cells_to_change(
    rulesets: dict[str, ir.Ruleset], pages: Path
) -> None:
    """Every page but d20_movement's has a workshop, and the bundled base rulesets with
    modifier or dice cells to change are those the round trip below covers."""
    found: dict[str, set[str]] = {"modifiers": set(), "dice": set()}
    for page in pages.iterdir():
        name = page.name.split(".")[0]
        assert ('<section id="workshop"' in page.read_text("utf-8")) == (name != "d20_movement")
        shop = page_data(page)["workshop"]
        for kind, names in found.items():
            if shop[kind] and not rulesets[name].extends:
                names.add(name)
    assert found == {"modifiers": set(MODIFIER_CELLS), "dice": set(DICE_ROWS)}


def workshop_cell(data: dict[str, Any]) -> dict[str, Any]:
    """The cell to change: one a worked example asks the move cost of where there is one (so
    the download must restate or drop it), else the first the place calculator can tick."""
    ticked = {f["id"] for layer in data["place"]["layers"] for f in layer["features"]}
    shop = data["workshop"]
    cells = [
        {"feature": feature, "mode": mode, "value": value}
        for feature, costs in shop["costs"].items()
        if feature in ticked and feature not in shop["derived"]
        for mode, value in costs.items()
    ]
    asked = [e["args"] for e in data["examples"] if e["question"] == "move_cost"]
    for cell in cells:
        if any(cell["mode"] == a[0] and cell["feature"] in a[1:] for a in asked):
            return cell
    return cells[0]


def download(browser: Browser) -> str:
    """The house rule the workshop's download link holds."""
    link = "document.querySelector('#workshop a.download').href"
    return str(evaluate(browser, f"decodeURIComponent({link}.split(',').slice(1).join(','))"))


def change_cell(browser: Browser, cell: dict[str, Any], value: float) -> str:
    """Changes ``cell`` through the workshop form as a user would, waits for the page to
    answer with it and returns the house rule the download link holds."""
    evaluate(
        browser,
        f"""(() => {{
  const form = document.querySelector("#workshop form");
  form.elements.feature.value = {json.dumps(cell["feature"])};
  form.elements.mode.value = {json.dumps(cell["mode"])};
  form.elements.mode.dispatchEvent(new Event("change", {{bubbles: true}}));
  form.elements.value.value = {json.dumps(str(value))};
  form.querySelector("button[name=apply]").click();
  return 0;
}})()""",
    )
    made = [{"feature": cell["feature"], "mode": cell["mode"], "value": value}]
    wait_for(
        browser, "document.documentElement.dataset.variant", json.dumps(made, separators=(",", ":"))
    )
    return download(browser)


@pytest.mark.parametrize("name", WORKSHOP)
def test_a_cost_changed_in_the_workshop_downloads_a_house_rule_that_answers_as_the_page(
    name: str, rulesets: dict[str, ir.Ruleset], pages: Path, browser: Browser, tmp_path: Path
) -> None:
    """A terrain cost cell changed in the page: the downloaded house rule compiles on its base
    without a diagnostic (E271: the worked examples it changes are restated or dropped), and
    its Python module answers the place calculator's questions, each with the changed feature
    ticked, as the page then shows them."""
    ruleset = rulesets[name]
    page = pages / f"{name}.{ruleset.languages[0]}.html"
    shown = page_data(page)
    cell = workshop_cell(shown)
    visit(browser, page)
    value = cell["value"] + 1
    value = int(value) if float(value).is_integer() else value  # as JavaScript writes it
    text = change_cell(browser, cell, value)
    assert f"override {cell['feature']}.{cell['mode']} | {value}" in text
    compiled = Compiler().compile_text(text, str(RULESETS / f"{name}_workshop.terrain"))
    assert compiled.diagnostics == [] and compiled.ruleset is not None, text
    module = import_rendered(compiled.ruleset, tmp_path, f"workshop_{name}")
    ticked = [f'input[name=feature][value="{cell["feature"]}"]', True]
    put: list[Question] = []
    for seed in range(2000):
        q = place_question(shown["place"], shown, module, random.Random(seed))
        if ticked in q[0]["set"] and (q[0]["set"][0][1] == cell["mode"] or seed % 3 == 0):
            put.append(q)
        if len(put) == 12:
            break
    assert len(put) == 12
    answers = ask(browser, [q for q, _ in put])
    wrong = [(q, a, e) for (q, e), a in zip(put, answers, strict=True) if a != e]
    assert wrong == [], wrong[:3]


def test_the_workshop_will_not_change_a_cost_a_kind_of_move_derives_from(
    pages: Path, browser: Browser
) -> None:
    """void_patrol's flank move has its own costs over asteroids, derived by the compiler:
    the page cannot recompute them, so it says so and offers no Apply for that cell."""
    visit(browser, pages / "void_patrol.en.html")
    state = evaluate(
        browser,
        """(() => {
  const form = document.querySelector("#workshop form");
  form.elements.feature.value = "asteroids";
  form.elements.feature.dispatchEvent(new Event("change", {bubbles: true}));
  return [form.elements.apply.disabled, form.querySelector(".status").textContent];
})()""",
    )
    assert state[0] is True and "Flank" in state[1], state


def test_undo_in_the_workshop_gives_back_the_ruleset_s_own_answers(
    pages: Path, browser: Browser
) -> None:
    """heavy_gear: soft ground at 2 for walkers, then Undo: the place calculator answers 3
    again and there is nothing to download."""
    visit(browser, pages / "heavy_gear.en.html")
    cell = {"feature": "soft", "mode": "walker", "value": 3}
    change_cell(browser, cell, 2)
    cost = "document.querySelector('#place output[data-ask=move_cost]').dataset.answer"
    place = """(() => { const f = document.getElementById('place');
  f.querySelector('[data-arg=mode]').value = 'walker';
  for (const box of f.querySelectorAll('input[name=feature]')) box.checked = box.value === 'soft';
  f.dispatchEvent(new Event('change')); return 0; })()"""
    evaluate(browser, place)
    assert json.loads(evaluate(browser, cost)) == {"number": 2}
    evaluate(browser, "document.querySelector('#workshop button.undo').click(); 0")
    wait_for(browser, "document.documentElement.dataset.variant", "[]")
    evaluate(browser, place)
    assert json.loads(evaluate(browser, cost)) == {"number": 3}
    assert evaluate(browser, "document.querySelector('#workshop a.download').hidden") is True


def apply_in_workshop(browser: Browser, kind: str, fields: list[tuple[str, Any]]) -> None:
    """Fills the workshop's form of ``kind`` as a user would (a change event from each field,
    in order) and presses its Apply."""
    evaluate(
        browser,
        f"""(() => {{
  const form = document.querySelector("#workshop form[data-workshop={kind}]");
  for (const [name, value] of {json.dumps(fields)}) {{
    form.elements[name].value = String(value);
    form.elements[name].dispatchEvent(new Event("change", {{bubbles: true}}));
  }}
  form.querySelector("button[name=apply]").click();
  return 0;
}})()""",
    )


def modifier_change(data: dict[str, Any]) -> dict[str, Any]:
    """A modifier item's value to change, by 1: one a worked example asks about, for the
    context value it gives (so the download must restate the example), else the first."""
    shop = data["workshop"]["modifiers"]
    contexts = {m["id"]: [c["id"] for c in m["contexts"]] for m in data["modifiers"]}
    found = [
        (
            e["args"][0],
            item,
            next((e["kwargs"][c] for c in contexts[e["args"][0]] if c in e["kwargs"]), ""),
        )
        for e in data["examples"]
        if e["question"] == "modifier" and e["args"][0] in shop
        for item in e["args"][1:]
        if item in shop[e["args"][0]]
    ]
    first = next(iter(shop))
    modifier, item, key = [*found, (first, next(iter(shop[first])), "")][0]
    values = shop[modifier][item]["values"]
    return {
        "modifier": modifier,
        "item": item,
        "key": key,
        "value": values.get(key, values[""]) + 1,
    }


def dice_change(data: dict[str, Any]) -> dict[str, Any]:
    """A total at the edge of a dice row to give to the row next to it: of a row whose chance
    a worked example states where there is one (so the download restates that chance, as the
    page recomputed it), else the first such total."""
    asked = {tuple(e["args"][:2]) for e in data["examples"] if e["question"] == "chance"}
    found = []
    for table, rows in data["workshop"]["dice"].items():
        for i, (row, low, high) in enumerate(rows):
            if i > 0 and low is not None and high != low:
                found.append(
                    ((table, row) in asked, {"table": table, "total": low, "row": rows[i - 1][0]})
                )
            if i + 1 < len(rows) and high is not None and high != low:
                found.append(
                    ((table, row) in asked, {"table": table, "total": high, "row": rows[i + 1][0]})
                )
    return sorted(found, key=lambda f: not f[0])[0][1]


@pytest.mark.parametrize("name", sorted({*MODIFIER_CELLS, *DICE_ROWS}))
def test_modifier_and_dice_row_changes_download_a_house_rule_that_answers_as_the_page(
    name: str, rulesets: dict[str, ir.Ruleset], pages: Path, browser: Browser, tmp_path: Path
) -> None:
    """A modifier's value and the row a dice total gives, each changed through the page's
    forms where the ruleset has them: the downloaded house rule compiles on its base without a
    diagnostic (the worked examples whose answers change, chances included, restated as the
    page recomputed them), and its Python module answers as the page then shows: the changed
    modifier with the changed item ticked, and every total and row chance of the changed
    table."""
    ruleset = rulesets[name]
    page = pages / f"{name}.{ruleset.languages[0]}.html"
    shown = page_data(page)
    visit(browser, page)
    made: list[dict[str, Any]] = []
    if name in MODIFIER_CELLS:
        change = modifier_change(shown)
        item = f"{change['modifier']} {change['item']}"
        apply_in_workshop(
            browser,
            "modifier",
            [("factor", item), ("key", change["key"]), ("value", change["value"])],
        )
        made.append(change)
    if name in DICE_ROWS:
        change = dice_change(shown)
        row = f"{change['table']} {change['row']}"
        apply_in_workshop(browser, "dice", [("total", change["total"]), ("row", row)])
        made.append(change)
    wait_for(
        browser, "document.documentElement.dataset.variant", json.dumps(made, separators=(",", ":"))
    )
    text = download(browser)
    compiled = Compiler().compile_text(text, str(RULESETS / f"{name}_workshop.terrain"))
    assert compiled.diagnostics == [] and compiled.ruleset is not None, text
    module = import_rendered(compiled.ruleset, tmp_path, f"workshop_{name}")
    put: list[Question] = []
    if name in MODIFIER_CELLS:
        m = next(m for m in shown["modifiers"] if m["id"] == made[0]["modifier"])
        ticked = [f'input[name=item][value="{made[0]["item"]}"]', True]
        for seed in range(500):
            q = modifier_question(m, module, random.Random(seed))
            if ticked in q[0]["set"] and len(put) < 12:
                put.append(q)
        assert len(put) == 12
    if name in DICE_ROWS:
        table = next(t for t in compiled.ruleset.dice_tables if t.id == made[-1]["table"])
        put += dice_questions(table, module)
    answers = ask(browser, [q for q, _ in put])
    wrong = [(q, a, e) for (q, e), a in zip(put, answers, strict=True) if a != e]
    assert wrong == [], wrong[:3]


def test_the_workshop_gives_a_dice_total_only_to_the_row_next_to_its_own(
    pages: Path, browser: Browser
) -> None:
    """skirmish_keywords' injury table: 5 is the top of "wounded" (4-5), so it may go to
    "out of action" next to it, not to "knocked down" two rows away: the page says why and
    changes nothing."""
    visit(browser, pages / "skirmish_keywords.en.html")
    apply_in_workshop(browser, "dice", [("total", 5), ("row", "injury knocked_down")])
    status = "document.querySelector('#workshop form[data-workshop=dice] .status').textContent"
    assert "row next to it" in evaluate(browser, status)
    assert evaluate(browser, "document.querySelectorAll('#workshop li[data-kind]').length") == 0
