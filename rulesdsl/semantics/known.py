"""What the reference reads of a ruleset at every question, made once per ruleset (issue 44).

Each answer of :mod:`rulesdsl.semantics` is a pure function of the IR, and a place's hindrance,
a move's cost or a place's counted features asked again rebuilt the ruleset's features by id,
its whole-map layers, the values dice outcomes feed a column and a feature's order of
keywords, for every place of every line (the worked examples' check at every compile, the
sheets, the tests that hold the generated modules to the reference). They are made here once
for a ruleset (:class:`Known`, each reading on first use) and kept while it is one of the last
:data:`KEPT` rulesets asked about. The IR is frozen, so what is kept never goes stale; a
ruleset is known by its identity (the entry holds the ruleset, so its id is not reused while
kept). What is handed out is shared: callers read it and never change it.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Sequence
from typing import Any

from rulesdsl import ir
from rulesdsl.semantics.keywords import place_order
from rulesdsl.semantics.tables import covers_map

KEPT = 4
"""How many rulesets' readings are kept (the most recently asked about)."""

_asks = itertools.count()
"""A clock of the asks (``next`` of a count is one call: no lock for a ruleset kept)."""


class Known:
    """The readings of one ruleset, each made on first use (then a plain attribute)."""

    features: dict[str, ir.Feature]
    """The features by id."""
    whole_layers: frozenset[str]
    """The ids of the ``whole map`` layers."""
    whole_map: frozenset[str]
    """The features of the ``whole map`` layers (the conditions)."""
    fed_outcomes: tuple[str, ...] | None
    """:func:`rulesdsl.semantics.effects.fed_outcomes`, once asked (None before)."""
    outcome_values: dict[str, dict[str, float]]
    """By column: :func:`rulesdsl.semantics.effects.outcome_values`, as asked."""
    answers: dict[int, tuple[ir.Question, Any]]
    """By a question's id: the question and the worked example's answer to it
    (:func:`rulesdsl.examples.ask`; the entry holds the question, so its id is not reused)."""
    orders: dict[tuple[str, tuple[str, ...]], list[tuple[str, ...]]]
    """By a feature's layer and own ``precedence``: its order of keywords, as asked."""

    def __init__(self, rs: ir.Ruleset) -> None:
        self.rs = rs
        self.asked = next(_asks)
        """When it was last asked about (:func:`of` lets the least recent go)."""

    def __getattr__(self, name: str) -> Any:  # only for a reading not made yet
        if name not in _MAKERS:
            raise AttributeError(name)
        made = _MAKERS[name](self)
        setattr(self, name, made)
        return made

    def order(self, feature: ir.Feature) -> Sequence[tuple[str, ...]]:
        """:func:`rulesdsl.semantics.keywords.place_order` of ``feature`` (keyed by what it
        reads of the feature: its layer and its own ``precedence``)."""
        key = (feature.layer, feature.precedence)
        found = self.orders.get(key)
        if found is None:
            found = self.orders[key] = place_order(self.rs, feature)
        return found


def _whole_map(k: Known) -> frozenset[str]:
    layers = k.whole_layers
    return frozenset(f.id for f in k.rs.features if f.layer in layers)


_MAKERS: dict[str, Callable[[Known], Any]] = {
    "fed_outcomes": lambda _k: None,
    "features": lambda k: {f.id: f for f in k.rs.features},
    "whole_layers": lambda k: frozenset(x.id for x in k.rs.layers if covers_map(x)),
    "whole_map": _whole_map,
    "outcome_values": lambda _k: {},
    "orders": lambda _k: {},
    "answers": lambda _k: {},
}

_kept: dict[int, Known] = {}
_lock = threading.Lock()


def of(rs: ir.Ruleset) -> Known:
    """The readings of ``rs``, kept while it is one of the :data:`KEPT` rulesets asked about
    last (a question with ``move=`` asks about a view of the ruleset made for it, which must
    not push the ruleset itself out). Only a new ruleset changes the table, under the lock."""
    found = _kept.get(id(rs))
    if found is not None and found.rs is rs:
        found.asked = next(_asks)
        return found
    made = Known(rs)
    with _lock:
        _kept[id(rs)] = made
        while len(_kept) > KEPT:
            del _kept[min(_kept, key=lambda key: _kept[key].asked)]
    return made
