"""Random questions for the differential test of the JavaScript target (issue 37): valid and
invalid arguments of every function the JavaScript module answers (lookups, parameters,
steps, decisions, modifiers, rolls; movement, routes, facing, sight and results tables in
tests/js_queries_*.py), drawn from a ruleset's module plan; asked of the Python module here and
of the JavaScript module in the Node process kept running for the tests (tests/js/runner.mjs).

A number is written as JSON has it: an integral number as an int (a JavaScript number has no
int/float distinction, so the Python module is asked with the int, as a JavaScript caller's 2
is Python's 2); NaN and the infinities as ``{"$float": ...}``.
"""

from __future__ import annotations

import atexit
import json
import math
import os
import random
import subprocess
import warnings
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

from rulesdsl.codegen.plan import ModulePlan
from rulesdsl.codegen.plan import code as plan_code
from rulesdsl.codegen.plan import values as plan_values

RUNNER = Path(__file__).parent / "js" / "runner.mjs"

Query = dict[str, Any]

_ODD: tuple[Any, ...] = (
    None,
    True,
    [1],
    {"a": 1},
    "",
    {"$float": "nan"},
    {"$float": "inf"},
    {"$float": "-inf"},
)
"""Arguments of a wrong type or out of range, for any parameter."""


def number(rng: random.Random, low: float = -5, high: float = 60) -> Any:
    """A number as a caller passes it: mostly whole, sometimes decimals, sometimes odd."""
    pick = rng.random()
    if pick < 0.05:
        return rng.choice(_ODD)
    if pick < 0.1:
        return rng.choice(["3", "x", -1, -0.5])
    value = rng.randint(int(low), int(high)) if pick < 0.6 else round(rng.uniform(low, high), 2)
    return int(value) if float(value).is_integer() else value


def mangled(rng: random.Random, name: str) -> Any:
    """A name as a caller may misspell it, or a value of another type."""
    pick = rng.random()
    if pick < 0.3 or not name:
        return rng.choice([*_ODD, 2, 2.5, "nothing", name.upper() or "X"])
    i = rng.randrange(len(name))
    if pick < 0.6:
        return name[:i] + name[i + 1 :]  # a letter dropped
    return name[:i] + rng.choice("aeiouxz_") + name[i:]  # a letter added


def name_or_not(rng: random.Random, names: list[Any], odd: float = 0.15) -> Any:
    if not names or rng.random() < odd:
        return mangled(rng, str(rng.choice(names)) if names else "none")
    return rng.choice(names)


def lookup_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    tables = plan.data.tables
    if not tables:
        return
    for _ in range(40 * len(tables)):
        t = rng.choice(tables)
        table: Any = t.id if rng.random() > 0.1 else mangled(rng, t.id)
        rows = [
            int(k) if isinstance(k, float) and k.is_integer() else k
            for k in (r.key for r in t.rows)
        ]
        row = name_or_not(rng, rows)
        if isinstance(row, str) and rows and not isinstance(rows[0], str) and rng.random() < 0.5:
            row = number(rng)  # a number near the numeric keys
        keys = [row] if len(t.columns) < 2 else [name_or_not(rng, [c.id for c in t.columns]), row]
        if rng.random() < 0.05:
            keys = keys[:-1] if len(keys) > 1 or rng.random() < 0.5 else [*keys, "more"]
        yield {"function": "lookup", "args": [table, *keys], "kwargs": {}}


def param_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    names = [p.id for p in plan.data.params]
    for _ in range(20):
        yield {"function": "param", "args": [name_or_not(rng, names, 0.3)], "kwargs": {}}


def step_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    for step in plan.code.steps:
        marks = [t.at for t in step.terms if hasattr(t, "at")]
        for _ in range(150):
            value = number(rng, -2, 30)
            if marks and rng.random() < 0.2:  # on a term's threshold, or just past it
                value = rng.choice(marks) + rng.choice([0, 0, 0.01, -0.01])
            yield {"function": step.name, "args": [value], "kwargs": {}}


