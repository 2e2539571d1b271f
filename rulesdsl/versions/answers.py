"""What a ruleset answers: its generated module asked a fixed, seeded set of questions (issue 39).

The questions are calls of the module's public functions written as Python (``move_cost(
'jet', 'ruins_upper', distance=2)``), built from the names the module declares: every unit
type in every single feature for the place functions, then a seeded sample of places, modifiers,
rolls, lookups, steps, decisions, sight and routes over a small board. An answer is the
result's ``repr`` (an item's id for a row or an outcome, its label being wording) or the error
it raises. ``rulesdsl migrate``, ``check``'s edition note and the corpus of pinned answers
(tests/corpus/) compare two compilations by these answers.
"""

from __future__ import annotations

import inspect
import itertools
import random
import sys
import types
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from rulesdsl import ir

SAMPLES = 6
"""Sampled calls per function, after the systematic ones."""

Call = tuple[str, tuple[Any, ...], dict[str, Any]]
_PLACE_FUNCTIONS = ("move_cost", "can_end", "can_enter", "must_stop")
_counter = itertools.count()


def load(ruleset: ir.Ruleset) -> types.ModuleType:
    """``ruleset``'s generated Python module, imported under a name of its own (kept in
    ``sys.modules`` while it lives: its dataclasses look their module up). The Python target
    (and Jinja2) is imported only here: `check` asks nothing of a file in the current edition."""
    from rulesdsl.codegen.targets import render_python as render

    name = f"_rulesdsl_answers_{ruleset.id}_{next(_counter)}"
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(compile(render(ruleset), f"<{ruleset.id}>", "exec"), module.__dict__)
    return module


def answers(ruleset: ir.Ruleset, seed: int = 39) -> dict[str, str]:
    """Each question's text and its answer (see the module docstring)."""
    module = load(ruleset)
    try:
        return {written(call): answer(module, call) for call in questions(module, seed)}
    finally:
        sys.modules.pop(module.__name__, None)


def written(call: Call) -> str:
    name, args, kwargs = call
    parts = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return f"{name}({', '.join(parts)})"


def answer(module: types.ModuleType, call: Call) -> str:
    name, args, kwargs = call
    try:
        with warnings.catch_warnings():  # a ConflictWarning is not the answer
            warnings.simplefilter("ignore")
            args = tuple(a.board(module) if isinstance(a, BoardArg) else a for a in args)
            return plain(getattr(module, name)(*args, **kwargs))
    except Exception as exc:  # an error is an answer too: its kind and message
        return f"raises {type(exc).__name__}: {exc}"


def plain(value: object) -> str:
    """An answer as text: an item with an id (a dice row, an outcome) by its id and effects."""
    if hasattr(value, "id") and hasattr(value, "label"):
        effects = getattr(value, "effects", None)
        return f"{value.id}" + (f" {dict(effects)!r}" if effects else "")
    if isinstance(value, tuple) and value and all(hasattr(v, "id") for v in value):
        return repr(tuple(plain(v) for v in value))
    return repr(value)


def questions(module: types.ModuleType, seed: int) -> Iterator[Call]:
    """The calls asked of ``module``: systematic, then ``SAMPLES`` seeded ones per function,
    each function with a generator of its own, so that a function added to a ruleset (or
    removed) leaves the questions asked of the others as they were."""
    names = _Names(module)
    for mode in names.modes:
        for feature in names.features:
            inputs = {n: 3 for n in getattr(module, "COST_INPUTS", ())}
            yield "move_cost", (mode, feature), {"distance": 2, **inputs}
            yield "can_end", (mode, feature), {}
    public = [
        n
        for n in sorted(getattr(module, "__all__", ()))
        if callable(getattr(module, n)) and not isinstance(getattr(module, n), type)
    ]
    for name in public:
        make = _MAKERS.get(name, _by_signature)
        rng = random.Random(f"{seed}:{name}")  # a str seed is hashed the same in every run
        for _ in range(SAMPLES):
            call = make(names, rng, name)
            if call is not None:
                yield call


class _Names:
    """The declared names of a module a question may use."""

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module
        self.modes = sorted(_mapping(module, "MODES"))
        self.features = sorted(_mapping(module, "FEATURES"))
        self.layers = [
            tuple(layer.features)
            for layer in _mapping(module, "LAYERS").values()
            if getattr(layer, "scope", "") != "edges"
        ]
        self.moves = sorted(_mapping(module, "MOVES"))
        self.words = sorted(
            {
                str(w)
                for t in _mapping(module, "TABLES").values()
                for w in (*getattr(t, "columns", ()), *getattr(t, "rows", {}))
            }
            | {str(v) for values in _mapping(module, "CONTEXTS").values() for v in values}
        )

        # a route cannot give a step's input (height=) nor always an allowance: features that
        # need one for some unit type stay off boards
        self.board_layers = [tuple(f for f in layer if self._alone(f)) for layer in self.layers]

    def _alone(self, feature: str) -> bool:
        """Whether every unit type's cost through ``feature`` needs no input."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for mode in self.modes:
                    self.module.move_cost(mode, feature)
        except Exception:
            return False
        return True

    def place(self, rng: random.Random, board: bool = False) -> tuple[str, ...]:
        """One or two layers' features, one each."""
        layers = [layer for layer in (self.board_layers if board else self.layers) if layer]
        if not layers:
            return ()
        layers = rng.sample(layers, min(len(layers), rng.choice((1, 2))))
        return tuple(rng.choice(layer) for layer in layers)

    def inputs(self, rng: random.Random) -> dict[str, float]:
        return {n: rng.choice((1, 2, 3)) for n in getattr(self.module, "COST_INPUTS", ())}

    def move(self, rng: random.Random) -> dict[str, str]:
        return {"move": rng.choice(self.moves)} if self.moves and rng.random() < 0.3 else {}


