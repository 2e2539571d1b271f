"""The registries (issue 36 item 4): the build knows the targets only through
``codegen.targets.TARGETS``, and every decision on a ruleset file's suffix goes through
``frontends.registry.FRONT_ENDS``."""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulesdsl import ir
from rulesdsl.builder import manifest as mf
from rulesdsl.builder.build import build
from rulesdsl.codegen import targets
from rulesdsl.compiler import Compiler
from rulesdsl.frontends import registry
from rulesdsl.outputs import Output, digest_bytes
from tests.source_trees import PACKAGE, PACKAGE_TREES, package
from tests.test_architecture import imports

RULESET = """\
ruleset tiny "Tiny"
version 1.0.0
languages en
units distance in, cost MP
mode walker "Walker"
layer ground "Ground" one per place {
  soft "Soft" | 2
}
"""


@dataclass(frozen=True)
class Echo:
    """A throwaway target: one text file per ruleset, naming its modes."""

    name: str = "echo"
    folder: str = "echo"
    package_files: tuple[str, ...] = (".echo",)
    default: bool = True

    def outputs(self, ruleset: ir.Ruleset) -> Mapping[str, Output]:
        return {f"{ruleset.id}.txt": " ".join(m.id for m in ruleset.modes).encode()}


@pytest.fixture
def with_echo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(targets, "TARGETS", (*targets.TARGETS, Echo()))


def test_a_second_target_in_TARGETS_is_built_checked_and_stamped(
    with_echo: None, tmp_path: Path
) -> None:
    rulesets, out = tmp_path / "rulesets", tmp_path / "generated"
    rulesets.mkdir()
    (rulesets / "tiny.terrain").write_text(RULESET, "utf-8")
    no_pdf = frozenset({"pdf"})
    result = build(rulesets, out, compiler=Compiler(), missing=no_pdf)
    assert result.ok and "echo/tiny.txt" in result.written and "python/tiny.py" in result.written
    assert (out / "echo" / "tiny.txt").read_bytes() == b"walker"
    entry = json.loads((out / mf.MANIFEST).read_bytes())["rulesets"]["tiny"]["target:echo"]
    assert entry["outputs"] == {"echo/tiny.txt": digest_bytes(b"walker")}
    assert build(rulesets, out, check=True, missing=no_pdf).stale == []
    (out / "echo" / "tiny.txt").write_bytes(b"edited")
    assert build(rulesets, out, check=True, missing=no_pdf).stale == ["echo/tiny.txt"]


def test_the_compiler_digest_covers_the_files_each_target_names(with_echo: None) -> None:
    assert ".echo" in mf.package_suffixes()


# ---- front ends --------------------------------------------------------------------------------

REGISTRY = PACKAGE / "frontends" / "registry.py"


def suffix_literals(path: Path) -> list[str]:
    """Where a module writes a ruleset file's suffix (``".terrain"``, ``b".yml"``, the tail
    of ``f"{id}.terrain"``): a decision on a suffix not asked of the registry."""
    known = set(registry.suffixes())
    return [
        f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value!r}"
        for node in package()[path].nodes
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str | bytes)
        and (node.value.decode() if isinstance(node.value, bytes) else node.value) in known
    ]


@PACKAGE_TREES
def test_every_decision_on_a_suffix_goes_through_FRONT_ENDS() -> None:
    found = [hit for path in package() if path != REGISTRY for hit in suffix_literals(path)]
    assert found == []
    assert suffix_literals(REGISTRY)  # the test sees a suffix where one is written


def test_the_suffixes_are_those_of_the_front_ends_each_once() -> None:
    listed = registry.suffixes()
    assert listed == tuple(x for f in registry.FRONT_ENDS for x in f.suffixes)
    assert len(set(listed)) == len(listed)
    assert registry.reading("notes.txt") is registry.FRONT_ENDS[0]
    assert registry.named("notes.txt") is None


@PACKAGE_TREES
def test_lowering_knows_no_front_end() -> None:
    """Lowering reads statements (``frontends.syntax``, and ``frontends.declared``: what each
    declares) and nothing else of the front ends, and names no suffix: what it words per file
    comes from the front end as data (``syntax.Notation``)."""
    lowering = {m: deps for m, deps in imports().items() if m.startswith("rulesdsl.lowering")}
    assert lowering
    front_ends = sorted(
        f"{m} -> {d}"
        for m, deps in lowering.items()
        for d in deps
        if d.startswith("rulesdsl.frontends")
        and d not in ("rulesdsl.frontends.syntax", "rulesdsl.frontends.declared")
    )
    assert front_ends == []
    assert [
        hit for p in sorted((PACKAGE / "lowering").glob("*.py")) for hit in suffix_literals(p)
    ] == []


def test_e232_in_a_yaml_sight_cell_hints_the_precedence_entry(tmp_path: Path) -> None:
    """The wording of a hint is the file's front end's (``syntax.Notation``), in every kind of
    cell: a sight cell of a YAML file was given the DSL's line."""
    from rulesdsl.frontends.dsl import Parser
    from rulesdsl.interchange.convert import to_yaml
    from tests.test_sight_by_unit import HEADER, SIGHT

    text = HEADER.replace("precedence fly, vehicle\n", "") + SIGHT.replace(
        "1, vehicle 2", "1, vehicle 2, fly 0"
    )
    source, syntax = Parser().parse(text, "bad.terrain")
    assert source is not None and not syntax
    path = tmp_path / "bad.yaml"
    path.write_text(to_yaml(source), "utf-8")
    [hint] = [d.hint for d in Compiler().compile_file(path).diagnostics if d.code == "E232"]
    assert hint is not None and hint.startswith("add [fly, vehicle] to `precedence:`")