def _argument(rng: random.Random, p: plan_code.Param, plan: ModulePlan) -> Any:
    match p:
        case plan_code.FlagParam():
            return rng.random() < 0.5 if rng.random() > 0.05 else rng.choice(_ODD)
        case plan_code.NumberParam():
            return number(rng)
        case plan_code.KeyParam(table=table, axis=axis):
            t = next(t for t in plan.data.tables if t.id == table)
            keys: list[Any] = (
                [c.id for c in t.columns] if axis == "column" else [r.key for r in t.rows]
            )
            keys = [int(k) if isinstance(k, float) and k.is_integer() else k for k in keys]
            return name_or_not(rng, keys, 0.08)
        case plan_code.ModifierParam(modifier=modifier):  # its items (issue 40), or not a list
            if rng.random() < 0.05:
                return rng.choice(_ODD)
            m = next(m for m in plan.data.modifiers if m.id == modifier)
            items = [item for item, _ in m.entries]
            return [name_or_not(rng, items, 0.05) for _ in range(rng.choice([0, 1, 2, 2, 3]))]
    raise AssertionError(p)


def decision_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    for d in plan.code.decisions:
        for _ in range(250):
            kwargs = {
                p.name: _argument(rng, p, plan)
                for p in d.params
                if p.default is None or rng.random() < 0.7
            }
            yield {"function": d.name, "args": [], "kwargs": kwargs}


def modifier_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    data = plan.data
    features = [f.id for f in data.features]
    for m in data.modifiers:
        items = list(dict.fromkeys([item for item, _ in m.entries] + features[:6]))
        contexts = {c.id: list(c.values) for c in data.contexts}
        for _ in range(120):
            chosen = [name_or_not(rng, items, 0.05) for _ in range(rng.choice([0, 1, 1, 2, 2, 3]))]
            kwargs: dict[str, Any] = {}
            for context in (m.context, m.context2):
                if context and rng.random() < 0.6:
                    kwargs[context] = name_or_not(rng, contexts.get(context, []), 0.1)
            for item, vals in m.entries:  # the values each model has, and steps' inputs
                if (
                    any(isinstance(v, plan_values.Given) for v in vals.values())
                    and rng.random() < 0.6
                ):
                    kwargs[item] = number(rng, -3, 6)
            for name in m.step_inputs:
                if rng.random() < 0.7:
                    kwargs[name] = number(rng, 0, 8)
            if rng.random() < 0.03:
                kwargs[rng.choice(["weapon", "range", "nothing"])] = "x"
            yield {
                "function": "modifier",
                "args": [name_or_not(rng, [m.id], 0.03), *chosen],
                "kwargs": kwargs,
            }


def conflict_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    names = [e.subject for e in plan.data.exclusions] + [f.id for f in plan.data.features[:4]]
    if not plan.data.exclusions:
        return
    for _ in range(60):
        picked = [name_or_not(rng, names, 0.03) for _ in range(rng.randint(0, 4))]
        yield {"function": "conflicts", "args": picked, "kwargs": {}}


def _faces(rng: random.Random, t: Any) -> Any:
    count, sides = (2, 6) if isinstance(t.dice, plan_values.D66) else (t.dice.count, t.dice.sides)
    faces: list[Any] = [rng.randint(1, sides) for _ in range(count)]
    pick = rng.random()
    if pick < 0.05:
        return rng.choice([None, "66", 3, [1] * (count + 1)])
    if pick < 0.1:
        faces[0] = rng.choice([0, sides + 1, 2.5, "1", True])
    return faces


def roll_queries(rng: random.Random, plan: ModulePlan) -> Iterator[Query]:
    for t in plan.data.dice_tables:
        totals = sorted(t.index)
        for _ in range(200):
            total: Any = (
                rng.randint(totals[0] - 3, totals[-1] + 3) if totals else rng.randint(0, 12)
            )
            if rng.random() < 0.08:
                total = rng.choice([*_ODD, 2.5, "7"])
            kwargs: dict[str, Any] = {}
            if rng.random() < 0.3:
                naturals = [*t.naturals, *totals[:3]]
                kwargs["natural"] = rng.choice(naturals) if naturals else rng.randint(2, 12)
                if rng.random() < 0.05:
                    kwargs["natural"] = rng.choice([*_ODD, 2.5])
            if rng.random() < 0.3:
                kwargs["dice"] = _faces(rng, t)
            yield {
                "function": "roll",
                "args": [name_or_not(rng, [t.id], 0.05), total],
                "kwargs": kwargs,
            }


