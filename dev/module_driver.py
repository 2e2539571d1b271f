"""Import a generated module and ask it every question it answers, with good and bad
arguments; print each exception that is not one of the module's documented errors.

Standard library only, so it runs under ``python -I`` beside the module:

    python -I dev/module_driver.py generated/python/heavy_gear.py
    python -I dev/module_driver.py --transcript generated/python/heavy_gear.py  # every answer

Exit status 0 when every call returned or raised a documented error (``UnknownName``,
``UnfilledParameter``, ``InvalidPlace``, ``ArgumentError``), 1 otherwise (the tracebacks
are printed), 2 when the module does not import.
"""

from __future__ import annotations

import importlib.util
import inspect
import itertools
import math
import re
import sys
import traceback
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

DOCUMENTED = ("UnknownName", "UnfilledParameter", "InvalidPlace", "ArgumentError")
"""The errors docs/module-api.md lists (ArgumentError is the base of the argument errors)."""

NUMBERS: tuple[Any, ...] = (
    0,
    1,
    2,
    2.5,
    7,
    12,
    100,
    -1,
    -0.5,
    math.nan,
    math.inf,
    -math.inf,
    1e308,
    "3",
    None,
    True,
    [1],
)
NAMES_BAD: tuple[Any, ...] = ("", "walkr", "__class__", 3, None, b"x", ("a",))


def load(path: str, name: str = "fuzzed_module") -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def calls(
    mod: ModuleType, limit: int = 400
) -> Iterator[tuple[str, Callable[..., Any], tuple[Any, ...], dict[str, Any]]]:
    """The questions to ask: (label, function, args, kwargs), at most about ``limit``."""
    modes = list(getattr(mod, "MODES", {}))
    feats = list(getattr(mod, "FEATURES", {}))
    places = [()] + [(f,) for f in feats] + list(itertools.combinations(feats, 2))[:20]
    for mode in [*modes, *NAMES_BAD[:3]]:
        for place in places[:12]:
            for distance in (1, 3, 0.5) if mode in modes else (1,):
                yield "move_cost", mod.move_cost, (mode, *place), {"distance": distance}
            yield "can_enter", mod.can_enter, (mode, *place), {}
            yield "can_enter", mod.can_enter, (mode, *place), {"available": 2}
    for distance in NUMBERS:
        if modes:
            yield "move_cost", mod.move_cost, (modes[0], *feats[:1]), {"distance": distance}
            yield "can_enter", mod.can_enter, (modes[0],), {"available": distance}
    for bad in NAMES_BAD:
        if modes:
            yield "move_cost", mod.move_cost, (modes[0], bad), {}
    for name in getattr(mod, "DICE_TABLES", {}):
        for total in range(-3, 40):
            yield "roll", mod.roll, (name, total), {}
        for odd in (2.5, "7", None, math.nan, 10**30, -(10**30)):
            yield "roll", mod.roll, (name, odd), {}
    yield "roll", mod.roll, ("nowhere", 7), {}
    for name, table in getattr(mod, "TABLES", {}).items():
        rows = list(getattr(table, "rows", ()))
        columns = list(getattr(table, "columns", ())) or [None]
        for row in [*rows[:10], "nowhere", 3]:
            for column in [*columns[:6], "nowhere"]:
                keys = (row,) if column is None else (row, column)
                yield "lookup", mod.lookup, (name, *keys), {}
        yield "lookup", mod.lookup, (name,), {}
    yield "lookup", mod.lookup, ("nowhere", "x"), {}
    for name, step in getattr(mod, "STEPS", {}).items():
        for x in NUMBERS:
            yield f"step {name}", step, (x,), {}
    for name, decide in getattr(mod, "DECISIONS", {}).items():
        yield from _decision_calls(mod, name, decide)
    for name in [*getattr(mod, "PARAMS", {}), "nowhere", 3]:
        yield "param", mod.param, (name,), {}
    for name in [*getattr(mod, "MODIFIERS", {}), "nowhere"]:
        for place in places[:8]:
            yield "modifier", mod.modifier, (name, *place), {}
        for context, values in getattr(mod, "CONTEXTS", {}).items():
            for value in [*list(values)[:3], "nowhere", 3]:
                yield "modifier", mod.modifier, (name, *feats[:1]), {context: value}
    yield "conflicts", mod.conflicts, tuple(feats), {}
    yield "conflicts", mod.conflicts, (3, None), {}
    for steps in ("sdsd", ["s", "d"], ["x"], 3, None, "", ["straight", "diagonal"]):
        yield "path_cost", mod.path_cost, (steps,), {}
    yield from _map_calls(mod, modes, feats)


