"""Programmers' remarks (issue 23): `remark "..."` beside `note` speaks to whoever reads the
generated module, never to players: the module's docstring keeps it, sheets and cards never
print it, and it goes through the YAML front end, convert and diff."""

from __future__ import annotations

from pathlib import Path

from rulesdsl.codegen.targets import render_python as render
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.ir.serial import to_data
from rulesdsl.printed.cards import build_deck, render_deck_html
from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.printed.sheets import render_html, render_markdown
from rulesdsl.versions.diff import diff
from tests import pdf_layout
from tests.conftest import compile_snippet

REMARKED = """\
ruleset demo "Demo"
version 1.0.0
languages en
units distance hex, cost MP
stacking sum
mode mech "Mech"
layer base "Base terrain" one per place {
  clear "Clear" | 1
  woods "Woods" | 2
      note "Woods block sight."
      remark "The module reads woods from the map's features tuple."
}
"""


def test_a_remark_is_in_the_module_and_never_on_a_sheet_or_card(
    compiler: Compiler, tmp_path: Path
) -> None:
    compiled = compile_snippet(compiler, REMARKED, tmp_path, "demo.terrain")
    assert compiled.ok, [d.message for d in compiled.diagnostics]
    rs = compiled.ruleset
    assert rs is not None
    assert "map's features tuple" in render(rs)
    sheet = build_sheet(rs, "en")
    for text in (render_html(sheet), render_markdown(sheet)):
        assert "Woods block sight." in text
        assert "features tuple" not in text
    assert "features tuple" not in render_deck_html(build_deck(rs, "en", "poker"), "a4")


def test_a_remark_on_an_item_without_a_note_or_source_is_in_the_module(
    compiler: Compiler, tmp_path: Path
) -> None:
    """An item with a remark and nothing else to read beside its labels keeps its remark (the
    lowering's short way for items with no source, note or remark must not take it)."""
    text = REMARKED.replace('      note "Woods block sight."\n', "")
    compiled = compile_snippet(compiler, text, tmp_path, "demo.terrain")
    assert compiled.ok, [d.message for d in compiled.diagnostics]
    rs = compiled.ruleset
    assert rs is not None
    assert "map's features tuple" in render(rs)


def test_a_remark_survives_the_yaml_round_trip(compiler: Compiler, tmp_path: Path) -> None:
    source = tmp_path / "demo.terrain"
    source.write_text(REMARKED, "utf-8")
    assert main(["convert", str(source), "-o", str(tmp_path / "demo.yaml")]) == 0
    assert "remark: " in (tmp_path / "demo.yaml").read_text("utf-8")
    back = tmp_path / "back" / "demo.terrain"
    back.parent.mkdir()
    assert main(["convert", str(tmp_path / "demo.yaml"), "-o", str(back)]) == 0
    assert 'remark "The module reads' in back.read_text("utf-8")
    datas = [to_data(compiler.compile_file(p).ruleset) for p in (source, back)]  # type: ignore[arg-type]
    assert datas[0]["features"] == datas[1]["features"]


def test_a_changed_remark_is_a_wording_change(compiler: Compiler, tmp_path: Path) -> None:
    old = compile_snippet(compiler, REMARKED, tmp_path, "demo.terrain").ruleset
    new = compile_snippet(
        compiler, REMARKED.replace("features tuple", "feature list"), tmp_path, "demo.terrain"
    ).ruleset
    assert old is not None and new is not None
    changes = diff(old, new).changes
    assert [(c.level, "remarks" in c.message) for c in changes] == [("wording", True)]


def test_bundled_sheets_print_no_programmers_remark() -> None:
    rs = pdf_layout.ruleset("heavy_gear")
    for lang in rs.languages:
        md = render_markdown(build_sheet(rs, lang))
        for word in ("module", "Modul", "argument", "perk_or_flaw"):
            assert word not in md, (lang, word)
    assert "perk_or_flaw=n" in render(rs)
