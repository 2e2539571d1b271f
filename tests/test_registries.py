"""The registries (issue 36 item 4): the build knows the targets only through
``codegen.targets.TARGETS``, and every decision on a ruleset file's suffix goes through
``frontends.registry.FRONT_ENDS``."""

from __future__ import annotations

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
from rulesdsl.outputs import Output, digest_bytes

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
