"""The module plan's movement section (issue 36): plain typed data that a second emitter can read
alone, the only thing the Python emitter's movement readers read, and the one way the constants
the runtime shares with the reference semantics (the roll order, the facing moves and their
once-per-move bits) reach the templates."""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import get_args

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.plan import movement as plan_movement
from rulesdsl.codegen.python import emit
from rulesdsl.semantics import moves as semantics_moves
from tests.conftest import ROOT, RULESETS, bundled

BUNDLED = sorted(p.stem for p in RULESETS.glob("*.terrain"))
READERS = ("movement.py", "moves.py", "facing.py")
"""The Python emitter's readers of the movement section."""


@cache
def _ruleset(name: str) -> ir.Ruleset:
    compiled = bundled(name)
    assert compiled.ruleset is not None
    return compiled.ruleset


def _foreign(value: object, where: str) -> list[str]:
    """What in ``value`` is not plan data: numbers, text, flags, tuples and mappings of them,
    and frozen slotted records of the plan."""
    if value is None or isinstance(value, bool | int | float | str):
        return []
    if isinstance(value, tuple):
        return [f for i, v in enumerate(value) for f in _foreign(v, f"{where}[{i}]")]
    if isinstance(value, Mapping):
        return [f for k, v in value.items() for f in (*_foreign(k, where), *_foreign(v, where))]
    kind = type(value)
    if not (
        dataclasses.is_dataclass(value) and kind.__module__.startswith("rulesdsl.codegen.plan")
    ):
        return [f"{where}: {kind.__module__}.{kind.__name__}"]
    if not (kind.__dataclass_params__.frozen and hasattr(kind, "__slots__")):  # type: ignore[attr-defined]
        return [f"{where}: {kind.__name__} is not frozen with slots"]
    fields = dataclasses.fields(value)
    return [f for x in fields for f in _foreign(getattr(value, x.name), f"{where}.{x.name}")]


@pytest.mark.parametrize("name", BUNDLED)
def test_the_movement_plan_is_plain_data_a_second_emitter_can_read_alone(name: str) -> None:
    """No IR, no Python source, no mutable records: names, numbers, labels, plan values."""
    assert _foreign(plan_movement.build(_ruleset(name)), "movement") == []


@pytest.mark.parametrize("reader", READERS)
def test_the_python_movement_readers_import_neither_the_ir_nor_the_semantics(reader: str) -> None:
    path = ROOT / "rulesdsl" / "codegen" / "python" / reader
    imported = [
        f"{node.module}.{alias.name}" if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    ]
    model = ("rulesdsl.ir", "rulesdsl.semantics")
    assert [m for m in imported if m.startswith(model)] == []


def test_the_shared_constants_are_taken_from_where_they_are_defined() -> None:
    """The roll order is the reference semantics', and puts every time a roll may fall due
    (the IR's RollWhen) once; the facing moves are the IR's FacingMove, each with its own
    once-per-move bit."""
    plan = plan_movement.build(_ruleset("battletech_tacops"))
    # no roll on any step nor on the first step: those two are ordered only where the rules
    # have one (capst9, stall7)
    assert plan.roll_order == semantics_moves.ROLL_ORDER
    assert sorted((*plan.roll_order, "any_step", "first_step")) == sorted(get_args(ir.RollWhen))
    assert plan.facing_moves == get_args(ir.FacingMove)
    assert sorted(plan.once_bits) == sorted(plan.facing_moves)
    assert sorted(plan.once_bits.values()) == [1 << i for i in range(len(plan.facing_moves))]


def _import(text: str, folder: Path, name: str) -> ModuleType:
    path = folder / f"{name}.py"
    path.write_text(text, "utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look the module up as classes are made
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def test_the_module_takes_the_roll_order_from_the_plan(tmp_path: Path) -> None:
    plan = module_plan.build(_ruleset("void_patrol"))
    order = tuple(reversed(plan.movement.roll_order))
    movement = dataclasses.replace(plan.movement, roll_order=order)
    module = _import(emit(dataclasses.replace(plan, movement=movement)), tmp_path, "rolls_order")
    assert order == module._ROLL_ORDER


def test_a_new_facing_move_reaches_the_module_through_the_plan(tmp_path: Path) -> None:
    """A manoeuvre the plan adds (``reverse``) becomes a field of every FacingRule, with its
    own once-per-move bit, without a word of it in the template."""
    plan = module_plan.build(_ruleset("void_patrol"))
    moves = (*plan.movement.facing_moves, "reverse")
    movement = dataclasses.replace(
        plan.movement,
        facing_moves=moves,
        once_bits={move: 1 << i for i, move in enumerate(moves)},
    )
    module = _import(emit(dataclasses.replace(plan, movement=movement)), tmp_path, "facing_new")
    before = _import(emit(plan), tmp_path, "facing_before")
    assert module._ONCE_BITS == {**before._ONCE_BITS, "reverse": 8}
    assert module.FACINGS and all(rule.reverse is None for rule in module.FACINGS.values())
    for mode, rule in before.FACINGS.items():  # the others keep their places
        assert [getattr(module.FACINGS[mode], m) for m in plan.movement.facing_moves] == [
            getattr(rule, m) for m in plan.movement.facing_moves
        ]
