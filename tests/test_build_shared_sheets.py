"""One sheet per language for the sheets and the decks of a build (issue 29: a sheet of
20,000 features takes seconds to build, and the decks' bound read it a second time): the
build gives both backends one :class:`~rulesdsl.printed.sheet_model.Sheets`, and neither
changes what the other reads."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest

from rulesdsl import ir
from rulesdsl.builder import build as builder
from rulesdsl.codegen.targets import JS, PYTHON
from rulesdsl.compiler import Compiler
from rulesdsl.gc_pause import gc_paused
from rulesdsl.outputs import Deferred, Output
from rulesdsl.printed import sheet_model
from rulesdsl.printed.sheet_model import Sheets, build_sheet
from rulesdsl.printed.sheet_view import Sheet
from tests.conftest import RULESETS


def test_a_build_builds_each_sheet_once_for_the_sheets_and_the_decks(
    compiler: Compiler, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = compiler.compile_file(RULESETS / "heavy_gear.terrain")
    assert compiled.ruleset is not None
    built: list[str | None] = []

    def counted(
        rs: ir.Ruleset, lang: str | None = None, mode: str | None = None, words: object = None
    ) -> Sheet:
        built.append(lang)
        return build_sheet(rs, lang, mode)

    monkeypatch.setattr(sheet_model, "build_sheet", counted)
    outputs = builder.render_all([compiled.ruleset], builder.default_backends())
    assert any(rel.startswith("cards/") for rel in outputs)
    assert sorted(built) == sorted(compiled.ruleset.languages)


@pytest.mark.parametrize("name", ["heavy_gear", "battletech_tacops"])
def test_a_sheet_shared_by_the_sheets_and_the_decks_is_left_as_built(
    name: str, compiler: Compiler
) -> None:
    compiled = compiler.compile_file(RULESETS / f"{name}.terrain")
    ruleset = compiled.ruleset
    assert ruleset is not None
    sheets = Sheets(ruleset)
    before = {lang: copy.deepcopy(sheets(lang)) for lang in ruleset.languages}
    outputs = {
        **builder.sheet_outputs(ruleset, sheets),
        **builder.card_outputs(ruleset, sheets),
        **builder.web_outputs(ruleset, sheets),
    }
    for out in outputs.values():  # a deck refused by its bound is cut from the sheet here
        if isinstance(out, Deferred):
            out.is_current(b"")
    for lang in ruleset.languages:
        assert sheets(lang) == before[lang], lang


def test_a_build_with_shared_sheets_writes_what_each_backend_writes_alone(
    compiler: Compiler,
) -> None:
    compiled = compiler.compile_file(RULESETS / "heavy_gear.terrain")
    ruleset = compiled.ruleset
    assert ruleset is not None
    shared = builder.render_all([ruleset], builder.default_backends())
    alone = {
        **builder.TargetOutputs(PYTHON)(ruleset),
        **builder.TargetOutputs(JS)(ruleset),
        **builder.sheet_outputs(ruleset),
        **builder.card_outputs(ruleset),
        **builder.web_outputs(ruleset),
    }
    assert shared.keys() == alone.keys()
    for rel, out in shared.items():
        other = alone[rel]
        if isinstance(out, Deferred):
            assert isinstance(other, Deferred)
            assert (out.source_bytes, out.source_at_least) == (
                other.source_bytes,
                other.source_at_least,
            ), rel
            assert getattr(out.is_current, "keywords", {}).get("html") == getattr(
                other.is_current, "keywords", {}
            ).get("html"), rel
        else:
            assert out == other, rel


def test_the_cycle_collector_is_off_while_the_build_renders_and_as_it_was_after(
    compiler: Compiler, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import gc

    seen: list[bool] = []
    python_outputs = builder.TargetOutputs(PYTHON)

    def watched(rs: ir.Ruleset) -> dict[str, Output]:
        seen.append(gc.isenabled())
        return python_outputs(rs)

    rulesets = tmp_path / "rulesets"
    rulesets.mkdir()
    shutil.copy(RULESETS / "heavy_gear.terrain", rulesets)
    assert gc.isenabled()
    result = builder.build(rulesets, tmp_path / "out", backends=(watched,), compiler=compiler)
    assert result.ok and seen == [False]
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(RuntimeError), gc_paused():
        raise RuntimeError
    assert gc.isenabled()
