"""The walk's marks (issue 44): the sizes and numbers passes read only the nodes the walk marks,
and say exactly what they say when they read every node."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rulesdsl import ir
from rulesdsl.checks import numbers, sizes, walk
from rulesdsl.compiler import Compiler, _notation
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering.lower import lower
from rulesdsl.positions import Positions

ROOT = Path(__file__).resolve().parent.parent
HEADER = 'ruleset demo "Demo"\nversion 1.0.0\nunits distance in, cost MP\nmode walker "Walker"\n'
ROWS = "".join(f'  r{i} "R" | 1\n' for i in range(10_001))
BAD = {
    "a long name": HEADER + 'mode tank "' + "x" * 20_001 + '"\n',
    "a long label": HEADER + 'layer l "L" {\n  a "' + "y" * 20_001 + '" | 1\n}\n',
    "a huge cost": HEADER + 'layer l "L" {\n  big "Big" | 100000000000000000000\n}\n',
    "a huge rate": HEADER + 'layer l "L" {\n  big "Big" | 2 per 10000000000 in\n}\n',
    "a negative huge cost": HEADER + 'layer l "L" {\n  big "Big" | -100000000000\n}\n',
    "too many rows": HEADER + 'table t "T" {\n' + ROWS + "}\n",
}


def _lowered(text: str, path: str) -> tuple[ir.Ruleset, Positions]:
    resolved = Compiler().compile_text(text, path, Path(path).parent).resolved  # bases too
    assert resolved is not None
    done = lower(resolved.statements, resolved.lineage, s.Pos(path, 1, 1, 1, 1), _notation)
    assert done.ruleset is not None
    return done.ruleset, done.positions


def _same_reading(text: str, path: str) -> list[str]:
    rs, where = _lowered(text, path)
    listed = walk.nodes(rs)
    every = walk.Nodes(listed)  # the same nodes, no marks: each pass reads them all
    assert every.marked is None and listed.marked is not None
    found = []
    for check in (sizes.check, numbers.check):
        marked = check(rs, where, listed)
        assert marked == check(rs, where, every)
        found += [d.code for d in marked]
    return found


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_fault_is_found_on_the_marked_nodes_alone(name: str) -> None:
    found = _same_reading(BAD[name], "bad.terrain")
    assert found and set(found) <= {"E007", "E008", "E202", "E212", "E213"}


@pytest.mark.parametrize("path", sorted((ROOT / "rulesets").glob("*.terrain")), ids=str)
def test_a_bundled_ruleset_reads_the_same(path: Path) -> None:
    assert _same_reading(path.read_text("utf-8"), str(path)) == []


@dataclasses.dataclass(frozen=True)
class _Leaf:
    value: object


@dataclasses.dataclass(frozen=True)
class _Branch:
    items: tuple[object, ...]
    table: dict[str, object]


def test_a_mark_goes_on_the_node_whose_field_holds_the_value() -> None:
    big = _Leaf(1e10)
    root = _Branch((_Leaf(1.0), big, (2.0, {"k": float("nan")})), {"a": _Leaf("x" * 20_001)})
    listed = walk.nodes(root)
    marked = {type(listed[i][0]).__name__ + str(i) for i in listed.marked or ()}
    # the root (a nan in its plain tuple), the big leaf and the long string's leaf; not 1.0
    assert marked == {"_Branch0", "_Leaf2", "_Leaf3"}


def test_a_node_reached_twice_is_listed_once_under_its_first_owners() -> None:
    shared = _Leaf(1e10)
    inner = _Branch((shared,), {})
    root = _Branch((inner, shared), {"again": shared})
    listed = walk.nodes(root)
    assert [(node, owners) for node, owners in listed] == [
        (root, (root,)),
        (inner, (inner, root)),
        (shared, (shared, inner, root)),
    ]
    assert listed.marked == {2}
