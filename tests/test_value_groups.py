"""``Value``'s members in groups (issue 36 item 6).

A reader takes a whole group with one class pattern (``case ir.OnceCost():``), so a group's
base class must mark members of ``Value`` only, and each member at most one group: a member in
two groups would be read by whichever arm comes first, and a class outside ``Value`` marked as a
group would be matched where no reader expects it. That a member added to ``Value`` outside every
group is named by mypy in every reader is tests/test_closed_unions.py's experiment.
"""

from __future__ import annotations

import inspect
import typing

from rulesdsl import ir
from rulesdsl.ir import values

GROUPS = (ir.PerDistance, ir.OnceCost, ir.NonCost)


def test_each_member_of_value_is_in_one_group_at_most() -> None:
    members = typing.get_args(ir.Value)
    in_two = [m.__name__ for m in members if sum(issubclass(m, g) for g in GROUPS) > 1]
    assert in_two == []


def test_a_group_marks_members_of_value_only() -> None:
    members = set(typing.get_args(ir.Value))
    marked = {
        cls
        for _, cls in inspect.getmembers(values, inspect.isclass)
        if cls not in GROUPS and issubclass(cls, GROUPS)
    }
    assert marked - members == set()
    assert all(any(issubclass(m, g) for m in members) for g in GROUPS)


def test_the_value_union_says_each_members_group_beside_it() -> None:
    """The comment beside each member in ``Value = (...)`` is its group (or none)."""
    source = inspect.getsource(values)
    union = source[source.index("\nValue = (") : source.index("\n)\n", source.index("\nValue = ("))]
    said = {}
    for line in union.splitlines()[2:]:
        name, _, group = line.strip().lstrip("| ").partition("  # ")
        said[name] = group
    assert said == {
        m.__name__: next((g.__name__ for g in GROUPS if issubclass(m, g)), "")
        for m in typing.get_args(ir.Value)
    }
