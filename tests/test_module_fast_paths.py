"""The generated module's quick answers (issue 29) are the answers it works out: ``modifier``,
``roll`` on a results table and ``lookup`` keep what they found the first time (per context,
per column, per table), and asking again, with the same or other arguments, gives exactly
what working it out gives -- values, warnings and errors alike."""

from __future__ import annotations

import itertools
import math
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesdsl.compiler import Compiler
from tests.conftest import RULESETS, import_rendered

BUNDLED = sorted(p.stem for p in RULESETS.glob("*.terrain"))


@pytest.fixture(scope="module", params=BUNDLED)
def module(
    request: pytest.FixtureRequest, compiler: Compiler, tmp_path_factory: pytest.TempPathFactory
) -> ModuleType:
    compiled = compiler.compile_file(RULESETS / f"{request.param}.terrain")
    assert compiled.ruleset is not None
    folder = tmp_path_factory.mktemp(request.param)
    return import_rendered(compiled.ruleset, folder, f"fast_{request.param}")


def outcome(call: Any) -> tuple[object, list[str]]:
    """What a call gives: its answer or its error (type and message), and its warnings."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            answer: object = call()
        except Exception as error:  # the error is part of the answer
            answer = (type(error).__name__, str(error))
    return answer, [str(w.message) for w in seen]


def same(first: tuple[object, list[str]], again: tuple[object, list[str]]) -> bool:
    if isinstance(first[0], float) and math.isnan(first[0]):  # pragma: no cover
        return isinstance(again[0], float) and math.isnan(again[0])
    return first == again and type(first[0]) is type(again[0])


def modifier_questions(m: ModuleType) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """Each modifier with no item, each feature or factor alone, pairs of them, and an unknown
    item; without a context and with each value of its contexts, and with a wrong one."""
    questions = []
    for name, values in m.MODIFIERS.items():
        items = sorted({*m.FEATURES, *values})
        groups: list[tuple[Any, ...]] = [(), *((i,) for i in items)]
        groups += list(itertools.combinations(items, 2))[:: max(1, len(items) // 3)]
        groups += [("no_such_item",), (3,), (items[0], items[0])]
        contexts: list[dict[str, Any]] = [{}]
        for context in (m._MODIFIER_CONTEXT[name], m._MODIFIER_CONTEXT2.get(name)):
            if context:
                contexts += [{context: v} for v in m.CONTEXTS[context]]
                contexts += [{context: "no_such_value"}, {context: ["unhashable"]}]
        contexts += [{"no_such_context": "x"}]
        contexts += [{factor: 2} for factor, by in values.items() if by.get("") is m.GIVEN]
        questions += [(name, g, c) for g in groups for c in contexts]
    return [*questions, ("no_such_modifier", (), {})]


def test_modifier_answers_again_as_it_worked_out_first(module: ModuleType) -> None:
    m = module
    for name, items, context in modifier_questions(m):
        first = outcome(lambda: m.modifier(name, *items, **context))  # noqa: B023
        again = outcome(lambda: m.modifier(name, *items, **context))  # noqa: B023
        worked_out = outcome(lambda: m._modifier(name, items, dict(context)))  # noqa: B023
        assert same(first, again), (name, items, context, first, again)
        assert same(first, worked_out), (name, items, context, first, worked_out)


def test_excluded_conditions_warn_on_every_call_not_only_the_first(tmp_path: Path) -> None:
    compiled = Compiler().compile_file(RULESETS / "battletech_tacops.terrain")
    assert compiled.ruleset is not None
    m = import_rendered(compiled.ruleset, tmp_path, "fast_bt_warnings")
    pair = next(
        (a, b) for a, others in sorted(m.EXCLUSIONS.items()) for b in sorted(others) if a < b
    )
    for _ in range(3):
        with pytest.warns(m.ConflictWarning):
            m.modifier("to_hit", *pair, weapon="ballistic")
    assert pair not in m._CONFLICT_FREE


def test_results_rolls_answer_again_as_they_worked_out_first(module: ModuleType) -> None:
    m = module
    for table, results in getattr(m, "RESULTS_TABLES", {}).items():
        odds = sorted({c.value for c in results.columns})
        columns: list[Any] = [c.id for c in results.columns]
        columns += [*odds, *(v + 0.5 for v in odds), 0, 1.5, True, "no_such_column"]
        columns += [float("nan"), float("inf"), [1]]
        totals: list[Any] = [*range(-2, 15), 4.0, 4.5, "4", None]
        for column, total in itertools.product(columns, totals):
            first = outcome(lambda: m.roll(table, total, column=column))  # noqa: B023
            again = outcome(lambda: m.roll(table, total, column=column))  # noqa: B023
            worked_out = outcome(lambda: m._roll(table, total, column, None))  # noqa: B023
            assert same(first, again), (table, total, column, first, again)
            assert same(first, worked_out), (table, total, column, first, worked_out)


def test_lookups_answer_again_as_they_worked_out_first(module: ModuleType) -> None:
    m = module
    for table in [*m.TABLES, "no_such_table"]:
        entry = m.TABLES.get(table)
        rows = [*(entry.rows if entry else ()), "no_such_row", 99, [1]]
        columns = [*(entry.columns if entry else ()), "no_such_column", 1]
        keys: list[tuple[Any, ...]] = [(r,) for r in rows]
        keys += [(c, r) for c in columns for r in rows]
        keys += [(), ("a", "b", "c")]
        for key in keys:
            first = outcome(lambda: m.lookup(table, *key))  # noqa: B023
            again = outcome(lambda: m.lookup(table, *key))  # noqa: B023
            worked_out = outcome(lambda: m._lookup(table, key))  # noqa: B023
            assert same(first, again), (table, key, first, again)
            assert same(first, worked_out), (table, key, first, worked_out)
