"""The module plan's code section (issue 36): steps, decisions, the cells they read and the
outcomes' labels as typed data that a second emitter can write from alone, and the Python
emitter writing them from that data only."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from rulesdsl.codegen.plan import code as plan
from rulesdsl.compiler import Compiler
from tests.conftest import RULESETS, compile_snippet

ROOT = Path(__file__).resolve().parent.parent

ARITH = """ruleset demo "Demo"
version 1.0.0
languages en fr
units distance hex, cost MP
mode walker "Walker"
decision sensors "Sensors" (sensor_range hex, distance hex, size in) {
  distance <= sensor_range / 2 rounded down - 2 -> locked "Locked" fr "Verrouillé"
  distance = half(sensor_range) rounded up      -> detected "Detected"
  size * 2 != distance                          -> odd "Odd"
  otherwise                                     -> nothing "Nothing"
}
"""

LEAVES = (str, float, int, bool, type(None))


def _foreign(node: object, where: str) -> list[str]:
    """Every part of ``node`` that is neither a plan record, a tuple nor a plain literal."""
    if isinstance(node, LEAVES):
        return []
    if isinstance(node, tuple):
        return [f for i, v in enumerate(node) for f in _foreign(v, f"{where}[{i}]")]
    if dataclasses.is_dataclass(node) and type(node).__module__.startswith(
        "rulesdsl.codegen.plan."
    ):
        return [
            f
            for field in dataclasses.fields(node)
            for f in _foreign(getattr(node, field.name), f"{where}.{field.name}")
        ]
    return [f"{where}: {type(node).__module__}.{type(node).__name__}"]


def test_the_code_plan_of_every_bundled_ruleset_is_plan_records_and_literals_only(
    compiler: Compiler,
) -> None:
    """No IR record and no Python source (``Code``) in the plan: an emitter needs nothing
    else to write the steps and decisions."""
    found = []
    for path in sorted(RULESETS.glob("*.terrain")):
        rs = compiler.compile_file(path).ruleset
        assert rs is not None
        found += _foreign(plan.build(rs), path.stem)
    assert found == []


def test_a_decision_is_condition_trees_over_expression_trees_with_the_rules_operators(
    compiler: Compiler,
) -> None:
    rs = compile_snippet(compiler, ARITH).ruleset
    assert rs is not None
    (sensors,) = plan.build(rs).decisions
    assert [row.conditions for row in sensors.rows] == [
        (
            plan.Compare(
                plan.Input("distance"),
                "<=",
                plan.Binary(
                    "-",
                    plan.Binary("/", plan.Input("sensor_range"), plan.Number(2), "down"),
                    plan.Number(2),
                ),
            ),
        ),
        (
            plan.Compare(
                plan.Input("distance"),
                "=",
                plan.Call("half", (plan.Input("sensor_range"),), "up"),
            ),
        ),
        (
            plan.Compare(
                plan.Binary("*", plan.Input("size"), plan.Number(2)),
                "!=",
                plan.Input("distance"),
            ),
        ),
        (),
    ]
    assert [(o.id, o.label) for o in sensors.outcomes][:2] == [
        ("locked", "Locked"),
        ("detected", "Detected"),
    ]


def test_outcome_labels_are_in_the_plan_keyed_by_the_first_languages_label(
    compiler: Compiler,
) -> None:
    rs = compile_snippet(compiler, ARITH).ruleset
    assert rs is not None
    labels = plan.build(rs).outcome_labels
    assert labels[0] == plan.OutcomeLabels(
        "locked", "Locked", (("en", "Locked"), ("fr", "Verrouillé"))
    )


def test_the_python_writer_of_steps_and_decisions_reads_the_plan_not_the_ir() -> None:
    """``code_context`` and its helpers import neither the IR nor the reference semantics."""
    found = []
    for name in ("functions.py", "code.py"):
        tree = ast.parse((ROOT / "rulesdsl" / "codegen" / "python" / name).read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                modules = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            else:
                continue
            found += [
                f"{name}: {m}"
                for m in modules
                if m.startswith(("rulesdsl.ir", "rulesdsl.semantics", "rulesdsl.spelling"))
            ]
    assert found == []
