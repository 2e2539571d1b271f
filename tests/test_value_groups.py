"""``Value``'s members in groups (issue 36 item 6), and ``Statement``'s.

A reader takes a whole group with one class pattern (``case ir.OnceCost():``,
``case s.Change():``), so a group's base class must mark members of its union only, and each
member at most one group: a member in two groups would be read by whichever arm comes first, and
a class outside the union marked as a group would be matched where no reader expects it. That a
member added to the union outside every group is named by mypy in every reader is
tests/test_closed_unions.py's experiment.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from types import ModuleType

import pytest

from rulesdsl import ir
from rulesdsl.frontends import syntax as s
from rulesdsl.ir import values

UNIONS = {
    "Value": (values, (ir.PerDistance, ir.OnceCost, ir.NonCost)),
    "Statement": (s, (s.Header, s.Change, s.Plain)),
}
"""Each grouped union: the module that defines it, and its groups."""


def _members(union: str) -> tuple[type, ...]:
    module, _ = UNIONS[union]
    return typing.get_args(getattr(module, union))


@pytest.mark.parametrize("union", UNIONS)
def test_each_member_is_in_one_group_at_most(union: str) -> None:
    groups = UNIONS[union][1]
    in_two = [m.__name__ for m in _members(union) if sum(issubclass(m, g) for g in groups) > 1]
    assert in_two == []


@pytest.mark.parametrize("union", UNIONS)
def test_a_group_marks_members_of_its_union_only(union: str) -> None:
    module, groups = UNIONS[union]
    members = set(_members(union))
    marked = {
        cls
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if cls not in groups and issubclass(cls, groups)
    }
    assert marked - members == set()
    assert all(any(issubclass(m, g) for m in members) for g in groups)


def _said(module: ModuleType, union: str) -> dict[str, str]:
    source = inspect.getsource(module)
    start = source.index(f"\n{union} = (")
    said = {}
    for line in source[start : source.index("\n)\n", start)].splitlines()[2:]:
        name, _, group = line.strip().lstrip("| ").partition("  # ")
        said[name] = group
    return said


@pytest.mark.parametrize("union", UNIONS)
def test_the_union_says_each_members_group_beside_it(union: str) -> None:
    """The comment beside each member in ``Value = (...)`` (``Statement = (...)``) is its
    group (or none)."""
    module, groups = UNIONS[union]
    assert _said(module, union) == {
        m.__name__: next((g.__name__ for g in groups if issubclass(m, g)), "")
        for m in _members(union)
    }


LISTS = ("rows", "values", "outcomes")
"""The fields in which a block lists named members (a layer's rows, a context's values)."""


def test_a_statement_stands_alone_when_it_lists_named_members() -> None:
    """The declarations outside every group are the blocks that list named members (readers
    dispatch on each: a new block must say what its members are); a ``Plain`` declaration
    lists none, so the readers of members may take the group whole."""
    alone = {m for m in _members("Statement") if not issubclass(m, UNIONS["Statement"][1])}
    listing = {
        m
        for m in _members("Statement")
        if issubclass(m, s.Plain) or m in alone
        if any(f.name in LISTS for f in dataclasses.fields(m))
    }
    assert alone == listing