def _map_calls(
    mod: ModuleType, modes: list[str], feats: list[str]
) -> Iterator[tuple[str, Callable[..., Any], tuple[Any, ...], dict[str, Any]]]:
    """Issue 11: allowance, place states, boards and routes, line of sight, results tables."""
    for allowance in (6, 0, -1, math.nan, "6", None):
        for feature in feats[:4]:
            for mode in modes[:2]:
                yield "move_cost", mod.move_cost, (mode, feature), {"allowance": allowance}
    for mode in [*modes[:2], "nowhere"]:
        for feature in [*feats[:4], "nowhere"]:
            for function in ("can_end", "must_stop"):
                if hasattr(mod, function):
                    yield function, getattr(mod, function), (mode, feature), {}
    edges_of: frozenset[str] = getattr(mod, "_EDGE_FEATURES", frozenset())
    places = [f for f in feats if f not in edges_of] or ["nowhere"]
    if hasattr(mod, "Board") and modes:
        cells = {(x, y): (places[(x + y) % len(places)],) for x in range(3) for y in range(3)}
        edges = {((0, 0), (1, 0)): tuple(sorted(edges_of))[:2]} if edges_of else {}
        grid = next(iter(getattr(mod, "GRID_SHAPES", {})), "square")
        try:
            board = mod.Board(cells, edges, grid=grid)
        except Exception:  # asked again by exercise(), which reports it unless documented
            yield "Board", mod.Board, (cells, edges), {"grid": grid}
            return
        for mode in modes[:2]:
            for allowance in (None, 4, -1):
                args = (board, mode, [(0, 0), (1, 0), (1, 1)])
                yield "route_cost", mod.route_cost, args, {"allowance": allowance}
            yield "route_cost", mod.route_cost, (board, mode, [(0, 0), (9, 9)]), {}
            yield "route_cost", mod.route_cost, (board, mode, "ab"), {}
            yield "cheapest_route", mod.cheapest_route, (board, mode, (0, 0), (2, 2)), {}
            yield "cheapest_route", mod.cheapest_route, (board, mode, (0, 0), (7, 7)), {}
            for budget in (0, 3, math.inf, -1, math.nan, "3"):
                yield "reachable", mod.reachable, (board, mode, (0, 0), budget), {}
        yield "route_cost", mod.route_cost, ("board", modes[0], [(0, 0)]), {}
        yield from _crowded_calls(mod, modes, places, grid)
    if hasattr(mod, "line_of_sight") and hasattr(mod, "SIGHTS"):
        for name in [*mod.SIGHTS, "nowhere"]:
            line = [(f,) for f in places[:3]] * 2
            yield "line_of_sight", mod.line_of_sight, (name, *line), {}
            yield "line_of_sight", mod.line_of_sight, (name, ("nowhere",), 3), {}
            for crossed in ((2.5,) * len(line), (1,), (-1,) * len(line), "12", [math.inf] * 6):
                yield "line_of_sight", mod.line_of_sight, (name, *line), {"crossed": crossed}
    for name, table in getattr(mod, "RESULTS_TABLES", {}).items():
        columns = [*getattr(table, "columns", ())][:3]
        for total in (-2, 1, 3, 6, 9, 2.5, "3"):
            for column in [*columns, 0, 1.5, 99, -5, "nowhere", None, math.nan]:
                for natural in (None, 6, 1, 13, "6"):
                    yield "roll", mod.roll, (name, total), {"column": column, "natural": natural}