def families() -> dict[str, Callable[[random.Random, ModulePlan], Iterable[Query]]]:
    """The kinds of question, each drawn from a generator of its own."""
    from tests import (
        js_queries_allowance,
        js_queries_arcs,
        js_queries_bonus,
        js_queries_capped,
        js_queries_capped_at,
        js_queries_categories,
        js_queries_drift,
        js_queries_facing,
        js_queries_facing_inputs,
        js_queries_facing_whole,
        js_queries_feeds,
        js_queries_fog,
        js_queries_freefacing,
        js_queries_freefacing_whole,
        js_queries_moves,
        js_queries_numbers,
        js_queries_pairs,
        js_queries_rollst,
        js_queries_routes,
        js_queries_routes_inputs,
        js_queries_sail,
        js_queries_sight,
        js_queries_speed,
        js_queries_stall,
        js_queries_state,
        js_queries_stcond,
        js_queries_strength,
        js_queries_turning,
        js_queries_unitvalue,
        js_queries_whole_move,
    )

    return {
        "lookup": lookup_queries,
        "param": param_queries,
        "step": step_queries,
        "decision": decision_queries,
        "modifier": modifier_queries,
        "conflict": conflict_queries,
        "roll": roll_queries,
        "moves": js_queries_moves.queries,
        "routes": js_queries_routes.route_queries,
        "facing": js_queries_facing.facing_queries,
        "sight": js_queries_sight.sight_and_results_queries,
        "arcs": js_queries_arcs.arc_queries,
        "numbers": js_queries_numbers.number_queries,
        "whole_move": js_queries_whole_move.whole_move_queries,
        "bonus": js_queries_bonus.bonus_queries,
        "freefacing": js_queries_freefacing.free_move_queries,
        "categories": js_queries_categories.category_queries,
        "allowance": js_queries_allowance.allowance_queries,
        "column_pick": js_queries_feeds.column_pick_queries,
        "routes_inputs": js_queries_routes_inputs.route_input_queries,
        "allowance_steps": js_queries_routes_inputs.allowance_step_queries,
        "facing_inputs": js_queries_facing_inputs.facing_input_queries,
        "state": js_queries_state.state_queries,
        "facing_state": js_queries_state.facing_state_queries,
        "drift": js_queries_drift.drift_queries,
        "facing_drift": js_queries_drift.facing_drift_queries,
        "modifier_total": js_queries_feeds.modifier_total_queries,
        "turning": js_queries_turning.turning_queries,
        "roll_pairs": js_queries_pairs.pair_queries,
        "sight_factor": js_queries_fog.sight_factor_queries,
        "state_bands": js_queries_stcond.band_queries,
        "unit_effect": js_queries_unitvalue.unit_effect_queries,
        "stall": js_queries_stall.stall_queries,
        "facing_whole": js_queries_facing_whole.facing_whole_queries,
        "capped": js_queries_capped.capped_queries,
        "capped_at": js_queries_capped_at.capped_at_queries,
        "first_step": js_queries_stall.first_step_queries,
        "roll_bands": js_queries_rollst.roll_band_queries,
        "sail": js_queries_sail.sail_queries,
        "sail_speed": js_queries_speed.speed_queries,
        "sail_strength": js_queries_strength.strength_queries,
        "freefacing_whole": js_queries_freefacing_whole.free_whole_queries,
    }


QUERIES = int(os.environ.get("RULESDSL_JS_QUERIES", "10000"))
"""How many questions the differential test asks of each bundled ruleset's modules: 10,000,
or more for a longer run (``RULESDSL_JS_QUERIES=100000``, bench/README.md)."""


def queries(plan: ModulePlan, seed: int, at_least: int = 1000) -> list[Query]:
    """Random questions for one ruleset's module, every kind asked in turn until there are
    ``at_least`` of them. Each kind draws from its own generator, seeded by ``seed`` and the
    kind's name, so that more or other draws of one kind never change another's questions."""
    kinds = families()
    rngs = {name: random.Random(f"{seed}/{name}") for name in kinds}
    drawn: list[Query] = []
    while len(drawn) < at_least:
        for name, kind in kinds.items():
            drawn += kind(rngs[name], plan)
    return drawn


