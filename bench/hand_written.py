"""What a careful person would write by hand for the module's questions (issue 29's references).

Each function has the signature of the module's function and answers from plain dicts, made
from the module's data before timing (so they hold exactly its answers), and checks its
arguments as far as a hand-written function does: an unknown name or key raises ``KeyError``,
a context the question does not take raises ``TypeError``. No argument is tested for its type
beyond that, no warning is given: this is the floor a generated module is held to.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import Any


def move_cost(module: ModuleType) -> Callable[..., Any]:
    """``move_cost(mode, *features, distance=1)`` from ``{mode: {feature: cost}}``."""
    entry = module.ENTRY_COST
    costs = {mode: {f.id: f.costs[mode] for f in module.FEATURES.values()} for mode in module.MODES}
    marker = module.Marker

    def move_cost(mode: str, *features: str, distance: float = 1) -> Any:
        by_feature = costs[mode]
        total = entry
        for feature in features:
            cost = by_feature[feature]
            if isinstance(cost, marker):
                return cost
            total += cost
        return total * distance

    return move_cost


def modifier(module: ModuleType) -> Callable[..., Any]:
    """``modifier(name, *items, **context)`` from ``{name: (context, {value: {item: n}})}``."""
    tables: dict[str, tuple[str | None, dict[str, dict[str, Any]]]] = {}
    for name, values in module.MODIFIERS.items():
        context = module._MODIFIER_CONTEXT[name]
        by_value: dict[str, dict[str, Any]] = {}
        for key in ["", *(module.CONTEXTS[context] if context else ())]:
            flat = dict.fromkeys(module.FEATURES, 0)
            for item, by_context in values.items():
                flat[item] = by_context[key] if key in by_context else by_context.get("", 0)
            by_value[key] = flat
        tables[name] = (context, by_value)

    def modifier(name: str, *items: str, **context: str) -> Any:
        context_name, by_value = tables[name]
        if context:
            if len(context) != 1 or context_name not in context:
                raise TypeError(f"{name} takes {context_name}=")
            values = by_value[context[context_name]]
        else:
            values = by_value[""]
        total = 0
        for item in items:
            total += values[item]
        return total

    return modifier


def dice_roll(module: ModuleType) -> Callable[..., Any]:
    """``roll(table, total)`` from ``{table: {total: row}}``."""
    rows = {
        table: {total: module.roll(table, total) for total in totals}
        for table, totals in module._ROLLS.items()
    }

    def roll(table: str, total: int) -> Any:
        return rows[table][total]

    return roll


def results_roll(module: ModuleType) -> Callable[..., Any]:
    """``roll(table, total, column, natural=None)`` on a results table from ``{table: (columns,
    naturals, {column: {total: result}})}``; a number for ``column`` picks it by its bounds."""
    tables = {}
    for table, results in module.RESULTS_TABLES.items():
        totals = module._RESULT_ROWS[table]
        by_column = {
            c.id: {total: module.roll(table, total, column=c.id) for total in totals}
            for c in results.columns
        }
        naturals = {
            n: {c.id: module.roll(table, n, column=c.id, natural=n) for c in results.columns}
            for n in results.naturals
        }
        columns = [(c.bound == "up_to", c.value, c.id) for c in results.columns]
        tables[table] = (columns, naturals, by_column)

    def roll(table: str, total: int, column: str | float, natural: int | None = None) -> Any:
        columns, naturals, by_column = tables[table]
        if not isinstance(column, str):
            for up_to, value, name in columns:
                if column <= value if up_to else column > value:
                    column = name
                    break
        if natural is not None and natural in naturals:
            return naturals[natural][column]
        return by_column[column][total]

    return roll


def lookup(module: ModuleType) -> Callable[..., Any]:
    """``lookup(table, *keys)`` from ``{table: {(column, row) or (row,): cell}}``."""
    cells: dict[str, dict[tuple[Any, ...], Any]] = {}
    for table in module.TABLES.values():
        if len(table.columns) > 1:
            cells[table.id] = {
                (column, row): row_cells[i]
                for row, row_cells in table.rows.items()
                for i, column in enumerate(table.columns)
            }
        else:
            cells[table.id] = {(row,): row_cells[0] for row, row_cells in table.rows.items()}

    def lookup(table: str, *keys: Any) -> Any:
        return cells[table][keys]

    return lookup


HEX = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def cheapest_total(
    places: dict[Any, tuple[str, ...]],
    edges: dict[Any, tuple[str, ...]],
    costs: dict[str, float],
    crossing: dict[str, float],
    along: dict[str, float],
    stops: frozenset[str],
    start: Any,
    goal: Any,
) -> float | None:
    """A plain Dijkstra on a hex map, board building included: one pass over the places gives
    each its cost (``costs`` per feature, summed once per distinct set of features) and whether
    the unit must stop there (``stops``); a step adds the place's cost, or the cheapest
    ``along`` of the edge crossed instead, and each edge feature's ``crossing``."""
    by_features: dict[tuple[str, ...], tuple[float, bool]] = {}
    board: dict[Any, tuple[float, bool]] = {}
    for place, features in places.items():
        known = by_features.get(features)
        if known is None:
            known = by_features[features] = (
                sum(costs[f] for f in features),
                not stops.isdisjoint(features),
            )
        board[place] = known
    best = {start: 0.0}
    heap = [(0.0, 0, start)]
    order = 1
    done = set()
    while heap:
        cost, _, here = heapq.heappop(heap)
        if here in done:
            continue
        done.add(here)
        if here == goal:
            return cost
        if here != start and board[here][1]:
            continue
        q, r = here
        for dq, dr in HEX:
            there = (q + dq, r + dr)
            entered = board.get(there)
            if entered is None or there in done:
                continue
            step = entered[0]
            crossed = edges.get((here, there))
            if crossed:
                alongs = [along[f] for f in crossed if f in along]
                step = (min(alongs) if alongs else step) + sum(crossing[f] for f in crossed)
            total = cost + step
            if total < best.get(there, float("inf")):
                best[there] = total
                heapq.heappush(heap, (total, order, there))
                order += 1
    return None


def route_total(steps: dict[tuple[Any, Any], float], route: Iterable[Any]) -> float:
    """The cost of a route as a sum of dict lookups of its steps' costs."""
    return sum(steps[a, b] for a, b in itertools.pairwise(route))


def route_records(
    step_of: dict[tuple[Any, Any], tuple[Any, ...]],
    rolls_at: dict[tuple[Any, Any], tuple[tuple[bool, tuple[Any, ...]], ...]],
    route: Sequence[Any],
) -> tuple[float, tuple[Any, ...], tuple[Any, ...]]:
    """route_cost's records by hand: each step (start, end, features, edge, cost) and each
    roll due (step, place, then its fields) made from dicts filled beforehand (``step_of``:
    a step's features, edge and cost; ``rolls_at``: its rolls, each with whether it is due only
    on first entering), with the total: the least a function answering as route_cost does
    must make, so the floor of its ratio to ``route_total``."""
    steps = []
    rolls = []
    total = 0.0
    seen = {route[0]}
    for i, (a, b) in enumerate(itertools.pairwise(route), 1):
        features, edge, cost = step_of[a, b]
        steps.append((a, b, features, edge, cost))
        total += cost
        for first_only, due in rolls_at.get((a, b), ()):
            if not first_only or b not in seen:
                rolls.append((i, b, *due))
        seen.add(b)
    return total, tuple(steps), tuple(rolls)
