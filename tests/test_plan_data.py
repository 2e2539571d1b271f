"""The module plan's data section (issue 36): plain typed data that a second emitter can read
alone, and the only thing the Python emitter's data reader reads."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from functools import cache

import pytest

from rulesdsl import ir
from rulesdsl.codegen.plan import data as plan_data
from rulesdsl.codegen.plan import values as plan_values
from tests.conftest import ROOT, RULESETS, bundled

BUNDLED = sorted(p.stem for p in RULESETS.glob("*.terrain"))


@cache
def _ruleset(name: str) -> ir.Ruleset:
    compiled = bundled(name)
    assert compiled.ruleset is not None
    return compiled.ruleset


def _foreign(value: object, where: str) -> list[str]:
    """What in ``value`` is not plan data: plain numbers, text, flags, Fractions, tuples and
    mappings of them, and frozen slotted records of the plan."""
    match value:
        case None | bool() | int() | float() | str() | Fraction():
            return []
        case tuple():
            return [f for i, v in enumerate(value) for f in _foreign(v, f"{where}[{i}]")]
        case Mapping():
            return [
                f
                for k, v in value.items()
                for f in (*_foreign(k, f"{where} key"), *_foreign(v, f"{where}[{k!r}]"))
            ]
        case _ if dataclasses.is_dataclass(value) and not isinstance(value, type):
            kind = type(value)
            if not kind.__module__.startswith("rulesdsl.codegen.plan"):
                return [f"{where}: {kind.__module__}.{kind.__name__}"]
            if not (kind.__dataclass_params__.frozen and hasattr(kind, "__slots__")):  # type: ignore[attr-defined]
                return [f"{where}: {kind.__name__} is not frozen with slots"]
            return [
                f
                for field in dataclasses.fields(value)
                for f in _foreign(getattr(value, field.name), f"{where}.{field.name}")
            ]
        case _:
            return [f"{where}: {type(value).__name__}"]


@pytest.mark.parametrize("name", BUNDLED)
def test_the_data_plan_is_plain_data_a_second_emitter_can_read_alone(name: str) -> None:
    """No IR, no Python source, no mutable records: names, literals, chances as Fractions."""
    assert _foreign(plan_data.build(_ruleset(name)), "data") == []


def test_the_python_data_reader_imports_neither_the_ir_nor_the_semantics() -> None:
    tree = ast.parse((ROOT / "rulesdsl" / "codegen" / "python" / "data.py").read_text("utf-8"))
    imported = [
        f"{node.module}.{alias.name}" if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    ]
    model = ("rulesdsl.ir", "rulesdsl.semantics")
    assert [m for m in imported if m.startswith(model)] == []


def test_a_modifier_value_that_is_a_step_is_the_step_and_the_input_it_is_given_by() -> None:
    """BattleTech's gravity rows: the step's answer for the deviation the caller gives."""
    plan = plan_data.build(_ruleset("battletech_tacops"))
    to_hit = next(m for m in plan.modifiers if m.id == "to_hit")
    steps = {
        value
        for _, by_context in to_hit.entries
        for value in by_context.values()
        if isinstance(value, plan_values.StepCost)
    }
    assert steps == {plan_values.StepCost("gravity_to_hit", "deviation")}
    assert "deviation" in to_hit.step_inputs
