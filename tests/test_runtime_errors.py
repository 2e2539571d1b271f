"""Issue 25: an argument error raised at run time names the function the caller called.
`reachable()` without `allowance`, on a map with a feature that costs a share of it, said
`move_cost() argument 'allowance' must be given`: it says `reachable()` now, as do
`route_cost()`, `cheapest_route()` and `can_enter()`, which ask move_cost for their costs."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesdsl.compiler import Compiler
from tests.conftest import compile_snippet, import_rendered

SOURCE = """\
ruleset share_map "Share map"
version 1.0.0
units distance hex, cost MP
mode foot "Foot"
grid hexes "Hex" : 1 hex = 1 km, hex
layer terrain "Terrain" {
  clear "Clear" | 1
  bog "Bog"     | share 1/2
}
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    folder = tmp_path_factory.mktemp("runtime_errors")
    compiled = compile_snippet(Compiler(), SOURCE, folder)
    assert compiled.ruleset is not None, compiled.diagnostics
    return import_rendered(compiled.ruleset, folder, "share_map_runtime_errors")


def _grid(m: ModuleType) -> Any:
    return m.Board({(0, 0): ("clear",), (1, 0): ("bog",), (0, 1): ("clear",)}, grid="hexes")


def _linked(m: ModuleType) -> Any:  # a board with a neighbour function: the general search
    places = {0: ("clear",), 1: ("bog",)}
    return m.Board(places, neighbours=lambda p: [q for q in (p - 1, p + 1) if q in places])


CALLS: list[tuple[str, Callable[[ModuleType], object]]] = [
    ("reachable", lambda m: m.reachable(_grid(m), "foot", (0, 0), 3)),
    ("reachable", lambda m: m.reachable(_linked(m), "foot", 0, 3)),
    ("route_cost", lambda m: m.route_cost(_grid(m), "foot", [(0, 0), (1, 0)])),
    ("route_cost", lambda m: m.route_cost(_linked(m), "foot", [0, 1])),
    ("cheapest_route", lambda m: m.cheapest_route(_grid(m), "foot", (0, 0), (1, 0))),
    ("cheapest_route", lambda m: m.cheapest_route(_linked(m), "foot", 0, 1)),
    ("can_enter", lambda m: m.can_enter("foot", "bog", available=3)),
    ("move_cost", lambda m: m.move_cost("foot", "bog")),
]


@pytest.mark.parametrize(("function", "call"), CALLS, ids=[f for f, _ in CALLS])
def test_a_missing_allowance_names_the_function_called(
    module: ModuleType, function: str, call: Callable[[ModuleType], object]
) -> None:
    with pytest.raises(module.InvalidArgument) as caught:
        call(module)
    assert (caught.value.function, caught.value.argument) == (function, "allowance")
    assert str(caught.value) == (
        f"{function}() argument 'allowance' must be given: 'bog' costs a share of it; got None"
    )
    if function != "move_cost":  # one error, not move_cost's "during handling of" another
        assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_the_same_calls_with_an_allowance_answer(module: ModuleType) -> None:
    assert module.reachable(_grid(module), "foot", (0, 0), 3, allowance=4) == {
        (0, 0): 0.0,
        (1, 0): 2.0,
        (0, 1): 1.0,
    }
    assert module.route_cost(_linked(module), "foot", [0, 1], allowance=4).total == 2.0
    assert module.can_enter("foot", "bog", available=3, allowance=4) is True


@pytest.mark.parametrize(
    ("function", "call"),
    [
        ("can_enter", lambda m: m.can_enter(5, "clear")),
        ("can_enter", lambda m: m.can_enter("foot", 5)),
        ("can_enter", lambda m: m.can_enter("foot", "clear", allowance="6")),
    ],
)
def test_can_enter_names_itself_for_the_arguments_it_passes_to_move_cost(
    module: ModuleType, function: str, call: Callable[[ModuleType], object]
) -> None:
    with pytest.raises(module.ArgumentTypeError) as caught:
        call(module)
    assert caught.value.function == function
    assert str(caught.value).startswith(f"{function}() argument")


_CHECKS = ("_name", "_number", "ArgumentTypeError", "InvalidArgument", "_on_board", "_route_args")


def test_every_public_function_that_passes_its_arguments_on_is_one_that_renames_their_errors(
    module: ModuleType,
) -> None:
    """Which public functions reach argument checks made in another's name (read from the
    module's code, through its private helpers): exactly those the tests above cover. A new
    one must raise its arguments' errors in its own name (``_raised_by``) and join them."""
    tree = ast.parse(Path(module.__file__ or "").read_text("utf-8"))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}

    def named(name: str, seen: set[str]) -> set[str]:
        if name in seen or name not in functions:
            return set()
        seen.add(name)
        out: set[str] = set()
        for node in ast.walk(functions[name]):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                first = node.args[0] if node.args else None
                if node.func.id in _CHECKS and isinstance(first, ast.Constant):
                    out.add(str(first.value))
                if node.func.id not in _CHECKS:
                    out |= named(node.func.id, seen)
        return out

    others = {
        name: sorted(named(name, set()) - {name, "conflicts"})  # names already checked
        for name in functions
        if not name.startswith("_")
    }
    assert {k: v for k, v in others.items() if v} == {
        "route_cost": ["move_cost"],
        "cheapest_route": ["move_cost", "route_cost"],
        "reachable": ["move_cost"],
    }
