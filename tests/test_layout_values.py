"""The layout read from plain values (issue 44) gives the very text of the layout of their tree.

``layout_value``, ``layout_entry`` and ``flat_value`` skip the tree of a value that fits on its
line, and of a dict or tuple broken one element a line; ``tests/test_module_layout.py`` holds the
tree's layout to ``ruff format``, so these hold the shortcuts to the tree, on random nested data
at every column up to the line limit's edge.
"""

from __future__ import annotations

import random
from fractions import Fraction

from rulesdsl.codegen.python import layout as python_layout
from rulesdsl.codegen.python.values import Code

KEYS = ["en", "fr", "woods", "heavy_industrial_zone", "k" * 30, "地形", 'q"uote']


def _leaf(rng: random.Random) -> object:
    kind = rng.randrange(5)
    if kind == 0:
        return rng.choice([0, 1, -3, 2.5, 2.0, 1e-7, 10**20, None, True, False, Fraction(5, 12)])
    if kind == 1:
        return rng.choice(["", "a", "it's", 'say "hi"', "x" * rng.randrange(130)])
    if kind == 2:
        words = rng.choices(["word", "longer", "ça", "é", "地形", "'", '"', "a\\b", "\t"], k=50)
        return " ".join(words)[: rng.randrange(220)]
    if kind == 3:
        return Code(rng.choice(["IMPASSABLE", "Dice(1, 6, 3)", "Quantity(1.5, 'in')"]))
    return python_layout.Atom("math.inf")


def _value(rng: random.Random, depth: int) -> object:
    kind = rng.randrange(8 if depth < 3 else 1)
    if kind == 0:
        return _leaf(rng)
    if kind in (1, 2):
        keys = rng.sample(KEYS, k=rng.randrange(5))
        return {k: _value(rng, depth + 1) for k in keys}
    if kind == 3:  # keyed by tuples, as (mode, feature)
        keys = [(rng.choice(KEYS), rng.choice(KEYS)) for _ in range(rng.randrange(4))]
        return {k: _value(rng, depth + 1) for k in keys}
    if kind == 4:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    if kind == 5:  # an exploded group, as the module's hand-written blocks make
        items = tuple(python_layout.tree(_value(rng, depth + 1)) for _ in range(rng.randrange(4)))
        return python_layout.Group("(", items, ")", len(items) == 1, exploded=True)
    if kind == 6:
        return python_layout.call("Record", *(_value(rng, depth + 1) for _ in range(3)))
    return tuple(_value(rng, depth + 1) for _ in range(rng.randrange(5)))


def test_values_are_laid_out_as_their_trees_are() -> None:
    rng = random.Random(44)
    for _ in range(1000):
        value = _value(rng, 0)
        indent = rng.randrange(0, 40, 4)
        column = indent + rng.randrange(100 - indent)
        tail = rng.randrange(3)
        tree = python_layout.tree(value)
        assert python_layout.flat_value(value) == python_layout.flat(tree), value
        assert python_layout.layout_value(value, indent, column, tail) == python_layout.layout(
            tree, indent, column, tail
        ), (value, indent, column, tail)


def test_dict_entries_are_laid_out_as_their_trees_are() -> None:
    rng = random.Random(45)
    for _ in range(1000):
        key = rng.choice([rng.choice(KEYS), (rng.choice(KEYS), rng.choice(KEYS)), 7])
        value = _value(rng, 1)
        indent = rng.randrange(0, 40, 4)
        tail = rng.randrange(3)
        entry = python_layout.dict_entry(python_layout.tree(key), python_layout.tree(value))
        assert python_layout.layout_entry(key, value, indent, tail) == python_layout.layout(
            entry, indent, indent, tail
        ), (key, value, indent, tail)