# ---- asking -----------------------------------------------------------------------------------


def decoded(value: Any) -> Any:
    """``value`` with each ``{"$float": ...}`` in it made that float (a copy: the query is
    written to Node as it is)."""
    kind = type(value)
    if kind is list:
        return [v if type(v) in _PLAIN else decoded(v) for v in value]
    if kind is dict:
        if "$float" in value:
            return float(value["$float"])
        return {k: v if type(v) in _PLAIN else decoded(v) for k, v in value.items()}
    return value


def plain(module: ModuleType, value: Any) -> list[dict[str, Any]]:
    """The Python module's answer in the example vectors' plain form (as the runner's)."""
    if value is None:
        return [{"none": None}]
    if isinstance(value, module.Marker):
        return [{"marker": value.value}]
    if isinstance(value, bool):
        return [{"bool": value}]
    if isinstance(value, int | float):
        return [{"number": float(value)}]
    if isinstance(value, str):
        return [{"word": value}]
    if type(value) is tuple:  # conflicts
        return [{"words": list(value)}]
    if isinstance(value, Fraction):
        return [{"fraction": [value.numerator, value.denominator]}]
    name = type(value).__name__
    fields: dict[str, Any] = {
        "Outcome": lambda: {"word": value.id},
        "DiceRow": lambda: {"word": value.id},
        "Span": lambda: {"span": [value.low, value.high]},
        "Dice": lambda: {"dice": [value.number, value.sides, value.bonus]},
        "D66": lambda: {"d66": value.bonus},
        "Rate": lambda: {"rate": [value.amount, value.per]},
        "Trade": lambda: {"trade": [value.gain, value.cost]},
        "Result": lambda: {"word": value.id},
    }
    if name == "Sight":
        blocked = [{"marker": "blocked"}] if value.blocked else []
        return [{"number": float(value.hindrance)}, *blocked]
    return [fields[name]()]


def full_form(module: ModuleType, value: Any) -> list[dict[str, Any]]:
    """A query's answer in full (``"full": true``): rolls due, each record whole."""
    from tests.js_queries_moves import full

    return full(value)


def detail(module: ModuleType, value: Any) -> dict[str, Any]:
    """What the differential test compares beside the plain form (as the runner's): a line's
    hindrance per place, a result's column, totals, naturalness and effects."""
    match type(value).__name__:
        case "Sight":
            return {"detail": [p for v in value.by_place for p in plain(module, v)]}
        case "Result":
            effects = [[k, plain(module, v)] for k, v in value.effects.items()]
            return {"detail": [value.column, value.low, value.high, value.natural, effects]}
    return {}


def ask_python(module: ModuleType, query: Query) -> dict[str, Any]:
    """The Python module's answer to ``query`` in the form JSON gives Node's, or its error."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConflictWarning: JavaScript's go to console.warn
        return _as_json(_answer(module, query))


def ask_python_all(module: ModuleType, queries: list[Query]) -> list[dict[str, Any]]:
    """:func:`ask_python` of each query, the warnings filter set once and the answers written
    to JSON and read back together (a tuple is read as a list, as Node's answers are): an
    answer JSON cannot write is that query's error, as if asked alone."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # as ask_python
        found = [_answer(module, query) for query in queries]
    try:
        return list(json.loads(json.dumps(found)))
    except Exception:
        return [_as_json(answer) for answer in found]


def _as_json(answer: dict[str, Any]) -> dict[str, Any]:
    try:
        return dict(json.loads(json.dumps(answer)))
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error)}


def _answer(module: ModuleType, query: Query) -> dict[str, Any]:
    name, args, kwargs = query["function"], decoded(query["args"]), decoded(query["kwargs"])
    try:
        if query.get("freefacing"):  # a free move off the grid (js_queries_freefacing.py)
            return {"answer": list(module.free_move(*args))}
        if query.get("facing"):  # a facing route question (tests/js_queries_facing.py)
            from tests import js_queries_facing

            return {
                "answer": js_queries_facing.ask(module, {**query, "args": args, "kwargs": kwargs})
            }
        if "board" in query:  # a route question (tests/js_queries_routes.py)
            from tests import js_queries_routes

            return {
                "answer": js_queries_routes.ask(module, {**query, "args": args, "kwargs": kwargs})
            }
        if "column_of" in query:  # the column a decision answers (js_queries_feeds.py)
            decision, inputs = query["column_of"]
            kwargs["column"] = module.DECISIONS[decision](**decoded(inputs))
        function = module.STEPS.get(name) or module.DECISIONS.get(name) or getattr(module, name)
        value = function(*args, **kwargs)
        form = full_form if query.get("full") else plain
        return {"answer": form(module, value), **detail(module, value)}
    except Exception as error:  # every error the module raises is compared with JavaScript's
        return {"error": type(error).__name__, "message": str(error)}


