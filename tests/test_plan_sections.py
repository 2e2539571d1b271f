"""The module plan's sight and surface sections and the worked examples' vectors are plan data
(issue 36): records of the plan, numbers, names and text, never the IR nor an emitter's code,
so that a second emitter can write the same module from them alone."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.plan import examples as plan_examples
from rulesdsl.compiler import Compiler

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"


def _foreign(value: Any, where: str) -> list[str]:
    """Where ``value`` holds something that is not plan data."""
    if value is None or isinstance(value, str | bool | int | float | Fraction):
        return []
    if isinstance(value, Mapping):
        return [p for k, v in value.items() for p in _foreign(k, where) + _foreign(v, where)]
    if isinstance(value, list | tuple):
        return [p for v in value for p in _foreign(v, where)]
    if dataclasses.is_dataclass(value) and type(value).__module__.startswith(
        "rulesdsl.codegen.plan"
    ):
        return [
            p
            for f in dataclasses.fields(value)
            for p in _foreign(getattr(value, f.name), f"{where}.{f.name}")
        ]
    return [f"{where}: {type(value).__module__}.{type(value).__name__}"]


@pytest.mark.parametrize("path", sorted(RULESETS.glob("*.terrain")), ids=lambda p: p.stem)
def test_the_sight_and_surface_sections_and_the_vectors_hold_only_plan_data(
    compiler: Compiler, path: Path
) -> None:
    rs = compiler.compile_file(path).ruleset
    assert rs is not None
    plan = module_plan.build(rs)
    sections = {
        "sight": plan.sight,
        "surface": plan.surface,
        "examples": plan_examples.build(rs),
    }
    assert [p for name, s in sections.items() for p in _foreign(s, name)] == []
