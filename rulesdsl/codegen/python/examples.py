"""A ruleset's worked examples as test vectors (issue 27): ``<id>.examples.json``, written
by ``rulesdsl export --examples`` and by the build beside the module, and
``test_<id>_examples.py``, a pytest file the build writes beside the module that replays
every vector against it (``pytest generated/python``), so a program using the module, or a
future backend, can be held to the answers the ruleset states."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from rulesdsl.codegen.plan.examples import ExamplesPlan

FORMAT = 1
"""The version of the vectors' JSON layout."""


def vectors_document(plan: ExamplesPlan) -> dict[str, Any]:
    """The worked examples as one JSON document: the ruleset, then one vector per question
    (see :class:`rulesdsl.codegen.plan.examples.Vector`)."""
    return {
        "format": FORMAT,
        "ruleset": plan.ruleset.id,
        "version": plan.ruleset.version,
        "digest": plan.ruleset.digest,
        "vectors": [  # `attribute` only where an example states one (issue 40)
            {k: x for k, x in dataclasses.asdict(v).items() if k != "attribute" or x}
            for v in plan.vectors
        ],
    }


def vectors_json(plan: ExamplesPlan) -> str:
    return json.dumps(vectors_document(plan), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def render_test(plan: ExamplesPlan) -> str:
    """The pytest file that replays ``<id>.examples.json`` against ``<id>.py``."""
    imports = "\n".join(sorted([f"import {plan.ruleset.id} as module", "import pytest"]))
    return _TEST.replace("IMPORTS", imports).replace("MODULE", plan.ruleset.id)


_TEST = '''"""Replays a ruleset's worked examples, written beside this file by rulesdsl, against
its generated module: `pytest` in this folder (pytest puts the folder on the import path).

    MODULE.py
    MODULE.examples.json
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

IMPORTS

VECTORS_FILE = "MODULE.examples.json"
VECTORS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / VECTORS_FILE).read_text("utf-8")
)["vectors"]
API: Any = module
"""The module, typed loosely: the questions it answers depend on its ruleset (a results
table's chances, a facing rule), and the replay asks only those its examples ask."""


def plain(value: Any) -> list[dict[str, Any]]:
    """The module's answer in the vectors' plain form."""
    if isinstance(value, module.Marker):
        return [{"marker": value.value}]
    if isinstance(value, bool):
        return [{"bool": value}]
    if isinstance(value, Fraction):
        return [{"fraction": [value.numerator, value.denominator]}]
    if isinstance(value, int | float):
        return [{"number": float(value)}]
    if isinstance(value, str):
        return [{"word": value}]
    if type(value) is tuple:  # rolls_due (a plain tuple of RollDue): each name and modifier
        parts = [p for due in value for p in ({"word": due.roll}, {"number": due.modifier})]
        return parts or [{"word": "none"}]
    name = type(value).__name__
    if name == "Sight":
        blocked = [{"marker": "blocked"}] if value.blocked else []
        return [{"number": float(value.hindrance)}, *blocked]
    if name in ("Route", "FacingRoute"):
        illegal = [] if value.legal else [{"word": "illegal"}]
        return [*plain(value.total), *illegal]
    if name in ("DiceRow", "Result", "Outcome"):
        return [{"word": value.id}]
    if name == "FreeMove":  # what the move used, then whether it ends (issue 40)
        return [{"number": float(value.used)}, *([{"word": "ends"}] if value.ends else [])]
    if name == "Span":
        return [{"span": [value.low, value.high]}]
    if name == "Dice":
        return [{"dice": [value.number, value.sides, value.bonus]}]
    if name == "D66":
        return [{"d66": value.bonus}]
    if name == "Rate":
        return [{"rate": [value.amount, value.per]}]
    if name == "Trade":
        return [{"trade": [value.gain, value.cost]}]
    raise TypeError(f"no plain form for {value!r}")


def same(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return bool(a == b)


def ask(vector: dict[str, Any]) -> Any:
    """Asks the module the vector's question."""
    question, args, kwargs = vector["question"], vector["args"], dict(vector["kwargs"])
    if question == "chance" and args[0] in getattr(API, "RESULTS_TABLES", {}):
        results = API.RESULTS_TABLES[args[0]]
        column = kwargs["column"]
        if not isinstance(column, str):
            low, high, _ = results.rows[0]  # a total some row covers: the column is the answer
            column = API.roll(args[0], high if low is None else low, column=column).column
        if "modifier" in kwargs:
            return results.chances_with[kwargs["modifier"]][column][args[1]]
        return results.chances[column][args[1]]
    if question == "chance":
        row = next(r for r in API.DICE_TABLES[args[0]].rows if r.id == args[1])
        return row.chance_with[kwargs["modifier"]] if "modifier" in kwargs else row.chance
    if question == "route_cost" and args[0] in getattr(API, "FACINGS", {}):
        return facing_route(args, kwargs)
    if question == "route_cost":
        places = {i: tuple(p["features"]) for i, p in enumerate(args[1:])}
        edges = {(i - 1, i): tuple(p["edge"]) for i, p in enumerate(args[1:]) if i}

        def neighbours(i: Any) -> list[Any]:
            return [j for j in (i - 1, i + 1) if j in places]

        board = API.Board(places, edges, neighbours=neighbours)
        return API.route_cost(board, args[0], list(places), **kwargs)
    function = getattr(API, question)
    if question == "free_move":
        try:
            return function(*args, **kwargs)
        except API.IllegalMove:
            return "illegal"
    if question == "line_of_sight" and vector["kind"] == "line_of_sight":
        if "crossed" in kwargs:
            kwargs["crossed"] = tuple(kwargs["crossed"])
        if isinstance(kwargs.get("conditions"), str):  # one condition, written without ()
            kwargs["conditions"] = (kwargs["conditions"],)
        return function(args[0], *(tuple(p) for p in args[1:]), **kwargs)
    return function(*args, **kwargs)


HEADINGS = {
    6: ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)),
    4: ((1, 0), (0, -1), (-1, 0), (0, 1)),
    8: ((1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1)),
}
"""The grid step each heading looks along, counter-clockwise from +x (hex: axial)."""


def facing_route(args: list[Any], kwargs: dict[str, Any]) -> Any:
    """A facing route's example laid on the unit's grid: the start at (0, 0) facing heading
    0, each place entered along the grid step its move gives, each `turn` one heading to the
    left (issue 24); `entered` gives steps, the places they reached."""
    rule = API.FACINGS[args[0]]
    count = rule.headings
    steps = HEADINGS[count]
    place, heading, how = (0, 0), 0, "forward"
    places = {place: tuple(args[1]["features"])}
    edges = {}
    route = [(place, heading)]
    for item in args[2:]:
        if item == "turn":
            heading = (heading + 1) % count
            route.append((place, heading))
            continue
        if isinstance(item, str):
            how = item
            continue
        side = {"forward": 0, "backward": count // 2, "sideslip": 1}[how]
        dq, dr = steps[(heading + side) % count]
        there = (place[0] + dq, place[1] + dr)
        assert there not in places, "a facing example's route crosses itself"
        places[there] = tuple(item["features"])
        edges[place, there] = tuple(item["edge"])
        place, how = there, "forward"
        route.append((place, heading))
    if "entered" in kwargs:  # steps of the route, each the place it reached (issue 40)
        kwargs["entered"] = [route[step][0] for step in kwargs["entered"]]
    board = API.Board(places, edges, grid=rule.grid)
    return API.route_cost(board, args[0], route, **kwargs)


@pytest.mark.parametrize("vector", VECTORS, ids=[v["text"] for v in VECTORS])
def test_worked_example(vector: dict[str, Any]) -> None:
    answer = ask(vector)
    if "attribute" in vector:  # `route_cost(...).state`, `.rolls`: a field of the route
        field = getattr(answer, vector["attribute"])
        got = [{"state": dict(field)}] if vector["attribute"] == "state" else plain(field)
        assert same(got, vector["expected"]), vector["text"]
        return
    assert same(plain(answer), vector["expected"]), vector["text"]
'''
