"""rulesdsl.frontends.memo: a process parses each (path, text) once, which is safe only while
a parse's answer cannot be changed by whoever is given it (issue 44)."""

from __future__ import annotations

import dataclasses
import enum
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesdsl.compiler import Compiler
from rulesdsl.frontends.memo import ParsedTexts
from rulesdsl.variants import resolve

ROOT = Path(__file__).resolve().parent.parent


def _mutable_parts(value: Any, where: str, out: list[str]) -> None:
    """Every place under ``value`` that a caller could change: a container other than a tuple
    or frozenset, an object that is not a frozen dataclass, a ``str`` subclass (a Lark token's
    attributes can be set)."""
    if type(value) in (str, int, float, bool, type(None), Fraction) or isinstance(value, enum.Enum):
        return
    if isinstance(value, tuple | frozenset):
        for i, item in enumerate(value):
            _mutable_parts(item, f"{where}[{i}]", out)
        return
    params = getattr(type(value), "__dataclass_params__", None)
    if params is None or not params.frozen or (hasattr(value, "__dict__") and _extra(value)):
        out.append(f"{where}: {type(value).__name__}")
        return
    for f in dataclasses.fields(value):
        _mutable_parts(getattr(value, f.name), f"{where}.{f.name}", out)


def _extra(value: Any) -> bool:
    """Attributes set beside a frozen dataclass's fields (they could be changed)."""
    names = {f.name for f in dataclasses.fields(value)}
    return any(name not in names for name in vars(value))


def test_every_bundled_ruleset_s_tree_and_diagnostics_are_frozen_all_through() -> None:
    files = sorted((ROOT / "rulesets").glob("*.terrain")) + sorted(
        (ROOT / "rulesets").glob("*.yaml")
    )
    broken = files[0].read_text("utf-8") + '\nlayer x "X" {\n  a "\x01" | 1' + "9" * 400 + "\n"
    compiler = Compiler()
    compiler.parsed_texts = None
    parses = [compiler.parse_text(p.read_text("utf-8"), str(p)) for p in files]
    parses.append(compiler.parse_text(broken, "broken.terrain"))
    assert parses[-1][1]  # the broken copy has its diagnostics, and a tree
    found: list[str] = []
    for path, (tree, diagnostics) in zip([*files, "broken"], parses, strict=True):
        assert tree is not None
        _mutable_parts(tree, str(path), found)
        _mutable_parts(tuple(diagnostics), f"{path} diagnostics", found)
    assert found == []


def test_a_second_compiler_gets_the_same_tree_and_a_list_of_its_own(tmp_path: Path) -> None:
    text = (ROOT / "rulesets" / "heavy_gear_house.terrain").read_text("utf-8")
    text += '\nlayer z "Z" {\n  a "\x01" | 1\n}\n'
    path = tmp_path / "heavy_gear_house.terrain"
    path.write_text(text, "utf-8")
    tree, diagnostics = Compiler().parse_file(path)
    assert diagnostics and tree is not None
    diagnostics.clear()  # the caller's list: what others get is left as it was
    again, kept = Compiler().parse_file(path)
    assert again is tree and kept and kept is not diagnostics
    kept.append(kept[0])
    assert len(Compiler().parse_file(path)[1]) == len(kept) - 1
    apart = Compiler()
    apart.parsed_texts = None
    fresh, _ = apart.parse_file(path)
    assert fresh is not tree and fresh == tree
    (tmp_path / "elsewhere.terrain").write_text(text, "utf-8")
    other, _ = Compiler().parse_file(tmp_path / "elsewhere.terrain")
    assert other is not tree and other is not None and other.path.endswith("elsewhere.terrain")
    assert Compiler().parse_text(text, str(path))[0] is not tree  # the language server's way


def test_the_kept_parses_are_bounded_oldest_first() -> None:
    memo = ParsedTexts(entries=2, largest=10, characters=15)
    for name in "abc":
        memo.put(name, name * 5, (None, []))
    assert len(memo) == 2 and memo.get("a", "aaaaa") is None
    assert memo.get("b", "bbbbb") is not None  # now the most recent
    memo.put("d", "d" * 10, (None, []))  # 20 characters: the oldest, c, goes
    assert memo.get("c", "ccccc") is None and memo.get("b", "bbbbb") is not None
    memo.put("e", "e" * 11, (None, []))  # over `largest`: not kept
    assert memo.get("e", "e" * 11) is None and len(memo) == 2


def test_a_kept_tree_s_digest_is_made_once_for_all_its_compiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each compile of a kept parse asks its statements' digest (the lineage's): it is made
    once while the tree is kept, and each time for a tree that is not (the language server's
    open documents)."""
    made: list[str] = []

    def counted(statements: Any) -> str:
        made.append(digest := real(statements))
        return digest

    real = resolve.statements_digest
    monkeypatch.setattr(resolve, "statements_digest", counted)
    path = tmp_path / "heavy_gear.terrain"
    text = (ROOT / "rulesets" / "heavy_gear.terrain").read_text("utf-8")
    path.write_text(text + f"\n# {tmp_path.name}\n", "utf-8")  # a text no other test kept
    first, again = (Compiler().compile_file(path).ruleset for _ in range(2))
    assert first is not None and again is not None and first.digest == again.digest == made[0]
    assert len(made) == 1
    tree = Compiler().parse_text(path.read_text("utf-8"), str(path))[0]  # kept by no one
    assert tree is not None and resolve.resolve(tree, lambda _: None)[0] is not None
    assert made == [made[0]] * 2