def _crowded_calls(
    mod: ModuleType, modes: list[str], places: list[str], grid: str
) -> Iterator[tuple[str, Callable[..., Any], tuple[Any, ...], dict[str, Any]]]:
    """Routes over a 4 x 4 board of many distinct places, each with a feature it excludes
    where the board takes both (issue 45, item 9: which unfilled parameter `reachable`
    named, and the order of `cheapest_route`'s conflict warnings, followed the hash seed)."""
    exclusions = getattr(mod, "EXCLUSIONS", {})
    cells: dict[tuple[int, int], tuple[str, ...]] = {}
    for i in range(16):
        feature = places[i % len(places)]
        cells[(i % 4, i // 4)] = (feature,)
        for other in sorted(exclusions.get(feature, ()))[i % 3 : i % 3 + 1]:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    mod.Board({(0, 0): (feature, other)}, grid=grid)
            except Exception:
                continue
            cells[(i % 4, i // 4)] = (feature, other)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            board = mod.Board(cells, {}, grid=grid)
    except Exception:
        return
    for mode in modes[:3]:
        yield "cheapest_route", mod.cheapest_route, (board, mode, (0, 0), (3, 3)), {}
        yield "reachable", mod.reachable, (board, mode, (0, 0), 6), {}


def _decision_calls(
    mod: ModuleType, name: str, decide: Callable[..., Any]
) -> Iterator[tuple[str, Callable[..., Any], tuple[Any, ...], dict[str, Any]]]:
    try:
        params = list(inspect.signature(decide).parameters.values())
    except (TypeError, ValueError):
        return
    keys = [k for t in getattr(mod, "TABLES", {}).values() for k in getattr(t, "rows", ())]
    choices: list[tuple[Any, ...]] = []
    for p in params:
        note = str(p.annotation)
        if "bool" in note:
            choices.append((True, False, 1, "yes"))
        elif "str" in note:
            choices.append((*keys[:4], "nowhere", 3))
        else:
            choices.append((0, 1, 3.5, 12, -1, math.nan, "2", True))
    for i, combo in enumerate(itertools.product(*choices)):
        if i >= 120:
            break
        yield f"decision {name}", decide, combo, {}


def exercise(mod: ModuleType, limit: int = 2000) -> list[str]:
    """Ask ``mod`` its questions; the tracebacks of undocumented exceptions."""
    allowed = tuple(getattr(mod, n) for n in DOCUMENTED if isinstance(getattr(mod, n, None), type))
    failures: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, (label, function, args, kwargs) in enumerate(calls(mod)):
            if i >= limit:
                break
            try:
                function(*args, **kwargs)
            except allowed:
                pass
            except Exception:
                failures.append(f"{label}{args!r:.200} {kwargs!r:.100}\n" + traceback.format_exc())
    return failures


_ADDRESS = re.compile(" at 0x[0-9a-f]+")
"""Where an object's default repr differs from run to run (``<Board object at 0x7f...>``)."""


def _canonical(value: object) -> str:
    """``repr`` with sets and frozensets sorted, which hold the same answer in any order."""
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(_canonical(v) for v in value)) + "}"
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        named = zip(value._fields, value, strict=True)
        fields = ", ".join(f"{f}={_canonical(v)}" for f, v in named)
        return f"{type(value).__name__}({fields})"
    if isinstance(value, (tuple, list)):
        return type(value).__name__ + "(" + ", ".join(_canonical(v) for v in value) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_canonical(k)}: {_canonical(v)}" for k, v in value.items()) + "}"
    return repr(value)


def transcript(mod: ModuleType, limit: int = 2000) -> Iterator[str]:
    """Each question asked of ``mod`` and what it gave, a line each: the answer, or the
    exception's class and message, then every warning's class and message in order. Two runs
    under different hash seeds must print the same lines (issue 45, item 9)."""
    for i, (label, function, args, kwargs) in enumerate(calls(mod)):
        if i >= limit:
            break
        asked = f"{label} {_canonical(args)} {_canonical(kwargs)}"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                answer = "= " + _canonical(function(*args, **kwargs))
            except Exception as exc:
                answer = f"! {type(exc).__name__}: {exc}"
        yield _ADDRESS.sub("", f"{asked} {answer}")
        for w in caught:
            yield f"  warning {w.category.__name__}: {w.message}"


def main(argv: list[str]) -> int:
    if argv[:1] == ["--transcript"]:
        for path in argv[1:]:
            for line in transcript(load(path, Path(path).stem)):
                print(line)
        return 0
    status = 0
    for path in argv:
        try:
            mod = load(path, Path(path).stem)
        except Exception:
            print(f"{path}: does not import\n{traceback.format_exc()}")
            return 2
        failures = exercise(mod)
        for failure in failures:
            print(f"{path}: {failure}")
        status = status or (1 if failures else 0)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