_runner: list[subprocess.Popen[str]] = []
"""The Node process that answers this test process's questions (tests/js/runner.mjs)."""

NODE_FLAGS = ("--no-opt",)
"""V8 without its optimising compiler (TurboFan) for the runner: each request imports its
module anew, so every request's hot functions were optimised again, on V8's background threads,
for a module instance that answers at most some thousands of questions and is dropped; that
compiling was more than half of the runner's CPU (the suite's 142 requests replayed: 27.1 s ->
12.5 s, every reply byte-identical). The questions are answered by the same module code, in
V8's interpreter and baseline compiler (Ignition, Sparkplug)."""


def _running() -> subprocess.Popen[str]:
    if not _runner or _runner[0].poll() is not None:
        node = subprocess.Popen(
            ["node", *NODE_FLAGS, str(RUNNER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        _runner[:] = [node]
    return _runner[0]


@atexit.register
def _stop() -> None:
    for node in _runner:
        if node.stdin is not None:
            node.stdin.close()
        node.wait(timeout=30)


def ask_node(module_path: Path, queries: list[Query]) -> list[dict[str, Any]]:
    """The JavaScript module's answers, from the one Node process kept running for the tests
    (a module imported anew for each call: a fresh instance, as a process of its own had it)."""
    return ask_node_soon(module_path, queries)()


def _request(module_path: Path, queries: list[Query]) -> str:
    """The request line: each board spec written once, in ``boards``, and each route question
    naming its board by its index there. The route questions of one board share its spec
    object (tests/js_queries_routes.py), so 51,888 route questions of the differential write
    about 5,000 boards, not 51,888 (15 of the 33 MB the 15 rulesets' requests were). The
    runner builds each spec's arguments once and a Board of their own for each question, as
    js_queries_routes.board does on the Python side."""
    boards: list[Any] = []
    numbered: dict[int, int] = {}  # id of a spec -> its index (the queries keep every spec alive)
    written = []
    for query in queries:
        if "board" not in query:
            written.append(query)
            continue
        spec = query["board"]
        index = numbered.setdefault(id(spec), len(boards))
        if index == len(boards):
            boards.append(spec)
        written.append({**query, "board": index})
    return json.dumps({"module": str(module_path), "boards": boards, "queries": written})


def ask_node_soon(module_path: Path, queries: list[Query]) -> Callable[[], list[dict[str, Any]]]:
    """:func:`ask_node` in two halves: the questions go to Node now, and the function returned
    reads its answers, so that Node answers while this process does other work (the Python
    module's answers). Call it before asking Node anything else."""
    node = _running()
    assert node.stdin is not None and node.stdout is not None
    node.stdin.write(_request(module_path, queries) + "\n")
    node.stdin.flush()

    def answers() -> list[dict[str, Any]]:
        assert node.stdout is not None
        line = node.stdout.readline()
        assert line, f"tests/js/runner.mjs stopped (exit status {node.poll()})"
        reply = json.loads(line)
        if reply["stopping"]:  # its heap is full of imported modules: the next call starts one
            _stop()
            _runner.clear()
        assert "failed" not in reply, reply.get("failed")
        found: list[dict[str, Any]] = reply["answers"]  # parsed for this call alone: no copy
        return found

    return answers


_PLAIN = frozenset({str, int, bool, type(None)})
"""Types whose values of the same type :func:`same` compares with ``==`` (a bool is never an
int here: both are of type bool)."""


def same(a: Any, b: Any) -> bool:
    """Equal answers: the same words, markers and errors, numbers equal to the last bit."""
    if type(a) is type(b) and type(a) in _PLAIN:  # most of the millions of calls: one test
        return bool(a == b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return bool(a == b)