def _mapping(module: types.ModuleType, name: str) -> Mapping[str, Any]:
    value = getattr(module, name, None)
    return value if isinstance(value, Mapping) else {}


def _place_call(names: _Names, rng: random.Random, name: str) -> Call | None:
    if not names.modes:
        return None
    kwargs: dict[str, Any] = {}
    if name in ("move_cost", "can_enter"):
        kwargs = {**names.inputs(rng), **names.move(rng)}
    if name == "move_cost":
        kwargs["distance"] = rng.choice((1, 2, 3))
    return name, (rng.choice(names.modes), *names.place(rng)), kwargs


def _modifier(names: _Names, rng: random.Random, name: str) -> Call | None:
    modifiers = _mapping(names.module, "MODIFIERS")
    if not modifiers:
        return None
    chosen = rng.choice(sorted(modifiers))
    items = sorted(modifiers[chosen])
    picked = tuple(rng.sample(items, min(len(items), rng.choice((1, 2)))))
    contexts = _mapping(names.module, "CONTEXTS")
    context = {c: rng.choice(tuple(v)) for c, v in sorted(contexts.items()) if v}
    return name, (chosen, *picked), context


def _roll(names: _Names, rng: random.Random, name: str) -> Call | None:
    tables = _mapping(names.module, "DICE_TABLES")
    if not tables:
        return None
    return name, (rng.choice(sorted(tables)), rng.randint(1, 12)), {}


def _lookup(names: _Names, rng: random.Random, name: str) -> Call | None:
    tables = _mapping(names.module, "TABLES")
    if not tables:
        return None
    table = tables[rng.choice(sorted(tables))]
    rows = sorted(getattr(table, "rows", {}))
    columns = tuple(getattr(table, "columns", ()))
    keys = (rng.choice(columns),) if len(columns) > 1 else ()
    return name, (table.id, *keys, *((rng.choice(rows),) if rows else ())), {}


def _rolls_due(names: _Names, rng: random.Random, name: str) -> Call | None:
    if not names.modes:
        return None
    on = rng.choice(("entering", "crossing", "ending"))
    return name, (rng.choice(names.modes), *names.place(rng)), {**names.move(rng), "on": on}


class BoardArg:
    """A small square board in a question, written as the call that makes it."""

    def __init__(self, places: dict[tuple[int, int], tuple[str, ...]]) -> None:
        self.places = places

    def __repr__(self) -> str:
        return f"Board({self.places!r}, grid='square')"

    def board(self, module: types.ModuleType) -> Any:
        return module.Board(self.places, grid="square")


def _board(names: _Names, rng: random.Random) -> BoardArg:
    return BoardArg({(x, y): names.place(rng, board=True) for x in range(3) for y in range(3)})


def _route(names: _Names, rng: random.Random, name: str) -> Call | None:
    if not names.modes or not names.layers:
        return None
    board, mode = _board(names, rng), rng.choice(names.modes)
    match name:
        case "route_cost":
            return name, (board, mode, [(0, 0), (1, 0), (1, 1), (2, 1)]), {}
        case "cheapest_route":
            return name, (board, mode, (0, 0), (2, 2)), {}
        case _:
            return name, (board, mode, (0, 0), rng.choice((2, 4, 6))), {}


def _sight(names: _Names, rng: random.Random, name: str) -> Call | None:
    sights = _mapping(names.module, "SIGHTS")
    if not sights:
        return None
    places = [list(names.place(rng)) for _ in range(rng.randint(1, 3))]
    mode = {"mode": rng.choice(names.modes)} if names.modes and rng.random() < 0.5 else {}
    return name, (rng.choice(sorted(sights)), *places), mode


def _by_signature(names: _Names, rng: random.Random, name: str) -> Call | None:
    """A step, a decision or another function: each parameter from its annotation."""
    function: Callable[..., Any] = getattr(names.module, name)
    # a decision is asked every input, those with a default too (their defaults are the
    # decision's, where another function's keyword options are the caller's choice)
    decision = function in getattr(names.module, "DECISIONS", {}).values()
    args: list[Any] = []
    for p in inspect.signature(function).parameters.values():
        if p.kind is not p.POSITIONAL_OR_KEYWORD or (p.default is not p.empty and not decision):
            continue
        annotation = str(p.annotation)
        if "bool" in annotation:
            args.append(rng.random() < 0.5)
        elif "float" in annotation or "int" in annotation:
            args.append(rng.choice((0, 1, 1.5, 2, 3, 4.5, 6, 10, 45, 90)))
        elif "str" in annotation and names.words:
            args.append(rng.choice(names.words))
        else:
            return None
    return name, tuple(args), {}


_MAKERS: dict[str, Callable[[_Names, random.Random, str], Call | None]] = {
    **{n: _place_call for n in _PLACE_FUNCTIONS},
    "modifier": _modifier,
    "roll": _roll,
    "lookup": _lookup,
    "rolls_due": _rolls_due,
    "route_cost": _route,
    "cheapest_route": _route,
    "reachable": _route,
    "line_of_sight": _sight,
}
